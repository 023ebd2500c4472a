"""PDP-6 single-precision floating point: decimal text to words, and the .OP arithmetic.

Format (``docs/sources/pdp6-reference.md`` 1.7): sign bit, 8-bit excess-128 exponent,
27-bit fraction, normalized so that the fraction lies in [1/2, 1); a negative number is
the two's complement of the whole word.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

MASK36 = (1 << 36) - 1
# Decimal places a number may reach before it is refused unseen: floats span about
# 10^-39..10^38, so nothing this far out can be encoded, and refusing it first keeps a
# huge exponent (1.0^77777777) from raising 10 to it.
MAX_DECADES = 100


class FloatRangeError(ValueError):
    """The value's exponent does not fit the 8-bit field."""


def decimal_value(digits: str, power: int = 0) -> Fraction:
    """The exact value of the decimal ``digits`` (``1.5``, ``.05``) times 10^``power``.

    Raises :class:`FloatRangeError` when the value is more than ``MAX_DECADES`` powers of
    ten out, before computing it, so the time taken stays bounded whatever the exponent.
    """
    number = Decimal(digits)
    if not number:
        return Fraction(0)
    decade = number.adjusted() + power
    if abs(decade) > MAX_DECADES:
        raise FloatRangeError(f"{digits}^{power} is about 10^{decade}, far out of range")
    return Fraction(number) * Fraction(10) ** power


def fixed(value: Fraction, shift: int) -> int:
    """``value`` times 2^``shift``, truncated to an integer (what ``1.5_3`` means).

    Raises :class:`FloatRangeError` unless it fits in 35 bits and a sign; a huge ``shift``
    is refused (or gives 0) from the value's size, without computing 2^``shift``.
    """
    if value == 0:
        return 0
    bits = abs(value.numerator).bit_length() - value.denominator.bit_length()
    if bits + shift > 36:  # |value| >= 2^(bits-1): at least 2^36 after the shift
        raise FloatRangeError(f"{float(value):g}*2^{shift} does not fit in 36 bits")
    if bits + shift < -1:  # |value| < 2^(bits+1): below 1 after the shift
        return 0
    result = int(value * Fraction(2) ** shift)
    if abs(result) > MASK36 >> 1:
        raise FloatRangeError(f"{float(value):g}*2^{shift} does not fit in 36 bits")
    return result


def encode(value: Fraction, rounding: str = "nearest") -> int:
    """The float word nearest ``value`` (``rounding``: nearest, or floor as FAD truncates)."""
    if value == 0:
        return 0
    neg = value < 0
    mag = -value if neg else value
    # 2^(exp-1) <= mag < 2^exp, found from the sizes of numerator and denominator
    exp = mag.numerator.bit_length() - mag.denominator.bit_length()
    if mag >= Fraction(2) ** exp:
        exp += 1
    elif mag < Fraction(2) ** (exp - 1):
        exp -= 1
    mag /= Fraction(2) ** exp
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
