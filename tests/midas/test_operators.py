"""Fields: operators and their precedence (reference 1.3).

Precedence, highest first: unary - and #, then _  &  #  \\  * /  + -   (left to right
within a level).
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
        ("<-1>_-18.", 0o777777),  # a logical shift: zeros come in at the left
        ("-1_18.", 0o777777_000000),  # (-1)_18.
        ("400000_-3", 0o40000),
        ("1_36.", 0),  # shifted out of the word
        ("2_777777", 1),  # the count is read as LSH reads E: 777777 is -1 ...
        ("4_777776", 1),  # ... and 777776 is -2
    ],
)
def test_operators(text: str, value: int) -> None:
    assert word(text) == value


def test_manual_examples() -> None:
    # MIDAS manual, node Fields: with FOO = 53, 1+4&FOO+1 = 2 and 1+4&<FOO+1> = 5.
    assert word("FOO=53\n1+4&FOO+1") == 2
    assert word("FOO=53\n1+4&<FOO+1>") == 5


def test_shift_is_logical() -> None:
    # MIDAS does '_' with the LSH instruction (real MIDAS output; the INFO manual's
    # "arithmetical" is wrong): no sign propagation, the sign bit can be reached, and no
    # warning.
    for text, value in [
        ("<SETZ>_-12.", 0o000040_000000),
        ("1_35.", 0o400000_000000),
        ("437_27.", 0o437000_000000),
    ]:
        program = asm(text)
        assert program.words[0o100] == value, text
        assert not program.warnings, text


def test_unary_operators_bind_tighter_than_binary_ones() -> None:
    # Real MIDAS output: a unary - or # applies to the syllable after it first.
    assert word("-4&1777") == 0o1774
    assert word("#1&777") == 0o776
    assert word("-1_3") == 0o777777_777770
    assert word("-3&1") == 1  # (-3)&1
    assert word("--5") == 5
    assert word("-#0") == 1  # -(#0) = -(-1)
    assert word("FOO: -4&1777") == 0o1774  # after a label too


def test_division_by_zero_is_an_error() -> None:
    program = asm_errors("1/0")
    assert any("division by zero" in e.message for e in program.errors)


def asm_errors(source: str):
    from midas import assemble

    return assemble(source + "\nEND\n")
