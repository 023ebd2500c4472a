"""36-bit word arithmetic: masks, sign, halves, swaps and 72-bit pairs.

Words are kept as non-negative Python/NumPy integers below 2**36.  The helpers are
plain functions for the tools (the execute loop has its own, in ``pdp6.cpu``), so the
assembler that imports this module never imports numba.
"""

from __future__ import annotations

WORD_BITS = 36
MASK36 = (1 << 36) - 1
MASK18 = (1 << 18) - 1
SIGN36 = 1 << 35
SIGN18 = 1 << 17
LH_ONE = 1 << 18  # 1,,0


def to_signed(w: int) -> int:
    """Two's-complement value of a 36-bit word."""
    return w - (1 << 36) if w & SIGN36 else w


def from_signed(v: int) -> int:
    """The 36-bit word holding ``v`` modulo 2**36."""
    return v & MASK36


def lh(w: int) -> int:
    """Left half (bits 0-17)."""
    return (w >> 18) & MASK18


def rh(w: int) -> int:
    """Right half (bits 18-35)."""
    return w & MASK18


def swap(w: int) -> int:
    """Exchange the halves of a word."""
    return ((w & MASK18) << 18) | ((w >> 18) & MASK18)


def xwd(left: int, right: int) -> int:
    """Build ``left,,right``."""
    return ((left & MASK18) << 18) | (right & MASK18)


def octal(w: int, digits: int = 12) -> str:
    """Octal text of a word, zero padded (``000000000000``)."""
    return format(w, f"0{digits}o")


def halves(w: int) -> str:
    """``LLLLLL,,RRRRRR`` text of a word, as DDT types it (plain Python: tools call it,
    and the compiled ``lh``/``rh`` would cost a compile)."""
    return f"{(w >> 18) & MASK18:06o},,{w & MASK18:06o}"


def check_word(value: int) -> int:
    """Return ``value`` if it is a valid 36-bit word, else raise ``ValueError``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"a PDP-6 word must be an integer, not {type(value).__name__}")
    if value < 0 or value > MASK36:
        raise ValueError(f"{value:#o} does not fit in 36 bits (0 .. 777777777777 octal)")
    return value
