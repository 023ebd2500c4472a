"""Test instructions T{R,L,D,S}{N,Z,C,O}{ ,E,A,N} (600-677; reference 1.3).

Mask: R = 0,,E; L = E,,0; D = C(E); S = C(E) swapped.  The skip condition (never,
E: masked bits all 0, A: always, N: some masked bit 1) is tested on the AC *before*
the modification (N: none, Z: clear, C: complement, O: set masked bits).  A skip sets
PC CHANGE like any skip (reference 1.4); nothing else sets flags.
"""

from __future__ import annotations

import pytest

from pdp6 import isa

from .conftest import PCCH, ins

E = 0o200


def skipped(m) -> bool:
    return m.pc == 0o102


class TestOpcodeLayout:
    def test_some_well_known_codes(self) -> None:
        codes = {
            "TRN": 0o600, "TLN": 0o601, "TRNE": 0o602, "TLNE": 0o603, "TRNA": 0o604,
            "TDNE": 0o612, "TSNE": 0o613, "TRZ": 0o620, "TDZ": 0o630, "TRC": 0o640,
            "TDC": 0o650, "TRO": 0o660, "TLO": 0o661, "TDON": 0o676, "TSON": 0o677,
        }  # fmt: skip
        for name, code in codes.items():
            assert isa.BY_NAME[name].code == code


class TestSkips:
    @pytest.mark.parametrize(
        "name, ac, skip",
        [
            ("TRNE", 2, True),
            ("TRNE", 3, False),
            ("TRNN", 2, False),
            ("TRNN", 3, True),
            ("TRNA", 0, True),
            ("TRN", 1, False),
        ],
    )
    def test_right_immediate(self, exec1, name: str, ac: int, skip: bool) -> None:
        m = exec1(ins(name, 1, 1), acs={1: ac})
        assert skipped(m) is skip
        assert m.memory[1] == ac
        assert m.flags == (PCCH if skip else 0)

    def test_tlne_tests_left_half(self, exec1) -> None:
        assert skipped(exec1(ins("TLNE", 1, 1), acs={1: 0o000000_000001}))
        assert not skipped(exec1(ins("TLNE", 1, 1), acs={1: 0o000001_000000}))

    def test_tdne_uses_memory_mask(self, exec1) -> None:
        assert not skipped(exec1(ins("TDNE", 1, E), acs={1: 0o4_000000}, mem={E: 0o4_000000}))
        assert skipped(exec1(ins("TDNE", 1, E), acs={1: 0o4_000000}, mem={E: 0o4}))

    def test_tsne_uses_swapped_memory_mask(self, exec1) -> None:
        # C(E) = 1,,0 swapped is 0,,1: tests AC bit 35
        assert not skipped(exec1(ins("TSNE", 1, E), acs={1: 1}, mem={E: 0o1_000000}))
        assert skipped(exec1(ins("TSNE", 1, E), acs={1: 0o1_000000}, mem={E: 0o1_000000}))


class TestModify:
    def test_trz_clears_masked_bits(self, exec1) -> None:
        m = exec1(ins("TRZ", 1, 0o17), acs={1: 0o123})
        assert m.memory[1] == 0o120
        assert not skipped(m)

    def test_trze_skips_on_original_value(self, exec1) -> None:
        m = exec1(ins("TRZE", 1, 3), acs={1: 4})
        assert skipped(m)
        assert m.memory[1] == 4

    def test_trzn_skips_then_clears(self, exec1) -> None:
        m = exec1(ins("TRZN", 1, 3), acs={1: 7})
        assert skipped(m)
        assert m.memory[1] == 4

    def test_tlc_complements_left_half(self, exec1) -> None:
        m = exec1(ins("TLCE", 1, 0o400000), acs={1: 0})
        assert m.memory[1] == 0o400000_000000
        assert skipped(m)  # masked bit was 0 before the complement

    def test_tro_sets_bits(self, exec1) -> None:
        m = exec1(ins("TRO", 1, 5), acs={1: 0o12})
        assert m.memory[1] == 0o17

    def test_tron_tests_before_setting(self, exec1) -> None:
        m = exec1(ins("TRON", 1, 1), acs={1: 0})
        assert m.memory[1] == 1
        assert not skipped(m)

    def test_troe_skips_and_sets(self, exec1) -> None:
        m = exec1(ins("TROE", 1, 1), acs={1: 0})
        assert m.memory[1] == 1
        assert skipped(m)

    def test_tdz_with_memory_mask(self, exec1) -> None:
        m = exec1(ins("TDZA", 1, E), acs={1: 0o777777_777777}, mem={E: 0o707070_707070})
        assert m.memory[1] == 0o070707_070707
        assert skipped(m)
        assert m.memory[E] == 0o707070_707070

    def test_tso_with_swapped_mask(self, exec1) -> None:
        m = exec1(ins("TSO", 1, E), acs={1: 0}, mem={E: 0o000000_000007})
        assert m.memory[1] == 0o000007_000000

    def test_tdc_complements(self, exec1) -> None:
        m = exec1(ins("TDC", 1, E), acs={1: 0o000000_000003}, mem={E: 0o1_000001})
        assert m.memory[1] == 0o1_000002

    def test_no_flags_without_skip(self, exec1) -> None:
        m = exec1(ins("TLC", 1, 0o777777), acs={1: 0o777777_000000})
        assert m.memory[1] == 0
        assert m.flags == 0
