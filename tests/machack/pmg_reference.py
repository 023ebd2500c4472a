"""The PMG's attack counts and piece values, read independently for the search reference.

``search_reference`` (the Greenblatt search's reference) judges the capture search's
candidates with them: :class:`Position` holds each side's attack count on every square,
x-rays included (machack-original 1.3, an own slider behind an own slider on its line, a
bishop or queen behind its own pawn one square beyond it), and the PMG's piece values
(3.1, a pawn gaining 8 a rank past its second).  Written from the notes, not from
``machack/src/pmg.mid``; python-chess holds the board.  (The plausible move generator
itself is compared with ``original_pmg``, the model of the surviving program's.)
"""

from __future__ import annotations

import chess

VALUE = {chess.PAWN: 128, chess.KNIGHT: 416, chess.BISHOP: 448, chess.ROOK: 640,
         chess.QUEEN: 1248, chess.KING: 1536}  # fmt: skip
ORTHO = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KINGD = ORTHO + DIAG


def step(sq: int, d: tuple[int, int]) -> int | None:
    f, r = chess.square_file(sq) + d[0], chess.square_rank(sq) + d[1]
    return chess.square(f, r) if 0 <= f <= 7 and 0 <= r <= 7 else None


def own_rank(sq: int, color: bool) -> int:
    r = chess.square_rank(sq) + 1
    return r if color == chess.WHITE else 9 - r


def fwd(color: bool) -> int:
    return 1 if color == chess.WHITE else -1


def slides(ptype: int, d: tuple[int, int]) -> bool:
    """Does a piece of this type move along direction d as a slider?"""
    if d in ORTHO:
        return ptype in (chess.ROOK, chess.QUEEN)
    return ptype in (chess.BISHOP, chess.QUEEN)


class Position:
    """The attack counts and the piece values of one position."""

    def __init__(self, board: chess.Board):
        self.board = board
        self._tables()

    def value(self, sq: int) -> int:
        """PVALUE: a pawn gains 8 a rank past its second (3.1)."""
        p = self.board.piece_at(sq)
        if p.piece_type == chess.PAWN:
            return 128 + 8 * (own_rank(sq, p.color) - 2)
        return VALUE[p.piece_type]

    # --- attack tables (1.3) -------------------------------------------------------------
    def _tables(self) -> None:
        b = self.board
        self.count = {chess.WHITE: [0] * 64, chess.BLACK: [0] * 64}
        for sq, p in b.piece_map().items():
            c = p.color
            cnt = self.count[c]
            if p.piece_type == chess.PAWN:
                for df in (-1, 1):
                    t = step(sq, (df, fwd(c)))
                    if t is not None:
                        cnt[t] += 1
            elif p.piece_type == chess.KNIGHT:
                for d in KNIGHT:
                    t = step(sq, d)
                    if t is not None:
                        cnt[t] += 1
            elif p.piece_type == chess.KING:
                for d in KINGD:
                    t = step(sq, d)
                    if t is not None:
                        cnt[t] += 1
            else:
                for d in ORTHO + DIAG:
                    if not slides(p.piece_type, d):
                        continue
                    t = step(sq, d)
                    while t is not None:
                        cnt[t] += 1
                        q = b.piece_at(t)
                        if q is None:
                            t = step(t, d)
                            continue
                        if q.color == c and slides(q.piece_type, d):
                            # x-ray: R/Q behind own R/Q on a line, B/Q behind own B/Q on a
                            # diagonal (1.3); CHOICE: one level, counted on to the next
                            # piece (included), no further x-ray from there
                            t = step(t, d)
                            while t is not None:
                                cnt[t] += 1
                                if b.piece_at(t) is not None:
                                    break
                                t = step(t, d)
                            break
                        if (q.color == c and q.piece_type == chess.PAWN and d in DIAG
                                and d[1] == fwd(c)):  # fmt: skip
                            beyond = step(t, d)  # behind its own pawn: one square beyond
                            if beyond is not None:
                                cnt[beyond] += 1
                        break
