"""Descriptive notation: the forms of the 1967 scores and of the original's operating
sheet are read as the right move, and every move the program prints reads back as that
same move (the printer is built on the reader, in MIDAS)."""

from __future__ import annotations

import random

import chess
import pytest

from machack.session import Session


def last_text(session: Session) -> str:
    """The text PG keeps for the last move of the game.  PG's columns: the move number
    in 3, a space, White's move in 12, Black's move."""
    line = session.command("PG").lines[-2]
    black = line[16:].strip()
    return black if black else line[4:16].strip()


@pytest.mark.parametrize("seed", range(6))
def test_printed_moves_read_back(session: Session, seed: int) -> None:
    """Random games: each move typed in coordinates, printed by the program in
    descriptive notation, taken back and typed again as printed: same position."""
    rng = random.Random(seed)
    board = chess.Board()
    session.command("NEW")
    for _ in range(70):
        legal = sorted(board.legal_moves, key=lambda m: m.uci())
        if not legal:
            break
        move = rng.choice(legal)
        session.command(move.uci().upper())
        board.push(move)
        text = last_text(session)
        session.command("U")
        reply = session.send(text)
        assert reply.accepted, (board.fen(), text, reply.lines)
        assert session.fen() == board.fen(), text


def _play(session: Session, fen: str, typed: str) -> str:
    session.setup(fen)
    reply = session.send(typed)
    assert reply.accepted, reply.lines
    return session.fen()


def _after(fen: str, uci: str) -> str:
    board = chess.Board(fen)
    board.push_uci(uci)
    return board.fen()


RUY = "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4"


@pytest.mark.parametrize(
    ("fen", "typed", "uci"),
    [
        (chess.STARTING_FEN, "P-K4", "e2e4"),
        (chess.STARTING_FEN, "P-QB4", "c2c4"),
        (chess.STARTING_FEN, "N-KB3", "g1f3"),
        (chess.STARTING_FEN, "KN-B3", "g1f3"),
        (chess.STARTING_FEN, "N(KN1)-B3", "g1f3"),
        (chess.STARTING_FEN, "N/QN1-B3", "b1c3"),
        (chess.STARTING_FEN, "P K4", "e2e4"),
        (chess.STARTING_FEN, "1. P-K4", "e2e4"),
        (chess.STARTING_FEN, "p-k4", "e2e4"),
        (chess.STARTING_FEN, "E2E4", "e2e4"),
        (RUY, "BXN", "b5c6"),
        (RUY, "B*N", "b5c6"),
        (RUY, "BXNCH", "b5c6"),
        (RUY, "BXQN", "b5c6"),
        (RUY, "B/N5XN/B6", "b5c6"),
        (RUY, "O-O", "e1g1"),
        # 4...QPXB of game 4
        ("r1bqkbnr/1ppp1ppp/p1B5/4p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 0 4", "QPXB", "d7c6"),
        # PXQP: the pawn takes the pawn on the queen's file (game 4, 33 W)
        ("8/2p5/8/3p4/2P5/8/8/4K2k w - - 0 1", "PXQP", "c4d5"),
        # QXKNPCH (game 4, 48...Q-K6 ... QXKNPCH)
        ("8/8/8/8/K7/5kPq/8/8 b - - 0 1", "QXKNPCH", "h3g3"),
        # QXP/Q6 (game 3, 12 W): the queen takes the pawn on Q6
        ("r1bqk2r/5p1p/p1np1npb/4p3/Pp2P3/2NQ1NB1/1PP2PPP/1K1R1B1R w kq - 0 12", "QXP/Q6", "d3d6"),
        # R/K2-Q2 (game 2, 23 W)
        ("1r3rk1/p5pp/2p2p2/4p3/1Pb1P3/P4N2/2P1RPPP/3R2K1 w - - 3 23", "R/K2-Q2", "e2d2"),
        # KR-K1: the king's rook by identity after O-O
        ("r4rk1/8/8/8/8/8/8/R4RK1 w - - 0 1", "KR-K1", "f1e1"),
        ("r4rk1/8/8/8/8/8/8/R4RK1 w - - 0 1", "QR-K1", "a1e1"),
        # promotions
        ("8/5P2/8/8/8/8/k7/4K3 w - - 0 1", "P-B8=Q", "f7f8q"),
        ("8/5P2/8/8/8/8/k7/4K3 w - - 0 1", "P-B8", "f7f8q"),
        ("8/5P2/8/8/8/8/k7/4K3 w - - 0 1", "P-B8=N", "f7f8n"),
        ("8/5P2/8/8/8/8/k7/4K3 w - - 0 1", "P-B8(R)", "f7f8r"),
        ("8/5P2/8/8/8/8/k7/4K3 w - - 0 1", "P-KB8=B", "f7f8b"),
        ("4k3/8/8/8/8/8/3p4/K7 b - - 0 1", "P-Q8=Q", "d2d1q"),
        # en passant: PXP, PXP E.P., PXG (the ghost)
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "PXP", "e5d6"),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "PXP E.P.", "e5d6"),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "PXG", "e5d6"),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "PXQP", "e5d6"),
        # castling long; MATE ignored
        ("r3k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "O-O-O", "e1c1"),
        ("r3k3/8/8/8/8/8/8/R3K3 b q - 0 1", "O-O-O", "e8c8"),
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "R-R8 MATE", "a1a8"),
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "R-R8CH", "a1a8"),
    ],
)
def test_typed_forms(session: Session, fen: str, typed: str, uci: str) -> None:
    assert _play(session, fen, typed) == _after(fen, uci)


