"""The per-opcode table the execute loop reads, built from the instruction table.

Entries 0-777 hold each opcode's logic time in ns (``pdp6.timing``); entries
1000-1777 hold its family id (``pdp6.isa.FAMILY_ID``), on which ``loop.execute``
dispatches.  So ``pdp6/isa.py`` decides which routine runs every opcode.
"""

from __future__ import annotations

import numpy as np

from .. import isa, timing

FAMILY_BASE = 0o1000
F = isa.FAMILY_ID  # family name -> id, read as constants by the compiled loop
F_UUO = F[isa.UUO]
F_NOOP = F[isa.NOOP]
F_FSC = F[isa.FSC]
F_IBP = F[isa.IBP]
F_BYTE = F[isa.BYTE]
F_FLOAT = F[isa.FLOAT]
F_MOVE = F[isa.MOVE]
F_MULDIV = F[isa.MULDIV]
F_SHIFT = F[isa.SHIFT]
F_EXCH = F[isa.EXCH]
F_BLT = F[isa.BLT]
F_AOBJ = F[isa.AOBJ]
F_JRST = F[isa.JRST]
F_JFCL = F[isa.JFCL]
F_XCT = F[isa.XCT]
F_STACK = F[isa.STACK]
F_JUMPS = F[isa.JUMPS]
F_ADDSUB = F[isa.ADDSUB]
F_COMPARE_FIRST = F[isa.COMPARE]  # COMPARE JUMP SKIP AOJ AOS SOJ SOS
F_COMPARE_LAST = F[isa.SOS]
F_BOOLE = F[isa.BOOLE]
F_HALF = F[isa.HALF]
F_TEST = F[isa.TEST]
F_IOT = F[isa.IOT]
assert F_COMPARE_LAST - F_COMPARE_FIRST == 6, "compare families must be consecutive"


def build() -> np.ndarray:
    """The 1024-entry table: logic ns by opcode, then family id by opcode."""
    table = np.zeros(2 * FAMILY_BASE, dtype=np.int64)
    table[:FAMILY_BASE] = timing.logic_table()
    for op in isa.OPCODES:
        table[FAMILY_BASE + op.code] = F[op.family]
    return table
