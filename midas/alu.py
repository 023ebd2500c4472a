""".OP: a small PDP-6 ALU executing one instruction at assembly time.

``.OP insn,ac,mem`` runs ``insn`` with an accumulator holding ``ac`` and a memory word
holding ``mem`` (an immediate instruction uses the address field of ``insn``) and yields
what is left in the AC, in the memory word, and whether it skipped (or jumped).  The
families are those of :mod:`pdp6.isa`; instructions that need more of a machine than one
AC and one word (jumps with side effects, stack, byte, I/O, UUOs) are refused.
"""

from __future__ import annotations

from fractions import Fraction

from pdp6.isa import (
    ADDSUB,
    AOJ,
    AOS,
    BOOLE,
    COMPARE,
    EXCH,
    FLOAT,
    FSC,
    HALF,
    JUMP,
    MOVE,
    MULDIV,
    OPCODES,
    SHIFT,
    SKIP,
    SOJ,
    SOS,
    TEST,
)

from . import floats

MASK36 = (1 << 36) - 1
MASK18 = (1 << 18) - 1


class AluError(ValueError):
    """An instruction .OP cannot execute."""


def _signed(w: int) -> int:
    return w - (1 << 36) if w & (1 << 35) else w


def _test(value: int, cond: str) -> bool:
    v = _signed(value)
    return {
        "": False, "L": v < 0, "E": v == 0, "LE": v <= 0,
        "A": True, "GE": v >= 0, "N": v != 0, "G": v > 0,
    }[cond]  # fmt: skip


def _boole(function: int, a: int, m: int) -> int:
    """The 16 boolean functions: bit 8/4/2/1 of ``function`` is the result for
    (a, m) = (0, 0) / (1, 0) / (0, 1) / (1, 1)."""
    result = 0
    if function & 8:
        result |= ~a & ~m
    if function & 4:
        result |= a & ~m
    if function & 2:
        result |= ~a & m
    if function & 1:
        result |= a & m
    return result & MASK36


def _half(stem: int, source: int, target: int) -> int:
    """Half-word move: stem bit 3 = to the right half, bit 0 = from the other half,
    bits 1-2 = what happens to the other half (keep, zeros, ones, sign extension)."""
    to_right = bool(stem & 8)
    from_left = to_right == bool(stem & 1)
    half = (source >> 18) & MASK18 if from_left else source & MASK18
    other = (stem >> 1) & 3
    if to_right:
        keep = target & ~MASK18 & MASK36
        fill = (0, 0, MASK18 << 18, (MASK18 << 18) if half & (1 << 17) else 0)[other]
        return ((keep if other == 0 else fill) | half) & MASK36
    keep = target & MASK18
    fill = (0, 0, MASK18, MASK18 if half & (1 << 17) else 0)[other]
    return ((half << 18) | (keep if other == 0 else fill)) & MASK36


def _shift(name: str, ac: int, count: int) -> int:
    if name == "LSH":
        return (ac << count) & MASK36 if count >= 0 else ac >> -count
    if name == "ROT":
        count %= 36
        return ((ac << count) | (ac >> (36 - count))) & MASK36
    v = _signed(ac)  # ASH: the sign stays, bits shifted past bit 1 are lost
    if count >= 0:
        result = (v << count) & (MASK36 >> 1)
        return result | (ac & (1 << 35))
    return (v >> -count) & MASK36


def _float(stem: str, mode: str, ac: int, m: int) -> int:
    a, b = floats.decode(ac), floats.decode(m)
    if stem == "FAD":
        value = a + b
    elif stem == "FSB":
        value = a - b
    elif stem == "FMP":
        value = a * b
    else:
        if b == 0:
            return ac  # no divide: the AC is left alone
        value = a / b
    return floats.encode(value, "nearest" if mode.startswith("R") else "floor")


