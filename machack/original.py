"""The surviving original Mac Hack on our emulator, driven over its teletype.

The late-1960s image ``@ CHESS`` (assembled from the source CHESS D; docs/period-software.md
says where to fetch it) is the reference our program is compared with (``machack compare``)
and an opponent for matches (``machack match --opponent original:FILE``).  It is a black
box: the host types moves and commands at its teletype and reads what it prints, exactly
as an operator at the DEC console did.  Nothing of it ships with this package, and
nothing here reads its code.

Facts about the image, measured on this emulator:

* One block (011424-011657) fails its checksum: the word at 011475 was damaged in the
  copying.  The checksum implies the one value that word must hold
  (:meth:`pdp6.formats.checksum.BadBlock.implied_word`); with it, every key is answered (without
  it, every key gets ``X``).  :func:`load_original` makes that repair and then checks the
  repaired words against their fingerprint, so a file that is not this image is refused.
* The program starts at 100 (``JRST 12306``), waits for a key at 011623 with its input
  mailbox 011660 empty and its output mailboxes 011661-011662 drained.
* Moves are typed with squares counted from the mover's side (``P/K2-K4``,
  ``N/KN1-KB3``, ``O-O``); it prints its own as ``BP/K2-K4``, ``WQ/Q1*P/Q4``.  It has no
  way to set up a position: a position is reached by typing the game from the start.
* It is deterministic: the same game and settings always give the same move.  It has no
  book, no hash table and no repetition check.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import chess

from pdp6 import Machine
from pdp6.devices.teletype import FAST_CHAR_NS, ScriptedHost, Teletype
from pdp6.formats.loader import LoadedImage, LoaderError, load_file
from pdp6.iobus import NEVER

DAMAGED_WORD = 0o11475
"""The word of block 32 (011424-011657) that came through the copies damaged."""
FINGERPRINT = "d4e5ca613b83eaaf2d994eeec98ebba67f2c8c58092015bafec6977f6236d0a8"
"""sha256 of the repaired image's words (see :func:`fingerprint`)."""
WAIT_PC = 0o11623  # its wait for a key
MAILBOXES = (0o11660, 0o11661, 0o11662)  # input, output, echo: all 0 when it waits
BAUD = 2400
"""The teletype's speed for the host.  At the emulator's fast mode the program loses keys
typed in a burst (its interrupt routine hands each to a one-character mailbox); a line
at 2400 baud takes a few hundredths of an emulated second, so printing hardly counts in
the time a move takes (at the Model 35's 110 baud a move line alone is a second); at
9600 it still loses one now and then."""
FILES = "hgfedcba"  # the board's columns 1-8: KR KN KB K Q QB QN QR
FILE_NAMES = ["KR", "KN", "KB", "K", "Q", "QB", "QN", "QR"]
PIECE_LETTERS = {chess.PAWN: "P", chess.KNIGHT: "N", chess.BISHOP: "B", chess.ROOK: "R",
                 chess.QUEEN: "Q", chess.KING: "K"}  # fmt: skip
DEFAULT_BUDGET_S = 36_000.0  # emulated seconds an exchange may take before it is a hang


class QuickPrinter(Teletype):
    """The teletype with keys at :data:`BAUD` (the program loses keys typed faster) and
    its printing at the fast mode's rate, so that what it prints (SMVD's records, some
    1.7 s at 2400 baud) adds nothing worth counting to a move's time, as our program's
    printing at the fast mode adds nothing: ``machack compare`` times both searches."""

    def datao(self, word: int) -> None:
        super().datao(word)
        self.output_done_at = self.now + FAST_CHAR_NS


class OriginalError(RuntimeError):
    """The file is not the image, or the program did not answer as it always does."""


class Underpromotion(OriginalError):
    """A move the original cannot be typed: it only ever promotes to a queen."""


def fingerprint(words: dict[int, int]) -> str:
    """sha256 over the image's words in address order (address and word, 12 bytes each)."""
    digest = hashlib.sha256()
    for addr in sorted(words):
        digest.update(addr.to_bytes(4, "big") + words[addr].to_bytes(8, "big"))
    return digest.hexdigest()


