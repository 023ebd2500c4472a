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
D=4
P=17
DEFINE PUSHAC LIST
IRP X,,[LIST]
\tPUSH P,X
TERMIN
TERMIN
DEFINE ENTRY NAME,VALUE
NAME:\tMOVEI A,VALUE
\tJRST ENTRY2
TERMIN
"""

# One routine, in the proportions of hand-written code: mostly plain instructions, some
# literals, expressions and bracketed words, a macro call, a conditional, a text.
_BLOCK = """\
S{n}:\tMOVE A,TABLE+{m}.(B)\t; load an entry
\tCAMLE A,[{k}.]
\t JRST S{n}A
\tADDI A,<{m}.*3+1>&777
\tMOVEM A,@PTR(C)
\tPUSHAC [A,B,C]
\tSETZM COUNT
\tMOVE D,A
\tLSH D,-3
\tANDI D,7
\tADD D,TABLE(A)
\tHRRZ C,[SIXBIT /B{n}/]
\tSKIPN COUNT
\t AOS COUNT
S{n}A:\tSOJG B,S{n}
\tMOVE B,TABLE+1
\tCAIE C,"A
\t JRST S{n}B
\tIFN {n}.&1,[AOS COUNT]
S{n}B:\tPOP P,C
\tPOP P,B
\tPOP P,A
\tENTRY E{n},{k}.
\tJRST @[S{n}]
"""


def generate(lines: int) -> str:
    """A source of about ``lines`` lines."""
    parts = [_HEADER, "LOC 1000\n"]
    per_block = _BLOCK.count("\n")
    for n in range(max(1, lines // per_block)):
        parts.append(_BLOCK.format(n=n, m=n % 100, k=n * 7 % 1000))
        if n % 100 == 99:
            parts.append("CONSTANTS\n")
    parts.append(
        "ENTRY2:\tPOPJ P,\nPTR:\t0\nCOUNT:\t0\nTABLE:\tREPEAT 100.,[.RPCNT\n]\n"
        "\tASCIZ /THE END/\nEND S0\n"
    )
    return "".join(parts)


def run_benchmark(lines: int = 20000, repeat: int = 3) -> str:
    """Assemble the generated source ``repeat`` times; a report of the best run.

    Wall-clock time is what a user waits; processor time is given too, because on a
    shared machine other processes stretch the wall clock.
    """
    source = generate(lines)
    count = source.count("\n")
    best_wall = best_cpu = float("inf")
    words = 0
    for _ in range(max(1, repeat)):
        wall, cpu = time.perf_counter(), time.process_time()
        program = assemble(source, "bench.mid")
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
        if program.errors:
            return "benchmark source did not assemble: " + str(program.errors[0])
        words = len(program.words)
    return (
        f"{count} lines ({words} words) assembled in {best_wall:.3f} s: "
        f"{count / best_wall:,.0f} lines/second ({count / best_cpu:,.0f} per second of "
        "processor time)"
    )


if __name__ == "__main__":
    lines = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    print(run_benchmark(lines))
