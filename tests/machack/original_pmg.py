"""A Python model of the surviving original's plausible move generator (C197, as
machack-audit.md and machack-original.md describe it, corrected where the image's own
root plausibilities disagree: tests/data/compare/original_*.json).  Mailbox as the
original: square = 10 * row + column, row 2 rank 1, column 1 the KR file."""

from __future__ import annotations

from dataclasses import dataclass, field

import chess

P, N, B, R, Q, K = 0, 1, 2, 3, 4, 5  # the original's type ids
CODE = {P: 6, N: 5, B: 4, R: 3, Q: 2, K: 1}
RVAL = {P: 128, N: 416, B: 448, R: 640, Q: 1248, K: 1536}
PY2T = {
    chess.PAWN: P,
    chess.KNIGHT: N,
    chess.BISHOP: B,
    chess.ROOK: R,
    chess.QUEEN: Q,
    chess.KING: K,
}
ORTH = [-1, 1, 10, -10]  # rook rays in the original's order (RDT)
DIAGS = [9, 11, -9, -11]  # bishop rays (BDT)
KNIGHT = [21, 19, -21, -19, 12, 8, -12, -8]
KINGS = [1, 11, 10, 9, -1, -11, -10, -9]
OFF = -1
PASSED_BY_NUMBER = True  # the enemy pawns asked are those started beside its own start
THROUGH_ORIGIN = True  # defenders behind a pushed pawn's origin count (AFLATA)


def sq_of(s: chess.Square) -> int:
    return (chess.square_rank(s) + 2) * 10 + (8 - chess.square_file(s))


def chess_sq(a: int) -> chess.Square:
    row, col = divmod(a, 10)
    return chess.square(8 - col, row - 2)


def on_board(a: int) -> bool:
    row, col = divmod(a, 10)
    return 2 <= row <= 9 and 1 <= col <= 8


def rank_of(a: int, white: bool) -> int:
    r = a // 10 - 1
    return r if white else 9 - r


def slides_along(t: int, d: int) -> bool:
    if d in (1, -1, 10, -10):
        return t in (R, Q)
    return t in (B, Q)


@dataclass
class Piece:
    n: int
    t: int
    white: bool
    sq: int
    nmoves: int = 0
    pv: int = 0  # PVALUE
    rv: int = 0  # RPVAL


class Game:
    """The position after a game's moves, with the original's piece numbers."""

    def __init__(self, moves: list[chess.Move]):
        self.board = chess.Board()
        order = [chess.square(f, 1) for f in range(7, -1, -1)] + [
            chess.square(f, 0) for f in range(7, -1, -1)
        ]
        self.pieces: dict[int, Piece] = {}
        for i, s in enumerate(order):
            for white, n, sq in ((True, i + 1, s), (False, i + 17, chess.square_mirror(s))):
                t = PY2T[self.board.piece_type_at(sq)]
                self.pieces[n] = Piece(n, t, white, sq_of(sq), 0, RVAL[t], RVAL[t])
        self.at: dict[int, int] = {p.sq: p.n for p in self.pieces.values()}
        self.gone_nmoves: dict[int, int] = {}  # NMOVES of the captured pieces (kept)
        # Black's QR (32) pinned at any position of the game stays pinned: the original
        # forgets every pin but its own (RULES D keeps it; tables built after every move)
        self.pin32 = False
        for m in moves:
            self.push(m)

    def push(self, m: chess.Move) -> None:
        b = self.board
        o, d = sq_of(m.from_square), sq_of(m.to_square)
        n = self.at.pop(o)
        p = self.pieces[n]
        if b.is_en_passant(m):
            v = d - 10 if p.white else d + 10
            self._capture(self.at.pop(v))
        elif d in self.at:
            self._capture(self.at.pop(d))
        if b.is_castling(m):
            rank_row = o // 10
            if chess.square_file(m.to_square) == 6:  # O-O: rook h -> f
                rf, rt = rank_row * 10 + 1, rank_row * 10 + 3
            else:
                rf, rt = rank_row * 10 + 8, rank_row * 10 + 5
            rn = self.at.pop(rf)
            self.at[rt] = rn
            self.pieces[rn].sq = rt
        if p.t == P:
            step = abs(d - o)
            p.pv += 16 if step == 20 else 8 if step in (10,) else 0
            if step in (9, 11):
                p.pv += 8
        if m.promotion:
            p.t = Q
            p.pv = p.rv = RVAL[Q]
        p.sq = d
        p.nmoves += 1
        self.at[d] = n
        b.push(m)
        self.pin32 = self.pin32 or 32 in Tables(self).pinned

    def _capture(self, n: int) -> None:
        self.gone_nmoves[n] = self.pieces.pop(n).nmoves

    @property
    def ply(self) -> int:
        return len(self.board.move_stack)


