"""PDP-6 floating point: FSC, FAD, FSB, FMP, FDV as pure integer functions.

The PDP-6 does floating point in its AR register with MQ as a 35-bit extension, and
several results (truncation toward -inf, the zero test after FAD, the rounding quirks,
the L-mode low word) only make sense at that level.  So this module replays the
register sequence of reference section 1.7.1 (taken from aap's schematic-level model)
step by step: the exponent arithmetic in the 9-bit SC register, the alignment shift,
the Booth multiply and the non-restoring divide, the normalize/round loop.

Conventions: words are non-negative ints below 2**36; bit 0 is the sign (``_F0``),
bit 35 the LSB.  AR and MQ are 36-bit registers.  MQ bits 1-35 extend AR's fraction
downward; outside the multiply and divide loops MQ bit 0 is just a copy of the sign.
Every intermediate stays below 2**38, so the code runs unchanged as numba-compiled
int64 code and as plain Python, with identical results.
"""

from __future__ import annotations

import math

from ..jit import jit

_FW = 0o777777777777  # a full word
_F0 = 0o400000000000  # bit 0, the sign
_F1 = 0o200000000000  # bit 1 (MQ bit 1 = the first bit below the fraction)
_F9 = 0o000400000000  # bit 9, the top fraction bit
_NF0 = _FW ^ _F0  # bits 1-35
_NF01 = _NF0 ^ _F1  # bits 2-35
_EXP = 0o377000000000  # exponent field, bits 1-8
_NEXP = _FW ^ _EXP
_MANT = 0o000777777777  # fraction field, bits 9-35
_HALF = 0o000400000000  # a fraction of exactly 1/2 (or -1/2 when the sign is set)
_SC = 0o777  # SC is a 9-bit register; SC bit 0 (0400) is its sign
_SC_SIGN = 0o400

_MPY_STEPS = 28  # Booth steps of FMP: SC counts 744..777 (27 shifts, 28 adds)
_DIV_STEPS = 30  # quotient bits of FDV: SC counts 741..777


@jit
def _exp_clr(w: int) -> int:
    """Replace the exponent field by copies of the sign: the word becomes a fraction."""
    if w & _F0:
        return w | _EXP
    return w & _NEXP


@jit
def _ashcrt(ar: int, mq: int) -> tuple[int, int]:
    """Arithmetic right shift of AR/MQ: AR bit 35 enters MQ bit 1, MQ bit 0 copies the sign."""
    mq = (ar & _F0) | ((ar & 1) << 34) | ((mq >> 1) & _NF01)
    ar = (ar & _F0) | (ar >> 1)
    return ar, mq


@jit
def _normalize(ar: int, mq: int, sc: int, shift_first: bool, rounded: bool) -> tuple[int, int, int]:
    """Zero test, normalize, round and insert the exponent (rules 1, 2, 5).

    ``sc`` holds the exponent that goes with AR as it stands.  FAD and FDV enter with
    ``shift_first`` (AR/MQ shifted right once, exponent + 1); FMP enters without.
    Returns (word, MQ, overflow).  The shift loop always ends: AR arrives with bits 0-8
    equal, so a 1 (or, if negative, a 0) reaches bit 9 or the fraction becomes -1/2.
    The one exception, FMP of two fractions of exactly -1 (AR = +1), shifts that bit
    out past bit 1 and ends on the multiplier's spare sign bits coming up from MQ.
    """
    ov = 0
    round_done = False
    while True:
        if shift_first:
            sc = (sc + 1) & _SC
            ar, mq = _ashcrt(ar, mq)
        # Rule 1 zero test: AR = 0 and MQ bit 1 = 0 is an exact 0 whatever lies below.
        if ar == 0 and not mq & _F1:
            return 0, mq, ov
        sc ^= _SC  # SC counts up from -(exponent) - 1 while shifting left
        # Rule 2: shift left until bit 9 differs from the sign; -1/2 counts as normalized.
        while (ar & _MANT) != _HALF and ((ar & _F0) != 0) == ((ar & _F9) != 0):
            if (ar ^ (ar << 1)) & _F0:  # a bit other than the sign leaves bit 1, as in ASH
                ov = 1
            sc = (sc + 1) & _SC
            ar = (ar & _F0) | ((ar << 1) & _NF0) | ((mq >> 34) & 1)
            mq = (ar & _F0) | ((mq << 1) & _NF0)
        if not sc & _SC_SIGN:  # exponent outside 0..255: AR OV, the field wraps (rule 2)
            ov = 1
        do_round = bool(rounded) and not round_done and (mq & _F1) != 0
        if not ar & _F0 or do_round:
            sc ^= _SC
        if not do_round:
            # A negative result keeps SC complemented: the one's-complement exponent field.
            return (ar & _NEXP) | ((sc & 0o377) << 27), mq, ov
        # Rule 5: add the guard bit as a two's-complement +1, then shift right and
        # normalize once more; MQ keeps its bits, and no second rounding happens.
        ar = (ar + 1) & _FW
        round_done = True
        shift_first = True


