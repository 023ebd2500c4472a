"""Bad input never breaks the assembler: any text gives a program and messages."""

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import midas.reader
from midas import assemble

from ..worker import Worker

ATOMS = [
    "MOVE", "A", "FOO", ":", "::", "=", "==", ",", ",,", " ", "\n", "?", ";x\n", "[", "]",
    "<", ">", "(", ")", "@", "'", '"', "^", "_", "+", "-", "*", "/", "&", "#", "\\", "!",
    "DEFINE M X,Y\n", "TERMIN", "M", "REPEAT 3,", "IRP Z,,[1,2]\n", "IFE 0,", "IFN 1,",
    "IF2", "IFSE", ".ELSE", "LOC 200", "BLOCK 2", "CONSTANTS", "VARIABLES", "END",
    "ASCIZ /", "/", "SQUOZE 0,", ".BYTE 7", ".BYTE", ".OP", ".RPCNT", ".", "1", "10.", "3.5",
    "EXPUNGE", ".STOP", ".GO", ".TAG", ".QUOTE /", "{", "}", "DATAI", "PTR", "FOO'",
    ".INSRT nothing", ".MLLIT=0\n", ".SCALAR", "IRPNC 1,1,1,",
]  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(ATOMS), max_size=40))
def test_random_statements_are_diagnosed_not_crashed(atoms: list[str]) -> None:
    program = assemble("".join(atoms))
    assert not any("internal" in e.message for e in program.errors)
    for error in program.errors:
        assert str(error).startswith("<source>:")


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text(text: str) -> None:
    program = assemble(text)
    assert not any("internal" in e.message for e in program.errors)


def test_latin1_characters() -> None:
    # 'ß'.upper() is two letters: characters are folded by ASCII rules only.
    program = assemble("^\xdf\n'\xdf\n\"\xdf\nEND\n")
    assert program.words[0o100] == 0o37  # 0xDF = 0o337, & 77
    assert not any("internal" in e.message for e in program.errors)


# --- huge numbers: a clear error or a value, in bounded time ---------------------------------
def _midas_dump(tmp_path: Path, source: str) -> subprocess.CompletedProcess[str]:
    """``midas SOURCE --dump`` in a subprocess, so that a hang fails the test."""
    src = tmp_path / "huge.mid"
    src.write_text(source + "\nEND\n")
    return subprocess.run(
        [sys.executable, "-m", "midas", str(src), "--dump"],
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("source", "message"),
    [
        # (each message quotes the number as written)
        ("X=1.5_777777777777", "1.5_777777777777 does not fit in 36 bits"),
        ("X=1.0^77777777", "floating-point number 1.0^77777777 is out of range"),
        ("X=1.0^-77777777", "floating-point number 1.0^-77777777 is out of range"),
        ("X=1.5^777777777777_-777777777777", "does not fit in 36 bits"),
        ("X=1^7777777777", "number 1^7777777777 does not fit in 36 bits"),
        ("X=3^20", "number 3^20 does not fit in 36 bits"),
        ("X=1^-1", "1^-1: an integer's exponent cannot be negative"),
        ("X=" + "7" * 5000 + ".", "number 777777777777...7777777. does not fit in 36 bits"),
        ("X=1.0^" + "7" * 5000, "floating-point number 1.0^77777777...77777777 is out of range"),
    ],
)
def test_huge_exponents_and_numbers_are_errors(tmp_path: Path, source: str, message: str) -> None:
    done = _midas_dump(tmp_path, source)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    first = done.stderr.splitlines()[0]
    assert first.startswith(f"{tmp_path / 'huge.mid'}:1:") and message in first, first
    assert "internal" not in done.stderr


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ("0^777777777777", 0),  # nothing to overflow
        ("0.0^777777777777", 0),
        ("1.0_-777777777777", 0),  # shifted out to the right
        ("1." + "0" * 5000 + "1_1", 2),  # 2.000...02, truncated; longer than Python's int()
        ("0" * 5000 + "1", 1),
    ],
)
def test_huge_exponents_that_have_a_value(tmp_path: Path, source: str, value: int) -> None:
    done = _midas_dump(tmp_path, source)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"000100/ {value:012o}\n"


