"""An independent Python reading of the Greenblatt search (machack-original 4; spec 1-3, 7;
docs/machack.md "The search"), for a differential check of ``src/search.mid``.

Written from the notes, not from search.mid.  What the search needs at a node it takes
from an *oracle*:

* ``ProgramOracle`` asks a second, idle copy of the program: ``PLAUS`` for the plausible
  move list (plausibility, flags, developmentally poor, pieces with safe moves; the list
  is put back in the order the PMG generates it, ``MOVES``'s, as the search sorts it
  itself), ``SCORE`` for the static value and ``PREY`` for the pieces on prey and the
  feedover verdict (the plausible move generator and the evaluator have their own
  references, pmg_reference and sbe_reference).  The node is reached by ``SETUP`` of the
  root and the moves of the line typed in PN mode, so the R term is measured against
  the root's ratio and the game ply rises with the line as in the search.

So what is checked here is the search's own rules: depth, the order the PMG's list is
taken in (its sort), the widths and their extensions, alpha-beta with the equal-value
rule, the value modifications, feedover and its limits, the capture search, mate and
repetition values, and the counters of STATS.

Values are negamax (for the side to move).  Readings where the notes leave room are
marked CHOICE.  The rules are RULES PAPER's (the tests' sessions type it); RULES D and
RULES 1967 (the surviving program's leaf, prey test and capture candidates) are not
read here.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from .notation_reference import unique_texts
from .pmg_reference import Position

MATEV = 28672  # mate in n plies from the root: MATEV - n (docs/machack.md)
FLUSH = 32768  # the root's window: the flushed values (EVMST sentinels)
MATED_RANGE = 28160  # |v| >= 67000 octal: the mover is mated, the place is given back
BDPV, MSPMV, MSP0MV, MSP1MV = 3, 1, 4, 2
AC_S = 0o16  # the search's accumulator S: the ply of the node (0 at the root)


# ----------------------------------------------------------------------------------------
@dataclass
class Entry:
    move: chess.Move
    plaus: int
    flags: set[str]
    poor: bool
    investigate: bool = False  # at this node's ply


@dataclass
class NodeList:
    entries: list[Entry]
    safe_pieces: int


def game_ply(board: chess.Board) -> int:
    return 2 * (board.fullmove_number - 1) + (board.turn == chess.BLACK)


def names(board: chess.Board, move: chess.Move) -> set[str]:
    if board.is_castling(move):
        return {"O-O" if chess.square_file(move.to_square) == 6 else "O-O-O"}
    return unique_texts(board, move)


class ProgramOracle:
    """Node facts from an idle copy of the program (see the module's text)."""

    def __init__(self, session, root_fen: str):
        self.s = session
        self.root = root_fen
        self.cache: dict[tuple, dict] = {}
        self.s.command("PN")
        self.s.command("BOOK OFF")
        self.s.command("SETC 0")  # PLAUS's INVESTIGATE without the capture rule
        self.s.command("SMVD 2")  # PLAUS's moves in coordinates

    def _go(self, path: tuple[str, ...]) -> None:
        self.s.setup(self.root)
        for u in path:
            r = self.s.send(u.upper())
            if not r.accepted:
                raise RuntimeError(f"move {u} refused: {r.text!r}")

    def _info(self, path: tuple[str, ...], board: chess.Board) -> dict:
        if path in self.cache:
            return self.cache[path]
        self._go(path)
        info: dict = {}
        lines = self._plaus_at_node(len(path))
        head = lines[0].split()
        info["safe"] = int(head[3])
        entries = []
        for line in lines[1:-1]:  # "-" if poor, plausibility, the move, its flags
            words = line[1:].split()
            move = chess.Move.from_uci(words[1].lower())
            entries.append(Entry(move, int(words[0]), set(words[2:]), line[0] == "-"))
        info["list"] = entries
        words = self.s.command("SCORE").lines[0].split()
        info["score"] = int(words[words.index("S") + 1])
        prey = []
        verdict = None
        for line in self.s.command("PREY").lines[:-1]:
            w = line.split()
            if w[:2] == ["ON", "PREY"]:
                sq = chess.parse_square(w[3].lower())
                prey.append((sq, w[4] == "WHITE", "PINNED" in w, "TRAPPED" in w))
            elif line in ("FEEDOVER", "NO FEEDOVER"):
                verdict = line == "FEEDOVER"
        info["prey"] = prey
        info["feedover"] = verdict
        self.cache[path] = info
        return info

    def _plaus_at_node(self, ply: int) -> list[str]:
        """PLAUS as the search's PMG scores the node ``ply`` plies below the root.
        The search computes the game's ply at the root (RGPLY) and the game-phase flags
        OPENF (game ply <= 16) and OPNMID (<= 40) once there (machack-original 4.8),
        and its PMG reads the ply of the node too (accumulator S, 0 at the root): the
        early start value by the game's ply RGPLY + S, the even trade's +128 when S + 1
        is at least our other attackers (plausibility.md, D10).  PLAUS computes them
        from the position it is given with S = 0; they are set to the search's after
        PLAUS has computed them (a breakpoint at PMPREP), and S back after."""
        from machack.session import parse_reply

        root = chess.Board(self.root)
        gp = game_ply(root)
        full = (1 << 36) - 1
        m, sym = self.s.machine, self.s.image.symbol
        bp = sym("PMPREP")
        m.breakpoints.add(bp)
        s_before = None
        try:
            self.s.type(b"PLAUS\r")
            while True:
                stop = m.run(max_instructions=5_000_000)
                if stop.reason == "breakpoint" and m.pc == bp:
                    m.memory[sym("OPENF")] = full if gp <= 16 else 0
                    m.memory[sym("OPNMID")] = full if gp <= 40 else 0
                    m.memory[sym("RGPLY")] = gp
                    s_before, m.memory[AC_S] = m.memory[AC_S], ply
                    continue
                if stop.reason == "breakpoint" and self.s.at_prompt():
                    break
                if stop.reason == "halt":
                    raise RuntimeError("halted")
                self.s._wait_for_key(5_000_000, 1e18)
        finally:
            m.breakpoints.discard(bp)
            if s_before is not None:
                m.memory[AC_S] = s_before
        reply = parse_reply(self.s.host.take_output())
        return reply.lines

    def moves(self, path, board) -> list[str]:
        """The legal moves in the program's generator order (MOVES)."""
        key = ("moves",) + path
        if key not in self.cache:
            self._go(path)
            self.cache[key] = [u.lower() for u in self.s.moves()]
        return self.cache[key]

    def plaus(self, path, board) -> NodeList:
        """The PMG's list in the order the PMG generates and scores it (``MOVES``'s
        order), unsorted: PLAUS prints it sorted, and the sort is the search's rule."""
        info = self._info(path, board)
        by_move = {e.move.uci(): e for e in info["list"]}
        generated = self.moves(path, board)
        if sorted(generated) != sorted(by_move):
            raise RuntimeError(f"PLAUS and MOVES list different moves at {path}")
        return NodeList([by_move[u] for u in generated], info["safe"])

    def plaus_order(self, path, board) -> list[str]:
        """The moves in the order PLAUS prints them (the program's SORTM)."""
        return [e.move.uci() for e in self._info(path, board)["list"]]

    def score(self, path, board) -> int:
        return self._info(path, board)["score"]

    def prey(self, path, board) -> tuple[list, bool | None]:
        info = self._info(path, board)
        return info["prey"], info["feedover"]


# --- the order and the width of a PMG node (4.3; audit D19, D23) ---------------------------
SORT_BITS = 12  # the sort's key: the low 12 bits of the plausibility (or estimate)


def radix_exchange_sort(items: list, key) -> list:
    """The original's SORT (audit D19), which the program's SORTM is: the items sorted
    by the low 12 bits of ``key(item)``, highest first, by an MSD radix-exchange sort,
    which is not stable.  On the key's top bit the list is split in place: a pointer
    from the left passes items with the bit, one from the right passes items without
    it; where both stop, the two items change places and both pointers move on; when
    they have crossed, the part with the bit (the left) and the part without it are
    each sorted the same way on the next bit down.  A part of fewer than two items, or
    with no bit left, is as it stands."""
    out = list(items)

    def has(i: int, bit: int) -> bool:
        return bool(key(out[i]) & (1 << bit))

    def exchange(lo: int, hi: int, bit: int) -> None:  # out[lo:hi] on bit and below
        if hi - lo < 2 or bit < 0:
            return
        left, right = lo, hi - 1
        while left <= right:
            if has(left, bit):
                left += 1
            elif not has(right, bit):
                right -= 1
            else:
                out[left], out[right] = out[right], out[left]
                left, right = left + 1, right - 1
        exchange(lo, left, bit - 1)
        exchange(left, hi, bit - 1)

    exchange(0, len(out), SORT_BITS - 1)
    return out


def sort_moves(entries: list[Entry]) -> list[Entry]:
    """The PMG's list as the search takes it (audit D19): in the order the PMG generates
    it, sorted by plausibility with the original's sort (``radix_exchange_sort``)."""
    return radix_exchange_sort(entries, lambda e: e.plaus)


def width_count(board: chess.Board, entries: list[Entry], w: int, safe_pieces: int) -> int:
    """The width (machack-original 4.3, as the original counts it: audit D23), fixed from
    the sorted list before any move is searched: the first ``w`` moves, then on down the
    list until the moves taken so far are of k = min(2 * pieces with a safe move, w) / 2
    distinct pieces.  Castling is a move of no piece (it counts as a move, never as a
    piece).  The search takes the first ``count`` moves and, beyond them, only moves to
    investigate."""
    k = min(2 * safe_pieces, w) // 2
    count, pieces = 0, set()
    for e in entries:
        if count >= w and len(pieces) >= k:
            break
        count += 1
        if not board.is_castling(e.move):
            pieces.add(e.move.from_square)
    return count


# --- the capture search's candidates (4.7) ----------------------------------------------
def capture_candidates(board: chess.Board, prey, order=None) -> list[tuple[int, chess.Move]]:
    """4.7: every capture by the side to move of an enemy piece on prey, from each
    attacker (each legal capture); gain = victim - attacker, or the victim if
    undefended; a losing capture only when the capturer is attacked (an escape, 0).
    Spec 1 adds promotions ("captures or promotions that appear to gain material"):
    CHOICE a promotion to a queen without capture at 512 (a pawn's promotion gain, one
    reading), under-promotions never.  In the generator's order, ``order`` (the
    program's, MOVES) if given, else python-chess's, then sorted most gain first by the
    sort of the PMG's list (the original's capture search sorts its candidates with its
    one SORT, machack-original 4.7, on the estimate kept + 2048 so as never to be
    negative): ties do not keep the generator's order."""
    pos = Position(board)
    he = not board.turn
    on_prey = {sq for sq, colour, *_ in prey if colour == he}
    out = []
    for m in board.legal_moves:
        if m.promotion and m.promotion != chess.QUEEN:
            continue
        if board.is_en_passant(m):
            sq = chess.square(chess.square_file(m.to_square), chess.square_rank(m.from_square))
        elif board.piece_at(m.to_square) is not None:
            sq = m.to_square
        elif m.promotion:
            out.append((512, m))
            continue
        else:
            continue
        if sq not in on_prey:
            continue
        v = pos.value(sq)
        if pos.count[he][sq] == 0:
            gain = v
        else:
            gain = v - pos.value(m.from_square)
            if gain < 0:
                if pos.count[he][m.from_square] == 0:
                    continue
                gain = 0
        out.append((gain, m))
    if order is not None:
        rank = {u: i for i, u in enumerate(order)}
        out.sort(key=lambda gm: rank.get(gm[1].uci(), 999))
    return radix_exchange_sort(out, lambda gm: gm[0] + 2048)


# --- value modifications (4.6) ----------------------------------------------------------
def modifications(board: chess.Board, entry: Entry, pv: list[chess.Move]) -> int:
    """What is taken off the child's value of entry.move (made in ``board``) whose line
    from here is ``pv`` (pv[0] = the move)."""
    off = BDPV if entry.poor else 0
    x1 = entry.move
    if len(pv) < 3 or board.is_capture(x1):
        return off
    after = board.copy(stack=False)
    after.push(x1)
    after.push(pv[1])
    x2 = pv[2]
    if (after.is_capture(x2) or x2.promotion or after.is_castling(x2)
            or after.is_en_passant(x2)):  # fmt: skip
        return off
    if x2.from_square != x1.to_square:
        return off
    if game_ply(board) < 16:  # CHOICE: the game ply at the node making X1
        off += MSPMV
    if x2.to_square == x1.from_square:
        return off + MSP0MV
    lifted = after.copy(stack=False)
    piece = lifted.remove_piece_at(x2.from_square)
    lifted.set_piece_at(x1.from_square, piece)
    if chess.Move(x1.from_square, x2.to_square) in lifted.pseudo_legal_moves:
        off += MSP1MV
    return off


# --- the search ---------------------------------------------------------------------------
@dataclass
class Result:
    value: int  # for the side to move
    pv: list[chess.Move]


@dataclass
class Stats:
    pmg: int = 0
    capture: int = 0
    evals: int = 0
    fed: int = 0
    stopped: int = 0
    repetitions: int = 0

    @property
    def nodes(self) -> int:
        return self.pmg + self.capture + self.repetitions


@dataclass
class RootLine:
    move: chess.Move
    plaus: int
    refuted: bool
    value: int  # modified (or the refuting line's value)
    raw: int
    pv: list[chess.Move]


class Search:
    def __init__(self, oracle: ProgramOracle, setd: int = 2, widths: tuple[int, ...] = (6,),
                 setf: int = 2, setc: int = 2) -> None:  # fmt: skip
        self.o = oracle
        self.setd = setd
        self.widths = list(widths)
        self.mcfb0 = setf
        self.fdcut = setd + setf + 1
        self.setc = setc
        self.st = Stats()
        self.root_lines: list[RootLine] = []

    def width(self, ply: int) -> int:
        return self.widths[min(ply, len(self.widths)) - 1]

    def pmg_node(self, path, board, ply, alpha, a_eq, beta, b_eq, mcfb) -> Result:
        """A node searched with the plausible move generator: the basic search (ply <=
        SETD) or a fed-over leaf.  No legal move: mated or stalemate (spec 1).  The
        PMG's list is sorted (``sort_moves``) and taken in that order; the count of
        moves taken is fixed before the search (``width_count``), beyond it only moves
        to investigate (spec 2); a move within the count whose value shows the mover
        mated gives its place back, so the count grows by one (4.3).  Each child is
        searched with the window turned round, an equal value cutting unless alpha came
        from a modified value (4.4); its value is modified (4.6) and then compared: a
        cut-off at beta, a new best strictly better, the window moved by the raw value.

        CHOICE (values of cut nodes): the notes return the flushed value (+32768 for
        the side to move) from a node that is cut off and skip the modifications of a
        child that returns it.  Here a cut node returns the value that cut it (as SMVD
        types a refuted root move "with the refuting line's value", docs/machack.md),
        and a child is taken as flushed when its value shows it was cut: no better than
        alpha (below it when alpha came from a modified value), once a best is known.
        The choices are the same; only the value a refuted line reports differs."""
        self.st.pmg += 1
        nl = self.o.plaus(path, board)
        if not nl.entries:
            if board.is_check():
                return Result(-(MATEV - (ply - 1)), [])
            return Result(0, [])
        entries = sort_moves(nl.entries)
        count = width_count(board, entries, self.width(ply), nl.safe_pieces)
        best: tuple[int, int, list] | None = None  # (modified, raw, pv)
        root = ply == 1
        for place, e in enumerate(entries, 1):
            # spec 2: beyond the count only a move to investigate: a safe check (PLAUS's
            # INVESTIGATE, at SETC 0), or any capture, safe or not, in the first SETC plies
            inv = ("INVESTIGATE" in e.flags) or ("CAPTURE" in e.flags and ply <= self.setc)
            if place > count and not inv:
                continue
            board.push(e.move)
            child = self.node(path + (e.move.uci(),), board, ply + 1,
                              -beta, b_eq, -alpha, a_eq, mcfb)  # fmt: skip
            board.pop()
            raw = -child.value
            line = [e.move] + child.pv
            if raw <= -MATED_RANGE and place <= count:
                count += 1  # the mover mated: a move within the count gives its place back
            flushed = best is not None and (raw < alpha or (raw == alpha and a_eq))
            if flushed:
                if root:
                    self.root_lines.append(RootLine(e.move, e.plaus, True, raw, raw, line))
                continue
            mod = raw - modifications(board, e, line)
            if mod > beta or (mod == beta and b_eq):  # modified, then compared (4.4, 4.6)
                return Result(raw, line)
            if best is None or mod > best[0]:
                if root:
                    self.root_lines.append(RootLine(e.move, e.plaus, False, mod, raw, line))
                best = (mod, raw, line)
                if raw >= alpha:
                    # CHOICE: a new best whose raw value equals the bound sets it again,
                    # and with it whether the bound comes from a modified value
                    alpha, a_eq = raw, mod == raw
            elif root:  # a candidate, not better: SMVD types its values too
                self.root_lines.append(RootLine(e.move, e.plaus, False, mod, raw, line))
        assert best is not None
        return Result(best[1], best[2])

    def node(self, path, board, ply, alpha, a_eq, beta, b_eq, mcfb) -> Result:
        if self.repeated(board):
            return Result(0, [])
        if ply <= self.setd:
            return self.pmg_node(path, board, ply, alpha, a_eq, beta, b_eq, mcfb)
        return self.leaf(path, board, ply, alpha, a_eq, beta, b_eq, mcfb)

    def repeated(self, board: chess.Board) -> bool:
        """Spec 1 and 6 (not C197): a position met before on the line (the root's
        included; after SETUP the game has no earlier positions) is a draw, 0.  Such a
        node counts in NODES only."""
        key = board._transposition_key()
        b = board.copy()
        while b.move_stack:
            b.pop()
            if b._transposition_key() == key:
                self.st.repetitions += 1
                return True
        return False

    def leaf(self, path, board, ply, alpha, a_eq, beta, b_eq, mcfb) -> Result:
        """4.7 and spec 3: feedover (a PMG node again) when the position calls for it
        (PREY's verdict: the paper's conditions, the check among them only with a piece
        on prey) and the limits allow; else the capture search: a checkmate has its mate
        value (spec 1), else stand pat, then the captures of pieces on prey."""
        can_feed = ply < self.fdcut and mcfb > 0
        prey = None
        if can_feed:
            prey, cond = self.o.prey(path, board)
            if cond:
                self.st.fed += 1
                return self.pmg_node(path, board, ply, alpha, a_eq, beta, b_eq, mcfb - 1)
        self.st.capture += 1
        if board.is_checkmate():
            return Result(-(MATEV - (ply - 1)), [])
        self.st.evals += 1
        s = self.o.score(path, board)
        stand = s if board.turn == chess.WHITE else -s
        if stand > beta or (stand == beta and b_eq):
            return Result(stand, [])
        if prey is None:
            # counter convention (docs/machack.md): where the limits rule feedover
            # out, a stopped feedover is counted only at a node that standing pat did
            # not end
            prey, cond = self.o.prey(path, board)
            if cond:
                self.st.stopped += 1
        best = (stand, [])
        if stand > alpha:
            alpha, a_eq = stand, True
        for _, m in capture_candidates(board, prey, self.o.moves(path, board)):
            board.push(m)
            if self.repeated(board):
                board.pop()
                v, line = 0, [m]
            else:
                child = self.leaf(path + (m.uci(),), board, ply + 1,
                                  -beta, b_eq, -alpha, a_eq, mcfb)  # fmt: skip
                board.pop()
                v, line = -child.value, [m] + child.pv
            if v > beta or (v == beta and b_eq):
                return Result(v, line)
            if v > best[0]:
                best = (v, line)
                if v > alpha:
                    alpha, a_eq = v, True
        return Result(best[0], best[1])

    def run(self, board: chess.Board) -> tuple[Result, RootLine | None]:
        """The search from the root; the root move chosen (the best modified value)."""
        r = self.pmg_node((), board, 1, -FLUSH, True, FLUSH, True, self.mcfb0)
        chosen = None
        for x in self.root_lines:
            if not x.refuted and (chosen is None or x.value > chosen.value):
                chosen = x
        return r, chosen
