"""The teletype commands (docs/teletype.md): position, game, settings and the original
program's own vocabulary (spec 11)."""

from __future__ import annotations

import re
from pathlib import Path

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from machack.session import Session


def test_banner_and_prompt(fresh: Session) -> None:
    assert fresh.banner.startswith("MAC HACK VI")
    assert fresh.banner.endswith("*")


def test_a_typed_line_does_not_stop_at_every_turn_of_the_wait(session: Session) -> None:
    """Between two keys (1 ms of PDP-6 time apart) the program turns in its wait loop
    at IDLE; the session runs on to the next key instead of stopping at the breakpoint
    on every turn (about 35 stops a key before)."""
    line = "SETUP rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"  # (a new game)
    machine, runs = session.machine, []
    real_run = machine.run

    def counted(*args: object, **kwargs: object) -> object:
        runs.append(1)
        return real_run(*args, **kwargs)  # type: ignore[arg-type]

    machine.run = counted  # type: ignore[method-assign]
    try:
        assert session.command(line).accepted
    finally:
        del machine.run
    assert len(runs) < 5 * len(line)


def test_waiting_for_a_key_is_told_from_thinking(fresh: Session) -> None:
    """`machack play` asks whether a Ctrl-C found the program at its prompt (then the
    game ends) or thinking (then it gets BELL).  At the prompt the answer is yes even
    when the look lands in the clock's interrupt routine; in a search it is no."""
    machine, clock = fresh.machine, fresh.image.symbol("APRBRK") + 1
    assert fresh.waits_for_a_key()
    machine.breakpoints.discard(fresh.idle_pc)
    machine.breakpoints.add(clock)
    machine.run(max_instructions=1, until_us=machine.elapsed_us + 1)  # (off the prompt's bp)
    assert machine.run(until_us=machine.elapsed_us + 40_000).reason == "breakpoint"
    machine.breakpoints.discard(clock)
    assert machine.pc == clock  # in the clock's routine, the wait interrupted
    assert fresh.waits_for_a_key()
    machine.breakpoints.add(fresh.idle_pc)
    fresh.command("BOOK OFF")
    fresh.type("GO\r")
    machine.breakpoints.discard(fresh.idle_pc)
    machine.run(until_us=machine.elapsed_us + 500_000)  # half a second into the search
    assert not fresh.waits_for_a_key()
    machine.breakpoints.add(fresh.idle_pc)


def test_new_and_fen(session: Session) -> None:
    session.command("E2E4")
    session.command("NEW")
    assert session.fen() == chess.STARTING_FEN


@pytest.mark.parametrize(
    "fen",
    [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
        "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",  # the e.p. capture is illegal: no e.p. square
        "4k3/8/8/8/8/8/8/4K2R w K - 5 40",
        "4k3/8/8/8/8/8/8/4K3 b - - 99 120",
    ],
)
def test_setup_fen_round_trip(session: Session, fen: str) -> None:
    session.setup(fen)
    assert session.fen() == chess.Board(fen).fen()


# Positions whose placement is sound, to which random castling and e.p. fields are given.
CASTLING_BASES = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w",
    "4k3/8/8/8/8/8/8/4K2R w",
    "r3k3/8/8/8/8/8/8/1R2K3 b",
    "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w",
    "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b",
    "8/8/8/8/k2Pp2Q/8/8/3K4 b",
    "4k3/8/8/2pP4/8/8/8/4K3 w",
]
EP_SQUARES = ["-"] + [f + r for f in "abcdefgh" for r in "36"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    base=st.sampled_from(CASTLING_BASES),
    rights=st.lists(st.sampled_from("KQkq"), unique=True).map(
        lambda xs: "".join(c for c in "KQkq" if c in xs) or "-"
    ),
    ep=st.sampled_from(EP_SQUARES),
)
def test_setup_castling_and_en_passant_fields(
    session: Session, base: str, rights: str, ep: str
) -> None:
    """SETUP refuses a castling right whose king or rook is not at home and what
    python-chess's Board.status() calls an invalid e.p. square (docs/teletype.md: BAD
    FEN), leaving the position as it was, and takes everything else, keeping an e.p.
    square only where the capture is legal (as python-chess writes FEN)."""
    fen = f"{base} {rights} {ep} 0 1"
    board = chess.Board(fen)
    status = board.status()
    castling_flags = chess.STATUS_BAD_CASTLING_RIGHTS | chess.STATUS_INVALID_EP_SQUARE
    assert not status & ~castling_flags  # the base positions are sound
    homes = {"K": ("e1", "h1", "K", "R"), "Q": ("e1", "a1", "K", "R"),
             "k": ("e8", "h8", "k", "r"), "q": ("e8", "a8", "k", "r")}  # fmt: skip
    bad_right = any(
        str(board.piece_at(chess.parse_square(king))) != k
        or str(board.piece_at(chess.parse_square(rook))) != r
        for king, rook, k, r in (homes[c] for c in rights.strip("-"))
    )
    # python-chess drops a right with no rook at all on the rank instead of calling it bad
    assert bad_right or not status & chess.STATUS_BAD_CASTLING_RIGHTS
    bad = bad_right or status & chess.STATUS_INVALID_EP_SQUARE
    before = session.fen()
    reply = session.send(f"SETUP {fen}")
    if bad:
        assert reply.lines == ["BAD FEN"], fen
        assert session.fen() == before
    else:
        assert reply.accepted, fen
        assert session.fen() == board.fen()


