"""Opcodes 200-277: moves, multiply/divide, shifts, EXCH, BLT, AOBJ, jumps, stack, ADD/SUB.

Every ``exec_*`` routine gets the decoded instruction and ``npc``, the PC of the next
instruction, and returns the PC to continue at.
"""

from __future__ import annotations

from ..jit import jit, jit_inline
from ..timing import SHIFT_PLACE_NS
from .access import clock_due, pi_latch, pi_takeable, read, write
from .arith import (
    add_flags,
    ash,
    ashc,
    div,
    idiv,
    imul,
    lsh,
    lshc,
    magnitude,
    mul,
    negate,
    rot,
    rotc,
    shift_count,
    sub_flags,
)
from .state import (
    APR_PDLOV,
    EA_LH,
    F_FPD,
    F_OV,
    F_PCCH,
    F_UIOT,
    F_USER,
    FAULT,
    FLAGS,
    HALT_PC,
    INHIBIT,
    PI_ACTIVE,
    PI_CYCLE,
    PIH,
    REASON,
    REASON_HALT,
    TIME,
)

M36 = (1 << 36) - 1
RH = 0o777777
ONE_ONE = 0o1000001  # 1,,1


@jit_inline
def jump_to(st, target: int) -> int:
    """Every taken jump or skip sets PC CHANGE (reference 1.4)."""
    st[FLAGS] |= F_PCCH
    return target & RH


@jit_inline
def pc_word(st, npc: int) -> int:
    """flags,,PC as stored by PUSHJ, JSR and JSP."""
    return (st[FLAGS] << 18) | (npc & RH)


@jit_inline
def fetch_operand(mem, st, mode: int, e: int) -> int:
    """The operand of a (basic, I, M, B/S) instruction: C(E), or 0,,E when immediate."""
    if mode == 1:
        return e
    return read(mem, st, e)


@jit_inline
def store_result(mem, st, mode: int, ac: int, e: int, value: int, self_mode: bool) -> None:
    """Route a result by mode: AC, AC, C(E), and both (or self: C(E) and AC if nonzero)."""
    if mode == 2:
        write(mem, st, e, value, True)
    elif mode == 3:
        write(mem, st, e, value, True)
        if ac or not self_mode:
            mem[ac] = value
    else:
        mem[ac] = value


@jit
def exec_move(mem, st, op: int, ac: int, e: int) -> None:
    """MOVE MOVS MOVN MOVM (200-217)."""
    mode = op & 3
    kind = (op >> 2) & 3
    if mode == 2:
        v = mem[ac]  # the M modes move C(AC) to memory
    else:
        v = fetch_operand(mem, st, mode, e)
        if st[FAULT]:
            return
    if kind == 1:
        v = ((v & RH) << 18) | (v >> 18)
    elif kind == 2:
        v, f = negate(v)
        st[FLAGS] |= f
    elif kind == 3:
        v, f = magnitude(v)
        st[FLAGS] |= f
    if mode == 2:
        write(mem, st, e, v, False)
    else:
        store_result(mem, st, mode, ac, e, v, True)


@jit
def exec_muldiv(mem, st, op: int, ac: int, e: int) -> None:
    """IMUL MUL IDIV DIV (220-237); no-divide sets AR OV and stores nothing."""
    mode = op & 3
    kind = (op >> 2) & 3
    b = fetch_operand(mem, st, mode, e)
    if st[FAULT]:
        return
    a = mem[ac]
    ac1 = (ac + 1) & 0o17
    if kind == 0:
        lo, f = imul(a, b)
        st[FLAGS] |= f
        store_result(mem, st, mode, ac, e, lo, False)
        return
    if kind == 1:
        hi, lo, f = mul(a, b)
        st[FLAGS] |= f
        store_pair(mem, st, mode, ac, e, hi, lo)
        return
    if kind == 2:
        q, r, ok = idiv(a, b)
    else:
        q, r, ok = div(a, mem[ac1], b)
    if not ok:
        st[FLAGS] |= F_OV
        return
    store_pair(mem, st, mode, ac, e, q, r)


