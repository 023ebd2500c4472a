"""Opcodes 400-677: the sixteen boolean functions, half-words, and test instructions."""

from __future__ import annotations

from ..jit import jit
from .access import read, write
from .fixed import jump_to, store_result
from .state import FAULT

M36 = (1 << 36) - 1
RH = 0o777777
LH = RH << 18


@jit
def boole(f: int, a: int, m: int) -> int:
    """Function number f is a truth table: bit 1 for (A,M)=(1,1), 2 (0,1), 4 (1,0), 8 (0,0)."""
    r = 0
    if f & 1:
        r |= a & m
    if f & 2:
        r |= ~a & m
    if f & 4:
        r |= a & ~m
    if f & 8:
        r |= ~a & ~m
    return r & M36


@jit
def exec_boole(mem, st, op: int, ac: int, e: int) -> None:
    """SETZ ... SETO x (basic, I, M, B).  SETZ SETA SETCA SETO never read memory."""
    f = (op >> 2) & 0o17
    mode = op & 3
    if mode == 1:
        m = e
    elif f == 0 or f == 5 or f == 10 or f == 15:
        m = 0
    else:
        m = read(mem, st, e)
        if st[FAULT]:
            return
    store_result(mem, st, mode, ac, e, boole(f, mem[ac], m), False)


@jit
def half(h: int, src: int, dst: int) -> int:
    """Half-word move number h (HLL=0 ... HLRE=17): a half of src into a half of dst.

    Bit 10 of h: the destination is the right half; bit 1: the halves cross (L->R or
    R->L); bits 6: the other half of dst is kept, zeroed, set to ones, or extended
    with the sign of the moved half.
    """
    to_right = h & 0o10
    cross = h & 1
    fill = (h >> 1) & 3
    if to_right:
        v = (src >> 18) & RH if cross else src & RH
        if fill == 0:
            return (dst & LH) | v
        if fill == 1:
            return v
        if fill == 2:
            return LH | v
        return (LH if v & 0o400000 else 0) | v
    v = (src & RH) << 18 if cross else src & LH
    if fill == 0:
        return v | (dst & RH)
    if fill == 1:
        return v
    if fill == 2:
        return v | RH
    return v | (RH if v >> 35 else 0)


@jit
def exec_half(mem, st, op: int, ac: int, e: int) -> None:
    """HLL ... HLRE x (basic, I, M, S)."""
    h = (op >> 2) & 0o17
    mode = op & 3
    if mode == 1:
        mem[ac] = half(h, e, mem[ac])
        return
    m = read(mem, st, e)
    if st[FAULT]:
        return
    if mode == 0:
        mem[ac] = half(h, m, mem[ac])
    elif mode == 2:
        write(mem, st, e, half(h, mem[ac], m), True)
    else:
        store_result(mem, st, 3, ac, e, half(h, m, m), True)


@jit
def exec_test(mem, st, op: int, ac: int, e: int, npc: int) -> int:
    """T{R,L,D,S}{N,Z,C,O}{,E,A,N}: test AC against a mask, skip, then modify AC."""
    if op & 0o10:
        m = read(mem, st, e)
        if st[FAULT]:
            return npc
        if op & 1:
            m = ((m & RH) << 18) | (m >> 18)
    else:
        m = (e << 18) if op & 1 else e
    a = mem[ac]
    skip = (op >> 1) & 3
    modify = (op >> 4) & 3
    if modify == 1:
        mem[ac] = a & ~m & M36
    elif modify == 2:
        mem[ac] = a ^ m
    elif modify == 3:
        mem[ac] = a | m
    if (skip == 1 and a & m == 0) or skip == 2 or (skip == 3 and a & m != 0):
        return jump_to(st, npc + 1)
    return npc
