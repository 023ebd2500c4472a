"""ASH ROT LSH ASHC ROTC LSHC (240-246; reference 1.3 shift count, 1.4 ASH OV, 1.5).

The count is a 9-bit two's-complement number from E: bit 18 (400000) is the sign and
bits 28-35 (377) the rest, so n = (E & 377) - (256 if E & 400000); bits 19-27 are
ignored; positive shifts left.  ASH/ASHC left set AR OV if a bit shifted out of bit 1
differs from the sign; the sign never changes.  ASHC: AC+1 bit 0 gets AC's sign on
every step, left shifts move AC+1 bit 1 into AC bit 35, right shifts AC bit 35 into
AC+1 bit 1, and a zero count leaves AC+1 alone.
"""

from __future__ import annotations

import pytest

from .conftest import OV, SIGN, ins, neg

MAXP = 0o377777_777777
MINUS1 = 0o777777_777777


class TestCountDecoding:
    @pytest.mark.parametrize(
        "e, n",
        [
            (3, 3),
            (0o377, 255),
            (0o777775, -3),  # 375 - 256
            (0o400000, -256),
            (0o400377, -1),
            (0o000403, 3),  # bit 27 (400) is ignored
            (0o077403, 3),  # bits 19-27 ignored
            (0o777400, -256),
            (0o000400, 0),
        ],
    )
    def test_lsh_count_from_e(self, exec1, e: int, n: int) -> None:
        a = 0o000000_001000
        m = exec1(ins("LSH", 1, e), acs={1: a})
        expected = (a << n) & 0o777777_777777 if n >= 0 else a >> -n
        assert m.memory[1] == expected

    def test_count_comes_from_indexed_effective_address(self, exec1) -> None:
        # E = 3 + C(2) = 3 + 777777 = 2 (mod 2^18): shift left 2
        m = exec1(ins("LSH", 1, 3, x=2), acs={1: 1, 2: 0o777777})
        assert m.memory[1] == 4

    def test_rot_by_minus_256_is_rot_left_32(self, exec1) -> None:
        # -256 mod 36 = 32
        a = 0o123456_701234
        m = exec1(ins("ROT", 1, 0o400000), acs={1: a})
        assert m.memory[1] == ((a << 32) | (a >> 4)) & MINUS1


class TestAsh:
    @pytest.mark.parametrize(
        "a, e, result, flags",
        [
            (1, 3, 0o10, 0),
            # reference 1.4: ASH 1,1 on 200000000000 -> OV (bit 1 lost, sign kept 0)
            (0o200000_000000, 1, 0, OV),
            (MINUS1, 1, neg(-2), 0),
            # 400000000001 left 1: bit 1 (0) differs from the sign -> OV; sign stays 1
            (SIGN | 1, 1, SIGN | 2, OV),
            (1, 34, 0o200000_000000, 0),
            (1, 35, 0, OV),
            (neg(-1 << 34), 1, SIGN, 0),  # -2^34 * 2 = -2^35 fits
            (0, 0o377, 0, 0),
            # -1 left 35 = -2^35 still fits; from 36 places on, the zeros shifted in at
            # bit 35 reach bit 1 and differ from the sign -> OV
            (MINUS1, 35, SIGN, 0),
            (MINUS1, 36, SIGN, OV),
            (MINUS1, 0o377, SIGN, OV),
            # right shifts never overflow and propagate the sign
            (SIGN, 0o777777, 0o600000_000000, 0),
            (neg(-5), 0o777777, neg(-3), 0),  # floor(-5/2)
            (5, 0o777777, 2, 0),
            (neg(-5), 0o400000, MINUS1, 0),
            (MAXP, 0o400000, 0, 0),
            (0o123, 0, 0o123, 0),
        ],
    )
    def test_ash(self, exec1, a: int, e: int, result: int, flags: int) -> None:
        m = exec1(ins("ASH", 1, e), acs={1: a})
        assert m.memory[1] == result
        assert m.flags == flags

    def test_ash_does_not_touch_ac_plus_one(self, exec1) -> None:
        m = exec1(ins("ASH", 1, 0o777777), acs={1: 2, 2: 0o707})
        assert m.memory[2] == 0o707


class TestRotLsh:
    @pytest.mark.parametrize(
        "a, e, result",
        [
            (SIGN | 1, 1, 3),
            (1, 0o777777, SIGN),
            (0o123456_701234, 36, 0o123456_701234),
            (0o123456_701234, 0o777734, 0o123456_701234),  # -36
            (1, 0o377, 1 << 3),  # 255 mod 36 = 3
            (0o000000_000007, 0o777776, 0o600000_000001),  # right 2
        ],
    )
    def test_rot(self, exec1, a: int, e: int, result: int) -> None:
        m = exec1(ins("ROT", 1, e), acs={1: a}, flags=0)
        assert m.memory[1] == result
        assert m.flags == 0

    @pytest.mark.parametrize(
        "a, e, result",
        [
            (SIGN | 1, 1, 2),
            (SIGN | 1, 0o777777, 0o200000_000000),  # logical: no sign extension
            (MINUS1, 35, SIGN),
            (MINUS1, 36, 0),
            (MINUS1, 0o777734, 0),  # -36
            (MINUS1, 0o777735, 1),  # -35
            (MINUS1, 0o377, 0),
        ],
    )
    def test_lsh(self, exec1, a: int, e: int, result: int) -> None:
        m = exec1(ins("LSH", 1, e), acs={1: a})
        assert m.memory[1] == result
        assert m.flags == 0  # LSH never sets AR OV


