"""Statements: labels, assignments, the location counter, END, symbol pseudo-ops,
.INSRT, and the errors of the two passes (reference 1.5, 1.6, 1.12, 1.14)."""

from pathlib import Path

from midas import assemble, assemble_file

from .helpers import asm, errors, words, xwd


def test_labels_and_forward_references() -> None:
    p = asm("START: JRST LATER\n0\nLATER: JRST START\nEND")
    assert p.symbols == {"START": 0o100, "LATER": 0o102}
    assert p.words == {0o100: xwd(0o254000, 0o102), 0o101: 0, 0o102: xwd(0o254000, 0o100)}


def test_several_labels_and_labels_after_question_mark() -> None:
    p = asm("A: B: 5 ? C: 6\nEND")
    assert p.symbols == {"A": 0o100, "B": 0o100, "C": 0o101}


def test_label_alone_on_its_line() -> None:
    p = asm("FOO:\n  7\nEND")
    assert p.symbols["FOO"] == 0o100
    assert p.words == {0o100: 7}


def test_assignments() -> None:
    p = asm("A=1\nB==2\nC=A+B\nD = 4\nA=5\nE=:6\nEND")
    assert p.symbols == {"A": 5, "B": 2, "C": 3, "D": 4, "E": 6}
    assert p.words == {}
    # == and :: half-kill: flag 4.9 in the symbol table
    flags = {e.name: e.flags for e in p.symbol_table}
    assert flags["B"] == 0o500000_000000  # half-killed + local
    assert flags["A"] == 0o100000_000000  # local


def test_double_colon_label_is_half_killed() -> None:
    p = asm("FOO:: 0\nEND")
    assert p.symbol_table[0].flags == 0o500000_000000


def test_assignment_with_a_forward_reference_is_done_on_pass_2() -> None:
    assert words("X=LATER\nX\nLATER: 0") == [0o101, 0]


def test_assignment_in_grouping_gives_its_value() -> None:
    p = asm("FOO=<BAR=3>\nEND")
    assert p.symbols == {"FOO": 3, "BAR": 3}


def test_loc_block_offset() -> None:
    p = asm("LOC 200\nA: 1\nBLOCK 5\nB: 2\nEND")
    assert p.symbols == {"A": 0o200, "B": 0o206}
    assert p.words == {0o200: 1, 0o206: 2}
    # OFFSET changes . and labels, not where words are stored.
    p = asm("LOC 200\nOFFSET 1000\nT: .\nU: 0\nOFFSET 0\nV: .\nEND")
    assert p.symbols == {"T": 0o1200, "U": 0o1201, "V": 0o202}
    assert p.words == {0o200: 0o1200, 0o201: 0, 0o202: 0o202}


def test_dot_assignment_subtracts_the_offset() -> None:
    p = asm("OFFSET 100\n.=500\nX: 0\nEND")
    assert p.symbols["X"] == 0o500
    assert p.words == {0o400: 0}  # real location = 500 - 100


def test_offset_minus_dot_index_table_idiom() -> None:
    p = asm("LOC 300\nTABLE: OFFSET -.\nFOO:: 11\nBAR:: 22\nOFFSET 0\nEND")
    assert p.symbols["FOO"] == 0 and p.symbols["BAR"] == 1
    assert p.words == {0o300: 0o11, 0o301: 0o22}


def test_end_start_address() -> None:
    p = asm("GO: JRST GO\nEND GO")
    assert p.start == 0o100
    assert p.start_word == xwd(0o254000, 0o100)  # a bare address means JRST to it
    p = asm("GO: 0\nEND JRST 4,GO")
    assert p.start_word == xwd(0o254200, 0o100) and p.start == 0o100
    assert asm("0\nEND").start is None
    # Text after END is ignored.
    assert asm("1\nEND\n2\nthis is not MIDAS").words == {0o100: 1}


def test_missing_end() -> None:
    program = assemble("1\n")
    assert any("no END" in e.message for e in program.errors)


def test_title_and_printx() -> None:
    p = asm("TITLE FOO BAR\nPRINTX /HELLO/\nIF2 PRINTC /TWO!/\nEND")
    assert p.title == "FOO BAR"
    # PRINTX types on each pass, as in MIDAS (hence the IF2 PRINTX idiom); PRINTX drops "!".
    assert p.printed == ["HELLO", "HELLO", "TWO!"]


def test_expunge_and_equals() -> None:
    assert words("EXPUNGE MOVE\nMOVE=5\nMOVE") == [5]
    assert words("EQUALS FETCH,MOVE\nFETCH 1,2") == [xwd(0o200040, 2)]
    assert words("EQUALS XX,XWD\nXX 1,2") == [xwd(1, 2)]  # pseudo-ops too
    assert "undefined symbol ADD" in errors("EXPUNGE ADD\nADD 1,2")[0]


