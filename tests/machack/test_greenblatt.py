"""The Greenblatt search's rules (spec 2, 3, 7; machack-original 4.3-4.7), each seen from
the teletype: how many root moves the search takes (the statistics line's CAPTURE count
at depth 1, where every root move searched is one capture-search node), which moves it
plays, the values SMVD types, the feedover counts and PREY's verdict.  Each position is
chosen so that the rule under test decides the outcome; the expected figures follow from
the rule and PLAUS's list, not from what the search printed.  Then the positions of the
piece-ratio bound (issue 12): R may not reach the mate values.
"""

from __future__ import annotations

import re

import chess
import pytest

from machack.session import Session, is_move_line

from .conftest import WAC_EPD
from .notation_reference import unique_texts
from .test_pmg import plaus

MATE_RANGE = 28672 - 100  # MATEV - MAXPLY: values at or beyond it are mates


@pytest.fixture()
def session() -> Session:
    """A newly booted program for each test, at the operating sheet's settings: no
    setting, table entry or stray store (PREY's, see test_pmg) carries over; under
    RULES PAPER, whose search rules these are (conftest's session)."""
    session = Session()
    session.command("RULES PAPER")
    return session


def stats(lines: list[str]) -> dict[str, int | tuple[int, int]]:
    """The statistics line after a machine move: counts and the n/m pairs."""
    line = next(x for x in lines if x.startswith("TIME "))
    out: dict[str, int | tuple[int, int]] = {}
    for name, a, b in re.findall(r"([A-Z]+) (\d+)(?:/(\d+))?", line):
        out[name] = (int(a), int(b)) if b else int(a)
    return out


def go(session: Session, fen: str, *settings: str) -> list[str]:
    """Set up `fen`, apply the settings, let the machine move: the lines it typed."""
    session.setup(fen)
    for line in settings:
        session.command(line)
    return session.command("GO").after_ack


def played(lines: list[str]) -> str:
    return next(x for x in lines if is_move_line(x)).split(" ", 1)[1].removeprefix("... ")


# --- width (machack-original 4.3; spec 2) -------------------------------------------------
def root_moves(listed: list[tuple[int, str, list[str], bool]], width: int, safe: int) -> int:
    """How many root moves the width rules take from PLAUS's list: the first W; more
    until moves of k = min(2 * pieces with a safe move, W) / 2 distinct pieces are in;
    then only those to investigate.  (The positions here have one piece of each kind,
    so a move's letter names its piece.)"""
    k = min(2 * safe, width) // 2
    taken, pieces = 0, set[str]()
    for _, move, flags, _ in listed:
        if taken < width or len(pieces) < k or "INVESTIGATE" in flags:
            taken += 1
            pieces.add(move[0])
    return taken


# Searched at depth 1 with no feedover, secondary search or table.
DEPTH1 = ["HASH OFF", "SETD 1", "SETF 0", "SETSD 0"]
ROOK = "6k1/8/8/8/8/8/8/R5K1 w - - 0 30"
ITALIAN = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
TWO_CHECKS = "6k1/7q/8/8/8/8/8/RB4K1 w - - 0 30"
UNSAFE_CAPTURE = "k7/8/2p5/3p4/8/8/8/K2R4 w - - 0 30"


@pytest.mark.parametrize(
    ("fen", "width", "setc", "want"),
    [
        # R-R8 checks and heads the list; nine more rook moves, then K-B2 (10th).
        (ROOK, 1, 2, 1),
        (ROOK, 2, 2, 2),
        (ROOK, 3, 2, 3),
        (ROOK, 6, 2, 10),  # k = 2 pieces: on to the king's first move
        (ROOK, 10, 2, 10),
        # BXQ first; the two safe checks R-R8 and B-R2 are searched beyond the width.
        (TWO_CHECKS, 1, 2, 3),
        # Q-Q8 (a safe check), then QXP; Q-N4 checks but is unsafe: not searched.
        ("6k1/5p2/8/7p/8/8/8/3Q2K1 w - - 0 30", 1, 2, 2),
        # RXP and KXP are captures: KXP is searched beyond the width only at SETC >= 1;
        # R-R2 attacks both pawns (two forcing attacks, the surviving program's fifth
        # extension), which is not among the paper's: not searched.
        ("7k/8/8/8/p7/8/6p1/R5K1 w - - 0 30", 1, 0, 1),
        ("7k/8/8/8/p7/8/6p1/R5K1 w - - 0 30", 1, 1, 2),
        # RXP gives the rook for a pawn (unsafe), yet in the first SETC plies every
        # capture is searched (the paper's "all captures"; the surviving program's were
        # the safe ones).
        (UNSAFE_CAPTURE, 1, 0, 1),
        (UNSAFE_CAPTURE, 1, 1, 2),
    ],
)
def test_width_and_its_extensions(
    session: Session, fen: str, width: int, setc: int, want: int
) -> None:
    session.command(f"SETC {setc}")
    listed = plaus(session, fen)
    safe = int(session.command("PLAUS").lines[0].split()[3])
    assert root_moves(listed, width, safe) == want
    lines = go(session, fen, *DEPTH1, f"SETW {width}", "SMVD 1")
    assert sum(" PLAUS " in x for x in lines) == want  # SMVD types each root move searched


