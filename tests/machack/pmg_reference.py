"""An independent Python reading of Mac Hack VI's plausible move generator (PMG).

Written from machack-original.md (the team's notes on the surviving source), sections
1.3, 2 and 3.1, and the readings listed in ``docs/plausibility.md`` ("Readings where the
sources leave room"), not from ``machack/src/pmg.mid``.  python-chess holds the board and
the legal moves; the attack tables (counts with x-rays), the first-on-a-line attackers
("direction records"), the pins, the square importance, trapped pieces, the exchange
estimate and unblocking are computed here.

``score_moves(board)`` returns, for every legal move, a :class:`Scored` with the terms as
TRACE names them, the plausibility and the flags (the flag to investigate follows the
paper's width extensions, spec 2, where the program departs from the surviving source).
Where neither document decides, the choice is marked ``CHOICE`` in a comment.

The evaluator's pawn definitions (passed, backward) come from ``sbe_reference`` (the
evaluator's independent reference), as the PMG uses "the evaluator's definition".
"""

from __future__ import annotations

from dataclasses import dataclass, field

import chess

from .sbe_reference import is_backward, is_passed

# --- constants (machack-original 2, 3.1), decimal ------------------------------------
VALUE = {chess.PAWN: 128, chess.KNIGHT: 416, chess.BISHOP: 448, chess.ROOK: 640,
         chess.QUEEN: 1248, chess.KING: 1536}  # fmt: skip
BSQVAL, NCSQV, CSQV, NKVLU, OWNSQ = 8, 8, 16, 16, 8
IVLU, WPVLU, FMKING, KKCAS, MBACKP = 512, 256, 32, 128, 32
PPP = {2: 32, 3: 48, 4: 64, 5: 96, 6: 128, 7: 192, 8: 256}
BCPVLU, PTFVLU, ACSPV, MJVLU = 96, 32, 40, 128
OPSQV, OPATV, BRKVLU, APVLU, APDPV = 8, 8, 40, 64, 16
TRADE, TRADE_MARGIN, GMAVLU, TTVLU = 16, 416, 96, 16
CASTLE, BDDMT, BVMNV = 768, -48, 32

ORTHO = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KINGD = ORTHO + DIAG
CENTRE4 = {chess.D4, chess.E4, chess.D5, chess.E5}

FILE_NAMES = ["QR", "QN", "QB", "Q", "K", "KB", "KN", "KR"]  # a..h


def step(sq: int, d: tuple[int, int]) -> int | None:
    f, r = chess.square_file(sq) + d[0], chess.square_rank(sq) + d[1]
    return chess.square(f, r) if 0 <= f <= 7 and 0 <= r <= 7 else None


def first_piece(board: chess.Board, sq: int, d: tuple[int, int]) -> int | None:
    """The first occupied square from sq along d (None at the edge)."""
    t = step(sq, d)
    while t is not None and board.piece_at(t) is None:
        t = step(t, d)
    return t


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


def name_of(board: chess.Board, sq: int) -> str:
    """The identity TRACE would print, read from the wing (CHOICE: FEN positions carry no
    identities, the program falls back to the wing too)."""
    p = board.piece_at(sq)
    f = chess.square_file(sq)
    if p.piece_type == chess.PAWN:
        return FILE_NAMES[f] + "P"
    letter = chess.piece_symbol(p.piece_type).upper()
    if p.piece_type in (chess.QUEEN, chess.KING):
        return letter
    return ("K" if f >= 4 else "Q") + letter


@dataclass
class Scored:
    move: chess.Move
    terms: list[tuple[int, str]] = field(default_factory=list)  # (points, TRACE text)
    plausibility: int = 0
    flags: set[str] = field(default_factory=set)

    def add(self, points: int, text: str) -> None:
        if points:
            self.terms.append((points, text))


