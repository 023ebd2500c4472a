"""The plausible move generator, term by term, through TRACE and PLAUS.

For every term TRACE prints there is a position where it fires for a named move; the
test asserts every line of the trace (points and text), the plausibility and the flags.
The expected points are derived here from the rules of machack-original section 2 (square
importance 2.1, trapped 2.2, the per-move terms in order 2.3, attack terms 2.4, the
exchange estimate 2.5, unblocking 2.6, castling 2.7) and the piece values of 3.1, never
copied from what the program prints: the square sums come from `sqval`, a reading of 2.1
written for this test, over the squares python-chess says a piece attacks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import chess
import pytest

from machack.session import Session

# Piece values (machack-original 3.1); a pawn gains 8 a rank past its second in the PMG.
P, N, B, R, Q = 128, 416, 448, 640, 1248
# Square importance (2.1): BSQVAL, NCSQV, CSQV (+-4 by half), NKVLU, an own piece.
BSQVAL, NCSQV, CSQV, NKVLU, OWNSQ = 8, 8, 16, 16, 8
# The per-move constants (2.3-2.7), octal in the original in brackets.
IVLU = 512  # initial value (1000)
WPVLU = -256  # early move of an unattacked piece (-400)
FMKING = -32  # first king move (40, added to the start development)
KKCAS = -128  # king move while castling is possible (200)
MBACKP = 32  # a backward pawn moved (40)
PPP = {2: 32, 3: 48, 4: 64, 5: 96, 6: 128, 7: 192, 8: 256}  # passed pawns by rank
BCPVLU = -96  # blocking an unmoved centre pawn (140)
PTFVLU = 32  # lining up on the enemy king (40)
ACSPV = 40  # a pawn attacking a centre square (50)
MJVLU = 128  # as many attackers as defenders on a capture (200)
OPSQV = -8  # each square an enemy slider gains (10)
OPATV = -8  # an enemy slider reaching an own piece it cannot win (10)
BRKVLU = 40  # pawn break (50)
APVLU, APDPV = 64, 16  # attacking a pinned piece (100), a pinned pawn defended by a pawn (20)
TRADE = 16  # trade offer, well ahead / behind by 416 (20)
GMAVLU = 96  # shifting the balance on a defended piece (140)
TTVLU = 16  # another attacker on a defended piece (20)
CASTLE = 768  # castling (1400)
BDDMT = -48  # positional delta that makes a move developmentally poor (-60)

# TRACE's texts (pmg.mid, TNAMES), longest first for reading a line.
TEXTS = sorted(
    [
        "GIVES UP ITS PRESENT DEVELOPMENT", "SAVES ITSELF FROM CAPTURE",
        "EARLY MOVE OF THIS PIECE", "FIRST MOVE OF THE KING", "GIVES UP CASTLING", "CASTLES",
        "BLOCKS HIS PASSED PAWN", "MOVES A BACKWARD PAWN", "PUSHES A PASSED PAWN",
        "BRINGS THE KING BACK", "INITIAL VALUE", "BLOCKS A CENTRE PAWN",
        "LINES UP ON HIS KING", "WINS MATERIAL", "AS MANY ATTACKERS AS DEFENDERS",
        "LOSES MATERIAL", "EXCHANGE ESTIMATE", "GOES WHERE IT CAN BE TAKEN", "ATTACKS SQUARES",
        "HALF FOR A KING OR QUEEN", "ATTACKS THE CENTRE", "BLOCKS THE LINE OF",
        "BLOCKS THE LINE OF HIS", "UNBLOCKS", "OPENS A LINE FOR HIS",
        "TAKES THE DEVELOPMENT OF HIS", "TAKES UNDEFENDED", "PAWN BREAK AGAINST",
        "ATTACKS PINNED", "ATTACKS UNDEFENDED", "OFFERS A TRADE OF", "ATTACKS MORE VALUABLE",
        "SHIFTS THE BALANCE ON", "ADDS AN ATTACKER ON",
    ],
    key=len,
    reverse=True,
)  # fmt: skip


def split_text(text: str) -> tuple[str, str | None]:
    """A term's text and the piece it names (None if it names none)."""
    for known in TEXTS:
        if text == known or text.startswith(known + " "):
            return known, text[len(known) :].strip() or None
    raise AssertionError(f"not a TRACE term: {text!r}")


@dataclass
class Trace:
    """TRACE's printout: (points, text, piece) per term, the plausibility, the flags."""

    terms: list[tuple[int, str, str | None]]
    plausibility: int
    flags: list[str]


def trace(session: Session, fen: str, move: str) -> Trace:
    session.setup(fen)
    lines = session.command(f"TRACE {move}").lines
    *body, total, ack = lines
    assert ack == "_"
    words = total.split()
    assert words[1] == "PLAUSIBILITY", lines
    terms = [(int(line[:6]), *split_text(line[8:])) for line in body]
    return Trace(terms, int(words[0]), words[2:])


def plaus(session: Session, fen: str) -> list[tuple[int, str, list[str], bool]]:
    """PLAUS: (plausibility, move, flags, developmentally poor) most plausible first."""
    session.setup(fen)
    lines = session.command("PLAUS").lines
    assert lines[0].startswith("PLAUS ")
    out = []
    for line in lines[1:-1]:
        words = line[1:].split()
        out.append((int(words[0]), words[1], words[2:], line[0] == "-"))
    return out


# --- the rules, read independently -------------------------------------------------------
def sqval(board: chess.Board, square: chess.Square) -> int:
    """The importance of a square for the side to move (machack-original 2.1), the loss
    of an own piece en prise left out (add it where a case has one)."""
    me = board.turn
    file, rank = chess.square_file(square), chess.square_rank(square)
    value = BSQVAL
    if 2 <= file <= 5 and 2 <= rank <= 5:
        if 3 <= file <= 4 and 3 <= rank <= 4:  # K4 Q4 K5 Q5
            enemy_half = rank == (4 if me == chess.WHITE else 3)
            value += CSQV + (4 if enemy_half else -4)
        else:
            value += NCSQV
    enemy_king = board.king(not me)
    if enemy_king is not None and chess.square_distance(square, enemy_king) == 1:
        value += NKVLU
    piece = board.piece_at(square)
    if piece and piece.color == me and piece.piece_type not in (chess.KING, chess.QUEEN):
        value += OWNSQ
    return value


