"""Tests of the PDP-6 floating point (pdp6/cpu/fp.py) against reference section 1.7.1.

Three layers:
* the worked examples of the reference (1.3, 1.4, 1.7.1, 5), expected words copied
  from its text;
* corner cases that follow from the rules, each with its derivation in a comment;
* hypothesis properties comparing every result with a rules-level model written here
  with exact rational arithmetic (``fractions.Fraction``), independent of the register
  code, plus agreement of the compiled and plain-Python engines.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdp6 import jit as jitmod
from pdp6.cpu import engines, fp

FW = (1 << 36) - 1
ROOT = Path(__file__).resolve().parents[2]

NAMES = ("fp_add", "fp_sub", "fp_mul", "fp_div", "fsc")
if jitmod.ENABLED:
    engines.compiled()  # the routines become numba dispatchers, with py_func beside
# The module's functions, and (when numba is on) their plain-Python sources.
ENGINES = {"default": {n: getattr(fp, n) for n in NAMES}}
if jitmod.ENABLED:
    ENGINES["py_func"] = {n: getattr(fp, n).py_func for n in NAMES}
ENGINE_IDS = sorted(ENGINES)

ONE = 0o201400000000
MINUS_ONE = 0o576400000000
THIRD = 0o177525252525
MINUS_THIRD = 0o600252525253
TEN = 0o204500000000
MINUS_TEN = 0o573300000000
THREE = 0o202600000000


def neg(w: int) -> int:
    """Full-word two's complement."""
    return (-w) & FW


def ac_ov(result: tuple[int, ...]) -> tuple[int, ...]:
    """A result without its L-mode low word: (AC, overflow) or, for FDV, (AC, overflow, ok)."""
    return (result[0], *result[2:])


# --------------------------------------------------------------------------------------
# Worked examples from the reference text


