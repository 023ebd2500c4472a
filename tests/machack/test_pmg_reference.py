"""The plausible move generator against the Python model of the surviving program's.

`original_pmg.py` models the surviving program's PMG (C197) as machack-audit.md reads it,
checked against that program's own root plausibilities (tests/data/compare).  Here the
program, under `RULES D` (the surviving program's rules: the model's), scores every legal
move of many positions and each is compared with the model: the plausibility and flags
PLAUS lists (the poor mark among them), and the points of TRACE's terms, kind by kind.
The positions are reached by typing games from the start, so that the pieces' numbers and
move counts are the game's, which the model takes from the moves: the four 1967 games
and random play.  python-chess is only the board.
"""

from __future__ import annotations

import collections
import random
import re
from collections.abc import Iterable, Iterator

import chess
import pytest

from machack.replay import GAMES_1967, read_games
from machack.session import Session

from .original_pmg import PMG, Game, Scored

LINE = re.compile(r"^\s*(-?\d+)\s\s(.*)$")
DEVELOPMENT = "development"  # the new development with the attacks it and unblocking make
# The model's term labels and TRACE's texts, kind by kind.  The model counts the attack
# terms of the new development and of the sliders a move lets through inside those two
# terms (and lists them apart, in `info`); TRACE prints them as terms of their own.
MODEL_TERMS = {
    "PRESENT": "GIVES UP ITS PRESENT DEVELOPMENT", "SAVES": "SAVES ITSELF FROM CAPTURE",
    "EARLY": "EARLY MOVE OF THIS PIECE", "FMKING": "FIRST MOVE OF THE KING",
    "KKCAS": "GIVES UP CASTLING", "CASTLES": "CASTLES", "ORIGIN": "GIVES BACK ITS SQUARE",
    "BLOCKS PASSED": "BLOCKS HIS PASSED PAWN", "BACKWARD": "MOVES A BACKWARD PAWN",
    "PASSED": "PUSHES A PASSED PAWN", "KING BACK": "BRINGS THE KING BACK",
    "LBL": "BLOCKS THE LINE OF", "LBL HIS": "BLOCKS THE LINE OF HIS", "IVLU": "INITIAL VALUE",
    "BCP": "BLOCKS A CENTRE PAWN", "OPENS HIS": "OPENS A LINE FOR HIS",
    "LINE RANK": "LINES UP ON HIS KING", "LINE FILE": "LINES UP ON HIS KING",
    "LINE DIAG": "LINES UP ON HIS KING", "FMROOK": "FIRST MOVE OF A ROOK OR THE QUEEN",
    "CBDV": "TAKES THE DEVELOPMENT OF HIS", "TAKES UNDEFENDED": "TAKES UNDEFENDED",
    "TAKES (FORCING)": "TAKES UNDEFENDED", "WINS": "WINS MATERIAL", "WINS 1": "WINS MATERIAL",
    "WINS N": "WINS MATERIAL", "MJVLU": "AS MANY ATTACKERS AS DEFENDERS",
    "MJVLU E": "AS MANY ATTACKERS AS DEFENDERS", "LOSES": "LOSES MATERIAL",
    "XCH": "EXCHANGE ESTIMATE", "UNSAFE": "GOES WHERE IT CAN BE TAKEN",
    "NEW DEV": DEVELOPMENT, "UNBLOCKS": DEVELOPMENT,
}  # fmt: skip
MODEL_ATTACKS = {
    "CHECK": "CHECKS", "CHECK UNDEFENDED": "CHECKS", "PAWN BREAK": "PAWN BREAK AGAINST",
    "PINNED": "ATTACKS PINNED", "UNDEFENDED": "ATTACKS UNDEFENDED",
    "TRADE": "OFFERS A TRADE OF", "MORE VALUABLE": "ATTACKS MORE VALUABLE",
    "BALANCE": "SHIFTS THE BALANCE ON", "TTVLU": "ADDS AN ATTACKER ON",
}  # fmt: skip
TRACE_DEVELOPMENT = {  # TRACE's share of DEVELOPMENT but the attack terms
    "ATTACKS SQUARES", "HALF FOR A KING OR QUEEN", "ATTACKS THE CENTRE", "UNBLOCKS",
}  # fmt: skip
NAMED = sorted(  # texts TRACE follows with a piece's name
    ["BLOCKS THE LINE OF HIS", "BLOCKS THE LINE OF", "UNBLOCKS", "OPENS A LINE FOR HIS",
     "TAKES THE DEVELOPMENT OF HIS", "TAKES UNDEFENDED", *MODEL_ATTACKS.values()],
    key=len,
    reverse=True,
)  # fmt: skip

Scores = dict[str, tuple[dict[str, int], int, set[str]]]  # move: (terms by kind, plaus, flags)


def kind(text: str) -> str:
    """A TRACE text without the piece's name."""
    return next((k for k in NAMED if text == k or text.startswith(k + " ")), text)


