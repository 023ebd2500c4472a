"""ADD, SUB, AOS/SOS/AOJ/SOJ flags, IMUL, MUL, IDIV, DIV (reference 1.4, 1.5, 5).

Flag rules (reference 1.4): ADD sets CRY0 (carry out of bit 0) and CRY1 (carry into
bit 0) from A+B, and AR OV when they differ.  The PDP-6 subtracts by complementing AC,
adding and complementing again, so SUB's carries are those of (~A)+B: SUB 5-3 sets no
carries (the KA10 sets both), SUB 3-5 sets both.  X-1 (SOS/SOJ) uses (~X)+1.
"""

from __future__ import annotations

import pytest

from .conftest import CRY0, CRY1, OV, SIGN, ins, neg

E = 0o200
MAXP = 0o377777_777777  # 2^35 - 1
MINUS1 = 0o777777_777777


class TestAdd:
    @pytest.mark.parametrize(
        "a, b, result, flags",
        [
            (1, 2, 3, 0),
            # 2^35-1 + 1: carry into bit 0 only -> CRY1 and OV
            (MAXP, 1, SIGN, CRY1 | OV),
            # -1 + 1: carries into and out of bit 0 -> CRY0 CRY1, no OV
            (MINUS1, 1, 0, CRY0 | CRY1),
            # -2^35 + -2^35: carry out of bit 0 only -> CRY0 and OV
            (SIGN, SIGN, 0, CRY0 | OV),
            (MINUS1, MINUS1, neg(-2), CRY0 | CRY1),
            (neg(-5), 3, neg(-2), 0),
            (0, 0, 0, 0),
        ],
    )
    def test_add_result_and_flags(self, exec1, a: int, b: int, result: int, flags: int) -> None:
        m = exec1(ins("ADD", 1, E), acs={1: a}, mem={E: b})
        assert m.memory[1] == result
        assert m.flags == flags
        assert m.memory[E] == b

    def test_addi_adds_zero_comma_e(self, exec1) -> None:
        m = exec1(ins("ADDI", 1, 0o777777), acs={1: 1})
        assert m.memory[1] == 0o1_000000

    def test_addm_stores_to_memory_only(self, exec1) -> None:
        m = exec1(ins("ADDM", 1, E), acs={1: 5}, mem={E: 6})
        assert m.memory[E] == 11
        assert m.memory[1] == 5

    def test_addb_stores_both(self, exec1) -> None:
        m = exec1(ins("ADDB", 1, E), acs={1: MAXP}, mem={E: 1})
        assert m.memory[E] == SIGN
        assert m.memory[1] == SIGN
        assert m.flags == CRY1 | OV


class TestSub:
    @pytest.mark.parametrize(
        "a, b, result, flags",
        [
            # reference 1.4: SUB 5-3 sets no carry flags (~5 + 3 = 777777777775)
            (5, 3, 2, 0),
            # SUB 3-5: ~3 + 5 = 1 000000000001 -> CRY0 and CRY1
            (3, 5, neg(-2), CRY0 | CRY1),
            # 0-0: ~0 + 0 = 777777777777, no carries (KA10: both)
            (0, 0, 0, 0),
            (5, 5, 0, 0),
            # -2^35 - 1: ~(400000000000) + 1 = 400000000000 -> CRY1 only -> OV
            (SIGN, 1, MAXP, CRY1 | OV),
            # 2^35-1 - (-1): 400000000000 + 777777777777 -> CRY0 only -> OV
            (MAXP, MINUS1, SIGN, CRY0 | OV),
            # -1 - -1: ~(-1) + -1 = 0 + 777777777777, no carries
            (MINUS1, MINUS1, 0, 0),
            # 0 - 1: ~0 + 1 carries out of and into bit 0
            (0, 1, MINUS1, CRY0 | CRY1),
        ],
    )
    def test_sub_result_and_flags(self, exec1, a: int, b: int, result: int, flags: int) -> None:
        m = exec1(ins("SUB", 1, E), acs={1: a}, mem={E: b})
        assert m.memory[1] == result
        assert m.flags == flags

    def test_subi(self, exec1) -> None:
        m = exec1(ins("SUBI", 1, 3), acs={1: 5})
        assert m.memory[1] == 2
        assert m.flags == 0

    def test_subm_stores_ac_minus_memory_in_memory(self, exec1) -> None:
        m = exec1(ins("SUBM", 1, E), acs={1: 3}, mem={E: 5})
        assert m.memory[E] == neg(-2)
        assert m.memory[1] == 3
        assert m.flags == CRY0 | CRY1

    def test_subb(self, exec1) -> None:
        m = exec1(ins("SUBB", 1, E), acs={1: 10}, mem={E: 4})
        assert m.memory[E] == 6
        assert m.memory[1] == 6


