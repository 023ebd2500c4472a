"""``machack compare`` and ``machack match --opponent original:FILE`` without the image.

The surviving original is not part of the project, so nothing here reads it: the
refusals (a missing file, one that is not the image, bad options) go through the real
command; the comparison itself runs through the real command and our real program with
a stand-in for the original that answers as it does (its notation, its SMVD records);
the table and the summary are checked on fabricated choices.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import chess
import chess.engine
import pytest
from click.testing import CliRunner

from machack import compare as comparemod
from machack.cli import main
from machack.compare import (
    Note,
    Pick,
    RootLine,
    Row,
    Spot,
    every_nth,
    format_row,
    format_trace,
    original_pick,
    route_settings,
    spots_1967,
    spots_lines,
    spots_pgn,
    summarize,
)
from machack.opponent import OriginalEngine, option_commands
from machack.original import Choice, OriginalError, RootMove, typed_move
from midas import assemble
from midas.sblk import sblk_words
from pdp6.formats.wordfile import encode_archive


def machack(*args: str) -> subprocess.CompletedProcess[str]:
    """The real command in a process of its own (its exit status and streams as a user
    sees them)."""
    return subprocess.run([sys.executable, "-m", "machack", *args], capture_output=True,
                          text=True, timeout=120)  # fmt: skip


def one_line_refusal(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 1, result
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert all(w in lines[0] for w in words), lines[0]


@pytest.fixture(scope="module")
def not_the_image(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A good binary in the archives' encoding that is some other program."""
    path = tmp_path_factory.mktemp("bin") / "OTHER.BIN"
    path.write_bytes(encode_archive(sblk_words(assemble("GO: JRST GO\nEND GO\n"))))
    return path


# --- refusals, through the real command ---------------------------------------------------
def test_compare_refuses_a_missing_file_or_one_that_is_not_the_image(
    tmp_path: Path, not_the_image: Path
) -> None:
    one_line_refusal(machack("compare", "--original", str(tmp_path / "none.bin"), "--1967"),
                     "none.bin", "No such file")  # fmt: skip
    text = tmp_path / "notes.txt"
    text.write_text("not a binary\n")
    one_line_refusal(machack("compare", "--original", str(text), "--1967"), "text file")
    one_line_refusal(machack("compare", "--original", str(not_the_image), "--1967"),
                     "is not the surviving Mac Hack image", "period-software.md")  # fmt: skip


