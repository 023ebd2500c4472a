"""PGN for Mac Hack's games: the match runner's, ``machack play --pgn`` and ``machack pgn``.

Games are written with python-chess's writer (so the PGN is standard: the Seven Tag
Roster first, then the moves with comments).  Mac Hack's own moves carry the emulated
PDP-6 time they took and the program's own value, for the side that moved, in its own
units (pawn 128), beside the usual centipawn ``[%eval]`` from White's side:
``{[%emt 0:00:12] [%eval 0.18] value 23}``.

``machack pgn`` turns the program's ``PG`` printout (descriptive notation, a full move
a line) into PGN: the moves are typed into the program one by one, as the 1967 operator
would have, and each is named in coordinates by the position the program reports after
it.  The program reads the notation; python-chess only names the resulting moves.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import chess
import chess.engine
import chess.pgn

from .player import centipawns, mate_moves, name_move, refusal_note
from .session import BOOK_MARK, Session, is_move_line, move_text

MACHACK = "Mac Hack VI (emulated PDP-6)"
SITE = "PDP-6 emulator (pdp6-machack)"
RESULTS = {"1-0", "0-1", "1/2-1/2"}
BOOK_COMMENT = "book"  # the comment of a book move, as the 1967 records' BOOK


def emt_and_eval(seconds: float | None = None, score: chess.engine.PovScore | None = None) -> str:
    """``[%emt 0:00:31] [%eval 0.18]`` as python-chess writes them (its ``set_emt`` and
    ``set_eval``), the clock in whole seconds, rounded; either may be left out."""
    node = chess.pgn.Game()
    node.set_emt(None if seconds is None else round(seconds))
    node.set_eval(score)
    return node.comment


def machack_score(value: int, mover: chess.Color) -> chess.engine.PovScore:
    """A value of the program's (pawn 128) for the side that moved, as a score:
    centipawns, or moves to mate (counted for that side; python-chess turns it)."""
    mate = mate_moves(value)
    return chess.engine.PovScore(
        chess.engine.Cp(centipawns(value)) if mate is None else chess.engine.Mate(mate), mover
    )


def machack_comment(
    emulated_s: float | None, value: int | None, mover: chess.Color, book: bool = False
) -> str:
    """The comment of one of Mac Hack's moves: emulated time and its own value, or
    ``book`` for a move from its opening book (no search: no time or value to give)."""
    if book:
        return BOOK_COMMENT
    score = None if value is None else machack_score(value, mover)
    text = emt_and_eval(emulated_s, score)
    return text if value is None else f"{text} value {value}".lstrip()


@dataclass
class GameRecord:
    """A finished game, ready to be written: headers beyond the roster's, the start,
    the moves (coordinates) and a comment for each (may be empty)."""

    white: str
    black: str
    result: str = "*"
    event: str = "?"
    round: str = "?"
    start_fen: str = chess.STARTING_FEN
    moves: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    extra: dict[str, str] = field(default_factory=dict)

    def pgn(self) -> str:
        """The game as PGN text (python-chess's exporter), ending with a blank line."""
        board = chess.Board(self.start_fen)
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = self.event
        game.headers["Site"] = SITE
        game.headers["Date"] = datetime.date.today().strftime("%Y.%m.%d")
        game.headers["Round"] = self.round
        game.headers["White"] = self.white
        game.headers["Black"] = self.black
        game.headers["Result"] = self.result
        for key, value in self.extra.items():
            game.headers[key] = value
        node: chess.pgn.GameNode = game
        for i, text in enumerate(self.moves):
            node = node.add_variation(chess.Move.from_uci(text))
            if i < len(self.comments) and self.comments[i]:
                node.comment = self.comments[i]
        return str(game) + "\n\n"


# --- the program's PG printout -------------------------------------------------------
PG_LINE = re.compile(r"^\s*(\d+) (.*)$")
SUFFIXES = {"MATE", "CH", "CHECK", "EP", "E.P.", BOOK_MARK.strip()}
"""Words that belong to the move before them ('R-R8 MATE', 'P-K4 BOOK')."""
RESULT_WORDS = {"CHECKMATE 1-0": "1-0", "CHECKMATE 0-1": "0-1"}


@dataclass
class PgMove:
    number: int
    colour: chess.Color
    text: str  # as printed, without the book's mark: N-KB3, R-R8 MATE
    book: bool = False  # marked BOOK: the machine took it from its opening book


def pg_moves(rest: str) -> list[str]:
    """The moves of one PG line after its number, each with the words that follow it
    (a long move, or one marked BOOK, can push Black's past the 12th column)."""
    moves: list[str] = []
    for word in rest.split():
        if moves and word in SUFFIXES:
            moves[-1] += " " + word
        else:
            moves.append(word)
    return moves


def read_pg(text: str) -> list[PgMove]:
    """The moves of a PG printout (other lines, such as the echo ``*PG`` and ``_``, are
    passed over): each line is the move number, White's move (or ``...`` when Black
    moved first), then Black's."""
    moves: list[PgMove] = []
    for line in text.splitlines():
        found = PG_LINE.match(line.rstrip())
        if not found:
            continue
        number = int(found.group(1))
        line_moves = pg_moves(found.group(2))  # White's (or ...) and Black's, or one
        for colour, move in zip((chess.WHITE, chess.BLACK), line_moves, strict=False):
            if move != "...":
                book = move.endswith(BOOK_MARK)
                moves.append(PgMove(number, colour, move.removesuffix(BOOK_MARK), book))
    return moves


def result_of(lines: Sequence[str]) -> str | None:
    """The result the program announced in these lines (mate, draw, resignation)."""
    for line in reversed(lines):
        if line in RESULT_WORDS:
            return RESULT_WORDS[line]
        last = line.rsplit(" ", 1)[-1]
        if last in RESULTS and line.startswith(("STALEMATE", "DRAW BY", "WHITE RES", "BLACK RES")):
            return last
    return None


def type_pg(session: Session, start_fen: str, moves: Sequence[PgMove]) -> tuple[list[str], str]:
    """Type the moves into the program from ``start_fen``; the moves in coordinates and
    the result it announced ('*' if none).  Raises ValueError naming a refused move."""
    if not session.send(f"SETUP {start_fen}").accepted:
        raise ValueError(f"the program refused the position {start_fen!r}{refusal_note(start_fen)}")
    session.command("PN")
    board = chess.Board(start_fen)
    out: list[str] = []
    result = "*"
    for move in moves:
        label = f"{move.number}{'.' if move.colour == chess.WHITE else '...'} {move.text}"
        if board.turn != move.colour:
            raise ValueError(f"{label}: not that side's turn")
        reply = session.send(move.text)
        if not reply.accepted:
            raise ValueError(f"{label}: the program says {reply.text}")
        played = name_move(board, session.fen())
        board.push(played)
        out.append(played.uci())
        result = result_of(reply.after_ack) or "*"
    return out, result


def pg_to_pgn(
    session: Session,
    text: str,
    start_fen: str = chess.STARTING_FEN,
    white: str = "?",
    black: str = "?",
    result: str | None = None,
) -> str:
    """``machack pgn``: a PG printout as PGN (the result: given, else as the program
    announces it after the last move, else ``*``)."""
    moves = read_pg(text)
    if not moves:
        raise ValueError("no moves found: expected the PG printout, e.g. '  1 P-K4        P-K4'")
    coords, announced = type_pg(session, start_fen, moves)
    record = GameRecord(white, black, result or announced, start_fen=start_fen, moves=coords,
                        comments=[BOOK_COMMENT if m.book else "" for m in moves])  # fmt: skip
    return record.pgn()


# --- machack play --pgn --------------------------------------------------------------
@dataclass
class MoveNote:
    text: str
    emulated_s: float | None = None
    value: int | None = None


class PlayNotes:
    """What the program types about its own moves in ``machack play``: the move line,
    the ``VALUE`` line (PSVD 1) and the ``TIME`` line (PSTAT 1), by move number and
    side; and the last resignation, if one came after the last move."""

    def __init__(self) -> None:
        self.notes: dict[tuple[int, chess.Color], MoveNote] = {}
        self.last: MoveNote | None = None
        self.resigned: str | None = None

    def line(self, text: str) -> None:
        """One line of the program's output."""
        if is_move_line(text):
            number = int(text.split(".", 1)[0])
            colour = chess.BLACK if " ... " in text else chess.WHITE
            self.last = self.notes[(number, colour)] = MoveNote(move_text(text))
            self.resigned = None
        elif text.startswith("VALUE ") and self.last is not None:
            word = text.split()[1]
            self.last.value = int(word) if word.lstrip("-").isdigit() else None
        elif text.startswith("TIME ") and self.last is not None:
            try:
                self.last.emulated_s = float(text.split()[1])
            except (IndexError, ValueError):
                pass
        elif "RESIGNS" in text:
            self.resigned = result_of([text])

    def comment(self, move: PgMove) -> str:
        """The comment for a move of the game, if the machine made it."""
        note = self.notes.get((move.number, move.colour))
        if note is None or note.text != move.text:
            return ""
        return machack_comment(note.emulated_s, note.value, move.colour, move.book)


def play_pgn(session: Session, notes: PlayNotes, white: str, black: str) -> str:
    """At the end of ``machack play``: the game the program holds (its ``PG``), as PGN.

    The start is found by taking every move back (``U``) and asking for the FEN; the
    moves are then typed again and named.  The program's session is spent afterwards.
    """
    reply = session.command("PG")
    moves = read_pg("\n".join(reply.lines))
    while session.send("U").accepted:
        pass
    start = session.fen()
    coords, result = type_pg(session, start, moves)
    if notes.resigned is not None:
        result = notes.resigned
    record = GameRecord(white, black, result, event="Game at the teletype", start_fen=start,
                        moves=coords, comments=[notes.comment(m) for m in moves])  # fmt: skip
    return record.pgn()
