"""Fixtures for the Mac Hack tests: a booted program talking over the emulated teletype.

Every test here goes through the teletype exactly as a person would: the chess program
in emulated PDP-6 core decides everything, and python-chess is only the referee.
"""

from __future__ import annotations

import json
from pathlib import Path

import chess
import pytest

from machack.replay import GAMES_1967, read_games
from machack.session import Session

DATA = Path(__file__).resolve().parents[1] / "data"
PERFT_JSON = DATA / "perft.json"
WAC_EPD = DATA / "wac.epd"
GAMES_DIR = GAMES_1967


@pytest.fixture(scope="module")
def session() -> Session:
    """One booted program per test module (tests reset it with NEW or SETUP), under
    RULES PAPER: the unit tests' references (sbe_reference, search_reference, the
    paper's search rules in test_greenblatt) are the 1967 paper's program.  A test of
    RULES D or RULES 1967 (the start-up rules) types its rules and puts PAPER back."""
    session = Session()
    session.command("RULES PAPER")
    return session


@pytest.fixture()
def fresh() -> Session:
    """A newly booted program for tests that must start from power-on."""
    return Session()


def perft_positions() -> list[dict]:
    """The standard perft positions with their published counts."""
    return json.loads(PERFT_JSON.read_text())["positions"]


def game_positions(every: int) -> list[str]:
    """Every ``every``-th position of the four 1967 games (FEN) where a move is left."""
    fens = []
    for game in read_games(GAMES_1967 / "descriptive.txt"):
        board = chess.Board(game.start_fen)
        for ply, move in enumerate(game.moves):
            if ply % every == 0 and any(board.legal_moves):
                fens.append(board.fen())
            board.push(move)
    return fens
