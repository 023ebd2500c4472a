"""Perft through the teletype: the program's legal move generator against the
published counts (the Chessprogramming wiki's *Perft Results*), and MOVES against
python-chess on random positions reached by random play."""

from __future__ import annotations

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from machack.session import Session

from .conftest import perft_positions

POSITIONS = {p["name"]: p for p in perft_positions()}


@pytest.mark.parametrize("name", sorted(POSITIONS))
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perft_depth_1_to_3(session: Session, name: str, depth: int) -> None:
    pos = POSITIONS[name]
    session.setup(pos["fen"])
    assert session.perft(depth) == pos["perft"][str(depth)]
    assert session.fen() == chess.Board(pos["fen"]).fen()  # perft leaves the position


def test_perft_zero(session: Session) -> None:
    session.command("NEW")
    assert session.perft(0) == 1


@pytest.mark.slow
def test_perft_initial_depth_4(session: Session) -> None:
    session.command("NEW")
    reply = session.command("PERFT 4")
    assert reply.first("PERFT 4 = ") == "PERFT 4 = 197281"
    assert reply.wall_s <= 10.0


@pytest.mark.slow
@pytest.mark.parametrize("name", ["kiwipete", "position3", "position4", "position5"])
def test_perft_depth_4(session: Session, name: str) -> None:
    pos = POSITIONS[name]
    session.setup(pos["fen"])
    assert session.perft(4) == pos["perft"]["4"]


def _uci_upper(move: chess.Move) -> str:
    return move.uci().upper()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.integers(min_value=0, max_value=10_000), min_size=0, max_size=120))
def test_moves_match_python_chess(session: Session, choices: list[int]) -> None:
    """Random play from the start, typed as coordinate moves; after every move MOVES
    and FEN must equal python-chess's."""
    board = chess.Board()
    session.command("NEW")
    for pick in choices:
        legal = sorted(board.legal_moves, key=_uci_upper)
        assert sorted(session.moves()) == [_uci_upper(m) for m in legal]
        if not legal:
            break
        move = legal[pick % len(legal)]
        session.command(_uci_upper(move))
        board.push(move)
        assert session.fen() == board.fen()


# Positions where random play soon captures, promotes (to any piece, also by capture)
# and takes en passant.
BOOKKEEPING_STARTS = [
    chess.STARTING_FEN,
    "r1n1k2r/1P4P1/8/2pP4/8/8/1p4p1/R1N1K2R w KQkq c6 0 1",
    "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
]


@pytest.fixture(scope="module")
def other() -> Session:
    """A second program, to set up afresh the position the first reached by moves."""
    return Session()


def _kept_counts(session: Session) -> tuple[int, list[int], int]:
    """The program's PAWNM, KCNT and PKEY (the pawn structure's key), kept by MAKE and
    UNMAKE."""
    kinds = [session.peek("KCNT", k) for k in range(16)]
    return session.peek("PAWNM"), kinds, session.peek("PKEY")


def _fresh_pkey(session: Session) -> int:
    """The pawn structure's key as PKSCR computes it afresh for the program's position
    (its pawns keep their numbers, which a SETUP elsewhere would give by file): the
    routine run in a stub below the hash table, the program's state put back."""
    m, sym = session.machine, session.image.symbol
    stub, pkey = sym("PRGEND"), sym("PKEY")
    saved = [m.memory[i] for i in range(16)] + [m.memory[pkey]]
    pc = m.pc
    m.memory[stub] = (0o260 << 27) | (0o17 << 23) | sym("PKSCR")  # PUSHJ P,PKSCR
    m.memory[stub + 1] = (0o254 << 27) | (4 << 23) | (stub + 1)  # JRST 4,.
    m.memory[0o17] = ((-64 & 0o777777) << 18) | (sym("PDL") + 200)
    m.pc = stub
    assert m.run(max_instructions=100_000).reason == "halt"
    fresh = m.memory[pkey]
    for i, word in enumerate(saved[:16]):
        m.memory[i] = word
    m.memory[pkey] = saved[16]
    m.pc = pc
    return fresh