class TestReferenceExamples:
    """Every numeric example of sections 1.3, 1.4, 1.7.1 and 5."""

    def test_constants_are_what_the_examples_mean(self) -> None:
        assert fp.to_float(ONE) == 1.0
        assert fp.to_float(MINUS_ONE) == -1.0
        assert fp.to_float(TEN) == 10.0 and fp.to_float(MINUS_TEN) == -10.0
        assert fp.to_float(THREE) == 3.0
        assert MINUS_THIRD == neg(THIRD) and abs(fp.to_float(THIRD) - 1 / 3) < 2**-27

    @pytest.mark.parametrize("rounded", [False, True])
    def test_fad_one_plus_one(self, rounded: bool) -> None:
        # Section 5: FAD and FADRL (145) 1.0 + 1.0 -> 202400000000.
        ac, _, ov = fp.fp_add(ONE, ONE, rounded)
        assert (ac, ov) == (0o202400000000, 0)

    def test_fad_zero_test_ignores_low_mq_bits(self) -> None:
        # Rule 1: FAD 2^27 + (-(2^27 - 1)) -> 0, not 1.0.
        two27 = 0o234400000000  # 2^27 = 1/2 * 2^28
        assert fp.to_float(two27) == 2.0**27
        minus = neg(0o233777777777)  # -(2^27 - 1)
        assert fp.to_float(minus) == -(2.0**27 - 1)
        assert fp.fp_add(two27, minus, False)[0] == 0
        # FAD 1.0 + (-(1 - 2^-27)) -> 0.
        assert fp.fp_add(ONE, neg(0o200777777777), False)[0] == 0

    def test_fmp_truncates_toward_minus_infinity(self) -> None:
        # Rule 3: FMP (-1/3)(1/3) -> 602070707071; the positive product is 175707070706.
        assert ac_ov(fp.fp_mul(MINUS_THIRD, THIRD, False)) == (0o602070707071, 0)
        assert fp.fp_mul(THIRD, THIRD, False)[0] == 0o175707070706

    def test_fmpr_minus_third_times_third(self) -> None:
        # Rule 5: FMPR (-1/3)(1/3) -> 602070707072.
        assert fp.fp_mul(MINUS_THIRD, THIRD, True)[0] == 0o602070707072

    @pytest.mark.parametrize(
        ("a", "b", "rounded", "expected"),
        [
            (TEN, THREE, False, 0o202652525252),  # rule 4: FDV 10/3
            (MINUS_TEN, THREE, False, 0o575125252525),  # FDV -10/3, floored
            (TEN, neg(THREE), False, 0o575125252525),  # the same with the sign on the divisor
            (TEN, THREE, True, 0o202652525253),  # rule 5: FDVR 10/3
            (MINUS_TEN, THREE, True, 0o575125252526),  # FDVR -10/3
            (TEN, neg(THREE), True, 0o575125252526),
        ],
    )
    def test_fdv_ten_by_three(self, a: int, b: int, rounded: bool, expected: int) -> None:
        assert ac_ov(fp.fp_div(a, b, rounded)) == (expected, 0, 1)

    def test_fdv_negative_is_not_the_negated_positive(self) -> None:
        # Rule 4: the exact negation of 202652525252 would be 575125252526.
        assert neg(0o202652525252) == 0o575125252526
        assert fp.fp_div(MINUS_TEN, THREE, False)[0] != neg(fp.fp_div(TEN, THREE, False)[0])

    def test_fadr_rounds_guard_bit(self) -> None:
        # Rule 5: FADR 1.0 + 1.5*2^-27 -> 201400000001.
        small = 0o146600000000  # 3/4 * 2^-26
        assert fp.to_float(small) == 1.5 * 2**-27
        assert fp.fp_add(ONE, small, True)[0] == 0o201400000001

    def test_fadl_one_plus_two_to_minus_28(self) -> None:
        # Rule 6: FADL 1.0 + 2^-28 -> AC 201400000000, AC+1 100000000000.
        small = 0o145400000000
        assert fp.to_float(small) == 2.0**-28
        assert fp.fp_add(ONE, small, False) == (0o201400000000, 0o100000000000, 0)

    def test_fadl_one_minus_two_to_minus_40(self) -> None:
        # Rule 6: FADL 1.0 - 2^-40 -> 200777777777, 377760000000 (as FAD of -2^-40 or FSB).
        small = 0o131400000000
        assert fp.to_float(small) == 2.0**-40
        expected = (0o200777777777, 0o377760000000, 0)
        assert fp.fp_add(ONE, neg(small), False) == expected
        assert fp.fp_sub(ONE, small, False) == expected

    def test_fmp_exponent_overflow_and_underflow_wrap(self) -> None:
        # 1.4 / 1.7.1 rule 2 / 5: huge*huge -> 175400000000 + OV; tiny*tiny -> 177400000000 + OV.
        huge = 0o377400000000
        tiny = 0o000400000000
        assert ac_ov(fp.fp_mul(huge, huge, False)) == (0o175400000000, 1)
        assert ac_ov(fp.fp_mul(tiny, tiny, False)) == (0o177400000000, 1)

    @pytest.mark.parametrize(("a", "b"), [(0o200000000001, 0), (0, 0o200000000001)])
    def test_fad_with_zero_normalizes_other(self, a: int, b: int) -> None:
        # Rule 7: an unnormalized operand plus 0 comes back normalized, 146400000000.
        assert ac_ov(fp.fp_add(a, b, False)) == (0o146400000000, 0)

    @pytest.mark.parametrize("rounded", [False, True])
    @pytest.mark.parametrize(("a", "b"), [(ONE, 0), (0, ONE), (MINUS_THIRD, 0), (0, 0)])
    def test_fmp_by_zero(self, a: int, b: int, rounded: bool) -> None:
        # Rule 7: FMP with either operand 0 -> 0, no flags.
        assert ac_ov(fp.fp_mul(a, b, rounded)) == (0, 0)

    @pytest.mark.parametrize("a", [ONE, MINUS_TEN, 0o200000000001, 0])
    def test_fdv_by_zero_is_no_divide(self, a: int) -> None:
        # Rule 4 / 7: FDV x/0 -> AR OV, nothing stored (0/0 too: |0| <= |0|/2).
        _, _, ov, ok = fp.fp_div(a, 0, False)
        assert (ov, ok) == (1, 0)

    @pytest.mark.parametrize("b", [ONE, MINUS_THIRD, THREE])
    def test_fdv_zero_by_anything(self, b: int) -> None:
        # Rule 4: FDV of 0 by anything nonzero -> 0.
        assert ac_ov(fp.fp_div(0, b, False)) == (0, 0, 1)

    @pytest.mark.parametrize(
        ("a", "n", "expected"),
        [
            (0, 5, 0o005000000000),  # 1.3 / rule 7: no zero check
            (0o200000000001, 3, 0o203000000001),  # 1.3: no normalization
            (ONE, 3, 0o204400000000),  # section 5
        ],
    )
    def test_fsc_examples(self, a: int, n: int, expected: int) -> None:
        assert fp.fsc(a, n) == (expected, 0)