def execute(insn: int, ac: int, mem: int) -> tuple[int, int, bool]:
    """Run ``insn``; return the AC, the memory word and whether it skipped or jumped."""
    op = OPCODES[(insn >> 27) & 0o777]
    e = insn & MASK18
    family, mode, name = op.family, op.mode, op.name
    immediate = mode == "I"
    operand = e if immediate else mem
    skipped = False
    if family == MOVE:
        fn = name[:4]
        if mode == "M":
            operand = ac
        value = {
            "MOVE": operand, "MOVS": ((operand & MASK18) << 18) | (operand >> 18),
            "MOVN": (-operand) & MASK36, "MOVM": abs(_signed(operand)) & MASK36,
        }[fn]  # fmt: skip
        if mode == "M":
            mem = value
        elif mode == "S":
            mem = ac = value
        else:
            ac = value
    elif family in (ADDSUB, BOOLE, MULDIV):
        if family == ADDSUB:
            sign = 1 if name.startswith("ADD") else -1
            value = (ac + sign * operand) & MASK36
        elif family == BOOLE:
            value = _boole(((insn >> 27) - 0o400) // 4, ac, operand)
        else:
            value = _muldiv(name, ac, operand)
        if mode in ("M", "B"):
            mem = value
        if mode != "M":
            ac = value
    elif family == HALF:
        stem = ((insn >> 27) - 0o500) // 4
        if mode == "M":
            mem = _half(stem, ac, mem)
        elif mode == "S":
            mem = _half(stem, mem, mem)
            ac = mem
        else:
            ac = _half(stem, operand, ac)
    elif family == SHIFT and name in ("ASH", "ROT", "LSH"):
        count = e - (1 << 18) if e & (1 << 17) else e
        ac = _shift(name, ac, count)
    elif family == EXCH:
        ac, mem = mem, ac
    elif family == COMPARE:
        operand = e if name.startswith("CAI") else mem
        skipped = mode == "A" or (mode != "" and _compare(ac, operand, mode))
    elif family == SKIP:
        skipped = _test(mem, mode)
        ac = mem
    elif family in (AOS, SOS):
        mem = (mem + (1 if family == AOS else -1)) & MASK36
        ac = mem
        skipped = _test(mem, mode)
    elif family in (AOJ, SOJ, JUMP):
        if family != JUMP:
            ac = (ac + (1 if family == AOJ else -1)) & MASK36
        skipped = _test(ac, mode)
    elif family == TEST:
        skipped, ac = _test_family(insn, ac, mem)
    elif family == FLOAT:
        value = _float(name[:3], mode, ac, operand)
        if mode in ("M", "B", "RM", "RB"):
            mem = value
        if mode not in ("M", "RM"):
            ac = value
    elif family == FSC:
        count = e - (1 << 18) if e & (1 << 17) else e
        ac = floats.encode(floats.decode(ac) * Fraction(2) ** count, "floor")
    else:
        raise AluError(f".OP cannot execute {name}")
    return ac & MASK36, mem & MASK36, skipped


def _compare(a: int, b: int, cond: str) -> bool:
    x, y = _signed(a), _signed(b)
    return {"L": x < y, "E": x == y, "LE": x <= y, "GE": x >= y, "N": x != y, "G": x > y}[cond]


def _muldiv(name: str, ac: int, operand: int) -> int:
    a, b = _signed(ac), _signed(operand)
    if name.startswith("IMUL"):
        return (a * b) & MASK36
    if name.startswith("MUL"):
        return ((a * b) >> 35) & MASK36  # the high word of the 70-bit product
    if name.startswith("DIV"):
        raise AluError(f".OP cannot execute {name}: it divides the AC pair")
    if b == 0:
        raise AluError(f".OP {name}: division by zero")
    q = abs(a) // abs(b)
    return (-q if (a < 0) != (b < 0) else q) & MASK36


def _test_family(insn: int, ac: int, mem: int) -> tuple[bool, int]:
    """T[RLDS][NZCO][ EAN]: mask from E (R, L) or memory (D, S); modify; skip."""
    code = (insn >> 27) & 0o777
    e = insn & MASK18
    kind = ((code >> 3) & 1) * 2 + (code & 1)  # R, L, D, S
    mask = (e, e << 18, mem, ((mem & MASK18) << 18) | (mem >> 18))[kind] & MASK36
    skip_mode = (code >> 1) & 3
    selected = ac & mask
    skipped = (False, selected == 0, True, selected != 0)[skip_mode]
    modify = (code >> 4) & 3
    ac = (ac, ac & ~mask, ac ^ mask, ac | mask)[modify] & MASK36
    return skipped, ac