def development(board: chess.Board, origin: str, square: str | None = None) -> int:
    """The importance of the squares the piece on `origin` attacks from `square` (where
    it stands if None), lifted off its origin, which counts 0 (2.3 items 1 and 11)."""
    o = chess.parse_square(origin)
    at = o if square is None else chess.parse_square(square)
    moved = board.copy(stack=False)
    piece = moved.remove_piece_at(o)
    moved.set_piece_at(at, piece)
    return sum(0 if s == o else sqval(board, s) for s in moved.attacks(at))


def squares(board: chess.Board, *names: str) -> int:
    return sum(sqval(board, chess.parse_square(n)) for n in names)


def pawn(square: str, color: chess.Color) -> int:
    """A pawn's value in the PMG: 128 and 8 a rank past its second (3.1)."""
    rank = chess.square_rank(chess.parse_square(square)) + 1
    return P + 8 * ((rank if color == chess.WHITE else 9 - rank) - 2)


@dataclass
class Case:
    """A move and every term TRACE must print for it, derived from the rules."""

    name: str
    fen: str
    move: str
    terms: list[tuple[int, str]]
    flags: list[str] = field(default_factory=list)


def case(name: str, fen: str, move: str, terms: list[tuple[int, str]], *flags: str) -> Case:
    return Case(name, fen, move, terms, list(flags))


START = chess.STARTING_FEN
E4E5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"  # game ply 2
ROOKS = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 20"


