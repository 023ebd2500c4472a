"""The machack command, run in-process with click's runner."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from machack.cli import main
from pdp6 import jit

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


def test_replay_1967_needs_nothing_beside_the_package() -> None:
    result = CliRunner().invoke(main, ["replay", "--1967"])
    assert result.exit_code == 0, result.output
    assert "4 of 4 games replayed cleanly" in result.output


def test_replay_without_games_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["replay"])
    assert result.exit_code == 2
    assert "--1967" in result.output


def test_play_does_not_show_the_hosts_set_up_as_typed() -> None:
    result = CliRunner().invoke(main, ["play", "--depth", "1"], input="P-K4\nU\n")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "MAC HACK VI"
    assert lines[1].startswith("[machine plays black, you play White; depth 1")
    before_first_prompt = result.output.split("*")[0]
    assert "DEPTH" not in before_first_prompt and "PB" not in before_first_prompt
    assert lines[2].startswith("*_")  # the prompt and P-K4's `_`: nothing in between
    assert "MACHINE STOPPED PLAYING: TYPE PB TO RESUME" in result.output


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


class _PtyPlay:
    """`machack play --depth 2` on a pseudo-terminal: what it printed, and waiting."""

    def __init__(self) -> None:
        import pty

        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the command on the pseudo-terminal
            os.execv(sys.executable, [sys.executable, "-m", "machack", "play", "--depth", "2"])
        self.out = b""

    def until(self, text: bytes, seconds: float = 60.0) -> None:
        import select

        end = time.monotonic() + seconds
        while text not in self.out and time.monotonic() < end:
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if ready:
                try:
                    self.out += os.read(self.fd, 4096)
                except OSError:
                    return
        assert text in self.out, self.out.decode("ascii", "replace")

    def exit_code(self, seconds: float = 30.0) -> int | None:
        """The exit code once the command has ended; None if it still runs."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.pid = 0
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.1)
        return None

    def kill(self) -> None:
        if self.pid:
            try:
                os.kill(self.pid, 9)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass


def test_play_on_a_terminal() -> None:
    """On a terminal (a pseudo-terminal here) keys go to the program one at a time: it
    echoes them, the host adds times to the machine's move, Ctrl-C during a search types
    BELL (QUIT), and Ctrl-C at the prompt ends the game."""
    play = _PtyPlay()
    try:
        play.until(b"Ctrl-D ends the game]\r\n*")  # the host's PB and DEPTH are not shown
        os.write(play.fd, b"p-k4\r")
        play.until(b"1. ... ")
        play.until(b"wall")
        os.write(play.fd, b"DEPTH 12\r")
        play.until(b"DEPTH 12\r\n_\r\n*")
        os.write(play.fd, b"GO\r")
        play.until(b"GO\r\n_\r\n")
        time.sleep(1.0)
        os.write(play.fd, b"\x03")
        play.until(b"QUIT\r\nMACHINE STOPPED PLAYING: TYPE PB TO RESUME\r\n*")
        os.write(play.fd, b"\x03")
        assert play.exit_code() == 0, "Ctrl-C at the prompt did not end the game"
        assert b"*P-K4\r\n_\r\n" in play.out  # the program's echo, upper case
        assert b"PB" not in play.out.split(b"P-K4")[0]  # the host's set-up was not echoed
    finally:
        play.kill()


def test_ctrl_d_on_a_terminal_ends_the_game() -> None:
    """Ctrl-D is not typed to the program: it ends the game, as the banner says, even
    in the middle of a line."""
    play = _PtyPlay()
    try:
        play.until(b"Ctrl-D ends the game]\r\n*")
        os.write(play.fd, b"P-K\x04")
        assert play.exit_code() == 0, "Ctrl-D did not end the game"
        assert b"^D" not in play.out
    finally:
        play.kill()


@pytest.mark.skipif(not jit.ENABLED, reason="numba not installed or PDP6_NOJIT set")
@pytest.mark.slow
def test_machack_play_on_a_cold_cache_switches_to_the_compiled_engine(tmp_path: Path) -> None:
    """The real thing: an empty numba cache, `machack play` on a terminal.  The first
    prompt comes while the compiled engine is still being built; the game goes on on the
    python engine; when the build is done the session says so and moves to it."""
    import pexpect

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"), PYTHONUNBUFFERED="1")
    child = pexpect.spawn(sys.executable, ["-m", "machack", "play", "--depth", "2"],
                          env=env, timeout=60, encoding="ascii")  # fmt: skip
    try:
        started = time.monotonic()
        child.expect_exact("Ctrl-D ends the game]")
        child.expect_exact("*")
        first_prompt = time.monotonic() - started
        assert not list((tmp_path / "numba").rglob(jit.READY_MARK))  # still building
        child.send("P-K4\r")
        child.expect(r"1\. \.\.\. \S+")
        assert "compiled engine is ready" not in child.before  # the build is still going on
        deadline = time.monotonic() + 600
        while not list((tmp_path / "numba").rglob(jit.READY_MARK)):
            assert time.monotonic() < deadline, "the background build took over 600 s"
            time.sleep(1)
        time.sleep(2)  # the session looks every POLL_S; its note waits for the line end
        child.send("N-KB3\r")
        child.expect_exact("[the compiled engine is ready after", timeout=60)
        child.expect(r"2\. \.\.\. \S+", timeout=60)
        child.sendcontrol("c")
        child.expect(pexpect.EOF, timeout=30)
    finally:
        child.close(force=True)
    ready = list((tmp_path / "numba").rglob(jit.READY_MARK))
    assert ready, "the background build did not mark the cache ready"
    print(f"first prompt after {first_prompt:.1f} s on a cold cache")


@pytest.mark.slow
def test_bench_times_the_first_start_cold_and_warm(tmp_path: Path) -> None:
    """The benchmark's first-start figures: on empty caches the prompt comes before the
    compiled engine is built; on warm caches it comes too."""
    from machack.bench import time_first_start

    cold = time_first_start(tmp_path, wait_for_engine=jit.ENABLED)
    warm = time_first_start(tmp_path, wait_for_engine=False)
    assert cold.prompt_s > 0 and warm.prompt_s > 0
    if jit.ENABLED:
        assert cold.engine_ready_s is not None and cold.engine_ready_s > cold.prompt_s
