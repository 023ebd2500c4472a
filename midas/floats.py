"""PDP-6 single-precision floating point: decimal text to words, and the .OP arithmetic.

Format (``shared/docs/pdp6-reference.md`` 1.7): sign bit, 8-bit excess-128 exponent,
27-bit fraction, normalized so that the fraction lies in [1/2, 1); a negative number is
the two's complement of the whole word.
"""

from __future__ import annotations

from fractions import Fraction

MASK36 = (1 << 36) - 1


class FloatRangeError(ValueError):
    """The value's exponent does not fit the 8-bit field."""


def encode(value: Fraction, rounding: str = "nearest") -> int:
    """The float word nearest ``value`` (``rounding``: nearest, or floor as FAD truncates)."""
    if value == 0:
        return 0
    neg = value < 0
    mag = -value if neg else value
    exp = 0
    while mag >= 1:
        mag /= 2
        exp += 1
    while mag < Fraction(1, 2):
        mag *= 2
        exp -= 1
    scaled = mag * (1 << 27)
    if rounding == "nearest":
        frac = int(scaled + Fraction(1, 2))
    else:  # floor of the signed value: truncate a positive, round a negative away
        frac = int(scaled) if not neg else -((-scaled.numerator) // scaled.denominator)
    if frac >= 1 << 27:
        frac >>= 1
        exp += 1
    biased = exp + 128
    if not 0 <= biased <= 255:
        raise FloatRangeError(f"exponent {exp} out of range")
    word = (biased << 27) | frac
    return (-word) & MASK36 if neg else word


def decode(word: int) -> Fraction:
    """The exact value of a float word."""
    word &= MASK36
    neg = bool(word >> 35)
    if neg:
        word = (-word) & MASK36
    if word == 0:
        return Fraction(0)
    exp = ((word >> 27) & 0o377) - 128
    frac = word & ((1 << 27) - 1)
    value = Fraction(frac, 1 << 27) * (Fraction(2) ** exp)
    return -value if neg else value
