"""A test-side reading of descriptive notation, written from docs/teletype.md, to check
that the program prints the *shortest* unambiguous form.  It enumerates candidate texts
for a move (pawn files, piece letters, origin and destination squares in short and full
names; no wing designators such as KN, which depend on the program's piece identities)
and says which legal moves each text fits."""

from __future__ import annotations

import chess

# descriptive file name -> python-chess file index (a = 0 ... h = 7)
FULL = {7: "KR", 6: "KN", 5: "KB", 4: "K", 3: "Q", 2: "QB", 1: "QN", 0: "QR"}
SHORT = {7: "R", 6: "N", 5: "B", 4: "K", 3: "Q", 2: "B", 1: "N", 0: "R"}
FILES_OF = {
    "KR": {7}, "KN": {6}, "KB": {5}, "K": {4}, "Q": {3}, "QB": {2}, "QN": {1}, "QR": {0},
    "R": {0, 7}, "N": {1, 6}, "B": {2, 5},
}  # fmt: skip
LETTER = {chess.PAWN: "P", chess.KNIGHT: "N", chess.BISHOP: "B", chess.ROOK: "R",
          chess.QUEEN: "Q", chess.KING: "K"}  # fmt: skip


def rank_of(square: chess.Square, color: chess.Color) -> int:
    r = chess.square_rank(square) + 1
    return r if color == chess.WHITE else 9 - r


def square_names(square: chess.Square, color: chess.Color) -> list[str]:
    f = chess.square_file(square)
    r = str(rank_of(square, color))
    names = [SHORT[f] + r]
    if FULL[f] != SHORT[f]:
        names.append(FULL[f] + r)
    return names


def designators(piece: chess.Piece, square: chess.Square, mover: chess.Color) -> list[tuple]:
    """(text, type, file set or None, square or None) for a piece, shortest first."""
    letter = LETTER[piece.piece_type]
    out: list[tuple] = [(letter, piece.piece_type, None, None)]
    f = chess.square_file(square)
    if piece.piece_type == chess.PAWN:
        out.append((SHORT[f] + "P", chess.PAWN, FILES_OF[SHORT[f]], None))
        if FULL[f] != SHORT[f]:
            out.append((FULL[f] + "P", chess.PAWN, FILES_OF[FULL[f]], None))
    if piece.piece_type != chess.KING:
        for name in square_names(square, mover):
            out.append((f"{letter}/{name}", piece.piece_type, None, square))
    return out


def _square_set(name: str, color: chess.Color) -> set[chess.Square]:
    files = FILES_OF[name[:-1]]
    rank = int(name[-1])
    real = rank if color == chess.WHITE else 9 - rank
    return {chess.square(f, real - 1) for f in files}


def fits(
    board: chess.Board, move: chess.Move, mover_d: tuple, target: tuple, capture: bool
) -> bool:
    """Does ``move`` fit (mover designator, target, X or -) as the docs read it?"""
    color = board.turn
    piece = board.piece_at(move.from_square)
    assert piece is not None
    if board.is_castling(move):
        return False
    _text, ptype, pfiles, psquare = mover_d
    if piece.piece_type != ptype:
        return False
    if pfiles is not None and chess.square_file(move.from_square) not in pfiles:
        return False
    if psquare is not None and move.from_square != psquare:
        return False
    if move.promotion not in (None, target[-1]) and not (
        move.promotion == chess.QUEEN and target[-1] is None
    ):
        return False
    if move.promotion is None and target[-1] is not None:
        return False
    if capture:
        if not board.is_capture(move):
            return False
        victim_sq = move.to_square
        if board.is_en_passant(move):
            victim_sq = chess.square(
                chess.square_file(move.to_square), chess.square_rank(move.from_square)
            )
        victim = board.piece_at(victim_sq)
        assert victim is not None
        _t, vtype, vfiles, vsquare = target[0]
        if victim.piece_type != vtype:
            return False
        if vfiles is not None and chess.square_file(victim_sq) not in vfiles:
            return False
        if vsquare is not None and vsquare not in (move.to_square, victim_sq):
            return False
        return True
    return move.to_square in _square_set(target[0], color)


def unique_texts(board: chess.Board, move: chess.Move) -> set[str]:
    """Every candidate text fitting ``move`` and no other legal move (none for castling);
    promotions carry =X as the program prints them."""
    if board.is_castling(move):
        return set()
    color = board.turn
    piece = board.piece_at(move.from_square)
    assert piece is not None
    promo = move.promotion
    promo_text = f"={LETTER[promo]}" if promo else ""
    movers = designators(piece, move.from_square, color)
    capture = board.is_capture(move)
    if capture:
        victim_sq = move.to_square
        if board.is_en_passant(move):
            victim_sq = chess.square(
                chess.square_file(move.to_square), chess.square_rank(move.from_square)
            )
        victim = board.piece_at(victim_sq)
        assert victim is not None
        targets = [((d,), d[0]) for d in designators(victim, victim_sq, color)]
    else:
        targets = [((name,), name) for name in square_names(move.to_square, color)]
    out = set()
    legal = list(board.legal_moves)
    for m in movers:
        for target, ttext in targets:
            spec = (target[0], promo)
            if [x for x in legal if fits(board, x, m, spec, capture)] == [move]:
                out.add(m[0] + ("X" if capture else "-") + ttext + promo_text)
    return out


def shortest_length(board: chess.Board, move: chess.Move) -> int | None:
    """The length of the shortest text naming ``move`` alone (None for castling)."""
    return min(map(len, unique_texts(board, move)), default=None)
