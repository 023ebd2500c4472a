"""An independent Python implementation of the 1967 static board evaluator (spec
section 4), written from the text of docs/machack.md ("The static board evaluator"),
for checking the MIDAS evaluator's SCORE.  It works on python-chess boards and shares no
code or tables with the program.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

VALUES = {chess.PAWN: 128, chess.KNIGHT: 416, chess.BISHOP: 448, chess.ROOK: 640, chess.QUEEN: 1248}
MULTP = [0, 0, 0, 32, 96, 160, 224, 288, 352]
IMULTP = [0, 16, 32, 64, 128, 192, 256, 320, 384]
OIMULT = [0, 40, 80, 160, 240, 320, 400, 480, 560]
PPV = {2: 8, 3: 12, 4: 24, 5: 52, 6: 112, 7: 236}
M0 = 5281


@dataclass(frozen=True)
class Terms:
    m: int
    r: int
    p: int
    k: int
    c: int

    @property
    def s(self) -> int:
        return self.m + self.r + self.p + self.k + self.c


def material(board: chess.Board, color: chess.Color) -> int:
    """The side's material without the king."""
    return sum(VALUES[p.piece_type] for p in board.piece_map().values()
               if p.color == color and p.piece_type != chess.KING)  # fmt: skip


def root_ratio(root: chess.Board) -> int:
    """PCRAT = floor(W0 * 2^18 / B0), king counted 1."""
    w0 = material(root, chess.WHITE) + 1
    b0 = material(root, chess.BLACK) + 1
    return (w0 << 18) // b0


def ratio_term(board: chess.Board, pcrat: int) -> int:
    w = material(board, chess.WHITE) + 1
    b = material(board, chess.BLACK) + 1
    q = (w << 18) // b
    big_q = (q << 18) // pcrat
    if big_q >= 1 << 35:
        return 0
    t = (big_q * M0 >> 18) - M0
    return t >> 4  # floor division by 16


def own_rank(square: chess.Square, color: chess.Color) -> int:
    """1..8, counted from the side's own first rank."""
    r = chess.square_rank(square) + 1
    return r if color == chess.WHITE else 9 - r


def _piece(board: chess.Board, file: int, rank: int) -> chess.Piece | None:
    """The piece on (file 0-7, rank 0-7), None if empty or off the board."""
    if not (0 <= file <= 7 and 0 <= rank <= 7):
        return None
    return board.piece_at(chess.square(file, rank))


def _is_pawn(piece: chess.Piece | None, color: chess.Color) -> bool:
    return piece is not None and piece.piece_type == chess.PAWN and piece.color == color


def _is_enemy(piece: chess.Piece | None, color: chess.Color) -> bool:
    return piece is not None and piece.color != color


def is_backward(board: chess.Board, square: chess.Square, color: chess.Color) -> bool:
    """The decision list of the doc, for the pawn of ``color`` on ``square``."""
    f, r = chess.square_file(square), chess.square_rank(square)
    fwd = 1 if color == chess.WHITE else -1
    enemy_pawn = not color
    # 1. defended by an own pawn diagonally behind it
    for df in (-1, 1):
        if _is_pawn(_piece(board, f + df, r - fwd), color):
            return False
    # 2./3. defending moves onto the squares D diagonally behind
    available = blocked = False
    for df in (-1, 1):
        dfile, drank = f + df, r - fwd
        if not (0 <= dfile <= 7 and 0 <= drank <= 7):
            continue
        on_d = _piece(board, dfile, drank)
        if _is_pawn(_piece(board, dfile, drank - fwd), color):  # single step onto D
            if _is_enemy(on_d, color):
                blocked = True
            else:
                available = True
        if own_rank(square, color) == 5 and _is_pawn(_piece(board, dfile, drank - 2 * fwd), color):
            passing = _piece(board, dfile, drank - fwd)
            if _is_enemy(passing, color) or _is_enemy(on_d, color):
                blocked = True
            elif any(_is_pawn(_piece(board, dfile + e, drank), enemy_pawn) for e in (-1, 1)):
                pass  # exposed to en passant: does not count
            else:
                available = True
    if available:
        return False
    if blocked:
        return True
    if _is_enemy(_piece(board, f, r + fwd), color):
        return True
    # 4. a blocked own pawn on an adjacent file, behind
    for df in (-1, 1):
        for rr in range(8):
            behind = (rr < r) if color == chess.WHITE else (rr > r)
            if behind and _is_pawn(_piece(board, f + df, rr), color):
                if _is_enemy(_piece(board, f + df, rr + fwd), color):
                    return False
    # 5. own pawns ahead of it (not level) on an adjacent file
    for df in (-1, 1):
        for rr in range(8):
            ahead = (rr > r) if color == chess.WHITE else (rr < r)
            if ahead and _is_pawn(_piece(board, f + df, rr), color):
                return True
    return False


def is_passed(board: chess.Board, square: chess.Square, color: chess.Color) -> bool:
    f, r = chess.square_file(square), chess.square_rank(square)
    for ff in (f - 1, f, f + 1):
        for rr in range(8):
            ahead = rr > r if color == chess.WHITE else rr < r
            if ahead and _is_pawn(_piece(board, ff, rr), not color):
                return False
    return True


def pawn_terms(board: chess.Board, color: chess.Color) -> int:
    """The side's own pawn-structure score: passed-pawn bonuses minus its penalties."""
    score = 0
    pawns = board.pieces(chess.PAWN, color)
    enemy_pawns = board.pieces(chess.PAWN, not color)
    files = [0] * 8
    for sq in pawns:
        files[chess.square_file(sq)] += 1
    enemy_files = [0] * 8
    for sq in enemy_pawns:
        enemy_files[chess.square_file(sq)] += 1
    for f, n in enumerate(files):
        if n == 0:
            continue
        score -= MULTP[n]
        left = files[f - 1] if f > 0 else 0
        right = files[f + 1] if f < 7 else 0
        if left == 0 and right == 0:
            score -= IMULTP[n] if enemy_files[f] else OIMULT[n]
    enemy_heavy = bool(board.pieces(chess.ROOK, not color) or board.pieces(chess.QUEEN, not color))
    for sq in pawns:
        if is_passed(board, sq, color):
            score += PPV.get(own_rank(sq, color), 0)
        if is_backward(board, sq, color):
            open_file = enemy_files[chess.square_file(sq)] == 0
            score -= 20 if (open_file or enemy_heavy) else 12
    return score


def terms(board: chess.Board, root: chess.Board) -> Terms:
    """M, R, P, K, C of ``board`` with ``root`` the top of the tree (for R)."""
    m = material(board, chess.WHITE) - material(board, chess.BLACK)
    r = ratio_term(board, root_ratio(root))
    p = pawn_terms(board, chess.WHITE) - pawn_terms(board, chess.BLACK)
    k = 0
    if board.pieces(chess.QUEEN, chess.WHITE) and board.pieces(chess.QUEEN, chess.BLACK):
        wk, bk = board.king(chess.WHITE), board.king(chess.BLACK)
        assert wk is not None and bk is not None
        k = 8 * own_rank(bk, chess.BLACK) - 8 * own_rank(wk, chess.WHITE)
    centre = [chess.D4, chess.E4, chess.D5, chess.E5]
    white_c = any(_is_pawn(board.piece_at(s), chess.WHITE) for s in centre)
    black_c = any(_is_pawn(board.piece_at(s), chess.BLACK) for s in centre)
    c = 1 if white_c and not black_c else -1 if black_c and not white_c else 0
    return Terms(m, r, p, k, c)
