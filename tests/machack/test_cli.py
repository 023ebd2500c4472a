"""The machack command, run in-process with click's runner."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
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


def test_a_fen_argument_is_read_or_refused_saying_why() -> None:
    """The FEN of move, perft and play: the fields after the board may be left out, and
    a refusal says why (it used to say only that the program refused it)."""
    board_only = CliRunner().invoke(main, ["move", "6k1/5ppp/8/8/8/8/8/R5K1", "--depth", "2"])
    assert (board_only.exit_code, board_only.output) == (0, "R-R8 MATE a1a8\n")
    cases = {
        ("move", "garbage"): "bad FEN 'garbage': expected 8 rows in position part of fen: "
        "'garbage'",
        ("perft", "8/8/8/8/8/8/8/8 w - - 0 1", "1"): "the program refused the FEN "
        "'8/8/8/8/8/8/8/8 w - - 0 1': BAD FEN (no white king, no black king, empty)",
        ("play", "--fen", "8/8/8 w"): "bad FEN '8/8/8 w': expected 8 rows in position part "
        "of fen: '8/8/8'",
        ("move", "4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1"): "bad FEN '4k3/8/8/8/8/8/8/4K2R w KQkq "
        "- 0 1': bad castling rights",  # (python-chess would drop the rights it cannot have)
        ("play", "--fen", "k7/8/8/8/8/8/8/8 w - - 0 1"): "the program refused the FEN "
        "'k7/8/8/8/8/8/8/8 w - - 0 1': BAD FEN (no white king)",
    }
    for args, message in cases.items():
        result = CliRunner().invoke(main, list(args), input="")
        assert (result.exit_code, result.output) == (1, f"Error: {message}\n"), args


def test_replay_exit_status() -> None:
    result = CliRunner().invoke(main, ["replay", str(GAMES_DIR / "game3_first_win.pgn")])
    assert result.exit_code == 0
    assert "1 of 1 games replayed cleanly" in result.output


def test_replay_1967_needs_nothing_beside_the_package() -> None:
    result = CliRunner().invoke(main, ["replay", "--1967"])
    assert result.exit_code == 0, result.output
    assert "4 of 4 games replayed cleanly" in result.output


def test_replay_fails_a_record_that_stops_being_legal(tmp_path: Path) -> None:
    """A PGN move that is not legal used to end the game there quietly, and the game
    passed; now the game fails, naming the move, and so does a file with no game."""
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Event "x"]\n\n1. e4 e5 2. Ke3 Nc6 *\n')
    empty = tmp_path / "notes.txt"
    empty.write_text("not a game\n")
    result = CliRunner().invoke(main, ["replay", str(bad), str(empty)])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "bad: 2 plies FAILED; the record cannot be read from move 2 (White): illegal san: 'Ke3'",
        f"{empty}: 0 plies FAILED; no games in it (PGN, in a file named .pgn, or the "
        "descriptive format of machack/games/1967/descriptive.txt)",
        "0 of 2 games replayed cleanly",
    ]
    games = tmp_path / "games.pgn"  # a bad move in a variation, a bad FEN header, a good game
    games.write_text('[Event "a"]\n\n1. e4 e5 2. Nf3 (2. Ke3 Nc6) 2... Nc6 *\n\n'
                     '[FEN "garbage"]\n\n1. e4 *\n\n[Event "c"]\n\n1. d4 d5 *\n')  # fmt: skip
    result = CliRunner().invoke(main, ["replay", str(games)])
    assert result.output.splitlines() == [
        "games: 3 plies FAILED; the record cannot be read from move 2 (White): illegal san: 'Ke3'",
        "games#2: 0 plies FAILED; its FEN header cannot be read: expected 8 rows in position "
        "part of fen: 'garbage'",
        "games#3: 2 plies ok",
        "1 of 3 games replayed cleanly",
    ]
    bad.write_text('[White "Mac Hack VI"]\n\n1. e4 e5 2. Ke3 Nc6 *\n')
    result = CliRunner().invoke(main, ["replay", "--think", "--set", "SETD 1", str(bad)])
    assert result.exit_code == 1
    assert "PROBLEM: the record cannot be read from move 2 (White)" in result.output


def test_replay_without_games_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["replay"])
    assert result.exit_code == 2
    assert "--1967" in result.output
    result = CliRunner().invoke(main, ["replay", "--1967", "--choices"])
    assert result.exit_code == 2
    assert "go with --think" in result.output


def test_play_does_not_show_the_hosts_set_up_as_typed() -> None:
    result = CliRunner().invoke(main, ["play", "--depth", "1"], input="P-K4\nU\n")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "MAC HACK VI"
    assert lines[1].startswith("[machine plays black, you play White; depth 1")
    before_first_prompt = result.output.split("*")[0]
    assert "DEPTH" not in before_first_prompt and "PB" not in before_first_prompt
    assert lines[2] == "*P-K4"  # the prompt and the program's echo of the line typed
    assert lines[3] == "_"  # (standard input is not a terminal: nothing else shows it)
    assert "MACHINE STOPPED PLAYING: TYPE PB TO RESUME" in result.output


def test_typed_lines_end_at_cr_lf_or_cr_lf() -> None:
    """RETURN (CR) ends a line as LF and CR LF do, also when a CR LF comes in two reads;
    CRs used to reach the program inside one line (two moves at once)."""
    from types import SimpleNamespace

    from machack.cli import _typed_lines

    class Reads:  # the bytes under standard input, as a pipe delivers them
        def __init__(self, *parts: bytes) -> None:
            self.parts = list(parts)

        def read1(self, _n: int) -> bytes:
            return self.parts.pop(0) if self.parts else b""

    stdin = SimpleNamespace(buffer=Reads(b"P-K4\rN-KB3\r", b"\nB\n\r", b"C\r\nD"))
    assert list(_typed_lines(stdin)) == ["P-K4", "N-KB3", "B", "", "C", "D"]  # type: ignore[arg-type]


def test_play_answers_a_line_ended_by_cr_without_waiting_for_more() -> None:
    """A program driving machack play through a pipe may end a line with CR alone and
    wait for the answer: the line is read at once, not held until an LF."""
    import select
    import subprocess

    child = subprocess.Popen([sys.executable, "-m", "machack", "play", "--depth", "1"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)  # fmt: skip
    assert child.stdin is not None and child.stdout is not None
    try:
        child.stdin.write(b"P-K4\r")
        child.stdin.flush()
        out, end = b"", time.monotonic() + 120
        while b"1. ... " not in out and time.monotonic() < end:
            if select.select([child.stdout], [], [], 0.5)[0]:
                out += os.read(child.stdout.fileno(), 4096)
        assert b"*P-K4\n_\n1. ... " in out, out
    finally:
        child.kill()
        child.wait()


def test_play_with_its_output_piped_shows_a_typed_line_once() -> None:
    """Standard input a terminal, standard output a pipe: the terminal shows what is
    typed, so the program's echo is not printed again."""
    import pexpect

    child = pexpect.spawn("bash", ["-c", f"{sys.executable} -m machack play --depth 1 | cat"],
                          timeout=60, encoding="ascii")  # fmt: skip
    try:
        child.expect_exact("*")
        child.sendline("P-K4")
        child.expect(r"1\. \.\.\. \S+")
        assert child.before.split() == ["P-K4", "_"]
        child.sendeof()
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)


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
    """`machack play --depth 2` (and ``options``) on a pseudo-terminal: what it printed,
    and waiting."""

    def __init__(self, *options: str, cwd: Path | None = None) -> None:
        import pty

        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the command on the pseudo-terminal
            if cwd is not None:
                os.chdir(cwd)
            command = [sys.executable, "-m", "machack", "play", "--depth", "2", *options]
            os.execv(sys.executable, command)
        self.out = b""

    def until(self, text: bytes, seconds: float = 60.0, since: int = 0) -> None:
        """Wait for ``text`` in what was printed (from offset ``since``)."""
        import select

        end = time.monotonic() + seconds
        while text not in self.out[since:] and time.monotonic() < end:
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if ready:
                try:
                    self.out += os.read(self.fd, 4096)
                except OSError:  # the command ended: all it printed is in
                    break
        assert text in self.out[since:], self.out.decode("ascii", "replace")

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


