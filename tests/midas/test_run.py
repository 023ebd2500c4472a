"""Assemble small programs, load the SBLK file with pdp6/formats/loader.py, run them on the
emulator (plain-Python engine: no compile time) and check what they leave in core."""

import pytest

from midas.sblk import sblk_words
from pdp6.formats.loader import load_into, read_sblk
from pdp6.formats.wordfile import encode_words

from .helpers import asm

pdp6 = pytest.importorskip("pdp6")


def run(source: str, limit: int = 10_000):
    program = asm(source)
    image = read_sblk(encode_words(sblk_words(program)))
    machine = pdp6.Machine(engine="python")
    start = load_into(machine.memory, image)
    assert start is not None
    machine.pc = start
    stop = machine.run(max_instructions=limit)
    assert stop.reason == "halt", stop
    return machine, program


def test_loop() -> None:
    machine, program = run(
        """A=1
B=2
GO:\tMOVEI A,0
\tMOVEI B,12
LOOP:\tADD A,B\t\t; A = 10+9+...+1
\tSOJG B,LOOP
\tHALT .
END GO
"""
    )
    assert machine.memory[1] == 55  # 1 + 2 + ... + 10
    assert machine.memory[2] == 0
    assert machine.pc == program.symbols["LOOP"] + 2  # halted at HALT . (PC = E)


def test_subroutine_call() -> None:
    machine, program = run(
        """P=17
GO:\tMOVE P,[-20,,PDL-1]
\tMOVEI 1,5
\tPUSHJ P,DOUBLE
\tPUSHJ P,DOUBLE
\tHALT .
DOUBLE:\tADD 1,1
\tPOPJ P,
PDL:\tBLOCK 20
END GO
"""
    )
    assert machine.memory[1] == 20  # 5 doubled twice
    # Two PUSHJ and two POPJ: the stack pointer is back to -20,,PDL-1.
    assert machine.memory[0o17] == (0o777760 << 18) | (program.symbols["PDL"] - 1)


def test_literals_and_text() -> None:
    machine, _ = run(
        """A=1
B=2
GO:\tMOVE A,[123456,,654321]
\tADD A,[1]
\tMOVE B,[ASCIZ /HI/]
\tHLRZ 3,[SIXBIT /AB/]
\tHALT .
END GO
"""
    )
    assert machine.memory[1] == 0o123456_654322
    assert machine.memory[2] == 0o442220_000000  # "HI": 1001000 1001001 0...
    assert machine.memory[3] == 0o414200  # the left half of SIXBIT /AB/


def test_macro_generated_table() -> None:
    machine, program = run(
        """DEFINE SQUARES N
REPEAT N,[.RPCNT*.RPCNT
]
TERMIN
GO:\tMOVEI 1,0
\tMOVSI 2,-10
L:\tADD 1,TABLE(2)\t; AOBJN loop over the eight entries
\tAOBJN 2,L
\tHALT .
TABLE:\tSQUARES 10
END GO
"""
    )
    table = program.symbols["TABLE"]
    assert [machine.memory[table + i] for i in range(8)] == [0, 1, 4, 9, 16, 25, 36, 49]
    assert machine.memory[1] == 140  # 0 + 1 + 4 + ... + 49


def test_irp_dispatch_table_and_variables() -> None:
    # IRP splits its list at commas; [...] protects the commas inside an element.
    machine, program = run(
        """DEFINE OPS LIST
IRP X,,[LIST]
\tX
TERMIN
TERMIN
GO:\tMOVEI 1,3
\tSETZM RESULT'
\tMOVSI 2,-3
L:\tXCT TAB(2)
\tAOBJN 2,L
\tMOVEM 1,RESULT
\tHALT .
TAB:\tOPS [[ADDI 1,1],[IMULI 1,3],[SUBI 1,2]]
END GO
"""
    )
    assert machine.memory[1] == 10  # ((3+1)*3)-2
    assert machine.memory[program.symbols["RESULT"]] == 10
