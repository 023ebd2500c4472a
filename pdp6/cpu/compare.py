"""Opcodes 300-377: CAI CAM JUMP SKIP AOJ AOS SOJ SOS with their eight conditions."""

from __future__ import annotations

from ..jit import jit, jit_inline
from .access import read, write
from .arith import add_flags, signed, sub_flags
from .fixed import jump_to
from .state import FAULT, FLAGS


@jit_inline
def condition(cond: int, a: int, b: int) -> bool:
    """The condition field (never L E LE A GE N G) applied to signed a, b.

    Compares are exact signed comparisons that stay right when a subtraction would
    overflow, and set no flags (reference 1.3, checked against aap).
    """
    if cond == 0:
        return False
    if cond == 1:
        return a < b
    if cond == 2:
        return a == b
    if cond == 3:
        return a <= b
    if cond == 4:
        return True
    if cond == 5:
        return a >= b
    if cond == 6:
        return a != b
    return a > b


@jit
def exec_compare(mem, st, op: int, ac: int, e: int, npc: int) -> int:
    cond = op & 7
    group = (op >> 3) & 7
    if group == 0:  # CAI: compare AC with 0,,E
        if condition(cond, signed(mem[ac]), e):
            return jump_to(st, npc + 1)
        return npc
    if group == 1:  # CAM: compare AC with C(E)
        b = read(mem, st, e)
        if st[FAULT]:
            return npc
        if condition(cond, signed(mem[ac]), signed(b)):
            return jump_to(st, npc + 1)
        return npc
    if group == 2:  # JUMP
        if condition(cond, signed(mem[ac]), 0):
            return jump_to(st, e)
        return npc
    if group == 3:  # SKIP: also loads AC when AC is not 0
        v = read(mem, st, e)
        if st[FAULT]:
            return npc
        if ac:
            mem[ac] = v
        if condition(cond, signed(v), 0):
            return jump_to(st, npc + 1)
        return npc
    if group == 4 or group == 6:  # AOJ SOJ
        if group == 4:
            v, f = add_flags(mem[ac], 1)
        else:
            v, f = sub_flags(mem[ac], 1)
        st[FLAGS] |= f
        mem[ac] = v
        if condition(cond, signed(v), 0):
            return jump_to(st, e)
        return npc
    # AOS SOS: modify memory, load AC when AC is not 0, then skip
    w = read(mem, st, e)
    if st[FAULT]:
        return npc
    if group == 5:
        v, f = add_flags(w, 1)
    else:
        v, f = sub_flags(w, 1)
    write(mem, st, e, v, True)
    if st[FAULT]:
        return npc
    st[FLAGS] |= f
    if ac:
        mem[ac] = v
    if condition(cond, signed(v), 0):
        return jump_to(st, npc + 1)
    return npc
