"""PGN: the program's PG printout turned into PGN, and ``machack play --pgn``."""

from __future__ import annotations

import io
from pathlib import Path

import chess
import chess.pgn
import pytest
from click.testing import CliRunner

from machack.cli import main
from machack.pgn import emt_and_eval, machack_score, pg_to_pgn, read_pg
from machack.session import Session

SCHOLAR = """*PG
  1 P-K4        P-K4
  2 Q-R5        N-QB3
  3 B-B4        N-B3
  4 QXBP MATE
_
"""


def test_pg_lines_are_read_move_by_move() -> None:
    moves = read_pg(" 30 ...         P-N3\n 31 R-R5        K-R1\n 32 R-R8 MATE\n_\n")
    assert [(m.number, m.colour, m.text) for m in moves] == [
        (30, chess.BLACK, "P-N3"),
        (31, chess.WHITE, "R-R5"),
        (31, chess.BLACK, "K-R1"),
        (32, chess.WHITE, "R-R8 MATE"),
    ]
    marked = read_pg("  1 P-K4 BOOK   P-QB4 BOOK\n  2 N-KB3 BOOK  P-Q3\n  3 P-Q4\n")
    assert [(m.text, m.book) for m in marked] == [("P-K4", True), ("P-QB4", True),
        ("N-KB3", True), ("P-Q3", False), ("P-Q4", False)]  # fmt: skip


def test_book_moves_get_a_book_comment_and_no_score(tmp_path: Path) -> None:
    out = tmp_path / "play.pgn"
    result = CliRunner().invoke(main, ["play", "--depth", "1", "--pgn", str(out)],
                                input="P-K4\nN-KB3\n")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "1. ... P-K4 BOOK" in result.output and "VALUE " not in result.output
    game = chess.pgn.read_game(out.open())
    assert game is not None and not game.errors
    replies = list(game.mainline())[1::2]
    assert [n.comment for n in replies] == ["book", "book"]
    assert all(n.eval() is None and n.emt() is None for n in replies)
    printout = "  1 P-K4        P-K4 BOOK\n  2 N-KB3       N-QB3 BOOK\n"
    text = pg_to_pgn(Session(), printout)
    assert "1. e4 e5 { book } 2. Nf3 Nc6 { book }" in text