def nonzero(points: collections.Counter[str]) -> dict[str, int]:
    return {k: v for k, v in points.items() if v}


def program_terms(terms: Iterable[tuple[int, str]]) -> dict[str, int]:
    """TRACE's terms by kind, with the development's share added up as the model has it."""
    points: collections.Counter[str] = collections.Counter()
    for p, text in terms:
        k = kind(text)
        if k in TRACE_DEVELOPMENT or k in MODEL_ATTACKS.values():
            points[DEVELOPMENT] += p
        if k not in TRACE_DEVELOPMENT:
            points[k] += p
    return nonzero(points)


def model_terms(scored: Scored) -> dict[str, int]:
    points: collections.Counter[str] = collections.Counter()
    for p, label in scored.terms:
        points[MODEL_TERMS[label]] += p
    for p, label in scored.info:
        points[MODEL_ATTACKS[label]] += p
    return nonzero(points)


def model_scores(moves: list[chess.Move]) -> Scores:
    """The model's scores of the legal moves after `moves` (it has queen promotions only)."""
    game = Game(moves)
    board = game.board
    out = {}
    for scored in PMG(game).score_all():
        if scored.illegal or scored.move not in board.legal_moves:
            continue
        flags = {
            flag
            for flag, on in (
                ("INVESTIGATE", scored.investigate),
                ("CHECK", scored.check),
                ("CAPTURE", board.is_capture(scored.move)),
                ("UNSAFE", scored.unsafe),
                ("POOR", scored.poor),
            )
            if on
        }
        out[scored.move.uci().upper()] = (model_terms(scored), scored.plaus, flags)
    return out


def program_scores(session: Session) -> Scores:
    """PLAUS's plausibility and flags (in coordinates, SMVD 2) and TRACE's terms."""
    listed = {}
    for line in session.command("PLAUS").lines[1:-1]:
        points, move, *flags = line[1:].split()
        listed[move] = (int(points), set(flags) | ({"POOR"} if line[0] == "-" else set()))
    out = {}
    for move, (points, flags) in listed.items():
        if len(move) == 5 and move[4] != "Q":
            continue  # an underpromotion: the original never makes one
        *body, _, ack = session.command(f"TRACE {move}").lines
        assert ack == "_"
        terms = [(int(m[1]), m[2]) for m in map(LINE.match, body) if m]
        assert len(terms) == len(body), body
        out[move] = (program_terms(terms), points, flags)
    return out


def compare(session: Session, games: Iterable[tuple[list[chess.Move], set[int]]]) -> None:
    """Type each game from the start and compare every legal move's scores at the plies
    chosen (the positions before those moves)."""
    wrong, compared = [], 0
    session.command("RULES D")
    session.command("SMVD 2")
    try:
        for moves, plies in games:
            session.command("NEW")
            session.command("PN")
            board = chess.Board()
            for ply, move in enumerate([*moves, None]):
                if ply in plies and any(board.legal_moves):
                    want, got = model_scores(moves[:ply]), program_scores(session)
                    assert got.keys() == want.keys(), board.fen()
                    compared += len(want)
                    wrong += [f"{board.fen()} {m}: program {got[m]}, model {want[m]}"
                              for m in want if got[m] != want[m]]  # fmt: skip
                if move is not None:
                    session.command(move.uci().upper())
                    board.push(move)
    finally:
        session.command("SMVD 0")
        session.command("RULES PAPER")
    assert compared
    assert not wrong, f"{len(wrong)} of {compared} moves differ:\n" + "\n".join(wrong[:10])


def the_1967_games(every: int) -> Iterator[tuple[list[chess.Move], set[int]]]:
    """The four 1967 games, every `every`-th position."""
    for game in read_games(GAMES_1967 / "descriptive.txt"):
        yield list(game.moves), set(range(0, len(game.moves) + 1, every))


def random_games(count: int, every: int, seed: int) -> Iterator[tuple[list[chess.Move], set[int]]]:
    """Random legal games (queening only, as the original) of up to 160 plies, every
    `every`-th position from a random first one."""
    rng = random.Random(seed)
    for _ in range(count):
        board, moves = chess.Board(), []
        for _ in range(rng.randint(20, 160)):
            legal = [m for m in board.legal_moves if m.promotion in (None, chess.QUEEN)]
            if not legal:
                break
            moves.append(rng.choice(legal))
            board.push(moves[-1])
        yield moves, set(range(rng.randrange(every), len(moves) + 1, every))


def test_the_1967_games_and_random_play(session: Session) -> None:
    compare(session, [*the_1967_games(every=8), *random_games(3, every=12, seed=1967)])


@pytest.mark.slow
def test_every_position_of_the_1967_games_and_more_random_play(session: Session) -> None:
    compare(session, [*the_1967_games(every=1), *random_games(20, every=3, seed=6)])
