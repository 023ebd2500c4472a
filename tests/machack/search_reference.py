"""An independent Python reading of the Greenblatt search (machack-original 4; spec 1-3, 7;
docs/machack.md "The search"), for a differential check of ``src/search.mid``.

Written from the notes, not from search.mid.  What the search needs at a node it takes
from an *oracle*:

* ``ProgramOracle`` asks a second, idle copy of the program: ``PLAUS`` for the plausible
  move list (order, plausibility, flags, developmentally poor, pieces with safe moves),
  ``SCORE`` for the static value and ``PREY`` for the pieces on prey and the feedover
  verdict (the plausible move generator and the evaluator have their own references,
  pmg_reference and sbe_reference).  The node is reached by ``SETUP`` of the root and the
  moves of the line typed in PN mode, so the R term is measured against the root's
  ratio and the game ply rises with the line as in the search.

So what is checked here is the search's own rules: depth, widths and their extensions,
alpha-beta with the equal-value rule, the value modifications, feedover and its limits,
the capture search, mate and repetition values, and the counters of STATS.

Values are negamax (for the side to move).  Readings where the notes leave room are
marked CHOICE.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from .notation_reference import unique_texts
from .pmg_reference import Position

MATEV = 28672  # mate in n plies from the root: MATEV - n (docs/machack.md)
FLUSH = 32768  # the root's window: the flushed values (EVMST sentinels)
MATED_RANGE = 28160  # |v| >= 67000 octal: the mover is mated, the slot is given back
BDPV, MSPMV, MSP0MV, MSP1MV = 3, 1, 4, 2


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
        lines = self._plaus_root_flags()
        head = lines[0].split()
        info["safe"] = int(head[3])
        text_to_move: dict[str, chess.Move] = {}
        for m in board.legal_moves:
            for t in names(board, m):
                text_to_move[t] = m
        entries = []
        for line in lines[1:-1]:
            words = line[1:].split()
            text = words[1]
            m = text_to_move.get(text)
            if m is None:
                m = self._by_trace(board, int(words[0]), set(words[2:]), entries)
            entries.append(Entry(m, int(words[0]), set(words[2:]), line[0] == "-"))
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

    def _plaus_root_flags(self) -> list[str]:
        """PLAUS, with the game-phase flags of the search's root: the search computes
        OPENF (game ply <= 16) and OPNMID (<= 40) once at the root (machack-original
        4.8), PLAUS from the position it is given; they are set back to the root's
        after PLAUS has computed them (a breakpoint at PMPREP)."""
        from machack.session import parse_reply

        root = chess.Board(self.root)
        gp = game_ply(root)
        full = (1 << 36) - 1
        m, sym = self.s.machine, self.s.image.symbol
        bp = sym("PMPREP")
        m.breakpoints.add(bp)
        try:
            self.s.type(b"PLAUS\r")
            while True:
                stop = m.run(max_instructions=5_000_000)
                if stop.reason == "breakpoint" and m.pc == bp:
                    m.memory[sym("OPENF")] = full if gp <= 16 else 0
                    m.memory[sym("OPNMID")] = full if gp <= 40 else 0
                    continue
                if stop.reason == "breakpoint" and self.s.at_prompt():
                    break
                if stop.reason == "halt":
                    raise RuntimeError("halted")
                self.s._wait_for_key(5_000_000, 1e18)
        finally:
            m.breakpoints.discard(bp)
        reply = parse_reply(self.s.host.take_output())
        return reply.lines

    def _by_trace(self, board, plaus, flags, done) -> chess.Move:
        taken = {e.move for e in done}
        for m in board.legal_moves:
            if m in taken:
                continue
            total = self.s.send("TRACE " + m.uci().upper()).lines[-2].split()
            if int(total[0]) == plaus and set(total[2:]) == flags - {"POOR"} | (
                {"POOR"} & set(total[2:])
            ):
                return m
        raise RuntimeError("PLAUS move not found")

    def moves(self, path, board) -> list[str]:
        """The legal moves in the program's generator order (MOVES)."""
        key = ("moves",) + path
        if key not in self.cache:
            self._go(path)
            self.cache[key] = [u.lower() for u in self.s.moves()]
        return self.cache[key]

    def plaus(self, path, board) -> NodeList:
        info = self._info(path, board)
        return NodeList(info["list"], info["safe"])

    def score(self, path, board) -> int:
        return self._info(path, board)["score"]

    def prey(self, path, board) -> tuple[list, bool | None]:
        info = self._info(path, board)
        return info["prey"], info["feedover"]


# --- the capture search's candidates (4.7) ----------------------------------------------
def capture_candidates(board: chess.Board, prey, order=None) -> list[tuple[int, chess.Move]]:
    """4.7: every capture by the side to move of an enemy piece on prey, from each
    attacker (each legal capture); gain = victim - attacker, or the victim if
    undefended; a losing capture only when the capturer is attacked (an escape, 0).
    Spec 1 adds promotions ("captures or promotions that appear to gain material"):
    CHOICE a promotion to a queen without capture at 512 (a pawn's promotion gain, one
    reading), under-promotions never.  Sorted, most gain first; ties in ``order`` (the
    program's move generator order, MOVES) if given, else python-chess's."""
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
    out.sort(key=lambda gm: -gm[0])
    return out


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

    # A node of the basic search (ply <= SETD) or a fed-over leaf.
    #
    # CHOICE (values of cut nodes): the notes return the flushed value (+32768 for the
    # side to move) from a node that is cut off and skip the modifications of a child
    # that returns it.  Here a cut node returns the value that cut it (as SMVD types a
    # refuted root move "with the refuting line's value", docs/machack.md), and a child
    # is taken as flushed when its value shows it was cut: no better than alpha (below
    # it when alpha came from a modified value), once a best is known.  The choices are
    # the same; only the value a refuted line reports differs.
    def pmg_node(self, path, board, ply, alpha, a_eq, beta, b_eq, mcfb) -> Result:
        self.st.pmg += 1
        nl = self.o.plaus(path, board)
        if not nl.entries:
            if board.is_check():
                return Result(-(MATEV - (ply - 1)), [])
            return Result(0, [])
        w = self.width(ply)
        k = min(2 * nl.safe_pieces, w) // 2
        counted, pieces = 0, set()
        best: tuple[int, int, list] | None = None  # (modified, raw, pv)
        root = ply == 1
        for e in nl.entries:
            # spec 2: a safe check (PLAUS's INVESTIGATE, at SETC 0); any capture, safe
            # or not, in the first SETC plies
            inv = ("INVESTIGATE" in e.flags) or ("CAPTURE" in e.flags and ply <= self.setc)
            if not (counted < w or len(pieces) < k or inv):
                continue
            pieces.add(e.move.from_square)
            board.push(e.move)
            child = self.node(path + (e.move.uci(),), board, ply + 1,
                              -beta, b_eq, -alpha, a_eq, mcfb)  # fmt: skip
            board.pop()
            raw = -child.value
            line = [e.move] + child.pv
            if raw > -MATED_RANGE:
                counted += 1  # a move after which the mover is mated gives its slot back
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
