"""A small UCI engine for the tests: it plays a random legal move (python-chess picks it).

The match runner and the UCI tests play against it, so that no real engine has to be
installed.  It reports a score (material, its own side's view) so that adjudication has
something to judge, declares a spin and a check option (the runner's ``--option`` is
tested with them), and answers ``go infinite`` only at ``stop``.
"""

from __future__ import annotations

import random
import sys

import chess

VALUES = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 300, chess.ROOK: 500, chess.QUEEN: 900}


def material(board: chess.Board) -> int:
    """Material for the side to move, in centipawns."""
    own, other = board.turn, not board.turn
    count = board.pieces
    return sum(v * (len(count(p, own)) - len(count(p, other))) for p, v in VALUES.items())


def main() -> None:
    board = chess.Board()
    rng = random.Random(0)
    waiting = False
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            print("id name Random Mover")
            print("id author the tests")
            print("option name Seed type spin default 0 min 0 max 1000000")
            print("option name UCI_LimitStrength type check default false")
            print("uciok")
        elif words[0] == "isready":
            print("readyok")
        elif words[0] == "setoption" and words[1:3] == ["name", "Seed"]:
            rng.seed(int(words[4]))
        elif words[0] == "position":
            board = chess.Board() if words[1] == "startpos" else chess.Board(" ".join(words[2:8]))
            if "moves" in words:
                for move in words[words.index("moves") + 1 :]:
                    board.push_uci(move)
        elif words[0] == "go":
            if "infinite" in words:
                waiting = True
            else:
                answer(board, rng)
        elif words[0] == "stop" and waiting:
            waiting = False
            answer(board, rng)
        elif words[0] == "quit":
            break
        sys.stdout.flush()


def answer(board: chess.Board, rng: random.Random) -> None:
    move = rng.choice(list(board.legal_moves))
    print(f"info depth 1 score cp {material(board)} nodes 1 pv {move.uci()}")
    print(f"bestmove {move.uci()}")


if __name__ == "__main__":
    main()