# --------------------------------------------------------------------------------------
# Consequences of the rules that the reference states without numbers


class TestRuleCorners:
    def test_alignment_threshold_is_63(self) -> None:
        # Rule 1 says "more than about 63 places"; the hardware test is SC >= 700, i.e. a
        # difference of 63 still shifts and 64 gives 0.  A negative operand shifted 63
        # places leaves all ones in AR/MQ, so 1.0 - tiny truncates to 0.777777777 * 2^0.
        diff63 = neg(0o102400000000)  # -(1/2 * 2^(66-128)): exponent 129 - 63
        diff64 = neg(0o101400000000)
        assert fp.fp_add(ONE, diff63, False)[0] == 0o200777777777
        assert fp.fp_add(ONE, diff64, False)[0] == ONE

    def test_no_divide_boundary(self) -> None:
        # Rule 4: no-divide when |divisor fraction| <= |dividend fraction| / 2.
        # 1.0 has fraction 2^26; 200200000000 has fraction 2^25 (unnormalized).
        assert ac_ov(fp.fp_div(ONE, 0o200200000000, False))[1:] == (1, 0)
        assert ac_ov(fp.fp_div(MINUS_ONE, 0o200200000000, False))[1:] == (1, 0)
        assert ac_ov(fp.fp_div(ONE, 0o200200000001, False))[1:] == (0, 1)
        assert ac_ov(fp.fp_div(ONE, 0o200000000001, False))[1:] == (1, 0)  # unnormalized divisor

    def test_fsc_wraps_with_overflow(self) -> None:
        # 1.3: exponent out of range -> AR OV and the exponent wraps mod 256.
        assert fp.fsc(0o377400000000, 1) == (0o000400000000, 1)
        assert fp.fsc(0o000400000000, -1) == (0o377400000000, 1)
        assert fp.fsc(ONE, -1) == (0o200400000000, 0)
        assert fp.fsc(0, -1) == (0o377000000000, 1)  # no zero check, so 0 underflows

    def test_fsc_negative_word(self) -> None:
        # A negative word keeps the one's-complement exponent: FSC -1.0 by 3 = -8.0.
        assert fp.fsc(MINUS_ONE, 3) == (neg(0o204400000000), 0)
        assert fp.fsc(MINUS_ONE, -2) == (neg(0o177400000000), 0)

    def test_minus_half_with_low_bits_stays_minus_half(self) -> None:
        # Rule 2: a fraction of exactly -1/2 counts as normalized.  -1/2 + 0.75*2^-27
        # shifts left into AR = -1/2 with 1s left in MQ, so normalizing stops there:
        # FAD gives -1/2 (577400000000), below the exact sum by 1.5 LSB of its binade.
        small = 0o145600000000  # 3/4 * 2^-27
        assert fp.to_float(small) == 0.75 * 2**-27
        ac, low, ov = fp.fp_add(neg(0o200400000000), small, False)
        assert (ac, ov) == (0o577400000000, 0)
        assert low == 0o700000000000  # sign copy, then the bits 1/2 and 1/4 of an LSB

    def test_rounding_minus_half_takes_two_more_bits(self) -> None:
        # Rule 5 on the case above: the guard bit is 1, AR + 1 = -1/2 + 2^-27 is
        # shifted right and normalized again, which now pulls the guard bit back in:
        # AR = -(2^27 - 3) * 2^-28 -> 600000000003 (exponent 127), exact + 1.5 LSB.
        small = 0o145600000000
        assert fp.fp_add(neg(0o200400000000), small, True)[0] == 0o600000000003
        assert fp.to_float(0o600000000003) == -0.5 + 1.5 * 2**-27

    def test_rl_mode_low_word_is_unrounded(self) -> None:
        # Rule 6: in RL modes AC+1 holds the unrounded low bits shifted one place.
        ac, low, _ = fp.fp_add(ONE, 0o146600000000, True)
        assert ac == 0o201400000001
        assert low == 0o300000000000  # the guard bits 11, shifted right once then back

    def test_fmp_of_two_minus_ones_in_unnormal_form(self) -> None:
        # 400000000000 reads as fraction -1, exponent 377.  The product +1 sets AR bit 8;
        # normalizing shifts it out past bit 1 (overflow), then pulls in the multiplier's
        # 8 sign bits left in MQ bits 28-35: fraction 776000000, exponent 382 - 54 = 328,
        # which wraps to 110.  Mainly: the loop ends.
        assert fp.fp_mul(0o400000000000, 0o400000000000, False) == (0o110776000000, 0o0, 1)

    def test_normalize_shift_past_bit_1_sets_overflow(self) -> None:
        # The same with 577000000000 (fraction -1, exponent 200): exponent 128 - 54 = 74
        # is in range, so AR OV here comes only from the bit lost past bit 1.
        assert fp.fp_mul(0o577000000000, 0o577000000000, False) == (0o112776000000, 0, 1)

    def test_fmpl_low_word_keeps_multiplier_sign_bits(self) -> None:
        # Rule 6 + 7: FMP by 0 is 0, but the Booth loop leaves the multiplier's (C(E)'s)
        # 8 spare sign copies in MQ bits 28-35, and FMPL stores MQ in AC+1.
        assert fp.fp_mul(0, MINUS_ONE, False) == (0, 0o377, 0)
        assert fp.fp_mul(MINUS_ONE, 0, False) == (0, 0, 0)

    @pytest.mark.parametrize(
        ("a", "expected"),
        [(TEN, (0o202652525252, 0o200100000000)), (MINUS_TEN, (0o575125252525, 0o777700000000))],
    )
    def test_fdvl_low_word(self, a: int, expected: tuple[int, int]) -> None:
        # Rules 4 + 6.  |10/3|: fractions 5*2^24 / 6*2^24, Q = floor(5*2^28/6) (odd, bit 1
        # clear), remainder 5*2^52 - 6*2^24*Q = 2^25.  AR/MQ = Q / 4 then one normalize
        # shift: MQ bit 1 = Q bit 0 (the guard), and the remainder's bits follow from
        # MQ bit 2, so 2^25 (remainder bit 10) lands in MQ bit 11: 200100000000.  For
        # -10 the remainder is -2^25 and -Q is shifted the same way: 777700000000.
        ac, low, ov, ok = fp.fp_div(a, THREE, False)
        assert (ac, low, ov, ok) == (*expected, 0, 1)