# ----------------------------------------------------------------------------------------
class Tables:
    """CAT: the attack words, direction records, blocking records, pins, pawn flags."""

    def __init__(self, g: Game):
        self.g = g
        self.bd = {}
        for a in range(120):
            self.bd[a] = 0 if on_board(a) else OFF
        for p in g.pieces.values():
            self.bd[p.sq] = p.n
        self.cnt = {True: [0] * 120, False: [0] * 120}
        self.code = {True: [0] * 120, False: [0] * 120}
        self.direct = {True: [[] for _ in range(120)], False: [[] for _ in range(120)]}
        self.xray = {True: [[] for _ in range(120)], False: [[] for _ in range(120)]}
        self.blk = [[] for _ in range(120)]  # (slider n, direction from slider)
        self.pincands = []
        for n in sorted(g.pieces):
            self._mark(g.pieces[n])
        self.pinned = {}
        for front, pinner, rear in self.pincands:
            if isinstance(rear, tuple):
                if self.cnt[False][rear[1]] == 0:
                    self.pinned[front] = pinner
                continue
            pp, rp = g.pieces[pinner], g.pieces[rear]
            if self.cnt[rp.white][rp.sq] == 0 or rp.pv >= pp.pv:
                self.pinned[front] = pinner
        if g.pin32 and 32 in g.pieces:
            self.pinned.setdefault(32, 0)

    def piece(self, a: int) -> Piece | None:
        n = self.bd.get(a, OFF)
        return self.g.pieces[n] if n not in (0, OFF) else None

    def _hit(self, p: Piece, a: int, direct: bool, key) -> None:
        c = p.white
        self.cnt[c][a] += 1
        self.code[c][a] += CODE[p.t]
        if direct:
            self.direct[c][a].append((p.n, key))
        else:
            self.xray[c][a].append((p.n, key))

    def _mark(self, p: Piece) -> None:
        a0 = p.sq
        if p.t == P:
            for d in (9, 11) if p.white else (-9, -11):
                if self.bd.get(a0 + d, OFF) != OFF:
                    self._hit(p, a0 + d, True, d)
                elif 0 <= a0 + d < 120:
                    self.cnt[p.white][a0 + d] += OFFMARK
            return
        if p.t in (N, K):
            for d in KNIGHT if p.t == N else KINGS:
                if self.bd.get(a0 + d, OFF) != OFF:
                    self._hit(p, a0 + d, True, d)
                elif 0 <= a0 + d < 120:
                    self.cnt[p.white][a0 + d] += OFFMARK
            return
        dirs = ORTH if p.t == R else DIAGS if p.t == B else ORTH + DIAGS
        for d in dirs:
            a = a0 + d
            while self.bd[a] == 0:
                self._hit(p, a, True, d)
                a += d
            if self.bd[a] == OFF:
                self.cnt[p.white][a] += OFFMARK
                continue
            self._hit(p, a, True, d)
            q = self.piece(a)
            if q.white == p.white:
                if slides_along(q.t, d):  # x-ray through own same-line slider
                    b = a + d
                    while True:
                        while self.bd[b] == 0:
                            self._hit(p, b, False, d)
                            b += d
                        if self.bd[b] == OFF:
                            break
                        self._hit(p, b, False, d)
                        r = self.piece(b)
                        if XRAY_CHAIN and r.white == p.white and slides_along(r.t, d):
                            b += d
                            continue
                        break
                    continue
                self.blk[a].append((p.n, d))
                if q.t == P and d in DIAGS and ((d > 0) == q.white):
                    self._pawn_xray(p, a, d)
                continue
            self.blk[a].append((p.n, d))
            if XP_COLOR == "any" and q.t == P and d in DIAGS and ((d > 0) == p.white):
                self._pawn_xray(p, a, d)
            if q.t != K:
                b = a + d
                while self.bd[b] == 0:
                    b += d
                if self.bd[b] != OFF:
                    r = self.piece(b)
                    if r.white == q.white:
                        self.pincands.append((q.n, p.n, r.n))
                elif d in EDGE_PINS and not q.white:
                    # the edge's board word (-1) has the sign bit: it reads as a black
                    # piece behind a black piece a white slider hits
                    self.pincands.append((q.n, p.n, ("edge", b)))

    def _pawn_xray(self, p, a, d):
        b = a + d
        while self.bd[b] != OFF:
            self._hit(p, b, False, d)
            if XP_EXTENT == "one" or self.bd[b] != 0:
                break
            b += d

    # --- least valuable attackers ---------------------------------------------------------
    def attackers(
        self, a: int, white: bool, through: int | None = None, no_pinned: bool = False
    ) -> list[Piece]:
        out = []
        for n, key in self.direct[white][a]:
            p = self.g.pieces[n]
            if n == through:
                if key in ORTH + DIAGS and p.t not in (N, P):
                    # look behind the moving piece along the line toward a
                    b = p.sq - key
                    while self.bd[b] == 0:
                        b -= key
                    r = self.piece(b) if self.bd[b] != OFF else None
                    if r is not None and r.white == white and slides_along(r.t, key):
                        p = r
                    else:
                        continue
                else:
                    continue
            if no_pinned and p.n in self.pinned:
                continue
            out.append(p)
        if through is not None:
            out += [r for r in self.behind_origin(a, white, through)
                    if not (no_pinned and r.n in self.pinned)]  # fmt: skip
        return out

    def behind_origin(self, a: int, white: bool, through: int) -> list[Piece]:
        """A pushed pawn's origin on a line from a: the slider of ours behind it (AFLATA
        looks through the mover)."""
        m = self.g.pieces[through]
        if not THROUGH_ORIGIN or m.t != P:
            return []
        for key in ORTH + DIAGS:
            b = a + key
            while self.bd[b] == 0:
                b += key
            if b != m.sq:
                continue
            b += key
            while self.bd[b] == 0:
                b += key
            r = self.piece(b) if self.bd[b] != OFF else None
            if r is not None and r.white == white and slides_along(r.t, key):
                return [r]
        return []

    def cheapest(self, a, white, through=None, no_pinned=False):
        ps = self.attackers(a, white, through, no_pinned)
        return min((p.pv for p in ps), default=None)

    # --- pawn flags (D8 backward, D25 passed) ---------------------------------------------
    def own_pawn(self, a, white) -> bool:
        q = self.piece(a)
        return q is not None and q.t == P and q.white == white

    def enemy_piece(self, a, white) -> bool:
        q = self.piece(a)
        return q is not None and q.white != white

    def enemy_pawn(self, a, white) -> bool:
        q = self.piece(a)
        return q is not None and q.t == P and q.white != white

    def backward(self, p: Piece) -> bool:
        w = p.white
        F = 10 if w else -10
        A = p.sq
        r = rank_of(A, w)
        # 1. defended by a pawn diagonally behind
        if self.own_pawn(A - F + 1, w) or self.own_pawn(A - F - 1, w):
            return False
        beside = self.own_pawn(A + 1, w) or self.own_pawn(A - 1, w)
        front = A + F
        C = 0
        fq = self.piece(front)
        if beside:
            if fq is None or fq.white == w:
                return False
            C = 1
        if r == 2:
            if fq is not None and fq.white != w:
                return self._w4(A, F, w, C)
            diag = self.own_pawn(A + F + 1, w) or self.own_pawn(A + F - 1, w)
            r4 = A + 2 * F
            if self.enemy_piece(r4, w):
                if diag:
                    C = 1
                return self._w4(A, F, w, C)
            if diag:
                return self.enemy_pawn(r4 + 1, w) or self.enemy_pawn(r4 - 1, w)
            return self._w4(A, F, w, C)
        if r >= 4:
            for s in (1, -1):
                if self.own_pawn(A - 2 * F + s, w) and not self.enemy_piece(A - F + s, w):
                    return False
            if r == 7:
                return False
            if r == 5:
                for s in (1, -1):
                    if (
                        self.own_pawn(A - 3 * F + s, w)
                        and not self.enemy_piece(A - F + s, w)
                        and not self.enemy_piece(A - 2 * F + s, w)
                    ):
                        return False
        # W3
        if C:
            return True
        if self.own_pawn(A + F + 1, w) or self.own_pawn(A + F - 1, w):
            return True
        return self._w4(A, F, w, C)

    def _w4(self, A, F, w, C) -> bool:
        if C:
            return True
        for k in (2, 3, 4):
            for s in (1, -1):
                if self.own_pawn(A + k * F + s, w):
                    return True
        return False

    def passed(self, p: Piece) -> bool:
        w = p.white
        A = p.sq
        col = A % 10
        r = A // 10
        # the enemy pawns that started on the same or an adjacent file (by number)
        base = 16 if w else 0
        nf = p.n if w else p.n - 16  # the file its number names (where it started)
        for f in (nf - 1, nf, nf + 1) if PASSED_BY_NUMBER else (col - 1, col, col + 1):
            if 1 <= f <= 8:
                q = self.g.pieces.get(base + f)
                if q is not None and q.t == P and q.white != w:
                    qc, qr = q.sq % 10, q.sq // 10
                    if abs(qc - col) <= 1 and ((qr > r) if w else (qr < r)):
                        return False
        if w:
            rows = range(r + 2, 10)
        else:
            rows = range(r, 1, -1)
        for row in rows:
            for f in (col - 1, col, col + 1):
                if 1 <= f <= 8 and self.enemy_pawn(row * 10 + f, w):
                    return False
        return True


