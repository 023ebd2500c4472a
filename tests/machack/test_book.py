"""The opening book: the authored text, the table made from it, and the MIDAS program
looking positions up in core (``src/bookup.mid``).

python-chess reads the text (the build's check that every line is legal, and the
referee here); every book move the program plays is chosen by the program in emulated
core, and the tests see it as a person at the teletype would.
"""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from machack.bookgen import BOOK_MID, BOOK_TEXT, BookError, build_table, read_book
from machack.replay import GAMES_1967, RecordedGame, read_games
from machack.session import Session, is_book_move, is_move_line, move_text
from machack.think import think_game

NAJDORF_BY_TRANSPOSITION = "e4 c5 Nf3 Nf6 Nc3 d6 d4 cxd4 Nxd4 a6"
"""The Najdorf by a move order the text does not write (it gives 2...d6 before 5...Nf6)."""
ONLY_FOLLOWED = "r2qk1nr/1pp2ppp/p1p5/2b1P3/4P3/5Q2/PPP2PPP/RNB2RK1 w kq - 1 9"
"""Game 4's line after 8...Bc5: the book knows 9.P-K6 (weight 0), the machine's own
choice is left to the search."""


def played(reply_lines: list[str]) -> list[str]:
    return [x for x in reply_lines if is_move_line(x)]


def game4() -> RecordedGame:
    """Game 4 of 1967: Mac Hack White, its first nine moves from its book."""
    return next(g for g in read_games(GAMES_1967 / "descriptive.txt") if "game4" in g.name)


