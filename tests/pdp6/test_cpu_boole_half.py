"""The sixteen boolean functions (400-477) and the half-word moves (500-577).

Reference 1.3 names them; the truth tables below are written out by hand.  With
A = ...1100 (AC) and M = ...1010 (memory) in the low four bits and zeros above, the low
four bits of the result are the function's truth table and the upper 32 bits are what
the function gives for A=0, M=0.
"""

from __future__ import annotations

import pytest

from .conftest import ins

E = 0o200
A = 0b1100
MEM = 0b1010
UPPER = 0o777777_777760  # bits 0-31

# name -> (low 4 bits of the result, true for A=0 and M=0)
BOOLE = {
    "SETZ": (0b0000, False),
    "AND": (0b1000, False),
    "ANDCA": (0b0010, False),  # ~A & M
    "SETM": (0b1010, False),
    "ANDCM": (0b0100, False),  # A & ~M
    "SETA": (0b1100, False),
    "XOR": (0b0110, False),
    "IOR": (0b1110, False),
    "ANDCB": (0b0001, True),  # ~A & ~M
    "EQV": (0b1001, True),
    "SETCA": (0b0011, True),  # ~A
    "ORCA": (0b1011, True),  # ~A | M
    "SETCM": (0b0101, True),  # ~M
    "ORCM": (0b1101, True),  # A | ~M
    "ORCB": (0b0111, True),  # ~A | ~M
    "SETO": (0b1111, True),
}


def expected(name: str) -> int:
    low, zero_zero = BOOLE[name]
    return (UPPER if zero_zero else 0) | low


class TestBoole:
    def test_opcode_order(self) -> None:
        from pdp6 import isa

        for f, name in enumerate(BOOLE):
            assert isa.BY_NAME[name].code == 0o400 + 4 * f

    @pytest.mark.parametrize("name", list(BOOLE))
    def test_basic_mode_to_ac(self, exec1, name: str) -> None:
        m = exec1(ins(name, 1, E), acs={1: A}, mem={E: MEM})
        assert m.memory[1] == expected(name)
        assert m.memory[E] == MEM
        assert m.flags == 0

    @pytest.mark.parametrize("name", list(BOOLE))
    def test_immediate_mode_uses_zero_comma_e(self, exec1, name: str) -> None:
        m = exec1(ins(name + "I", 1, MEM), acs={1: A}, mem={MEM: 0o777})
        assert m.memory[1] == expected(name)

    @pytest.mark.parametrize("name", list(BOOLE))
    def test_memory_mode(self, exec1, name: str) -> None:
        m = exec1(ins(name + "M", 1, E), acs={1: A}, mem={E: MEM})
        assert m.memory[E] == expected(name)
        assert m.memory[1] == A

    @pytest.mark.parametrize("name", list(BOOLE))
    def test_both_mode(self, exec1, name: str) -> None:
        m = exec1(ins(name + "B", 1, E), acs={1: A}, mem={E: MEM})
        assert m.memory[E] == expected(name)
        assert m.memory[1] == expected(name)

    def test_setzm_clears_memory(self, exec1) -> None:
        m = exec1(ins("SETZM", 0, E), mem={E: 0o777777_777777})
        assert m.memory[E] == 0

    def test_setom_sets_memory(self, exec1) -> None:
        m = exec1(ins("SETOM", 0, E))
        assert m.memory[E] == 0o777777_777777

    def test_setmi_is_movei(self, exec1) -> None:
        m = exec1(ins("SETMI", 1, 0o123456), acs={1: 0o777777_000000})
        assert m.memory[1] == 0o123456

    def test_full_width_xor(self, exec1) -> None:
        m = exec1(ins("XOR", 1, E), acs={1: 0o707070_123456}, mem={E: 0o777777_000000})
        assert m.memory[1] == 0o070707_123456


# Half-words.  AC = 111111,,222222; memory = 333333,,444444 (RH negative: bit 18 set).
AC_W = 0o111111_222222
M_W = 0o333333_444444