def test_rook_list_shape(session: Session) -> None:
    """The premise of the width cases: the check first (the PMG scores checks), nine
    more rook moves, a king move 10th, two pieces with safe moves."""
    listed = plaus(session, ROOK)
    assert [move[0] for _, move, _, _ in listed[:10]] == ["R"] * 9 + ["K"]
    assert listed[0][1:3] == ("R-R8", ["INVESTIGATE", "CHECK"])
    assert [m for _, m, f, _ in listed if "INVESTIGATE" in f] == ["R-R8"]


BACK_RANK = "4r1k1/5ppp/p7/8/8/8/5PPP/R5K1 w - - 0 30"  # RXP leaves the back rank


def test_mated_moves_give_their_place_back(session: Session) -> None:
    """Width 1: RXP, the most plausible and the only move to investigate, is met by
    R-K8 mate, and so are R-R5, R-R4 and R-R3, the next; a move that leads to being
    mated is not counted against the width, so the search goes on to R-Q1 (it guards
    the back rank) and plays it."""
    listed = plaus(session, BACK_RANK)
    assert [m for _, m, _, _ in listed[:5]] == ["RXP", "R-R5", "R-R4", "R-R3", "R-Q1"]
    assert [m for _, m, f, _ in listed if "INVESTIGATE" in f] == ["RXP"]
    lines = go(session, BACK_RANK, "HASH OFF", "SETD 2", "SETW 1", "SETSD 0", "SMVD 1")
    first = next(x for x in lines if " PLAUS " in x)
    assert first.startswith("RXP ") and first.endswith(" R-K8 MATE")
    assert int(first.split(" RAW ")[1].split()[0]) <= -MATE_RANGE
    assert played(lines) == "R-Q1"
    # SMVD types every root move searched: the three mated as fast as RXP are refuted
    # (no better than it), typed with the mate that refutes them and its value.
    typed = [x.split()[0] for x in lines if " PLAUS " in x]
    assert typed == ["RXP", "R-R5", "R-R4", "R-R3", "R-Q1"]
    for line in (x for x in lines if " REFUTED " in x):
        assert line.split()[0] in ("R-R5", "R-R4", "R-R3"), line
        assert int(line.split(" REFUTED ")[1].split()[0]) <= -MATE_RANGE, line
        assert line.endswith(" R-K8 MATE"), line
    assert sum(" REFUTED " in x for x in lines) == 3


# --- secondary search (spec 7) -------------------------------------------------------------
def test_secondary_search_changes_the_choice(session: Session) -> None:
    """At depth 1 RXP wins a pawn; two plies more down its line find R-K8 mate, so the
    secondary search lowers its value and another move is played."""
    lines = go(session, BACK_RANK, "HASH OFF", "SETD 1", "SETSD 0")
    assert played(lines) == "RXP"
    assert stats(lines)["SECONDARY"] == (0, 0)
    lines = go(session, BACK_RANK, "HASH OFF", "SETD 1", "SETSD 2", "SMVD 1")
    assert played(lines) != "RXP"
    searches, lowered = stats(lines)["SECONDARY"]
    assert searches >= 2 and lowered >= 1
    # SMVD types the values the search kept: RXP's, lowered by the line that mates.
    (rxp,) = (x for x in lines if x.startswith("RXP PLAUS "))
    value, raw = (int(rxp.split(f" {w} ")[1].split()[0]) for w in ("VALUE", "RAW"))
    assert value <= -MATE_RANGE and raw <= -MATE_RANGE, rxp


