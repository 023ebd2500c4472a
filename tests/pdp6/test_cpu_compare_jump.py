"""CAI CAM JUMP SKIP AOJ AOS SOJ SOS and AOBJP/AOBJN (300-377, 252-253).

Reference 1.3/1.4: compares set no flags (aap; SIMH sets carries); JUMP and SKIP set
no flags; SKIP (and AOS/SOS) with AC nonzero also load AC; AOJ/AOS/SOJ/SOS set the
carry flags of the add (subtract by complement-add-complement).  Any taken jump or
skip sets PC CHANGE.  AOBJx add 1,,1 as a full 36-bit add: -1 -> 1,,0.
"""

from __future__ import annotations

import pytest

from .conftest import CRY0, CRY1, OV, PCCH, SIGN, ins, neg

E = 0o200
CONDS = ("", "L", "E", "LE", "A", "GE", "N", "G")
MINUS1 = 0o777777_777777
MAXP = 0o377777_777777


def holds(cond: str, a: int, b: int) -> bool:
    """The condition written out for signed integers."""
    return {
        "": False, "L": a < b, "E": a == b, "LE": a <= b,
        "A": True, "GE": a >= b, "N": a != b, "G": a > b,
    }[cond]  # fmt: skip


# Hand-written skip table for AC = 5 compared with 3, 5, 7 (in that order).
CAI_TABLE = {
    "": (False, False, False),
    "L": (False, False, True),
    "E": (False, True, False),
    "LE": (False, True, True),
    "A": (True, True, True),
    "GE": (True, True, False),
    "N": (True, False, True),
    "G": (True, False, False),
}

# Hand-written jump table for a value of -1, 0, 1 tested against zero.
ZERO_TABLE = {
    "": (False, False, False),
    "L": (True, False, False),
    "E": (False, True, False),
    "LE": (True, True, False),
    "A": (True, True, True),
    "GE": (False, True, True),
    "N": (True, False, True),
    "G": (False, False, True),
}


def test_tables_agree_with_the_conditions() -> None:
    for cond in CONDS:
        assert CAI_TABLE[cond] == tuple(holds(cond, 5, b) for b in (3, 5, 7))
        assert ZERO_TABLE[cond] == tuple(holds(cond, v, 0) for v in (-1, 0, 1))


class TestCompare:
    @pytest.mark.parametrize("cond", CONDS)
    @pytest.mark.parametrize("k, b", [(0, 3), (1, 5), (2, 7)])
    def test_cai(self, exec1, cond: str, k: int, b: int) -> None:
        m = exec1(ins("CAI" + cond, 1, b), acs={1: 5})
        skip = CAI_TABLE[cond][k]
        assert m.pc == (0o102 if skip else 0o101)
        assert m.flags == (PCCH if skip else 0)  # no arithmetic flags, ever
        assert m.memory[1] == 5

    @pytest.mark.parametrize("cond", CONDS)
    @pytest.mark.parametrize("k, b", [(0, 3), (1, 5), (2, 7)])
    def test_cam(self, exec1, cond: str, k: int, b: int) -> None:
        m = exec1(ins("CAM" + cond, 1, E), acs={1: 5}, mem={E: b})
        skip = CAI_TABLE[cond][k]
        assert m.pc == (0o102 if skip else 0o101)
        assert m.flags == (PCCH if skip else 0)

    def test_came_sets_no_flags(self, exec1) -> None:
        # reference 5: CAME 1,[3] with AC1 = 5 -> SIMH sets CRY0, aap no flags
        m = exec1(ins("CAME", 1, E), acs={1: 5}, mem={E: 3})
        assert m.flags == 0
        assert m.pc == 0o101

    def test_cai_compares_with_positive_e(self, exec1) -> None:
        # 0,,777777 is a positive number; AC = -1 is less
        assert exec1(ins("CAIL", 1, 0o777777), acs={1: MINUS1}).pc == 0o102
        assert exec1(ins("CAIGE", 1, 0o777777), acs={1: MINUS1}).pc == 0o101

    def test_caml_stays_right_when_subtraction_overflows(self, exec1) -> None:
        m = exec1(ins("CAML", 1, E), acs={1: SIGN}, mem={E: 1})
        assert m.pc == 0o102
        assert m.flags == PCCH  # no OV even though -2^35 - 1 overflows

    def test_camg_max_against_min(self, exec1) -> None:
        m = exec1(ins("CAMG", 1, E), acs={1: MAXP}, mem={E: SIGN})
        assert m.pc == 0o102
        assert m.flags == PCCH


