"""``machack match``: four short games against a random mover, the PGN read back."""

from __future__ import annotations

import io
import math
import sys
from pathlib import Path

import chess
import chess.pgn
import pytest
from click.testing import CliRunner

from machack.cli import main
from machack.match import GameResult, elo, elo_interval, read_openings, resolve_command, summary
from machack.session import Session

RANDOM = f"{sys.executable} {Path(__file__).with_name('random_uci.py')}"
MACHACK = "Mac Hack VI (emulated PDP-6)"


@pytest.fixture(scope="module")
def warm() -> None:
    """The program assembled and the engine compiled here first, for the workers."""
    Session()


def test_four_games_against_a_random_mover(warm: None, tmp_path: Path) -> None:
    pgn = tmp_path / "match.pgn"
    args = ["match", "--opponent", RANDOM, "--option", "Seed=5", "--option",
            "UCI_LimitStrength=true", "-n", "4", "--movetime", "100", "--depth", "2",
            "--draw-at", "14", "-j", "2", "--pgn", str(pgn)]  # fmt: skip
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "4 games against Random Mover, 2 at a time" in result.stderr
    assert result.stderr.count("game ") >= 4  # the progress: a line a game off a terminal
    score_line, elo_line = result.stdout.splitlines()[:2]
    assert score_line.startswith(f"Score of {MACHACK} vs Random Mover: ")
    assert elo_line.startswith("Elo difference: ")

    games = []
    with pgn.open() as stream:
        while (game := chess.pgn.read_game(stream)) is not None:
            games.append(game)
    assert len(games) == 4
    assert sorted(g.headers["Round"] for g in games) == ["1", "2", "3", "4"]
    wins = draws = 0
    for game in games:
        assert not game.errors
        headers = game.headers
        assert list(headers)[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
        round_ = int(headers["Round"])
        machack_white = round_ % 2 == 1  # colours alternate over each opening
        assert headers["White" if machack_white else "Black"] == MACHACK
        assert headers["Black" if machack_white else "White"] == "Random Mover"
        assert headers["Opening"] in ("Ruy Lopez", "Italian Game")
        assert headers["Result"] in ("1-0", "0-1", "1/2-1/2")
        board = game.end().board()
        assert board.fullmove_number <= 15  # the draw at move 14, if nothing came first
        played = list(game.mainline())[6:]  # after the opening's six plies
        mine = [n for n in played if n.parent.board().turn == machack_white]
        assert mine and all("[%emt " in n.comment and "value " in n.comment for n in mine)
        points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[headers["Result"]]
        points = points if machack_white else 1 - points
        wins += points == 1.0
        draws += points == 0.5
    losses = 4 - wins - draws
    assert score_line.startswith(f"Score of {MACHACK} vs Random Mover: {wins} - {losses} - {draws}")


def test_a_missing_opponent_is_one_clear_message() -> None:
    result = CliRunner().invoke(main, ["match", "--opponent", "no-such-engine-here", "-n", "1"])
    assert result.exit_code == 1
    assert "cannot start the opponent 'no-such-engine-here'" in result.output
    assert "Traceback" not in result.output


def test_bad_options_are_refused_before_any_game(tmp_path: Path) -> None:
    bad_format = CliRunner().invoke(main, ["match", "--opponent", RANDOM, "--option", "Seed"])
    assert bad_format.exit_code == 2 and "NAME=VALUE" in bad_format.output
    unknown = CliRunner().invoke(main, ["match", "--opponent", RANDOM, "--option", "Nope=1"])
    assert unknown.exit_code == 1 and "no option 'Nope'" in unknown.output
    refused = CliRunner().invoke(main, ["match", "--opponent", RANDOM, "--set", "SETW 0"])
    assert refused.exit_code == 1 and "the program refused 'SETW 0'" in refused.output
    openings = tmp_path / "openings.txt"
    openings.write_text("1. e4 e5 2. Nf3\nd2d4 d7d4\n")
    bad_line = CliRunner().invoke(main, ["match", "--opponent", RANDOM, "--openings",
                                         str(openings)])  # fmt: skip
    assert bad_line.exit_code == 1 and "openings.txt:2: 'd7d4' is not a legal move" in (
        bad_line.output
    )
    for result in (bad_format, unknown, refused, bad_line):
        assert "Traceback" not in result.output


def test_openings_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "openings.txt"
    path.write_text("# mine\n1. e4 c5 2. Nf3  # Sicilian\n\nd2d4 g8f6\n")
    openings = read_openings(path)
    assert [o.moves for o in openings] == [["e2e4", "c7c5", "g1f3"], ["d2d4", "g8f6"]]
    assert len(read_openings(None)) == 10


def test_debian_puts_stockfish_in_usr_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    words = resolve_command("stockfish --flag")
    assert words[1:] == ["--flag"]
    assert words[0] in ("stockfish", "/usr/games/stockfish")


def test_elo_and_its_interval() -> None:
    assert elo(0.5) == 0
    assert elo(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo(0.0) == -math.inf and elo(1.0) == math.inf
    diff, low, high = elo_interval([1, 0, 0.5, 0.5, 1, 0, 1, 0.5])
    assert low < diff < high
    assert diff == pytest.approx(elo(4.5 / 8))
    assert summary(
        [
            GameResult(0, True, "1-0", "", "", "X"),
            GameResult(1, False, "1-0", "", "", "X"),
            GameResult(2, True, "*", "", ""),
        ]
    ) == [  # fmt: skip
        f"Score of {MACHACK} vs X: 1 - 1 - 0  [0.500] 2",
        "Elo difference: +0 (95% interval -inf to +inf)",
        "1 game(s) could not be finished and are not counted",
    ]


def test_a_pgn_record_reads_back() -> None:
    from machack.pgn import GameRecord

    record = GameRecord(MACHACK, "B", "1-0", moves=["f2f3", "e7e5", "g2g4", "d8h4"],
                        comments=["[%emt 0:00:31] [%eval 0.10] value 13", "", "", ""])  # fmt: skip
    game = chess.pgn.read_game(io.StringIO(record.pgn()))
    assert game is not None and game.headers["White"] == MACHACK
    first = game.next()
    assert first is not None and first.emt() == 31 and first.eval() is not None
