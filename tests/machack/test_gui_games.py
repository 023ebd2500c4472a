"""``machack uci`` in real chess GUIs, each playing a whole game against Stockfish under
Xvfb: XBoard (Debian's, with polyglot between it and the UCI engine) through its own
match options, and PyChess through its own New Game code (tests/gui/pychess_game.py:
PyChess has no match option).  The PGN each GUI writes is refereed by python-chess, and a
screenshot of each is taken from the virtual screen while the game goes on.

Slow (some minutes a game): ``pytest -m slow``.  Without the GUIs (Debian: xvfb xboard
polyglot pychess stockfish imagemagick) they are skipped; under CI they must run.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import chess.pgn
import pytest

from tests.machack.test_uci import machack_command

pytestmark = pytest.mark.slow

GAMES = "/usr/games"
SCREEN = "1280x900x24"
GAME_TIMEOUT_S = 900
SHOT_AFTER_S = 40  # the screenshot: some moves into the game ...
DRAWN_BYTES = 10_000  # ... once the screen holds a picture (a blank root is some 300 bytes)


def tool(name: str) -> str | None:
    return shutil.which(name) or shutil.which(name, path=GAMES)


def need(*names: str) -> dict[str, str]:
    """The tools by name; the test is skipped without one (fails under CI)."""
    found = {name: tool(name) for name in names}
    lacking = [name for name, path in found.items() if path is None]
    if lacking:
        why = f"not installed here: {', '.join(lacking)} (Debian packages)"
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the GUI games: {why}")
        pytest.skip(why)
    return {name: str(path) for name, path in found.items()}


@contextlib.contextmanager
def xvfb() -> Iterator[str]:
    """A virtual X screen of its own (Xvfb picks a free display and says which)."""
    server = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", SCREEN,
                               "-nolisten", "tcp"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        assert server.stdout is not None
        display = ":" + server.stdout.readline().decode().strip()
        yield display
    finally:
        server.terminate()
        server.wait(timeout=30)


def play(command: list[str], display: str, shot: Path, env: dict[str, str]) -> None:
    """Run the GUI's game to its end; take the screenshot on the way."""
    env = {**os.environ, **env, "DISPLAY": display}
    env["PATH"] = f"{Path(sys.executable).parent}:{env.get('PATH', '')}:{GAMES}"
    gui = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    deadline = time.monotonic() + GAME_TIMEOUT_S
    try:
        time.sleep(SHOT_AFTER_S)
        while True:  # a loaded machine may take longer to draw the GUI: look again
            subprocess.run(["import", "-window", "root", str(shot)], env=env, check=True)
            if shot.stat().st_size > DRAWN_BYTES or gui.poll() is not None:
                break
            if time.monotonic() > deadline:
                break
            time.sleep(5)
        gui.wait(timeout=max(1.0, deadline - time.monotonic()))
    finally:
        if gui.poll() is None:
            os.killpg(gui.pid, 15)
            gui.wait(timeout=30)


def refereed(path: Path, machack_plays: str) -> chess.pgn.Game:
    """The one game of the PGN file: every move legal, a result, Mac Hack on a side."""
    with path.open() as handle:
        game = chess.pgn.read_game(handle)
    assert game is not None and not game.errors, path.read_text()
    board = game.board()
    for move in game.mainline_moves():
        assert move in board.legal_moves
        board.push(move)
    assert game.headers["Result"] in ("1-0", "0-1", "1/2-1/2"), game.headers
    assert "Mac Hack" in game.headers[machack_plays], game.headers
    assert board.ply() >= 20, board.ply()
    return game


def test_xboard_plays_a_whole_game_against_stockfish(tmp_path: Path) -> None:
    tools = need("Xvfb", "xboard", "polyglot", "stockfish", "import")
    pgn = tmp_path / "xboard.pgn"
    command = [tools["xboard"], "-fcp", f"{machack_command()} uci", "-fUCI", "-fd", str(tmp_path),
               "-scp", tools["stockfish"], "-sUCI", "-sd", str(tmp_path),
               "-mg", "1", "-tc", "0:30", "-inc", "1", "-sgf", str(pgn), "-xexit",
               "-autoCallFlag", "true", "-size", "medium"]  # fmt: skip
    with xvfb() as display:
        play(command, display, tmp_path / "xboard.png", {"HOME": str(tmp_path)})
    refereed(pgn, "White")
    assert (tmp_path / "xboard.png").stat().st_size > DRAWN_BYTES


def test_pychess_plays_a_whole_game_against_stockfish(tmp_path: Path) -> None:
    tools = need("Xvfb", "pychess", "stockfish", "import")
    pgn = tmp_path / "pychess.pgn"
    script = Path(__file__).parents[1] / "gui" / "pychess_game.py"
    command = ["/usr/bin/python3", str(script), machack_command(), tools["stockfish"], str(pgn),
               str(tmp_path / "pychess-end.png"), "30", "1"]  # fmt: skip
    with xvfb() as display:
        play(command, display, tmp_path / "pychess.png", {"HOME": str(tmp_path)})
    refereed(pgn, "White")
    # The screen during the game or, when a loaded machine had PyChess draw its window
    # only after the game (CI once got a blank root all through), the one the script
    # takes of the finished game.
    shots = [tmp_path / "pychess.png", tmp_path / "pychess-end.png"]
    assert max(p.stat().st_size for p in shots if p.exists()) > DRAWN_BYTES