def test_play_on_a_terminal(tmp_path: Path) -> None:
    """On a terminal (a pseudo-terminal here) keys go to the program one at a time: it
    echoes them, the host adds times to the machine's move, Ctrl-C during a search types
    BELL (QUIT); at the prompt the first Ctrl-C says how to leave and the second leaves,
    keeping the game in a PGN file (issue 32: a Ctrl-C just after a reply lost it)."""
    play = _PtyPlay(cwd=tmp_path)
    try:
        play.until(b"Ctrl-D ends the game]\r\n*")  # the host's PB and DEPTH are not shown
        os.write(play.fd, b"p-k4\r")
        play.until(b"1. ... ")
        play.until(b"wall")
        os.write(play.fd, b"BOOK OFF\r")
        play.until(b"BOOK OFF\r\n_\r\n*")
        os.write(play.fd, b"DEPTH 12\r")
        play.until(b"DEPTH 12\r\n_\r\n*")
        os.write(play.fd, b"GO\r")
        play.until(b"GO\r\n_\r\n")
        time.sleep(1.0)
        os.write(play.fd, b"\x03")
        play.until(b"QUIT\r\nMACHINE STOPPED PLAYING: TYPE PB TO RESUME\r\n*")
        os.write(play.fd, b"\x03")
        play.until(b"[Ctrl-C again or Ctrl-D leaves the game]\r\n*")
        assert play.exit_code(1.0) is None, "one Ctrl-C at the prompt ended the game"
        os.write(play.fd, b"\x03")
        assert play.exit_code() == 0, "a second Ctrl-C at the prompt did not end the game"
        assert b"*P-K4\r\n_\r\n" in play.out  # the program's echo, upper case
        assert b"PB" not in play.out.split(b"P-K4")[0]  # the host's set-up was not echoed
        (kept,) = tmp_path.glob("machack-*.pgn")
        assert "1. e4 e5 { book } *" in kept.read_text()
    finally:
        play.kill()


