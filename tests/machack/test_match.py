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
        assert mine and all(n.comment == "book" or ("[%emt " in n.comment and "value "
                                                    in n.comment) for n in mine)  # fmt: skip
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
    assert [o.name for o in openings] == ["Sicilian", "openings.txt:4"]
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


# --- adjudication by a judge: a fake UCI engine that gives every position one score ------
FAKE_JUDGE = """
import sys
score = sys.argv[1]  # e.g. 'cp 300' or 'mate -2', White's view
for line in sys.stdin:
    words = line.split()
    white = True
    if not words:
        continue
    if words[0] == "uci":
        print("id name Fake Judge")
        print("uciok")
    elif words[0] == "isready":
        print("readyok")
    elif words[0] == "position":
        plies = len(words) - words.index("moves") - 1 if "moves" in words else 0
        white = plies % 2 == 0
    elif words[0] == "go":
        kind, number = score.split()
        mine = int(number) if white else -int(number)  # UCI scores are the mover's
        print(f"info depth 7 score {kind} {mine} pv 0000")
        print("bestmove 0000")
    elif words[0] == "quit":
        break
    sys.stdout.flush()
"""


def fake_judge(tmp_path: Path, score: str) -> str:
    """The command line of a judge that scores every position ``score`` (White's view)."""
    script = tmp_path / "judge.py"
    script.write_text(FAKE_JUDGE)
    return f"{sys.executable} {script} '{score}'"


def read_games(pgn: Path) -> list[chess.pgn.Game]:
    games = []
    with pgn.open() as stream:
        while (game := chess.pgn.read_game(stream)) is not None:
            games.append(game)
    return games


def test_unfinished_games_go_to_the_side_the_judge_favours(warm: None, tmp_path: Path) -> None:
    pgn = tmp_path / "match.pgn"
    args = ["match", "--opponent", RANDOM, "-n", "2", "--movetime", "100", "--depth", "2",
            "--draw-at", "8", "-j", "1", "--pgn", str(pgn), "--adjudicate",
            fake_judge(tmp_path, "cp 300"), "--adjudicate-ms", "50"]  # fmt: skip
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "unfinished games adjudicated by Fake Judge: 50 ms a position, a win beyond 150 cp" in (
        result.stderr
    )
    games = read_games(pgn)
    assert len(games) == 2
    for game in games:
        headers = game.headers
        assert headers["Result"] == "1-0"  # +3.00 for White: beyond 150 cp
        assert headers["Termination"] == (
            "adjudication: draw at move 8; Fake Judge +3.00: White wins"
        )
        assert headers["Adjudicator"] == "Fake Judge, 50 ms a position, a win beyond 150 cp"
        assert game.end().comment.endswith("[%eval +3.00] Fake Judge at depth 7: 1-0")
        assert game.end().eval() is not None
    # Mac Hack White in game 1, Black in game 2: one win, one loss, both by the judge
    assert result.stdout.splitlines()[0].endswith(": 1 - 1 - 0  [0.500] 2")
    assert "adjudicated 2 of 2: 2 by Fake Judge: 1 - 1 - 0" in result.stdout
    assert "median s a move: Mac Hack " in result.stdout and " PDP-6, Random Mover " in (
        result.stdout
    )


class StubJudge:
    """A judge in this process: every position has ``score`` (White's view)."""

    id = {"name": "Stub"}

    def __init__(self, score: chess.engine.Score) -> None:
        self.score = score

    def analyse(self, board: chess.Board, limit: chess.engine.Limit, game: object = None) -> dict:
        return {"score": chess.engine.PovScore(self.score, chess.WHITE), "depth": 12}


