"""Make the games of the comparison sets (tests/data/compare/): games from many openings,
played on by Stockfish at low strength so that they run through middlegames into
endings.  Run by hand (it needs Debian's stockfish); the games it wrote are committed,
and nothing at test time runs it:

    python -m tests.machack.make_compare_games dev 40 1     > tests/data/compare/dev.pgn
    python -m tests.machack.make_compare_games holdout 16 2 > (kept out of the repository)

An opening is a line of machack/book/openings.txt cut after 4 to 12 plies (a line and a
cut chosen by the seed); then each side moves with Stockfish at a skill level and node
budget also chosen by the seed (weak enough to leave pieces hanging and reach endings
of every kind), to mate, a draw, or 160 plies.  Stockfish runs one thread with a node
limit, so the same seed gives the same games.
"""

from __future__ import annotations

import random
import sys

import chess
import chess.engine
import chess.pgn

from machack.bookgen import read_book

STOCKFISH = "/usr/games/stockfish"
MAX_PLIES = 160


def games(name: str, count: int, seed: int) -> list[chess.pgn.Game]:
    rng = random.Random(seed)
    lines = [line for line in read_book().lines if len(line) >= 6]
    out = []
    with chess.engine.SimpleEngine.popen_uci(STOCKFISH) as engine:
        engine.configure({"Threads": 1, "Hash": 16})
        for n in range(count):
            line = rng.choice(lines)
            cut = rng.randint(4, min(12, len(line)))
            board = chess.Board()
            for move in line[:cut]:
                board.push(move)
            levels = (rng.randint(0, 12), rng.randint(0, 12))
            nodes = rng.choice([500, 2000, 8000, 30000])
            while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
                engine.configure({"Skill Level": levels[board.ply() % 2]})
                result = engine.play(board, chess.engine.Limit(nodes=nodes))
                assert result.move is not None
                board.push(result.move)
            game = chess.pgn.Game.from_board(board)
            game.headers["Event"] = f"machack compare set {name}"
            game.headers["Round"] = str(n + 1)
            game.headers["White"] = f"Stockfish skill {levels[0]}, {nodes} nodes"
            game.headers["Black"] = f"Stockfish skill {levels[1]}, {nodes} nodes"
            game.headers["Annotator"] = f"opening: the book line cut at ply {cut}"
            out.append(game)
            print(f"game {n + 1}: {board.ply()} plies {board.result(claim_draw=True)}",
                  file=sys.stderr)  # fmt: skip
    return out


if __name__ == "__main__":
    name, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    for game in games(name, count, seed):
        print(game, end="\n\n")
