"""The hash table in core (200000-377777) and the draws by repetition it finds.

The table and its use are MIDAS code in emulated core; these tests look at it the way a
person at the console would: through the program's commands and by reading core.
"""

from __future__ import annotations

import re

import chess
import pytest

from machack.session import Session, is_move_line

HASHT = 0o200000
HCHKM = 0o777777700001
EXACT, LOWER, UPPER = 0o100, 0o200, 0o300


def signed(word: int) -> int:
    return word - (1 << 36) if word & (1 << 35) else word


def key(s: Session, fen: str) -> int:
    """The program's Zobrist key of a position (SETUP computes it; it clears the table)."""
    s.setup(fen)
    return s.peek("HASHK")


def bucket(k: int) -> int:
    return HASHT + ((k << 1) & 0o177770)


def stats(reply_lines: list[str]) -> dict[str, int]:
    """The HASH p/h/c/s and REPETITIONS figures of the statistics line."""
    line = next(x for x in reply_lines if x.startswith("TIME"))
    p, h, c, st = map(int, re.search(r"HASH (\d+)/(\d+)/(\d+)/(\d+)", line).groups())
    rep = int(re.search(r"REPETITIONS (\d+)", line).group(1))
    return {"probes": p, "hits": h, "cutoffs": c, "stores": st, "repetitions": rep}


def played(s: Session, reply_lines: list[str]) -> str:
    return next(x for x in reply_lines if is_move_line(x))


MIDDLE = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"


def test_the_root_is_stored_in_its_bucket_and_found_again(fresh: Session) -> None:
    s = fresh
    k = key(s, MIDDLE)
    s.command("BOOK OFF")  # (the Two Knights is in the book)
    s.command("PN")
    s.command("SETD 3")
    first = s.command("GO")
    assert stats(first.after_ack)["stores"] > 0
    words = s.machine.memory[HASHT : HASHT + 0o200000]
    used = [i for i in range(1, len(words), 2) if words[i] & 0o777]
    assert len(used) == s.peek("HFILL") > 0  # every value sits in 200000-377777
    slot = next(a for a in (bucket(k), bucket(k) + 2) if not (s.machine.memory[a] ^ k) & HCHKM)
    second_word = s.machine.memory[slot + 1]
    assert second_word & 0o77 == 3 and second_word & 0o300 == EXACT  # the root, depth 3


def test_a_search_takes_no_value_an_earlier_one_stored(fresh: Session) -> None:
    """The same position searched again (U, then GO): the first search's values are in
    the table, but they were measured from another root and may not be taken; the
    second search does the first's work again, node for node, and plays the same."""
    s = fresh
    s.setup(MIDDLE)
    s.command("BOOK OFF")
    s.command("PN")
    s.command("SETD 3")
    first = s.command("GO")
    s.command("U")
    again = s.command("GO")
    assert stats(first.after_ack)["stores"] > 0
    assert played(s, again.after_ack) == played(s, first.after_ack)
    figures = [(stats(r.after_ack)["cutoffs"], nodes(r.after_ack)) for r in (first, again)]
    assert figures[1] == figures[0]  # (taking the first's values, it had cut at every probe)


def nodes(reply_lines: list[str]) -> int:
    line = next(x for x in reply_lines if x.startswith("TIME"))
    return int(re.search(r"NODES (\d+)", line).group(1))


# White to move; R-Q1xP5 (RxP) is a capture at the root, and Black's RxR answers it in the
# capture search, two plies down.
TRADE = "3r2k1/5ppp/8/3p4/8/8/5PPP/3R2K1 w - - 0 1"
AFTER_RXP = "3r2k1/5ppp/8/3R4/8/8/5PPP/6K1 b - - 0 1"
AFTER_RXR = "6k1/5ppp/8/3r4/8/8/5PPP/6K1 w - - 0 1"


def value_entry(s: Session, k: int) -> int | None:
    """The second word of the entry holding a value for key K, if there is one."""
    for slot in (bucket(k), bucket(k) + 2):
        if not (s.machine.memory[slot] ^ k) & HCHKM and s.machine.memory[slot + 1] & 0o300:
            return s.machine.memory[slot + 1]
    return None


def test_a_node_beyond_the_basic_depth_stores_no_value(fresh: Session) -> None:
    """At SETD 1 the position after RxP is a leaf (the whole feedover budget before it)
    and is stored, depth 0; the capture search's node after RxR is not: its value rests
    on the budget left, and taken at a leaf it would cut that leaf's feedover short."""
    s = fresh
    leaf, beyond = key(s, AFTER_RXP), key(s, AFTER_RXR)
    s.setup(TRADE)
    s.command("PN")
    s.command("SETD 1")
    reply = s.command("GO")
    assert int(re.search(r"CAPTURE (\d+)", " ".join(reply.after_ack)).group(1)) > 0
    stored = value_entry(s, leaf)
    assert stored is not None and stored & 0o77 == 0
    assert value_entry(s, beyond) is None