def test_user_definitions_shadow_predefined_symbols() -> None:
    p = asm("ADD=7\nADD\nEND")
    assert p.words == {0o100: 7}
    assert p.symbols == {"ADD": 7}  # now written to the symbol table


def test_nosyms_and_kill() -> None:
    p = asm("NOSYMS\nA=1\nEND")
    assert p.nosyms
    p = asm("A=1\nB=2\n.KILL A\nEND")
    assert [e.name for e in p.symbol_table] == ["B"]
    assert p.symbols == {"A": 1, "B": 2}


def test_global_suffix() -> None:
    p = asm('P"=17\nQ=P\nEND')
    assert p.symbols == {"P": 0o17, "Q": 0o17}
    assert {e.name: e.flags for e in p.symbol_table}["P"] == 0o040000_000000


def test_undefined_symbols_are_reported_with_positions() -> None:
    msgs = errors("FOO: MOVE 1,BAR\n  JRST BAZ")
    assert msgs == ["<source>:1:13: undefined symbol BAR", "<source>:2:8: undefined symbol BAZ"]


def test_every_error_is_collected() -> None:
    msgs = errors("X\nY\n1,2,3,4\nBLOCK -1\nZ")
    assert len(msgs) == 5


def test_multiply_defined_label() -> None:
    (msg,) = errors("FOO: 0\nFOO: 0")
    assert msg.startswith("<source>:2:1:") and "FOO multiply defined" in msg
    # The same value again is fine (every label is seen on both passes).
    assert asm("FOO: 0\n.=.-1\nFOO: 0\nEND").symbols["FOO"] == 0o100
    # A label cannot be reassigned, and =: cannot be either.
    assert "multiply defined" in errors("FOO: 0\nFOO=5")[0]
    assert "multiply defined" in errors("FOO=:1\nFOO=2")[0]


def test_phase_error() -> None:
    msgs = errors("IF2 [0]\nFOO: 0\nBAR: 0")
    assert len(msgs) == 1
    assert "phase error: FOO is 101 on pass 2 but was 100 on pass 1" in msgs[0]
    assert "2 later places moved too" in msgs[0]  # BAR and the constants area


def test_forward_reference_in_block_is_an_error() -> None:
    msgs = errors("BLOCK N\nN=5")
    assert any("not defined yet" in m for m in msgs)


def test_forward_reference_in_dot_assignment_is_an_error() -> None:
    assert any(".= needs a value" in m for m in errors(".=LATER\nLATER: 0"))


def test_forward_reference_in_repeat_count_is_an_error() -> None:
    assert any("REPEAT count not defined yet" in m for m in errors("REPEAT N,[0\n]\nN=2"))


def test_negative_block() -> None:
    assert "BLOCK size negative" in errors("BLOCK -1")[0]


def test_insrt(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "defs.mid").write_text("A=1\n.INSRT more.mid\n")
    (tmp_path / "sub" / "more.mid").write_text("B=2\nLABEL: 3\n")
    (tmp_path / "main.mid").write_text(".INSRT sub/defs.mid ; the definitions\nA+B\nEND\n")
    p = assemble_file(tmp_path / "main.mid")
    assert not p.errors
    assert p.words == {0o100: 3, 0o101: 3}
    assert p.symbols["LABEL"] == 0o100
    assert str(p.line_map[0o100]) == f"{tmp_path / 'sub' / 'more.mid'}:2"
    assert str(p.line_map[0o101]) == f"{tmp_path / 'main.mid'}:2"


def test_insrt_its_file_names(tmp_path: Path) -> None:
    (tmp_path / "cheg.mid").write_text("X=5\n")
    (tmp_path / "ms").mkdir()
    (tmp_path / "ms" / "chex").write_text("Y=6\n")
    (tmp_path / "main.mid").write_text(".INSRT DSK:AI;CHEG >\n.INSRT MS;CHEX\nX+Y\nEND\n")
    p = assemble_file(tmp_path / "main.mid")
    assert not p.errors, p.errors
    assert p.words == {0o100: 0o13}


def test_insrt_missing_file(tmp_path: Path) -> None:
    (tmp_path / "main.mid").write_text("1\n.INSRT nothere.mid\nEND\n")
    p = assemble_file(tmp_path / "main.mid")
    assert len(p.errors) == 1
    assert p.errors[0].line == 2 and "nothere.mid: file not found" in p.errors[0].message


def test_stray_characters() -> None:
    (msg,) = errors("1 =2")
    assert "unexpected" in msg
    assert "unmatched ']'" in errors("1]")[0]


def test_label_followed_by_a_unary_operator() -> None:
    # "PTR: -6,,LIST-1": after a label the word may begin with a unary + - or #.
    assert words("LIST: 0\nPTR: -6,,LIST-1\nA: -1\nB: +3\nC: #0") == [
        0,
        xwd(0o777772, 0o77),
        0o777777_777777,
        3,
        0o777777_777777,
    ]