# --- endless loops: stopped by a count of work, at the statement, naming the loop --------------
# A statement may take 500,000 steps (midas.reader.MAX_STEPS); each of these runs away and is
# stopped at that bound, through the real command, with the real bound (about a second).
RUNAWAYS = [
    pytest.param(
        "REPEAT 777777,[REPEAT 777777,[0\n]\n]",
        1,
        "REPEAT (pass 249,999 of 262,143), in REPEAT (pass 1 of 262,143)",
        id="nested-REPEAT",
    ),
    pytest.param(
        "DEFINE SPIN\n.TAG A\n0\n.GO A\nTERMIN\nFOO=1\nSPIN",
        7,
        "macro SPIN after 99,999 jumps of .GO A",
        id="TAG-GO",
    ),
    pytest.param(  # each call calls itself twice: 2^32 calls, never deeper than 32
        "DEFINE TWICE N\nIFG N,[TWICE N-1\nTWICE N-1\n]\nTERMIN\n\nTWICE 40",
        7,
        "macro TWICE (30 deep)",
        id="recursive-macro",
    ),
]


@pytest.mark.parametrize(("source", "line", "where"), RUNAWAYS)
def test_endless_loops_stop_at_the_statement_that_loops(
    tmp_path: Path, source: str, line: int, where: str
) -> None:
    done = _midas_dump(tmp_path, source)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        f"{tmp_path / 'huge.mid'}:{line}:1: endless loop? this statement took more than "
        f"500,000 steps (statements, expansions, loop passes, .GO jumps); stopped in {where}",
        "midas: 1 error; no output written",
    ]


def test_a_file_that_goes_back_to_its_own_tag_is_stopped_there(tmp_path: Path) -> None:
    (tmp_path / "loop.mid").write_text("A=0\n.TAG BACK\nA=A+1\n.GO BACK\n")
    main = tmp_path / "main.mid"
    program = assemble("TITLE MAIN\n.INSRT LOOP MID\nEND\n", str(main))
    [error] = program.errors
    assert str(error) == (
        f"{tmp_path / 'loop.mid'}:4:1: endless loop? this statement took more than 500,000 "
        f"steps (statements, expansions, loop passes, .GO jumps); stopped in file "
        f"{tmp_path / 'loop.mid'} after 83,333 jumps of .GO BACK"
    )


