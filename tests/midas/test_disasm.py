"""The disassembler (pdp6/disasm.py): golden texts, and the round trip
word -> text -> midas -> the same word, for any word."""

from hypothesis import given, settings
from hypothesis import strategies as st

from pdp6.disasm import disassemble

from .helpers import word

SYMS = {"FOO": 0o100, "BUF": 0o200, "START": 0o1000, "A": 1}


def test_golden_texts() -> None:
    assert disassemble(0o200040_000100) == "MOVE 1,100"
    assert disassemble(0o200062_000103, SYMS) == "MOVE 1,@FOO+3(2)"
    assert disassemble(0o712140_000200, SYMS) == "DATAO TTY,BUF"
    assert disassemble(0o710440_000000) == "DATAI PTR,"
    assert disassemble(0o700200_001000) == "CONO APR,1000"
    assert disassemble(0o717440_000200) == "DATAI 174,200"  # no device of that code
    assert disassemble(0o254200_000000) == "HALT"
    assert disassemble(0o254100_000101, SYMS) == "JRSTF FOO+1"
    assert disassemble(0o255400_000123) == "JOV 123"
    assert disassemble(0o254600_000000) == "JRST 14,"
    assert disassemble(0o400140_000000) == "SETZ 3,"
    assert disassemble(0o200017_000000) == "MOVE (17)"
    assert disassemble(0o040040_000003) == "40^11 1,3"  # a UUO: no mnemonic
    assert disassemble(0) == "0"
    # Symbols only name addresses near them (and not AC numbers).
    assert disassemble(0o201040_000001, SYMS) == "MOVEI 1,1"
    assert disassemble(0o254000_000400, SYMS) == "JRST 400"
    assert disassemble(0o254000_001005, SYMS) == "JRST START+5"


def _defs() -> str:
    return "".join(f"{name}={value:o}\n" for name, value in SYMS.items())


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=(1 << 36) - 1))
def test_round_trip(value: int) -> None:
    assert word(disassemble(value)) == value


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=(1 << 36) - 1))
def test_round_trip_with_symbols(value: int) -> None:
    text = disassemble(value, SYMS)
    assert word(_defs() + text) == value, text


@settings(max_examples=100, deadline=None)
@given(
    st.integers(min_value=0o700, max_value=0o777),
    st.integers(0, 15),
    st.integers(0, 1),
    st.integers(0, 15),
    st.integers(0, (1 << 18) - 1),
)
def test_round_trip_io_and_fields(op: int, ac: int, i: int, x: int, y: int) -> None:
    value = (op << 27) | (ac << 23) | (i << 22) | (x << 18) | y
    assert word(disassemble(value)) == value
