"""The static board evaluator against the independent reference of spec section 4
(`sbe_reference.py`), through the SCORE command, on 200+ positions."""

from __future__ import annotations

import random

import chess
import pytest

from machack.session import Session

from .sbe_reference import Terms, terms


def score(session: Session) -> dict[str, int]:
    """SCORE's terms: M R P K C S."""
    line = session.command("SCORE").first("M ")
    assert line is not None
    words = line.split()
    return dict(zip(words[0::2], map(int, words[1::2]), strict=True))


def expected(t: Terms) -> dict[str, int]:
    return {"M": t.m, "R": t.r, "P": t.p, "K": t.k, "C": t.c, "S": t.s}


def test_initial_position_is_zero(session: Session) -> None:
    session.command("NEW")
    assert score(session) == {"M": 0, "R": 0, "P": 0, "K": 0, "C": 0, "S": 0}


def test_pawns_side_by_side_are_not_backward(session: Session) -> None:
    """Backward means behind a neighbour, not level with it (docs/machack.md, rule 5):
    two passed pawns side by side earn their 8 each and pay nothing."""
    session.setup("4k3/8/8/8/8/8/6PP/4K3 w - - 0 1")
    assert score(session)["P"] == 16
    session.setup("4k3/8/8/8/8/6P1/7P/4K3 w - - 0 1")  # KR2 behind KN3: backward, 20
    assert score(session)["P"] == 8 + 12 - 20


@pytest.mark.parametrize(
    ("fen", "trade", "want_r"),
    [
        # a knight ahead: a rook trade is worth a few points, a queen trade more
        ("r2qkb1r/1ppppppp/8/8/8/8/1PPPPPPP/R2QKBNR w KQk - 0 1", ["A1A8", "D8A8"], 6),
        ("r2qkb1r/1pp1pppp/8/8/8/8/1PP1PPPP/R2QKBNR w KQk - 0 1", ["D1D8", "E8D8"], 16),
        # a knight behind: the same trade costs about as much
        ("r2qkbnr/1ppppppp/8/8/8/8/1PPPPPPP/R2QKB1R w KQk - 0 1", ["A1A8", "D8A8"], -7),
    ],
)
def test_piece_ratio_trades(session: Session, fen: str, trade: list[str], want_r: int) -> None:
    """R promotes trades when ahead and discourages them when behind (spec 4)."""
    session.setup(fen)
    board = chess.Board(fen)
    for move in trade:
        session.command(move)
        board.push_uci(move.lower())
    got = score(session)
    assert got == expected(terms(board, chess.Board(fen)))
    assert got["R"] == want_r


