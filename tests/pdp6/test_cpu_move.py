"""MOVE, MOVS, MOVN, MOVM in their four modes (opcodes 200-217; reference 1.3, 1.4).

Mode letters: basic = C(E) to AC, I = 0,,E to AC, M = AC to C(E), S = C(E) to C(E)
and to AC when AC is not 0.  MOVN/MOVM set AR OV only, and only for -2^35; they never
set CRY0/CRY1 on the PDP-6 (reference 1.4, 1.9 item 4).
"""

from __future__ import annotations

import pytest

from .conftest import OV, SIGN, ins, neg

E = 0o200


class TestMove:
    def test_move_loads_ac_and_leaves_memory(self, exec1) -> None:
        m = exec1(ins("MOVE", 1, E), mem={E: 0o123456_654321})
        assert m.memory[1] == 0o123456_654321
        assert m.memory[E] == 0o123456_654321
        assert m.flags == 0
        assert m.pc == 0o101

    def test_movei_loads_zero_comma_e(self, exec1) -> None:
        m = exec1(ins("MOVEI", 1, 0o777777), acs={1: 0o555555_555555})
        assert m.memory[1] == 0o000000_777777

    def test_movem_stores_ac(self, exec1) -> None:
        m = exec1(ins("MOVEM", 3, E), acs={3: 0o707070_070707}, mem={E: 5})
        assert m.memory[E] == 0o707070_070707
        assert m.memory[3] == 0o707070_070707

    def test_moves_with_ac_nonzero_loads_ac(self, exec1) -> None:
        m = exec1(ins("MOVES", 2, E), acs={2: 1}, mem={E: 0o444})
        assert m.memory[2] == 0o444
        assert m.memory[E] == 0o444

    def test_moves_with_ac_zero_leaves_ac0(self, exec1) -> None:
        m = exec1(ins("MOVES", 0, E), acs={0: 0o777}, mem={E: 0o444})
        assert m.memory[0] == 0o777
        assert m.memory[E] == 0o444


class TestMovs:
    def test_movs_swaps_halves(self, exec1) -> None:
        m = exec1(ins("MOVS", 1, E), mem={E: 0o111111_222222})
        assert m.memory[1] == 0o222222_111111
        assert m.memory[E] == 0o111111_222222

    def test_movsi_puts_e_in_left_half(self, exec1) -> None:
        m = exec1(ins("MOVSI", 1, 0o400123), acs={1: 0o777})
        assert m.memory[1] == 0o400123_000000

    def test_movsm_stores_swapped_ac(self, exec1) -> None:
        m = exec1(ins("MOVSM", 1, E), acs={1: 0o1_000002})
        assert m.memory[E] == 0o2_000001
        assert m.memory[1] == 0o1_000002

    def test_movss_swaps_memory_and_loads_ac(self, exec1) -> None:
        m = exec1(ins("MOVSS", 4, E), mem={E: 0o3_000004})
        assert m.memory[E] == 0o4_000003
        assert m.memory[4] == 0o4_000003

    def test_movss_ac0_swaps_memory_only(self, exec1) -> None:
        m = exec1(ins("MOVSS", 0, E), acs={0: 0o17}, mem={E: 0o3_000004})
        assert m.memory[E] == 0o4_000003
        assert m.memory[0] == 0o17


class TestMovn:
    @pytest.mark.parametrize(
        "value, result",
        [
            (5, neg(-5)),
            (neg(-5), 5),
            (1, 0o777777_777777),
            (0o377777_777777, 0o400000_000001),
        ],
    )
    def test_movn_negates_without_flags(self, exec1, value: int, result: int) -> None:
        m = exec1(ins("MOVN", 1, E), mem={E: value})
        assert m.memory[1] == result
        assert m.flags == 0  # no CRY0/CRY1 on the PDP-6 (KA10 would set carries)

    def test_movn_of_zero_sets_no_flags(self, exec1) -> None:
        # reference 1.4: MOVN 1,[0] -> no flags (the KA10 sets CRY0 and CRY1 here)
        m = exec1(ins("MOVN", 1, E), acs={1: 0o777}, mem={E: 0})
        assert m.memory[1] == 0
        assert m.flags == 0

    def test_movn_of_minus_2_35_sets_only_ov(self, exec1) -> None:
        m = exec1(ins("MOVN", 1, E), mem={E: SIGN})
        assert m.memory[1] == SIGN
        assert m.flags == OV

    def test_movni_negates_e(self, exec1) -> None:
        m = exec1(ins("MOVNI", 1, 3))
        assert m.memory[1] == neg(-3)
        assert m.flags == 0

    def test_movnm_stores_negated_ac(self, exec1) -> None:
        m = exec1(ins("MOVNM", 1, E), acs={1: 7}, mem={E: 0})
        assert m.memory[E] == neg(-7)
        assert m.memory[1] == 7

    def test_movnm_of_minus_2_35_sets_ov(self, exec1) -> None:
        m = exec1(ins("MOVNM", 1, E), acs={1: SIGN})
        assert m.memory[E] == SIGN
        assert m.flags == OV

    def test_movns_negates_memory_and_loads_ac(self, exec1) -> None:
        m = exec1(ins("MOVNS", 2, E), mem={E: 9})
        assert m.memory[E] == neg(-9)
        assert m.memory[2] == neg(-9)

    def test_movns_ac0_leaves_ac0(self, exec1) -> None:
        m = exec1(ins("MOVNS", 0, E), acs={0: 1}, mem={E: 9})
        assert m.memory[E] == neg(-9)
        assert m.memory[0] == 1


class TestMovm:
    @pytest.mark.parametrize(
        "value, result", [(5, 5), (neg(-5), 5), (0, 0), (neg(-1), 1), (0o377777_777777,) * 2]
    )
    def test_movm_magnitude_without_flags(self, exec1, value: int, result: int) -> None:
        m = exec1(ins("MOVM", 1, E), mem={E: value})
        assert m.memory[1] == result
        assert m.flags == 0

    def test_movm_of_minus_2_35_sets_only_ov(self, exec1) -> None:
        m = exec1(ins("MOVM", 1, E), mem={E: SIGN})
        assert m.memory[1] == SIGN
        assert m.flags == OV

    def test_movmi_is_immediate_and_positive(self, exec1) -> None:
        m = exec1(ins("MOVMI", 1, 0o777777))
        assert m.memory[1] == 0o777777

    def test_movmm_stores_magnitude(self, exec1) -> None:
        m = exec1(ins("MOVMM", 1, E), acs={1: neg(-12)})
        assert m.memory[E] == 12
        assert m.memory[1] == neg(-12)

    def test_movms_of_minus_2_35(self, exec1) -> None:
        m = exec1(ins("MOVMS", 3, E), mem={E: SIGN})
        assert m.memory[E] == SIGN
        assert m.memory[3] == SIGN
        assert m.flags == OV

    def test_flags_accumulate_not_replace(self, exec1) -> None:
        # Instructions only set flags; an OV left over from before stays set.
        m = exec1(ins("MOVM", 1, E), mem={E: 3}, flags=OV)
        assert m.flags == OV
