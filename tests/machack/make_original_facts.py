"""Record what the surviving original does at the comparison positions (tests/data/compare/):
its move, its time, the root moves it searched with their values and lines (its SMVD 1
records), and the plausibility the PMG gave every top-level move as it pushed them.  Run
by hand (it needs the image, which the project does not ship); the facts it wrote are
committed, and the slow tests read them (test_original_facts.py), never the image:

    python -m tests.machack.make_original_facts chess-d.bin 1967 \\
        > tests/data/compare/original_1967.json
    python -m tests.machack.make_original_facts chess-d.bin tests/data/compare/dev.pgn \\
        > tests/data/compare/original_dev.json

From a PGN file the positions are every 12th ply of each game from the end of its
opening (the ply its Annotator tag names, make_compare_games.py), the first of them
offset by the game's number, so that the games' positions spread over all plies: 319
positions of dev.pgn's 40 games.

The original is booted afresh for every position, as ``machack compare`` does (see
machack/compare.py: it keeps state from one search to the next), at its defaults
SETD 4, SETW 6, SETF 2.  Progress goes to standard error.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import chess
import chess.pgn

from machack.compare import ORIGINAL_FIXED, Spot, boot_original, spots_1967
from machack.original import Original, load_original, read_move

EVERY = 12


def spots_every(path: Path) -> list[Spot]:
    """Every EVERY-th ply of each game from its opening's end (see the module's text), up
    to an underpromotion (the original cannot be typed one)."""
    spots = []
    with path.open() as games:
        number = 0
        while (game := chess.pgn.read_game(games)) is not None:
            number += 1
            cut = int(game.headers["Annotator"].split()[-1])
            moves = list(game.mainline_moves())
            board = chess.Board()
            for ply, move in enumerate(moves):
                if move.promotion not in (None, chess.QUEEN):
                    break
                if ply >= cut and (ply - cut) % EVERY == number % EVERY:
                    if not board.is_game_over():
                        spots.append(Spot(f"{path.stem}{number} {ply}", moves[:ply], move))
                board.push(move)
    return spots


def facts(original: Original, spot: Spot) -> dict:
    """One position's record (moves in coordinates; values as the original prints them,
    White's view)."""
    for line in ORIGINAL_FIXED:
        original.command(line)
    for move in spot.moves:
        original.push(move)
    board = original.board.copy()
    choice = original.think(plausibility=True)
    roots = []
    for root in choice.roots:
        try:
            uci: str | None = read_move(board, root.move_text).uci()
        except ValueError:
            uci = None
        roots.append([uci, root.value, root.raw, root.seconds, root.line])
    return {
        "label": spot.label,
        "moves": [m.uci() for m in spot.moves],
        "played": spot.played.uci() if spot.played else None,
        "fen": board.fen(),
        "move": choice.move.uci() if choice.move else None,
        "seconds": choice.emulated_s,
        "cands": [
            [c.move.uci() if c.move else None, c.plausibility, c.investigate, c.poor]
            for c in choice.candidates
        ],  # fmt: skip
        "roots": roots,
    }


def main(image_path: str, which: str) -> None:
    image = load_original(image_path)
    if which == "1967":
        spots = [x for x in spots_1967() if isinstance(x, Spot)]
    else:
        spots = spots_every(Path(which))
    rows = []
    for count, spot in enumerate(spots, 1):
        print(f"[{count}/{len(spots)}] {spot.label}", file=sys.stderr)
        rows.append(facts(boot_original(image), spot))
    json.dump(rows, sys.stdout, separators=(",", ":"))


if __name__ == "__main__":
    main(*sys.argv[1:3])