def test_the_judges_ruling() -> None:
    from machack.match import MatchConfig, _judged, verdict_for

    config = MatchConfig(opponent=[], judge=["stub"], judge_cp=150)
    board = chess.Board()
    draw_at = ("1/2-1/2", "adjudication: draw at move 150")
    resign = ("1-0", "adjudication: X's own score +1000 cp or beyond for 3 moves")
    Cp, Mate = chess.engine.Cp, chess.engine.Mate
    end, comment = _judged(config, StubJudge(Cp(-151)), board, draw_at, 0)  # type: ignore[arg-type]
    assert end == ("0-1", "adjudication: draw at move 150; Stub -1.51: Black wins")
    assert comment == "[%eval -1.51] Stub at depth 12: 0-1"
    end, _ = _judged(config, StubJudge(Cp(150)), board, draw_at, 0)  # type: ignore[arg-type]
    assert end is not None and end[0] == "1/2-1/2"  # 150 is not beyond 150: a draw
    # the opponent's own score stops a game only where the judge agrees; else play goes on
    end, comment = _judged(config, StubJudge(Cp(40)), board, resign, 0)  # type: ignore[arg-type]
    assert end is None and comment == "[%eval +0.40] Stub at depth 12: 1/2-1/2"
    end, _ = _judged(config, StubJudge(Mate(4)), board, resign, 0)  # type: ignore[arg-type]
    assert end == ("1-0", resign[1] + "; Stub #4: White wins")
    assert verdict_for(Mate(-1), 100_000) == "0-1"


def test_a_judge_that_does_not_start_is_one_clear_line(tmp_path: Path) -> None:
    for judge in ("no-such-judge-here", f"{sys.executable} -c pass"):
        result = CliRunner().invoke(main, ["match", "--opponent", RANDOM, "-n", "1",
                                           "--pgn", str(tmp_path / "x.pgn"),
                                           "--adjudicate", judge])  # fmt: skip
        assert result.exit_code == 1, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(
            f"Error: cannot start the adjudicating engine {judge!r}: "
        ), result.output
        assert "Traceback" not in result.output
    assert not (tmp_path / "x.pgn").exists()  # refused before any game
    unquoted = CliRunner().invoke(main, ["match", "--opponent", RANDOM, "--adjudicate", "'sf"])
    assert unquoted.exit_code == 1 and '--adjudicate "\'sf": ' in unquoted.output
    no_limit = CliRunner().invoke(main, ["match", "--opponent", RANDOM, "--adjudicate",
                                         "stockfish", "--adjudicate-ms", "0"])  # fmt: skip
    assert no_limit.exit_code == 2 and "--adjudicate-ms 0 needs --adjudicate-depth" in (
        no_limit.output
    )


class Unplayable:
    """An opponent that cannot be typed the game's last move (as the original an
    underpromotion)."""

    id = {"name": "Unplayable"}

    def play(self, board: chess.Board, limit: object, *, info: object, game: object) -> None:
        from machack.original import Underpromotion

        raise Underpromotion(f"{board.peek().uci()}: the original only ever promotes to a queen")

    def quit(self) -> None:
        pass


def test_a_game_that_cannot_go_on_is_judged_where_it_stopped(warm: None) -> None:
    from machack.match import MatchConfig, new_player, play_game, read_openings

    config = MatchConfig(opponent=[], movetime_ms=None, depth=1, openings=read_openings(None),
                         judge=["stub"], judge_ms=10)  # fmt: skip
    player = new_player(config)
    unjudged = play_game(config, player, Unplayable(), 0)  # type: ignore[arg-type]
    assert unjudged.result == "*" and unjudged.machack_points is None
    assert unjudged.termination.startswith("the game could not go on: ")
    assert '[Result "*"]' in unjudged.pgn
    judged = play_game(config, player, Unplayable(), 0, StubJudge(chess.engine.Cp(-200)))  # type: ignore[arg-type]
    assert judged.result == "0-1" and judged.machack_points == 0.0  # Mac Hack was White
    assert judged.termination.startswith("adjudication: the game could not go on: ")
    assert judged.termination.endswith("; Stub -2.00: Black wins")
    assert judged.adjudicated == "Stub"
    assert '[Adjudicator "Stub, 10 ms a position, a win beyond 150 cp"]' in judged.pgn