def test_setup_without_counters(session: Session) -> None:
    session.setup("4k3/8/8/8/8/8/8/4K3 w")
    assert session.fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"


def test_board_text(session: Session) -> None:
    session.command("NEW")
    lines = session.command("BOARD").lines
    assert lines[0] == "8 r n b q k b n r"
    assert lines[7] == "1 R N B Q K B N R"
    assert lines[8] == "  A B C D E F G H"
    assert lines[9] == "WHITE TO MOVE"


def test_bd_is_the_original_diagram(session: Session) -> None:
    """White's first rank first, KR file first; -- light and ** dark empties; ghosts."""
    session.setup("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
    lines = session.command("BD").lines[:8]
    assert lines[0] == "-- ** -- WK -- ** -- **"
    assert lines[5].split()[4] == "BG"  # the ghost of ...P-Q4 on Q6 (d6)
    assert lines[4].split()[3:5] == ["WP", "BP"]


def test_moves_count(session: Session) -> None:
    session.command("NEW")
    assert len(session.moves()) == 20


def test_pg_and_takeback(session: Session) -> None:
    session.command("NEW")
    for move in ["P-K4", "P-K4", "N-KB3"]:
        session.command(move)
    lines = session.command("PG").lines
    assert lines[:2] == ["  1 P-K4        P-K4", "  2 N-KB3"]
    session.command("TAKEBACK")
    session.command("U")
    after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert session.fen() == chess.Board(after_e4).fen()
    session.command("U")
    assert session.fen() == chess.STARTING_FEN
    assert session.send("U").lines == ["NO MOVE TO TAKE BACK"]


def test_pg_starting_with_black(session: Session) -> None:
    session.setup("4k3/8/8/8/8/8/4P3/4K3 b - - 0 30")
    session.command("K-Q2")
    session.command("P-K4")
    assert session.command("PG").lines[:2] == [" 30 ...         K-Q2", " 31 P-K4"]


def test_settings_and_queries(session: Session) -> None:
    session.command("SETD 3")
    assert session.command("SETD=").lines[0] == "3"
    session.command("DEPTH 2")
    assert session.command("SETD ?").lines[0] == "2"
    session.command("SETW 15 15 9 9 7")
    assert session.command("SETW=").lines[0] == "15 15 9 9 7"
    session.command("SETW 6")
    assert session.command("SETW=").lines[0] == "6"
    session.command("SETF 1")
    assert session.command("SETF=").lines[0] == "1"
    assert session.send("SETW 0").lines == ["??"]
    assert session.send("SETF 99").lines == ["??"]


def test_machine_plays_white_at_once(session: Session) -> None:
    session.command("NEW")
    session.command("DEPTH 2")
    reply = session.command("PW")
    assert reply.after_ack[0].startswith("1. ")
    reply = session.command("P-K4" if session.fen().split()[0][-1] != "x" else "P-Q4")
    assert reply.after_ack and reply.after_ack[0].startswith("2. ")
    session.command("PN")


def test_machine_plays_black_after_your_move(session: Session) -> None:
    session.command("NEW")
    session.command("DEPTH 2")
    session.command("PB")
    reply = session.command("P-K4")
    assert reply.after_ack[0].startswith("1. ... ")
    session.command("PN")


def test_psvd_prints_value_and_pv(session: Session) -> None:
    session.setup("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    session.command("DEPTH 2")
    session.command("PSVD 1")
    reply = session.command("GO")
    assert reply.after_ack[0] == "1. R-R8 MATE"
    assert reply.after_ack[1].startswith("VALUE 28671 PV R-R8 MATE")
    session.command("PSVD 0")


def test_draw_offers(session: Session) -> None:
    """Decline before ply 17; from 17 to 40 accept only when the machine is losing."""
    session.setup("k7/8/8/8/8/8/8/KQ6 w - - 0 1")
    assert session.command("DRAW?").lines[0] == "DECLINE"
    shuffle = ["Q-QB1", "K-R2", "Q-QN1", "K-R1"]
    for i in range(20):
        session.command(shuffle[i % 4])
    # ply 20, White (a queen up) to move: the machine, playing the side to move, declines
    assert session.command("DRAW?").lines[0] == "DECLINE"
    session.command("Q-QB1")
    # ply 21, Black (a queen down) to move: accepts
    assert session.command("DRAW?").lines[0] == "ACCEPT"
    assert session.command("DRAW").lines[0] == "ACCEPT"


def test_resign(session: Session) -> None:
    """The operator makes the machine resign (spec 9); the game is then over: a move,
    GO or RESIGN again are refused until U, NEW or SETUP (issue 32: play went on)."""
    session.command("NEW")
    session.command("PB")
    assert session.command("RESIGN").lines[0] == "BLACK RESIGNS 1-0"
    over = "THE GAME IS OVER (RESIGNED): NEW, SETUP OR U"
    for line in ("P-K4", "GO", "RESIGN"):
        reply = session.send(line)
        assert not reply.accepted and reply.lines == [over], line
    assert session.fen().startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/")
    session.command("NEW")  # a new game: play again
    session.command("PN")
    assert session.send("P-K4").accepted
    assert session.command("RESIGN").lines[0] == "BLACK RESIGNS 1-0"  # PN: the side to move
    assert session.command("U").accepted  # a take-back: the game is on again
    assert session.send("P-Q4").accepted
    assert any("RESIGN (THE MACHINE RESIGNS" in x for x in session.command("HELP").lines)


def test_comments_tabs_rubout(session: Session) -> None:
    session.command("NEW")
    assert session.send("P-K4 [the best by test]").accepted
    assert session.send("P-K4\t").accepted
    reply = session.send("N-KB3XYZ\x7fN-KB3")  # RUBOUT kills the line typed so far
    assert reply.accepted
    assert session.fen().startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/")


def test_control_characters_echo_and_refuse(session: Session) -> None:
    session.command("NEW")
    raw = session.send("P-K4\x01").raw
    assert "^A" in raw
    assert session.fen() == chess.STARTING_FEN


def test_the_hash_region_is_free(session: Session) -> None:
    """Core 200000-377777 is reserved for the 32K-entry hash table: the program keeps
    nothing there."""
    image = session.image
    assert image.symbol("PRGEND") <= 0o200000
    assert all(not (0o200000 <= a <= 0o377777) for a in image.words)
    assert image.symbol("HASHT") == 0o200000


def test_go_with_no_legal_move_says_why(session: Session) -> None:
    session.setup("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    assert session.command("GO").after_ack == ["CHECKMATE 1-0"]
    session.setup("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert session.command("GO").after_ack == ["STALEMATE 1/2-1/2"]


def test_a_search_without_a_move_is_reported(fresh: Session) -> None:
    """THINK returning no move while legal moves exist is a fault, never a silent `_`."""
    think = fresh.image.symbol("THINK")
    fresh.machine.memory[think] = 0o201040_000000  # MOVEI A,0
    fresh.machine.memory[think + 1] = 0o263740_000000  # POPJ P,
    fresh.command("BOOK OFF")  # (the book would answer without THINK)
    reply = fresh.command("PW")  # the machine is to move: it searches at once
    assert reply.after_ack == ["NO MOVE FOUND: PROGRAM ERROR",
                               "MACHINE STOPPED PLAYING: TYPE PW TO RESUME"]  # fmt: skip
    assert fresh.command("GO").after_ack == ["NO MOVE FOUND: PROGRAM ERROR"]
    assert fresh.fen() == chess.STARTING_FEN


def test_take_back_says_the_machine_stopped_playing(session: Session) -> None:
    session.command("NEW")
    session.command("DEPTH 1")
    session.command("PB")
    assert session.command("P-K4").after_ack[0].startswith("1. ... ")
    reply = session.command("U")
    assert reply.lines == ["MACHINE STOPPED PLAYING: TYPE PB TO RESUME", "_"]
    assert session.command("U").lines == ["_"]  # in PN nothing more to say


DOCS = Path(__file__).resolve().parents[2] / "docs"


def command_names(session: Session) -> list[str]:
    """The commands the program knows: its table in core (cmd.mid's CMDTAB, a name in
    two SIXBIT words and the routine, a zero word at the end)."""
    memory, at, names = session.machine.memory, session.image.symbol("CMDTAB"), []
    while memory[at]:
        words = (memory[at], memory[at + 1])
        names.append("".join(chr((w >> 30 - 6 * i & 0o77) + 32) for w in words for i in range(6)))
        at += 3
    return [name.rstrip() for name in names]


def test_every_command_is_in_help_and_in_the_docs(session: Session) -> None:
    """HELP and docs/teletype.md (where HELP sends the user) name every command the
    program takes, the debugging aids of the search too."""
    names = command_names(session)
    assert {"GO", "TAKEBACK", "TRACE", "PLAUS", "PREY", "SETSD", "SMVD", "HASH"} <= set(names)
    rows = [x.split("|")[1] for x in (DOCS / "teletype.md").read_text().splitlines()
            if x.startswith("| `")]  # fmt: skip
    documented = {word for cell in rows for word in re.findall(r"`([A-Z?]+)", cell)}
    lines = session.command("HELP").lines
    # each entry on its line: a comma inside one used to end the macro argument there
    assert "TRACE move  PLAUS  PREY  (THE PLAUSIBLE MOVE GENERATOR, THE LEAF)" in lines
    assert "HASH ON  HASH OFF  HASH=  BEST (THE LAST SEARCH, FOR PROGRAMS)" in lines
    assert all(line == line.strip() and line.count("(") == line.count(")") for line in lines)
    help_words = set(" ".join(lines).replace("?", " ").split())
    for name in names:
        assert name in documented, f"{name} not in teletype.md"
        assert name.rstrip("?") in help_words | {"HELP"}, f"{name} not in HELP"