# --------------------------------------------------------------------------------------
# A rules-level model with exact rationals


def decode(w: int) -> tuple[Fraction, int, int]:
    """(value, exponent, signed fraction) as the hardware reads a word."""
    frac = w & 0o777777777
    exp = (w >> 27) & 0o377
    if w >> 35:
        frac -= 1 << 27
        exp ^= 0o377
    return Fraction(frac) * Fraction(2) ** (exp - 155), exp, frac


def encode(frac: int, exp: int) -> int:
    """The word for a normalized signed fraction and an exponent, wrapped to 8 bits."""
    if frac < 0:
        return (1 << 35) | ((~exp & 0o377) << 27) | (frac + (1 << 27))
    return ((exp & 0o377) << 27) | frac


def is_normal(frac: int) -> bool:
    """Rule 2: bit 9 differs from the sign, or the fraction is exactly -1/2."""
    return 1 << 26 <= frac < 1 << 27 or -(1 << 27) <= frac <= -(1 << 26)


def floor_at(v: Fraction, exp: int, extra: int = 0) -> int:
    """floor(v) in units of the LSB at exponent ``exp`` (``extra`` more bits)."""
    return math.floor(v * Fraction(2) ** (155 - exp + extra))


def first_normal(v: Fraction, exp: int) -> tuple[int, int]:
    """Rule 2: from the entry exponent go down until the truncated fraction is normal."""
    for _ in range(200):
        frac = floor_at(v, exp)
        if is_normal(frac):
            return frac, exp
        exp -= 1
    raise AssertionError("model did not normalize")


def model_normalize(v: Fraction, exp0: int, rounded: bool) -> tuple[int, int, dict]:
    """Rules 2 and 5 on an exact value entering at ``exp0``; returns (word, ov, info)."""
    frac, exp = first_normal(v, exp0)
    ov = not 0 <= exp <= 255
    info = {"first": (frac, exp), "rounded": False}
    if rounded and floor_at(v, exp, 1) & 1:
        info["rounded"] = True
        # +1 in the LSB, then shift right (exponent + 1) and normalize once more.
        frac, exp = first_normal(v + Fraction(2) ** (exp - 155), exp + 1)
        ov = ov or not 0 <= exp <= 255
    return encode(frac, exp), int(ov), info


