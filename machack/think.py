"""``machack replay --think``: what the program chooses where Mac Hack was to move.

For every move of Mac Hack's side in a recorded game the position is reached by typing
the game's moves into the program (so it knows the history: repetitions, the clocks),
the program searches with ``GO`` at the given settings, its move is compared with the
recorded one (by the position it leads to), and ``U`` takes it back before the
recorded move is typed.  The program decides; the host only types and compares.

The program's opening book is off unless asked for (``book``): the agreement of part 2
is the search's, and the moves the score marks as book moves (game 4's first nine) are
typed, not searched.  With the book on, every position of Mac Hack's is asked; the
program answers from its book where it has the position, and such rows are marked.
``every`` asks only every n-th of Mac Hack's positions (the rest are only typed).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import chess

from .replay import RecordedGame, read_games
from .session import BOOK_MARK, Session, SessionError, is_book_move, is_move_line, move_text

TOURNAMENT = ("SETW 15 15 9 9 7",)
"""The paper's tournament widths (spec 2); depth and feedover stay at the defaults."""


@dataclass
class ThinkRow:
    """One position where Mac Hack was to move."""

    label: str  # "12." or "12..."
    recorded: str  # the move as the record gives it
    ours: str  # the program's move as it printed it
    agree: bool
    emulated_s: float
    recorded_s: str  # the computer's time as printed ('' if none)
    wall_s: float = 0.0  # the host's time for the search
    book: bool = False  # the program's move came from its opening book


@dataclass
class ThinkGame:
    name: str
    rows: list[ThinkRow] = field(default_factory=list)
    problem: str = ""


def machack_side(game: RecordedGame) -> chess.Color | None:
    """The colour Mac Hack played, from the players' names."""
    if "mac hack" in game.white.lower():
        return chess.WHITE
    if "mac hack" in game.black.lower():
        return chess.BLACK
    return None


def think_game(
    session: Session,
    game: RecordedGame,
    settings: tuple[str, ...] = (),
    log: Callable[[str], None] | None = None,
    book: bool = False,
    every: int = 1,
) -> ThinkGame:
    """Let the program choose at every (``every``-th) position of the game where Mac
    Hack was to move (see the module)."""
    result = ThinkGame(game.name)
    side = machack_side(game)
    if side is None:
        result.problem = "neither player is Mac Hack"
        return result
    board = chess.Board(game.start_fen)
    session.setup(board.fen())
    session.command("PN")
    session.command("BOOK ON" if book else "BOOK OFF")
    for line in settings:
        session.command(line)
    asked = 0
    for ply, move in enumerate(game.moves):
        label = f"{board.fullmove_number}{'.' if board.turn else '...'}"
        printed = game.time_of(ply)
        if board.turn == side and (book or printed.upper() != "BOOK"):
            asked += 1
            if (asked - 1) % every == 0:
                row = ask(session, board, move, label, game.typed[ply], printed)
                result.rows.append(row)
                if log:
                    log(format_row(row))
        reply = session.send(move.uci().upper())
        if not reply.accepted:
            result.problem = f"{label}{game.typed[ply]} refused: {' / '.join(reply.lines)}"
            break
        board.push(move)
    else:
        result.problem = game.unreadable
    return result


def ask(
    session: Session, board: chess.Board, move: chess.Move, label: str, recorded: str,
    printed: str,
) -> ThinkRow:  # fmt: skip
    """``GO`` where the record played ``move``: the program's move, compared with it by
    the position it leads to, then taken back (``U``)."""
    reply = session.command("GO")
    played = [x for x in reply.after_ack if is_move_line(x)]
    ours = move_text(played[0]) if played else "-"
    board.push(move)
    agree = session.fen() == board.fen()
    board.pop()
    if played:
        session.command("U")
    from_book = bool(played) and is_book_move(played[0])
    return ThinkRow(label, recorded, ours, agree, reply.emulated_us / 1e6, printed,
                    wall_s=reply.wall_s, book=from_book)  # fmt: skip


def think_files(
    paths: list[Path],
    settings: tuple[str, ...] = (),
    log: Callable[[str], None] | None = None,
    boot: Callable[[], Session] = Session,
    book: bool = False,
    every: int = 1,
) -> list[ThinkGame]:
    """Every game of every file, each in a freshly booted program (so the book's
    choices are the same at every run)."""
    results = []
    for path in paths:
        try:
            games = read_games(path)
        except (OSError, ValueError) as exc:
            results.append(ThinkGame(str(path), problem=str(exc).removeprefix(f"{path}: ")))
            continue
        for game in games:
            if log:
                log(f"-- {game.name}")
            try:
                results.append(think_game(boot(), game, settings, log, book, every))
            except SessionError as exc:
                results.append(ThinkGame(game.name, problem=str(exc)))
    return results


HEADER = f"{'move':<8}{'recorded':<12}{'ours':<12}{'agree':<7}{'PDP-6 s':>9}{'1967 s':>9}"


def format_row(row: ThinkRow) -> str:
    agree = "yes" if row.agree else "no"
    ours = row.ours + (BOOK_MARK if row.book else "")
    return (f"{row.label:<8}{row.recorded:<12}{ours:<12}{agree:<7}"
            f"{row.emulated_s:>9.1f}{row.recorded_s:>9}")  # fmt: skip


def summary(games: list[ThinkGame]) -> str:
    """Agreement count and percentage, the book's part in it, median and maximum
    emulated time and median wall time of the searched moves (on the engine the session
    ran: the compiled one unless told otherwise)."""
    rows = [r for g in games for r in g.rows]
    if not rows:
        return "no positions searched"
    agree = sum(r.agree for r in rows)
    text = f"agreement {agree} of {len(rows)} ({100 * agree / len(rows):.0f}%)"
    booked = [r for r in rows if r.book]
    if booked:
        text += f"; from the book {len(booked)}, {sum(r.agree for r in booked)} agreeing"
    searched = [r for r in rows if not r.book]
    if searched:
        times = [r.emulated_s for r in searched]
        text += (f"; PDP-6 time per move: median {statistics.median(times):.1f} s, "
                 f"max {max(times):.1f} s; wall time per move: median "
                 f"{statistics.median(r.wall_s for r in searched):.2f} s")  # fmt: skip
    return text


def format_table(games: list[ThinkGame]) -> str:
    """The whole table, a section a game, then the summary line."""
    out = []
    for game in games:
        out.append(f"{game.name}")
        out.append(HEADER)
        out.extend(format_row(r) for r in game.rows)
        if game.problem:
            out.append(f"PROBLEM: {game.problem}")
        out.append("")
    out.append(summary(games))
    return "\n".join(out)


def format_choices(games: list[ThinkGame]) -> str:
    """The choices alone, a line a position (game, move, recorded, ours, agree), then the
    agreement: what a change to the program's thinking changes, without the times."""
    out: list[str] = []
    for game in games:
        out.extend(
            f"{game.name} {r.label} {r.recorded} {r.ours} {'yes' if r.agree else 'no'}"
            for r in game.rows
        )
        if game.problem:
            out.append(f"{game.name} PROBLEM: {game.problem}")
    rows = [r for g in games for r in g.rows]
    out.append(f"agreement {sum(r.agree for r in rows)} of {len(rows)}")
    return "\n".join(out)
