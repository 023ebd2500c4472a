"""Opcodes 100-177: the no-ops, FSC, the byte instructions and floating point."""

from __future__ import annotations

from ..jit import jit
from .access import effective_address, pi_latch, pi_takeable, read, write
from .arith import shift_count
from .fp import fp_add, fp_div, fp_mul, fp_sub, fsc
from .state import F_FPD, F_OV, FAULT, FLAGS

M36 = (1 << 36) - 1


@jit
def byte_increment(ptr: int) -> int:
    """Advance a byte pointer: P -= S, or start the next word when the byte won't fit.

    When P - S < 0, P becomes (36 - S) mod 64 and the whole pointer word is incremented,
    so a Y of 777777 carries into X and I (reference 1.6, checked against aap).  As in
    aap (cht4 adds 1, then cht6 inserts P), the word is incremented before the new P
    goes in, so a carry out of the S field does not change P.
    """
    p = ptr >> 30
    s = (ptr >> 24) & 0o77
    if p - s >= 0:
        return (ptr & 0o007777777777) | ((p - s) << 30)
    p = (36 - s) & 0o77
    return ((ptr + 1) & 0o007777777777) | (p << 30)


@jit
def byte_mask(s: int) -> int:
    return M36 if s >= 36 else (1 << s) - 1


@jit
def exec_byte(mem, st, op: int, ac: int, e: int, npc: int, pc: int) -> int:
    """IBP ILDB LDB IDPB DPB (133-137), with the first-part-done flag.

    ILDB/IDPB increment the pointer, set first-part-done, and may be interrupted
    before the second part; restarted with the flag set they skip the increment.
    """
    incr = op == 0o133 or op == 0o134 or op == 0o136
    if incr and not st[FLAGS] & F_FPD:
        ptr = read(mem, st, e)
        if st[FAULT]:
            return npc
        ptr = byte_increment(ptr)
        write(mem, st, e, ptr, True)
        if st[FAULT] or op == 0o133:
            return npc
        st[FLAGS] |= F_FPD
        pi_latch(st)
        if pi_takeable(st):
            return pc
    else:
        ptr = read(mem, st, e)
        if st[FAULT]:
            return npc
    be = effective_address(mem, st, ptr & 0o37777777)
    if be < 0:
        return pc  # interrupted in the byte's address calculation: restart later
    p = ptr >> 30
    s = (ptr >> 24) & 0o77
    w = read(mem, st, be)
    if st[FAULT]:
        return npc
    if op == 0o134 or op == 0o135:
        mem[ac] = (w >> p) & byte_mask(s)
    else:
        field = (byte_mask(s) << p) & M36
        write(mem, st, be, (w & ~field) | ((mem[ac] << p) & field), True)
    st[FLAGS] &= ~F_FPD
    return npc


@jit
def exec_float(mem, st, op: int, ac: int, e: int) -> None:
    """FAD FSB FMP FDV in the modes AC, L, M, B, R, RL, RM, RB (140-177).

    All modes read C(E); there is no immediate mode on the PDP-6 (the x5 slots are
    rounded-long).  Overflow, underflow and no-divide all set AR OV (reference 1.7).
    """
    b = read(mem, st, e)
    if st[FAULT]:
        return
    a = mem[ac]
    rounded = (op & 4) != 0
    kind = (op >> 3) & 3
    ok = 1
    if kind == 0:
        hi, lo, ov = fp_add(a, b, rounded)
    elif kind == 1:
        hi, lo, ov = fp_sub(a, b, rounded)
    elif kind == 2:
        hi, lo, ov = fp_mul(a, b, rounded)
    else:
        hi, lo, ov, ok = fp_div(a, b, rounded)
    if ov:
        st[FLAGS] |= F_OV
    if not ok:
        return
    mode = op & 3
    if mode == 2 or mode == 3:
        write(mem, st, e, hi, True)
        if mode == 2:
            return
    mem[ac] = hi
    if mode == 1:
        mem[(ac + 1) & 0o17] = lo


@jit
def exec_fsc(mem, st, ac: int, e: int) -> None:
    """FSC: add the shift count to the exponent; no normalisation (reference 1.3)."""
    r, ov = fsc(mem[ac], shift_count(e))
    mem[ac] = r
    if ov:
        st[FLAGS] |= F_OV