PAWN_CASES = [
    # doubled, tripled, isolated (with and without enemy pawns on the file)
    "4k3/8/8/8/8/P7/P7/4K3 w - - 0 1",
    "4k3/p7/8/8/P7/P7/P7/4K3 w - - 0 1",
    "4k3/8/8/8/2P5/2P5/2P5/4K3 w - - 0 1",
    "4k3/2p5/8/8/2P5/2P5/2P5/4K3 w - - 0 1",
    "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
    # passed pawns on every rank
    "4k3/8/8/8/8/8/P7/4K3 w - - 0 1",
    "4k3/8/8/8/8/P7/8/4K3 w - - 0 1",
    "4k3/8/8/8/P7/8/8/4K3 w - - 0 1",
    "4k3/8/8/P7/8/8/8/4K3 w - - 0 1",
    "4k3/8/P7/8/8/8/8/4K3 w - - 0 1",
    "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/p7/4K3 b - - 0 1",
    "4k3/p7/8/8/8/8/8/4K3 b - - 0 1",
    # backward pawns: defended, defendable, blocked defender, blocked pawn, e.p. exposure
    "4k3/8/8/8/8/2P5/1P6/4K3 w - - 0 1",
    "4k3/8/8/8/1P6/2P5/8/4K3 w - - 0 1",
    "4k3/8/8/8/3P4/8/2P5/4K3 w - - 0 1",
    "4k3/8/8/8/3P4/2n5/2P5/4K3 w - - 0 1",
    "4k3/8/8/8/3P4/2N5/2P5/4K3 w - - 0 1",
    "4k3/8/8/3Pn3/8/8/2P5/4K3 w - - 0 1",
    "4k3/8/8/3P4/1p6/8/2P5/4K3 w - - 0 1",
    "4k3/8/8/3P4/8/8/2P5/4K3 w - - 0 1",
    "4k3/8/8/3P4/8/2b5/2P5/4K3 w - - 0 1",
    "4k3/8/8/3P4/2b5/8/2P5/4K3 w - - 0 1",
    "4k3/8/8/2PP4/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/3P4/4P3/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/4P3/3P4/8/4K3 w - - 0 1",
    "4k3/8/2p5/3p4/8/8/8/4K3 w - - 0 1",
    "4k3/2p5/8/3p4/8/8/8/4K3 b - - 0 1",
    "4k3/2p5/8/3p4/1P6/8/8/4K3 b - - 0 1",
    "4k3/2p5/2N5/3p4/8/8/8/4K3 b - - 0 1",
    "4k3/8/8/1p1p4/1N6/8/8/4K3 b - - 0 1",
    "r3k3/2p5/8/3p4/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/3P4/8/8/2P5/R3K3 b - - 0 1",
    # adjacent blocked pawn, pawns level, isolated
    "4k3/8/8/3P4/8/2P5/8/4K3 w - - 0 1",
    "4k3/8/8/3P4/2b5/2P5/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/1P1P4/4K3 w - - 0 1",
    # king safety and centre
    "q3k3/8/8/8/8/8/8/Q3K3 w - - 0 1",
    "q7/8/4k3/8/8/3K4/8/Q7 w - - 0 1",
    "8/8/4k3/8/8/3K4/8/Q7 w - - 0 1",
    "4k3/8/8/3p4/3P4/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1",
    "4k3/8/8/4p3/8/8/8/4K3 w - - 0 1",
]


@pytest.mark.parametrize("fen", PAWN_CASES)
def test_constructed_positions(session: Session, fen: str) -> None:
    session.setup(fen)
    board = chess.Board(fen)
    assert score(session) == expected(terms(board, board))


# Pairs with the same pawns where a piece in front of a pawn, on a square a pawn could
# defend it from, or the enemy's rooks change P: the evaluator's cache keys them apart.
CACHE_CASES = [
    "4k3/8/8/8/8/8/7P/4K3 w - - 0 1",
    "4k3/8/8/8/8/7n/7P/4K3 w - - 0 1",  # a knight in front of the pawn: backward
    "4k3/7p/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/7p/7N/8/8/8/8/4K3 w - - 0 1",
    "4k3/7p/8/8/8/6P1/7P/4K3 w - - 0 1",
    "4k3/7p/8/8/8/6P1/7P/4K2r w - - 0 1",  # Black has a rook: the backward pawn's 20
    "4k3/8/8/8/2P5/8/1P6/4K3 w - - 0 1",
    "4k3/8/8/8/2P5/1n6/1P6/4K3 w - - 0 1",  # the knight blocks b2
    "4k3/8/8/2p5/4P3/8/3P4/4K3 w - - 0 1",
    "4k3/8/8/2p5/4P3/3n4/3P4/4K3 w - - 0 1",  # ... d2, which could defend e4
    "4k3/3p4/8/2P1p3/8/8/8/4K3 w - - 0 1",
    "4k3/3p4/3B4/2P1p3/8/8/8/4K3 w - - 0 1",  # ... d7
]


def test_the_pawn_structure_cache_tells_blockers_apart(fresh: Session) -> None:
    """Twice through: the first time each position follows one with the same pawns, the
    second time every structure is in the cache; each answer is the reference's (the
    paper's evaluator, RULES PAPER)."""
    fresh.command("RULES PAPER")
    for _ in range(2):
        for fen in CACHE_CASES:
            fresh.setup(fen)
            board = chess.Board(fen)
            assert score(fresh) == expected(terms(board, board)), fen


