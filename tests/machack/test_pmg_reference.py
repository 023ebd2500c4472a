"""The plausible move generator against an independent reading of it.

`pmg_reference.py` scores every legal move from the written description of the original
(machack-original 1.3, 2, 3.1) and the readings of docs/plausibility.md, with
python-chess for the board.  Here every legal move of many positions is traced in the
program (`TRACE` in coordinates) and compared term by term: the plausibility, the flags
and the points of each kind of term.  Positions: the four 1967 games and random play.
"""

from __future__ import annotations

import collections
import random
import re

import chess
import pytest

from machack.session import Session

from .conftest import game_positions
from .pmg_reference import score_moves

LINE = re.compile(r"^\s*(-?\d+)\s\s(.*)$")
NAMED = (  # terms TRACE prints with a piece's name after the text
    "BLOCKS THE LINE OF HIS", "BLOCKS THE LINE OF", "UNBLOCKS", "OPENS A LINE FOR HIS",
    "TAKES THE DEVELOPMENT OF HIS", "TAKES UNDEFENDED", "PAWN BREAK AGAINST",
    "ATTACKS PINNED", "ATTACKS UNDEFENDED", "OFFERS A TRADE OF", "ATTACKS MORE VALUABLE",
    "SHIFTS THE BALANCE ON", "ADDS AN ATTACKER ON",
)  # fmt: skip


def kind(text: str) -> str:
    """The term's text without the piece's name (the reference guesses names by wing)."""
    return next((k for k in NAMED if text == k or text.startswith(k + " ")), text)


def by_kind(terms: list[tuple[int, str]]) -> dict[str, int]:
    points: collections.Counter[str] = collections.Counter()
    for p, text in terms:
        points[kind(text)] += p
    return {k: v for k, v in points.items() if v}


def traced(session: Session, move: chess.Move) -> tuple[dict[str, int], int, set[str]]:
    """The program's TRACE of the move: points by kind of term, plausibility, flags."""
    *body, total, ack = session.send("TRACE " + move.uci().upper()).lines
    assert ack == "_"
    terms = [(int(m[1]), m[2]) for m in map(LINE.match, body) if m]
    assert len(terms) == len(body), body
    points, word, *flags = total.split()
    assert word == "PLAUSIBILITY"
    return by_kind(terms), int(points), set(flags)


def random_positions(count: int, seed: int) -> list[str]:
    rng, fens = random.Random(seed), []
    while len(fens) < count:
        board = chess.Board()
        for _ in range(rng.randint(2, 140)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if any(board.legal_moves):
            fens.append(board.fen())
    return fens


def check(session: Session, fens: list[str]) -> None:
    session.command("PN")
    wrong = []
    for fen in fens:
        session.setup(fen)
        for move, want in score_moves(chess.Board(fen)).items():
            got = traced(session, move)
            if got != (by_kind(want.terms), want.plausibility, want.flags):
                wrong.append(f"{fen} {move.uci()}: program {got}, reference "
                             f"{(by_kind(want.terms), want.plausibility, want.flags)}")  # fmt: skip
    assert not wrong, f"{len(wrong)} moves differ:\n" + "\n".join(wrong[:10])


def test_the_1967_games_and_random_play(session: Session) -> None:
    check(session, game_positions(every=5) + random_positions(40, seed=1967))


@pytest.mark.slow
def test_every_position_of_the_1967_games_and_more_random_play(session: Session) -> None:
    check(session, game_positions(every=1) + random_positions(400, seed=6))