def model_fad(a: int, b: int, rounded: bool) -> tuple[int, int, dict]:
    va, ea, _ = decode(a)
    vb, eb, _ = decode(b)
    big, small = (va, vb) if ea >= eb else (vb, va)
    info = {}
    if abs(ea - eb) > 63:
        info["dropped"] = small != 0
        small = Fraction(0)  # rule 1: shifted out entirely
    top = max(ea, eb)
    s = big + small
    if 0 <= s < Fraction(2) ** (top - 155):  # rule 1 zero test: AR = 0, MQ bit 1 = 0
        return 0, 0, {"zero": True}
    word, ov, more = model_normalize(s, top + 1, rounded)
    return word, ov, info | more


def model_fmp(a: int, b: int, rounded: bool) -> tuple[int, int, dict]:
    va, ea, _ = decode(a)
    vb, eb, _ = decode(b)
    if va * vb == 0:
        return 0, 0, {"zero": True}
    return model_normalize(va * vb, ea + eb - 128, rounded)


def model_fdv(a: int, b: int, rounded: bool) -> tuple[int, int, int, dict]:
    _, ea, fa = decode(a)
    _, eb, fb = decode(b)
    if abs(fb) <= abs(fa) // 2:
        return 0, 1, 0, {"no_divide": True}
    # Rule 4: |quotient| to 28 bits below the binary point (29 bits in all), then the sign.
    q = (abs(fa) << 28) // abs(fb)
    if (fa < 0) != (fb < 0):
        q = -q
    if q == 0:
        return 0, 0, 1, {"zero": True}
    word, ov, info = model_normalize(
        Fraction(q) * Fraction(2) ** (ea - eb - 28), ea - eb + 129, rounded
    )
    return word, ov, 1, info


def lsb(word: int) -> Fraction:
    """The weight of the last fraction bit of a (nonzero) word."""
    return Fraction(2) ** (decode(word)[1] - 155)


def minus_half_corner(info: dict) -> bool:
    """Rounding from a first result of exactly -1/2 (the case in TestRuleCorners)."""
    return info.get("rounded", False) and info["first"][0] == -(1 << 26)


# --------------------------------------------------------------------------------------
# Strategies

exponents = st.one_of(st.integers(0, 255), st.sampled_from([0, 1, 2, 126, 127, 128, 253, 254, 255]))
fractions_ = st.one_of(
    st.integers(1 << 26, (1 << 27) - 1),
    st.sampled_from([1 << 26, (1 << 26) + 1, (1 << 27) - 1, (1 << 27) - 2, 0o525252525]),
)


@st.composite
def normalized(draw: st.DrawFn, exp: st.SearchStrategy[int] = exponents) -> int:
    word = (draw(exp) << 27) | draw(fractions_)
    return neg(word) if draw(st.booleans()) else word


@st.composite
def add_pair(draw: st.DrawFn) -> tuple[int, int]:
    """Operands for FAD/FSB: independent, or exponents close enough to cancel or align."""
    a = draw(st.one_of(normalized(), st.just(0)))
    ea = decode(a)[1]
    delta = draw(st.one_of(st.integers(-2, 2), st.integers(-70, 70), st.integers(-255, 255)))
    eb = min(255, max(0, ea + delta))
    b = draw(st.one_of(normalized(st.just(eb)), normalized(), st.just(0)))
    if a and draw(st.integers(0, 3)) == 0:
        # Nearly -a: the sum cancels down to a few LSBs, into the zero test (rule 1).
        near = neg(a) + draw(st.integers(-3, 3))
        if 1 << 26 <= abs(decode(near)[2]) < 1 << 27 or decode(near)[2] == -(1 << 26):
            b = near
    return a, b


words = st.integers(0, FW)
operands = st.one_of(normalized(), st.just(0))


# --------------------------------------------------------------------------------------
# Properties