# --- the text ---------------------------------------------------------------------------
def test_the_book_has_over_a_thousand_moves_and_every_line_is_legal() -> None:
    book = read_book()
    assert book.moves >= 1000  # distinct (position, reply) pairs: 5,884 when written
    assert len(book.positions) >= 1000
    for line in book.lines:  # the reader's lines walked again, move by move
        board = chess.Board()
        for move in line:
            assert move in board.legal_moves, (board.fen(), move)
            board.push(move)
    assert sum(len(line) for line in book.lines) > book.moves  # variations share a trunk


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1.e4 e5 2.Ke3", "x.txt:1: 2.Ke3: illegal san"),
        ("1.e4 e5\n  3.Nf3", "x.txt:2: 3.Nf3 leaves the line above after its 2 plies"),
        ("1.e4 e5 3.Nf3", "x.txt:1: 3.Nf3: the move here is 2., not 3."),
        ("e4 e5", "x.txt:1: a line must begin with a move number"),
        ("1.e4:16", "x.txt:1: 1.e4:16: a weight is 0-15"),
        ("1.e4:2 e5\n1.e4:3 c5", "x.txt:2: 1.e4:3: weight 3, but line 1 gave e4 weight 2"),
        ("1.e4 d5 2.exd5 c6 3.dxc6 Nf6 4.cxb7 Nbd7 5.bxa8=Q",
         "5.bxa8=Q: a promotion cannot be a book move"),
    ],
)  # fmt: skip
def test_a_wrong_book_text_is_refused_with_file_and_line(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "x.txt"
    path.write_text(text + "\n")
    with pytest.raises(BookError) as caught:
        read_book(path)
    assert message in str(caught.value).replace(str(tmp_path) + "/", "")


def test_the_committed_table_is_the_one_the_text_makes() -> None:
    """book.mid is generated: neither the text nor the table is edited without the other
    (``machack book build`` rewrites it).  The keys are learnt from the program."""
    book, text = build_table()
    assert text == BOOK_MID.read_text(), "run `machack book build`"
    assert f"{len(book.positions)} positions, {book.moves} book moves" in text
    assert BOOK_TEXT.name in text


def test_the_program_with_its_book_ends_below_the_hash_table(session: Session) -> None:
    """The table is assembled with the program: all of it must stay below 200000."""
    assert session.image.symbol("BKEND") < session.image.symbol("PRGEND") <= 0o200000


# --- the program ------------------------------------------------------------------------
def test_game_4_gives_mac_hacks_first_nine_moves_from_the_book(fresh: Session) -> None:
    """The paper: in game 4 (Mac Hack White) the first nine moves came from the book.
    The machine plays White and its opponent's moves are typed as printed; the tenth
    move is the search's."""
    typed, moves = game4().typed, game4().moves
    s = fresh
    s.command("SETD 2")
    board = chess.Board()
    reply = s.command("PW")  # the machine is White and moves at once
    for ply in range(0, 20, 2):
        line = played(reply.after_ack)
        assert len(line) == 1, reply.after_ack
        board.push(moves[ply])
        assert s.fen() == board.fen(), f"move {ply // 2 + 1}: {line[0]} is not {typed[ply]}"
        assert is_book_move(line[0]) == (ply < 18), line[0]
        if ply < 18:
            board.push(moves[ply + 1])
            reply = s.send(moves[ply + 1].uci().upper())
    pg = s.command("PG").lines
    assert pg[0] == "  1 P-K4 BOOK   P-K4" and pg[9].startswith(" 10 ") and "BOOK" not in pg[9]
    assert all(" BOOK " in x for x in pg[:9])


def test_the_think_table_with_the_book_marks_game_4s_book_moves(session: Session) -> None:
    """``machack replay --think --book`` on game 4's first ten moves."""
    game = game4()
    game.typed, game.moves = game.typed[:19], game.moves[:19]
    result = think_game(session, game, ("SETD 2",), book=True)
    assert [(r.book, r.agree) for r in result.rows[:9]] == [(True, True)] * 9
    assert len(result.rows) == 10 and not result.rows[9].book  # 10.P-KN3: searched


def test_book_on_and_off(session: Session) -> None:
    s = session
    s.command("NEW")
    s.command("PN")
    assert s.command("BOOK=").lines[0] == "ON"  # on at start-up
    s.command("BOOK OFF")
    assert s.command("BOOK=").lines[0] == "OFF"
    s.command("SETD 1")
    off = s.command("GO").after_ack
    stats = next(x for x in off if x.startswith("TIME "))
    assert not is_book_move(played(off)[0]) and int(stats.split()[4]) > 0  # NODES
    s.command("U")
    s.command("BOOK ON")
    on = s.command("GO").after_ack
    assert on == ["1. P-K4 BOOK"]  # no value, line or statistics: nothing was searched
    assert s.command("BEST").lines[0] == "BOOK E2E4"
    assert s.command("STATS").first("TIME ").split()[4] == "0"  # NODES 0
    assert s.send("BOOK MAYBE").lines[0] == "??"


def test_the_book_command_lists_the_moves_and_their_weights(session: Session) -> None:
    s = session
    s.command("NEW")
    s.command("PN")
    s.send("E2E4")
    lines = s.command("BOOK").lines
    assert lines[:4] == ["BOOK ON", "P-K4 3", "P-QB4 1", "P-K3 0"]
    s.send("E7E5")
    s.send("E1E2")
    assert s.command("BOOK").lines[1:] == ["NOT IN BOOK", "_"]


def test_the_choice_is_weighted_reproducible_and_never_a_weight_0_move() -> None:
    """After 1.P-K4 the book gives 1...P-K4 weight 3 and 1...P-QB4 weight 1 (others 0):
    the machine chooses at random in proportion, from the same generator state at
    every start-up."""

    def answers(s: Session) -> list[str]:
        seen = []
        for _ in range(40):
            s.command("NEW")
            s.command("PN")
            s.send("E2E4")
            seen.append(move_text(played(s.command("GO").after_ack)[0]))
        return seen

    first = answers(Session())
    assert set(first) == {"P-K4", "P-QB4"}
    assert 20 <= first.count("P-K4") <= 38  # about three in four
    assert answers(Session()) == first


def test_transpositions_are_found_by_the_position(session: Session) -> None:
    """A move order the text never writes reaches a book position: found by its key."""
    book = read_book()
    board = chess.Board()
    for san in NAJDORF_BY_TRANSPOSITION.split():
        board.push_san(san)
    order = board.move_stack
    assert not any(line[: len(order)] == order for line in book.lines)
    s = session
    s.command("NEW")
    s.command("PN")
    for move in order:
        s.send(move.uci().upper())
    assert played(s.command("GO").after_ack) == ["6. B-KN5 BOOK"]


def test_setup_positions_are_looked_up_and_out_of_book_ones_searched(session: Session) -> None:
    s = session
    s.command("SETD 1")
    s.command("PN")
    s.setup("r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4")
    assert played(s.command("GO").after_ack) == ["4. BXN BOOK"]  # game 4's 4.BXN
    s.setup(ONLY_FOLLOWED)  # in the book, but only with a move the machine never picks
    assert s.command("BOOK").lines[1:] == ["P-K6 0", "_"]
    reply = s.command("GO").after_ack
    assert not is_book_move(played(reply)[0]) and reply[-1].startswith("TIME ")
    s.command("NEW")
    s.send("E2E4")
    s.send("E7E5")
    s.send("E1E2")  # out of the book: the search answers
    assert not is_book_move(played(s.command("GO").after_ack)[0])
