"""The opening book: from the authored text to the table the program searches in core.

The book is written by hand in ``book/openings.txt`` (its header gives the format: lines
of play in algebraic notation, each variation written from where it leaves the line
above it, a weight on a move where the choice should not be even).  This module turns
it into ``src/book.mid``, a MIDAS data file that is assembled with the program:

* every line is read with python-chess, so every book move is legal where it stands (a
  bad move stops the build with ``file:line`` and the reason);
* the key of every book position is learnt from the program itself: the lines are typed
  into a booted program and its Zobrist key ``HASHK`` is read from core after each move.
  The key the lookup compares is thus the key the program keeps, by construction;
* the table is written sorted by key (as signed 36-bit numbers, the order of ``CAMG``)
  for the binary search in ``src/bookup.mid``.

The host only builds the table; looking a position up and choosing a reply is the MIDAS
program's work at play time.  ``machack book build`` rewrites ``src/book.mid``;
``machack book check`` only compares, and a test does the same, so the committed table
is always the one the text makes.
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import chess

from .build import SRC_DIR, build
from .session import Session, SessionError

BOOK_TEXT = Path(__file__).resolve().parent / "book" / "openings.txt"
BOOK_MID = SRC_DIR / "book.mid"
MAX_WEIGHT = 15  # a weight is 0-15 (four bits of the reply word's left half)
FIRST_WEIGHT = 1  # a reply without a weight: 1 if the text gives it first in its position,
OTHER_WEIGHT = 0  # else 0 (the book's main line is played unless weights share the choice)
MAX_REPLIES = 32  # five bits of an entry count a position's further replies
MAX_MORE = 1 << 13  # thirteen bits index the further replies

_NUMBER = re.compile(r"^(\d+)(\.\.\.|\.)(.*)$")
_MOVE = re.compile(r"^(?P<san>[^:]+)(?::(?P<weight>\d+))?$")


class BookError(ValueError):
    """The book text (or the program's view of it) is wrong; the message says where."""


@dataclass
class Reply:
    """One book move in one position: the move, its weight (None: not written yet) and
    the text line that first gave it (and the one that gave the weight)."""

    move: chess.Move
    san: str
    weight: int | None
    line: int
    weight_line: int | None


@dataclass
class Position:
    """A position of the book (FEN without the move counters) and its replies in the
    order the text first gives them."""

    fen: str
    replies: dict[str, Reply] = field(default_factory=dict)


@dataclass
class Book:
    """The book as read: its positions, and the lines in full (for playing them into the
    program)."""

    path: Path
    positions: dict[str, Position] = field(default_factory=dict)
    lines: list[list[chess.Move]] = field(default_factory=list)

    @property
    def moves(self) -> int:
        """Book moves: distinct (position, reply) pairs, transpositions counted once."""
        return sum(len(p.replies) for p in self.positions.values())


def position_fen(board: chess.Board) -> str:
    """The position as the program distinguishes positions: placement, side to move,
    castling rights and an en passant square only where a capture there is legal."""
    return " ".join(board.fen().split()[:4])


def _tokens(text: str) -> list[str]:
    return text.split("#", 1)[0].split()


def _label(ply: int) -> str:
    number = ply // 2 + 1
    return f"{number}." if ply % 2 == 0 else f"{number}..."


def read_book(path: Path = BOOK_TEXT) -> Book:
    """Read and check the book text; raise :class:`BookError` naming ``file:line``."""
    book = Book(path)
    previous: list[chess.Move] = []
    text = path.read_text(encoding="utf-8")
    for lineno, raw in enumerate(text.splitlines(), 1):
        tokens = _tokens(raw)
        if not tokens:
            continue
        where = f"{path}:{lineno}"
        first = _NUMBER.match(tokens[0])
        if first is None:
            raise BookError(f"{where}: a line must begin with a move number (1. or 7...)")
        start = (int(first.group(1)) - 1) * 2 + (0 if first.group(2) == "." else 1)
        if int(first.group(1)) < 1:
            raise BookError(f"{where}: move numbers start at 1")
        if start > len(previous):
            raise BookError(
                f"{where}: {tokens[0]} leaves the line above after its {len(previous)} "
                f"plies; a variation must start within it"
            )
        moves = previous[:start]
        board = chess.Board()
        for move in moves:
            board.push(move)
        for token in _split_numbers(tokens, where, board):
            _add_move(book, board, token, where, lineno)
            moves.append(board.peek())
        book.lines.append(moves)
        previous = moves
    _check_size(book)
    for position in book.positions.values():
        for i, reply in enumerate(position.replies.values()):
            if reply.weight is None:
                reply.weight = FIRST_WEIGHT if i == 0 else OTHER_WEIGHT
    return book


def _check_size(book: Book) -> None:
    """The table's fields hold at most MAX_REPLIES replies a position and MAX_MORE - 1
    further replies in all."""
    for position in book.positions.values():
        if len(position.replies) > MAX_REPLIES:
            extra = list(position.replies.values())[MAX_REPLIES]
            raise BookError(
                f"{book.path}:{extra.line}: {extra.san}: more than {MAX_REPLIES} book moves "
                f"in {position.fen}"
            )
    more = book.moves - len(book.positions)
    if more >= MAX_MORE:
        raise BookError(f"{book.path}: {more} further replies; the table holds {MAX_MORE - 1}")


def _split_numbers(tokens: list[str], where: str, board: chess.Board) -> Iterator[str]:
    """The move tokens of a line, checking the move numbers written among them against
    the ply of ``board`` (which the caller advances after each move)."""
    for i, token in enumerate(tokens):
        number = _NUMBER.match(token)
        if number is not None:
            ply = (int(number.group(1)) - 1) * 2 + (0 if number.group(2) == "." else 1)
            if i > 0 and ply != board.ply():
                raise BookError(
                    f"{where}: {token}: the move here is {_label(board.ply())}, not {_label(ply)}"
                )
            token = number.group(3)
            if not token:
                continue
        yield token


def _add_move(book: Book, board: chess.Board, token: str, where: str, lineno: int) -> None:
    """Play one move token (``Nf3`` or ``Nf3:3``) on ``board`` and record it as a reply
    in the position before it."""
    found = _MOVE.match(token)
    label = f"{_label(board.ply())}{token}"
    if found is None:
        raise BookError(f"{where}: {label}: not a move")
    san, weight_text = found.group("san"), found.group("weight")
    weight = int(weight_text) if weight_text is not None else None
    if weight is not None and weight > MAX_WEIGHT:
        raise BookError(f"{where}: {label}: a weight is 0-{MAX_WEIGHT}")
    try:
        move = board.parse_san(san)
    except ValueError as exc:
        reason = str(exc).split(" in ")[0]
        raise BookError(f"{where}: {label}: {reason} in {board.fen()}") from None
    if move.promotion is not None:
        raise BookError(f"{where}: {label}: a promotion cannot be a book move")
    fen = position_fen(board)
    position = book.positions.setdefault(fen, Position(fen))
    reply = position.replies.get(move.uci())
    if reply is None:
        reply = position.replies[move.uci()] = Reply(
            move, board.san(move), weight, lineno, lineno if weight is not None else None
        )
    elif weight is not None:
        if reply.weight is not None and reply.weight != weight:
            raise BookError(
                f"{where}: {label}: weight {weight}, but line {reply.weight_line} gave "
                f"{reply.san} weight {reply.weight} in the same position"
            )
        reply.weight, reply.weight_line = weight, lineno
    board.push(move)


# --- the keys, from the program ----------------------------------------------------------
def _trie(lines: list[list[chess.Move]]) -> dict:
    root: dict = {}
    for line in lines:
        node = root
        for move in line:
            node = node.setdefault(move, {})
    return root


def stub_session() -> Session:
    """The program with an empty book table, booted: whatever ``src/book.mid`` holds now
    (stale, or broken by a bad edit), the keys come from the rest of the program."""
    with tempfile.TemporaryDirectory(prefix="machack-book-") as tmp:
        src = Path(tmp)
        for path in SRC_DIR.glob("*.mid"):
            shutil.copy(path, src / path.name)
        (src / BOOK_MID.name).write_text(render(Book(BOOK_TEXT), {}))
        image = build(src)
    return Session(image)


def program_keys(book: Book, session: Session | None = None) -> dict[str, int]:
    """Each book position's key as the program computes it: every line is typed into
    the program (in coordinates, from ``NEW``; ``U`` takes moves back) and ``HASHK`` is
    read after each move.  The program's FEN must agree with python-chess's at every
    step, one key must belong to one position and one position to one key."""
    session = session or stub_session()
    session.command("NEW")
    session.command("PN")
    keys: dict[str, int] = {}
    owner: dict[int, str] = {}
    board = chess.Board()

    def visit(node: dict) -> None:
        fen = position_fen(board)
        program_fen = " ".join(session.fen().split()[:4])
        if program_fen != fen:
            raise BookError(f"after {board.move_stack}: the program has {program_fen}, not {fen}")
        key = session.peek("HASHK")
        if keys.setdefault(fen, key) != key:
            raise BookError(f"{fen}: the program gave it two keys, {keys[fen]:o} and {key:o}")
        if owner.setdefault(key, fen) != fen:
            raise BookError(f"key {key:012o} of both {owner[key]} and {fen}")
        for move, child in node.items():
            reply = session.send(move.uci().upper())
            if not reply.accepted:
                raise BookError(f"the program refused {move.uci()} in {fen}: {reply.text}")
            board.push(move)
            visit(child)
            board.pop()
            session.command("U")

    try:
        visit(_trie(book.lines))
    except SessionError as exc:
        raise BookError(f"the program failed while the book was played into it: {exc}") from exc
    return keys


# --- the MIDAS table ---------------------------------------------------------------------
def signed(word: int) -> int:
    """A 36-bit word as the PDP-6 compares it (two's complement)."""
    return word - (1 << 36) if word & (1 << 35) else word


def program_square(square: chess.Square) -> int:
    """A square as the program numbers it: 10 x row + col, row 2 the first rank, col 1
    the h-file (board.mid)."""
    return 10 * (chess.square_rank(square) + 2) + (8 - chess.square_file(square))


def reply_half(reply: Reply) -> int:
    """A reply as an 18-bit halfword: weight x 40000 + from x 200 + to."""
    assert reply.weight is not None  # read_book gives every reply one
    return (
        reply.weight << 14
        | program_square(reply.move.from_square) << 7
        | program_square(reply.move.to_square)
    )


def table_words(book: Book) -> int:
    """Words of core the table takes: a key and an entry a position, and the further
    replies two to a word."""
    more = book.moves - len(book.positions)
    return 2 * len(book.positions) + (more + 1) // 2


def render(book: Book, keys: dict[str, int]) -> str:
    """The MIDAS text of the table (an empty table when ``keys`` is empty)."""
    entries = sorted(
        ((keys[fen], pos) for fen, pos in book.positions.items() if fen in keys),
        key=lambda item: signed(item[0]),
    )
    moves = sum(len(pos.replies) for _, pos in entries)
    most = max((len(pos.replies) for _, pos in entries), default=1)
    out = [
        ";;; BOOK MID -- the opening book's table.  GENERATED: do not edit.",
        ";;; Made by `machack book build` (machack/bookgen.py) from machack/book/openings.txt:",
        f";;; {len(entries)} positions, {moves} book moves.  The keys are the program's own",
        ";;; (HASHK), learnt by playing the lines into it, sorted as signed numbers for",
        ";;; the binary search of BOOKUP MID.  A reply is a halfword, weight*40000+from*200+to",
        ";;; (squares as in BOARD).",
        ";;;	BKKEY+i		the key of position i",
        ";;;	BKENT+i		r,,(n-1)*20000+j: its first reply r; the other n-1 are the",
        ";;;			halfwords j, j+1 ... of BKMORE (halfword k: the left half of",
        ";;;			BKMORE+k/2 when k is even, else the right half)",
        "",
        f"BKN=={len(entries)}.",
        f"BKRMAX=={most}.\t\t;the most replies of one position",
        "BKKEY:",
    ]
    out += [f"\t{key:012o}\t;{pos.fen}" for key, pos in entries]
    out.append("BKENT:")
    more: list[int] = []
    for _, pos in entries:
        replies = list(pos.replies.values())
        link = (len(replies) - 1) << 13 | len(more) if len(replies) > 1 else 0
        more += [reply_half(r) for r in replies[1:]]
        names = " ".join(f"{r.san}:{r.weight}" for r in replies)
        out.append(f"\t{reply_half(replies[0]):o},,{link:o}\t;{names}")
    out.append("BKMORE:")
    if len(more) % 2:
        more.append(0)
    for i in range(0, len(more), 2):
        out.append(f"\t{more[i]:o},,{more[i + 1]:o}")
    out.append("BKEND::")
    return "\n".join(out) + "\n"


def build_table(path: Path = BOOK_TEXT, session: Session | None = None) -> tuple[Book, str]:
    """Read the book and make its MIDAS table."""
    book = read_book(path)
    return book, render(book, program_keys(book, session))


def main(check: bool = False) -> int:
    """``machack book build`` rewrites src/book.mid; ``machack book check`` (``check``)
    only says whether it is what the text makes.  The exit status."""
    try:
        book, text = build_table()
    except BookError as exc:
        print(f"book: {exc}", file=sys.stderr)
        return 2
    summary = (f"{book.moves} book moves in {len(book.positions)} positions, "
               f"{table_words(book)} words of core")  # fmt: skip
    current = BOOK_MID.read_text() if BOOK_MID.exists() else ""
    if check:
        if current != text:
            print(f"{BOOK_MID} is not what {BOOK_TEXT.name} makes: run `machack book build`")
            return 1
        print(f"{BOOK_MID.name} is up to date: {summary}")
        return 0
    BOOK_MID.write_text(text)
    print(f"wrote {BOOK_MID}: {summary}")
    return 0