@jit
def _fad(ar: int, mb: int, rounded: bool) -> tuple[int, int, int]:
    """FAD of AR and MB (rule 1); FSB enters with AR = -C(E) and MB = C(AC)."""
    ar_neg = ar >> 35
    # SC = (exponent of AR) - (exponent of MB) - 1, worked on the raw sign+exponent bits.
    sc = _SC if ar_neg == mb >> 35 else 0
    sc = ((sc ^ (mb >> 27)) + (ar >> 27)) & _SC
    if ar_neg == sc >> 8:
        ar, mb = mb, ar  # the operand with the smaller exponent goes to AR
    if not sc & _SC_SIGN:
        sc = ((sc + 1) & _SC) ^ _SC
    # Now SC = -(exponent difference) - 1.
    mq = 0
    if sc & 0o700 == 0o700:
        # Difference <= 63: shift the smaller operand right over AR/MQ, arithmetically.
        ar = _exp_clr(ar)
        while sc != _SC:
            sc += 1
            ar, mq = _ashcrt(ar, mq)
    else:
        ar = 0  # difference > 63: the smaller operand becomes 0
    sc = ((_SC if mb & _F0 else 0) ^ (mb >> 27)) & _SC  # the larger exponent
    ar = (ar + _exp_clr(mb)) & _FW
    return _normalize(ar, mq, sc, True, rounded)


@jit
def _exp_calc(ar: int, mb: int, mult: int) -> int:
    """SC for FMP (mult=1: eA+eB-128) or FDV (mult=0: eA-eB+128), from the raw words.

    Worked on the sign+exponent bits as the hardware does, so negative operands' one's-
    complemented exponent fields need no separate decoding.
    """
    ar_neg = ar >> 35
    mb_neg = mb >> 35
    sc = 0o200
    if ar_neg != mult:
        sc ^= _SC
    sc = (sc + (ar >> 27)) & _SC
    same = 1 if ar_neg == mb_neg else 0
    if same != mult:
        sc ^= _SC
    else:
        sc = (sc + 1) & _SC
    sc = (sc + (mb >> 27)) & _SC
    if mb_neg == mult:
        sc ^= _SC
    return sc


@jit
def fp_add(a: int, b: int, rounded: bool) -> tuple[int, int, int]:
    """FAD: a = C(AC), b = C(E).  Returns (AC word, MQ for AC+1 in L modes, overflow)."""
    return _fad(a, b, rounded)


@jit
def fp_sub(a: int, b: int, rounded: bool) -> tuple[int, int, int]:
    """FSB: negate C(E) as a full word, then FAD (rule 1): ``fp_add(a, -b)``."""
    return _fad((-b) & _FW, a, rounded)


@jit
def fp_mul(a: int, b: int, rounded: bool) -> tuple[int, int, int]:
    """FMP: a = C(AC) is the multiplicand, b = C(E) the multiplier.

    A Booth multiply of the two 28-bit fractions leaves the exact product in AR/MQ; the
    multiplier's unused sign bits end up in MQ bits 28-35, as in the hardware.  A zero
    product passes the zero test, so FMP by 0 gives 0 with no overflow (rule 7).
    """
    sc = _exp_calc(a, b, 1)
    mb = _exp_clr(a)
    mq = _exp_clr(b)
    ar = 0
    mq36 = 0  # the multiplier bit last shifted out of MQ
    for step in range(_MPY_STEPS):
        bit = mq & 1
        if bit != mq36:
            if mq36:
                ar = (ar + mb) & _FW
            else:
                ar = (ar - mb) & _FW
        if step == _MPY_STEPS - 1:
            mq = (ar & _F0) | (mq >> 1)
        else:
            mq36 = bit
            mq = ((ar & 1) << 35) | (mq >> 1)
            ar = (ar & _F0) | (ar >> 1)
    return _normalize(ar, mq, sc, False, rounded)