def _counts_of(session: Session, board: chess.Board, other: Session) -> tuple[int, list[int], int]:
    """What they should be: the pawns' bits from the program's piece table, the counts
    by kind (type, +8 for Black) from python-chess (and another program set up with the
    same position agrees), the key PKSCR computes afresh."""
    bits = 0
    for n in range(1, 33):
        if session.peek("PSQ", n) and (session.peek("PKIND", n) >> 18) & 7 == 1:
            bits |= session.peek("PBIT", n)
    counts = [0] * 16
    for piece in board.piece_map().values():
        counts[piece.piece_type + (0 if piece.color else 8)] += 1
    other.setup(board.fen())
    assert [other.peek("KCNT", k) for k in range(16)] == counts
    return bits, counts, _fresh_pkey(session)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.sampled_from(BOOKKEEPING_STARTS),
    st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=60),
)
def test_pawn_bits_and_piece_counts_follow_make_and_unmake(
    session: Session, other: Session, fen: str, choices: list[int]
) -> None:
    """The evaluator and the PMG read the pawns from PAWNM and the queens and rooks from
    KCNT instead of looking at every piece, and the evaluator's cache finds the pawn
    structure by PKEY: after every move typed, and every U taking one back (a pick
    divisible by 5), they must be what the board says."""
    board = chess.Board(fen)
    session.setup(fen)
    assert _kept_counts(session) == _counts_of(session, board, other)
    for pick in choices:
        legal = sorted(board.legal_moves, key=_uci_upper)
        if pick % 5 == 0 and board.move_stack:
            session.command("U")
            board.pop()
        elif legal:
            move = legal[pick % len(legal)]
            session.command(_uci_upper(move))
            board.push(move)
        assert session.fen() == board.fen()
        assert _kept_counts(session) == _counts_of(session, board, other)


PROMOTIONS = BOOKKEEPING_STARTS[1]
CASTLINGS = "r3k2r/8/8/8/8/8/p7/R3K2R w KQkq - 0 1"  # the a-pawn looks at a1


@pytest.mark.parametrize(
    ("fen", "moves"),
    [
        (PROMOTIONS, ["b7a8q"]),  # promotion by capture
        (PROMOTIONS, ["g7g8n"]),  # promotion
        (PROMOTIONS, ["d5c6"]),  # en passant
        (PROMOTIONS, ["b7b8q", "e8f7", "b8b2"]),  # the new queen takes a pawn
        (PROMOTIONS, ["b7c8r", "e8e7", "c8c5"]),  # the promoted rook takes
        (PROMOTIONS, ["g7h8q", "e8d7", "a1a8", "g2h1q", "e1f2", "b2c1n"]),  # Black too
        (CASTLINGS, ["e1c1", "e8g8"]),
        (CASTLINGS, ["e1g1", "e8c8"]),
        # the squares in front of a pawn's defending squares, seen for a pawn on its
        # fifth rank only: Black's e4 pawn and d6, f6; White's e5 pawn and d3, f3
        ("4k3/8/8/8/4p3/8/8/3RK3 w - - 0 1", ["d1d6", "e8e7", "d6f6"]),
        ("3rk3/8/8/4P3/8/8/8/4K3 b - - 0 1", ["d8d3", "e1e2", "d3f3"]),
    ],
)
def test_pawn_bits_and_piece_counts_at_special_moves(
    session: Session, other: Session, fen: str, moves: list[str]
) -> None:
    """Each special move made and taken back one by one."""
    board = chess.Board(fen)
    session.setup(board.fen())
    for uci in moves:
        session.command(uci.upper())
        board.push_uci(uci)
        assert _kept_counts(session) == _counts_of(session, board, other), uci
    while board.move_stack:
        session.command("U")
        board.pop()
        assert session.fen() == board.fen()
        assert _kept_counts(session) == _counts_of(session, board, other)


@pytest.mark.parametrize(
    "fen",
    [
        "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 2",  # e.p. would expose the king along the rank
        "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",  # the same for Black
        "8/8/8/6pP/5K2/8/8/6k1 w - g6 0 2",  # e.p. takes the pawn that just gave check
        "8/8/8/4k3/3Pp3/8/8/4K3 b - d3 0 1",  # the same for Black
        "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",  # both castlings
        "r3k2r/8/8/8/8/8/8/4K2R b kq - 0 1",
        "4k3/8/8/8/8/5b2/8/R3K2R w KQ - 0 1",  # castling through an attacked square
        "3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1",  # the queen's side: d1 attacked
        "1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",  # b1 attacked does not matter
        "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",  # promotion to any piece
        "2n1k3/1P6/8/8/8/8/8/4K3 w - - 0 1",  # promotion by capture
        "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1",  # check evasion by capture
        "4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1",  # pinned knight
        "4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1",  # pinned rook moves along the pin
        "4k3/8/8/8/8/2n5/8/r3K3 w - - 0 1",  # double check
        "8/8/8/3k4/8/8/3K4/8 w - - 0 1",
    ],
)
def test_moves_special_positions(session: Session, fen: str) -> None:
    session.setup(fen)
    board = chess.Board(fen)
    assert sorted(session.moves()) == sorted(_uci_upper(m) for m in board.legal_moves)
    assert session.fen() == board.fen()


def test_bell_stops_perft(session: Session) -> None:
    session.command("NEW")
    session.type("PERFT 7\r")
    session.run_for(3_000_000)
    session.type("\x07")
    out = session.run_until_idle(budget=50_000_000)
    assert out.split("\n")[-2] == "QUIT"
    assert session.fen() == chess.STARTING_FEN