class Position:
    """The PMG's view of one position, for the side to move."""

    def __init__(self, board: chess.Board, ply: int | None = None):
        self.board = board
        self.me = board.turn
        self.he = not board.turn
        self.ply = (
            ply if ply is not None else 2 * (board.fullmove_number - 1) + (0 if board.turn else 1)
        )
        self.extra: dict = {chess.WHITE: {}, chess.BLACK: {}}
        self._tables()
        self._pins()
        self._sqval()

    # --- values -----------------------------------------------------------------------
    def value(self, sq: int) -> int:
        """PVALUE: a pawn gains 8 a rank past its second (3.1)."""
        p = self.board.piece_at(sq)
        if p.piece_type == chess.PAWN:
            return 128 + 8 * (own_rank(sq, p.color) - 2)
        return VALUE[p.piece_type]

    def material(self, color: bool) -> int:
        b = self.board
        return sum(VALUE[p.piece_type] for p in b.piece_map().values()
                   if p.color == color and p.piece_type != chess.KING)  # fmt: skip

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

    def attackers(
        self, t: int, color: bool, skip: int | None = None, through: int | None = None
    ) -> list[int]:
        """Squares of the pieces of ``color`` recorded in the direction records of t: the
        first piece on each line (and knights).  ``skip``: a square whose piece is left
        out; ``through``: a square looked through as if empty."""
        b = self.board
        out = []
        for d in ORTHO + DIAG:
            s = step(t, d)
            n = 1
            while s is not None:
                if s == through:
                    s = step(s, d)
                    n += 1
                    continue
                q = b.piece_at(s)
                if q is not None:
                    if q.color == color and s != skip:
                        back = (-d[0], -d[1])
                        if slides(q.piece_type, back):
                            out.append(s)
                        elif n == 1 and q.piece_type == chess.KING:
                            out.append(s)
                        elif (n == 1 and q.piece_type == chess.PAWN and d in DIAG
                              and -d[1] == fwd(color)):  # fmt: skip
                            out.append(s)
                    break
                s = step(s, d)
                n += 1
        for d in KNIGHT:
            s = step(t, d)
            if s is not None and s != skip:
                q = b.piece_at(s)
                if q is not None and q.color == color and q.piece_type == chess.KNIGHT:
                    out.append(s)
        out += [s for s in self.extra[color].get(t, []) if s not in out]
        return out

    def cheapest(
        self,
        t: int,
        color: bool,
        exclude_pinned: bool,
        skip: int | None = None,
        through: int | None = None,
        second: bool = False,
    ) -> int | None:
        """The value of the cheapest (or second cheapest) attacker of t of ``color``."""
        vals = sorted(self.value(s) for s in self.attackers(t, color, skip, through)
                      if not (exclude_pinned and s in self.pinned))  # fmt: skip
        k = 1 if second else 0
        return vals[k] if len(vals) > k else None

    # --- pins (1.3) -----------------------------------------------------------------------
    def _pins(self) -> None:
        b = self.board
        self.pinned: set[int] = set()
        for sq, p in b.piece_map().items():
            if p.piece_type not in (chess.ROOK, chess.BISHOP, chess.QUEEN):
                continue
            for d in ORTHO + DIAG:
                if not slides(p.piece_type, d):
                    continue
                t = first_piece(b, sq, d)
                if t is None:
                    continue
                front = b.piece_at(t)
                if front.color == p.color:
                    continue
                r = first_piece(b, t, d)
                if r is None:
                    continue
                rear = b.piece_at(r)
                if rear.color != front.color or front.piece_type == chess.KING:
                    continue
                if self.count[rear.color][r] == 0 or self.value(r) >= self.value(sq):
                    self.pinned.add(t)

    # --- trapped (2.2) ---------------------------------------------------------------------
    def trapped(self, sq: int) -> bool:
        b = self.board
        p = b.piece_at(sq)
        v = self.value(sq)
        enemy = not p.color
        for m in b.generate_pseudo_legal_moves(chess.BB_SQUARES[sq]):
            if b.is_castling(m):
                continue
            t = m.to_square
            q = b.piece_at(t)
            if q is None:
                if b.is_en_passant(m):
                    return False  # CHOICE: a capture of an undefended... (rare)
                if self.count[enemy][t] == 0:
                    return False
            elif q.color == enemy:
                if self.value(t) >= v or self.count[enemy][t] == 0:
                    return False
        return True

    # --- square importance (2.1) -------------------------------------------------------------
    def en_prise_loss(self, sq: int) -> int:
        """S for our piece on sq (the DFLATA reading: his pinned pieces attack, ours do
        not defend)."""
        me, he = self.me, self.he
        if self.count[he][sq] == 0:
            return 0
        v = self.value(sq)
        a = self.cheapest(sq, he, exclude_pinned=False)
        dd = self.cheapest(sq, me, exclude_pinned=True)
        if self.count[me][sq] == 0 or dd is None:  # undefended: no unpinned defender
            return v
        a = a or 0  # CHOICE: none recorded counts 0
        dd = dd or 0
        if v - a > 0:
            return v - a
        if self.count[he][sq] == 1:
            return 0
        if v - a + dd > 0:
            return v - a + dd
        return 0

    def _sqval(self) -> None:
        b = self.board
        me = self.me
        ek = b.king(self.he)
        self.sqv = [0] * 64
        self.loss = [0] * 64  # the en-prise part under each own piece
        for sq in chess.SQUARES:
            f, r = chess.square_file(sq), chess.square_rank(sq)
            v = BSQVAL
            if 2 <= f <= 5 and 2 <= r <= 5:
                if sq in CENTRE4:
                    enemy_half = r == (4 if me == chess.WHITE else 3)
                    v += CSQV + (4 if enemy_half else -4)
                else:
                    v += NCSQV
            if ek is not None and chess.square_distance(sq, ek) == 1:
                v += NKVLU
            p = b.piece_at(sq)
            if p is not None and p.color == me:
                if p.piece_type not in (chess.KING, chess.QUEEN):
                    v += OWNSQ
                if p.piece_type != chess.KING:  # CHOICE: the king is not "en prise"
                    s = self.en_prise_loss(sq)
                    if s and not self.trapped(sq):
                        s //= 2
                    self.loss[sq] = s
                    v += s
            self.sqv[sq] = v

    # --- a piece's squares -----------------------------------------------------------------
    def reach(self, board: chess.Board, sq: int, ptype: int, color: bool) -> list[int]:
        """Squares a piece of ptype/color standing on sq attacks on ``board`` (the first
        occupied square on a line included, no x-rays)."""
        out = []
        if ptype == chess.PAWN:
            for df in (-1, 1):
                t = step(sq, (df, fwd(color)))
                if t is not None:
                    out.append(t)
        elif ptype == chess.KNIGHT:
            out = [t for d in KNIGHT if (t := step(sq, d)) is not None]
        elif ptype == chess.KING:
            out = [t for d in KINGD if (t := step(sq, d)) is not None]
        else:
            for d in ORTHO + DIAG:
                if not slides(ptype, d):
                    continue
                t = step(sq, d)
                while t is not None:
                    out.append(t)
                    if board.piece_at(t) is not None:
                        break
                    t = step(t, d)
        return out

    # --- attack terms (2.4) ------------------------------------------------------------------
    def attack_terms(
        self,
        ptype: int,
        pvalue: int,
        t: int,
        new: bool,
        sc: Scored,
        board: chess.Board | None = None,
    ) -> tuple[int, int, bool]:
        """Points of the attack terms of an attacker (type ptype, value pvalue) on the
        enemy piece on t; returns (points, forcing attacks, check)."""
        b = board or self.board
        me, he = self.me, self.he
        x = b.piece_at(t)
        if x is None or x.color != he:
            return 0, 0, False
        if x.piece_type == chess.KING:
            return 0, 0, new
        nm = name_of(b, t)
        pts = forcing = 0
        lines: list[tuple[int, str]] = []
        xv = self.value(t)
        if ptype == chess.PAWN and x.piece_type == chess.PAWN:
            lines.append((BRKVLU, f"PAWN BREAK AGAINST {nm}"))
        pawn_by_pawn = x.piece_type == chess.PAWN and self.defended_by_pawn(t, he)
        if t in self.pinned:
            lines.append((APDPV if pawn_by_pawn else APVLU, f"ATTACKS PINNED {nm}"))
        defenders = self.count[he][t]
        ours = self.count[me][t]
        if defenders == 0:
            if x.piece_type != ptype:
                if new:
                    lines.append((xv // 4, f"ATTACKS UNDEFENDED {nm}"))
                    forcing += 1
            elif t not in self.pinned:
                diff = self.material(me) - self.material(he)
                if diff >= TRADE_MARGIN:
                    lines.append((TRADE, f"OFFERS A TRADE OF {nm}"))
                elif diff <= -TRADE_MARGIN:
                    lines.append((-TRADE, f"OFFERS A TRADE OF {nm}"))
        else:
            if xv > pvalue:
                if new:
                    lines.append((min((xv - pvalue) // 2, 256), f"ATTACKS MORE VALUABLE {nm}"))
                    forcing += 1
            elif new and not pawn_by_pawn and ours >= defenders:
                lines.append((GMAVLU, f"SHIFTS THE BALANCE ON {nm}"))
            if defenders <= ours:
                lines.append((TTVLU, f"ADDS AN ATTACKER ON {nm}"))
        for p_, text in lines:
            pts += p_
            if sc is not None:
                sc.add(p_, text)
        return pts, forcing, False

    def defended_by_pawn(self, t: int, color: bool) -> bool:
        for df in (-1, 1):
            s = step(t, (df, -fwd(color)))
            if s is not None:
                q = self.board.piece_at(s)
                if q is not None and q.color == color and q.piece_type == chess.PAWN:
                    return True
        return False

    # --- development --------------------------------------------------------------------------
    def squares_sum(
        self, board: chess.Board, sq: int, ptype: int, zero: int | None
    ) -> tuple[int, list[int]]:
        sqs = self.reach(board, sq, ptype, self.me)
        return sum(0 if s == zero else self.sqv[s] for s in sqs), sqs

    # --- one move ---------------------------------------------------------------------------
    def score(self, move: chess.Move) -> Scored:
        saved = {c: list(v) for c, v in self.count.items()}
        self.extra = {chess.WHITE: {}, chess.BLACK: {}}
        try:
            return self._score(move)
        finally:
            self.count = saved

    def _score(self, move: chess.Move) -> Scored:
        b = self.board
        me, he = self.me, self.he
        sc = Scored(move)
        if b.is_castling(move):
            sc.add(CASTLE, "CASTLES")
            sc.plausibility = CASTLE
            if b.gives_check(move):  # a safe check: investigated (spec 2)
                sc.flags |= {"CHECK", "INVESTIGATE"}
            return sc
        o, d = move.from_square, move.to_square
        p = b.piece_at(o)
        pt = p.piece_type
        pv = self.value(o)
        capture = b.is_capture(move)
        ep = b.is_en_passant(move)
        victim_sq = (d - 8 * fwd(me)) if ep else d
        if capture:
            sc.flags.add("CAPTURE")
        if move.promotion not in (None, chess.QUEEN):
            sc.flags = {"POOR"}  # CHOICE (as the program): 0 and poor, nothing else
            sc.plausibility = 0
            return sc
        after = b.copy(stack=False)
        after.remove_piece_at(o)
        if ep:
            after.remove_piece_at(victim_sq)
        after.set_piece_at(d, chess.Piece(pt, me))  # a promotion is scored as a pawn move
        forcing = 0
        check = False

        # 1. present development
        attacked_o = self.count[he][o] > 0
        early = not attacked_o and (
            (self.ply <= 1 and pt != chess.PAWN)
            or (2 <= self.ply <= 7 and pt in (chess.ROOK, chess.QUEEN, chess.KING))
        )
        sq_o, reach_o = self.squares_sum(b, o, pt, None)
        if early:
            sc.add(-WPVLU, "EARLY MOVE OF THIS PIECE")
        else:
            dev_o = sq_o
            for t in reach_o:
                dev_o += self.attack_terms(pt, pv, t, False, None)[0]
            sc.add(-dev_o, "GIVES UP ITS PRESENT DEVELOPMENT")
            sc.add(self.loss[o], "SAVES ITSELF FROM CAPTURE")
        if pt == chess.KING and o == (chess.E1 if me == chess.WHITE else chess.E8):
            sc.add(-FMKING, "FIRST MOVE OF THE KING")
            if b.has_castling_rights(me):
                sc.add(-KKCAS, "GIVES UP CASTLING")

        # 2. blocking his passed pawn
        behind = step(d, (0, fwd(me)))  # the square from which his pawn would step to d
        if behind is not None:
            q = b.piece_at(behind)
            if (
                q is not None
                and q.color == he
                and q.piece_type == chess.PAWN
                and is_passed(b, behind, he)
            ):
                sc.add(PPP[own_rank(behind, he)], "BLOCKS HIS PASSED PAWN")

        # 3. pawn moves
        if pt == chess.PAWN:
            if is_backward(b, o, me):
                sc.add(MBACKP, "MOVES A BACKWARD PAWN")
            if is_passed(b, o, me):  # where it stands (docs/plausibility.md)
                sc.add(PPP[own_rank(d, me)], "PUSHES A PASSED PAWN")

        # 4. king back
        if pt == chess.KING and self.ply <= 40 and own_rank(d, me) < own_rank(o, me):
            pts = 8 * (own_rank(o, me) - own_rank(d, me))
            if self.ply <= 16:
                pts *= 8
            if b.pieces(chess.QUEEN, he):
                pts *= own_rank(o, me)
            sc.add(pts, "BRINGS THE KING BACK")

        # 5. line blocking
        if b.piece_at(d) is None:
            for dd in ORTHO + DIAG:
                if slides(pt, dd):
                    continue  # the mover's own kind of line
                back = (-dd[0], -dd[1])
                s = first_piece(b, d, back)
                if s is None or s == o:
                    continue
                q = b.piece_at(s)
                if not slides(q.piece_type, dd):
                    continue
                total = 0
                t = step(d, dd)
                while t is not None:
                    if t == o:
                        break  # CHOICE (as the program): the mover's own square ends the walk, 0
                    total += self.sqv[t]
                    if b.piece_at(t) is not None:
                        break
                    t = step(t, dd)
                nm = name_of(b, s)
                if q.color == me:
                    sc.add(-total, f"BLOCKS THE LINE OF {nm}")
                else:
                    sc.add(total, f"BLOCKS THE LINE OF HIS {nm}")

        # 6. initial value
        sc.add(IVLU, "INITIAL VALUE")

        # 7. blocking a centre pawn
        if pt != chess.PAWN and not capture:
            for sq3, sq2 in ((chess.E3, chess.E2), (chess.D3, chess.D2)):
                if me == chess.BLACK:
                    sq3, sq2 = chess.square_mirror(sq3), chess.square_mirror(sq2)
                q = b.piece_at(sq2)
                if d == sq3 and q is not None and q.color == me and q.piece_type == chess.PAWN:
                    sc.add(-BCPVLU, "BLOCKS A CENTRE PAWN")

        # 8. unblocking from o (2.6).  The mover is lifted off o and not yet on d.  A
        # slider that now reaches d, or the piece that ends its new ray, counts there as
        # an attacker (count and recorded piece) until the move is scored.
        lifted = b.copy(stack=False)
        lifted.remove_piece_at(o)

        def adjust(color: bool, t: int, slider: int) -> None:
            self.count[color][t] += 1
            self.extra[color].setdefault(t, []).append(slider)

        for dd in ORTHO + DIAG:
            back = (-dd[0], -dd[1])
            s = first_piece(b, o, back)
            if s is None:
                continue
            q = b.piece_at(s)
            if not slides(q.piece_type, dd) or (capture and s == victim_sq):
                continue  # not a slider stopped on o; or the move takes it
            # d on the slider's line: beyond o (the mover goes on along it) or between
            on_line = beyond = False
            t = step(s, dd)
            while t is not None:
                if t == o:
                    beyond = True
                if t == d:
                    on_line = True
                    break
                t = step(t, dd)
            end_at = None
            if on_line:
                if not beyond:
                    continue  # moving toward the slider: it is blocked still
                if pt != chess.PAWN:
                    if q.color == he:
                        adjust(he, d, s)  # his slider behind the mover reaches d still
                    continue  # CHOICE (the program's): my slider behind gets nothing
                end_at = d  # a pawn lets the slider on as far as d
            nm = name_of(b, s)
            total = 0
            t = step(o, dd)
            while t is not None:
                x = lifted.piece_at(t)
                if t == d or x is not None:
                    adjust(q.color, t, s)
                if t == end_at:
                    if q.color == me:
                        total += self.sqv[t]
                    break
                if x is None:
                    total += self.sqv[t] if q.color == me else -OPSQV
                    t = step(t, dd)
                    continue
                if q.color == me:
                    total += self.sqv[t]
                    if x.color == he:
                        pts, fo, ch = self.attack_terms(
                            q.piece_type, self.value(s), t, True, sc, lifted
                        )
                        forcing += fo
                        check = check or ch
                elif x.color == me:
                    xv = self.value(t)
                    if self.count[he][t] > self.count[me][t]:
                        total -= xv  # outnumbered there now
                    elif xv - self.value(s) > 0:
                        total -= xv - self.value(s)
                    else:
                        total -= OPATV
                break
            if q.color == me:
                sc.add(total, f"UNBLOCKS {nm}")
            else:
                sc.add(total, f"OPENS A LINE FOR HIS {nm}")

        # 9. lining up on his king
        ek = b.king(he)
        if pt in (chess.ROOK, chess.QUEEN):
            if chess.square_rank(d) == chess.square_rank(ek):
                sc.add(PTFVLU, "LINES UP ON HIS KING")
            if chess.square_file(d) == chess.square_file(ek):
                sc.add(PTFVLU, "LINES UP ON HIS KING")
        if pt in (chess.BISHOP, chess.QUEEN):
            fd, rd = chess.square_file(d), chess.square_rank(d)
            fk, rk = chess.square_file(ek), chess.square_rank(ek)
            if fd + rd == fk + rk:
                sc.add(PTFVLU, "LINES UP ON HIS KING")
            if fd - rd == fk - rk:
                sc.add(PTFVLU, "LINES UP ON HIS KING")

        # 10. capture / safety
        unsafe = False
        ours_d = self.count[me][d]
        theirs_d = self.count[he][d]
        if capture:
            vsq = victim_sq
            victim = b.piece_at(vsq)
            vv = self.value(vsq)
            # the victim's squares on the board after the move, o empty (counts 0)
            before_victim = after.copy(stack=False)
            before_victim.set_piece_at(vsq, victim)
            sqs = self.reach(before_victim, vsq, victim.piece_type, he)
            cb = sum(0 if s == o else self.sqv[s] for s in sqs)
            vname = name_of(b, vsq)
            sc.add(cb, f"TAKES THE DEVELOPMENT OF HIS {vname}")
            e_cheap = self.cheapest(d, he, exclude_pinned=True, skip=vsq)
            lmoa = ours_d - 1
            if theirs_d == 0 or e_cheap is None:
                sc.add(vv, f"TAKES UNDEFENDED {vname}")
            elif pv < vv:
                if lmoa <= 0:
                    win = vv - pv
                elif theirs_d == 1:
                    win = min(vv, vv - pv + e_cheap)
                else:
                    win = vv if ours_d > theirs_d else vv - pv
                sc.add(win, "WINS MATERIAL")
                if ours_d >= theirs_d:
                    sc.add(MJVLU, "AS MANY ATTACKERS AS DEFENDERS")
            elif pv == vv:
                if ours_d >= theirs_d:
                    sc.add(MJVLU, "AS MANY ATTACKERS AS DEFENDERS")
            else:
                if forcing > 0:
                    sc.add(vv, f"TAKES UNDEFENDED {vname}")
                elif lmoa <= 0:
                    sc.add(vv - pv, "LOSES MATERIAL")
                    unsafe = True
                else:
                    nxt = self.cheapest(d, me, exclude_pinned=False, skip=o) or 0
                    est = max(e_cheap + vv - pv - nxt, vv - pv)
                    sc.add(est, "EXCHANGE ESTIMATE")
                    if est < -BVMNV:
                        unsafe = True
        else:
            lmoa = ours_d if pt == chess.PAWN else ours_d - 1
            a = self.cheapest(d, he, exclude_pinned=True, skip=o) if self.count[he][d] else None
            if a is not None:
                loss = None
                if lmoa <= 0:
                    loss = pv
                elif a < pv - BVMNV:
                    loss = min(pv, pv - a)
                elif theirs_d == 1:
                    loss = None
                else:
                    mine = self.cheapest(d, me, exclude_pinned=False, skip=o) or 0
                    if a - pv - mine > 0 or theirs_d <= lmoa:
                        loss = None
                    else:
                        loss = min(pv, pv - a)
                if loss is not None:
                    loss = max(0, loss)  # CHOICE (as the program): a "loss" below 0 is 0
                    sc.add(-loss, "GOES WHERE IT CAN BE TAKEN")
                    unsafe = True

        # 11. new development
        sq_d, reach_d = self.squares_sum(after, d, pt, o)
        if not unsafe:
            terms_d = 0
            for t in reach_d:
                pts, _, ch = self.attack_terms(pt, pv, t, True, sc, after)
                terms_d += pts
                check = check or ch
            sc.add(sq_d, "ATTACKS SQUARES")
            if pt in (chess.KING, chess.QUEEN):
                sc.add(-((sq_d + terms_d) // 2), "HALF FOR A KING OR QUEEN")
            if pt == chess.PAWN:
                for t in reach_d:
                    if t in CENTRE4:
                        sc.add(ACSPV, "ATTACKS THE CENTRE")

        # check: the move's own attacks or a discovery, and the new queen's of a promotion
        # (scored as a pawn move, but its check is a check: spec 2, "all safe checks")
        after_full = after.copy(stack=False)
        after_full.turn = he
        if after_full.is_check() or (move.promotion and b.gives_check(move)):
            check = True

        # 12. positional delta
        if sq_d - sq_o <= BDDMT:
            sc.flags.add("POOR")
        # 13. clamp
        total = sum(pp for pp, _ in sc.terms)
        sc.plausibility = max(0, min(4095, total))
        if check:
            sc.flags.add("CHECK")
        if unsafe:
            sc.flags.add("UNSAFE")
        # 14. the paper's width extensions (spec 2, which the program follows over the
        # surviving source's item 14): a safe check; any capture, safe or not, in the
        # first plies (PLAUS and TRACE score at the root, within SETC's default 2).
        if (check and not unsafe) or capture:
            sc.flags.add("INVESTIGATE")
        return sc


def score_moves(board: chess.Board, ply: int | None = None) -> dict[chess.Move, Scored]:
    pos = Position(board, ply)
    return {m: pos.score(m) for m in board.legal_moves}