# --- feedover (spec 3; machack-original 4.7) ----------------------------------------------
def prey(session: Session, fen: str) -> list[str]:
    session.setup(fen)
    return session.command("PREY").lines[:-1]


@pytest.mark.parametrize(
    ("fen", "want"),
    [
        # two pieces on prey (a pawn forks knight and bishop; it is on prey too)
        ("6k1/8/8/8/3p4/2N1B3/8/6K1 w - - 0 30",
         ["ON PREY QB E3 WHITE", "ON PREY QN C3 WHITE", "ON PREY QP D4 BLACK", "FEEDOVER"]),
        # one on prey, free to go: no feedover
        ("6k1/8/8/8/3p4/2N5/8/6K1 w - - 0 30", ["ON PREY QN C3 WHITE", "NO FEEDOVER"]),
        # one on prey and pinned to its king
        ("4r1k1/8/8/8/3p4/4N3/8/4K3 w - - 0 30", ["ON PREY KN E3 WHITE PINNED", "FEEDOVER"]),
        # one on prey and trapped (QN8 covered by his rook, QN6 defended)
        ("r5k1/B1p5/1p6/8/8/8/8/6K1 w - - 0 30", ["ON PREY QB A7 WHITE", "FEEDOVER"]),
        # one each; his is pinned, mine is free
        ("4k3/8/4n3/8/3p4/2N5/8/4R1K1 w - - 0 30",
         ["ON PREY QN C3 WHITE", "ON PREY KN E6 BLACK PINNED", "FEEDOVER"]),
        # one each, neither pinned nor trapped
        ("6k1/8/4n3/8/3p4/2N5/8/4R1K1 w - - 0 30",
         ["ON PREY QN C3 WHITE", "ON PREY KN E6 BLACK", "NO FEEDOVER"]),
    ],
)  # fmt: skip
def test_feedover_conditions(session: Session, fen: str, want: list[str]) -> None:
    assert prey(session, fen) == want


def test_prey_stores_nothing(session: Session) -> None:
    """PREY only reports: AC 0, which the program never uses, stays 0."""
    assert session.machine.memory[0] == 0
    assert "ON PREY KN E6 BLACK" in prey(session, "6k1/8/4n3/8/3p4/2N5/8/4R1K1 w - - 0 30")
    assert session.machine.memory[0] == 0


def test_a_check_feeds_over_only_with_a_piece_on_prey(session: Session) -> None:
    """Width 1 searches the most plausible move and the safe check R-R8.  At the leaf
    after R-R8 Black is in check: with nothing of his on prey it does not feed over
    (the paper's condition 1 asks for a piece en prise as well as the check; the
    surviving program fed over on the check alone, machack-original 4.7 and 11); with
    his knight on prey it does, when SETF allows, and the line searched goes on."""
    assert prey(session, "R5k1/8/8/8/8/8/8/6K1 b - - 1 30") == ["NO FEEDOVER"]
    lines = go(session, ROOK, *DEPTH1, "SETW 1", "SETF 1")
    assert stats(lines)["FEEDOVERS"] == (0, 0)
    assert prey(session, "R5k1/8/8/3n4/4P3/8/8/6K1 b - - 0 30") == [
        "ON PREY QN D5 BLACK",
        "FEEDOVER",
    ]
    assert prey(session, "6k1/8/8/3n4/4P3/8/8/R5K1 b - - 0 30") == [
        "ON PREY QN D5 BLACK",
        "NO FEEDOVER",
    ]
    knight = "6k1/8/8/3n4/4P3/8/8/R5K1 w - - 0 30"
    lines = go(session, knight, *DEPTH1, "SETC 0", "SETW 1", "SETF 1", "SMVD 1")
    assert stats(lines)["FEEDOVERS"] == (1, 0)
    (check,) = (x for x in lines if x.startswith("R-R8 PLAUS "))
    assert check.split(" PV ")[1].split()[:2] == ["R-R8CH", "K-B2"], check