@pytest.mark.parametrize("engine", ENGINE_IDS)
class TestAgainstModel:
    @settings(max_examples=400, deadline=None)
    @given(pair=add_pair(), rounded=st.booleans(), sub=st.booleans())
    def test_fad_fsb(self, engine: str, pair: tuple[int, int], rounded: bool, sub: bool) -> None:
        a, b = pair
        f = ENGINES[engine]["fp_sub" if sub else "fp_add"]
        ac, low, ov = f(a, b, rounded)
        expected, eov, info = model_fad(a, neg(b) if sub else b, rounded)
        assert (ac, ov) == (expected, eov)
        exact = decode(a)[0] + (-1 if sub else 1) * decode(b)[0]
        check_result(ac, low, ov, exact, rounded, info)

    @settings(max_examples=400, deadline=None)
    @given(a=operands, b=operands, rounded=st.booleans())
    def test_fmp(self, engine: str, a: int, b: int, rounded: bool) -> None:
        ac, low, ov = ENGINES[engine]["fp_mul"](a, b, rounded)
        expected, eov, info = model_fmp(a, b, rounded)
        assert (ac, ov) == (expected, eov)
        check_result(ac, low, ov, decode(a)[0] * decode(b)[0], rounded, info)

    @settings(max_examples=400, deadline=None)
    @given(a=operands, b=operands, rounded=st.booleans())
    def test_fdv(self, engine: str, a: int, b: int, rounded: bool) -> None:
        ac, low, ov, ok = ENGINES[engine]["fp_div"](a, b, rounded)
        expected, eov, eok, info = model_fdv(a, b, rounded)
        assert (ok, ov) == (eok, eov)
        if not ok:
            return
        assert ac == expected
        if ac == 0 or ov:
            return
        frac = decode(ac)[2]
        assert is_normal(frac) and frac != -(1 << 27)
        assert low >> 35 == ac >> 35  # rule 6
        exact = decode(a)[0] / decode(b)[0]
        err = decode(ac)[0] - exact
        if exact > 0:
            # A positive quotient is truncated (or, in R modes, rounded) as usual.
            if rounded:
                assert abs(err) <= lsb(ac) / 2
            else:
                assert -lsb(ac) < err <= 0
        elif not minus_half_corner(info):
            # Rule 4: the magnitude is truncated, negated, then floored (or rounded), so
            # a negative quotient is off by less than one LSB either way; FDVR -10/3 is
            # 0.67 LSB off, past the half LSB of the other operations.
            assert abs(err) < lsb(ac)

    @settings(max_examples=300, deadline=None)
    @given(a=words, n=st.integers(-256, 255))
    def test_fsc(self, engine: str, a: int, n: int) -> None:
        # 1.3: add n to the exponent field as the hardware reads it; wrap, flag.
        exp = (a >> 27) & 0o377
        if a >> 35:
            exp ^= 0o377
        e = exp + n
        field = e & 0o377 if not a >> 35 else ~e & 0o377
        assert ENGINES[engine]["fsc"](a, n) == (
            (a & ~(0o377 << 27)) | (field << 27),
            int(not 0 <= e <= 255),
        )


def check_result(ac: int, low: int, ov: int, exact: Fraction, rounded: bool, info: dict) -> None:
    """Normalized-or-zero, the L-mode sign copy, and the distance from the exact value."""
    if ac == 0:
        return
    frac = decode(ac)[2]
    assert is_normal(frac) and frac != -(1 << 27)  # never the all-zero negative fraction
    assert low >> 35 == ac >> 35  # rule 6: MQ bit 0 is a copy of the result's sign
    if ov or info.get("dropped"):
        return  # the exponent wrapped, or rule 1 dropped a nonzero operand
    value = decode(ac)[0]
    if not rounded:
        # Rule 3: truncation toward -inf, at the LSB of the exponent normalizing stopped at.
        assert value <= exact < value + lsb(ac)
    elif not minus_half_corner(info):
        assert abs(value - exact) <= lsb(ac) / 2


# --------------------------------------------------------------------------------------
# Engines agree on arbitrary words (unnormalized, odd exponents, -0 fractions)


@pytest.mark.skipif(not jitmod.ENABLED, reason="numba is off: only one engine in this process")
@settings(max_examples=500, deadline=None)
@given(a=words, b=words, rounded=st.booleans(), n=st.integers(-256, 255))
def test_compiled_and_py_func_agree(a: int, b: int, rounded: bool, n: int) -> None:
    for name in ("fp_add", "fp_sub", "fp_mul", "fp_div"):
        assert getattr(fp, name)(a, b, rounded) == getattr(fp, name).py_func(a, b, rounded)
    assert fp.fsc(a, n) == fp.fsc.py_func(a, n)