HALF = {
    "HLL": 0o333333_222222,
    "HRL": 0o444444_222222,
    "HLLZ": 0o333333_000000,
    "HRLZ": 0o444444_000000,
    "HLLO": 0o333333_777777,
    "HRLO": 0o444444_777777,
    "HLLE": 0o333333_000000,  # moved half 333333 is positive
    "HRLE": 0o444444_777777,  # moved half 444444 is negative
    "HRR": 0o111111_444444,
    "HLR": 0o111111_333333,
    "HRRZ": 0o000000_444444,
    "HLRZ": 0o000000_333333,
    "HRRO": 0o777777_444444,
    "HLRO": 0o777777_333333,
    "HRRE": 0o777777_444444,
    "HLRE": 0o000000_333333,
}


class TestHalfWord:
    def test_opcode_order(self) -> None:
        from pdp6 import isa

        for h, name in enumerate(HALF):
            assert isa.BY_NAME[name].code == 0o500 + 4 * h

    @pytest.mark.parametrize("name", list(HALF))
    def test_basic_mode(self, exec1, name: str) -> None:
        m = exec1(ins(name, 1, E), acs={1: AC_W}, mem={E: M_W})
        assert m.memory[1] == HALF[name]
        assert m.memory[E] == M_W
        assert m.flags == 0

    @pytest.mark.parametrize(
        "name, result",
        [
            ("HLLE", 0o500000_777777),
            ("HRLE", 0o600000_777777),
            ("HRRE", 0o777777_600000),
            ("HLRE", 0o777777_500000),
            ("HRREI", 0o777777_600000),
        ],
    )
    def test_sign_extension(self, exec1, name: str, result: int) -> None:
        y = 0o600000 if name.endswith("I") else E
        m = exec1(ins(name, 1, y), acs={1: 0}, mem={E: 0o500000_600000})
        assert m.memory[1] == result

    @pytest.mark.parametrize(
        "name, result",
        [
            ("HRRI", 0o111111_000005),
            ("HRLI", 0o000005_222222),
            ("HLLI", 0o000000_222222),  # left half of 0,,E is 0
            ("HRLZI", 0o000005_000000),
            ("HRROI", 0o777777_000005),
            ("HLRI", 0o111111_000000),
            ("HRLOI", 0o000005_777777),
        ],
    )
    def test_immediate_mode(self, exec1, name: str, result: int) -> None:
        m = exec1(ins(name, 1, 5), acs={1: AC_W})
        assert m.memory[1] == result

    @pytest.mark.parametrize(
        "name, result",
        [
            ("HRRM", 0o333333_222222),  # RH(AC) -> RH(mem), LH(mem) kept
            ("HLLM", 0o111111_444444),
            ("HRLM", 0o222222_444444),
            ("HLRM", 0o333333_111111),
            ("HLLZM", 0o111111_000000),
            ("HRROM", 0o777777_222222),
            ("HRLEM", 0o222222_000000),
        ],
    )
    def test_memory_mode(self, exec1, name: str, result: int) -> None:
        m = exec1(ins(name, 1, E), acs={1: AC_W}, mem={E: M_W})
        assert m.memory[E] == result
        assert m.memory[1] == AC_W

    @pytest.mark.parametrize(
        "name, result",
        [
            ("HRRZS", 0o000000_444444),
            ("HLLZS", 0o333333_000000),
            ("HRLS", 0o444444_444444),
            ("HLRS", 0o333333_333333),
            ("HRLES", 0o444444_777777),
            ("HLLOS", 0o333333_777777),
        ],
    )
    def test_self_mode_memory_and_ac(self, exec1, name: str, result: int) -> None:
        m = exec1(ins(name, 1, E), acs={1: AC_W}, mem={E: M_W})
        assert m.memory[E] == result
        assert m.memory[1] == result

    def test_self_mode_ac0_not_loaded(self, exec1) -> None:
        m = exec1(ins("HRRZS", 0, E), acs={0: 0o17}, mem={E: M_W})
        assert m.memory[E] == 0o000000_444444
        assert m.memory[0] == 0o17
