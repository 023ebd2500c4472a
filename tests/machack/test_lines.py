"""The printouts that walk a line of moves (SMVD's root lines, PSVD's principal
variation) stay within the moves that can be made (issue 32).  A capture-search node
whose value came from the hash table used to leave its line as an earlier node had
left it, and the root's line was then walked into moves that were not there: the
program ran away to location 0 in the middle of SMVD's printout."""

from __future__ import annotations

import re

import chess

from machack.session import Session, is_move_line

from .notation_reference import unique_texts

# The position a new user met (issue 32): SMVD 1 at depth 4, the person plays K-N1.
CRASH_FEN = "rnbqk2r/pp4pp/2p5/1B1ppp2/2P1n1P1/7N/Pb1P1P1P/RN3K1R w kq - 2 12"


def walk(board: chess.Board, texts: list[str]) -> int:
    """How many of the descriptive moves ``texts`` are legal in turn from ``board``."""
    board = board.copy()
    texts = [t.removesuffix("CH") for t in texts if t != "MATE"]
    for n, text in enumerate(texts):
        named = {t: m for m in board.legal_moves for t in unique_texts(board, m)}
        for m in board.legal_moves:
            if board.is_castling(m):
                named["O-O" if chess.square_file(m.to_square) == 6 else "O-O-O"] = m
        if text not in named:
            return n
        board.push(named[text])
    return len(texts)


def test_smvd_lines_after_table_values_are_legal(fresh: Session) -> None:
    fresh.setup(CRASH_FEN)
    for line in ("DEPTH 4", "PB", "SMVD 1", "PSVD 1"):
        fresh.command(line)
    reply = fresh.send("H1G1")
    assert reply.accepted
    assert any(is_move_line(x) for x in reply.after_ack), reply.text
    board = chess.Board(CRASH_FEN)
    board.push_uci("h1g1")
    roots = [x for x in reply.after_ack if " PLAUS " in x]
    assert len(roots) >= 6  # every root move searched is typed
    for line in roots:
        texts = line.split(" PV ", 1)[1].split()
        assert walk(board, texts) == len(texts), line
    pv = next(x for x in reply.after_ack if x.startswith("VALUE "))
    texts = pv.split(" PV ", 1)[1].split()
    assert texts and walk(board, texts) == len(texts), pv
    assert "TIME " in reply.text  # the statistics line: the program finished the move


def test_smvd_2_types_the_root_moves_and_plaus_in_coordinates(fresh: Session) -> None:
    """SMVD 2 (for programs, machack compare): SMVD's records and PLAUS's list name the
    moves in coordinates, each line legal in turn from the root."""
    fen = "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4"
    fresh.setup(fen)
    for line in ("PN", "BOOK OFF", "HASH OFF", "SETD 2", "SMVD 2"):
        fresh.command(line)
    reply = fresh.command("GO")
    roots = [x for x in reply.after_ack if " PLAUS " in x]
    assert len(roots) >= 6
    for line in roots:
        board = chess.Board(fen)
        for text in line.split(" PV ", 1)[1].split():
            board.push_uci(text.lower())  # raises if not a legal move in coordinates
    fresh.setup(fen)
    listed = fresh.command("PLAUS").lines[1:-1]
    board = chess.Board(fen)
    assert len(listed) == board.legal_moves.count()
    named = {re.search(r"\b[A-H][1-8][A-H][1-8][QRBN]?\b", x) for x in listed}
    assert {chess.Move.from_uci(x[0].lower()) for x in named if x} == set(board.legal_moves)