class TestIncrementDecrementFlags:
    """reference 1.4: the AOS/SOS family flag examples."""

    def test_sos_of_zero_sets_both_carries(self, exec1) -> None:
        m = exec1(ins("SOS", 1, E), mem={E: 0})
        assert m.memory[E] == MINUS1
        assert m.memory[1] == MINUS1
        assert m.flags == CRY0 | CRY1

    def test_sos_of_minus_2_35_sets_cry1_and_ov(self, exec1) -> None:
        m = exec1(ins("SOS", 1, E), mem={E: SIGN})
        assert m.memory[E] == MAXP
        assert m.flags == CRY1 | OV

    def test_sos_of_five_sets_no_flags(self, exec1) -> None:
        m = exec1(ins("SOS", 0, E), mem={E: 5})
        assert m.memory[E] == 4
        assert m.flags == 0

    def test_aos_of_minus_one_sets_both_carries(self, exec1) -> None:
        m = exec1(ins("AOS", 1, E), mem={E: MINUS1})
        assert m.memory[E] == 0
        assert m.flags == CRY0 | CRY1

    def test_aos_of_max_positive_overflows(self, exec1) -> None:
        m = exec1(ins("AOS", 1, E), mem={E: MAXP})
        assert m.memory[E] == SIGN
        assert m.flags == CRY1 | OV

    def test_aoj_of_max_positive_overflows(self, exec1) -> None:
        m = exec1(ins("AOJ", 1, E), acs={1: MAXP})
        assert m.memory[1] == SIGN
        assert m.flags == CRY1 | OV

    def test_soj_of_minus_2_35(self, exec1) -> None:
        m = exec1(ins("SOJ", 1, E), acs={1: SIGN})
        assert m.memory[1] == MAXP
        assert m.flags == CRY1 | OV

    def test_soj_of_zero(self, exec1) -> None:
        m = exec1(ins("SOJ", 1, E), acs={1: 0})
        assert m.memory[1] == MINUS1
        assert m.flags == CRY0 | CRY1


