"""Literals, CONSTANTS, variables (reference 1.7) and the old dialect (.MLLIT)."""

from midas import assemble

from .helpers import asm, errors, words, xwd

MOVE1 = 0o200040  # MOVE 1,


def test_literal_goes_to_the_end() -> None:
    p = asm("MOVE 1,[5]\nEND")
    assert p.words == {0o100: xwd(MOVE1, 0o101), 0o101: 5}


def test_identical_literals_are_shared() -> None:
    p = asm("MOVE 1,[5]\nMOVE 1,[6]\nMOVE 1,[5]\nEND")
    assert p.words == {
        0o100: xwd(MOVE1, 0o103),
        0o101: xwd(MOVE1, 0o104),
        0o102: xwd(MOVE1, 0o103),
        0o103: 5,
        0o104: 6,
    }


def test_literals_in_order_of_first_appearance() -> None:
    # HELLO puts [.uao,,'tty], [440700,,hello], [.logout ...] at 112, 113, 114.
    p = asm("MOVE 1,[3]\nMOVE 1,[1]\nMOVE 1,[2]\nEND")
    assert [p.words[a] for a in (0o103, 0o104, 0o105)] == [3, 1, 2]


def test_nested_literals() -> None:
    # The inner literal ends first, so it is placed first.
    p = asm("MOVE 1,[[7]]\nEND")
    assert p.words == {0o100: xwd(MOVE1, 0o102), 0o101: 7, 0o102: 0o101}


def test_multi_word_and_multi_line_literals() -> None:
    p = asm("MOVEI 1,[1 ? 2\n 3\n]\nEND")
    assert p.words == {0o100: xwd(0o201040, 0o101), 0o101: 1, 0o102: 2, 0o103: 3}


def test_dot_in_a_literal_is_the_referring_word() -> None:
    p = asm("LOC 200\nJRST [JRST .+1]\n0\nEND")
    assert p.words == {0o200: xwd(0o254000, 0o202), 0o201: 0, 0o202: xwd(0o254000, 0o201)}


def test_constants_places_pending_literals() -> None:
    p = asm("MOVE 1,[5]\nCONSTANTS\nFOO: MOVE 1,[5]\nEND")
    # The second [5] is in a new constants area: not shared with the first.
    assert p.symbols["FOO"] == 0o102
    assert p.words == {0o100: xwd(MOVE1, 0o101), 0o101: 5, 0o102: xwd(MOVE1, 0o103), 0o103: 5}


def test_literal_with_forward_reference_and_text() -> None:
    p = asm("MOVE 1,[LATER]\nLATER: MOVE 2,[ASCIZ /HI/]\nEND")
    # ASCIZ /HI/: H=110 I=111 then a zero byte: 1001000 1001001 0000000 0000000 0000000 0
    assert p.words[0o102] == 0o101
    assert p.words[0o103] == 0o442220_000000  # 100 100 010 010 010 000...
    assert p.words[0o101] == xwd(0o200100, 0o103)


def test_labels_not_allowed_in_literals() -> None:
    assert "inside a literal" in errors("MOVE 1,[FOO: 5]")[0]


def test_block_not_allowed_in_literals() -> None:
    assert "must begin a statement" in errors("MOVE 1,[BLOCK 3]")[0]


def test_missing_close_bracket() -> None:
    assert any("missing ']'" in m for m in errors("MOVE 1,[5\n"))


def test_old_dialect_closes_literals_at_line_end() -> None:
    source = "CAME 1,[JRST 2,@UUOH\nUUOH: 0\nEND\n"
    p = assemble(source, old=True)
    assert not p.errors
    # CAME 1, = 312040; the literal JRST 2,@UUOH = 254120,,101 is stored after UUOH.
    assert p.words == {0o100: xwd(0o312040, 0o102), 0o101: 0, 0o102: xwd(0o254120, 0o101)}
    # The same source in the modern dialect has an unclosed literal.
    assert assemble(source).errors


def test_mllit_switch_in_the_source() -> None:
    p = asm(".MLLIT=0\nMOVE 1,[5\nEND")
    assert p.words == {0o100: xwd(MOVE1, 0o101), 0o101: 5}
    # Negative .MLLIT: error mode, to find the places that rely on the old rule.
    assert "missing at the end of the line" in errors(".MLLIT=-1\nMOVE 1,[5\n")[0]