def test_a_mate_at_a_leaf_is_seen(session: Session) -> None:
    """R-R8 mates at depth 1.  The leaf is in check with nothing on prey, so it does
    not feed over, but a checkmate the search reaches at any depth has its mate value
    (spec 1): the program plays it and announces it."""
    lines = go(session, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 30", *DEPTH1, "SMVD 1")
    assert played(lines) == "R-R8 MATE"
    (mate,) = (x for x in lines if x.startswith("R-R8 PLAUS "))
    assert int(mate.split(" VALUE ")[1].split()[0]) >= MATE_RANGE, mate
    assert stats(lines)["FEEDOVERS"] == (0, 0)


def test_tables_wait_for_standing_pat_where_no_feedover_can_come(session: Session) -> None:
    """With SETF 0 no leaf can feed over, so a capture-search node builds the attack
    tables (for its candidates) only when standing pat does not end it: fewer builds
    than PMG calls and capture-search nodes together (before, one for each)."""
    before = session.peek("NCAT")
    lines = go(session, ITALIAN, "BOOK OFF", "HASH OFF", "SETD 2", "SETF 0", "SETSD 0")
    counts = stats(lines)
    builds = session.peek("NCAT") - before
    assert isinstance(counts["PMG"], int) and isinstance(counts["CAPTURE"], int)
    assert counts["CAPTURE"] > 0 and builds < counts["PMG"] + counts["CAPTURE"]


FORK = "6k1/8/8/3n4/4P3/2B1B3/8/R5K1 w - - 0 30"


@pytest.mark.parametrize(("setf", "want"), [(0, (0, 0)), (1, (1, 1)), (2, (2, 0))])
def test_feedover_at_the_leaves(session: Session, setf: int, want: tuple[int, int]) -> None:
    """Width 1 and depth 1 (captures not extended: SETC 0) search PXN and the safe
    check R-R8.  After R-R8 Black is in check with his knight on prey: that leaf, at
    ply 2, feeds over when SETF allows a ply of it (SETF 0: it stands pat, its static
    value already beyond the window).  Black's king moves, and White has both bishops
    on prey (the knight forks them): a feedover at ply 3, which needs SETF 2.
    FEEDOVERS n/m: n fed over, m stopped by the limit."""
    lines = go(session, FORK, *DEPTH1, "SETC 0", "SETW 1", f"SETF {setf}")
    assert stats(lines)["FEEDOVERS"] == want


@pytest.mark.parametrize(("setf", "want"), [(2, (0, 1)), (3, (1, 0))])
def test_no_feedover_at_setd_plus_setf(session: Session, setf: int, want: tuple[int, int]) -> None:
    """SETF n allows feedover only above ply SETD + n (FDCUT = SETD + n + 1 counted from
    the root as 1, c197:1658-1666).  At depth 1 (width 1: P-B4; SETC 1: every capture
    too), PXP and two captures of the capture search, PXP and BXPch, reach a node in
    check with Black's rook on prey (the bishop attacks it too) and no feedover spent on
    the line: SETF 2 stops it, SETF 3 feeds over."""
    fen = "r5k1/6pp/4p3/3p4/2P5/1B6/5PPP/3R2K1 w - - 0 30"
    assert prey(session, "r5k1/6pp/8/3B4/8/8/5PPP/3R2K1 b - - 0 31") == [
        "ON PREY QR A8 BLACK",
        "FEEDOVER",
    ]
    lines = go(session, fen, *DEPTH1, "SETC 1", "SETW 1", f"SETF {setf}")
    assert stats(lines)["FEEDOVERS"] == want


# --- value modifications (spec 7; machack-original 4.6) ------------------------------------
def names(board: chess.Board, move: chess.Move) -> set[str]:
    """The texts that name `move` alone in `board`."""
    if board.is_castling(move):
        return {"O-O" if chess.square_file(move.to_square) == 6 else "O-O-O"}
    return unique_texts(board, move)


def read_line(fen: str, texts: list[str]) -> list[chess.Move]:
    """The moves of a line as the program types it (shortest descriptive notation)."""
    board = chess.Board(fen)
    moves = []
    for text in texts:
        if text == "MATE":
            continue
        text = text.removesuffix("CH")
        (move,) = [m for m in board.legal_moves if text in names(board, m)]
        moves.append(move)
        board.push(move)
    return moves


def diddle(fen: str, pv: list[chess.Move], poor: bool) -> int:
    """What the modifications take off a root move with principal variation `pv`."""
    board = chess.Board(fen)
    off = 3 if poor else 0
    if len(pv) < 3 or board.is_capture(pv[0]):
        return off
    x1, reply, x2 = pv[:3]
    after = board.copy()
    after.push(x1)
    after.push(reply)
    if after.is_capture(x2) or x2.promotion or after.is_castling(x2):
        return off
    if x2.from_square != x1.to_square:  # not the same piece
        return off
    game_ply = 2 * (board.fullmove_number - 1) + (board.turn == chess.BLACK)
    off += game_ply < 16
    if x2.to_square == x1.from_square:
        return off + 4
    lifted = after.copy()  # could one move from X1's origin have gone there?
    piece = lifted.remove_piece_at(x2.from_square)
    lifted.set_piece_at(x1.from_square, piece)
    return off + 2 * (chess.Move(x1.from_square, x2.to_square) in lifted.pseudo_legal_moves)


@pytest.mark.parametrize(
    ("fen", "depth", "want"),
    [
        ("6k1/8/8/n7/8/2B5/4N3/6K1 w - - 0 30", 1, 3),  # BXN is developmentally poor
        ("4k3/8/8/8/8/8/8/2K5 w - - 0 3", 3, 1 + 4),  # K-N1 K-Q1 K-B1, before ply 16
        ("8/6k1/8/R7/8/8/8/6K1 w - - 0 31", 3, 2),  # R-KB5 K-N3 R-QB5: one move would do
        ("8/6k1/8/R7/8/8/8/6K1 w - - 0 3", 3, 1 + 2),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 12", 3, 0),  # K-K2 K-K2 K-K3: two moves needed
    ],
)
def test_value_modifications(session: Session, fen: str, depth: int, want: int) -> None:
    """SMVD types each root move that was a candidate for the best with its modified and raw
    values and its line: the difference is the modifications of spec 7 for that line,
    for every root move typed.  The node returns the raw value (BEST's)."""
    poor = {m for _, m, f, _ in plaus(session, fen) if "POOR" in f}
    lines = go(session, fen, "HASH OFF", f"SETD {depth}", "SETW 1", "SETSD 0", "SMVD 1")
    typed = {}
    for line in (x for x in lines if " VALUE " in x):
        value, raw = (int(line.split(f" {w} ")[1].split()[0]) for w in ("VALUE", "RAW"))
        pv = read_line(fen, line.split(" PV ")[1].split())
        assert raw - value == diddle(fen, pv, line.split()[0] in poor), line
        typed[pv[0]] = raw - value
    best = session.command("BEST").lines[0].split()
    chosen = chess.Move.from_uci(best[1].lower())
    assert typed[chosen] == want
    assert best[2:4] == ["VALUE", str(max(int(x.split(" RAW ")[1].split()[0])
                                          for x in lines if " VALUE " in x))]  # fmt: skip


# --- the bound on R (issue 12) --------------------------------------------------------------
def test_ratio_is_bounded_below_the_mates(session: Session) -> None:
    """A queen against the bare king (B = 1) after a queen trade from a root with queens
    on: R would be about 181,000; it is held to 5281 and S stays below the mates."""
    session.setup("3qk3/8/8/8/8/8/8/Q2QK3 w - - 0 1")
    session.command("D1D8")
    session.command("E8D8")
    words = session.command("SCORE").lines[0].split()
    terms = dict(zip(words[0::2], map(int, words[1::2]), strict=True))
    assert terms["R"] == 5281
    assert terms["S"] < MATE_RANGE


MATED_BOTH_WAYS = "7Q/p3k3/3p1p2/3Q1B2/1PP3P1/8/P4K2/8 b - - 0 54"  # 1967 game 1


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_mated_either_way_still_moves(session: Session, depth: int) -> None:
    """Two legal moves, each mated at once: GO must still make one of them."""
    board = chess.Board(MATED_BOTH_WAYS)
    after = set()
    for move in board.legal_moves:
        board.push(move)
        after.add(board.fen())
        board.pop()
    assert len(after) == 2
    lines = go(session, MATED_BOTH_WAYS, f"SETD {depth}")
    assert any(is_move_line(x) for x in lines), lines
    assert session.fen() in after


def test_wac_41_no_false_mate(session: Session) -> None:
    """WAC 41 at depth 5: no mate is there to announce."""
    line = next(x for x in WAC_EPD.read_text().splitlines() if '"WAC.041"' in x)
    board, _ = chess.Board.from_epd(line)
    lines = go(session, board.fen(), "SETD 5")
    assert not any("MATE" in x for x in lines), lines
    best = session.command("BEST").lines[0].split()
    assert abs(int(best[3])) < MATE_RANGE
    assert chess.Move.from_uci(best[1].lower()) in board.legal_moves
