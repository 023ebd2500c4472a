"""Robustness: anything typed gets a short complaint; the program never halts, loops or
corrupts its position (the session's instruction budget turns a hang into a failure)."""

from __future__ import annotations

import random

import chess
import pytest

from machack.session import Session

FEN = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
WORDS = [
    "P", "N", "B", "R", "Q", "K", "X", "*", "-", "KR", "QN", "KB", "/", "(", ")", "=", "1",
    "2", "3", "4", "5", "6", "7", "8", "9", "0", "O", "CH", "MATE", "E.P.", "G", "PXP",
    "SETUP", "FEN", "SETW", "SETF", "BD", "PG", "?", "[", "]", " ", "DRAW?", "SCORE",
    "STATS", "MOVES", "BOARD", "E2", "E4", "Z9", "\x07", "\x1b", "\x00", "\x7f", "=", "PSVD",
]  # fmt: skip
# Lines that may be accepted and change the game: commands that move or set up.
CHANGERS = ("NEW", "SETUP", "U", "TAKEBACK", "M", "GO", "PS", "PW", "PB", "RESIGN")


def garbage(rng: random.Random) -> bytes:
    """A random line: raw bytes (parity bits, control characters, rubouts) or a soup of
    the words the program knows."""
    kind = rng.random()
    if kind < 0.4:
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 160)))
        return data.replace(b"\r", b"").replace(b"\n", b"").replace(b"\t", b"")
    sep = "" if kind < 0.7 else " "
    return sep.join(rng.choice(WORDS) for _ in range(rng.randrange(1, 9))).encode("latin-1")


def _run_fuzz(session: Session, lines: int, seed: int) -> int:
    session.setup(FEN)
    session.command("DEPTH 1")
    rng = random.Random(seed)
    refused = 0
    for _ in range(lines):
        line = garbage(rng)
        reply = session.send(line)  # raises if the program hangs or halts
        if not reply.accepted:
            refused += 1
            continue
        # An accepted line was a real command or move (e.g. a rubout left "M").
        session.setup(FEN)
        session.command("DEPTH 1")
    assert session.fen() == FEN
    board = chess.Board(FEN)
    assert sorted(session.moves()) == sorted(m.uci().upper() for m in board.legal_moves)
    return refused


def test_fuzz_1000_lines(session: Session) -> None:
    refused = _run_fuzz(session, 1000, seed=7)
    assert refused >= 900  # nearly all garbage is refused


@pytest.mark.slow
def test_fuzz_10000_lines(session: Session) -> None:
    refused = _run_fuzz(session, 10_000, seed=1967)
    assert refused >= 9000


def test_position_unchanged_by_refused_lines(session: Session) -> None:
    """Every refused line leaves the position exactly as it was."""
    session.setup(FEN)
    rng = random.Random(11)
    for _ in range(300):
        line = garbage(rng)
        if not session.send(line).accepted:
            assert session.fen() == FEN
        else:
            session.setup(FEN)


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        ("FOO", "??"),
        ("P-K5", "IMP"),
        ("N-B3", "AMBIGUOUS"),
        ("NXP", "IMP"),
        ("SETUP 8/8/8", "BAD FEN"),
        ("SETUP rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 junk", "BAD FEN"),
        ("SETUP 8/8/8/8/8/8/8/8 w - - 0 1", "BAD FEN"),
        ("PERFT", "??"),
        ("PERFT 99", "??"),
        ("DEPTH 0", "??"),
        ("FEN X", "??"),
        ("Z" * 200, "LINE TOO LONG"),
        ("\x01\x02", "??"),
    ],
)
def test_complaints(session: Session, line: str, reply: str) -> None:
    session.command("NEW")
    before = session.fen()
    got = session.send(line)
    assert not got.accepted
    assert got.lines == [reply]
    assert session.fen() == before


def test_illegal_move_leaves_king_in_check(session: Session) -> None:
    session.setup("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")  # Ke1, the rook on e2 gives check
    assert session.send("K-Q2").lines == ["ILLEGAL"]  # d2 is attacked by the rook
    assert session.send("K-K2").accepted  # taking the rook is fine
