"""Fixtures for the Mac Hack tests: a booted program talking over the emulated teletype.

Every test here goes through the teletype exactly as a person would: the chess program
in emulated PDP-6 core decides everything, and python-chess is only the referee.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from machack.session import Session

SHARED = Path("/work/shared")
if not SHARED.exists():  # a checkout next to the shared data
    SHARED = Path(__file__).resolve().parents[3] / "shared"
PERFT_JSON = SHARED / "chess" / "perft.json"
GAMES_DIR = SHARED / "games" / "1967"


@pytest.fixture(scope="module")
def session() -> Session:
    """One booted program per test module (tests reset it with NEW or SETUP)."""
    return Session()


@pytest.fixture()
def fresh() -> Session:
    """A newly booted program for tests that must start from power-on."""
    return Session()


def perft_positions() -> list[dict]:
    """The standard perft positions with their published counts."""
    return json.loads(PERFT_JSON.read_text())["positions"]