class TestImul:
    @pytest.mark.parametrize(
        "a, b, result, flags",
        [
            (3, 5, 15, 0),
            (neg(-3), 5, neg(-15), 0),
            (neg(-3), neg(-5), 15, 0),
            (MINUS1, MINUS1, 1, 0),
            (7, 0, 0, 0),
            (neg(-7), 0, 0, 0),
            # reference 1.5: IMUL 2^34 x 2 -> 0 with OV (sign 0, low 35 bits 0)
            (1 << 34, 2, 0, OV),
            # 2^20 x 2^20 = 2^40: low 35 bits zero, positive -> 0, OV
            (1 << 20, 1 << 20, 0, OV),
            # 2^35-1 x 2 = 2^36-2: sign 0 | low 35 bits 377777777776, OV
            (MAXP, 2, 0o377777_777776, OV),
            # -2^18 x 2^17 = -2^35 fits exactly in 36 bits: no OV
            (neg(-(1 << 18)), 1 << 17, SIGN, 0),
            # -(2^35-1) x 2 = -(2^36-2): sign 1 | low 35 bits of the two's complement (2)
            (neg(-MAXP), 2, SIGN | 2, OV),
        ],
    )
    def test_imul(self, exec1, a: int, b: int, result: int, flags: int) -> None:
        m = exec1(ins("IMUL", 1, E), acs={1: a, 2: 0o525252}, mem={E: b})
        assert m.memory[1] == result
        assert m.memory[2] == 0o525252  # IMUL does not touch AC+1
        assert m.flags == flags

    def test_imul_minus_2_35_by_minus_one(self, exec1) -> None:
        # reference 5 (agrees with aap's Booth model): AC1 400000000000 and AR OV
        m = exec1(ins("IMUL", 1, E), acs={1: SIGN}, mem={E: MINUS1})
        assert m.memory[1] == SIGN
        assert m.flags == OV

    def test_imuli(self, exec1) -> None:
        m = exec1(ins("IMULI", 1, 0o10), acs={1: neg(-3)})
        assert m.memory[1] == neg(-0o30)

    def test_imulm_stores_memory_only(self, exec1) -> None:
        m = exec1(ins("IMULM", 1, E), acs={1: 6}, mem={E: 7})
        assert m.memory[E] == 42
        assert m.memory[1] == 6

    def test_imulb_stores_both(self, exec1) -> None:
        m = exec1(ins("IMULB", 1, E), acs={1: 6}, mem={E: 7})
        assert m.memory[E] == 42
        assert m.memory[1] == 42


class TestMul:
    @pytest.mark.parametrize(
        "a, b, hi, lo, flags",
        [
            (3, 5, 0, 15, 0),
            # -15 as a 70-bit pair: high all ones, low = sign | low 35 bits of -15
            (neg(-3), 5, MINUS1, neg(-15), 0),
            (neg(-3), neg(-5), 0, 15, 0),
            # (2^35-1)^2 = 2^70 - 2^36 + 1: high 2^35-2, low 1
            (MAXP, MAXP, 0o377777_777776, 1, 0),
            # 2^35-1 x -1 = -(2^35-1): high all ones, low = sign | 1
            (MAXP, MINUS1, MINUS1, SIGN | 1, 0),
            # AC=1, C(E)=-2^35: the correct product (reference 1.5)
            (1, SIGN, MINUS1, SIGN, 0),
            (0, neg(-9), 0, 0, 0),
        ],
    )
    def test_mul(self, exec1, a: int, b: int, hi: int, lo: int, flags: int) -> None:
        m = exec1(ins("MUL", 1, E), acs={1: a, 2: 0o777}, mem={E: b})
        assert (m.memory[1], m.memory[2]) == (hi, lo)
        assert m.flags == flags

    def test_mul_minus_2_35_squared_overflows(self, exec1) -> None:
        # reference 1.4: MUL OV when both operands are negative and the high word comes out
        # negative, e.g. (-2^35)^2 = 2^70, whose high word 2^35 reads as negative.
        m = exec1(ins("MUL", 1, E), acs={1: SIGN}, mem={E: SIGN})
        assert m.flags == OV
        assert m.memory[1] == SIGN
        assert m.memory[2] == SIGN  # the low word repeats the high word's sign

    def test_mul_ac_minus_2_35_by_one_is_aap_garbage(self, exec1) -> None:
        # reference 1.5 (aap's Booth adder overflows): MUL -2^35 x 1 -> 1,0 and no OV
        m = exec1(ins("MUL", 1, E), acs={1: SIGN, 2: 0o777}, mem={E: 1})
        assert (m.memory[1], m.memory[2]) == (1, 0)
        assert m.flags == 0

    def test_mul_ac_minus_2_35_by_minus_one(self, exec1) -> None:
        # reference 1.5: -> 777777777777, 400000000000 + OV
        m = exec1(ins("MUL", 1, E), acs={1: SIGN}, mem={E: MINUS1})
        assert (m.memory[1], m.memory[2]) == (MINUS1, SIGN)
        assert m.flags == OV

    def test_mul_ac17_wraps_to_ac0(self, exec1) -> None:
        m = exec1(ins("MUL", 0o17, E), acs={0o17: 1 << 34, 0: 5}, mem={E: 4})
        # 2^34 * 4 = 2^36 = 2 * 2^35: high 2, low 0
        assert (m.memory[0o17], m.memory[0]) == (2, 0)

    def test_muli(self, exec1) -> None:
        m = exec1(ins("MULI", 1, 0o100), acs={1: 1 << 30})
        # 2^30 * 2^6 = 2^36: high 2, low 0
        assert (m.memory[1], m.memory[2]) == (2, 0)

    def test_mulm_stores_high_word_to_memory_only(self, exec1) -> None:
        m = exec1(ins("MULM", 1, E), acs={1: MAXP, 2: 0o123}, mem={E: MAXP})
        assert m.memory[E] == 0o377777_777776
        assert (m.memory[1], m.memory[2]) == (MAXP, 0o123)

    def test_mulb_stores_high_to_memory_and_pair_to_acs(self, exec1) -> None:
        m = exec1(ins("MULB", 1, E), acs={1: MAXP}, mem={E: MAXP})
        assert m.memory[E] == 0o377777_777776
        assert (m.memory[1], m.memory[2]) == (0o377777_777776, 1)


