"""The teletype commands (docs/teletype.md): position, game, settings and the original
program's own vocabulary (spec 11)."""

from __future__ import annotations

import chess
import pytest

from machack.session import Session


def test_banner_and_prompt(fresh: Session) -> None:
    assert fresh.banner.startswith("MAC HACK VI")
    assert fresh.banner.endswith("*")


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
        "4k3/8/8/8/8/8/8/4K2R w KQkq - 5 40",  # rights the board does not allow are dropped
        "4k3/8/8/8/8/8/8/4K3 b - - 99 120",
    ],
)
def test_setup_fen_round_trip(session: Session, fen: str) -> None:
    session.setup(fen)
    assert session.fen() == chess.Board(fen).fen()


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
    session.command("NEW")
    session.command("PB")
    assert session.command("RESIGN").lines[0] == "BLACK RESIGNS 1-0"
    session.command("PN")


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