PPP = {2: 32, 3: 48, 4: 64, 5: 96, 6: 128, 7: 192, 8: 256}
CENTRE = {sq_of(s) for s in (chess.D4, chess.E4, chess.D5, chess.E5)}


@dataclass
class Scored:
    move: chess.Move
    plaus: int = 0
    terms: list = field(default_factory=list)
    check: bool = False
    unsafe: bool = False
    poor: bool = False
    investigate: bool = False
    forcing: int = 0
    illegal: bool = False
    info: list = field(default_factory=list)

    def add(self, pts, text):
        if pts:
            self.terms.append((pts, text))


PRESENT_EXCL = set()
LBL_THROUGH_PAWN = False
EDGE_PINS = set()
XRAY_CHAIN = True
OFFMARK = 1
LBL_XRAY = False
XP_COLOR = "own"
XP_EXTENT = "one"
ZERO_O = {R, B, Q, N, K}


class PMG:
    """The original's PMG for the side to move of a Game (at search ply LMGD, 1 = root)."""

    def __init__(self, g: Game, lmgd: int = 1, root_ply: int | None = None):
        self.g = g
        self.T = Tables(g)
        self.I = g.board.turn == chess.WHITE
        self.lmgd = lmgd
        self.ply = g.ply  # the game ply at this node (PLYN)
        rp = g.ply - (lmgd - 1) if root_ply is None else root_ply
        self.openf = rp <= 16
        self.opnmid = rp <= 40
        self.mine = [p for p in g.pieces.values() if p.white == self.I]
        self.his = [p for p in g.pieces.values() if p.white != self.I]
        self.eking = next(p for p in self.his if p.t == K)
        self.oking = next(p for p in self.mine if p.t == K)
        # CPOSV: each piece's positional sum for the poor test (12), and the last one
        # computed, which the early path leaves stale (D21; pieces in generation order)
        self.cpos: dict[int, int] = {}
        self.last_cpos = 0
        self._sqval()

    # --- SQVAL ------------------------------------------------------------------------------
    def _sqval(self):
        I = self.I
        self.sqv = [0] * 120
        for a in range(120):
            if not on_board(a):
                continue
            row, col = divmod(a, 10)
            v = 8
            if 4 <= row <= 7 and 3 <= col <= 6:
                if a in CENTRE:
                    enemy_half = (row >= 6) if I else (row <= 5)
                    v = 28 if enemy_half else 20
                else:
                    v = 16
            self.sqv[a] = v
        for d in KINGS:
            a = self.eking.sq + d
            if on_board(a):
                self.sqv[a] += 16
        self.loss_sq = {}
        for p in self.mine:
            if p.pv >= 1248:
                continue
            self.sqv[p.sq] += 8
            s = self.enprise(p)
            if s:
                if not self.trapped(p):
                    s //= 2
                self.sqv[p.sq] += s

    def enprise(self, p: Piece) -> int:
        T, I = self.T, self.I
        a = p.sq
        if T.cnt[not I][a] == 0:
            return 0
        A = T.cheapest(a, not I)  # his pinned pieces attack
        defenders = T.attackers(a, I, None, True)  # mine that are pinned do not defend
        if T.cnt[I][a] == 0 or not defenders:
            return p.pv
        if A is None:
            return 0
        if p.pv - A > 0:
            return p.pv - A
        if T.cnt[not I][a] == 1:
            return 0
        # attacked twice: my king does not take back; a defence that holds the balance
        # still loses the whole piece (the original's root tables, 468 positions)
        d = min((q.pv for q in defenders if q.t != K), default=None)
        if d is None or p.pv - A + d > 0:
            return p.pv
        return 0

    def trapped(self, p: Piece) -> bool:
        T, I = self.T, self.I
        for a in self.targets(p, p.sq, moves=True):
            q = T.piece(a)
            if q is None:
                if T.cnt[not I][a] == 0:
                    return False
            elif q.white != I:
                if q.pv >= p.pv or T.cnt[not I][a] == 0:
                    return False
        return True

    def targets(self, p: Piece, a0: int, moves: bool = False) -> list[int]:
        """Squares a piece attacks (or moves to) from a0 on the present board."""
        T = self.T
        out = []
        if p.t == P:
            F = 10 if p.white else -10
            if moves:
                if T.bd[a0 + F] == 0:
                    out.append(a0 + F)
                    if rank_of(a0, p.white) == 2 and T.bd[a0 + 2 * F] == 0:
                        out.append(a0 + 2 * F)
                for d in (F - 1, F + 1):
                    if T.bd[a0 + d] not in (0, OFF):
                        out.append(a0 + d)
                return out
            return [a0 + d for d in (F - 1, F + 1) if T.bd[a0 + d] != OFF]
        if p.t in (N, K):
            return [a0 + d for d in (KNIGHT if p.t == N else KINGS) if T.bd[a0 + d] != OFF]
        dirs = ORTH if p.t == R else DIAGS if p.t == B else ORTH + DIAGS
        for d in dirs:
            a = a0 + d
            while T.bd[a] == 0:
                out.append(a)
                a += d
            if T.bd[a] != OFF:
                out.append(a)
        return out

    # --- the scoring walk (LMGR2A's squares, D11) ----------------------------------------------
    def walk(self, t: int, white: bool, a0: int, sees_through: bool = True) -> list[int]:
        """Squares a piece of type t scores from a0: leapers' targets; sliders' rays to the
        first piece, seeing through own same-line sliders, and one square past an own
        pawn on a diagonal."""
        T = self.T
        if t == P:
            F = 10 if white else -10
            return [a0 + d for d in (F + 1, F - 1) if T.bd[a0 + d] != OFF]
        if t in (N, K):
            return [a0 + d for d in (KNIGHT if t == N else KINGS) if T.bd[a0 + d] != OFF]
        out = []
        dirs = ORTH if t == R else DIAGS if t == B else ORTH + DIAGS
        for d in dirs:
            a = a0 + d
            while True:
                while T.bd[a] == 0:
                    out.append(a)
                    a += d
                if T.bd[a] == OFF:
                    break
                out.append(a)
                q = T.piece(a)
                if sees_through and q.white == white and slides_along(q.t, d):
                    a += d
                    continue
                if sees_through and q.white == white and q.t == P and d in DIAGS:
                    if T.bd[a + d] != OFF:
                        out.append(a + d)
                break
        return out

    # --- attack terms (2.4, D1, D15, D28) -------------------------------------------------------
    def attack(self, sc: Scored | None, t: int, v: int, a: int, new: bool) -> int:
        """The terms of an attacker (type t, value v) of ours on the enemy piece on a."""
        T, I = self.T, self.I
        x = T.piece(a)
        if x is None or x.white == I:
            return 0
        pts = 0

        def add(n, text):
            nonlocal pts
            pts += n
            if sc is not None and n:
                sc.info.append((n, text))

        his = T.cnt[not I][a]
        ours = T.cnt[I][a]
        if x.t == K:
            if sc is not None and new:
                sc.check = True
            if new:
                if his == 0:
                    add(384, "CHECK UNDEFENDED")
                else:
                    add(min(256, (1536 - v) // 2), "CHECK")
                if sc is not None:
                    sc.forcing += 1
            return pts
        if t == P and x.t == P:
            add(40, "PAWN BREAK")
        pbp = x.t == P and (
            T.own_pawn(a - (10 if x.white else -10) + 1, x.white)
            or T.own_pawn(a - (10 if x.white else -10) - 1, x.white)
        )
        if x.n in T.pinned:
            add(16 if pbp else 64, "PINNED")
        if his == 0:
            if x.t != t or x.n in T.pinned:
                if new:
                    add(x.pv // 4, "UNDEFENDED")
                    if sc is not None:
                        sc.forcing += 1
            else:
                S = self.material(True) - self.material(False)
                if I:
                    add(-16 if S >= -416 else 0, "TRADE")
                else:
                    add(-16 if S <= 416 else 0, "TRADE")
        else:
            if x.pv > v:
                if new:
                    add(min((x.pv - v) // 2, 256), "MORE VALUABLE")
                    if sc is not None:
                        sc.forcing += 1
            elif new and not pbp:
                if (ours, T.code[I][a]) >= (his, T.code[not I][a]):
                    add(96, "BALANCE")
            if his <= ours:
                add(16, "TTVLU")
        return pts

    def material(self, white: bool) -> int:
        return 1 + sum(p.rv for p in self.g.pieces.values() if p.white == white and p.t != K)

    # --- the moves, in the original's order (D19) ---------------------------------------------
    def moves(self) -> list[tuple[Piece, int, int]]:
        """(piece, destination, special) in generation order; special 1 O-O, 2 O-O-O."""
        T, I = self.T, self.I
        out = []
        order = sorted(self.mine, key=lambda p: p.n)
        incheck = T.cnt[not I][self.oking.sq] > 0
        if incheck:
            order = [self.oking] + [p for p in order if p is not self.oking]
        gb = self.g.board
        ghost = sq_of(gb.ep_square) if gb.ep_square is not None else None
        for p in order:
            a0 = p.sq
            if p.t == P:
                F = 10 if p.white else -10
                steps = (20, 10, 11, 9) if p.white else (-20, -10, -9, -11)
                for d in steps:
                    a = a0 + d
                    if T.bd[a] == OFF:
                        continue
                    if abs(d) == 20:
                        if rank_of(a0, p.white) == 2 and T.bd[a0 + F] == 0 and T.bd[a] == 0:
                            out.append((p, a, 0))
                    elif abs(d) == 10:
                        if T.bd[a] == 0:
                            out.append((p, a, 0))
                    else:
                        q = T.piece(a)
                        if (q is not None and q.white != I) or a == ghost:
                            out.append((p, a, 0))
            elif p.t in (N, K):
                for d in KNIGHT if p.t == N else KINGS:
                    a = a0 + d
                    q = T.piece(a)
                    if T.bd[a] == OFF or (q is not None and q.white == I):
                        continue
                    if p.t == K and T.cnt[not I][a] > 0:
                        continue
                    out.append((p, a, 0))
            else:
                dirs = ORTH if p.t == R else DIAGS if p.t == B else ORTH + DIAGS
                for d in dirs:
                    a = a0 + d
                    while T.bd[a] == 0:
                        out.append((p, a, 0))
                        a += d
                    q = T.piece(a)
                    if q is not None and q.white != I:
                        out.append((p, a, 0))
        for m in gb.legal_moves:
            if gb.is_castling(m):
                pass
        ks = gb.has_kingside_castling_rights(gb.turn)
        qs = gb.has_queenside_castling_rights(gb.turn)
        for special, ok in ((1, ks), (2, qs)):
            mv = self._castle_move(special)
            if ok and mv is not None and mv in gb.legal_moves:
                out.append((self.oking, 0, special))
        return out

    def _castle_move(self, special):
        gb = self.g.board
        for m in gb.legal_moves:
            if gb.is_castling(m) and ((chess.square_file(m.to_square) == 6) == (special == 1)):
                return m
        return None

    def to_move(self, p: Piece, a: int, special: int) -> chess.Move:
        if special:
            return self._castle_move(special)
        promo = chess.QUEEN if p.t == P and rank_of(a, p.white) == 8 else None
        return chess.Move(chess_sq(p.sq), chess_sq(a), promo)

    # --- present development and loss (LMGCD, D2, D3, D16, D14) ---------------------------------
    def present(self, p: Piece) -> tuple[int, list]:
        """The start value of p's moves and its terms."""
        T, I = self.T, self.I
        terms = []
        attacked = T.cnt[not I][p.sq] > 0
        if not attacked and self.ply < 8:
            early = (self.ply <= 1 and p.t != P) or (p.t in (R, Q, K))
            if early:
                self.cpos[p.n] = self.last_cpos
                return -256, [(-256, "EARLY")]
        sqs = self.walk(p.t, I, p.sq)
        if p.t in PRESENT_EXCL:
            sqs = [a for a in sqs if not (T.piece(a) and T.piece(a).white == I)]
        dev = sum(self.sqv[a] for a in sqs)
        self.cpos[p.n] = self.last_cpos = dev
        dev += sum(self.attack(None, p.t, p.pv, a, False) for a in sqs)
        if p.t == P:
            dev += sum(40 for a in sqs if a in CENTRE)
        if p.pv >= 1248:
            dev >>= 1
        terms.append((-dev, "PRESENT"))
        loss = self.loss(p)
        terms.append((loss, "SAVES"))
        start = loss - dev
        if p.t == K:
            home = (p.nmoves == 0) or self._castled_unmoved(p)
            if home:
                terms.append((-32, "FMKING"))
                start -= 32
                rooks = [
                    q
                    for q in self.mine
                    if q.t == R and q.nmoves == 0 and q.n in ((9, 16) if I else (25, 32))
                ]
                if rooks:
                    terms.append((-128, "KKCAS"))
                    start -= 128
        return start, terms

    def _castled_unmoved(self, k: Piece) -> bool:
        # NMOVES(K) = NMKING: castled and not moved since (castling was its only move)
        gb = self.g.board
        moves = [m for m in gb.move_stack]
        b = chess.Board()
        kmoves = []
        for m in moves:
            if b.piece_type_at(m.from_square) == chess.KING and b.turn == (k.white):
                kmoves.append(b.is_castling(m))
            b.push(m)
        return kmoves == [True]

    def loss(self, p: Piece) -> int:
        T, I = self.T, self.I
        if p.t == K:
            return 0
        a = p.sq
        if T.cnt[not I][a] == 0:
            return 0
        X = p.pv
        d = T.cheapest(a, I, no_pinned=True)
        if T.cnt[I][a] == 0 or d is None:
            return X
        A = T.cheapest(a, not I)
        if A is None:
            return 0
        if A < X:
            return X - A if T.cnt[not I][a] <= T.cnt[I][a] else X
        if T.cnt[not I][a] == 1:
            return 0
        s = A - X - d
        if s >= 0:
            return 0
        return min(X, -s)

    # --- one move (LMGR) -------------------------------------------------------------------
    def score_all(self) -> list[Scored]:
        out = []
        self.starts = {}
        for p, a, special in self.moves():
            out.append(self.score(p, a, special))
        return out

    def score(self, p: Piece, d: int, special: int) -> Scored:
        T, I = self.T, self.I
        sc = Scored(self.to_move(p, d, special))
        if special:
            sc.plaus = 768
            sc.add(768, "CASTLES")
            return sc
        o = p.sq
        F = 10 if I else -10
        victim = T.piece(d)
        ep = p.t == P and victim is None and abs(d - o) in (9, 11)
        if ep:
            victim = T.piece(d - F)
        capture = victim is not None
        self._score(sc, p, o, d, victim, capture)
        return sc

    def _score(self, sc, p, o, d, victim, capture):
        T, I = self.T, self.I
        F = 10 if I else -10
        # 1. start
        if p.n not in self.starts:
            self.starts[p.n] = self.present(p)
        start, terms = self.starts[p.n]
        sc.terms += [t for t in terms if t[0]]
        if p.t in (N, K):  # the leapers always reach o: its importance given back first
            sc.add(self.sqv[o] >> 1 if p.t == K else self.sqv[o], "ORIGIN")
        # 2. in front of his passed pawn
        q = T.piece(d + F)
        if q is not None and q.t == P and q.white != I and T.passed(q):
            sc.add(PPP[rank_of(q.sq, q.white)], "BLOCKS PASSED")
        # 3. pawn moves
        if p.t == P:
            if T.backward(p):
                sc.add(32, "BACKWARD")
            if T.passed(p):
                sc.add(PPP[rank_of(d, I)], "PASSED")
        # 4. king back
        if p.t == K and self.opnmid:
            x = 8 * (rank_of(o, I) - rank_of(d, I))
            if self.openf:
                x *= 8
            if (29 if I else 13) in self.g.pieces:
                x *= rank_of(o, I)
            sc.add(x, "KING BACK")
        # 5. line blocking
        self.lbl(sc, p, o, d)
        # 6. initial value
        sc.add(512, "IVLU")
        # 7. blocking a centre pawn
        if p.t != P and not capture:
            k3, q3 = (sq_of(chess.E3), sq_of(chess.D3)) if I else (sq_of(chess.E6), sq_of(chess.D6))
            for sq3, pn in ((k3, 4 if I else 20), (q3, 5 if I else 21)):
                if d == sq3:
                    pp = self.g.pieces.get(pn)
                    nmoves = pp.nmoves if pp is not None else self.g.gone_nmoves[pn]
                    if nmoves == 0:  # a pawn taken before it moved counts too (D28)
                        sc.add(-96, "BCP")
        # 8. unblocking
        if self.lmua(sc, p, o, d, victim):
            sc.illegal = True
        # 9. lining up, FMROOK
        ek = self.eking.sq
        if p.t in (R, Q):
            if d // 10 == ek // 10:
                sc.add(32, "LINE RANK")
            if d % 10 == ek % 10:
                sc.add(32, "LINE FILE")
            if self.oking.nmoves == 0 and p.nmoves == 0:
                sc.add(-48, "FMROOK")
        if p.t in (B, Q):
            if d // 10 + d % 10 == ek // 10 + ek % 10:
                sc.add(32, "LINE DIAG")
            if d // 10 - d % 10 == ek // 10 - ek % 10:
                sc.add(32, "LINE DIAG")
        # 10. capture or safety
        if capture:
            self.capture(sc, p, o, d, victim)
        else:
            self.safety(sc, p, o, d)
        # 11. new development
        sqs = self.walk(p.t, I, d)
        last = {N: -8, K: -9}.get(p.t)
        C = sum(
            self.sqv[a]
            for a in sqs
            if not (a == o and p.t in ZERO_O and not (last and o == d + last))
        )
        if not sc.unsafe:
            dev = C + sum(self.attack(sc, p.t, p.pv, a, True) for a in sqs)
            if p.t == P:
                dev += sum(40 for a in sqs if a in CENTRE)
            if p.pv >= 1248:
                dev >>= 1
            sc.add(dev, "NEW DEV")
            # 12. poor: the positional delta, the origin's importance in C when the walk
            # from d reaches it (a rook's too: measured, against the audit's D21 reading)
            cpos = self.cpos[p.n]
            Cp = sum(self.sqv[a] for a in sqs)
            if Cp - cpos <= -48:
                sc.poor = True
        total = start + sum(
            t[0] for t in sc.terms if t[1] not in ("EARLY", "PRESENT", "SAVES", "FMKING", "KKCAS")
        )
        sc.plaus = max(0, total)
        if sc.check or (capture and self.lmgd <= 2) or sc.forcing >= 2:
            sc.investigate = not sc.unsafe or capture

    # --- 5. line blocking (LBL, D22) ----------------------------------------------------------
    def lbl_sources(self, d):
        """(slider, direction from it) whose ray passes through d."""
        T = self.T
        out = [(self.g.pieces[n], key) for side in (True, False) for n, key in T.direct[side][d]]
        if LBL_XRAY:
            out += [(self.g.pieces[n], key) for side in (True, False) for n, key in T.xray[side][d]]
        if LBL_THROUGH_PAWN:
            for key in DIAGS:
                a = d - key
                while T.bd[a] == 0:
                    a -= key
                q = T.piece(a) if T.bd[a] != OFF else None
                if q is None or q.t != P:
                    continue
                if LBL_THROUGH_PAWN == "fwd" and not ((key > 0) == q.white):
                    continue
                b = a - key
                while T.bd[b] == 0:
                    b -= key
                r = T.piece(b) if T.bd[b] != OFF else None
                if r is not None and slides_along(r.t, key):
                    if LBL_THROUGH_PAWN == "slider" and not ((key > 0) == r.white):
                        continue
                    if LBL_THROUGH_PAWN == "slider-enemy" and not (
                        (key > 0) == r.white and r.white != q.white
                    ):
                        continue
                    out.append((r, key))
        return out

    def lbl(self, sc, p, o, d):
        T, I = self.T, self.I
        for s, key in self.lbl_sources(d):
            n = s.n
            if s.t not in (R, B, Q) or n == p.n or key not in ORTH + DIAGS:
                continue
            if slides_along(p.t, key):
                continue
            tot = 0
            a = d + key
            while T.bd[a] != OFF:
                tot += self.sqv[a]
                if T.bd[a] != 0:
                    break
                a += key
            if s.white == I:
                sc.add(-tot, "LBL")
            else:
                sc.add(tot, "LBL HIS")

    # --- 8. unblocking (LMUA, D11, D13, D28) ---------------------------------------------------
    def lmua(self, sc, p, o, d, victim) -> bool:
        """The rays p's leaving o opens; True if it exposes our king (the move is dropped)."""
        T, I = self.T, self.I
        for n, key in T.blk[o]:
            s = self.g.pieces[n]
            if victim is not None and victim.n == n:
                continue
            # d on the slider's line?
            on_line = False
            a = s.sq + key
            while T.bd[a] != OFF:
                if a == d:
                    on_line = True
                    break
                a += key
            if on_line and p.t != P:
                continue  # p keeps blocking it
            if on_line and p.t == P:
                continue  # D13: a pawn along the slider's line: only the counts (ignored here)
            tot = 0
            a = o + key
            if s.white == I:
                while True:
                    while T.bd[a] == 0:
                        tot += self.sqv[a]
                        a += key
                    if T.bd[a] == OFF:
                        break
                    tot += self.sqv[a]
                    q = T.piece(a)
                    if q.white != I:
                        T.cnt[I][a] += 1  # the slider counted there while it is scored
                        T.code[I][a] += CODE[s.t]
                        tot += self.attack(sc, s.t, s.pv, a, True)
                        T.cnt[I][a] -= 1
                        T.code[I][a] -= CODE[s.t]
                        break
                    if slides_along(q.t, key):
                        a += key
                        continue
                    if q.t == P and key in DIAGS and T.bd[a + key] != OFF:
                        tot += self.sqv[a + key]
                    break
                sc.add(tot, "UNBLOCKS")
            else:
                while True:
                    while T.bd[a] == 0:
                        tot -= 8
                        a += key
                    if T.bd[a] == OFF:
                        break
                    q = T.piece(a)
                    if q.white != I:
                        if slides_along(q.t, key):
                            tot -= 8
                            a += key
                            continue
                        tot -= 8
                        break
                    if q.t == K:
                        return True
                    tot -= 8
                    if T.cnt[not I][a] + 1 > T.cnt[I][a]:
                        tot -= q.pv
                    elif q.pv > s.pv:
                        tot -= q.pv - s.pv
                    else:
                        tot -= 8
                    break
                sc.add(tot, "OPENS HIS")
        return False

    # --- 10. captures (D10) -------------------------------------------------------------------
    def capture(self, sc, p, o, d, victim):
        T, I = self.T, self.I
        V, M = victim.pv, p.pv
        # the victim's development (CBDV)
        cb = sum(self.sqv[a] for a in self.victim_walk(victim, p))
        sc.add(cb, "CBDV")
        his = T.cnt[not I][d]
        ours = T.cnt[I][d]
        lmoa = ours - 1
        dflt = T.cheapest(d, not I, no_pinned=True)
        if his == 0 or dflt is None:
            sc.add(V, "TAKES UNDEFENDED")
            return
        if M < V:
            if lmoa <= 0:
                sc.add(V - M, "WINS")
            elif his == 1:
                sc.add(min(V, V - M + dflt), "WINS 1")
            else:
                sc.add(V if his < ours else V - M, "WINS N")
            return
        if M == V:
            if victim.t in (P, N):
                if self.lmgd >= lmoa:
                    sc.add(128, "MJVLU")
            else:
                if self.last_met_own(victim, p):
                    sc.add(128, "MJVLU")
            return
        if sc.forcing > 0:
            sc.add(V, "TAKES (FORCING)")
            return
        if lmoa <= 0:
            sc.add(V - M, "LOSES")
            sc.unsafe = True
            return
        e = dflt + V - M
        if his >= 2:
            nxt = T.cheapest(d, I, through=p.n)
            e -= nxt or 0
        if e >= 0:
            sc.add(128, "MJVLU E")
            return
        x = max(e, V - M)
        sc.add(x, "XCH")
        if x < -32:
            sc.unsafe = True

    def victim_walk(self, v: Piece, p: Piece) -> list[int]:
        T = self.T
        if v.t == P:
            F = 10 if v.white else -10
            out = []
            if T.bd[v.sq + F] != OFF:
                out.append(v.sq + F)
            gb = self.g.board  # a ghost only with an enemy pawn beside it (orig. 1.5)
            ghost = sq_of(gb.ep_square) if gb.has_pseudo_legal_en_passant() else None
            for dd in (F + 1, F - 1):
                a = v.sq + dd
                if T.bd[a] not in (0, OFF) or a == ghost:
                    out.append(a)
            return out
        return self.walk(v.t, v.white, v.sq)

    def last_met_own(self, v: Piece, p: Piece) -> bool:
        T = self.T
        last = None
        for a in self.walk(v.t, v.white, v.sq):
            q = T.piece(a)
            if q is not None:
                last = q
        return last is not None and last.white == v.white

    # --- 10. quiet moves (D20) -----------------------------------------------------------------
    def safety(self, sc, p, o, d):
        T, I = self.T, self.I
        if sc.forcing:
            return
        if T.cnt[not I][d] == 0:
            return
        A = T.cheapest(d, not I, no_pinned=True)
        if A is None:
            return
        M = p.pv
        mine = T.cheapest(d, I, through=p.n)
        if mine is None:
            self._unsafe(sc, M)
            return
        if A <= M - 32:
            self._unsafe(sc, M - A)
            return
        his = T.cnt[not I][d]
        if his == 1:
            return
        if A - M - mine > 0:
            return
        lmoa = T.cnt[I][d] if p.t == P else T.cnt[I][d] - 1
        lmoa += len(T.behind_origin(d, I, p.n))
        if his <= lmoa:
            return
        self._unsafe(sc, min(M, M + mine - A))

    def _unsafe(self, sc, loss):
        sc.add(-loss, "UNSAFE")
        sc.unsafe = True