def _random_positions(count: int, seed: int) -> list[tuple[str, list[str]]]:
    """(root FEN, moves after it): roots from random games, then up to 6 moves that
    prefer captures so R is not always 0."""
    rng = random.Random(seed)
    out: list[tuple[str, list[str]]] = []
    while len(out) < count:
        board = chess.Board()
        for _ in range(rng.randint(0, 70)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.is_game_over():
            continue
        root = board.fen()
        played: list[str] = []
        for _ in range(rng.randint(0, 6)):
            moves = list(board.legal_moves)
            if not moves:
                break
            captures = [m for m in moves if board.is_capture(m)]
            move = rng.choice(captures or moves)
            played.append(move.uci())
            board.push(move)
        out.append((root, played))
    return out


@pytest.mark.parametrize("case", range(4))
def test_random_positions_against_reference(session: Session, case: int) -> None:
    """Four batches of 50 positions (200 in all)."""
    mismatches = []
    for root, played in _random_positions(50, seed=1000 + case):
        session.setup(root)
        board = chess.Board(root)
        for uci in played:
            session.command(uci.upper())
            board.push_uci(uci)
        want = expected(terms(board, chess.Board(root)))
        got = score(session)
        if got != want:
            mismatches.append((root, played, got, want))
    assert not mismatches


def test_rules_d_asks_a_pawn_s_old_neighbours_whether_it_is_passed(session: Session) -> None:
    """RULES D (audit D25, measured on the original): whether a pawn is passed is asked
    of the enemy pawns that started beside the file its number names, where it started.
    After 1.P-K4 P-K4 2.N-KB3 N-QB3 3.B-B4 N-B3 4.N-N5 P-Q4 5.PXP N-QR4 6.B-N5ch P-B3
    White's KP stands on Q5 with Black's QBP diagonally ahead of it, yet Black's QBP did
    not start beside the K file, and nothing stands two ranks ahead on the QB, Q and K
    files: passed, 52 (its fifth rank).  No other pawn term: White's QP and KP share a file
    (two on a file cost nothing), Black's KP has its KBP beside it."""
    game = ["E2E4", "E7E5", "G1F3", "B8C6", "F1C4", "G8F6", "F3G5", "D7D5", "E4D5", "C6A5",
            "C4B5", "C7C6"]  # fmt: skip
    session.command("NEW")
    session.command("PN")
    session.command("RULES D")
    for move in game:
        session.command(move)
    assert score(session)["P"] == 52
    session.command("RULES PAPER")  # (the module's session goes on)


@pytest.mark.parametrize(
    ("fen", "k"),
    [
        # kings on their squares, nothing near them: no rank term, every square round
        # each king unattacked (+1 a square to its tally): 0
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0),
        # Black's rook on the second rank: Q2, K2, KB2 attacked by it and by White's king
        # alone, equal counts and his codes (rook 3) above ours (king 1): -1 each; Q1, KB1
        # unattacked: +1 each; the tally -1 costs 24
        ("4k3/8/8/8/8/8/r7/4K3 w - - 0 1", -24),
        # the same at move 30 (the game past 40 plies at the root): no king safety
        ("4k3/8/8/8/8/8/r7/4K3 w - - 0 30", 0),
        # two rooks on the second rank (the second through the first): his count one
        # more with his codes above ours, a whole count: 40 a square, three squares
        ("4k3/8/8/8/8/8/rr6/4K3 w - - 0 1", -120),
        # White's king on its third rank: the rank term, 8 a rank it stands up
        ("4k3/8/8/8/8/4K3/8/8 w - - 0 1", -16),
    ],
)
def test_rules_d_king_safety(session: Session, fen: str, k: int) -> None:
    """RULES D's king safety (audit D6, the original's KINGSF, KSF1 = 40, KSF2 = 24):
    while the game at the root is at most 40 plies old, the kings' rank term and, for
    each king, its eight squares that are empty or hold an enemy piece: unattacked +1
    to a tally, the enemy a whole attacker more -40, else the enemy's attack word not
    less than ours -1; a tally below 0 costs 24 a unit.  (An immediate -24 once made it
    cost 262,120.)"""
    session.command("RULES D")
    session.setup(fen)
    assert score(session)["K"] == k
    session.command("RULES PAPER")  # the paper's K: the rank term while both have a queen
    assert score(session)["K"] == 0


def test_rules_d_has_no_centre_term(session: Session) -> None:
    """The paper's centre term (1 for the side alone with pawns on the centre squares)
    is not the surviving program's (audit D27): C is 0 under RULES D."""
    session.setup("4k3/8/8/8/4P3/8/8/4K3 w - - 0 30")
    assert score(session)["C"] == 1
    session.command("RULES D")
    assert score(session)["C"] == 0
    session.command("RULES PAPER")
