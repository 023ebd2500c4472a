"""Speed benchmark: a large generated source with macros, REPEATs, literals and text.

Run as ``midas bench`` or ``python -m midas.bench``.
"""

from __future__ import annotations

import sys
import time

from . import assemble

_HEADER = """\
TITLE BENCH
A=1
B=2
C=3
P=17
DEFINE PUSHAC LIST
IRP X,,[LIST]
	PUSH P,X
TERMIN
TERMIN
DEFINE ENTRY NAME,VALUE
NAME:	MOVEI A,VALUE
	ADDI A,[VALUE]
	JRST ENTRY2
TERMIN
"""

_BLOCK = """\
S{n}:	MOVE A,TABLE+{m}.(B)	; load an entry
	CAMLE A,[{k}.]
	JRST S{n}A
	ADDI A,<{m}.*3+1>&777
	MOVEM A,@PTR(C)
	PUSHAC [A,B,C]
S{n}A:	SOJG B,S{n}
	HRRZ C,[SIXBIT /B{n}/]
	ENTRY E{n},{k}.
	IFN {n}.&1,[AOS COUNT]
	JRST @[S{n}]
"""


def generate(lines: int) -> str:
    """A source of about ``lines`` lines."""
    parts = [_HEADER, "LOC 1000\n"]
    per_block = _BLOCK.count("\n")
    for n in range(max(1, lines // per_block)):
        parts.append(_BLOCK.format(n=n, m=n % 100, k=n * 7 % 1000))
        if n % 200 == 199:
            parts.append("CONSTANTS\n")
    parts.append(
        "ENTRY2:	POPJ P,\nPTR:	0\nCOUNT:	0\nTABLE:	REPEAT 100.,[.RPCNT\n]\n"
        "	ASCIZ /THE END/\nEND S0\n"
    )
    return "".join(parts)


def run_benchmark(lines: int = 20000, repeat: int = 3) -> str:
    """Assemble the generated source ``repeat`` times; a report of the best run."""
    source = generate(lines)
    count = source.count("\n")
    best = float("inf")
    words = 0
    for _ in range(max(1, repeat)):
        t0 = time.perf_counter()
        program = assemble(source, "bench.mid")
        best = min(best, time.perf_counter() - t0)
        if program.errors:
            return "benchmark source did not assemble: " + str(program.errors[0])
        words = len(program.words)
    return (
        f"{count} lines ({words} words) assembled in {best:.3f} s: "
        f"{count / best:,.0f} lines/second"
    )


if __name__ == "__main__":
    lines = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    print(run_benchmark(lines))