def load_original(path: str | Path) -> LoadedImage:
    """Read the image, make the one repair its checksum implies, and check that it is the
    surviving Mac Hack; anything else is refused with :class:`OriginalError`."""
    try:
        image = load_file(path, ignore_checksum=True)
    except LoaderError as exc:
        raise OriginalError(str(exc)) from None
    bad = [b for b in image.bad_blocks if b.holds(DAMAGED_WORD)]
    if len(image.bad_blocks) == 1 and bad:
        image.words[DAMAGED_WORD] = bad[0].implied_word(DAMAGED_WORD)
    if image.bad_blocks and not bad or fingerprint(image.words) != FINGERPRINT:
        raise OriginalError(
            f"{path} is not the surviving Mac Hack image '@ CHESS' (its words differ from "
            "that image's; docs/period-software.md says where to fetch it)"
        )
    return image


# --- its notation ------------------------------------------------------------------------
def square_name(square: chess.Square, colour: chess.Color) -> str:
    """A square as the original names it for the side ``colour``: K4, QB3 (ranks from
    that side).

    >>> square_name(chess.E4, chess.WHITE), square_name(chess.E5, chess.BLACK)
    ('K4', 'K4')
    >>> square_name(chess.C3, chess.WHITE)
    'QB3'
    """
    rank = chess.square_rank(square) + 1
    if colour == chess.BLACK:
        rank = 9 - rank
    return f"{FILE_NAMES[FILES.index(chess.FILE_NAMES[chess.square_file(square)])]}{rank}"


def typed_move(board: chess.Board, move: chess.Move) -> str:
    """``move`` as typed to the original: ``P/K2-K4``, ``O-O``, ``P/K7-K8`` (it queens;
    it never promotes to anything else).

    >>> typed_move(chess.Board(), chess.Move.from_uci("g1f3"))
    'N/KN1-KB3'
    """
    if board.is_castling(move):
        return "O-O" if chess.square_file(move.to_square) == 6 else "O-O-O"
    piece = board.piece_type_at(move.from_square)
    assert piece is not None
    colour = board.turn
    return (f"{PIECE_LETTERS[piece]}/{square_name(move.from_square, colour)}-"
            f"{square_name(move.to_square, colour)}")  # fmt: skip


_PRINTED = re.compile(
    r"^(?:[WB])?(?P<piece>[PNBRQK])/(?P<origin>[KQ][RNB]?[1-8])"
    r"(?:-(?P<to>[KQ][RNB]?[1-8])|\*(?P<victim>[PNBRQKG])/(?P<at>[KQ][RNB]?[1-8]))"
)


def _square(name: str, colour: chess.Color) -> chess.Square:
    file = FILES[FILE_NAMES.index(name[:-1])]
    rank = int(name[-1])
    if colour == chess.BLACK:
        rank = 9 - rank
    return chess.parse_square(f"{file}{rank}")


def read_move(board: chess.Board, text: str) -> chess.Move:
    """The move the original printed (``BN/KB3*P/K5``, ``O-O CHECK``) in ``board``; raises
    ValueError if it names no legal move there.

    >>> board = chess.Board("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")
    >>> read_move(board, "BN/QN1-QB3")
    Move.from_uci('b8c6')
    """
    word = text.split()[0] if text.split() else ""
    colour = board.turn
    if word.startswith(("O-O-O", "O-O")):
        side = "O-O-O" if word.startswith("O-O-O") else "O-O"
        for move in board.legal_moves:
            if board.is_castling(move) and typed_move(board, move) == side:
                return move
        raise ValueError(f"{text!r}: castling is not legal here")
    found = _PRINTED.match(word)
    if found is None:
        raise ValueError(f"{text!r} is not a move as the original prints one")
    origin = _square(found["origin"], colour)
    target = _square(found["to"] or found["at"], colour)
    promotion = chess.QUEEN if "=" in word else None
    move = chess.Move(origin, target, promotion)
    if move not in board.legal_moves:
        raise ValueError(f"{text!r} is not legal here ({board.fen()})")
    return move


