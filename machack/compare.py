"""``machack compare``: our program and the surviving original choose in the same positions.

Each position is reached the same way in both programs: the game is typed into each from
its start (the original has no way to set up a position), then each is asked for its
move (``GO`` in ours, ``M`` in the original's), the move is taken back (``U``) and the
game's next move typed, and so on.  Both run on this emulator, so their PDP-6 times
compare directly.  With ``trace`` both print every top-level move they searched, in
their search order (the plausibility order) with its value: ours with ``SMVD 2``, the
original with ``SMVD 1``.

python-chess only names moves (and referees the games typed); every choice is made by
one of the two programs in emulated core.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import chess

from .original import Choice, Original, read_move
from .session import Session

DEFAULT_SETTINGS = ("SETD 4", "SETW 6", "SETF 2")
"""The settings of the comparison (the original's defaults at load), typed into both."""
OURS_FIXED = ("PN", "SMVD 2")
"""Ours: plays neither side (the host asks for each move), types its root moves."""


@dataclass
class Spot:
    """A position to compare: a game's moves from the initial position up to it, and
    the move the game went on with there (None at the end)."""

    label: str
    moves: list[chess.Move]
    played: chess.Move | None = None

    def board(self) -> chess.Board:
        board = chess.Board()
        for move in self.moves:
            board.push(move)
        return board


@dataclass
class RootLine:
    """A top-level move searched: the move, its plausibility (ours only), its value
    (None: refuted, no value of its own) and the line searched."""

    move: chess.Move | None
    plausibility: int | None
    value: int | None
    line: list[str] = field(default_factory=list)


@dataclass
class Pick:
    """One program's choice in a position."""

    move: chess.Move | None
    emulated_s: float
    roots: list[RootLine] = field(default_factory=list)


@dataclass
class Row:
    spot: Spot
    ours: Pick
    original: Pick

    @property
    def agree(self) -> bool:
        return self.ours.move == self.original.move

    @property
    def same_roots(self) -> bool:
        """Both searched the same set of top-level moves."""
        mine = {r.move for r in self.ours.roots}
        theirs = {r.move for r in self.original.roots}
        return bool(mine) and mine == theirs


# --- ours -------------------------------------------------------------------------------
_OUR_ROOT = re.compile(
    r"^(?P<move>\S+) PLAUS (?P<plaus>-?\d+) (?:VALUE (?P<value>-?\d+) RAW -?\d+|REFUTED -?\d+)"
    r" \S+ SEC PV(?P<line>.*)$"
)


def coordinate_move(board: chess.Board, text: str) -> chess.Move | None:
    """A move our program typed in coordinates (E2E4, E7E8Q), if legal in ``board``."""
    try:
        move = chess.Move.from_uci(text.lower())
    except ValueError:
        return None
    return move if move in board.legal_moves else None


class Ours:
    """Our program, driven as ``machack compare`` needs it."""

    def __init__(self, settings: Sequence[str], session: Session | None = None) -> None:
        self.session = session or Session()
        self.settings = list(settings)
        self.board = chess.Board()

    def new_game(self) -> None:
        self.session.command("NEW")
        for line in (*OURS_FIXED, *self.settings):
            self.session.command(line)
        self.board = chess.Board()

    def push(self, move: chess.Move) -> None:
        reply = self.session.send(move.uci().upper())
        if not reply.accepted:
            raise RuntimeError(f"our program refused {move.uci()} in {self.board.fen()}: "
                               f"{reply.text}")  # fmt: skip
        self.board.push(move)

    def think(self) -> Pick:
        reply = self.session.command("GO")
        roots = []
        for line in reply.after_ack:
            found = _OUR_ROOT.match(line)
            if found:
                value = found["value"]
                roots.append(RootLine(coordinate_move(self.board, found["move"]),
                                      int(found["plaus"]), int(value) if value else None,
                                      found["line"].split()))  # fmt: skip
        best = self.session.command("BEST").lines[0].split()
        move = None
        if len(best) > 1 and best[0] in ("BEST", "BOOK", "PLAUSIBLE"):
            move = coordinate_move(self.board, best[1])
        if move is not None:
            self.session.command("U")
        return Pick(move, reply.emulated_us / 1e6, roots)


def original_pick(board: chess.Board, choice: Choice) -> Pick:
    """The original's choice as a :class:`Pick` (its root moves named on ``board``)."""
    roots = []
    for root in choice.roots:
        try:
            move: chess.Move | None = read_move(board, root.move_text)
        except ValueError:
            move = None
        value = None if abs(root.value) >= 32768 else root.value
        roots.append(RootLine(move, None, value, root.line))
    return Pick(choice.move, choice.emulated_s, roots)


# --- the comparison -------------------------------------------------------------------------
def compare(
    original: Original,
    ours: Ours,
    spots: Iterable[Spot],
    settings: Sequence[str],
    trace: bool = False,
    progress: Callable[[Row], None] | None = None,
) -> list[Row]:
    """Both programs choose in each spot; spots of one game in order of their plies are
    reached by typing on (a new game is started when a spot does not continue the last)."""
    rows: list[Row] = []
    typed: list[chess.Move] | None = None
    for spot in spots:
        if typed is None or spot.moves[: len(typed)] != typed:
            original.new_game()
            for line in settings:
                original.command(line)
            original.command(f"SMVD {1 if trace else 0}")
            ours.new_game()
            typed = []
        for move in spot.moves[len(typed) :]:
            original.push(move)
            ours.push(move)
            typed.append(move)
        board = original.board.copy()
        choice = original.think()
        if choice.move is not None:
            original.undo()
        row = Row(spot, ours.think(), original_pick(board, choice))
        rows.append(row)
        if progress is not None:
            progress(row)
    return rows


@dataclass
class Summary:
    positions: int
    agree: int
    same_roots: int
    ours_median_s: float
    original_median_s: float

    def line(self) -> str:
        n = max(self.positions, 1)
        return (f"{self.agree} of {self.positions} the same move ({self.agree / n:.0%}); "
                f"the same root moves in {self.same_roots} ({self.same_roots / n:.0%}); "
                f"median PDP-6 s a move: ours {self.ours_median_s:.1f}, the original's "
                f"{self.original_median_s:.1f} "
                f"({self.ours_median_s / max(self.original_median_s, 1e-9):.2f}x)")  # fmt: skip


def summarize(rows: Sequence[Row]) -> Summary:
    return Summary(
        len(rows),
        sum(r.agree for r in rows),
        sum(r.same_roots for r in rows),
        statistics.median(r.ours.emulated_s for r in rows) if rows else 0.0,
        statistics.median(r.original.emulated_s for r in rows) if rows else 0.0,
    )
