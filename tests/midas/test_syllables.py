"""Syllables: numbers, quoted characters, symbols (reference 1.2; MIDAS manual, Numbers).

Every expected value is worked out by hand in the comment next to it.
"""

import pytest

from midas import assemble

from .helpers import errors, word

M36 = 0o777777_777777


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("23", 0o23),  # octal by default
        ("23.", 0o27),  # trailing point: decimal twenty-three
        ("777777777777", M36),
        ("3^3", 0o3000),  # 3 * 8^3
        ("3.^3", 3000),  # 3 * 10^3 = 0o5670 (the manual's "5760" is a misprint)
        ("777^11", 0o777_000000000),  # 777 * 8^9: the opcode field
        ("1_3", 0o10),  # 1 * 2^3
        ("23_10.", 0o46000),  # 0o23 << 10
        ("3^3_4", 0o60000),  # 0o3000 << 4
        ("1.5_3", 0o14),  # 1.5 * 8 = 12, fixed point
        ("0", 0),
    ],
)
def test_numbers(text: str, value: int) -> None:
    assert word(text) == value


def test_radix_and_octal_quote() -> None:
    # RADIX 10: "10" is ten; "10'" forces octal (eight); "10." stays decimal.
    assert word("RADIX 10.\n10") == 10
    assert word("RADIX 10.\n10'") == 8
    assert word("RADIX 10.\n12.") == 12
    # The exponent of ^ is read in the current radix: 1^10 in radix 10 is 10^10
    # (> 36 bits?  no: 10^10 = 0o112402762000 fits).
    assert word("RADIX 10.\n1^10") == 10**10
    # DECIMAL and OCTAL are the old shorthands.
    assert word("DECIMAL\n100") == 100
    assert word("DECIMAL\nOCTAL\n100") == 0o100


def test_floating_point() -> None:
    # 1.0 = 0.5 * 2^1: exponent 1+128 = 0o201, fraction 0.5 = 0o400000000.
    assert word("1.0") == 0o201_400000000
    # 0.5: exponent 0+128 = 0o200.
    assert word("0.5") == 0o200_400000000
    assert word(".5") == 0o200_400000000
    # 3.5 = 0.875 * 2^2: exponent 0o202, fraction 0.875 * 2^27 = 0o700000000.
    assert word("3.5") == 0o202_700000000
    # -1.0: two's complement of the whole word 0o201400000000.
    assert word("-1.0") == 0o576_400000000
    # 1.0^6 = 10^6 = (10^6 / 2^20) * 2^20: exponent 20+128 = 148 = 0o224; fraction
    # 10^6 * 2^7 = 128000000 = 0o750220000.
    assert word("1.0^6") == 0o224_750220000


def test_quoted_characters() -> None:
    assert word("'A") == 0o41  # SIXBIT: ASCII - 40
    assert word('"A') == 0o101  # ASCII
    assert word('"+') == 0o53
    assert word('"a') == 0o141  # ASCII keeps the case
    assert word("'a") == 0o41  # SIXBIT has only upper case
    assert word("^C") == 3  # control: ASCII & 77
    assert word("^M") == 0o15
    assert word("^m") == 0o15
    assert word('" ') == 0o40
    # Squoze characters after the first belong to the constant (right justified);
    # "AB = 0o101 * 0o200 + 0o102 = 8320 + 66 = 8386 = 0o20302.
    assert word('"AB') == 0o20302
    # A quote continues the constant: 'A'A'A is SIXBIT/AAA/ right justified.
    assert word("'A'A'A") == 0o414141
    # A non-squoze character ends it.
    assert word('"A+1') == 0o102


def test_symbols_six_characters_and_case() -> None:
    # Only six characters count: THISLOCN is THISLO.
    assert word("THISLO=5\nTHISLOCN") == 5
    assert word("foo=7\nFOO") == 7
    assert word("FOO=7\nfoo") == 7
    # Symbols may hold digits, '.', '$', '%'; two points make a symbol, not a number.
    assert word("A.B=1\n$X=2\n%Y=3\n1.2.3=4\n35X=5\nA.B+$X+%Y+1.2.3+35X") == 15
    assert word("..=6\n..") == 6


def test_location_counter() -> None:
    assert word(".") == 0o100  # absolute assemblies start at 100
    assert word("LOC 1234\n.+1") == 0o1235


def test_instruction_names_come_from_the_isa_table() -> None:
    assert word("MOVE") == 0o200_000000000
    assert word("JFCL") == 0o255_000000000
    assert word("HALT") == 0o254200_000000  # JRST 4,
    assert word("JRSTF") == 0o254100_000000  # JRST 2,
    assert word("CLEAR") == 0o400_000000000  # SETZ
    assert word("SETZ") == 0o400_000000000
    assert word("FADRL") == 0o145_000000000  # PDP-6 name
    assert word("FADRI") == 0o145_000000000  # PDP-10 spelling of the same opcode
    assert word("PTR") == 0o104
    assert word("TTY") == 0o120


def test_digits_8_and_9_in_octal_count_as_midas_counts_them() -> None:
    # Real MIDAS computes value*radix + digit whatever the digit: 8 is 10, 18 is 20,
    # 69 is 71 (END 69 starts at 71).  The new dialect warns; --old is silent.
    for text, value in [("8", 0o10), ("18", 0o20), ("69", 0o71), ("99", 0o121)]:
        program = assemble(text + "\nEND\n")
        assert not program.errors and program.words[0o100] == value, text
        (warning,) = program.warnings
        assert "digit" in warning.message and "radix-8" in warning.message
        old = assemble(text + "\nEND\n", old=True)
        assert old.words[0o100] == value and not old.warnings and not old.errors
    program = assemble("LOC 71\nGO: JRST GO\nEND 69\n", old=True)
    assert program.start == 0o71
    assert word("10.") == 10 and word("RADIX 10.\n19") == 19  # other radixes unchanged


def test_number_errors() -> None:
    (msg,) = errors("1000000000000")
    assert "36 bits" in msg
