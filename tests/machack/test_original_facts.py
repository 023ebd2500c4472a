"""RULES D against what the surviving original did (slow): the facts recorded in
tests/data/compare (data of our own: the original's moves, root plausibilities and SMVD
records on the 149 positions of the 1967 games and on 319 positions of 40 games of our
own making, dev.pgn; recorded by make_original_facts.py with the original booted afresh
for each position, as ``machack compare`` does; the image itself is not read here).

The issue's target is the same move in 95% of the positions and the same root moves in
85%; the floors below are what the program reaches today (November 2026: 98.0% and 96.6%
the same move, 91.3% and 90.3% the same root moves, 97.3% of root plausibilities), so a
change that loses agreement fails here, and one that gains raises them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import chess
import pytest

from machack.compare import Ours, coordinate_move
from machack.session import Session

FACTS = Path(__file__).parents[1] / "data" / "compare"
SETTINGS = ["SETD 4", "SETW 6", "SETF 2", "RULES D"]


def spots(name: str) -> list[dict]:
    return json.loads((FACTS / f"original_{name}.json").read_text())


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "same_move", "same_roots"), [("1967", 0.975, 0.91), ("dev", 0.965, 0.9)]
)
def test_rules_d_chooses_as_the_original(name: str, same_move: float, same_roots: float) -> None:
    """Each position reached from NEW by typing its game from the start (as compare
    does: the original's one pin that outlives a search, which RULES D keeps, is a
    function of the game alone then), then GO: the move and the set of root moves
    searched against the original's."""
    ours = Ours(SETTINGS)
    agree = roots = 0
    rows = spots(name)
    for row in rows:
        ours.new_game()
        for move in row["moves"]:
            ours.push(chess.Move.from_uci(move))
        pick = ours.think()
        agree += pick.move is not None and pick.move.uci() == row["move"]
        mine = {x.move.uci() for x in pick.roots if x.move}
        roots += mine == {x[0] for x in row["roots"]}
    assert agree / len(rows) >= same_move, f"{agree} of {len(rows)} the same move"
    assert roots / len(rows) >= same_roots, f"{roots} of {len(rows)} the same root moves"


@pytest.mark.slow
def test_rules_d_plausibilities_are_the_originals() -> None:
    """PLAUS under RULES D against the original's root plausibilities (read as its PMG
    pushed them): at least 97.2% of the 13,440 equal."""
    session = Session()
    equal = total = 0
    for name in ("1967", "dev"):
        for row in spots(name):
            session.command("NEW")
            session.command("PN")
            session.command("RULES D")
            session.command("SMVD 2")
            for move in row["moves"]:
                session.command(move.upper())
            board = chess.Board(row["fen"])
            ours = {}
            for line in session.command("PLAUS").lines[1:]:
                found = re.match(r"^[ -]\s*(-?\d+) (\S+)", line)
                if found:
                    move = coordinate_move(board, found[2])
                    ours[move.uci() if move else found[2]] = int(found[1])
            for uci, plausibility, *_ in row["cands"]:
                total += 1
                equal += ours.get(uci) == plausibility
    assert equal / total >= 0.972, f"{equal} of {total}"