class TestJumpSkip:
    @pytest.mark.parametrize("cond", CONDS)
    @pytest.mark.parametrize("k, v", [(0, MINUS1), (1, 0), (2, 1)])
    def test_jump(self, exec1, cond: str, k: int, v: int) -> None:
        m = exec1(ins("JUMP" + cond, 1, 0o300), acs={1: v})
        taken = ZERO_TABLE[cond][k]
        assert m.pc == (0o300 if taken else 0o101)
        assert m.flags == (PCCH if taken else 0)
        assert m.memory[1] == v

    @pytest.mark.parametrize("cond", CONDS)
    @pytest.mark.parametrize("k, v", [(0, MINUS1), (1, 0), (2, 1)])
    def test_skip(self, exec1, cond: str, k: int, v: int) -> None:
        m = exec1(ins("SKIP" + cond, 1, E), acs={1: 0o555}, mem={E: v})
        taken = ZERO_TABLE[cond][k]
        assert m.pc == (0o102 if taken else 0o101)
        assert m.flags == (PCCH if taken else 0)
        assert m.memory[1] == v  # SKIP with AC nonzero loads AC

    def test_skip_with_ac0_does_not_load(self, exec1) -> None:
        m = exec1(ins("SKIPE", 0, E), acs={0: 0o555}, mem={E: 0})
        assert m.memory[0] == 0o555
        assert m.pc == 0o102

    def test_skipa_ac0_is_an_unconditional_skip(self, exec1) -> None:
        m = exec1(ins("SKIPA", 0, E), acs={0: 7}, mem={E: 3})
        assert m.pc == 0o102
        assert m.memory[0] == 7


class TestAojSoj:
    # AOJ from -2, -1, 0 gives -1, 0, 1; carries: none, CRY0|CRY1, none.
    @pytest.mark.parametrize("cond", CONDS)
    @pytest.mark.parametrize(
        "k, start, carries", [(0, neg(-2), 0), (1, MINUS1, CRY0 | CRY1), (2, 0, 0)]
    )
    def test_aoj(self, exec1, cond: str, k: int, start: int, carries: int) -> None:
        m = exec1(ins("AOJ" + cond, 1, 0o300), acs={1: start})
        taken = ZERO_TABLE[cond][k]
        assert m.memory[1] == (start + 1) & MINUS1
        assert m.pc == (0o300 if taken else 0o101)
        assert m.flags == carries | (PCCH if taken else 0)

    # SOJ from 0, 1, 2 gives -1, 0, 1; carries of (~X)+1: CRY0|CRY1, none, none.
    @pytest.mark.parametrize("cond", CONDS)
    @pytest.mark.parametrize("k, start, carries", [(0, 0, CRY0 | CRY1), (1, 1, 0), (2, 2, 0)])
    def test_soj(self, exec1, cond: str, k: int, start: int, carries: int) -> None:
        m = exec1(ins("SOJ" + cond, 1, 0o300), acs={1: start})
        taken = ZERO_TABLE[cond][k]
        assert m.memory[1] == (start - 1) & MINUS1
        assert m.pc == (0o300 if taken else 0o101)
        assert m.flags == carries | (PCCH if taken else 0)

    def test_aojl_jumps_on_the_sign_of_an_overflowed_result(self, exec1) -> None:
        # 2^35-1 + 1 = 400000000000: negative result, so AOJL jumps (and OV, CRY1 set)
        m = exec1(ins("AOJL", 1, 0o300), acs={1: MAXP})
        assert m.pc == 0o300
        assert m.flags == OV | CRY1 | PCCH