@pytest.mark.parametrize(
    ("fen", "typed", "reply"),
    [
        (chess.STARTING_FEN, "N-B3", "AMBIGUOUS"),
        (chess.STARTING_FEN, "P-K5", "IMP"),
        (chess.STARTING_FEN, "Q-K2", "IMP"),
        (chess.STARTING_FEN, "O-O", "IMP"),
        ("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "K-B2", "ILLEGAL"),
        ("4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1", "N-K4", "ILLEGAL"),
        ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "R-R2", "AMBIGUOUS"),
        ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "R-K1", "IMP"),
    ],
)
def test_refused_forms(session: Session, fen: str, typed: str, reply: str) -> None:
    session.setup(fen)
    got = session.send(typed)
    assert got.lines == [reply]
    assert session.fen() == chess.Board(fen).fen()


@pytest.mark.parametrize(
    ("fen", "uci", "printed"),
    [
        (chess.STARTING_FEN, "e2e4", "P-K4"),
        (chess.STARTING_FEN, "g1f3", "N-KB3"),
        (chess.STARTING_FEN, "b1c3", "N-QB3"),
        (RUY, "b5c6", "BXN"),
        (RUY, "e1g1", "O-O"),
        ("r3k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "O-O-O"),
        ("8/5P2/8/8/8/8/k7/4K3 w - - 0 1", "f7f8q", "P-B8=Q"),
        ("8/5P2/8/8/8/8/k7/4K3 w - - 0 1", "f7f8n", "P-B8=N"),
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "R-R8 MATE"),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "R-R8CH"),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "PXP"),
        ("r4rk1/8/8/8/8/8/8/R4RK1 w - - 0 1", "f1e1", "KR-K1"),
    ],
)
def test_printed_forms(session: Session, fen: str, uci: str, printed: str) -> None:
    session.setup(fen)
    session.command(uci.upper())
    assert last_text(session) == printed


@pytest.mark.parametrize("seed", range(3))
def test_printed_moves_are_shortest(session: Session, seed: int) -> None:
    """No candidate text shorter than the program's (in the reference family of
    notation_reference.py) fits the move alone."""
    from .notation_reference import shortest_length

    rng = random.Random(100 + seed)
    board = chess.Board()
    session.command("NEW")
    for _ in range(60):
        legal = sorted(board.legal_moves, key=lambda m: m.uci())
        if not legal:
            break
        move = rng.choice(legal)
        want = shortest_length(board, move)
        session.command(move.uci().upper())
        text = last_text(session).removesuffix(" MATE").removesuffix("CH")
        if want is not None:
            assert len(text) <= want, (board.fen(), move.uci(), text, want)
        board.push(move)