def cases() -> list[Case]:
    out = []

    def b(fen: str) -> chess.Board:
        return chess.Board(fen)

    # 1 GIVES UP ITS PRESENT DEVELOPMENT, 3 pawn moves, 6 INITIAL VALUE, 8 unblocking,
    # 11 new development and the centre (2.3): 1.P-K4 from the initial position.  The
    # pawn on K2 is not backward: its neighbours stand level with it, not ahead.
    s = b(START)
    out.append(case("pawn opens two lines", START, "P-K4", [
        (-development(s, "e2"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (IVLU, "INITIAL VALUE"),
        (squares(s, "d3", "c4", "b5", "a6"), "UNBLOCKS KB"),
        (squares(s, "f3", "g4", "h5"), "UNBLOCKS Q"),
        (development(s, "e2", "e4"), "ATTACKS SQUARES"),
        (ACSPV, "ATTACKS THE CENTRE"),  # Q5 only: KB5 is not a centre square
    ]))  # fmt: skip
    # 1 EARLY MOVE: in the first move of each side an unattacked piece but a pawn starts
    # at -256 and gets no credit for its old development; the KR gains KB1.
    out.append(case("early knight", START, "N-KB3", [
        (WPVLU, "EARLY MOVE OF THIS PIECE"),
        (IVLU, "INITIAL VALUE"),
        (squares(s, "f1"), "UNBLOCKS KR"),
        (development(s, "g1", "f3"), "ATTACKS SQUARES"),
    ]))  # fmt: skip
    # In plies 2-7 only an unattacked rook, queen or king starts at -256 ...
    e = b(E4E5)
    queen = development(e, "d1", "e2")
    out.append(case("early queen at ply 2", E4E5, "Q-K2", [
        (WPVLU, "EARLY MOVE OF THIS PIECE"),
        (IVLU, "INITIAL VALUE"),
        (PTFVLU, "LINES UP ON HIS KING"),
        (queen, "ATTACKS SQUARES"),
        (-(queen // 2), "HALF FOR A KING OR QUEEN"),
    ]))  # fmt: skip
    # ... a knight gives up its development as usual; on K2 it blocks the KB's and the
    # Q's diagonals (5 line blocking: the squares beyond, mine lost).
    out.append(case("knight blocks own lines", E4E5, "N-K2", [
        (-development(e, "g1"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (-squares(e, "d3", "c4", "b5", "a6"), "BLOCKS THE LINE OF KB"),
        (-squares(e, "f3", "g4", "h5"), "BLOCKS THE LINE OF Q"),
        (IVLU, "INITIAL VALUE"),
        (squares(e, "f1"), "UNBLOCKS KR"),
        (development(e, "g1", "e2"), "ATTACKS SQUARES"),
    ]))  # fmt: skip
    # 7 a piece put in front of the unmoved Q-pawn (BCPVLU).
    out.append(case("bishop blocks the queen's pawn", E4E5, "B-Q3", [
        (-development(e, "f1"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (IVLU, "INITIAL VALUE"),
        (BCPVLU, "BLOCKS A CENTRE PAWN"),
        (development(e, "f1", "d3"), "ATTACKS SQUARES"),
    ]))  # fmt: skip
    # 1 the king's penalties: a first king move (FMKING) while castling is possible
    # (KKCAS); a king's new development counts half (11).
    k = b(ROOKS)
    kb1 = development(k, "e1", "f1")
    out.append(case("king gives up castling", ROOKS, "K-B1", [
        (-development(k, "e1"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (FMKING, "FIRST MOVE OF THE KING"),
        (KKCAS, "GIVES UP CASTLING"),
        (IVLU, "INITIAL VALUE"),
        (kb1, "ATTACKS SQUARES"),
        (-(kb1 // 2), "HALF FOR A KING OR QUEEN"),
    ]))  # fmt: skip
    bare = "4k3/8/8/8/8/8/8/4K3 w - - 0 30"
    ke2 = development(b(bare), "e1", "e2")
    out.append(case("first king move, no castling", bare, "K-K2", [
        (-development(b(bare), "e1"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (FMKING, "FIRST MOVE OF THE KING"),
        (IVLU, "INITIAL VALUE"),
        (ke2, "ATTACKS SQUARES"),
        (-(ke2 // 2), "HALF FOR A KING OR QUEEN"),
    ]))  # fmt: skip
    # 2.7 castling: the fixed 768 and nothing else.
    out.append(case("castling", ROOKS, "O-O", [(CASTLE, "CASTLES")]))
    # ... but a castling that checks (the rook on its new file) is a safe check, which
    # the paper investigates (spec 2): the surviving source never flagged it.
    out.append(case("castling with check", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 30", "O-O-O",
                    [(CASTLE, "CASTLES")], "INVESTIGATE", "CHECK"))  # fmt: skip
    # A promotion scores as the pawn's push; the new queen's check makes it a safe
    # check to investigate (along the rank: the pawn's own walk cannot see it).  Black's
    # check runs the other way along the rank (a step of -1).
    for name, fen, move, pawn_sq in [
        ("promotion with check", "k7/4P3/8/8/8/8/8/4K3 w - - 0 30", "P-K8=Q", "e7"),
        ("promotion with check, Black", "7k/8/8/8/8/8/1p6/4K3 b - - 0 30", "B2B1Q", "b2"),
    ]:
        out.append(case(name, fen, move, [
            (-development(b(fen), pawn_sq), "GIVES UP ITS PRESENT DEVELOPMENT"),
            (PPP[8], "PUSHES A PASSED PAWN"),
            (IVLU, "INITIAL VALUE"),
        ], "INVESTIGATE", "CHECK"))  # fmt: skip
    # 2 landing in front of an enemy passed pawn: PPP of its rank (QP on its 6th).
    fen = "6k1/8/8/8/4N3/3p4/8/6K1 w - - 0 30"
    out.append(case("blocks a passed pawn", fen, "N-Q2", [
        (-development(b(fen), "e4"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (PPP[6], "BLOCKS HIS PASSED PAWN"),
        (IVLU, "INITIAL VALUE"),
        (development(b(fen), "e4", "d2"), "ATTACKS SQUARES"),
    ]))  # fmt: skip
    # 3 a passed pawn pushed: PPP of the rank it reaches.
    fen = "6k1/8/8/4P3/8/8/8/6K1 w - - 0 30"
    out.append(case("passed pawn pushed", fen, "P-K6", [
        (-development(b(fen), "e5"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (PPP[6], "PUSHES A PASSED PAWN"),
        (IVLU, "INITIAL VALUE"),
        (development(b(fen), "e5", "e6"), "ATTACKS SQUARES"),
    ]))  # fmt: skip
    # 3 a backward pawn moved (MBACKP): the KP stands behind the QP, undefended; the
    # black KBP keeps it from being passed.
    fen = "6k1/5p2/8/8/3P4/8/4P3/6K1 w - - 0 30"
    out.append(case("backward pawn moved", fen, "P-K3", [
        (-development(b(fen), "e2"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (MBACKP, "MOVES A BACKWARD PAWN"),
        (IVLU, "INITIAL VALUE"),
        (development(b(fen), "e2", "e3"), "ATTACKS SQUARES"),
        (ACSPV, "ATTACKS THE CENTRE"),  # Q4
    ]))  # fmt: skip
    # 4 the king going back while the game is young (OPNMID, ply <= 40): 8 a rank, times
    # the king's rank (3) when the enemy queen is on; 8 times more while OPENF (ply <= 16).
    for name, fen, points in [
        ("king back, middlegame, queen on", "3qk3/8/8/8/8/4K3/8/8 w - - 0 10", 8 * 3),
        ("king back, opening, queen on", "3qk3/8/8/8/8/4K3/8/8 w - - 0 5", 8 * 8 * 3),
        ("king back, opening, no queen", "4k3/8/8/8/8/4K3/8/8 w - - 0 5", 8 * 8),
    ]:
        ke2 = development(b(fen), "e3", "e2")
        out.append(case(name, fen, "K-K2", [
            (-development(b(fen), "e3"), "GIVES UP ITS PRESENT DEVELOPMENT"),
            (points, "BRINGS THE KING BACK"),
            (IVLU, "INITIAL VALUE"),
            (ke2, "ATTACKS SQUARES"),
            (-(ke2 // 2), "HALF FOR A KING OR QUEEN"),
        ]))  # fmt: skip
    # 9 lining up on the enemy king: a rook on its rank, a bishop on its diagonal.
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 30"
    out.append(case("rook lines up", fen, "R-R8", [
        (-development(b(fen), "a1"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (IVLU, "INITIAL VALUE"),
        (PTFVLU, "LINES UP ON HIS KING"),
        (development(b(fen), "a1", "a8"), "ATTACKS SQUARES"),
    ], "INVESTIGATE", "CHECK"))  # fmt: skip
    fen = "4k3/8/8/8/8/3B4/8/4K3 w - - 0 30"
    out.append(case("bishop lines up", fen, "B-N5", [
        (-development(b(fen), "d3"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (IVLU, "INITIAL VALUE"),
        (PTFVLU, "LINES UP ON HIS KING"),
        (development(b(fen), "d3", "b5"), "ATTACKS SQUARES"),
    ], "INVESTIGATE", "CHECK"))  # fmt: skip
    # 10 captures (2.5).  PxN, the knight defended by a pawn, the rook behind as a second
    # attacker: victim - mover + the cheapest defender, at most the victim; then MJVLU
    # for as many attackers as defenders.  The old development counts TTVLU on the knight
    # (defended once, attacked twice); the new one a pawn break against the KP (2.4).
    fen = "6k1/8/4p3/3n4/4P3/8/8/3R2K1 w - - 0 30"
    s = b(fen)
    out.append(case("pawn takes knight, one defender", fen, "PXN", [
        (-(development(s, "e4") + TTVLU), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (IVLU, "INITIAL VALUE"),
        (development(s, "d5"), "TAKES THE DEVELOPMENT OF HIS QN"),
        (min(N, N - pawn("e4", chess.WHITE) + pawn("e6", chess.BLACK)), "WINS MATERIAL"),
        (MJVLU, "AS MANY ATTACKERS AS DEFENDERS"),
        (BRKVLU, "PAWN BREAK AGAINST KP"),
        (development(s, "e4", "d5"), "ATTACKS SQUARES"),
    ], "INVESTIGATE", "CAPTURE"))  # fmt: skip
    # Two defenders and two attackers: not outnumbered, so victim - mover.
    fen = "6k1/8/2p1p3/3n4/4P3/8/8/3R2K1 w - - 0 30"
    s = b(fen)
    out.append(case("pawn takes knight, two defenders", fen, "PXN", [
        (-(development(s, "e4") + TTVLU), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (IVLU, "INITIAL VALUE"),
        (development(s, "d5"), "TAKES THE DEVELOPMENT OF HIS QN"),
        (N - pawn("e4", chess.WHITE), "WINS MATERIAL"),
        (MJVLU, "AS MANY ATTACKERS AS DEFENDERS"),
        (BRKVLU, "PAWN BREAK AGAINST KP"),
        (BRKVLU, "PAWN BREAK AGAINST QBP"),
        (development(s, "e4", "d5"), "ATTACKS SQUARES"),
    ], "INVESTIGATE", "CAPTURE"))  # fmt: skip
    # Three attackers on two defenders: the whole victim.
    fen = "6k1/8/2p1p3/3n4/2P1P3/8/8/3R2K1 w - - 0 30"
    s = b(fen)
    out.append(case("pawn takes knight, outnumbered", fen, "E4D5", [
        (-(development(s, "e4") + TTVLU), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (IVLU, "INITIAL VALUE"),
        (development(s, "d5"), "TAKES THE DEVELOPMENT OF HIS QN"),
        (N, "WINS MATERIAL"),
        (MJVLU, "AS MANY ATTACKERS AS DEFENDERS"),
        (BRKVLU, "PAWN BREAK AGAINST KP"),
        (BRKVLU, "PAWN BREAK AGAINST QBP"),
        (development(s, "e4", "d5"), "ATTACKS SQUARES"),
    ], "INVESTIGATE", "CAPTURE"))  # fmt: skip
    # Pawn takes pawn: the trade is classed by the exchange logic's values, the pawns'
    # rank increments included (3.1).  Level pawns: an even trade, only MJVLU.  Each
    # capturer stands attacked and undefended: half its value saved (2.1).  The victim's
    # development counts the capturer's square as 0 (the mover's square, 2.3 item 11).
    fen = "6k1/8/4p3/3p4/4P3/8/8/6K1 w - - 0 30"
    s = b(fen)
    out.append(case("pawn takes pawn, even", fen, "PXP", [
        (-(development(s, "e4") + BRKVLU + TTVLU), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (pawn("e4", chess.WHITE) // 2, "SAVES ITSELF FROM CAPTURE"),
        (IVLU, "INITIAL VALUE"),
        (squares(s, "c4"), "TAKES THE DEVELOPMENT OF HIS QP"),
        (MJVLU, "AS MANY ATTACKERS AS DEFENDERS"),
        (BRKVLU, "PAWN BREAK AGAINST KP"),
        (development(s, "e4", "d5"), "ATTACKS SQUARES"),
    ], "INVESTIGATE", "CAPTURE"))  # fmt: skip
    # A victim three ranks further on: the increments are won.
    fen = "6k1/8/8/8/2p5/3p4/4P3/6K1 w - - 0 30"
    s = b(fen)
    out.append(case("pawn takes advanced pawn", fen, "PXP", [
        (-(development(s, "e2") + BRKVLU + TTVLU), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (pawn("e2", chess.WHITE) // 2, "SAVES ITSELF FROM CAPTURE"),
        (IVLU, "INITIAL VALUE"),
        (squares(s, "c2"), "TAKES THE DEVELOPMENT OF HIS QP"),
        (pawn("d3", chess.BLACK) - pawn("e2", chess.WHITE), "WINS MATERIAL"),
        (MJVLU, "AS MANY ATTACKERS AS DEFENDERS"),
        (BRKVLU, "PAWN BREAK AGAINST QBP"),
        (development(s, "e2", "d3"), "ATTACKS SQUARES"),
        (ACSPV, "ATTACKS THE CENTRE"),  # K4
    ], "INVESTIGATE", "CAPTURE"))  # fmt: skip
    # A victim two ranks further back, defended, nothing to take back with: a losing
    # trade by the increments, unsafe.
    fen = "6k1/2p5/3p4/4P3/8/8/8/6K1 w - - 0 30"
    s = b(fen)
    out.append(case("pawn takes backward pawn", fen, "PXP", [
        (-(development(s, "e5") + BRKVLU + TTVLU), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (pawn("e5", chess.WHITE) // 2, "SAVES ITSELF FROM CAPTURE"),
        (IVLU, "INITIAL VALUE"),
        (squares(s, "c5"), "TAKES THE DEVELOPMENT OF HIS QP"),
        (pawn("d6", chess.BLACK) - pawn("e5", chess.WHITE), "LOSES MATERIAL"),
    ], "INVESTIGATE", "CAPTURE", "UNSAFE"))  # fmt: skip
    # An undefended victim: its whole value.
    fen = "6k1/8/8/3n4/8/8/8/3R2K1 w - - 0 30"
    s = b(fen)
    out.append(case("takes undefended", fen, "RXN", [
        (-development(s, "d1"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (IVLU, "INITIAL VALUE"),
        (development(s, "d5"), "TAKES THE DEVELOPMENT OF HIS QN"),
        (N, "TAKES UNDEFENDED QN"),
        (development(s, "d1", "d5"), "ATTACKS SQUARES"),
    ], "INVESTIGATE", "CAPTURE"))  # fmt: skip
    # En passant: the pawn behind the ghost is the victim.
    fen = "6k1/8/8/3pP3/8/8/8/6K1 w - d6 0 30"
    s = b(fen)
    out.append(case("en passant", fen, "PXP", [
        (-development(s, "e5"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (PPP[6], "PUSHES A PASSED PAWN"),
        (IVLU, "INITIAL VALUE"),
        (development(s, "d5"), "TAKES THE DEVELOPMENT OF HIS QP"),
        (pawn("d5", chess.BLACK), "TAKES UNDEFENDED QP"),
        (development(s, "e5", "d6"), "ATTACKS SQUARES"),
    ], "INVESTIGATE", "CAPTURE"))  # fmt: skip
    # A losing capture with nothing to take back: the difference lost, unsafe, no
    # development; 13 the plausibility clamped at 0.  14 a capture at the first plies is
    # investigated all the same (the paper's "all captures", spec 2; the surviving
    # program took only the safe ones).
    fen = "6k1/8/4p3/3p4/8/8/8/3R2K1 w - - 0 30"
    s = b(fen)
    out.append(case("loses material, clamped at 0", fen, "RXP", [
        (-(development(s, "d1") + TTVLU), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (IVLU, "INITIAL VALUE"),
        (development(s, "d5"), "TAKES THE DEVELOPMENT OF HIS QP"),
        (pawn("d5", chess.BLACK) - R, "LOSES MATERIAL"),
    ], "INVESTIGATE", "CAPTURE", "UNSAFE"))  # fmt: skip
    # The two-step estimate: his cheapest (the queen) + victim - mover - my next
    # cheapest (the QBP), or escape with the loss, the better; safe above -32.
    fen = "6k1/8/4q3/3n4/2P5/8/8/3R2K1 w - - 0 30"
    s = b(fen)
    out.append(case("exchange estimate, safe", fen, "RXN", [
        (-(development(s, "d1") + TTVLU), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (IVLU, "INITIAL VALUE"),
        (development(s, "d5"), "TAKES THE DEVELOPMENT OF HIS QN"),
        (max(Q + N - R - pawn("c4", chess.WHITE), N - R), "EXCHANGE ESTIMATE"),
        (development(s, "d1", "d5"), "ATTACKS SQUARES"),
    ], "INVESTIGATE", "CAPTURE"))  # fmt: skip
    # The second rook stands behind the first: counted as an attacker (an x-ray) but not
    # known as a piece, so "my next cheapest" is 0 (as the original's direction records,
    # which keep the first piece on a line only); -88 is worse than -32: unsafe.
    fen = "6k1/8/4p3/3n4/8/8/3R4/3R2K1 w - - 0 30"
    s = b(fen)
    out.append(case("exchange estimate, unsafe", fen, "RXN", [
        (-(development(s, "d2") + TTVLU), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (IVLU, "INITIAL VALUE"),
        (development(s, "d5"), "TAKES THE DEVELOPMENT OF HIS QN"),
        (max(pawn("e6", chess.BLACK) + N - R - 0, N - R), "EXCHANGE ESTIMATE"),
    ], "INVESTIGATE", "CAPTURE", "UNSAFE"))  # fmt: skip
    # Quiet moves into attacked squares: an undefended square loses the piece; a square
    # defended but attacked by a pawn loses the difference.  The knight on KB5 also
    # blocks the KR's file (5).
    fen = "6k1/8/8/1n6/8/8/4N3/R5K1 w - - 0 30"
    out.append(case("undefended square", fen, "N-B3", [
        (-development(b(fen), "e2"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (IVLU, "INITIAL VALUE"),
        (-N, "GOES WHERE IT CAN BE TAKEN"),
    ], "UNSAFE"))  # fmt: skip
    fen = "6k1/8/4p3/8/3N4/8/8/5RK1 w - - 0 30"
    out.append(case("attacked by a pawn", fen, "N-B5", [
        (-development(b(fen), "d4"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (-squares(b(fen), "f6", "f7", "f8"), "BLOCKS THE LINE OF KR"),
        (IVLU, "INITIAL VALUE"),
        (-(N - pawn("e6", chess.BLACK)), "GOES WHERE IT CAN BE TAKEN"),
    ], "UNSAFE"))  # fmt: skip
    # 2.2 trapped: a bishop caught on QR7 (QN8 is covered, QN6 defended) loses its whole
    # value under it, not half; on QN8 it blocks his QR's rank (+), opens his QR's file
    # (-8 a square) and stands undefended.
    fen = "r5k1/B1p5/1p6/8/8/8/8/6K1 w - - 0 30"
    s = b(fen)
    out.append(case("trapped piece saves itself", fen, "B-N8", [
        (-(development(s, "a7") + TTVLU), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (B, "SAVES ITSELF FROM CAPTURE"),
        (squares(s, "c8", "d8", "e8", "f8", "g8"), "BLOCKS THE LINE OF HIS QR"),
        (IVLU, "INITIAL VALUE"),
        (6 * OPSQV, "OPENS A LINE FOR HIS QR"),
        (-B, "GOES WHERE IT CAN BE TAKEN"),
    ], "UNSAFE"))  # fmt: skip
    # Not trapped (it may take the bishop that attacks it): half the loss; the bishop
    # now reaches the king's square, which it gave up (-8), and attacks it undefended.
    fen = "6k1/8/8/1b6/8/8/4N3/6K1 w - - 0 30"
    s = b(fen)
    out.append(case("attacks undefended", fen, "N-B3", [
        (-development(s, "e2"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (N // 2, "SAVES ITSELF FROM CAPTURE"),
        (IVLU, "INITIAL VALUE"),
        (OPSQV, "OPENS A LINE FOR HIS QB"),
        (B // 4, "ATTACKS UNDEFENDED QB"),
        (development(s, "e2", "c3"), "ATTACKS SQUARES"),
    ]))  # fmt: skip
    # 2.6 an enemy slider let through to an own piece: its value when it is now
    # outnumbered there; the difference when the slider is cheaper and it is defended.
    fen = "r6k/8/8/8/N7/8/B7/7K w - - 0 30"
    s = b(fen)
    out.append(case("opens a line to an undefended piece", fen, "N-B5", [
        (-development(s, "a4"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (N // 2, "SAVES ITSELF FROM CAPTURE"),
        (IVLU, "INITIAL VALUE"),
        (OPSQV - B, "OPENS A LINE FOR HIS QR"),  # QR3, then the bishop
        (development(s, "a4", "c5"), "ATTACKS SQUARES"),
    ]))  # fmt: skip
    fen = "6k1/8/8/8/b7/8/2N5/3R1RK1 w - - 0 30"
    s = b(fen)
    out.append(case("opens a line to a defended rook", fen, "N-N4", [
        (-development(s, "c2"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (N // 2, "SAVES ITSELF FROM CAPTURE"),
        (IVLU, "INITIAL VALUE"),
        (-(R - B), "OPENS A LINE FOR HIS QB"),
        (development(s, "c2", "b4"), "ATTACKS SQUARES"),
    ]))  # fmt: skip
    # 2.6 my slider let through: the squares it gains, and the enemy king it reaches
    # makes the move a (discovered) check.
    fen = "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 30"
    s = b(fen)
    out.append(case("discovered check", fen, "N-Q2", [
        (-development(s, "e4"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (IVLU, "INITIAL VALUE"),
        (squares(s, "e5", "e6", "e7", "e8"), "UNBLOCKS KR"),
        (development(s, "e4", "d2"), "ATTACKS SQUARES"),
    ], "INVESTIGATE", "CHECK"))  # fmt: skip
    # A pawn moving up a rook's file lets it on as far as the pawn's new square.
    fen = "6k1/8/8/8/8/8/4P3/4R1K1 w - - 0 30"
    s = b(fen)
    out.append(case("pawn unblocks its rook", fen, "P-K4", [
        (-development(s, "e2"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (PPP[4], "PUSHES A PASSED PAWN"),
        (IVLU, "INITIAL VALUE"),
        (squares(s, "e3", "e4"), "UNBLOCKS KR"),
        (development(s, "e2", "e4"), "ATTACKS SQUARES"),
        (ACSPV, "ATTACKS THE CENTRE"),  # Q5
    ]))  # fmt: skip
    # 2.4 attack terms of the new position.  A defended rook worth more than the knight:
    # half the difference, at most 256 (a defended queen).
    for name, fen, target, points, label in [
        ("attacks a more valuable rook", "6k1/8/p7/1r6/8/8/4N3/6K1 w - - 0 30", R,
         (R - N) // 2, "QR"),
        ("attacks a more valuable queen", "6k1/8/p7/1q6/8/8/4N3/6K1 w - - 0 30", Q, 256, "Q"),
    ]:  # fmt: skip
        s = b(fen)
        terms = [(-development(s, "e2"), "GIVES UP ITS PRESENT DEVELOPMENT")]
        if target == Q:  # the queen attacks the knight, undefended, and reaches KB1
            terms += [(N // 2, "SAVES ITSELF FROM CAPTURE")]
        terms += [(IVLU, "INITIAL VALUE")]
        if target == Q:
            terms += [(OPSQV, "OPENS A LINE FOR HIS Q")]
        terms += [(points, f"ATTACKS MORE VALUABLE {label}"),
                  (development(s, "e2", "c3"), "ATTACKS SQUARES")]  # fmt: skip
        assert min((target - N) // 2, 256) == points
        out.append(case(name, fen, "N-B3", terms))
    # A pinned knight (the rook pins it to the king) and a pinned pawn defended by a pawn.
    for name, fen, points, label in [
        ("attacks pinned knight", "5k2/4p1p1/5n2/8/8/6N1/8/5RK1 w - - 0 30", APVLU, "KN"),
        ("attacks pinned pawn", "5k2/4p1p1/5p2/8/8/6N1/8/5RK1 w - - 0 30", APDPV, "KBP"),
    ]:
        s = b(fen)
        out.append(case(name, fen, "N-R5", [
            (-development(s, "g3"), "GIVES UP ITS PRESENT DEVELOPMENT"),
            (IVLU, "INITIAL VALUE"),
            (points, f"ATTACKS PINNED {label}"),
            (development(s, "g3", "h5"), "ATTACKS SQUARES"),
        ]))  # fmt: skip
    # The trade offer: an undefended piece of the same type, +16 a rook ahead, -16 a
    # rook behind (the comparisons of c197:4706-4724 corrected, machack-original 12.2e).
    for name, fen, points in [
        ("trade offer when ahead", "6k1/8/8/1n6/8/8/1P2N3/R5K1 w - - 0 30", TRADE),
        ("trade offer when behind", "r5k1/8/8/1n6/8/8/1P2N3/6K1 w - - 0 30", -TRADE),
    ]:
        s = b(fen)
        out.append(case(name, fen, "N-B3", [
            (-development(s, "e2"), "GIVES UP ITS PRESENT DEVELOPMENT"),
            (IVLU, "INITIAL VALUE"),
            (points, "OFFERS A TRADE OF QN"),
            (development(s, "e2", "c3"), "ATTACKS SQUARES"),
        ]))  # fmt: skip
    # A defended knight already attacked once: shifting the balance, and another
    # attacker on a piece defended no more often than attacked.
    fen = "6k1/8/p7/1n6/8/8/3PN3/1R4K1 w - - 0 30"
    s = b(fen)
    out.append(case("shifts the balance", fen, "N-B3", [
        (-development(s, "e2"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (IVLU, "INITIAL VALUE"),
        (GMAVLU, "SHIFTS THE BALANCE ON QN"),
        (TTVLU, "ADDS AN ATTACKER ON QN"),
        (development(s, "e2", "c3"), "ATTACKS SQUARES"),
    ]))  # fmt: skip
    # A pawn defended by a pawn does not shift the balance; the attacker is still added.
    fen = "6k1/8/8/3p4/2p5/8/8/1NR3K1 w - - 0 30"
    s = b(fen)
    out.append(case("adds an attacker", fen, "N-R3", [
        (-development(s, "b1"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (IVLU, "INITIAL VALUE"),
        (squares(s, "a1"), "UNBLOCKS QR"),
        (TTVLU, "ADDS AN ATTACKER ON QBP"),
        (development(s, "b1", "a3"), "ATTACKS SQUARES"),
    ]))  # fmt: skip
    # A pawn break on a quiet move (the KP defended by the KBP, so it is safe; level
    # with it, the KP is not backward).
    fen = "6k1/8/8/3p4/8/4PP2/8/6K1 w - - 0 30"
    s = b(fen)
    out.append(case("pawn break", fen, "P-K4", [
        (-development(s, "e3"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (IVLU, "INITIAL VALUE"),
        (BRKVLU, "PAWN BREAK AGAINST QP"),
        (development(s, "e3", "e4"), "ATTACKS SQUARES"),
        (ACSPV, "ATTACKS THE CENTRE"),
    ]))  # fmt: skip
    # Two forcing attacks (two defended rooks, each worth more): the surviving program
    # investigated such a move too; the paper's width extensions (spec 2) do not.
    fen = "6k1/8/8/1r3r2/8/8/2N5/6K1 w - - 0 30"
    s = b(fen)
    out.append(case("fork", fen, "N-Q4", [
        (-development(s, "c2"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (IVLU, "INITIAL VALUE"),
        ((R - N) // 2, "ATTACKS MORE VALUABLE KR"),
        ((R - N) // 2, "ATTACKS MORE VALUABLE QR"),
        (development(s, "c2", "d4"), "ATTACKS SQUARES"),
    ]))  # fmt: skip
    # An unsafe check is not investigated.
    fen = "6k1/5p2/8/7p/8/8/8/3Q2K1 w - - 0 30"
    out.append(case("unsafe check", fen, "Q-N4", [
        (-development(b(fen), "d1"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (IVLU, "INITIAL VALUE"),
        (PTFVLU, "LINES UP ON HIS KING"),
        (-Q, "GOES WHERE IT CAN BE TAKEN"),
    ], "CHECK", "UNSAFE"))  # fmt: skip
    # 12 developmentally poor: the squares attacked from QN6 are 48 less than from Q5.
    fen = "6k1/8/8/3N4/8/8/8/6K1 w - - 0 30"
    s = b(fen)
    assert development(s, "d5", "b6") - development(s, "d5") == BDDMT
    out.append(case("developmentally poor", fen, "N-N6", [
        (-development(s, "d5"), "GIVES UP ITS PRESENT DEVELOPMENT"),
        (IVLU, "INITIAL VALUE"),
        (development(s, "d5", "b6"), "ATTACKS SQUARES"),
    ], "POOR"))  # fmt: skip
    return out


CASES = cases()


@pytest.mark.parametrize("c", CASES, ids=[c.name for c in CASES])
def test_term(session: Session, c: Case) -> None:
    """Every line of the trace, the plausibility (their sum, clamped) and the flags."""
    got = trace(session, c.fen, c.move)
    want = [(points, *split_text(text)) for points, text in c.terms]
    assert [(p, t) for p, t, _ in got.terms] == [(p, t) for p, t, _ in want]
    for (_, _, piece), (_, _, want_piece) in zip(got.terms, want, strict=True):
        assert piece in (want_piece, None)  # a printed name is right
    assert got.plausibility == max(0, min(4095, sum(p for p, _ in c.terms)))
    assert got.flags == c.flags


@pytest.mark.parametrize(
    "fen",
    [
        "1n5k/P7/8/8/8/8/8/K7 w - - 0 40",  # promotions, by capture too, and under
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    ],
)
def test_every_trace_adds_up(session: Session, fen: str) -> None:
    """For every legal move the terms TRACE prints add up to its plausibility (clamped
    to 0-4095); an underpromotion prints none and scores 0."""
    for plausibility, move, flags, _ in plaus(session, fen):
        got = trace(session, fen, move)
        assert got.plausibility == plausibility, move
        assert max(0, min(4095, sum(p for p, _, _ in got.terms))) == plausibility, move
        if "=" in move and not move.endswith("=Q"):
            assert got.terms == [] and "POOR" in flags, move


def test_every_term_has_a_case() -> None:
    """Each text TRACE prints is asserted by some case above."""
    assert {split_text(text)[0] for c in CASES for _, text in c.terms} == set(TEXTS)


def test_square_importance_by_hand(session: Session) -> None:
    """2.1 with Black to move, counted by hand: 1...N-KB3 attacks K5 (the centre on the
    enemy's half: 8 + 16 + 4), Q4 (on its own half: 8 + 16 - 4), N5 and R4 (8), its KRP,
    QP (own pieces: 8 + 8) and its king's square (8, no more for a king); KN1 is its
    own square (0).  It is the first move of its side: -256, no old development."""
    fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    got = trace(session, fen, "N-KB3")
    assert got.terms == [
        (WPVLU, "EARLY MOVE OF THIS PIECE", None),
        (IVLU, "INITIAL VALUE", None),
        (16, "UNBLOCKS", "KR"),  # KB1: the bishop's square, 8 + 8
        ((128 + 16) // 4, "ATTACKS UNDEFENDED", "KP"),  # White's KP on its 4th rank
        (28 + 20 + 8 + 8 + 16 + 16 + 8, "ATTACKS SQUARES", None),
    ]
    assert development(chess.Board(fen), "g8", "f6") == 104  # the helper agrees


@pytest.mark.parametrize(
    ("fen", "losses"),
    [
        (START, {}),
        ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", {}),  # Black's view
        (ROOKS, {"a1": R // 2, "h1": R // 2}),  # attacked by his rooks, undefended
        ("6k1/8/8/1b6/8/8/4N3/6K1 w - - 0 30", {"e2": N // 2}),
        ("r5k1/B1p5/1p6/8/8/8/8/6K1 w - - 0 30", {"a7": B}),  # trapped: the whole loss
    ],
)
def test_square_importance_in_core(session: Session, fen: str, losses: dict[str, int]) -> None:
    """SQVAL (what SDS 2 draws) after PLAUS, every square: 2.1's reading plus the
    expected loss under each own piece en prise."""
    session.setup(fen)
    session.command("PLAUS")
    board = chess.Board(fen)
    for square in chess.SQUARES:
        address = 10 * (chess.square_rank(square) + 2) + 8 - chess.square_file(square)
        want = sqval(board, square) + losses.get(chess.square_name(square), 0)
        assert session.peek("SQVAL", address) == want, chess.square_name(square)


def test_square_of_a_piece_en_prise(session: Session) -> None:
    """2.1: under an own piece en prise its expected loss, halved unless it is trapped.
    The QR is attacked by his QR and undefended (loss 640, not trapped: 320), and so is
    the KR; K-Q2 lets each rook through to the other's square."""
    got = trace(session, ROOKS, "K-Q2")
    board = chess.Board(ROOKS)
    rook_square = BSQVAL + OWNSQ + R // 2
    assert (squares(board, "d1", "c1", "b1") + rook_square, "UNBLOCKS", "KR") in got.terms
    assert (squares(board, "f1", "g1") + rook_square, "UNBLOCKS", "QR") in got.terms


def test_trace_names_the_piece(session: Session) -> None:
    """Terms about a piece name it by its identity (KR, QN, KBP ...)."""
    assert (48, "UNBLOCKS", "KB") in trace(session, START, "P-K4").terms
    got = trace(session, "r5k1/B1p5/1p6/8/8/8/8/6K1 w - - 0 30", "B-N8").terms
    assert (56, "BLOCKS THE LINE OF HIS", "QR") in got
    got = trace(session, "6k1/8/8/3n4/8/8/8/3R2K1 w - - 0 30", "RXN").terms
    assert (N, "TAKES UNDEFENDED", "QN") in got


NAMED = {
    "BLOCKS THE LINE OF", "BLOCKS THE LINE OF HIS", "UNBLOCKS", "OPENS A LINE FOR HIS",
    "TAKES THE DEVELOPMENT OF HIS", "TAKES UNDEFENDED", "PAWN BREAK AGAINST", "ATTACKS PINNED",
    "ATTACKS UNDEFENDED", "OFFERS A TRADE OF", "ATTACKS MORE VALUABLE",
    "SHIFTS THE BALANCE ON", "ADDS AN ATTACKER ON",
}  # fmt: skip


@pytest.mark.parametrize(
    ("fen", "move"),
    [
        ("6k1/8/p7/1n6/8/8/3PN3/1R4K1 w - - 0 30", "N-B3"),  # SHIFTS, then ADDS AN ATTACKER
        ("4k3/8/2n5/1B6/8/8/8/4K3 w - - 0 30", "B-R4"),  # ATTACKS PINNED, then UNDEFENDED
        ("6k1/8/4p3/3n4/4P3/8/8/6K1 w - - 0 30", "PXN"),  # PAWN BREAK, then TRADE
    ],
)
def test_trace_names_every_piece(session: Session, fen: str, move: str) -> None:
    got = trace(session, fen, move)
    assert all(piece for _, text, piece in got.terms if text in NAMED), got.terms


@pytest.mark.parametrize(
    ("fen", "loss"),
    [
        ("7k/8/8/8/6n1/8/5P2/K3n3 w - - 0 30", P // 2),  # KB4 free: a way out, halved
        ("7k/8/8/6p1/6n1/8/5P2/K3n3 w - - 0 30", P),  # KB4 taken by his KNP: trapped
    ],
)
def test_a_pawns_double_step_is_a_way_out(session: Session, fen: str, loss: int) -> None:
    """2.2: a piece is trapped when none of its moves reaches a safe square; a trapped
    piece's expected loss is not halved (2.1).  The KBP is attacked by a knight and
    undefended (S = 128); his other knight takes KB3 from it, so only the double step
    to KB4 can save it."""
    got = trace(session, fen, "P-B4")
    assert (loss, "SAVES ITSELF FROM CAPTURE") in [(points, text) for points, text, _ in got.terms]


def test_push_of_a_pawn_not_passed(session: Session) -> None:
    """The KP on K4 is not passed (his QP on Q5 stands ahead of it on the next file);
    "passed pawn pushed" (c197:4066-4077) rewards pushing a pawn that is passed."""
    got = trace(session, "6k1/8/8/3p4/4P3/8/8/6K1 w - - 0 30", "P-K5")
    assert not any(text == "PUSHES A PASSED PAWN" for _, text, _ in got.terms)


def test_plaus_lists_every_move_most_plausible_first(session: Session) -> None:
    """PLAUS: every legal move once, sorted by plausibility, each as TRACE scores it;
    the header counts the moves and the pieces with a safe move (8 pawns, 2 knights)."""
    session.command("NEW")
    assert session.command("PLAUS").lines[0] == "PLAUS 20 MOVES 10 PIECES WITH SAFE MOVES"
    listed = plaus(session, START)
    assert len({move for _, move, _, _ in listed}) == 20
    values = [value for value, _, _, _ in listed]
    assert values == sorted(values, reverse=True)
    for value, move, _, _ in listed[:4] + listed[-2:]:
        assert trace(session, START, move).plausibility == value


def test_plaus_marks_poor_moves(session: Session) -> None:
    """A developmentally poor move carries a '-' (as the original's display had it)."""
    listed = plaus(session, "6k1/8/8/3N4/8/8/8/6K1 w - - 0 30")
    poor = {move for _, move, flags, mark in listed if mark}
    assert poor == {move for _, move, flags, _ in listed if "POOR" in flags}
    assert poor == {"N-N6", "N-B7"}  # QN6 and QB7 attack 48 less than Q5


def test_underpromotion_is_never_plausible(session: Session) -> None:
    listed = plaus(session, "6k1/1P6/8/8/8/8/8/6K1 w - - 0 30")
    assert listed[0][1] == "P-N8=Q"
    under = [(v, m, f) for v, m, f, _ in listed if "=" in m and not m.endswith("=Q")]
    assert under == [(0, f"P-N8={x}", ["POOR"]) for x in "RBN"]


def test_captures_investigated_up_to_setc(session: Session) -> None:
    """14: a capture is investigated at the plies up to SETC (the root is ply 1)."""
    fen = "6k1/8/8/3n4/8/8/8/3R2K1 w - - 0 30"
    try:
        session.command("SETC 0")
        assert plaus(session, fen)[0][1:3] == ("RXN", ["CAPTURE"])
        session.command("SETC 1")
        assert plaus(session, fen)[0][1:3] == ("RXN", ["INVESTIGATE", "CAPTURE"])
    finally:
        session.command("SETC 2")


def test_xray_behind_own_pawn_tests_the_rays_direction(session: Session) -> None:
    """1.3: a bishop or queen behind its own pawn counts on the square beyond the pawn in
    the pawn's capture direction.  RHWB and RHBB decide it by the ray's step W: the
    test must look at W and skip within the routine."""
    image = session.image
    for routine, opcode in (("RHWB", 0o327), ("RHBB", 0o321)):  # JUMPG, JUMPL
        start = image.symbol(routine)
        tests = [a for a in range(start, start + 24) if image.words.get(a, 0) >> 27 == opcode]
        assert tests, routine
        for address in tests:
            word = image.words[address]
            assert ((word >> 23) & 0o17, word & 0o777777) == (image.symbol("W"), address + 2)
