"""Words: the field patterns, half-word pairs, @, (X), I/O instructions (reference 1.4)."""

import pytest

from .helpers import asm, errors, word, words, xwd

SYMS = "A=1\nB=2\nP=17\nFOO=100\nBAR=200\nPDL=10\nPDB=1000\n"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("MOVE A,FOO", xwd(0o200040, 0o100)),  # A B,C: AC 1 is 1<<23 = 000040,,0
        ("JRST BAR", xwd(0o254000, 0o200)),  # A B
        ("SETZ 3,", xwd(0o400140, 0)),  # A B,  : AC 3 = 000140,,0
        ("MOVE 17,", xwd(0o200740, 0)),
        ("-PDL,,PDB", xwd(0o777770, 0o1000)),  # A,,C
        ("5,,", xwd(5, 0)),  # A,,
        (",,5", 5),  # ,,C
        (",5", 5),  # ,B
        ("1,", 1),  # A,
        ("1,2", 3),  # A,B = A ++ TR(B)
        ("1 2 3", 6),  # A B C: the third and later fields go to the right half
        ("MOVE A,2 3", xwd(0o200040, 5)),
        ("MOVE A,-1", xwd(0o200040, 0o777777)),  # TR(C): no carry into the left half
        ("MOVE ,FOO", xwd(0o200000, 0o100)),  # blanks next to a comma are dropped
        ("MOVE   A ,  FOO", xwd(0o200040, 0o100)),
        ("MOVE A,@FOO", xwd(0o200060, 0o100)),  # @: bit 13 = 000020,,0
        ("@MOVE A,FOO", xwd(0o200060, 0o100)),  # ... anywhere in the word
        ("MOVE A,FOO@", xwd(0o200060, 0o100)),
        ("MOVE A,FOO(B)", xwd(0o200042, 0o100)),  # (X): index in bits 14-17
        ("MOVE A,@FOO(B)", xwd(0o200062, 0o100)),
        ("MOVE A,(B)", xwd(0o200042, 0)),
        ("MOVE A,-1(P)", xwd(0o200057, 0o777777)),
        ("MOVE A,FOO(B)+3", xwd(0o200042, 0o103)),  # invisible to its neighbours
        ("1(2)+3", xwd(2, 4)),  # the manual: 1(2)+3 = 4(2)
        ("1+(2)", xwd(2, 1)),  # after an operator: the halves are swapped
        ("1+<2>", 3),
        ("JRST 2,@BAR", xwd(0o254120, 0o200)),
        ("HALT .", xwd(0o254200, 0o100)),
        ("JRST 4,", xwd(0o254200, 0)),
    ],
)
def test_word_patterns(text: str, value: int) -> None:
    assert words(SYMS + text) == [value]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # I/O: the "AC" field is a device code added shifted left by 24.
        ("DATAI PTR,0", xwd(0o710440, 0)),  # checked on real MIDAS output
        ("CONO PTR,60", xwd(0o710600, 0o60)),
        ("CONO 1000", xwd(0o700200, 0o1000)),  # no device: APR, E = 1000
        ("CONO APR,1000", xwd(0o700200, 0o1000)),
        ("DATAO TTY,BUF", xwd(0o712140, 0o200)),  # DATAO = 700140,,0; TTY 120 -> 012000,,0
        ("CONSO TTY,10", xwd(0o712340, 0o10)),  # CONSO = 700340,,0
        ("CONSZ PI,200", xwd(0o700700, 0o200)),  # CONSZ 700300,,0; PI = 4 -> 000400,,0
        ("BLKO DIS,@BUF(A)", xwd(0o713121, 0o200)),  # BLKO 700100 + 013000 + @ + (1)
        ("DATAI 174,BUF", xwd(0o717440, 0o200)),  # an unnamed device code
    ],
)
def test_io_instructions(text: str, value: int) -> None:
    assert words("A=1\nBUF=200\n" + text) == [value]


def test_device_code_must_be_a_multiple_of_four() -> None:
    (msg,) = errors("DATAI 21,0")
    assert "multiple of 4" in msg


def test_comma_past_third_field() -> None:
    (msg,) = errors("MOVE 1,2,3")
    assert "3rd field" in msg
    assert msg.startswith("<source>:1:")


def test_statements_separated_by_question_mark() -> None:
    assert words("1 ? 2 ? 3") == [1, 2, 3]
    # '?' inside a comment does not end the line
    assert words("1 ; comment ? 5\n2") == [1, 2]


def test_line_ends_cr_lf_crlf() -> None:
    assert words("1\r2\n3\r\n4") == [1, 2, 3, 4]
    assert asm("FOO: 1\r\nBAR: 2\rBAZ: 3\nEND").symbols["BAZ"] == 0o102


def test_empty_lines_and_form_feeds() -> None:
    assert words("1\n\n\n\f\n2\n") == [1, 2]


def test_ac_field_of_alias_adds() -> None:
    # JRSTF is JRST 2, (254100,,0); a further AC field is added: 254100 + 000040 (AC 1)
    # + 000020 (@) + 000017 (index 17).
    assert word("JRSTF 1,@(17)") == xwd(0o254177, 0)
    assert word("JRSTF @(17)") == xwd(0o254137, 0)


def test_a_field_too_wide_is_cut_to_it_with_a_warning_in_the_new_dialect() -> None:
    """MIDAS cuts an AC field or device code to its field; a learner's MOVEI 18.,1 was
    AC 2 without a word.  The new dialect warns (the old one, as MIDAS, does not)."""
    from midas import assemble

    source = "GO: MOVEI 18.,1\n CONO 1234,0\n MOVE 17,GO\nEND GO\n"
    new, old = assemble(source, filename="f.mid"), assemble(source, filename="f.mid", old=True)
    assert new.words == old.words == {0o100: 0o201100000001, 0o101: 0o723600000000,
                                      0o102: 0o200740000100}  # fmt: skip
    assert [str(w) for w in new.warnings] == [
        "f.mid:1:16: warning: AC field 22 does not fit in 4 bits (taken as 2)",
        "f.mid:2:13: warning: device code 1234 does not fit in the device field (taken as 234)",
    ]
    assert old.warnings == []