# White to move with one legal move, KxQ; the child is Black to move.
ROOT = "7k/8/8/8/8/8/6q1/7K w - - 0 1"
CHILD = "7k/8/8/8/8/8/6K1/8 b - - 0 1"


def poke_child(s: Session, value: int, bound: int, searches_ago: int = 0) -> None:
    """An entry for the child: VALUE for Black (its side to move), deep, with BOUND, as
    the next search would store it (or one SEARCHES_AGO before that)."""
    k = key(s, CHILD)
    s.setup(ROOT)
    age = (s.peek("HAGE") + 1 - searches_ago) & 0o377
    s.machine.memory[bucket(k)] = k & HCHKM
    s.machine.memory[bucket(k) + 1] = ((value & 0o777777) << 18) | age << 10 | bound | 0o77


@pytest.mark.parametrize(("bound", "taken"), [(EXACT, True), (UPPER, False), (LOWER, False)])
def test_a_bound_is_taken_only_when_it_settles_the_window(
    fresh: Session, bound: int, taken: bool
) -> None:
    """The child's window is the whole range: an exact value settles it, "at most 500"
    or "at least 500" does not, and the child must be searched."""
    s = fresh
    poke_child(s, 500, bound)
    s.command("PN")
    s.command("SETD 2")
    reply = s.command("GO")
    if taken:
        assert stats(reply.after_ack)["cutoffs"] >= 1
        assert signed(s.peek("LASTV")) == -500  # White's value: Black's 500 turned round
    else:
        assert signed(s.peek("LASTV")) != -500  # searched: not the entry's value


def test_an_earlier_search_s_exact_value_is_not_taken(fresh: Session) -> None:
    s = fresh
    poke_child(s, 500, EXACT, searches_ago=1)
    s.command("PN")
    s.command("SETD 2")
    reply = s.command("GO")
    assert stats(reply.after_ack)["cutoffs"] == 0
    assert signed(s.peek("LASTV")) != -500


def test_hash_off_takes_and_stores_nothing(fresh: Session) -> None:
    s = fresh
    poke_child(s, 500, EXACT)
    s.command("PN")
    s.command("HASH OFF")
    assert s.command("HASH=").lines[0] == "OFF"
    reply = s.command("GO")
    figures = stats(reply.after_ack)
    assert figures["cutoffs"] == 0 and figures["stores"] == 0
    assert s.command("HASH ON").accepted and s.command("HASH=").lines[0] == "ON"
    assert not s.send("HASH MAYBE").accepted


def shuffle(s: Session, fen: str) -> None:
    """Set up FEN, then White's rook and Black's king go and come back: the position
    is on the board for the second time, with the game's history behind it."""
    s.setup(fen)
    s.command("PN")
    for move in ("B1B2", "H8G8", "B2B1", "G8H8"):
        assert s.send(move).accepted
    assert s.fen().split()[:4] == fen.split()[:4]


def test_behind_the_program_goes_for_the_repetition(fresh: Session) -> None:
    """A queen down, White repeats the game's position (R-N2 again): a draw is best."""
    s = fresh
    shuffle(s, "7k/8/8/8/3q4/8/8/1R5K w - - 0 1")
    s.command("SETD 3")
    s.command("SETW 40")
    reply = s.command("GO")
    board = chess.Board(s.fen())
    assert board.piece_at(chess.B2) == chess.Piece(chess.ROOK, chess.WHITE)
    assert stats(reply.after_ack)["repetitions"] >= 1
    assert signed(s.peek("LASTV")) == 0


def test_ahead_the_program_avoids_the_repetition(fresh: Session) -> None:
    """A queen up, the same repetition is a draw the program does not want."""
    s = fresh
    shuffle(s, "7k/8/8/8/8/3Q4/8/1R5K w - - 0 1")
    s.command("SETD 3")
    s.command("SETW 40")
    reply = s.command("GO")
    board = chess.Board(s.fen())
    assert board.piece_at(chess.B2) is None  # not R-N2
    assert stats(reply.after_ack)["repetitions"] >= 1  # it was seen, and turned down
    assert signed(s.peek("LASTV")) > 500


def test_a_repetition_inside_the_search_line_is_a_draw(fresh: Session) -> None:
    """No history at all (a position set up): lines of the search that come back to a
    position on the line (the queen's checks to and fro, Q-K8CH K-R2 Q-R5CH K-N1) are
    found through the marks."""
    s = fresh
    s.setup("6k1/5pp1/8/8/r7/q7/4Q1PP/7K w - - 0 1")
    s.command("PN")
    s.command("SETD 5")
    reply = s.command("GO")
    assert stats(reply.after_ack)["repetitions"] >= 1
