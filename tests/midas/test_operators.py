"""Fields: operators and their precedence (reference 1.3).

Precedence, highest first: _  &  #  \\  * /  + -   (left to right within a level).
"""

import pytest

from .helpers import asm, word

M36 = 0o777777_777777


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("3+4", 7),
        ("7-10", M36),  # -1
        ("6*7", 0o52),  # 42
        ("-6*7", M36 - 41),  # -42
        ("52/7", 6),  # 42/7
        ("-7/2", M36 - 2),  # -3: integer division truncates toward zero
        ("7/-2", M36 - 2),
        ("12\\3", 0o13),  # inclusive or
        ("17&5", 5),
        ("17#5", 0o12),  # exclusive or
        ("#0", M36),  # unary # complements
        ("#1", M36 - 1),
        ("-1", M36),
        ("+5", 5),
        ("1_2+1", 5),  # _ first
        ("1+2*3", 7),
        ("2*3+1", 7),
        ("1\\2&3", 3),  # & before \: 1 | (2 & 3)
        ("6#3&5", 7),  # & before #: 6 ^ (3 & 5) = 6 ^ 1
        ("2*3\\4", 0o16),  # \ binds tighter than *: 2 * (3 | 4) = 14
        ("<-1>_-18.", M36),  # an arithmetic shift: the sign propagates
        ("-1_18.", 0o777777_000000),  # 0 - (1_18.)
        ("400000_-3", 0o40000),
    ],
)
def test_operators(text: str, value: int) -> None:
    assert word(text) == value


def test_manual_examples() -> None:
    # MIDAS manual, node Fields: with FOO = 53, 1+4&FOO+1 = 2 and 1+4&<FOO+1> = 5.
    assert word("FOO=53\n1+4&FOO+1") == 2
    assert word("FOO=53\n1+4&<FOO+1>") == 5


def test_unary_operators_have_their_binary_level() -> None:
    # A unary operator is the binary one with an implicit left operand (0 for -, all
    # ones for #), so what binds tighter than it is done first: -A&B is 0-(A&B).
    assert word("-3&1") == M36  # -(3&1) = -1
    assert word("-1_-18.") == 0  # -(1_-18.) = -(0)
    assert word("#3&1") == M36 - 1  # ~(3&1)


def test_shift_losing_bits_warns() -> None:
    program = asm("1_35.")
    assert program.words[0o100] == 0  # an arithmetic shift cannot reach the sign bit
    assert any("significant bits" in w.message for w in program.warnings)


def test_division_by_zero_is_an_error() -> None:
    program = asm_errors("1/0")
    assert any("division by zero" in e.message for e in program.errors)


def asm_errors(source: str):
    from midas import assemble

    return assemble(source + "\nEND\n")