# --- what it prints ----------------------------------------------------------------------
@dataclass
class RootMove:
    """One top-level move as SMVD prints it after the search of it: the line searched
    (the move first), its value after the modifications and its raw value (both
    32768 for a move refuted, with no value of its own), the seconds it took."""

    line: list[str]
    value: int
    raw: int
    seconds: float

    @property
    def move_text(self) -> str:
        return self.line[0] if self.line else ""


@dataclass
class Choice:
    """The original's move in a position: the move, as printed and as a python-chess move,
    the PDP-6 seconds the ``M`` command took, and what SMVD and PSVD printed."""

    text: str
    move: chess.Move | None
    emulated_s: float
    roots: list[RootMove] = field(default_factory=list)
    value: int | None = None
    pv: list[str] = field(default_factory=list)
    candidates: list[Candidate] = field(default_factory=list)
    partials: list[int | None] = field(default_factory=list)  # what probes noted


_VALUES = re.compile(r"^(-?\d+)\t(-?\d+)\t(\d+\.\d+)$")


def read_choice(printed: str) -> tuple[str, list[RootMove], int | None, list[str]]:
    """Split the printout of ``M`` (with SMVD and PSVD on or off): the move line, the
    top-level moves, the value and the principal variation."""
    roots: list[RootMove] = []
    pending: list[str] = []
    for line in (x.strip() for x in printed.split("\n")):
        found = _VALUES.match(line)
        if found:  # the end of an SMVD record: its line is what came before
            roots.append(RootMove(pending, int(found[1]), int(found[2]), float(found[3])))
            pending = []
        elif line and line != "_":
            pending.append(line)
    # After the last record: the move line, then (PSVD) the value, PRINCIPAL VARIATION
    # and the line.
    move_text = pending[0] if pending else ""
    value: int | None = None
    pv: list[str] = []
    if "PRINCIPAL VARIATION" in pending:
        at = pending.index("PRINCIPAL VARIATION")
        if at >= 2 and re.fullmatch(r"-?\d+", pending[at - 1]):
            value = int(pending[at - 1])
        pv = pending[at + 1 :]
    return move_text, roots, value, pv


# --- its plausible move generator at the top level ---------------------------------------
PUSHED_PC = 0o14673
"""The instruction after the PMG pushes a candidate's words: piece,,destination, then
flags,,plausibility, on the stack (accumulator 17); measured, as in machack-audit.md."""
PLY_WORD = 0o101  # the ply of the node being searched, 1 at the top (LMGD)
O_O_TO, O_O_O_TO = 0o376, 0o377  # a castling candidate's destination


def piece_numbers(board_moves: Iterable[chess.Move]) -> dict[chess.Square, int]:
    """The original's number (1-32) of every piece on the board after ``board_moves``
    from the initial position: White's pawns 1-8 from the KR file, then KR KN KB K Q QB
    QN QR; Black's 17-32 the same.  A promoted pawn keeps its number."""
    order = [chess.square(f, 1) for f in range(7, -1, -1)]  # pawns from the KR file
    order += [chess.square(f, 0) for f in range(7, -1, -1)]  # KR KN KB K Q QB QN QR
    numbers = {sq: n + 1 for n, sq in enumerate(order)}
    numbers.update({chess.square_mirror(sq): n + 17 for n, sq in enumerate(order)})
    board = chess.Board()
    for move in board_moves:
        piece = numbers.pop(move.from_square)
        if board.is_en_passant(move):
            numbers.pop(move.to_square + (-8 if board.turn == chess.WHITE else 8), None)
        if board.is_castling(move):
            rank = chess.square_rank(move.from_square)
            rook_from, rook_to = (7, 5) if chess.square_file(move.to_square) == 6 else (0, 3)
            numbers[chess.square(rook_to, rank)] = numbers.pop(chess.square(rook_from, rank))
        numbers[move.to_square] = piece
        board.push(move)
    return numbers


