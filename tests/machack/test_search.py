"""The search: mates in 1 and 2 and 2-ply material wins from a small committed set
(`data/tactics.epd`), BELL stops the thinking, and whole games end in legal results."""

from __future__ import annotations

import random
from pathlib import Path

import chess
import pytest

from machack.session import Session

DATA = Path(__file__).parent / "data" / "tactics.epd"


def tactics() -> list[tuple[str, str, list[str]]]:
    out = []
    for line in DATA.read_text().splitlines():
        if not line.strip():
            continue
        board, ops = chess.Board.from_epd(line)
        out.append((str(ops["id"]), board.fen(), [board.san(m) for m in ops["bm"]]))
    return out


# The plausible move generator puts a quiet king move in a bare endgame far down its
# list (a king's new development counts half), so the selective search does not see
# these mates at depth 3; the original program had the same blind spot.
SELECTIVE_BLIND = {"mate2 quiet king move", "mate2 black quiet king move"}


def _tactics_cases() -> list[object]:
    cases = []
    for name, fen, best in tactics():
        for search in ("greenblatt", "full"):
            marks = []
            if search == "greenblatt" and name in SELECTIVE_BLIND:
                marks.append(pytest.mark.xfail(strict=True, reason="a quiet king move"))
            cases.append(pytest.param(search, name, fen, best, marks=marks,
                                      id=f"{search}-{name}"))  # fmt: skip
    return cases


@pytest.mark.parametrize(("search", "name", "fen", "best"), _tactics_cases())
def test_tactics(session: Session, search: str, name: str, fen: str, best: list[str]) -> None:
    """Both searches find the mates and the material wins of the set at depth 3."""
    session.command(f"FULLW {int(search == 'full')}")
    board = chess.Board(fen)
    targets = {}
    for san in best:
        b = board.copy()
        b.push_san(san)
        targets[b.fen()] = san
    session.setup(fen)
    session.command("DEPTH 3")
    reply = session.command("GO")
    assert len(reply.after_ack) >= 1
    assert session.fen() in targets, (reply.after_ack, targets)
    after = chess.Board(session.fen())
    if after.is_checkmate():
        assert reply.after_ack[0].endswith(" MATE")
        assert any(line.startswith("CHECKMATE") for line in reply.after_ack)
    session.command("FULLW 0")


def test_move_line_format(session: Session) -> None:
    session.command("NEW")
    session.command("DEPTH 2")
    reply = session.command("GO")
    assert reply.after_ack[0].startswith("1. ")
    reply = session.command("GO")
    assert reply.after_ack[0].startswith("1. ... ")


def test_bell_stops_thinking(session: Session) -> None:
    """A BELL typed during the search makes it answer QUIT, make no move, enter PN."""
    session.command("NEW")
    session.command("BOOK OFF")  # a search, not the book's move
    session.command("DEPTH 12")
    session.type("GO\r")
    session.run_for(2_000_000)  # well into the search
    session.type("\x07")
    out = session.run_until_idle(budget=50_000_000)
    assert "QUIT" in out.split("\n")
    assert session.fen() == chess.STARTING_FEN
    session.command("DEPTH 2")


def test_stats_after_a_move(session: Session) -> None:
    session.command("NEW")
    session.command("BOOK OFF")
    session.command("DEPTH 2")
    session.command("GO")
    line = session.command("STATS").first("TIME ")
    assert line is not None
    words = line.split()
    assert words[0] == "TIME" and words[2] == "SEC" and words[3] == "NODES"
    assert int(words[4]) > 20 and int(words[6]) > 10  # (17 static values at depth 2)


def test_repetition_is_announced(session: Session) -> None:
    session.command("NEW")
    moves = ["N-KB3", "N-KB3", "N-N1", "N-N1", "N-KB3", "N-KB3", "N-N1"]
    for move in moves:
        assert session.command(move).after_ack == []
    reply = session.command("N-N1")  # the initial position for the third time
    assert "DRAW BY REPETITION 1/2-1/2" in reply.after_ack


def test_fifty_move_rule_is_announced(session: Session) -> None:
    session.setup("4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    reply = session.command("R-R2")
    assert "DRAW BY FIFTY MOVE RULE 1/2-1/2" in reply.after_ack


def test_stalemate_is_announced(session: Session) -> None:
    session.setup("k7/8/8/1Q6/8/8/8/4K3 w - - 0 1")
    reply = session.command("Q-N6")
    assert "STALEMATE 1/2-1/2" in reply.after_ack


def test_search_avoids_draw_by_repetition_when_winning(session: Session) -> None:
    """Repeated positions score 0 inside the search: a side a queen up does not repeat."""
    session.setup("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1")
    session.command("DEPTH 3")
    reply = session.command("GO")
    assert not any("DRAW" in line for line in reply.after_ack)


def _game_is_legal(session: Session) -> chess.Board:
    """Take the whole game back with U, collecting each position, then check with
    python-chess that each position follows from the one before by a legal move."""
    fens = [session.fen()]
    while session.send("U").accepted:
        fens.append(session.fen())
    fens.reverse()
    board = chess.Board(fens[0])
    for fen in fens[1:]:
        for move in board.legal_moves:
            board.push(move)
            if board.fen() == fen:
                break
            board.pop()
        else:
            raise AssertionError(f"no legal move leads from {board.fen()} to {fen}")
    return board


def _result_ok(board: chess.Board, lines: list[str]) -> None:
    result = [x for x in lines if "1/2-1/2" in x or "1-0" in x or "0-1" in x]
    assert result, lines[-5:]
    text = result[-1]
    if text.startswith("CHECKMATE"):
        assert board.is_checkmate()
    elif text.startswith("STALEMATE"):
        assert board.is_stalemate()
    elif text.startswith("DRAW BY FIFTY"):
        assert board.halfmove_clock >= 100
    elif text.startswith("DRAW BY REPETITION"):
        assert board.is_repetition(3)
    else:
        raise AssertionError(text)


@pytest.mark.slow
def test_game_against_itself(session: Session) -> None:
    """PS: the machine plays both sides to the end of the game at depth 2."""
    session.setup("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K2R w K - 0 1")
    session.command("DEPTH 2")
    reply = session.send("PS", budget=6_000_000_000)
    lines = reply.lines
    board = _game_is_legal(session)
    _result_ok(board, lines)


@pytest.mark.slow
def test_game_against_random_play(session: Session) -> None:
    """The machine (White, depth 2) against a player choosing at random among the
    legal moves the program lists; the game must end in a legal result."""
    rng = random.Random(5)
    session.command("NEW")
    session.command("DEPTH 2")
    reply = session.command("PW")  # the machine moves at once
    lines = list(reply.lines)
    for _ in range(300):
        if any("1-0" in x or "0-1" in x or "1/2-1/2" in x for x in lines):
            break
        move = rng.choice(session.moves())
        reply = session.command(move)
        lines.extend(reply.lines)
    session.command("PN")
    board = _game_is_legal(session)
    _result_ok(board, lines)


def test_bench_targets(session: Session) -> None:
    """Legal move generation in middlegame positions within 10 ms of PDP-6 time."""
    from machack.bench import MIDDLEGAMES, time_generator

    for _name, fen in MIDDLEGAMES:
        timing = time_generator(session, fen)
        assert timing.moves == chess.Board(fen).legal_moves.count()
        assert timing.emulated_us <= 10_000
    assert session.fen() == chess.Board(MIDDLEGAMES[-1][1]).fen()  # state untouched
    assert session.command("PERFT 1").first("PERFT") == "PERFT 1 = 48"
