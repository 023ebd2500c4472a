"""Replaying recorded games into the program, checking it move by move.

The program reads every move (descriptive notation exactly as printed, or coordinates
from a PGN) and keeps its own position; python-chess is only the referee: after each
move the program's ``FEN`` must equal python-chess's position after the recorded move.
At the end, a record that finishes in mate must have had the mate announced
(``CHECKMATE``), and a record that stops early (games 2 and 4 break off before their
repetition is complete) must not have had any result claimed.

Files: PGN (any number of games; moves are typed in coordinates) and the format of
``games/1967/descriptive.txt``, shipped with the package (games separated by a line of
``=``; a header of ``Key: value`` lines; then ``n WHITE [time] BLACK`` lines).  For a
descriptive game the referee's moves come from the PGN file of the same name beside it
(``<name>.pgn``).

When the printed notation is genuinely ambiguous (the program answers ``AMBIGUOUS``, as
the 1967 print is for 9...N-Q2 of game 1 and 8.QXB of game 4), the replay does what the
operator did: it types the move again, taken from the record (in coordinates), and
reports the ambiguity.  Any other refusal is a failure.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.pgn

from .session import Session, SessionError

GAMES_1967 = Path(__file__).resolve().parent / "games" / "1967"
"""The four 1967 tournament games, shipped with the package (``machack replay --1967``)."""
RESULT_WORDS = ("CHECKMATE", "STALEMATE", "DRAW BY", "RESIGNS")
_TIME = re.compile(r"^(BOOK|[0-9?.]+)$")


@dataclass
class RecordedGame:
    """A game to replay: typed texts, and the referee's moves (python-chess)."""

    name: str
    start_fen: str
    typed: list[str]
    moves: list[chess.Move]
    source: str
    white: str = ""
    black: str = ""
    times: list[str] = field(default_factory=list)  # per ply as printed: '' none, BOOK
    unreadable: str = ""  # where the record stops making sense ('' if it never does)

    def time_of(self, ply: int) -> str:
        return self.times[ply] if ply < len(self.times) else ""


@dataclass
class ReplayResult:
    """How a game replayed."""

    name: str
    plies: int = 0
    ok: bool = True
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    mate_announced: bool = False

    def summary(self) -> str:
        state = "ok" if self.ok else "FAILED"
        text = f"{self.name}: {self.plies} plies {state}"
        if self.mate_announced:
            text += "; mate announced"
        for note in self.notes:
            text += f"; {note}"
        for problem in self.problems:
            text += f"; {problem}"
        return text


# --- reading files ----------------------------------------------------------------------
def read_pgn(path: Path) -> list[RecordedGame]:
    """Every game of a PGN file, typed as coordinate moves.  A game whose moves stop
    being legal is kept up to there, with ``unreadable`` saying where."""
    games: list[RecordedGame] = []
    pgn_log = logging.getLogger("chess.pgn")  # (it logs what game.errors holds)
    level = pgn_log.level
    pgn_log.setLevel(logging.CRITICAL)
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                games.append(_recorded(game, path, len(games)))
    finally:
        pgn_log.setLevel(level)
    return games


def _recorded(game: chess.pgn.Game, path: Path, index: int) -> RecordedGame:
    name = path.stem if not index else f"{path.stem}#{index + 1}"
    white, black = game.headers.get("White", ""), game.headers.get("Black", "")
    try:
        start = game.board().fen()
    except ValueError as exc:  # a FEN header that cannot be read: no moves either
        recorded = RecordedGame(name, chess.STARTING_FEN, [], [], "pgn", white, black)
        recorded.unreadable = f"its FEN header cannot be read: {exc}"
        return recorded
    moves = list(game.mainline_moves())
    typed = [m.uci().upper() for m in moves]
    recorded = RecordedGame(name, start, typed, moves, "pgn", white, black)
    if game.errors:  # the first, which may be in a variation: its position says where
        why, _, fen = str(game.errors[0]).partition(" in ")
        try:
            where = chess.Board(fen)
            place = f"move {where.fullmove_number} ({'White' if where.turn else 'Black'})"
        except ValueError:
            place = f"ply {len(moves) + 1}"
        recorded.unreadable = f"the record cannot be read from {place}: {why}"
    return recorded


def descriptive_moves(block: str) -> tuple[str, dict[str, str], list[str], list[str]]:
    """(name, header, printed moves, printed times) of one game of the descriptive
    format; a time (the computer's seconds, or BOOK, as game 4 prints them) belongs to
    the move before it, '' where none is printed."""
    lines = [ln.rstrip() for ln in block.strip().splitlines()]
    name = lines[0].strip() if lines else "game"
    header: dict[str, str] = {}
    moves: list[str] = []
    times: list[str] = []
    for line in lines[1:]:
        number = re.match(r"^\s*(\d+)\s+(.*)$", line)
        if number:
            for token in number.group(2).split():
                if _TIME.match(token) and moves:
                    times[-1] = token
                elif token.upper() in ("MATE", "CH", "E.P.") and moves:
                    moves[-1] += " " + token
                else:
                    moves.append(token)
                    times.append("")
        elif ":" in line and not line.startswith(" "):
            key, _, value = line.partition(":")
            header[key.strip()] = value.strip()
    return name, header, moves, times