_PLAIN = """
import json, sys
from pdp6.cpu import engines, fp
cases = json.load(sys.stdin)
out = [list(getattr(fp, name)(*args)) for name, args in cases]
json.dump(out, sys.stdout)
"""


def _interesting_words(rng: random.Random, count: int) -> list[int]:
    edge = [0, 1, FW, 1 << 35, ONE, MINUS_ONE, 0o377777777777, 0o400000000001, 0o000400000000]
    out = list(edge)
    while len(out) < count:
        kind = rng.randrange(3)
        if kind == 0:
            out.append(rng.getrandbits(36))
        else:
            w = (rng.randrange(256) << 27) | rng.randrange(1 << 26, 1 << 27)
            out.append(neg(w) if kind == 2 else w)
    return out


def test_plain_python_engine_agrees_in_a_subprocess() -> None:
    """The whole module under PDP6_NOJIT=1 (helpers included) gives identical results."""
    rng = random.Random(1966)
    ws = _interesting_words(rng, 160)
    cases: list[tuple[str, list[int]]] = []
    for i, a in enumerate(ws):
        b = ws[(i * 7 + 3) % len(ws)]
        for name in ("fp_add", "fp_sub", "fp_mul", "fp_div"):
            cases += [(name, [a, b, False]), (name, [a, b, True])]
        cases.append(("fsc", [a, rng.randrange(-256, 256)]))
    here = [list(getattr(fp, name)(*args)) for name, args in cases]
    env = dict(os.environ, PDP6_NOJIT="1", PYTHONPATH=str(ROOT))
    run = subprocess.run(
        [sys.executable, "-c", _PLAIN],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=300,
    )
    there = json.loads(run.stdout)
    assert [[int(x) for x in r] for r in here] == there


# --------------------------------------------------------------------------------------
# to_float / from_float


class TestConversions:
    @pytest.mark.parametrize(
        ("x", "word"),
        [
            (1.0, ONE),
            (-1.0, MINUS_ONE),
            (10.0, TEN),
            (3.0, THREE),
            (0.5, 0o200400000000),
            (0.1, 0o175631463146),  # 0.1 = 0.63146314631...(octal) * 2^-3, truncated
            (0.0, 0),
            (2.0**-28, 0o145400000000),
        ],
    )
    def test_known_words(self, x: float, word: int) -> None:
        assert fp.from_float(x) == word

    def test_negative_is_word_negation(self) -> None:
        assert fp.from_float(-0.1) == neg(fp.from_float(0.1))
        assert fp.from_float(-1 / 3) == MINUS_THIRD

    def test_to_float_reads_unnormalized_words(self) -> None:
        assert fp.to_float(0o200000000001) == 2.0**-27
        assert fp.to_float(0o005000000000) == 0.0
        assert fp.to_float(0o400000000000) == -(2.0**127)  # fraction -1, exponent 377

    @pytest.mark.parametrize("x", [math.inf, -math.inf, math.nan, 2.0**128, 2.0**-130])
    def test_out_of_range(self, x: float) -> None:
        with pytest.raises(ValueError):
            fp.from_float(x)

    @settings(max_examples=300, deadline=None)
    @given(w=normalized())
    def test_round_trip(self, w: int) -> None:
        assert fp.from_float(fp.to_float(w)) == w
        assert Fraction(fp.to_float(w)) == decode(w)[0]


def test_l_mode_low_word_extends_the_sum() -> None:
    """Rule 6: for FADL, AC:AC+1 hold the exact sum when nothing was shifted out."""
    rng = random.Random(6)
    for _ in range(2000):
        ea = rng.randrange(40, 216)
        a = (ea << 27) | rng.randrange(1 << 26, 1 << 27)
        b = ((ea - rng.randrange(0, 30)) << 27) | rng.randrange(1 << 26, 1 << 27)
        a, b = (neg(a) if rng.random() < 0.5 else a), (neg(b) if rng.random() < 0.5 else b)
        ac, low, ov = fp.fp_add(a, b, False)
        exact = decode(a)[0] + decode(b)[0]
        if ac == 0:
            continue
        assert not ov
        long_value = decode(ac)[0] + Fraction(low & ((1 << 35) - 1)) * lsb(ac) / 2**35
        assert long_value == exact
