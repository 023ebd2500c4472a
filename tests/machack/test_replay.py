"""The 1967 games replay cleanly, as printed (descriptive) and from the PGNs."""

from __future__ import annotations

from pathlib import Path

import pytest

from machack.replay import read_descriptive, replay_files
from machack.session import Session

from .conftest import GAMES_DIR


@pytest.fixture(scope="module")
def results(session: Session) -> dict[str, object]:
    descriptive = replay_files([GAMES_DIR / "descriptive.txt"], session=session)
    pgn = replay_files(sorted(GAMES_DIR.glob("*.pgn")), session=session)
    return {"descriptive": descriptive, "pgn": pgn}


def test_descriptive_file_is_read_as_printed() -> None:
    games = read_descriptive(GAMES_DIR / "descriptive.txt")
    assert [g.name for g in games] == [
        "game1_winter_amateur",
        "game2_first_nonloss",
        "game3_first_win",
        "game4_spring_amateur",
    ]
    typed = {g.name: g.typed for g in games}
    assert "QPXB" in typed["game4_spring_amateur"]
    assert "PXQP" in typed["game4_spring_amateur"]
    assert "QXKNPch" in typed["game4_spring_amateur"]
    assert "P-B8=Q" in typed["game4_spring_amateur"]
    assert "QXP/Q6" in typed["game3_first_win"]
    assert "R/K2-Q2" in typed["game2_first_nonloss"]
    assert typed["game1_winter_amateur"][-1] == "Q-K6 MATE"
    assert [len(g.typed) for g in games] == [109, 66, 41, 100]


@pytest.mark.parametrize("form", ["descriptive", "pgn"])
def test_all_games_replay(results: dict, form: str) -> None:
    got = results[form]
    assert len(got) == 4
    assert all(r.ok for r in got), [r.summary() for r in got]
    by_name = {r.name: r for r in got}
    assert by_name["game1_winter_amateur"].mate_announced
    assert by_name["game3_first_win"].mate_announced
    assert not by_name["game2_first_nonloss"].mate_announced
    assert [r.plies for r in got] == [109, 66, 41, 100]


def test_ambiguities_of_the_print_are_reported(results: dict) -> None:
    notes = {r.name: r.notes for r in results["descriptive"]}
    assert notes["game1_winter_amateur"] == ["9...N-Q2 ambiguous as printed, typed from the record"]
    assert notes["game2_first_nonloss"] == []
    assert notes["game3_first_win"] == []  # 20.QXNch: the written check settles it
    assert notes["game4_spring_amateur"] == ["8.QXB ambiguous as printed, typed from the record"]


def test_a_wrong_record_fails(tmp_path: Path, session: Session) -> None:
    text = (GAMES_DIR / "descriptive.txt").read_text()
    block = text.split("=" * 72)[3]  # game 3
    bad = block.replace(" 5 N-QB3      P-KN3", " 5 N-QB3      P-KR3")
    (tmp_path / "game3_first_win.pgn").write_text((GAMES_DIR / "game3_first_win.pgn").read_text())
    (tmp_path / "bad.txt").write_text("=" * 72 + bad)
    result = replay_files([tmp_path / "bad.txt"], session=session)
    assert not result[0].ok


GOLDEN = Path(__file__).parent / "data" / "think_1967.txt"


@pytest.mark.slow
def test_think_choices_at_the_defaults_are_the_golden_ones() -> None:
    """The program's choice at every Mac Hack move of the 1967 games, at the defaults,
    is held in a file: a change to the program's thinking shows here, and changing the
    file is a deliberate act explained in its commit (regenerate it with
    ``machack replay --think --choices --1967 > tests/machack/data/think_1967.txt``)."""
    from machack.think import format_choices, think_files

    games = think_files([GAMES_DIR / "descriptive.txt"])
    assert format_choices(games) + "\n" == GOLDEN.read_text()