@jit
def fp_div(a: int, b: int, rounded: bool) -> tuple[int, int, int, int]:
    """FDV: a = C(AC) (the only dividend word), b = C(E).

    Returns (AC word, MQ for AC+1, overflow, ok).  Rule 4: the magnitudes are divided to
    29 quotient bits, the quotient is negated as a whole if the signs differ, then it is
    normalized and truncated.  ok = 0 is no-divide (|b fraction| <= |a fraction| / 2, in
    practice b = 0 or unnormalized): overflow is set and the caller must store nothing;
    the words returned then are 0.
    """
    sc = _exp_calc(a, b, 0)
    ar = _exp_clr(a)
    mb = _exp_clr(b)
    a_neg = ar >> 35
    b_neg = mb >> 35
    if a_neg:
        ar = (-ar) & _FW
    # MQ bit 0 takes AR bit 35, AR shifts right: the dividend is halved over AR/MQ.
    mq = (ar & 1) << 35
    ar = (ar & _F0) | (ar >> 1)
    ar = (ar + mb) & _FW if b_neg else (ar - mb) & _FW
    if not ar & _F0:
        return 0, 0, 1, 0  # no-divide (rule 4)
    # Non-restoring division: each step shifts AR/MQ left, enters the quotient bit
    # (1 when the remainder was >= 0) into MQ bit 35, then subtracts or adds |b|.
    for step in range(_DIV_STEPS):
        q = 0 if ar & _F0 else 1
        ar, mq = ((ar << 1) & _FW) | (mq >> 35), ((mq << 1) & _FW) | q
        if step < _DIV_STEPS - 1:
            if q != b_neg:
                ar = (ar - mb) & _FW
            else:
                ar = (ar + mb) & _FW
    ar = (ar & _F0) | (ar >> 1)  # undo the last shift of the remainder
    if ar & _F0:  # restore a negative remainder
        ar = (ar - mb) & _FW if b_neg else (ar + mb) & _FW
    if a_neg:
        ar = (-ar) & _FW
    remainder = ar
    ar = mq  # the quotient magnitude
    if a_neg != b_neg:
        ar = (-ar) & _FW
    ar, mq = _ashcrt(ar, remainder)
    word, low, ov = _normalize(ar, mq, sc, True, rounded)
    return word, low, ov, 1


@jit
def fsc(a: int, n: int) -> tuple[int, int]:
    """FSC: add n (-256..255) to the exponent of a; no normalizing, no zero test (1.3).

    Returns (word, overflow).  The sum wraps to 8 bits; overflow is set when it leaves
    0..255.  A negative word gets the one's-complement exponent field it should have.
    """
    if a & _F0:
        sc = (-n) & _SC
    else:
        sc = n & _SC
    sc = (sc + (a >> 27)) & _SC
    ov = 1 if (a >> 35) != (sc >> 8) else 0
    return (a & _NEXP) | ((sc & 0o377) << 27), ov


def to_float(word: int) -> float:
    """The value of a floating-point word as the hardware reads it (exact in a double).

    The fraction is the word with its exponent field replaced by sign copies; the
    exponent of a negative word is its one's-complemented field.  Unnormalized words
    read the same way, so ``200000000001`` is 2**-27.
    """
    fraction = _exp_clr(word)
    exponent = (word >> 27) & 0o377
    if word & _F0:
        fraction -= 1 << 36
        exponent ^= 0o377
    return math.ldexp(fraction, exponent - 128 - 27)


def from_float(x: float) -> int:
    """The normalized word for ``x``, the magnitude truncated to 27 bits.

    A negative number is the two's complement of the word for ``-x``, as an assembler
    builds ``-1.5``.  Raises ``ValueError`` if the exponent does not fit in 0..255 or ``x``
    is not finite.
    """
    if not math.isfinite(x):
        raise ValueError(f"{x!r} has no PDP-6 floating-point form")
    if x == 0:
        return 0
    mantissa, exp2 = math.frexp(abs(x))  # abs(x) = mantissa * 2**exp2, 0.5 <= mantissa < 1
    exponent = exp2 + 128
    if not 0 <= exponent <= 0o377:
        raise ValueError(f"{x!r} is out of the PDP-6 floating-point range")
    word = (exponent << 27) | int(math.ldexp(mantissa, 27))
    return (-word) & _FW if x < 0 else word
