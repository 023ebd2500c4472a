"""DDT-style type-in (``pdp6.host.typein``): what the console and debugger read as words and
addresses.  Every word the disassembler writes reads back as the same word."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdp6.disasm import disassemble
from pdp6.host.typein import TypeinError, parse_address, parse_word

SYMBOLS = {"FOO": 0o200, "BAR": 0o300, "P": 0o17, "BUF": 0o400, "A.B": 0o1000}


@pytest.mark.parametrize(
    "text, word",
    [
        ("MOVE 1,@FOO+3(2)", 0o200062_000203),
        ("move 1,@foo+3(2)", 0o200062_000203),  # case does not matter
        ("DATAO TTY,BUF", 0o712140_000400),  # a device where the AC goes
        ("CONSO TTY,40", 0o712340_000040),
        ("1,,-2", 0o000001_777776),
        ("-1,,FOO", 0o777777_000200),
        (",,5", 0o5),  # MIDAS's ,,C: the left half left out is 0
        ("FOO,,", 0o000200_000000),
        ("JRST 4,", 0o254200_000000),
        ("HALT .", 0o254200_000100),  # . is the current location
        ("AOS (P)", 0o350017_000000),
        ("POPJ P,", 0o263740_000000),
        ("MOVE 1,-1(P)", 0o200057_777777),
        ("PUSHJ P,BAR", 0o260740_000300),
        ("JOV FOO", 0o255400_000200),  # an alias with its AC bits
        ("40^11 1,2", 0o040040_000002),  # how the disassembler writes a UUO
        ("1,FOO", 0o000040_000200),  # AC and address, no opcode
        ("@FOO", 0o000020_000200),
        ("-1", 0o777777_777777),  # a full-word value
        ("10.", 10),  # decimal
        ('MOVEI 1,"A', 0o201040_000101),  # a character's ASCII code
        ("FOO + 3", 0o203),
        ("A.B-1", 0o777),
    ],
)
def test_words(text: str, word: int) -> None:
    assert parse_word(text, SYMBOLS, dot=0o100) == word


@pytest.mark.parametrize(
    "text, message",
    [
        ("ZORK", "unknown symbol ZORK"),
        ("8", "8 is not octal (write 8. for decimal)"),
        ("MOVE 20,FOO", "accumulator 20 is not 0-17"),
        ("DATAO 121,FOO", "device code 121 is not a multiple of 4"),
        ("MOVE 1,FOO(20)", "index register 20 is not 0-17"),
        ("MOVE 1,FOO)", "unexpected ')'"),
        ("MOVE 1,(2", "expected ')'"),
        ("1000000000000", "does not fit in 36 bits"),
        ("FOO#", "cannot read '#'"),
        ('MOVEI 1,"', "cannot read '\"'"),
        ("", "a value is missing"),
        # nothing may follow the right half (1,,2,,3 used to be 1,,2)
        ("1,,2,,3", "unexpected ',,' after L,,R in '1,,2,,3'"),
        ("1,,2 3", "unexpected '3' after L,,R"),
        ("1,,FOO(2)", "unexpected '(' after L,,R"),
        ("9" * 5000 + ".", "999999999999... does not fit in 36 bits"),  # int() refuses it
        ("1^777777777777", "does not fit in 36 bits"),  # no 2^(3*8^12) on the host
    ],
)
def test_bad_words(text: str, message: str) -> None:
    with pytest.raises(TypeinError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_word(text, SYMBOLS)


def test_long_runs_of_signs_and_zeros() -> None:
    """A recursion per sign used to raise RecursionError (a traceback at the console)."""
    assert parse_word("-" * 3000 + "1") == 1
    assert parse_word("-" * 3001 + "1") == 0o777777_777777
    assert parse_word("0" * 5000 + "17") == 0o17
    assert parse_word("0^777777777777") == 0


def test_addresses() -> None:
    assert parse_address("FOO+1", SYMBOLS) == 0o201
    assert parse_address(".-1", SYMBOLS, dot=0o100) == 0o77
    with pytest.raises(TypeinError, match="address -1 is outside 0-777777"):
        parse_address("-1")
    with pytest.raises(TypeinError, match="unexpected 'BAR' in address"):
        parse_address("FOO BAR", SYMBOLS)


@settings(max_examples=800, deadline=None)
@given(st.integers(0, (1 << 36) - 1), st.booleans())
def test_every_disassembled_word_reads_back(word: int, with_symbols: bool) -> None:
    symbols = SYMBOLS if with_symbols else None
    assert parse_word(disassemble(word, symbols), symbols) == word