def test_sigterm_on_a_terminal_ends_the_game_and_keeps_it(tmp_path: Path) -> None:
    """SIGTERM while play waits at the prompt on a terminal: status 143, the game kept."""
    import signal

    play = _PtyPlay(cwd=tmp_path)
    try:
        play.until(b"Ctrl-D ends the game]\r\n*")
        os.write(play.fd, b"P-K4\r")
        play.until(b"1. ... ")
        play.until(b"\r\n*", since=play.out.index(b"1. ... "))
        os.kill(play.pid, signal.SIGTERM)
        assert play.exit_code() == 143
        play.until(b"machack: terminated by SIGTERM")
        (kept,) = tmp_path.glob("machack-*.pgn")
        assert "1. e4 e5 { book } *" in kept.read_text()
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


def test_play_on_a_terminal_pictures_the_340_after_every_move(tmp_path: Path) -> None:
    """On a terminal the program's stops for pictures (it has built a display list) are
    taken and the game goes on: the PNG shows the position after the machine's move."""
    from PIL import Image

    png, gif = tmp_path / "screen.png", tmp_path / "game.gif"
    play = _PtyPlay("--display-png", str(png), "--display-gif", str(gif))
    try:
        play.until(b"Ctrl-D ends the game]\r\n[the Type 340's screen goes to")
        play.until(b"*")
        os.write(play.fd, b"BOOK OFF\r")  # the machine thinks: no book move
        play.until(b"BOOK OFF\r\n_\r\n*")
        os.write(play.fd, b"P-K4\r")
        play.until(b"1. ... ")
        play.until(b"wall")
        play.until(b"\r\n*", since=play.out.index(b"wall"))  # the prompt after its move
        os.write(play.fd, b"\x04")
        assert play.exit_code() == 0, play.out.decode("ascii", "replace")
        assert b"Traceback" not in play.out
        with Image.open(png) as picture:
            assert picture.size == (768, 768)
        with Image.open(gif) as animation:
            assert animation.n_frames == 3  # the start, 1. P-K4 (thinking), 1. ... (its move)
    finally:
        play.kill()


