"""Floating point routed through the instruction modes (reference 1.3, 1.7.1, 5).

Only the routing is tested here (fp.py's arithmetic has its own tests): the L modes put
the low word in AC+1 without reading it, M stores to memory, B to both, FDV by zero
stores nothing and sets AR OV, and 145 is FADRL (no immediate floating mode).
"""

from __future__ import annotations

from pdp6 import isa

from .conftest import OV, ins

E = 0o200
ONE = 0o201400_000000
TWO = 0o202400_000000
FOUR = 0o203400_000000
THREE = 0o202600_000000
TWO_M28 = 0o145400_000000  # 2^-28 = 0.5 * 2^-27


def test_fad(exec1) -> None:
    m = exec1(ins("FAD", 1, E), acs={1: ONE, 2: 0o777}, mem={E: ONE})
    assert m.memory[1] == TWO
    assert m.memory[2] == 0o777
    assert m.memory[E] == ONE
    assert m.flags == 0


def test_fadl_puts_the_low_word_in_ac_plus_1(exec1) -> None:
    # reference 1.7.1 rule 6: FADL 1.0 + 2^-28 -> AC 201400000000, AC+1 100000000000;
    # AC+1 is not read (its old contents do not matter)
    m = exec1(ins("FADL", 1, E), acs={1: ONE, 2: 0o777777_777777}, mem={E: TWO_M28})
    assert (m.memory[1], m.memory[2]) == (ONE, 0o100000_000000)


def test_fadm_stores_to_memory_only(exec1) -> None:
    m = exec1(ins("FADM", 1, E), acs={1: ONE, 2: 0o777}, mem={E: ONE})
    assert m.memory[E] == TWO
    assert (m.memory[1], m.memory[2]) == (ONE, 0o777)


def test_fadb_stores_both(exec1) -> None:
    m = exec1(ins("FADB", 1, E), acs={1: ONE}, mem={E: ONE})
    assert (m.memory[1], m.memory[E]) == (TWO, TWO)


def test_opcode_145_is_fadrl_not_an_immediate(exec1) -> None:
    # reference 1.3: the x5 slot is rounded-long; it reads C(E).  As an immediate it
    # would add 0,,200 (a tiny unnormalized number) instead of 1.0.
    assert isa.OPCODES[0o145].name == "FADRL"
    assert isa.ALIASES["FADRI"] == isa.BY_NAME["FADRL"].word
    m = exec1(ins("FADRL", 1, E), acs={1: ONE}, mem={E: ONE})
    assert m.memory[1] == TWO  # reference 5: FADRL 1.0+1.0 -> 202400000000


def test_fsb_and_fmp_modes(exec1) -> None:
    assert exec1(ins("FSB", 1, E), acs={1: TWO}, mem={E: ONE}).memory[1] == ONE
    m = exec1(ins("FMPM", 1, E), acs={1: TWO}, mem={E: TWO})
    assert (m.memory[E], m.memory[1]) == (FOUR, TWO)
    m = exec1(ins("FSBB", 1, E), acs={1: FOUR}, mem={E: TWO})
    assert (m.memory[E], m.memory[1]) == (TWO, TWO)


class TestDivideByZero:
    def test_fdv(self, exec1) -> None:
        m = exec1(ins("FDV", 1, E), acs={1: ONE, 2: 0o777}, mem={E: 0})
        assert (m.memory[1], m.memory[2], m.memory[E]) == (ONE, 0o777, 0)
        assert m.flags == OV

    def test_fdvl(self, exec1) -> None:
        m = exec1(ins("FDVL", 1, E), acs={1: ONE, 2: 0o777}, mem={E: 0})
        assert (m.memory[1], m.memory[2]) == (ONE, 0o777)
        assert m.flags == OV

    def test_fdvm(self, exec1) -> None:
        m = exec1(ins("FDVM", 1, E), acs={1: ONE}, mem={E: 0})
        assert (m.memory[1], m.memory[E]) == (ONE, 0)
        assert m.flags == OV

    def test_fdvb(self, exec1) -> None:
        m = exec1(ins("FDVB", 1, E), acs={1: ONE}, mem={E: 0})
        assert (m.memory[1], m.memory[E]) == (ONE, 0)
        assert m.flags == OV


def test_fsc_does_not_normalize(exec1) -> None:
    # reference 5: FSC 1,3 on 1.0 -> 204400000000; FSC on 200000000001 by 3 stays
    # unnormalized: 203000000001
    assert exec1(ins("FSC", 1, 3), acs={1: ONE}).memory[1] == 0o204400_000000
    assert exec1(ins("FSC", 1, 3), acs={1: 0o200000_000001}).memory[1] == 0o203000_000001


def test_exponent_overflow_and_underflow_set_only_ar_ov(exec1) -> None:
    # reference 5: the exponent wraps and AR OV sets (no KA10 floating flags)
    m = exec1(ins("FMP", 1, E), acs={1: 0o377400_000000}, mem={E: 0o377400_000000})
    assert m.memory[1] == 0o175400_000000
    assert m.flags == OV
    m = exec1(ins("FMP", 1, E), acs={1: 0o000400_000000}, mem={E: 0o000400_000000})
    assert m.memory[1] == 0o177400_000000
    assert m.flags == OV


def test_fdvl_does_not_read_ac_plus_1(exec1) -> None:
    # reference 1.3: FDVL's dividend is C(AC) only; AC+1 just receives the MQ bits
    clean = exec1(ins("FDVL", 1, E), acs={1: ONE, 2: 0}, mem={E: THREE})
    dirty = exec1(ins("FDVL", 1, E), acs={1: ONE, 2: 0o777777_777777}, mem={E: THREE})
    assert (clean.memory[1], clean.memory[2]) == (dirty.memory[1], dirty.memory[2])
    assert clean.memory[1] == exec1(ins("FDV", 1, E), acs={1: ONE}, mem={E: THREE}).memory[1]