class TestAosSos:
    @pytest.mark.parametrize("cond", CONDS)
    @pytest.mark.parametrize(
        "k, start, carries", [(0, neg(-2), 0), (1, MINUS1, CRY0 | CRY1), (2, 0, 0)]
    )
    def test_aos(self, exec1, cond: str, k: int, start: int, carries: int) -> None:
        m = exec1(ins("AOS" + cond, 1, E), mem={E: start})
        taken = ZERO_TABLE[cond][k]
        assert m.memory[E] == (start + 1) & MINUS1
        assert m.memory[1] == (start + 1) & MINUS1
        assert m.pc == (0o102 if taken else 0o101)
        assert m.flags == carries | (PCCH if taken else 0)

    @pytest.mark.parametrize("cond", CONDS)
    @pytest.mark.parametrize("k, start, carries", [(0, 0, CRY0 | CRY1), (1, 1, 0), (2, 2, 0)])
    def test_sos(self, exec1, cond: str, k: int, start: int, carries: int) -> None:
        m = exec1(ins("SOS" + cond, 1, E), mem={E: start})
        taken = ZERO_TABLE[cond][k]
        assert m.memory[E] == (start - 1) & MINUS1
        assert m.memory[1] == (start - 1) & MINUS1
        assert m.pc == (0o102 if taken else 0o101)
        assert m.flags == carries | (PCCH if taken else 0)

    def test_aos_ac0_does_not_load_ac0(self, exec1) -> None:
        m = exec1(ins("AOS", 0, E), acs={0: 0o77}, mem={E: 4})
        assert m.memory[E] == 5
        assert m.memory[0] == 0o77

    def test_sos_ac0_does_not_load_ac0(self, exec1) -> None:
        m = exec1(ins("SOSE", 0, E), acs={0: 0o77}, mem={E: 1})
        assert m.memory[E] == 0
        assert m.memory[0] == 0o77
        assert m.pc == 0o102


class TestAobj:
    def test_aobjn_minus_one_gives_one_comma_zero(self, exec1) -> None:
        # reference 1.3/5: full 36-bit add of 1,,1: 777777777777 -> 000001000000
        m = exec1(ins("AOBJN", 1, 0o300), acs={1: MINUS1})
        assert m.memory[1] == 0o000001_000000
        assert m.pc == 0o101  # positive: no jump
        assert m.flags == 0

    def test_aobjp_minus_one_jumps(self, exec1) -> None:
        m = exec1(ins("AOBJP", 1, 0o300), acs={1: MINUS1})
        assert m.memory[1] == 0o000001_000000
        assert m.pc == 0o300
        assert m.flags == PCCH

    def test_aobjn_counts_a_loop(self, run_program) -> None:
        # AC = -3,,0: three passes; the third leaves 0,,3 and falls through.
        m = run_program([ins("AOS", 0, 0o200), ins("AOBJN", 1, 0o100)], acs={1: 0o777775_000000})
        assert m.memory[0o200] == 3
        assert m.memory[1] == 0o000000_000003

    def test_aobjn_negative_jumps(self, exec1) -> None:
        m = exec1(ins("AOBJN", 1, 0o300), acs={1: 0o777776_000010})
        assert m.memory[1] == 0o777777_000011
        assert m.pc == 0o300

    def test_aobjp_not_taken_when_negative(self, exec1) -> None:
        m = exec1(ins("AOBJP", 1, 0o300), acs={1: 0o777776_000010})
        assert m.pc == 0o101
        assert m.flags == 0