@jit_inline
def store_pair(mem, st, mode: int, ac: int, e: int, first: int, second: int) -> None:
    """MUL and DIV results: AC,AC+1 (basic, I); the first word to C(E) (M); both (B)."""
    if mode >= 2:
        write(mem, st, e, first, True)
        if mode == 2:
            return
    mem[ac] = first
    mem[(ac + 1) & 0o17] = second


@jit
def exec_shift(mem, st, op: int, ac: int, e: int) -> None:
    """ASH ROT LSH ASHC ROTC LSHC (240-246); 243 and 247 are no-ops."""
    n = shift_count(e)
    # |n|, written so that the block translator can bound it (pdp6.cpu.specialize.mask)
    st[TIME] += SHIFT_PLACE_NS * (256 - (e & 0o377) if e & 0o400000 else e & 0o377)
    which = op & 7
    a = mem[ac]
    if which == 0:
        r, f = ash(a, n)
        st[FLAGS] |= f
        mem[ac] = r
    elif which == 1:
        mem[ac] = rot(a, n)
    elif which == 2:
        mem[ac] = lsh(a, n)
    elif which >= 4 and which <= 6:
        ac1 = (ac + 1) & 0o17
        b = mem[ac1]
        if which == 4:
            hi, lo, f = ashc(a, b, n)
            st[FLAGS] |= f
        elif which == 5:
            hi, lo = rotc(a, b, n)
        else:
            hi, lo = lshc(a, b, n)
        mem[ac] = hi
        mem[ac1] = lo


@jit
def exec_blt(mem, st, ac: int, e: int, npc: int, pc: int) -> int:
    """BLT: copy from LH(AC) to RH(AC) until a word is stored at E.

    The pointer advances by a full 36-bit add of 1,,1.  A pending interrupt between
    words stops the copy with AC updated and PC not advanced, so BLT restarts; on
    normal completion AC is not written (reference 1.3, checked against aap).
    """
    ptr = mem[ac]
    while True:
        src = (ptr >> 18) & RH
        dst = ptr & RH
        w = read(mem, st, src)
        if st[FAULT]:
            return npc
        write(mem, st, dst, w, False)
        if dst >= e:
            # aap BLT_DONE: the sign of dest - E, so E below the first destination
            # copies exactly one word.
            return npc
        ptr = (ptr + ONE_ONE) & M36
        # Only an interrupt to be taken stops the copy, to be restarted from AC with E
        # computed again (aap BLT_T5A tests pi_req).  The 60 Hz clock ticks meanwhile, as
        # its flag may request one; a host device falling due waits for the end of the
        # copy, since the program could not tell without an interrupt.
        clock_due(st)
        pi_latch(st)
        if pi_takeable(st):
            mem[ac] = ptr
            return pc


@jit
def exec_jrst(mem, st, ac: int, e: int) -> int:
    """JRST: AC bits 1 user mode, 2 restore flags, 4 halt, 10 dismiss (reference 1.3)."""
    if ac & 2:
        new = st[EA_LH] & 0o777777
        old = st[FLAGS]
        if old & F_USER:
            # USER IOT is loaded only when not already in user mode, and the USER bit
            # can only be set: JRST 2 never leaves user mode (aap ar_flag_set).
            new = (new & ~F_UIOT) | (old & F_UIOT) | F_USER
        st[FLAGS] = new & 0o774000
    else:
        st[FLAGS] |= F_PCCH
    held = st[PIH]
    if ac & 0o10 and held and st[PI_ACTIVE]:
        # Dismiss the highest held channel (only while PI is active, aap pih0_fm_pi_ok1).
        bit = 0o100
        while not held & bit:
            bit >>= 1
        st[PIH] = held & ~bit
    if ac & 1:
        st[FLAGS] |= F_USER
    if ac & 4:
        st[REASON] = REASON_HALT
        st[HALT_PC] = e
    return e


