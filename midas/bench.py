"""Speed benchmarks: a large generated source in the proportions of hand-written code,
and a macro-heavy one in the manner of Spacewar (most of its work is expansion).

Run as ``midas bench`` or ``python -m midas.bench``.
"""

from __future__ import annotations

import gc
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


# A source in the manner of Spacewar's: most of the work is expanding.  An outline
# compiler (IRPC over a string of digits, a conditional for each digit), a REPEAT that
# makes an object routine per pass from nested macros (labels, gensyms, IRP, IRPS) and
# tables built with CONC, with some plain code between.  It was made so that, before
# any work on speed, it went about as many times slower than the plain source as
# Spacewar did (5 to 7).
_MACRO_HEADER = """\
TITLE MACBEN
A=1
B=2
C=3
D=4
P=17
DEFINE CONC A,B,C,D,E
A!B!C!D!E!TERMIN
DEFINE SAVE L
IRP R,,[L]
\tPUSH P,R
TERMIN
TERMIN
DEFINE REST L
IRPS R,,[L]
\tPOP P,R
TERMIN
TERMIN
DEFINE CLAMP AC,LO,HI
\tCAIGE AC,LO
\t MOVEI AC,LO
\tCAILE AC,HI
\t MOVEI AC,HI
TERMIN
DEFINE STEP N,\\L
L:\tMOVE A,CONC OX,\\N
\tADD A,CONC OV,\\N
\tCLAMP A,0,777
\tMOVEM A,CONC OX,\\N
\tSOJG B,L
TERMIN
DEFINE OUTLIN NAME,DIGITS
NAME:\tMOVE C,D
IRPC X,,[DIGITS]
IFE X-1,[\tADDI C,1]
IFE X-2,[\tSUBI C,1]
IFE X-3,[\tADDI C,100]
IFE X-4,[\tSUBI C,100]
IFE X-5,[\tDATAO DIS,C]
IFE X-6,[\tPUSHJ P,CONC OS,\\.IRPCNT]
TERMIN
\tPOPJ P,
TERMIN
DEFINE OBJ N
CONC OB,\\N,:
\tSAVE [B,C,D]
\tMOVEI B,N+1
\tSTEP N
\tSKIPE CONC OF,\\N
\t PUSHJ P,CONC OS,\\N
\tREST [D C B]
\tPOPJ P,
TERMIN
LOC 1000
"""
_MACRO_GROUP = """\
REPEAT 4,[OBJ \\.RPCNT+{n}.
]
TAB{g}:\tREPEAT 4,[CONC OB,\\.RPCNT+{n}.
]
REPEAT 4,[CONC OX,\\.RPCNT+{n}.,:
\t0
CONC OV,\\.RPCNT+{n}.,:
\t.RPCNT&7+1
CONC OF,\\.RPCNT+{n}.,:
\t.RPCNT&1
CONC OS,\\.RPCNT+{n}.,:
\tPOPJ P,
]
"""
_MACRO_PLAIN = """\
R{g}{i}:\tMOVE A,OX{n:o}(B)\t; plain code between the tables
\tCAMLE A,[{i}.]
\t JRST R{g}{i}A
\tADDI A,{i}.
\tMOVEM A,@OV{n:o}(C)
R{g}{i}A:\tSOJG B,R{g}{i}
\tPOPJ P,
"""


def generate_macro_heavy(lines: int) -> str:
    """A macro-heavy source of about ``lines`` lines (groups of four objects)."""
    parts = [_MACRO_HEADER]
    count = _MACRO_HEADER.count("\n")
    g = 0
    while count < lines - 2:
        n = 4 * g
        group = [_MACRO_GROUP.format(g=g, n=n)]
        for i in range(4):
            digits = "".join(str((g * 7 + i * 3 + k * k) % 6 + 1) for k in range(12))
            group.append(f"OUTLIN SH{g}{i},{digits}\n")
        group += [_MACRO_PLAIN.format(g=g, i=i, n=n) for i in range(8)]
        parts += group
        count += sum(part.count("\n") for part in group)
        g += 1
    parts.append("CONSTANTS\nEND TAB0\n")
    return "".join(parts)


def measure(source: str, repeat: int) -> tuple[int, int, float, float]:
    """Assemble ``source`` ``repeat`` times: (lines, words, best wall-clock seconds, best
    processor seconds).  Raises ValueError if it does not assemble."""
    lines = source.count("\n")
    best_wall = best_cpu = float("inf")
    words = 0
    for _ in range(max(1, repeat)):
        # Each run starts without the last one's garbage, as a new ``midas`` process
        # does: collecting it (all at once, as the assembly turns the collector off)
        # is no part of the next assembly.
        gc.collect()
        wall, cpu = time.perf_counter(), time.process_time()
        program = assemble(source, "bench.mid")
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
        if program.errors:
            raise ValueError("benchmark source did not assemble: " + str(program.errors[0]))
        words = len(program.words)
    return lines, words, best_wall, best_cpu


def run_benchmark(lines: int = 20000, repeat: int = 3) -> str:
    """Assemble the plain source and the macro-heavy one (a quarter as many lines, timed
    three times as often); a report of the best runs.

    Wall-clock time is what a user waits; processor time is given too, because on a
    shared machine other processes stretch the wall clock.
    """
    report = []
    cases = (
        ("plain", generate(lines), repeat),
        ("macro-heavy", generate_macro_heavy(max(1, lines // 4)), 3 * repeat),
    )
    for name, source, times in cases:
        try:
            count, words, wall, cpu = measure(source, times)
        except ValueError as exc:
            return str(exc)
        report.append(
            f"{name}: {count} lines ({words} words) assembled in {wall:.3f} s: "
            f"{count / wall:,.0f} lines/second ({count / cpu:,.0f} per second of "
            "processor time)"
        )
    return "\n".join(report)


if __name__ == "__main__":
    lines = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    print(run_benchmark(lines))