def board_square(address: int) -> chess.Square:
    """A square of the original's board (row * 10 + column; row 2 is rank 1, column 1 the
    KR file)."""
    row, col = divmod(address, 10)
    return chess.square(8 - col, row - 2)


@dataclass
class Candidate:
    """A top-level move as the PMG scored it: the move, its plausibility and flags."""

    move: chess.Move | None
    plausibility: int
    investigate: bool
    poor: bool


class Original:
    """The original program booted in an emulated PDP-6, with a python-chess board that
    follows the game typed into it (to name its moves in coordinates).

    >>> original = Original(load_original(path))       # doctest: +SKIP
    >>> original.push(chess.Move.from_uci("e2e4"))      # doctest: +SKIP
    >>> original.think().move                           # doctest: +SKIP
    Move.from_uci('e7e5')
    """

    def __init__(
        self, image: LoadedImage, engine: str | None = None, quick_printing: bool = False
    ) -> None:
        self.machine = Machine(engine=engine)
        self.host = ScriptedHost(b"", eof=False)
        self.tty = (QuickPrinter if quick_printing else Teletype)(self.host, baud=BAUD)
        self.machine.attach(self.tty)
        for addr, word in image.words.items():
            self.machine.memory[addr] = word
        self.machine.pc = image.start if image.start is not None else 0o100
        self.machine.breakpoints.add(WAIT_PC)
        self.board = chess.Board()
        self.partial: int | None = None  # what a probe noted for the next candidate
        self._run(60.0)  # to its first wait

    # --- the teletype ---------------------------------------------------------------------
    def _waiting(self) -> bool:
        m, tty = self.machine, self.tty
        if m.pc != WAIT_PC or self.host.keys or any(m.memory[a] for a in MAILBOXES):
            return False
        return not (tty.input_busy or tty.input_flag or tty.output_busy
                    or tty.input_ready_at != NEVER)  # fmt: skip

    def _run(self, limit_s: float, probes: dict[int, Callable[[], None]] | None = None) -> str:
        """Run until it waits for a key, calling ``probes[pc]`` each time it comes to one
        of those instructions (a breakpoint set while the run lasts)."""
        m = self.machine
        probes = probes or {}
        m.breakpoints.update(probes)
        end = m.elapsed_us + limit_s * 1e6
        try:
            stop = m.run(max_instructions=50_000_000, until_us=end)
            while m.elapsed_us < end:
                if stop.reason == "halt":
                    raise OriginalError(f"the original halted at {stop.pc:06o}")
                if stop.reason != "breakpoint":
                    stop = m.run(max_instructions=50_000_000, until_us=end)
                    continue
                if stop.pc == WAIT_PC and self._waiting():
                    return self.host.take_output()
                if stop.pc in probes:
                    probes[stop.pc]()
                at = stop.pc  # on past it (a key on its way, a probe), in a short run
                m.breakpoints.discard(at)  # that may stop at another: looked at next
                try:
                    stop = m.run(max_instructions=1 if at in probes else 500)
                finally:
                    m.breakpoints.add(at)
        finally:
            m.breakpoints.difference_update(probes)
            m.breakpoints.add(WAIT_PC)
        raise OriginalError(f"no answer within {limit_s:.0f} PDP-6 seconds (pc {m.pc:06o}); "
                            f"printed: {self.host.output[-200:]!r}")  # fmt: skip

    def send(self, line: str, limit_s: float = DEFAULT_BUDGET_S) -> str:
        """Type a line; what it printed after its echo."""
        self.host.type(line + "\r")
        printed = self._run(limit_s)
        echo, _, rest = printed.partition("\n")
        if echo.strip() != line:
            raise OriginalError(f"typed {line!r}, it echoed {echo!r}")
        return rest

    def command(self, line: str) -> str:
        """A command that must be accepted (``_``)."""
        printed = self.send(line)
        if "_" not in printed:
            raise OriginalError(f"{line!r} was refused: {printed!r}")
        return printed

    # --- the game -------------------------------------------------------------------------
    def new_game(self) -> None:
        """Every move taken back, the clocks zeroed, playing neither side (RESET)."""
        printed = self.send("RESET")  # (it answers nothing)
        if printed.strip():
            raise OriginalError(f"RESET: it printed {printed!r}")
        self.board = chess.Board()

    def set(self, depth: int | None = None, widths: list[int] | None = None,
            feedover: int | None = None) -> None:  # fmt: skip
        """SETD, SETW, SETF as the operator types them."""
        if depth is not None:
            self.command(f"SETD {depth}")
        if widths:
            self.command("SETW " + " ".join(str(w) for w in widths))
        if feedover is not None:
            self.command(f"SETF {feedover}")

    def push(self, move: chess.Move) -> None:
        """Type a move of the game (it must be accepted)."""
        if move.promotion not in (None, chess.QUEEN):
            raise Underpromotion(f"{move.uci()}: the original only ever promotes to a queen")
        text = typed_move(self.board, move)
        printed = self.send(text)
        if "_" not in printed:
            raise OriginalError(f"it refused {text} in {self.board.fen()}: {printed.strip()!r}")
        self.board.push(move)

    def think(
        self, plausibility: bool = False, probes: dict[int, Callable[[], None]] | None = None
    ) -> Choice:
        """``M``: its move in the present position, made on its board and on ours; with
        ``plausibility`` the PMG's candidates at the top level are read as it pushes
        them (``Choice.candidates``, in the order generated).  ``probes`` as for _run."""
        m = self.machine
        t0 = m.elapsed_us
        seen: list[tuple[int, int]] = []

        def pushed() -> None:
            if m.memory[PLY_WORD] == 1:
                top = m.memory[0o17] & 0o777777
                seen.append((m.memory[top - 1], m.memory[top]))
                partials.append(self.partial)
            self.partial = None

        partials: list[int | None] = []
        self.partial = None
        probes = dict(probes or {})
        if plausibility:
            probes[PUSHED_PC] = pushed
        self.host.type("M\r")
        echo, _, printed = self._run(DEFAULT_BUDGET_S, probes).partition("\n")
        seconds = (m.elapsed_us - t0) / 1e6
        text, roots, value, pv = read_choice(printed)
        choice = Choice(text, None, seconds, roots, value, pv)
        choice.candidates = [self._candidate(*pair) for pair in seen]
        choice.partials = partials
        try:
            choice.move = read_move(self.board, text) if text else None
        except ValueError as exc:  # (it printed something that is no move of this game)
            raise OriginalError(f"M: {exc}") from None
        if choice.move is not None:
            self.board.push(choice.move)
        return choice

    def _candidate(self, where: int, score: int) -> Candidate:
        piece, to = where >> 18, where & 0o777777
        move: chess.Move | None = None
        if to in (O_O_TO, O_O_O_TO):
            side = "O-O" if to == O_O_TO else "O-O-O"
            move = next((m for m in self.board.legal_moves
                         if self.board.is_castling(m) and typed_move(self.board, m) == side),
                        None)  # fmt: skip
        else:
            numbers = piece_numbers(self.board.move_stack)
            origin = next((sq for sq, n in numbers.items() if n == piece), None)
            if origin is not None:
                target = board_square(to)
                promote = (self.board.piece_type_at(origin) == chess.PAWN
                           and chess.square_rank(target) in (0, 7))  # fmt: skip
                move = chess.Move(origin, target, chess.QUEEN if promote else None)
        return Candidate(
            move,
            score & 0o777777 if score & 0o400000 == 0 else (score & 0o777777) - (1 << 18),
            bool(score >> 35),
            bool(score >> 18 & 1),
        )

    def undo(self) -> None:
        """``U``: the last move taken back (it answers nothing)."""
        printed = self.send("U")
        if printed.strip():
            raise OriginalError(f"U: it printed {printed!r}")
        self.board.pop()