@jit
def exec_jfcl(st, ac: int, e: int, npc: int) -> int:
    """JFCL: test and clear the flags named by AC (10 OV, 4 CRY0, 2 CRY1, 1 PC CHANGE).

    A taken jump sets PC CHANGE before the tested flags are cleared, so ``JFCL 1,``
    ends with PC CHANGE clear (reference 1.3, checked against aap).
    """
    mask = ac << 14  # AC bit 10 -> flag 400000, 1 -> 040000
    if st[FLAGS] & mask:
        st[FLAGS] |= F_PCCH
        st[FLAGS] &= ~mask
        return e
    return npc


@jit
def exec_stack(mem, st, op: int, ac: int, e: int, npc: int) -> int:
    """PUSHJ PUSH POP POPJ; overflow and underflow set pushdown overflow in the APR."""
    p = mem[ac]
    which = op & 3
    if which <= 1:
        q = p + ONE_ONE
        if q > M36:
            st[APR_PDLOV] = 1
        q &= M36
        if which == 0:
            write(mem, st, q & RH, pc_word(st, npc), False)
            if st[FAULT]:
                return npc
            mem[ac] = q
            return jump_to(st, e)
        v = read(mem, st, e)
        if st[FAULT]:
            return npc
        write(mem, st, q & RH, v, False)
        if not st[FAULT]:
            mem[ac] = q
        return npc
    if p < ONE_ONE:
        st[APR_PDLOV] = 1
    q = (p - ONE_ONE) & M36
    v = read(mem, st, p & RH)
    if st[FAULT]:
        return npc
    if which == 2:
        # POP writes memory first, then AC from the pointer it read: POP P,P leaves
        # P = old P - 1,,1 (reference 1.3; KA10 writes AC first).
        write(mem, st, e, v, False)
        if not st[FAULT]:
            mem[ac] = q
        return npc
    mem[ac] = q
    return jump_to(st, v)


@jit
def exec_jumps(mem, st, op: int, ac: int, e: int, npc: int) -> int:
    """JSR JSP JSA JRA (264-267)."""
    which = op & 3
    if which == 0:
        write(mem, st, e, pc_word(st, npc), False)
        st[FLAGS] &= ~F_FPD
        if st[PI_CYCLE] or st[INHIBIT]:
            # Only JSR leaves user mode from a UUO or interrupt cycle (reference 1.9.7).
            st[FLAGS] &= ~F_USER
        st[INHIBIT] = 0
        return jump_to(st, e + 1)
    if which == 1:
        mem[ac] = pc_word(st, npc)
        return jump_to(st, e)
    if which == 2:
        write(mem, st, e, mem[ac], False)
        mem[ac] = (e << 18) | (npc & RH)
        return jump_to(st, e + 1)
    mem[ac] = read(mem, st, (mem[ac] >> 18) & RH)
    return jump_to(st, e)


@jit
def exec_exch(mem, st, ac: int, e: int) -> None:
    v = read(mem, st, e)
    if not st[FAULT]:
        write(mem, st, e, mem[ac], True)
        mem[ac] = v


@jit
def exec_aobj(mem, st, op: int, ac: int, e: int, npc: int) -> int:
    """AOBJP/AOBJN: add 1,,1 as a full 36-bit add (so -1 becomes 1,,0), jump on sign."""
    v = (mem[ac] + ONE_ONE) & M36
    mem[ac] = v
    neg = v >> 35
    if (op == 0o252 and not neg) or (op == 0o253 and neg):
        return jump_to(st, e)
    return npc


@jit
def exec_addsub(mem, st, op: int, ac: int, e: int) -> None:
    """ADD and SUB (270-277) in the modes basic, I, M, B."""
    mode = op & 3
    b = fetch_operand(mem, st, mode, e)
    if st[FAULT]:
        return
    if op < 0o274:
        r, f = add_flags(mem[ac], b)
    else:
        r, f = sub_flags(mem[ac], b)
    st[FLAGS] |= f
    store_result(mem, st, mode, ac, e, r, False)