@pytest.fixture
def xvfb(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A desktop of its own: an Xvfb server, its name in DISPLAY (skipped without Xvfb
    or PIL's X screen grab)."""
    import shutil
    import subprocess

    from PIL import features

    if shutil.which("Xvfb") is None or not features.check("xcb"):
        pytest.skip("no Xvfb, or PIL without XCB to grab its screen")
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1024x800x24", "-nolisten", "tcp"],
        pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    os.close(write)
    with os.fdopen(read) as answer:
        number = answer.readline().strip()  # written once the server accepts clients
    if not number:
        server.kill()
        server.wait()
        pytest.skip("Xvfb did not start")
    monkeypatch.setenv("DISPLAY", f":{number}")
    try:
        yield f":{number}"
    finally:
        server.kill()
        server.wait()


def longest_run(row: np.ndarray) -> int:
    """The longest run of True in a row of pixels."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], row.astype(np.int8), [0]))))
    return int((edges[1::2] - edges[::2]).max()) if len(edges) else 0


def test_play_display_opens_the_live_window_on_a_desktop(xvfb: str) -> None:
    """On a desktop (Xvfb) --display opens the Type 340's window, and the screen there
    shows what the program draws: after the machine's move, the board's nine lines
    across (FANCY 1), each some 430 pixels long in the 768-pixel window."""
    from PIL import ImageGrab

    play = _PtyPlay("--display")
    try:
        play.until(b"Ctrl-D ends the game]\r\n[the Type 340 display is in its own window]")
        play.until(b"*")
        os.write(play.fd, b"P-K4\r")
        play.until(b"wall")
        play.until(b"\r\n*", since=play.out.index(b"wall"))  # the prompt after its move
        lines = 0
        end = time.monotonic() + 30
        while lines < 9 and time.monotonic() < end:  # the window shows a frame a moment
            time.sleep(0.5)
            lit = np.asarray(ImageGrab.grab(xdisplay=xvfb).convert("L")) > 40
            for shift in (1, 2, 3):  # the 340's points, 3 pixels apart, joined up
                lit[:, shift:] |= lit[:, :-shift]
            rows = [y for y, row in enumerate(lit) if 400 < longest_run(row) < 480]
            lines = 1 + int((np.diff(rows) > 1).sum()) if rows else 0
        assert lines == 9, f"{lines} long lines across on the desktop"
        os.write(play.fd, b"\x04")
        assert play.exit_code() == 0, play.out.decode("ascii", "replace")
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
        child.expect_exact("\r\n*")  # the prompt: Ctrl-C while it still prints is a BELL
        child.sendcontrol("c")  # the first says how to leave, the second leaves
        child.expect_exact("Ctrl-C again", timeout=30)
        child.sendcontrol("c")
        child.expect(pexpect.EOF, timeout=30)
    finally:
        child.close(force=True)
    ready = list((tmp_path / "numba").rglob(jit.READY_MARK))
    assert ready, "the background build did not mark the cache ready"
    print(f"first prompt after {first_prompt:.1f} s on a cold cache")


@pytest.mark.slow
def test_bench_times_the_first_start_cold_and_warm(tmp_path: Path) -> None:
    """The benchmark's first-start figures: on empty caches the prompt and the first
    searched reply come before the compiled engine is built; on warm caches too."""
    from machack.bench import time_first_start

    cold = time_first_start(tmp_path, wait_for_engine=jit.ENABLED)
    warm = time_first_start(tmp_path, wait_for_engine=False)
    assert cold.prompt_s > 0 and warm.prompt_s > 0
    assert cold.reply_s > 0 and warm.reply_s > 0
    if jit.ENABLED:
        assert cold.engine_ready_s is not None and cold.engine_ready_s > cold.prompt_s


def test_a_program_that_does_not_assemble_is_one_message(monkeypatch) -> None:
    """Edited sources that MIDAS refuses: the command says so in one message, exit 1."""
    import machack.cli as cli
    from machack.build import BuildError

    def broken(**_: object) -> None:
        raise BuildError("MIDAS errors in machack.mid:\nsearch.mid:12:1: X multiply defined")

    monkeypatch.setattr(cli, "Session", broken)
    result = CliRunner().invoke(main, ["replay", "--think", "--1967"])
    assert result.exit_code == 1
    assert "the program did not start: MIDAS errors" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
