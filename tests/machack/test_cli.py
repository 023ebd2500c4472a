"""The machack command, run in-process with click's runner."""

from __future__ import annotations

from click.testing import CliRunner

from machack.cli import main

from .conftest import GAMES_DIR


def test_perft() -> None:
    result = CliRunner().invoke(main, ["perft", "startpos", "3"])
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == "8902"


def test_move() -> None:
    result = CliRunner().invoke(main, ["move", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "--depth", "2"])
    assert result.exit_code == 0
    assert result.output.strip() == "R-R8 MATE a1a8"


def test_replay_exit_status() -> None:
    result = CliRunner().invoke(main, ["replay", str(GAMES_DIR / "game3_first_win.pgn")])
    assert result.exit_code == 0
    assert "1 of 1 games replayed cleanly" in result.output


def test_play_reads_lines() -> None:
    result = CliRunner().invoke(main, ["play", "--depth", "1"], input="P-K4\nPG\n")
    assert result.exit_code == 0
    assert "1. ... " in result.output
    assert "PDP-6" in result.output and "wall" in result.output
    assert "  1 P-K4" in result.output


def test_bad_fen_is_an_error_not_a_traceback() -> None:
    result = CliRunner().invoke(main, ["perft", "not a fen", "1"])
    assert result.exit_code != 0
    assert "Traceback" not in result.output
