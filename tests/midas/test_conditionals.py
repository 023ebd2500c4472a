"""Conditional assembly (reference 1.11; MIDAS manual node Cond)."""

import pytest

from .helpers import asm, errors, words


@pytest.mark.parametrize(
    ("test", "value", "taken"),
    [
        ("IFE", "0", True), ("IFE", "1", False),
        ("IFN", "0", False), ("IFN", "-5", True),
        ("IFG", "1", True), ("IFG", "0", False), ("IFG", "-1", False),
        ("IFGE", "0", True), ("IFGE", "-1", False),
        ("IFL", "-1", True), ("IFL", "0", False),
        ("IFLE", "0", True), ("IFLE", "1", False),
    ],
)  # fmt: skip
def test_arithmetic_conditionals(test: str, value: str, taken: bool) -> None:
    assert words(f"{test} {value},7\n1") == ([7, 1] if taken else [1])


def test_one_line_body_runs_through_question_marks() -> None:
    assert words("IFN 0, 1 ? 2\n3") == [3]
    assert words("IFN 1, 1 ? 2\n3") == [1, 2, 3]


def test_bracketed_bodies() -> None:
    assert words("IFN 1,[1\n2]\n3") == [1, 2, 3]
    assert words("IFN 0,[1\n2]\n3") == [3]
    # The manual: IFN X,[BAR-]FOO assembles either FOO or BAR-FOO.
    assert words("BAR=10\nFOO=3\nIFN 1,[BAR-]FOO") == [5]
    assert words("BAR=10\nFOO=3\nIFN 0,[BAR-]FOO") == [3]
    # A blank before the bracket makes a one-line conditional of " [BAR-]FOO".
    assert words("BAR=10\nFOO=3\nIFN 0, [BAR-]FOO\n1") == [1]
    # Brackets are counted: literals inside a failing conditional are skipped whole.
    assert words("IFE 1,[MOVE 1,[2]\n]\n4") == [4]
    # ... and inside a successful one they are literals.
    p = asm("IFE 0,[MOVE 1,[2]\n]\nEND")
    assert p.words == {0o100: 0o200040_000101, 0o101: 2}


def test_braced_bodies() -> None:
    assert words("IFE 1,{ASCII/\n[/}\n5") == [5]  # only braces count
    assert words("IFE 0,{6}\n5") == [6, 5]


def test_nested_conditionals() -> None:
    assert words("IFN 1,[IFN 0,[1]\n2]\n3") == [2, 3]
    assert words("IFN 0,[IFN 1,[1]\n2]\n3") == [3]


def test_pass_conditionals() -> None:
    p = asm("IF1 [A=1]\nIF2 [A=2]\nA\nEND")
    assert p.words == {0o100: 2}
    assert p.symbols == {"A": 2}


def test_string_conditionals() -> None:
    assert words("IFSE FOO,foo,1\n2") == [1, 2]  # case is ignored
    assert words("IFSN FOO,BAR,1\n2") == [1, 2]
    assert words("IFSE [A,B][A,B][3]\n2") == [3, 2]
    # A comma after the bracketed argument begins the text, so [3] is not bracketed.
    assert words("IFSE [A][A],4\n2") == [4, 2]


def test_string_conditionals_in_macros() -> None:
    src = "DEFINE KIND X\nIFSE X,MOVE,1\nIFSN X,MOVE,2\nTERMIN\nKIND MOVE\nKIND ADD\n"
    assert words(src) == [1, 2]


def test_blank_and_squoze_conditionals() -> None:
    src = "DEFINE OPT X\nIFB X,10\nIFNB X,X\nTERMIN\nOPT\nOPT 5\nOPT ( )\n"
    assert words(src) == [0o10, 5, 0o10]
    src = "DEFINE FOO X\n1+< IFSQ X,[1] >\nTERMIN\nFOO BAR\nFOO BAR BLETCH\n"
    assert words("BAR=0\nBLETCH=0\n" + src) == [2, 1]  # the manual's example


def test_symbol_definition_conditionals() -> None:
    assert words("IFNDEF FOO,FOO=1\nFOO") == [1]
    assert words("FOO=5\nIFNDEF FOO,FOO=1\nFOO") == [5]
    assert words("IFDEF MOVE,1\nIFDEF IFDEF,2\nIFDEF NOPE,3") == [1, 2]
    # On pass 2 a symbol defined later is already known: use .ELSE or test on pass 1.
    p = asm("IFDEF LATER,1\n.ELSE 2\nLATER: 3\nEND")
    assert p.words == {0o100: 1, 0o101: 3} and p.errors == []
    assert asm("IF1 [IFNDEF LATER,X=1]\nLATER=0\nEND").symbols.get("X") == 1


def test_else_and_also() -> None:
    assert words("IFN 0,1\n.ELSE 2") == [2]
    assert words("IFN 1,1\n.ELSE 2") == [1]
    assert words("IFN 1,1\n.ALSO 3") == [1, 3]
    assert words("IFN 0,1\n.ALSO 3") == []
    # .SUCCESS is set again by the ] of a bracketed conditional.
    assert words("IFN 1,[IFE 1,[5]\n]\n.ELSE 6") == []


def test_null_never_assembles() -> None:
    assert words("NULL 1\nNULL [2\n3]\n4") == [4]


def test_missing_bracket_of_failing_conditional() -> None:
    assert "missing for the failing conditional at 1:7" in errors("IFE 1,[1\n2\n")[0]


def test_unterminated_successful_conditional_is_a_warning() -> None:
    p = asm("IFE 0,[1\nEND")
    assert p.words == {0o100: 1}
    assert "never closed" in p.warnings[0].message
