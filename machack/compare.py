"""``machack compare``: our program and the surviving original choose in the same positions.

Each position is reached the same way in both programs: the game is typed into each from
its start (the original has no way to set up a position), then each is asked for its
move (``GO`` in ours, ``M`` in the original's).  The original is booted afresh from its
image for every position, because it carries state from one search to the next that
neither ``U`` nor its ``RESET`` clears: it forgets every pin when it builds its attack
tables but that of one piece, Black's queen's rook (piece 32), so once the rook has been
pinned, in the game or anywhere in a search, it stays pinned, and its plausibilities,
and sometimes its move, follow (measured: with the original kept running through a set,
as in play, its answer in a position depends on which positions it was asked about
before).  Booted afresh, its answer is a function of the game and the settings alone.
``RULES D`` keeps that pin as the original does, until a new board (``NEW``, ``SETUP``),
so ours too starts every position with ``NEW`` and the game typed from its start.
Both run on this emulator, so their PDP-6 times
compare directly (the original prints at the fast rate, as ours does: see
:class:`machack.original.QuickPrinter`).  Both print every top-level move they searched,
in their search order (the plausibility order) with its value: ours with ``SMVD 2``,
the original with ``SMVD 1``; the root sets and ``--trace`` come from those lines.

Positions come from the four 1967 games (Mac Hack's moves there), a PGN file (every
position of every game) or a file of lines ``startpos moves ...``.  The original only
ever promotes to a queen, so a game is compared up to its first underpromotion.

python-chess only names moves (and referees the games typed); every choice is made by
one of the two programs in emulated core.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import chess

from pdp6.formats.loader import LoadedImage

from .original import Choice, Original, OriginalError, load_original, read_move
from .player import name_move
from .session import Session, SessionError, is_move_line

DEFAULT_SETTINGS = ("SETD 4", "SETW 6", "SETF 2")
"""The settings of the comparison (the original's defaults at load), typed into both."""
OURS_FIXED = ("PN", "SMVD 2")
"""Ours: plays neither side (the host asks for each move), types its root moves."""
ORIGINAL_FIXED = ("SMVD 1",)
"""The original: types its root moves (it plays neither side after RESET)."""
BOTH_COMMANDS = ("SETD", "SETW", "SETF", "SETC")
"""The settings the original has (its SETD, SETW, SETF, SETC): typed into both."""
NOT_SETTINGS = frozenset(
    "GO M U TAKEBACK NEW SETUP RESET PW PB PS PN SMVD PSVD PSTAT RESIGN DRAW? BELL".split()
)
"""Commands that move, start over or change what the comparison reads: not for --set."""
LIMITS = {"budget": 10**13, "emulated_limit_s": 36_000.0}
"""Ours may think as long as the original may (original.DEFAULT_BUDGET_S)."""
STARTPOS = ("startpos", "start")


class CompareError(RuntimeError):
    """The programs cannot be compared there: a move or a setting was refused."""


# --- settings ---------------------------------------------------------------------------
def route_settings(lines: Iterable[str]) -> tuple[list[str], list[str]]:
    """The --set lines split into those for both programs (the settings the original
    has: SETD, SETW, SETF, SETC, each n a decimal number) and those for ours alone
    (RULES D, BOOK OFF, ...); upper case, spaces made single.  A line that is no
    setting, or an original's setting that is not numbers, is a ValueError (the
    original's own reading of such a line leaves it in a muddle, not refusing it).

    >>> route_settings(["setd  5", "RULES D", "SETW 15 15 9"])
    (['SETD 5', 'SETW 15 15 9'], ['RULES D'])
    """
    both: list[str] = []
    ours: list[str] = []
    for text in lines:
        words = text.upper().split()
        if not words:
            raise ValueError("--set: an empty setting")
        line = " ".join(words)
        if words[0] in NOT_SETTINGS:
            raise ValueError(f"--set {text!r}: not a setting (the comparison types {words[0]} "
                             "itself, or it would move or start over)")  # fmt: skip
        if words[0] in BOTH_COMMANDS:
            numbers = words[1:]
            if not numbers or not all(w.isdigit() for w in numbers):
                example = "6 6 4" if words[0] == "SETW" else "4"
                raise ValueError(f"--set {text!r}: {words[0]} takes numbers ({words[0]} {example})")
            if words[0] != "SETW" and len(numbers) != 1:
                raise ValueError(f"--set {text!r}: {words[0]} takes one number")
            both.append(line)
        else:
            ours.append(line)
    return both, ours


# --- the positions ----------------------------------------------------------------------
@dataclass
class Spot:
    """A position to compare: a game's moves from the initial position up to it, and
    the move the game went on with there (None at the end)."""

    label: str
    moves: list[chess.Move]
    played: chess.Move | None = None
    game: str = ""  # the game it is from (the table's heading above its rows)

    def board(self) -> chess.Board:
        board = chess.Board()
        for move in self.moves:
            board.push(move)
        return board


@dataclass
class Note:
    """A line for the table among the rows: why a game is left out or stops early."""

    text: str
    game: str = ""


def _label(board: chess.Board) -> str:
    return f"{board.fullmove_number}{'.' if board.turn == chess.WHITE else '...'}"


def _underpromotion(board: chess.Board, move: chess.Move) -> str:
    return (f"stops at {_label(board)}{board.san(move)}: the original only ever promotes "
            "to a queen, so the game cannot be typed into it further")  # fmt: skip


def game_spots(
    name: str,
    moves: Sequence[chess.Move],
    ask: Callable[[int, chess.Board], bool] = lambda ply, board: True,
) -> list[Spot | Note]:
    """The spots of a game from the initial position: before each move where ``ask``
    says so; the game ends at its first underpromotion (the position before it is
    still compared) with a note."""
    items: list[Spot | Note] = []
    board = chess.Board()
    for ply, move in enumerate(moves):
        if not move:  # a null move (--): no move to type
            items.append(Note(f"{name}: stops at {_label(board)}: a null move (--)", name))
            break
        if ask(ply, board):
            label = f"{name} {_label(board)}"
            items.append(Spot(label, list(board.move_stack), move, name))
        if move.promotion not in (None, chess.QUEEN):
            items.append(Note(f"{name}: {_underpromotion(board, move)}", name))
            break
        board.push(move)
    return items


def spots_1967() -> list[Spot | Note]:
    """Mac Hack's positions in the four 1967 games (the moves the score marks BOOK, game
    4's first nine, left out: the original has no book)."""
    from .replay import GAMES_1967, read_games
    from .think import machack_side

    items: list[Spot | Note] = []
    for game in read_games(GAMES_1967 / "descriptive.txt"):
        side = machack_side(game)
        book = {ply for ply in range(len(game.moves)) if game.time_of(ply).upper() == "BOOK"}

        def ask(ply: int, board: chess.Board, side: chess.Color | None = side,
                book: set[int] = book) -> bool:  # fmt: skip
            return board.turn == side and ply not in book

        items += game_spots(game.name.split("_")[0], game.moves, ask)
    return items


def spots_pgn(path: Path) -> list[Spot | Note]:
    """Every position of every game in a PGN file, before each of its moves; a game set
    up from another position is left out with a note, one whose moves stop being legal
    is compared up to there."""
    from .replay import read_pgn

    try:
        games = read_pgn(path)
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not games:
        raise ValueError(f"{path} holds no PGN games")
    items: list[Spot | Note] = []
    for game in games:
        if game.start_fen != chess.STARTING_FEN:
            why = "it starts from a set-up position; the original only plays from the start"
            items.append(Note(f"{game.name}: left out: {why}", game.name))
            continue
        items += game_spots(game.name, game.moves)
        if game.unreadable:
            items.append(Note(f"{game.name}: {game.unreadable}", game.name))
    if not any(isinstance(x, Spot) for x in items):
        raise ValueError(f"{path} holds no game with moves from the initial position")
    return items


def spots_lines(path: Path) -> list[Spot | Note]:
    """The positions of a file of lines, each ``startpos moves e2e4 e7e5 ...`` (as a UCI
    ``position`` command gives it; ``position`` before it, a FEN of the initial position
    for ``startpos``, moves in SAN and ``#`` comments all allowed).  The original cannot
    set up a position, so a line from any other FEN refuses the whole file (ValueError),
    saying so; so does a line that cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise ValueError(f"cannot read {path}: {why}") from None
    items: list[Spot | Note] = []
    found = 0
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if words[:1] == ["position"]:
            words = words[1:]
        if not words:
            continue
        where = f"{path}:{number}"
        moves = _moves_from_start(words, where)
        board = chess.Board()
        for word in moves:
            try:
                move = board.parse_uci(word.lower())
            except ValueError:
                try:
                    move = board.parse_san(word)
                except ValueError:
                    raise ValueError(f"{where}: {word!r} is not a legal move there") from None
            if move.promotion not in (None, chess.QUEEN):
                raise ValueError(
                    f"{where}: {board.san(move)} is an underpromotion, which the original "
                    "cannot be typed (it only promotes to a queen)"
                )
            board.push(move)
        if board.is_game_over():
            raise ValueError(f"{where}: the game is over there ({_over(board)}): no move "
                             "to choose")  # fmt: skip
        found += 1
        label = f"line {number} {_label(board)}"
        items.append(Spot(label, list(board.move_stack), None, f"line {number}"))
    if not found:
        raise ValueError(f"{path} holds no positions (lines like 'startpos moves e2e4 e7e5')")
    return items


def every_nth(items: Sequence[Spot | Note], every: int) -> list[Spot | Note]:
    """Every ``every``-th spot (the first, then every n-th after it), and all the notes."""
    kept: list[Spot | Note] = []
    seen = 0
    for item in items:
        if isinstance(item, Spot):
            seen += 1
            if (seen - 1) % every:
                continue
        kept.append(item)
    return kept


def _moves_from_start(words: list[str], where: str) -> list[str]:
    """The move words of a line, whose start must be the initial position."""
    if "moves" in words:
        at = words.index("moves")
        head, moves = words[:at], words[at + 1 :]
    else:
        head, moves = words, []
    if head[:1] == ["fen"]:
        head = head[1:]
    if len(head) == 1 and head[0].lower() in STARTPOS:
        return moves
    fen = " ".join(head)
    try:
        board = chess.Board(fen)
    except ValueError:
        raise ValueError(
            f"{where}: neither 'startpos' nor a FEN: {' '.join(head)[:40]!r} (lines are "
            "'startpos moves e2e4 e7e5 ...')"
        ) from None
    if board.board_fen() != chess.Board().board_fen() or board.turn != chess.WHITE:
        raise ValueError(
            f"{where}: the original cannot set up a position, only be typed a game from the "
            "initial one: give the moves that lead there ('startpos moves e2e4 e7e5 ...') "
            "or the games in a PGN file (--pgn)"
        )
    return moves


def _over(board: chess.Board) -> str:
    outcome = board.outcome()
    return outcome.termination.name.lower().replace("_", " ") if outcome else "over"


# --- what the programs answer -------------------------------------------------------------
@dataclass
class RootLine:
    """A top-level move searched: the move, its plausibility (ours only), its value as
    the program printed it (ours for the side to move, the original's for White; None:
    refuted, no value of its own) and the line searched."""

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

    def _setting(self, line: str) -> None:
        reply = self.session.send(line)
        if not reply.accepted:
            raise CompareError(f"our program refused {line!r}: {reply.text}")

    def new_game(self) -> None:
        self._setting("NEW")
        for line in (*OURS_FIXED, *self.settings):
            self._setting(line)
        self.board = chess.Board()

    def push(self, move: chess.Move) -> None:
        reply = self.session.send(move.uci().upper())
        if not reply.accepted:
            raise CompareError(f"our program refused {move.uci()} in {self.board.fen()}: "
                               f"{reply.text}")  # fmt: skip
        self.board.push(move)

    def think(self) -> Pick:
        """``GO``: its move (named by the position it leads to, then taken back) and
        the root moves SMVD 2 typed."""
        reply = self.session.send("GO", **LIMITS)
        if not reply.accepted:
            raise CompareError(f"our program refused GO: {reply.text}")
        roots = []
        for line in reply.after_ack:
            found = _OUR_ROOT.match(line)
            if found:
                value = found["value"]
                roots.append(RootLine(coordinate_move(self.board, found["move"]),
                                      int(found["plaus"]), int(value) if value else None,
                                      found["line"].split()))  # fmt: skip
        move = None
        if any(is_move_line(x) for x in reply.after_ack):
            move = name_move(self.board, self.session.fen())
            self._setting("U")
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
def open_original(path: str | Path) -> LoadedImage:
    """The image, repaired and checked (:func:`machack.original.load_original`): a file
    that is not it is an OriginalError whose message is one line."""
    return load_original(path)


def boot_original(image: LoadedImage, engine: str | None = None) -> Original:
    """The original booted, printing at the fast rate (its times are its searches')."""
    return Original(image, engine=engine, quick_printing=True)


class Comparison:
    """Both programs, brought to one spot after another: the original booted afresh, ours
    from ``NEW``, and the game typed into both from the start (see the module's
    docstring)."""

    def __init__(self, boot: Callable[[], Original], ours: Ours, settings: Sequence[str]) -> None:
        self.boot, self.ours = boot, ours
        self.settings = list(settings)

    def original(self) -> Original:
        """The original booted, with the settings; a setting refused is a CompareError."""
        original = self.boot()
        for line in (*self.settings, *ORIGINAL_FIXED):
            printed = original.send(line)
            if "_" not in printed:
                raise CompareError(f"the original refused {line!r}: {printed.strip()!r}")
        return original

    def ask(self, spot: Spot) -> Row:
        original, ours = self.original(), self.ours
        ours.new_game()
        for move in spot.moves:
            original.push(move)
            ours.push(move)
        board = original.board.copy()
        return Row(spot, ours.think(), original_pick(board, original.think()))


PROBLEMS = (OriginalError, CompareError, SessionError)
"""What ends one game's comparison (the programs are booted afresh for the next)."""


@dataclass
class Run:
    """What :func:`run` did: the rows, the notes and the problems met."""

    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    skipped: int = 0  # spots not compared after a problem


def run(
    items: Sequence[Spot | Note],
    boot: Callable[[], Comparison],
    show: Callable[[str], None],
    trace: bool = False,
    progress: Callable[[int, int, Spot], None] | None = None,
    done: Run | None = None,
) -> Run:
    """Compare at every spot, ``show``-ing the table as it goes (a heading a game, a
    row a spot, its trace, the notes) and keeping it in ``done`` (so that an
    interrupted run keeps what it did).  A problem (a program refused a move, or did
    not answer) is shown and ends that game's comparison; both programs are booted
    afresh for the next game."""
    done = done if done is not None else Run()
    total = sum(isinstance(x, Spot) for x in items)
    comparison: Comparison | None = None
    game: str | None = None
    failed: str | None = None
    count = 0
    for item in items:
        if isinstance(item, Note):
            show(f"NOTE: {item.text}")
            done.notes.append(item.text)
            continue
        count += 1
        if item.game == failed:
            done.skipped += 1
            continue
        if item.game != game:
            show(HEADER if game is None else "")
            game = item.game
            if item.game:
                show(f"-- {item.game}")
        if progress is not None:
            progress(count, total, item)
        try:
            if comparison is None:
                comparison = boot()
            row = comparison.ask(item)
        except PROBLEMS as exc:
            text = f"{item.label}: {exc}"
            show(f"PROBLEM: {text}")
            done.problems.append(text)
            done.skipped += 1
            failed, comparison = item.game, None
            continue
        done.rows.append(row)
        show(format_row(row))
        if trace:
            for line in format_trace(row):
                show(line)
    return done


class Progress:
    """Where the comparison is, on standard error: on a terminal one line redrawn for
    each position (wiped before each line of the table if that goes to the terminal
    too); otherwise a line as each game begins."""

    def __init__(self, write: Callable[[str], None], tty: bool) -> None:
        self.write, self.tty = write, tty
        self.shown = False
        self.game: str | None = None

    def __call__(self, count: int, total: int, spot: Spot) -> None:
        if self.tty:
            self.write(f"\r\x1b[K[{count}/{total}] {spot.label} ...")
            self.shown = True
        elif spot.game != self.game:
            self.write(f"[{count}/{total}] {spot.game or spot.label}\n")
        self.game = spot.game

    def wipe(self) -> None:
        """Clear the terminal's progress line (before a line of the table, or at the end)."""
        if self.shown:
            self.write("\r\x1b[K")
            self.shown = False


# --- the table ---------------------------------------------------------------------------
COLUMNS = ((18, "position"), (8, "played"), (8, "ours"), (10, "original"), (6, "agree"),
           (9, "ours s"), (9, "orig s"))  # fmt: skip
HEADER = "".join(
    f"{name:<{width}}" if i < 5 else f"{name:>{width}}" for i, (width, name) in enumerate(COLUMNS)
).rstrip()


def _san(board: chess.Board, move: chess.Move | None) -> str:
    if move is None:
        return "-"
    return board.san(move) if move in board.legal_moves else move.uci()


def format_row(row: Row) -> str:
    """A spot's line: where, the game's move, both moves, whether they agree, both PDP-6
    times (seconds)."""
    board = row.spot.board()
    cells = [row.spot.label, _san(board, row.spot.played), _san(board, row.ours.move),
             _san(board, row.original.move), "yes" if row.agree else "no"]  # fmt: skip
    widths = [width for width, _ in COLUMNS[:5]]
    text = "".join(
        f"{c:<{w}}" if len(c) < w else f"{c} " for c, w in zip(cells, widths, strict=True)
    )
    return (text + f"{row.ours.emulated_s:>{COLUMNS[5][0]}.1f}"
            f"{row.original.emulated_s:>{COLUMNS[6][0]}.1f}")  # fmt: skip


TRACE_WIDTH = 30  # the ours column of a trace


def format_trace(row: Row) -> list[str]:
    """Both programs' root moves side by side, in the order each searched them: the
    move, (ours) its plausibility, its value for the side to move (the original prints
    White's: turned for Black; ``-``: refuted, no value of its own); ``*`` marks the move
    chosen.  Then the moves only one of them searched."""
    board = row.spot.board()

    def cell(root: RootLine, chosen: chess.Move | None, plaus: bool, sign: int = 1) -> str:
        mark = "*" if root.move is not None and root.move == chosen else " "
        name = _san(board, root.move) if root.move is not None else "?"
        value = "-" if root.value is None else str(root.value * sign)
        middle = f"{root.plausibility if root.plausibility is not None else '':>6}" if plaus else ""
        return f"{name + mark:<9}{middle}{value:>7}"

    turn = 1 if board.turn == chess.WHITE else -1  # (the original's values are White's)
    left = [cell(r, row.ours.move, True) for r in row.ours.roots]
    right = [cell(r, row.original.move, False, turn) for r in row.original.roots]
    lines = [f"    {'ours: move plaus value':<{TRACE_WIDTH}}original: move value"]
    for i in range(max(len(left), len(right))):
        a = left[i] if i < len(left) else ""
        b = right[i] if i < len(right) else ""
        lines.append(f"    {a:<{TRACE_WIDTH}}{b}".rstrip())
    mine = [r.move for r in row.ours.roots if r.move is not None]
    theirs = [r.move for r in row.original.roots if r.move is not None]
    only_ours = [_san(board, m) for m in mine if m not in theirs]
    only_theirs = [_san(board, m) for m in theirs if m not in mine]
    if only_ours or only_theirs:
        lines.append(f"    searched by ours only: {', '.join(only_ours) or '-'}; "
                     f"by the original only: {', '.join(only_theirs) or '-'}")  # fmt: skip
    return lines


@dataclass
class Summary:
    positions: int
    agree: int
    same_roots: int
    ours_median_s: float
    original_median_s: float
    with_played: int = 0  # positions where the game went on with a move
    ours_played: int = 0  # ... and ours chose it
    original_played: int = 0  # ... and the original chose it

    def line(self) -> str:
        n = max(self.positions, 1)
        return (f"{self.agree} of {self.positions} the same move ({self.agree / n:.0%}); "
                f"the same root moves in {self.same_roots} ({self.same_roots / n:.0%}); "
                f"median PDP-6 s a move: ours {self.ours_median_s:.1f}, the original's "
                f"{self.original_median_s:.1f} "
                f"({self.ours_median_s / max(self.original_median_s, 1e-9):.2f}x)")  # fmt: skip

    def played_line(self) -> str:
        """How often each chose the move the game went on with ('' if none known)."""
        if not self.with_played:
            return ""
        n = self.with_played
        return (f"the game's move: ours {self.ours_played} of {n} "
                f"({self.ours_played / n:.0%}), the original {self.original_played} "
                f"({self.original_played / n:.0%})")  # fmt: skip


def summarize(rows: Sequence[Row]) -> Summary:
    played = [r for r in rows if r.spot.played is not None]
    return Summary(
        len(rows),
        sum(r.agree for r in rows),
        sum(r.same_roots for r in rows),
        statistics.median(r.ours.emulated_s for r in rows) if rows else 0.0,
        statistics.median(r.original.emulated_s for r in rows) if rows else 0.0,
        len(played),
        sum(r.ours.move == r.spot.played for r in played),
        sum(r.original.move == r.spot.played for r in played),
    )