def test_a_file_inserted_by_a_loop_is_part_of_the_loops_statement(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(midas.reader, "MAX_STEPS", 5000)
    (tmp_path / "one.mid").write_text("A=A+1\n")
    program = assemble("A=0\nREPEAT 777777,[.INSRT ONE MID\n]\nEND\n", str(tmp_path / "m.mid"))
    [error] = program.errors
    assert (error.file, error.line) == (str(tmp_path / "m.mid"), 2)
    assert error.message.endswith("stopped in REPEAT (pass 834 of 262,143)")


def test_the_count_starts_again_at_each_statement_of_the_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(midas.reader, "MAX_STEPS", 5000)
    # 60 calls of a macro that makes 100 passes (200 steps) each: 12,000 steps in all,
    # but no statement of the file takes more than the bound.
    big = "DEFINE BIG\nREPEAT 100.,[A=A+1\n]\nTERMIN\nA=0\n"
    program = assemble(big + "BIG\n" * 60 + "END\n")
    assert program.errors == [] and program.symbols["A"] == 6000
    # The same work in one statement of the file runs away.
    program = assemble(big + "REPEAT 60.,[BIG\n]\nEND\n")
    [error] = program.errors
    assert (error.line, error.col) == (6, 1)
    assert error.message == (
        "endless loop? this statement took more than 5,000 steps (statements, expansions, "
        "loop passes, .GO jumps); stopped in REPEAT (pass 26 of 100), in macro BIG, "
        "in REPEAT (pass 25 of 60)"
    )


@pytest.mark.parametrize(
    "source",
    [
        "DEFINE SPIN\n.TAG A\n.GO A\nTERMIN\nSPIN",  # .GO back for ever
        "REPEAT 100,[REPEAT 100,[REPEAT 100,[X=1\n]]]",  # a million passes, no frame pushed
    ],
)
def test_a_smaller_bound_stops_sooner(monkeypatch: pytest.MonkeyPatch, source: str) -> None:
    monkeypatch.setattr(midas.reader, "MAX_STEPS", 5000)
    program = assemble(source + "\nEND\n")
    [error] = program.errors
    assert error.message.startswith("endless loop? this statement took more than 5,000 steps")


# --- fuzz (slow): mutated real sources, in a child process so that a hang fails ----------------
ROOT = Path(__file__).resolve().parents[2]
SOURCES = {
    str(path.relative_to(ROOT)): path.read_text(encoding="latin-1")
    for pattern in ("examples/*.mid", "tests/pdp6/programs/*.mid", "machack/src/*.mid")
    for path in sorted(ROOT.glob(pattern))
}
# What a mutation inserts: brackets left open, numbers far out of range, loops and macros
# left unfinished, operators in odd places.
TOKENS = [
    "[", "]", "<", ">", "(", ")", "{", "}", '"', "'", "^", "_", ",,", "@", ";", "?", "\n", "\t",
    "+", "-", "*", "/", "&", "#", "\\", "!", "=", "==", ":", "::", ".", "..",
    "777777777777", "1.0^77777777", "1.0^-77777777", "1.5_777777777777", "1_-777777777777",
    "1^777777777777", "9" * 60 + ".", "1." + "0" * 60 + "1", "0^777777777777",
    "DEFINE M A,B\n", "TERMIN\n", "M M\n", "REPEAT 777777,[", "REPEAT 100,", "IRP X,,[1,2]\n",
    "IRPC X,,", ".TAG A\n", ".GO A\n", ".STOP\n", "IFN 1,[", "IFE 0,", "IF2 ", ".ELSE ",
    "LOC 777777\n", "BLOCK 777777\n", ".BYTE 7\n", ".BYTE 77777\n", "ASCIZ /", "SIXBIT /",
    "SQUOZE 0,", ".OP FDV,1.0,0\n", "CONSTANTS\n", "VARIABLES\n", "FOO'", 'FOO"', "END\n",
    ".INSRT nothing\n", "EXPUNGE ", "RADIX 2\n", "RADIX 10.\n", "\x00", "\x7f", "\xdf",
]  # fmt: skip
FUZZ_BUDGET = 50_000  # MAX_STEPS in the child: an endless loop ends sooner


@st.composite
def mutated_sources(draw: st.DrawFn) -> str:
    """Up to 80 lines of a real source, cut, copied, and salted with TOKENS."""
    lines = SOURCES[draw(st.sampled_from(sorted(SOURCES)))].splitlines(keepends=True)
    start = draw(st.integers(0, len(lines) - 1))
    text = "".join(lines[start : start + draw(st.integers(1, 80))])
    for _ in range(draw(st.integers(0, 8))):
        i = draw(st.integers(0, len(text)))
        j = min(len(text), i + draw(st.integers(0, 40)))
        op = draw(st.sampled_from(["delete", "copy", "insert", "token"]))
        if op == "delete":
            text = text[:i] + text[j:]
        elif op == "copy":
            text = text[:j] + text[i:j] + text[j:]
        elif op == "insert":
            text = text[:i] + draw(st.text(max_size=8)) + text[i:]
        else:
            text = text[:i] + draw(st.sampled_from(TOKENS)) + text[i:]
    return text + draw(st.sampled_from(["", "\nEND\n"]))


def assembly_problems(source: str) -> list[str]:
    """Assemble (in the worker) and list what is wrong with the result: internal errors,
    messages that do not name the place, words or addresses that are not 36/18 bits."""
    midas.reader.MAX_STEPS = FUZZ_BUDGET
    program = assemble(source, filename="fuzz.mid")
    problems = [str(e) for e in program.errors if "internal" in e.message]
    problems += [str(e) for e in program.errors if not str(e).startswith("fuzz.mid:")]
    problems += [
        f"{a:o}/{w:o}"
        for a, w in program.words.items()
        if not (0 <= a <= 0o777777 and 0 <= w < 1 << 36)
    ]
    if program.start is not None and not 0 <= program.start <= 0o777777:
        problems.append(f"start {program.start:o}")
    return problems


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, derandomize=True, database=None)
@given(source=mutated_sources())
def test_fuzz_mutated_sources(midas_worker: Worker, source: str) -> None:
    assert midas_worker(source, timeout=20) == []


@pytest.mark.slow
@settings(max_examples=6, deadline=None, derandomize=True, database=None)
@given(source=mutated_sources())
def test_fuzz_mutated_sources_through_the_command(tmp_path_factory, source: str) -> None:
    src = tmp_path_factory.mktemp("fuzz") / "fuzz.mid"
    src.write_bytes(source.encode("utf-8"))  # midas reads bytes as Latin-1: any text goes
    done = subprocess.run(
        [sys.executable, "-m", "midas", str(src), "--dump"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done.stderr
    if done.returncode == 1:  # "FILE:LINE:COL: message" lines, then the count
        *messages, last = done.stderr.rstrip("\n").split("\n")
        assert last.startswith("midas: "), done.stderr
        assert [m for m in messages if not m.startswith(f"{src}:")] == []


@pytest.fixture(scope="module")
def midas_worker() -> Iterator[Worker]:
    with Worker(assembly_problems) as worker:
        yield worker