class TestAshc:
    @pytest.mark.parametrize(
        "hi, lo, e, rhi, rlo, flags",
        [
            # left 1: AC+1 bit 1 moves into AC bit 35; AC+1 bit 0 <- sign (0)
            (0, 0o200000_000000, 1, 1, 0, 0),
            # right 1: AC bit 35 moves into AC+1 bit 1
            (1, 0, 0o777777, 0, 0o200000_000000, 0),
            # negative right 1: AC+1 bit 1 <- AC bit 35 (1), bit 0 <- sign (1)
            (MINUS1, 0, 0o777777, MINUS1, 0o600000_000000, 0),
            # left 1 of 400000000000,0: bit 1 (0) != sign -> OV; AC+1 bit 0 <- sign
            (SIGN, 0, 1, SIGN, SIGN, OV),
            # positive AC with AC+1 sign bit set: left 1, AC+1 bit 0 <- 0
            (0, SIGN, 1, 0, 0, 0),
            # the 70-bit value 1 shifted left 35 lands in AC bit 35
            (0, 1, 35, 1, 0, 0),
            # and back: 2^35 right 35 -> 1 in AC+1
            (1, 0, 0o777735, 0, 1, 0),
            # left 36: AC+1 bits 1-35 move 36 places: AC+1 bit 35 (1) -> AC bit 34
            (0, 1, 36, 2, 0, 0),
            # -1 (70 bits) left 70 = -2^70 fits; left 71 the zero fill reaches AC bit 1
            (MINUS1, MINUS1, 70, SIGN, SIGN, 0),
            (MINUS1, MINUS1, 71, SIGN, SIGN, OV),
            (0, 0, 0o377, 0, 0, 0),
            # negative right 70+: all sign
            (SIGN, 0, 0o400000, MINUS1, MINUS1, 0),
        ],
    )
    def test_ashc(self, exec1, hi: int, lo: int, e: int, rhi: int, rlo: int, flags: int) -> None:
        m = exec1(ins("ASHC", 1, e), acs={1: hi, 2: lo})
        assert (m.memory[1], m.memory[2]) == (rhi, rlo)
        assert m.flags == flags

    def test_ashc_zero_count_leaves_ac_plus_one_alone(self, exec1) -> None:
        # A negative AC with AC+1 bit 0 clear: any step would set AC+1 bit 0; count 0 not.
        m = exec1(ins("ASHC", 1, 0), acs={1: SIGN, 2: 5})
        assert (m.memory[1], m.memory[2]) == (SIGN, 5)
        assert m.flags == 0

    def test_ashc_overflow_from_bits_of_ac_plus_one(self, exec1) -> None:
        # 0, 200000000000 left 35: AC+1's bit 1 passes AC bit 1 and is shifted out of it
        # only at 35+1 = 36 places.  At 35 places it sits in AC bit 1: no OV.
        m = exec1(ins("ASHC", 1, 35), acs={1: 0, 2: 0o200000_000000})
        assert (m.memory[1], m.memory[2]) == (0o200000_000000, 0)
        assert m.flags == 0
        m = exec1(ins("ASHC", 1, 36), acs={1: 0, 2: 0o200000_000000})
        assert (m.memory[1], m.memory[2]) == (0, 0)
        assert m.flags == OV

    def test_ashc_ac17_uses_ac0(self, exec1) -> None:
        m = exec1(ins("ASHC", 0o17, 1), acs={0o17: 0, 0: 0o200000_000000})
        assert (m.memory[0o17], m.memory[0]) == (1, 0)


class TestRotcLshc:
    @pytest.mark.parametrize(
        "hi, lo, e, rhi, rlo",
        [
            # AC bit 0 -> AC+1 bit 35, AC+1 bit 0 -> AC bit 35
            (SIGN, SIGN | 1, 1, 1, 3),
            (1, 0, 0o777777, 0, SIGN),
            (0o111111_111111, 0o222222_222222, 36, 0o222222_222222, 0o111111_111111),
            (0o111111_111111, 0o222222_222222, 72, 0o111111_111111, 0o222222_222222),
            # -256 mod 72 = 32: left 32
            (0o1234, 0, 0o400000, 0o1234 << 32 & MINUS1, 0o1234 >> 4),
        ],
    )
    def test_rotc(self, exec1, hi: int, lo: int, e: int, rhi: int, rlo: int) -> None:
        m = exec1(ins("ROTC", 1, e), acs={1: hi, 2: lo})
        assert (m.memory[1], m.memory[2]) == (rhi, rlo)
        assert m.flags == 0

    @pytest.mark.parametrize(
        "hi, lo, e, rhi, rlo",
        [
            (0, SIGN, 1, 1, 0),
            (SIGN | 1, SIGN, 1, 3, 0),  # AC bit 0 is lost
            (1, 0, 0o777777, 0, SIGN),
            (SIGN, 1, 0o777777, 0o200000_000000, 0),  # zero fill, AC+1 bit 35 lost
            (0, 5, 36, 5, 0),
            (5, 0, 0o777734, 0, 5),  # -36
            (MINUS1, MINUS1, 72, 0, 0),
            (MINUS1, MINUS1, 0o777670, 0, 0),  # -72
            (MINUS1, MINUS1, 0o777671, 0, 1),  # -71
        ],
    )
    def test_lshc(self, exec1, hi: int, lo: int, e: int, rhi: int, rlo: int) -> None:
        m = exec1(ins("LSHC", 1, e), acs={1: hi, 2: lo})
        assert (m.memory[1], m.memory[2]) == (rhi, rlo)
        assert m.flags == 0