class TestIdiv:
    @pytest.mark.parametrize(
        "a, b, q, r",
        [
            (7, 2, 3, 1),
            # reference 1.5: the remainder has the dividend's sign
            (neg(-7), 2, neg(-3), neg(-1)),
            (7, neg(-2), neg(-3), 1),
            (neg(-7), neg(-2), 3, neg(-1)),
            (6, 3, 2, 0),
            (2, 5, 0, 2),
            (MAXP, 1, MAXP, 0),
            (5, SIGN, 0, 5),
        ],
    )
    def test_idiv(self, exec1, a: int, b: int, q: int, r: int) -> None:
        m = exec1(ins("IDIV", 1, E), acs={1: a, 2: 0o777}, mem={E: b})
        assert (m.memory[1], m.memory[2]) == (q, r)
        assert m.flags == 0

    @pytest.mark.parametrize("divisor", [1, MINUS1, 3, neg(-7), SIGN])
    def test_idiv_of_minus_2_35_gives_zero_zero(self, exec1, divisor: int) -> None:
        # reference 1.5 (aap): the magnitude's top bit is lost -> AC=0, AC+1=0, no flags
        m = exec1(ins("IDIV", 1, E), acs={1: SIGN, 2: 0o777}, mem={E: divisor})
        assert (m.memory[1], m.memory[2]) == (0, 0)
        assert m.flags == 0

    def test_idiv_by_zero_sets_ov_and_stores_nothing(self, exec1) -> None:
        m = exec1(ins("IDIV", 1, E), acs={1: 7, 2: 0o555}, mem={E: 0})
        assert (m.memory[1], m.memory[2]) == (7, 0o555)
        assert m.flags == OV

    def test_idivi(self, exec1) -> None:
        m = exec1(ins("IDIVI", 1, 10), acs={1: 123})
        assert (m.memory[1], m.memory[2]) == (12, 3)

    def test_idivm_stores_quotient_to_memory_only(self, exec1) -> None:
        m = exec1(ins("IDIVM", 1, E), acs={1: 17, 2: 0o444}, mem={E: 5})
        assert m.memory[E] == 3
        assert (m.memory[1], m.memory[2]) == (17, 0o444)

    def test_idivb_stores_quotient_to_memory_and_both_acs(self, exec1) -> None:
        m = exec1(ins("IDIVB", 1, E), acs={1: 17}, mem={E: 5})
        assert m.memory[E] == 3
        assert (m.memory[1], m.memory[2]) == (3, 2)

    def test_idivm_by_zero_stores_nothing(self, exec1) -> None:
        m = exec1(ins("IDIVM", 1, E), acs={1: 17}, mem={E: 0})
        assert m.memory[E] == 0
        assert m.memory[1] == 17
        assert m.flags == OV


