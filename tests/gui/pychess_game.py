"""One whole game in PyChess's own window: Mac Hack (``machack uci``) against Stockfish.

PyChess has no command-line match option, so this starts PyChess itself (Debian's
``/usr/games/pychess``, run by the system Python that has its GTK bindings) with one
change: once its engines are discovered, it starts an engine-against-engine game the way
its New Game dialog does (``discoverer.initPlayerEngine`` for each side, then the games
perspective's ``generalStart``).  When the game ends, PyChess's own PGN saver writes it,
a screenshot of the window is taken, and PyChess quits.

Usage (under Xvfb): ``python3 pychess_game.py MACHACK STOCKFISH PGN PNG [SECONDS INC]``;
``HOME`` should be a fresh folder (PyChess keeps its settings and engine list there).
"""

import asyncio
import runpy
import subprocess
import sys

machack, stockfish, pgn_path, png_path = sys.argv[1:5]
secs, inc = (int(sys.argv[5]), int(sys.argv[6])) if len(sys.argv) > 6 else (60, 1)
sys.argv = ["pychess", "--no-version-check"]

import gi  # noqa: E402

gi.require_version("Gtk", "3.0")
from gi.repository import GLib  # noqa: E402
from pychess.Players.engineNest import discoverer  # noqa: E402
from pychess.System import conf  # noqa: E402

conf.set("dont_show_externals_at_startup", True)
conf.set("show_tip_at_startup", False)
if discoverer.getEngineByName("Mac Hack VI") is None:
    discoverer.addEngine("Mac Hack VI", machack, "uci", None, None)
    discoverer.getEngineByName("Mac Hack VI")["args"] = ["uci"]
if discoverer.getEngineByName("Stockfish") is None:
    discoverer.addEngine("Stockfish", stockfish, "uci", None, None)


def finish(gamemodel, reason):
    from pychess.Savers import pgn

    with open(pgn_path, "w") as handle:
        pgn.save(handle, gamemodel)
    GLib.timeout_add(1500, screenshot_and_quit)


def screenshot_and_quit():
    subprocess.run(["import", "-window", "root", png_path], check=False)
    print(f"pychess_game: the game is in {pgn_path}, the screenshot in {png_path}", flush=True)
    asyncio.get_event_loop().stop()
    return False


async def start_game():
    from pychess.perspectives import perspective_manager
    from pychess.Utils.const import ARTIFICIAL, BLACK, NORMALCHESS, WHITE
    from pychess.Utils.GameModel import GameModel
    from pychess.Utils.TimeModel import TimeModel
    from pychess.Variants import variants

    variant = variants[NORMALCHESS]
    gamemodel = GameModel(TimeModel(secs, inc), variant)
    players = []
    for name, colour in (("Mac Hack VI", WHITE), ("Stockfish", BLACK)):
        engine = discoverer.getEngineByName(name)
        players.append(
            (
                ARTIFICIAL,
                discoverer.initPlayerEngine,
                (engine, colour, 20, variant, secs, inc, 0, True),
                name,
            )
        )
    gamemodel.connect("game_ended", finish)
    await perspective_manager.get_perspective("games").generalStart(gamemodel, *players)


def when_discovered(_discoverer):
    asyncio.ensure_future(start_game())


discoverer.connect_after("all_engines_discovered", when_discovered)
runpy.run_path("/usr/games/pychess", run_name="__main__")
