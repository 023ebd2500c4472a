"""The machack command, run in-process with click's runner."""

from __future__ import annotations

from click.testing import CliRunner

from machack.cli import main

from .conftest import GAMES_DIR


def test_perft() -> None:
    result = CliRunner().invoke(main, ["perft", "startpos", "3"])
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == "8902"


def test_move() -> None:
    result = CliRunner().invoke(main, ["move", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "--depth", "2"])
    assert result.exit_code == 0
    assert result.output.strip() == "R-R8 MATE a1a8"


def test_replay_exit_status() -> None:
    result = CliRunner().invoke(main, ["replay", str(GAMES_DIR / "game3_first_win.pgn")])
    assert result.exit_code == 0
    assert "1 of 1 games replayed cleanly" in result.output


def test_play_reads_lines() -> None:
    result = CliRunner().invoke(main, ["play", "--depth", "1"], input="P-K4\nPG\n")
    assert result.exit_code == 0
    assert "1. ... " in result.output
    assert "PDP-6" in result.output and "wall" in result.output
    assert "  1 P-K4" in result.output


def test_bad_fen_is_an_error_not_a_traceback() -> None:
    result = CliRunner().invoke(main, ["perft", "not a fen", "1"])
    assert result.exit_code != 0
    assert "Traceback" not in result.output


def test_play_on_a_terminal() -> None:
    """On a terminal (a pseudo-terminal here) keys go to the program one at a time: it
    echoes them, the host adds times to the machine's move, Ctrl-C during a search types
    BELL (QUIT), and Ctrl-C at the prompt ends the game."""
    import os
    import pty
    import select
    import sys
    import time

    pid, fd = pty.fork()
    if pid == 0:  # the child: the command on the pseudo-terminal
        os.execv(sys.executable, [sys.executable, "-m", "machack", "play", "--depth", "2"])
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
        until(b"*PB\r\n_\r\n*")
        os.write(fd, b"p-k4\r")
        until(b"1. ... ")
        until(b"wall")
        os.write(fd, b"DEPTH 12\r")
        until(b"DEPTH 12\r\n_\r\n*")
        os.write(fd, b"GO\r")
        until(b"GO\r\n_\r\n")
        time.sleep(1.0)
        os.write(fd, b"\x03")
        until(b"QUIT\r\n*")
        os.write(fd, b"\x03")
        end = time.monotonic() + 30
        done, status = 0, 0
        while not done and time.monotonic() < end:
            done, status = os.waitpid(pid, os.WNOHANG)
            time.sleep(0.1)
        assert done, "Ctrl-C at the prompt did not end the game"
        assert os.waitstatus_to_exitcode(status) == 0
        assert b"*P-K4\r\n_\r\n" in out  # the program's echo, upper case
    finally:
        try:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