def test_a_pg_printout_becomes_pgn_with_the_programs_result(session: Session) -> None:
    text = pg_to_pgn(session, SCHOLAR, white="A", black="B")
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None
    assert game.headers["Result"] == "1-0"  # the program announced CHECKMATE 1-0
    assert [m.uci() for m in game.mainline_moves()] == [
        "e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]  # fmt: skip
    assert game.end().board().is_checkmate()


def test_a_game_from_a_set_up_position(session: Session) -> None:
    fen = "6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 30"
    text = pg_to_pgn(session, " 30 ...         P-N3\n 31 R-R8CH      K-N2\n", start_fen=fen)
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and game.headers["FEN"] == fen
    assert game.end().board().fen().startswith("R7/5pkp/6p1/8/8/8/8/6K1 w")


def test_machack_pgn_command(tmp_path: Path) -> None:
    source = tmp_path / "pg.txt"
    source.write_text(SCHOLAR)
    out = tmp_path / "game.pgn"
    result = CliRunner().invoke(main, ["pgn", str(source), "--white", "W", "-o", str(out)])
    assert result.exit_code == 0, result.output
    game = chess.pgn.read_game(out.open())
    assert game is not None and game.headers["White"] == "W" and game.headers["Black"] == "?"
    piped = CliRunner().invoke(main, ["pgn", "--result", "*"], input=SCHOLAR)
    assert piped.exit_code == 0 and piped.output.rstrip().endswith("4. Qxf7# *")


def test_machack_pgn_checks_its_output_first_and_never_loses_the_pgn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from machack import pgn

    made = []
    monkeypatch.setattr(pgn, "pg_to_pgn", lambda *a: made.append(a) or "1. e4 *\n")
    target = tmp_path / "no" / "game.pgn"
    result = CliRunner().invoke(main, ["pgn", "-o", str(target)], input=SCHOLAR)
    assert result.output == f"Error: cannot write {target}: there is no directory {target.parent}\n"
    assert result.exit_code == 1 and not made  # refused before the moves were replayed
    if Path("/dev/full").exists():  # writable, but full when written: shown, not lost
        result = CliRunner().invoke(main, ["pgn", "-o", "/dev/full"], input=SCHOLAR)
        assert result.exit_code == 1 and made
        assert result.stderr == ("1. e4 *\nError: cannot write /dev/full: No space left on "
                                 "device (the game's PGN is above)\n")  # fmt: skip


def test_machack_pgn_bad_input_is_one_message(tmp_path: Path) -> None:
    cases = {
        "nothing here\n": "no moves found",
        "  1 P-K4        P-K5\n": "1... P-K5: the program says IMP",
        "  1 ...         P-K4\n": "1... P-K4: not that side's turn",
    }
    for text, message in cases.items():
        result = CliRunner().invoke(main, ["pgn"], input=text)
        assert result.exit_code == 1, text
        assert result.output.startswith(f"Error: {message}") and result.output.count("\n") == 1
    binary = tmp_path / "x.bin"
    binary.write_bytes(b"\xff\xfe\x00")
    result = CliRunner().invoke(main, ["pgn", str(binary)])
    assert result.exit_code == 1 and result.output.startswith("Error: cannot read")
    bad_fen = CliRunner().invoke(main, ["pgn", "--fen", "8/8/8 w"], input=SCHOLAR)
    assert bad_fen.output == (
        "Error: bad FEN '8/8/8 w': expected 8 rows in position part of fen: '8/8/8'\n"
    )
    assert bad_fen.exit_code == 1


def test_play_writes_the_game_with_emulated_times_and_values(tmp_path: Path) -> None:
    out = tmp_path / "play.pgn"
    result = CliRunner().invoke(main, ["play", "--depth", "1", "--pgn", str(out)],
                                input="BOOK OFF\nP-K4\nN-KB3\n")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "VALUE " in result.output  # the program types its value (PSVD 1)
    game = chess.pgn.read_game(out.open())
    assert game is not None and not game.errors
    assert game.headers["White"] == "Player at the teletype"
    assert game.headers["Black"] == "Mac Hack VI (emulated PDP-6)"
    nodes = list(game.mainline())
    assert len(nodes) == 4
    assert [n.comment for n in nodes[0::2]] == ["", ""]
    for node in nodes[1::2]:
        assert node.emt() is not None and node.eval() is not None and "value " in node.comment


def test_play_refuses_a_pgn_file_it_could_not_write_before_the_game(tmp_path: Path) -> None:
    """--pgn used to be tried only after the whole game, which was then lost."""
    target = tmp_path / "no" / "such" / "game.pgn"
    result = CliRunner().invoke(main, ["play", "--pgn", str(target)], input="P-K4\n")
    assert result.exit_code == 1
    assert result.output == f"Error: cannot write {target}: there is no directory {target.parent}\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_pgn_that_cannot_be_written_at_the_end_is_shown_instead() -> None:
    result = CliRunner().invoke(main, ["play", "--depth", "1", "--pgn", "/dev/full"],
                                input="BOOK OFF\nP-K4\n")  # fmt: skip
    assert result.exit_code == 1
    assert "1. e4 " in result.stderr  # the game, on standard error
    assert result.stderr.endswith(
        "Error: cannot write /dev/full: No space left on device (the game's PGN is above)\n"
    )


def _eval(value: int, mover: chess.Color) -> str:
    return emt_and_eval(score=machack_score(value, mover))


def test_clock_and_eval_texts() -> None:
    assert emt_and_eval(31) == "[%emt 0:00:31]" and emt_and_eval(3725.4) == "[%emt 1:02:05]"
    assert emt_and_eval(0.4) == "[%emt 0:00:00]" and emt_and_eval() == ""
    assert _eval(128, chess.BLACK) == "[%eval -1.00]" and _eval(23, chess.WHITE) == "[%eval 0.18]"
    assert _eval(28671, chess.WHITE) == "[%eval #1]" and _eval(28671, chess.BLACK) == "[%eval #-1]"
    # RULES D and 1967 count the root as ply 1: mate in one 28670, mated in one -28669
    assert _eval(28670, chess.BLACK) == "[%eval #-1]" and _eval(-28669, chess.BLACK) == "[%eval #1]"


def test_play_on_a_terminal_writes_the_pgn_at_the_end(tmp_path: Path) -> None:
    """Keys go to the program one at a time; at the end (Ctrl-C twice at the prompt, a
    line half typed) the host takes the game from the program and writes it."""
    import os
    import pty
    import select
    import sys
    import time

    path = tmp_path / "t.pgn"
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command on the pseudo-terminal
        argv = [sys.executable, "-m", "machack", "play", "--depth", "2", "--pgn", str(path)]
        os.execv(sys.executable, argv)
    out = b""

    def until(text: bytes, seconds: float = 60.0) -> None:
        nonlocal out
        end = time.monotonic() + seconds
        while text not in out and time.monotonic() < end:
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                try:
                    out += os.read(fd, 4096)
                except OSError:
                    return
        assert text in out, out.decode("ascii", "replace")

    try:
        until(b"Ctrl-D ends the game]\r\n*")
        os.write(fd, b"book off\r")  # a searched move, with its value
        until(b"BOOK OFF\r\n_\r\n*")
        os.write(fd, b"p-k4\r")
        until(b"1. ... ")
        until(b"SECONDARY")
        until(b"\r\n*")
        os.write(fd, b"P-Q")  # half a move, then Ctrl-C at the prompt, twice
        time.sleep(0.3)
        os.write(fd, b"\x03")
        until(b"[Ctrl-C again or Ctrl-D leaves the game]\r\n*P-Q")
        os.write(fd, b"\x03")
        until(b"[the game is in ", 30)
        done, status = 0, 0
        end = time.monotonic() + 30
        while not done and time.monotonic() < end:
            done, status = os.waitpid(pid, os.WNOHANG)
            time.sleep(0.1)
        assert done and os.waitstatus_to_exitcode(status) == 0
    finally:
        try:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
    game = chess.pgn.read_game(path.open())
    assert game is not None
    nodes = list(game.mainline())
    assert [n.move.uci() for n in nodes][:1] == ["e2e4"] and len(nodes) == 2
    assert nodes[1].emt() is not None and "value " in nodes[1].comment