def test_variables() -> None:
    p = asm("MOVEM 1,FOO'\nMOVEM 1,BAR'\nMOVE 2,FOO\nEND")
    # Variables get storage at END, after the code (and before the literals).
    assert p.symbols == {"FOO": 0o103, "BAR": 0o104}
    assert p.words == {0o100: xwd(0o202040, 0o103), 0o101: xwd(0o202040, 0o104),
                       0o102: xwd(0o200100, 0o103)}  # fmt: skip


def test_variables_pseudo_op_and_literals_at_end() -> None:
    p = asm("MOVEM 1,FOO'\nVARIABLES\nX: MOVE 1,[3]\nEND")
    assert p.symbols == {"FOO": 0o101, "X": 0o102}
    assert p.words == {0o100: xwd(0o202040, 0o101), 0o102: xwd(MOVE1, 0o103), 0o103: 3}


def test_scalar_and_vector() -> None:
    p = asm(".SCALAR A\n.VECTOR B(3),C\n.SCALAR D\nVARIABLES\nE: 0\nEND")
    # .VECTOR's size defaults to the last size given: C is 3 long too.
    assert p.symbols == {"A": 0o100, "B": 0o101, "C": 0o104, "D": 0o107, "E": 0o110}


def test_quote_after_a_label_just_refers_to_it() -> None:
    p = asm("FOO: 0\nMOVE 1,FOO'\nEND")
    assert p.symbols == {"FOO": 0o100}
    assert p.words[0o101] == xwd(MOVE1, 0o100)


def test_literals_with_a_later_symbol_in_an_earlier_word_are_not_shared() -> None:
    # On pass 1 FOO and BAR are both undefined, so the two literals look alike; neither
    # may be shared (a multi-word literal is unknown if any of its words is).
    src = (
        "A:\tJRST [\tSETOM FOO\n\t\tJRST A]\n\tJRST [\tSETOM BAR\n\t\tJRST A]\n"
        "CONSTANTS\nFOO:\t0\nBAR:\t0\n"
    )
    assert words(src) == [
        0o254000_000102, 0o254000_000104,
        0o476000_000106, 0o254000_000100,
        0o476000_000107, 0o254000_000100,
        0, 0,
    ]  # fmt: skip


def test_literals_with_undefined_symbols_are_shared_on_pass_1_by_their_text() -> None:
    # Real MIDAS shares a literal whose symbols are not defined yet with an earlier one
    # of the same value referring to the same symbols: CONSTANTS reserves one word for
    # the two [FOO] here (not two), so AFTER is at 103.
    p = asm("MOVE 1,[FOO]\nMOVE 2,[FOO]\nCONSTANTS\nAFTER: 0\nFOO=5\n")
    assert p.symbols["AFTER"] == 0o103
    assert p.words == {0o100: xwd(MOVE1, 0o102), 0o101: xwd(0o200100, 0o102), 0o102: 5, 0o103: 0}
    # Other symbols, or the same symbols used differently, are other literals.
    p = asm("MOVE 1,[FOO+1]\nMOVE 2,[FOO-1]\nMOVE 3,[FOO+1]\nCONSTANTS\nAFTER: 0\nFOO=5\n")
    assert p.symbols["AFTER"] == 0o105
    assert [p.words[a] for a in (0o103, 0o104)] == [6, 4]


def test_constants_slack_is_written_as_zeros() -> None:
    # [FOO] and [BAR] are two literals on pass 1, one on pass 2 (both are 5): the area
    # keeps its pass-1 size and the word left over is a zero in the output.
    p = asm("MOVE 1,[FOO]\nMOVE 2,[BAR]\nCONSTANTS\nAFTER: 0\nFOO=5\nBAR=5\n")
    assert p.symbols["AFTER"] == 0o104
    assert p.words[0o102] == 5 and p.words[0o103] == 0
    assert [addr for addr, _w, _s in p.emitted] == [0o100, 0o101, 0o102, 0o103, 0o104]