class TestDiv:
    def test_div_by_zero_sets_ov_and_leaves_acs(self, exec1) -> None:
        # reference 5: DIV 1,[0] -> AR OV, AC1/AC2 unchanged
        m = exec1(ins("DIV", 1, E), acs={1: 0o12, 2: 0o34}, mem={E: 0})
        assert (m.memory[1], m.memory[2]) == (0o12, 0o34)
        assert m.flags == OV

    @pytest.mark.parametrize(
        "hi, lo, b, q, r",
        [
            (0, 15, 4, 3, 3),
            # 1,,0 pair = 2^35: / 2 = 2^34
            (1, 0, 2, 1 << 34, 0),
            # -15 as a pair (high all ones, low sign|...) / 4 -> -3 rem -3
            (MINUS1, neg(-15), 4, neg(-3), neg(-3)),
            # the low word's sign bit is ignored: same dividend -15
            (MINUS1, neg(-15) & ~SIGN, 4, neg(-3), neg(-3)),
            (0, 15, neg(-4), neg(-3), 3),
            # (2^35-2)*2^35 + 1 = (2^35-1)^2 ... / (2^35-1) = 2^35-1 rem 0
            (0o377777_777776, 1, MAXP, MAXP, 0),
            # positive dividend with its low word sign set: bit ignored -> 0,,15
            (0, SIGN | 15, 4, 3, 3),
        ],
    )
    def test_div(self, exec1, hi: int, lo: int, b: int, q: int, r: int) -> None:
        m = exec1(ins("DIV", 1, E), acs={1: hi, 2: lo}, mem={E: b})
        assert (m.memory[1], m.memory[2]) == (q, r)
        assert m.flags == 0

    @pytest.mark.parametrize(
        "hi, lo, b",
        [
            (2, 7, 2),
            (5, 7, 2),
            (2, 7, neg(-2)),
            # -2^36: magnitude 2 * 2^35, high part 2 >= 2
            (MINUS1 - 1, 0, 2),
        ],
    )
    def test_div_high_part_too_big_is_no_divide(self, exec1, hi: int, lo: int, b: int) -> None:
        # reference 1.4: the high part of the dividend's magnitude >= |divisor| -> AR OV,
        # AC/AC+1 unchanged
        m = exec1(ins("DIV", 1, E), acs={1: hi, 2: lo}, mem={E: b})
        assert (m.memory[1], m.memory[2]) == (hi, lo)
        assert m.flags == OV

    def test_div_negative_dividend_whose_magnitude_high_part_fits(self, exec1) -> None:
        # -2^36 + 7 (high word -2, low 7): magnitude 2^36 - 7 has high part 1 < 2, so it
        # divides: 2^36 - 7 = 2 * (2^35 - 4) + 1 -> quotient -(2^35 - 4), remainder -1.
        m = exec1(ins("DIV", 1, E), acs={1: MINUS1 - 1, 2: 7}, mem={E: 2})
        assert (m.memory[1], m.memory[2]) == (neg(-((1 << 35) - 4)), MINUS1)
        assert m.flags == 0

    def test_divm_stores_quotient_only(self, exec1) -> None:
        m = exec1(ins("DIVM", 1, E), acs={1: 0, 2: 15}, mem={E: 4})
        assert m.memory[E] == 3
        assert (m.memory[1], m.memory[2]) == (0, 15)

    def test_divb(self, exec1) -> None:
        m = exec1(ins("DIVB", 1, E), acs={1: 0, 2: 15}, mem={E: 4})
        assert m.memory[E] == 3
        assert (m.memory[1], m.memory[2]) == (3, 3)

    def test_divi(self, exec1) -> None:
        m = exec1(ins("DIVI", 1, 0o10), acs={1: 1, 2: 0})
        # 2^35 / 8 = 2^32
        assert (m.memory[1], m.memory[2]) == (1 << 32, 0)