def read_descriptive(path: Path) -> list[RecordedGame]:
    """Every game of a descriptive.txt-style file, paired with ``<name>.pgn`` beside it."""
    text = path.read_text(encoding="utf-8", errors="replace")
    blocks = re.split(r"^={20,}\s*$", text, flags=re.MULTILINE)[1:]
    games = []
    for block in blocks:
        if not block.strip():
            continue
        name, header, printed, times = descriptive_moves(block)
        pgn = path.parent / f"{name}.pgn"
        if not pgn.exists():
            raise FileNotFoundError(f"{path}: game {name} has no PGN beside it ({pgn.name})")
        reference = read_pgn(pgn)[0]
        if len(reference.moves) != len(printed):
            raise ValueError(
                f"{name}: {len(printed)} printed moves but {len(reference.moves)} in {pgn.name}"
            )
        games.append(
            RecordedGame(name, reference.start_fen, printed, reference.moves, "descriptive",
                         header.get("White", ""), header.get("Black", ""), times)
        )  # fmt: skip
    return games


def read_games(path: Path) -> list[RecordedGame]:
    """Games from a file: PGN by its suffix, otherwise the descriptive format.  A file
    with no game in it is a ValueError."""
    games = read_pgn(path) if path.suffix.lower() == ".pgn" else read_descriptive(path)
    if not games:
        raise ValueError(
            f"{path}: no games in it (PGN, in a file named .pgn, or the descriptive format "
            "of machack/games/1967/descriptive.txt)"
        )
    return games


# --- replaying --------------------------------------------------------------------------
def replay_game(
    session: Session, game: RecordedGame, log: Callable[[str], None] | None = None
) -> ReplayResult:
    """Type the game into the program and check it (see the module docstring)."""
    result = ReplayResult(game.name)
    board = chess.Board(game.start_fen)
    if board.fen() == chess.STARTING_FEN:
        session.command("NEW")
    else:
        session.setup(board.fen())
    session.command("PN")
    claimed: list[str] = []
    last_lines: list[str] = []
    for ply, (typed, move) in enumerate(zip(game.typed, game.moves, strict=True)):
        label = f"{board.fullmove_number}{'.' if board.turn else '...'}{typed}"
        reply = session.send(typed)
        if not reply.accepted and reply.lines == ["AMBIGUOUS"]:
            result.notes.append(f"{label} ambiguous as printed, typed from the record")
            reply = session.send(move.uci().upper())
        if not reply.accepted:
            result.ok = False
            result.problems.append(f"{label} refused: {' / '.join(reply.lines)}")
            break
        board.push(move)
        fen = session.fen()
        if fen != board.fen():
            result.ok = False
            result.problems.append(f"after {label}: program {fen} != {board.fen()}")
            break
        result.plies = ply + 1
        last_lines = reply.after_ack
        claimed += [x for x in reply.after_ack if x.startswith(RESULT_WORDS)]
        if log:
            log(f"{label:<18} {fen}")
    if result.ok and game.unreadable:
        result.ok = False
        result.problems.append(game.unreadable)
    if result.ok:
        if board.is_checkmate():
            result.mate_announced = any(x.startswith("CHECKMATE") for x in last_lines)
            if not result.mate_announced:
                result.ok = False
                result.problems.append("the record ends in mate but no mate was announced")
            claimed = [x for x in claimed if not x.startswith("CHECKMATE")]
        if claimed:
            result.ok = False
            result.problems.append(f"a result was claimed early: {claimed}")
    return result


def replay_files(
    paths: list[Path],
    log: Callable[[str], None] | None = None,
    session: Session | None = None,
    boot: Callable[[], Session] = Session,
) -> list[ReplayResult]:
    """Replay every game of every file in one booted program (``boot`` makes a new one
    when a game leaves it hung)."""
    session = session or boot()
    results = []
    for path in paths:
        try:
            games = read_games(path)
        except (OSError, ValueError) as exc:
            why = str(exc).removeprefix(f"{path}: ")
            results.append(ReplayResult(str(path), ok=False, problems=[why]))
            continue
        for game in games:
            try:
                results.append(replay_game(session, game, log))
            except SessionError as exc:
                results.append(ReplayResult(game.name, ok=False, problems=[str(exc)]))
                session = boot()
    return results