def test_match_refuses_an_original_that_is_not_the_image(
    tmp_path: Path, not_the_image: Path
) -> None:
    for path, words in ((tmp_path / "none.bin", ("No such file",)),
                        (not_the_image, ("is not the surviving Mac Hack image",))):  # fmt: skip
        one_line_refusal(machack("match", "-n", "1", "--opponent", f"original:{path}"),
                         "the original cannot be the opponent", *words)  # fmt: skip
    empty = CliRunner().invoke(main, ["match", "--opponent", "original:"])
    assert empty.exit_code == 2 and "original:FILE names the image's file" in empty.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "give one of --1967, --pgn FILE and --fen FILE"),
        (["--1967", "--fen", "x.txt"], "give one of --1967, --pgn FILE and --fen FILE"),
        (["--1967", "--set", "SETD"], "SETD takes numbers (SETD 4)"),
        (["--1967", "--set", "SETW 6 x"], "SETW takes numbers (SETW 6 6 4)"),
        (["--1967", "--set", "SETF 2 3"], "SETF takes one number"),
        (["--1967", "--set", "GO"], "not a setting"),
        (["--1967", "--set", "smvd 0"], "not a setting"),
        (["--1967", "--set", " "], "an empty setting"),
        (["--1967", "--every", "0"], "'--every': 0 is not in the range x>=1"),
    ],
)
def test_compare_option_errors(args: list[str], message: str) -> None:
    """Usage errors, found before the image is looked at (this one does not exist)."""
    result = CliRunner().invoke(main, ["compare", "--original", "/no/image", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_compare_refuses_positions_it_cannot_type(tmp_path: Path) -> None:
    """The original cannot set up a position: a FEN other than the initial position's
    refuses the file, in one line, before the image is read; so does a line that is no
    position, an illegal move, an underpromotion, a game that is over."""
    cases = {
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n": "the original cannot "
        "set up a position, only be typed a game from the initial one",
        "startpos moves e2e4 e7e5\nnonsense here\n": ":2: neither 'startpos' nor a FEN",
        "startpos moves e2e4 e2e4\n": ":1: 'e2e4' is not a legal move there",
        "startpos moves h4 g5 hxg5 Nf6 g6 Ng8 g7 Nf6 gxh8=N\n": "gxh8=N is an underpromotion",
        "startpos moves f3 e5 g4 Qh4\n": "the game is over there (checkmate)",
        "# only a comment\n": "holds no positions",
    }
    for text, message in cases.items():
        path = tmp_path / "lines.txt"
        path.write_text(text)
        result = CliRunner().invoke(main, ["compare", "--original", "/no/image", "--fen",
                                           str(path)])  # fmt: skip
        assert result.exit_code == 1, (text, result.output)
        assert result.output.count("\n") == 1 and message in result.output, result.output
    missing = CliRunner().invoke(main, ["compare", "--original", "x", "--pgn", "/no/games.pgn"])
    assert (missing.exit_code, missing.output) == (
        1, "Error: cannot read /no/games.pgn: No such file or directory\n")  # fmt: skip


# --- the positions ------------------------------------------------------------------------
def test_the_1967_positions_are_mac_hacks_searched_moves() -> None:
    """The 149 positions of the issue: Mac Hack's moves in the four games, game 4's book
    moves left out."""
    items = spots_1967()
    spots = [x for x in items if isinstance(x, Spot)]
    assert len(spots) == 149 and not [x for x in items if isinstance(x, Note)]
    assert spots[0].label == "game1 1..." and spots[0].board().turn == chess.BLACK
    game4 = [s for s in spots if s.game == "game4"]
    assert game4[0].label == "game4 10."  # after nine book moves
    assert all(s.played in s.board().legal_moves for s in spots)
    assert len([x for x in every_nth(items, 10) if isinstance(x, Spot)]) == 15


def test_position_lines_in_their_forms(tmp_path: Path) -> None:
    path = tmp_path / "lines.txt"
    start = chess.STARTING_FEN
    path.write_text(f"position startpos moves e2e4 e7e5  # UCI's form\n\nstartpos\n"
                    f"{start} moves d4 d5 c4\nfen {start}\n")  # fmt: skip
    spots = spots_lines(path)
    assert [s.label for s in spots if isinstance(s, Spot)] == [
        "line 1 2.", "line 3 1.", "line 4 2...", "line 5 1."]  # fmt: skip
    assert [len(s.moves) for s in spots if isinstance(s, Spot)] == [2, 0, 3, 0]


def test_pgn_games_stop_at_an_underpromotion_or_an_illegal_move_set_up_ones_are_left_out(
    tmp_path: Path,
) -> None:
    path = tmp_path / "games.pgn"
    path.write_text(
        '[Event "a"]\n\n1. h4 g5 2. hxg5 Nf6 3. g6 Ng8 4. g7 Nf6 5. gxh8=N Nd5 *\n\n'
        '[Event "b"]\n[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]\n\n1. O-O *\n\n'
        '[Event "c"]\n\n1. e4 e5 2. Ke3 *\n'
    )
    items = spots_pgn(path)
    games = path.stem
    spots = [x for x in items if isinstance(x, Spot)]
    notes = [x.text for x in items if isinstance(x, Note)]
    assert [s.label for s in spots if s.game == games] == [
        f"{games} {n}" for n in ("1.", "1...", "2.", "2...", "3.", "3...", "4.", "4...", "5.")
    ]
    assert spots[8].played == chess.Move.from_uci("g7h8n")  # (asked before it, not after)
    assert notes[0] == (f"{games}: stops at 5.gxh8=N: the original only ever promotes to a "
                        "queen, so the game cannot be typed into it further")  # fmt: skip
    assert notes[1].startswith(f"{games}#2: left out: it starts from a set-up position")
    assert [s.label for s in spots if s.game == f"{games}#3"] == [f"{games}#3 1.",
                                                                 f"{games}#3 1..."]  # fmt: skip
    assert notes[2].startswith(f"{games}#3: the record cannot be read from move 2 (White)")


def test_settings_are_routed_to_the_programs_that_have_them() -> None:
    assert route_settings(["setd 3", "RULES D", "SETW 15 15 9", "SETC 1", "BOOK OFF"]) == (
        ["SETD 3", "SETW 15 15 9", "SETC 1"], ["RULES D", "BOOK OFF"])  # fmt: skip


# --- the table, on fabricated choices ---------------------------------------------------------
def fabricated_row() -> Row:
    """1. e4, Black to move: ours plays e5, the original Nf6; the original's SMVD values
    are White's, as it prints them."""
    board = chess.Board()
    board.push_uci("e2e4")
    spot = Spot("test 1...", [chess.Move.from_uci("e2e4")], chess.Move.from_uci("e7e5"), "test")

    def root(uci: str, value: int) -> RootMove:
        return RootMove([typed_move(board, chess.Move.from_uci(uci))], value, value, 1.5)

    choice = Choice("BN/KN1-KB3", chess.Move.from_uci("g8f6"), 14.62,
                    [root("e7e5", 32768), root("g8f6", -12), root("d7d5", 32768)])  # fmt: skip
    ours = Pick(chess.Move.from_uci("e7e5"), 21.37, [
        RootLine(chess.Move.from_uci("e7e5"), 644, 20, ["E7E5"]),
        RootLine(chess.Move.from_uci("g8f6"), 600, None, ["G8F6"]),
        RootLine(chess.Move.from_uci("c7c5"), 580, None, ["C7C5"]),
    ])  # fmt: skip
    return Row(spot, ours, original_pick(board, choice))


def test_the_table_row_and_the_trace() -> None:
    row = fabricated_row()
    assert not row.agree and not row.same_roots
    assert format_row(row) == ("test 1...         e5      e5      Nf6       no         21.4"
                               "     14.6")  # fmt: skip
    assert format_trace(row) == [
        "    ours: move plaus value        original: move value",
        "    e5*         644     20        e5             -",
        "    Nf6         600      -        Nf6*          12",
        "    c5          580      -        d5             -",
        "    searched by ours only: c5; by the original only: d5",
    ]


def test_the_summary() -> None:
    row = fabricated_row()
    same = Row(row.spot, Pick(row.original.move, 10.0, row.original.roots), row.original)
    summary = summarize([row, same, same])
    assert summary.line() == ("2 of 3 the same move (67%); the same root moves in 2 (67%); "
                              "median PDP-6 s a move: ours 10.0, the original's 14.6 "
                              "(0.68x)")  # fmt: skip
    assert summary.played_line() == "the game's move: ours 1 of 3 (33%), the original 0 (0%)"
    assert summarize([]).line().startswith("0 of 0 the same move (0%)")


# --- the command at work, with a stand-in for the original -----------------------------------
class StandIn:
    """Answers as the original does, without being it: moves typed in its notation, ``M``
    gives the legal move first in coordinates' order with an SMVD record for each of the
    first three, White's values; it refuses any move to the h-file (to see a problem
    end one game's comparison)."""

    def __init__(self) -> None:
        self.board = chess.Board()
        self.typed: list[str] = []

    def new_game(self) -> None:
        self.board = chess.Board()

    def send(self, line: str) -> str:
        self.typed.append(line)
        return "_\n"

    def command(self, line: str) -> str:
        return self.send(line)

    def push(self, move: chess.Move) -> None:
        if chess.square_file(move.to_square) == 7:
            raise OriginalError(f"it refused {typed_move(self.board, move)}: 'IMP'")
        self.typed.append(typed_move(self.board, move))
        self.board.push(move)

    def think(self) -> Choice:
        moves = sorted(self.board.legal_moves, key=lambda m: m.uci())[:3]
        roots = [RootMove([typed_move(self.board, m)], 32768 if i else 5, 0, 0.1)
                 for i, m in enumerate(moves)]  # fmt: skip
        choice = Choice(typed_move(self.board, moves[0]), moves[0], 12.5, roots, value=5)
        self.board.push(moves[0])
        return choice

    def undo(self) -> None:
        self.board.pop()


def test_compare_runs_the_table_with_a_stand_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stand_ins: list[StandIn] = []

    def boot(image: object, engine: object = None) -> StandIn:
        stand_ins.append(StandIn())
        return stand_ins[-1]

    monkeypatch.setattr(comparemod, "open_original", lambda path: None)
    monkeypatch.setattr(comparemod, "boot_original", boot)
    path = tmp_path / "lines.txt"
    path.write_text("startpos moves e2e4\nstartpos moves e2e4 b8c6\nstartpos moves h2h4 e7e5\n"
                    "startpos moves d2d4\n")  # fmt: skip
    args = ["compare", "--original", "image", "--fen", str(path), "--set", "SETD 2",
            "--set", "BOOK OFF", "--trace"]  # fmt: skip
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output  # (the stand-in's problem on line 3)
    out = result.stdout.splitlines()
    assert out[0] == "settings: SETD 4, SETW 6, SETF 2, SETD 2 in both; ours also BOOK OFF"
    assert out[1] == comparemod.HEADER
    assert out[2] == "-- line 1"
    rows = [x for x in out if x.startswith("line ")]  # (ours's moves are its own business)
    assert [r.split()[:3] for r in rows] == [["line", "1", "1..."], ["line", "2", "2."],
                                             ["line", "4", "1..."]]  # fmt: skip
    assert [r.split()[3:6:2] for r in rows] == [["-", "a5"], ["-", "a3"], ["-", "a5"]]
    assert all(r.endswith(" 12.5") for r in rows)
    at = out.index(rows[0])
    assert out[at + 1] == "    ours: move plaus value        original: move value"
    assert out[at + 2].endswith("a5*           -5")  # (White's 5 for Black: -5)
    assert out[at + 3].endswith("a6             -")
    assert "PROBLEM: line 3 2.: it refused P/KR2-KR4: 'IMP'" in out
    assert re.fullmatch(r"\d of 3 the same move \(\d+%\); the same root moves in 0 \(0%\); "
                        r"median PDP-6 s a move: ours \d+\.\d, the original's 12\.5 "
                        r"\(\d\.\d\dx\)", out[-2])  # fmt: skip
    assert out[-1] == "1 problem(s); 1 position(s) not compared"
    assert "[1/4] line 1" in result.stderr and "[4/4] line 4" in result.stderr
    # A stand-in booted to check the settings, then one for every position, typed the
    # settings, SMVD 1 and the game from its start (line 2 continues line 1, and is
    # typed from the start all the same: the original carries state between searches).
    settings = ["SETD 4", "SETW 6", "SETF 2", "SETD 2", "SMVD 1"]
    assert [x.typed for x in stand_ins] == [
        settings, [*settings, "P/K2-K4"], [*settings, "P/K2-K4", "N/QN1-QB3"], settings,
        [*settings, "P/Q2-Q4"]]  # fmt: skip


# --- the original as an opponent -----------------------------------------------------------
def test_the_opponents_options() -> None:
    assert option_commands({"depth": "3", "Feedover": "0", "CapturePlies": "2"}) == [
        "SETD 3", "SETF 0", "SETC 2"]  # fmt: skip
    for options, message in (({"Hash": "16"}, "no option 'Hash'"),
                             ({"Depth": "0"}, "numbers from 1 to 20"),
                             ({"Widths": "6 x"}, "numbers from 1 to 99"),
                             ({"Depth": "3 4"}, "one number")):  # fmt: skip
        with pytest.raises(ValueError, match=message):
            option_commands(options)


class StandInEngine(OriginalEngine):
    """The opponent with stand-ins for the original: one booted for each game."""

    def __init__(self) -> None:
        self.commands, self.depth, self.id, self.game = ["SETD 2"], None, {"name": "x"}, None
        self.stand_ins: list[StandIn] = []
        self._new_game()

    def _boot(self) -> StandIn:  # type: ignore[override]
        self.stand_ins.append(StandIn())
        return self.stand_ins[-1]


def test_the_opponent_types_on_or_starts_again() -> None:
    """Each play() brings the original to the game: the moves it has are kept, a new game
    or one that does not continue them is typed from the start, into the image booted
    afresh; its value is White's view, its time the PDP-6's."""
    engine = StandInEngine()
    board = chess.Board()
    board.push_uci("e2e4")
    played = engine.play(board, chess.engine.Limit(time=1.0), info=None, game=0)
    assert played.move == chess.Move.from_uci("a7a5")  # the stand-in's first in order
    assert played.info == {"time": 12.5, "score": chess.engine.PovScore(chess.engine.Cp(4),
                                                                        chess.WHITE)}  # fmt: skip
    board.push(played.move)
    board.push_uci("d2d4")
    engine.play(board, chess.engine.Limit(depth=3), info=None, game=0)  # typed on
    assert len(engine.stand_ins) == 1  # (the first game: the boot's own)
    other = chess.Board()
    other.push_uci("e2e4")
    engine.play(other, chess.engine.Limit(), info=None, game=1)  # a new game: a new boot
    other.push_uci("a7a5")
    other.push_uci("c2c4")
    engine.play(other, chess.engine.Limit(), info=None, game=1)  # typed on
    third = chess.Board()
    third.push_uci("g1f3")
    engine.play(third, chess.engine.Limit(), info=None, game=1)  # not the game: from the start
    typed = [s.typed for s in engine.stand_ins]
    assert typed == [
        ["SETD 2", "PSVD 1", "P/K2-K4", "SETD 3", "P/Q2-Q4"],  # (a7a5 it made itself)
        ["SETD 2", "PSVD 1", "SETD 3", "P/K2-K4", "P/QB2-QB4"],
        ["SETD 2", "PSVD 1", "SETD 3", "N/KN1-KB3"],
    ]  # fmt: skip
    with pytest.raises(OriginalError, match="only play a game from the initial position"):
        engine.play(chess.Board("4k3/8/8/8/8/8/8/4K2R w K - 0 1"), chess.engine.Limit(),
                    info=None, game=2)  # fmt: skip
