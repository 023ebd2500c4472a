"""The Greenblatt search against an independent reading of its rules.

`search_reference.py` searches from the written description (machack-original 4, spec
3 and 7), taking each node's plausible move list, static value and prey verdict from a
second, idle copy of the program; here the program searches the same position with the
same small settings (hash table off, no secondary search) and everything it reports is
compared: the move, its value, every root move's SMVD line (value and raw value, or
REFUTED and the refuting line's value) and the counters NODES, EVALS, PMG, FEEDOVERS,
CAPTURE.
"""

from __future__ import annotations

import re

import chess
import pytest

from machack.session import Session

from .conftest import game_positions
from .search_reference import ProgramOracle, Search, names, sort_moves

# Positions of the search tests (test_greenblatt) and of the rules they exercise.
RULES = [
    "4r1k1/5ppp/p7/8/8/8/5PPP/R5K1 w - - 0 30",  # mated moves give their slot back
    "7k/8/5KPn/8/8/8/8/R7 w - - 0 30",
    "6k1/6pp/4p3/3p4/2P5/1B6/5PPP/3R2K1 w - - 0 30",  # capture search ties
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "6k1/8/1p6/3N4/8/8/8/6K1 w - - 0 30",  # a developmentally poor move
    "4k3/8/8/8/8/8/8/4K3 w - - 0 3",  # tempo modifications, the cut by modified value
    "8/6k1/8/R7/8/8/8/6K1 w - - 0 31",
    "7Q/p3k3/3p1p2/3Q1B2/1PP3P1/8/P4K2/8 b - - 0 54",  # mated either way (R bound)
    "7k/8/8/8/p7/8/6p1/R5K1 w - - 0 30",
    "4r1k1/8/8/8/3p4/4N3/8/4K3 w - - 0 30",  # feedover: pinned
    "r5k1/B1p5/1p6/8/8/8/8/6K1 w - - 0 30",  # feedover: trapped
    "8/8/Q7/1p1q2K1/8/1P4P1/P4k2/8 w - - 1 45",  # a repetition on the line
]
SMALL = [(1, 3, 2, 0), (2, 3, 2, 2)]  # SETD, SETW, SETF, SETC
DEEPER = [(3, 2, 2, 2), (2, 4, 1, 1)]


def counters(lines: list[str]) -> dict[str, object]:
    line = next(x for x in lines if x.startswith("TIME "))
    found = re.findall(r"([A-Z]+) (\d+)(?:/(\d+))?", line)
    values = {name: (int(a), int(b)) if b else int(a) for name, a, b in found}
    return {k: values[k] for k in ("NODES", "EVALS", "PMG", "FEEDOVERS", "CAPTURE")}


def the_move(session: Session, fen: str, text: str) -> str:
    """The move the program printed as ``text`` here, in coordinates: by the names the
    notation reference gives, else (a wing's designator, KN-N5) by making it."""
    board = chess.Board(fen)
    for move in board.legal_moves:
        if text in names(board, move):
            return move.uci()
    session.setup(fen)
    session.command("PN")
    assert session.send(text).accepted, text
    for move in board.legal_moves:
        board.push(move)
        if board.fen().split()[:4] == session.fen().split()[:4]:
            return move.uci()
        board.pop()
    raise AssertionError(f"{text}: no such move in {fen}")


def the_program(session: Session, fen: str, settings: tuple[int, ...]) -> dict:
    setd, setw, setf, setc = settings
    session.setup(fen)
    for line in ("PN", "BOOK OFF", "HASH OFF", f"SETD {setd}", f"SETW {setw}", f"SETF {setf}",
                 f"SETC {setc}", "SETSD 0", "SMVD 1"):  # fmt: skip
        session.command(line)
    lines = session.command("GO").after_ack
    session.command("U")
    best = session.command("BEST").lines[0].split()
    roots = []
    for x in (x for x in lines if " PLAUS " in x):
        move = the_move(session, fen, x.split()[0])
        if " REFUTED " in x:
            roots.append((move, "REFUTED", int(x.split(" REFUTED ")[1].split()[0])))
        else:
            value, raw = (int(x.split(f" {w} ")[1].split()[0]) for w in ("VALUE", "RAW"))
            roots.append((move, value, raw))
    return dict(move=best[1].lower(), value=int(best[3]), roots=roots, **counters(lines))


def the_reference(oracle: Session, fen: str, settings: tuple[int, ...]) -> dict:
    setd, setw, setf, setc = settings
    search = Search(ProgramOracle(oracle, fen), setd=setd, widths=(setw,), setf=setf, setc=setc)
    result, chosen = search.run(chess.Board(fen))
    roots = [
        (x.move.uci(), "REFUTED", x.value) if x.refuted else (x.move.uci(), x.value, x.raw)
        for x in search.root_lines
    ]
    st = search.st
    return dict(move=chosen.move.uci() if chosen else None, value=result.value, roots=roots,
                NODES=st.nodes, EVALS=st.evals, PMG=st.pmg, FEEDOVERS=(st.fed, st.stopped),
                CAPTURE=st.capture)  # fmt: skip


@pytest.fixture(scope="module")
def oracle() -> Session:
    """The program under RULES PAPER, the rules search_reference models."""
    session = Session()
    session.command("RULES PAPER")
    return session


def check(session: Session, oracle: Session, fens: list[str], every: list[tuple]) -> None:
    wrong = []
    for settings in every:
        for fen in fens:
            got, want = the_program(session, fen, settings), the_reference(oracle, fen, settings)
            if got != want:
                keys = [k for k in got if got[k] != want[k]]
                wrong.append(f"{fen} {settings}: " + "; ".join(
                    f"{k} program {got[k]} reference {want[k]}" for k in keys))  # fmt: skip
    assert not wrong, f"{len(wrong)} searches differ:\n" + "\n".join(wrong[:5])


def test_the_pmg_list_is_taken_in_the_radix_exchange_sorts_order(oracle: Session) -> None:
    """PLAUS types the PMG's list as the search takes it (the program's SORTM); the
    reference sorts the generator's order (MOVES) itself: the orders are the same, ties
    included, and in some positions they are not those of a stable sort."""
    unstable = 0
    for fen in RULES + game_positions(every=8):
        board = chess.Board(fen)
        program = ProgramOracle(oracle, fen)
        generated = program.plaus((), board).entries
        reference = [e.move.uci() for e in sort_moves(generated)]
        assert reference == program.plaus_order((), board), fen
        stable = sorted(generated, key=lambda e: -(e.plaus & 0o7777))
        unstable += reference != [e.move.uci() for e in stable]
    assert unstable


def test_the_search_follows_its_rules(session: Session, oracle: Session) -> None:
    check(session, oracle, RULES, SMALL)


@pytest.mark.slow
def test_the_search_follows_its_rules_deeper_and_in_the_1967_games(
    session: Session, oracle: Session
) -> None:
    check(session, oracle, RULES + game_positions(every=24), SMALL + DEEPER)
