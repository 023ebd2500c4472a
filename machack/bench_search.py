"""``machack bench``'s figures for the Greenblatt search (issue 12's targets).

* the plausible move generator: the PDP-6 time of every call during searches at the
  defaults from the 1967 games' middlegame positions, taken by the host with two
  breakpoints (at PMG and at the address it returns to), so the program is not changed
  by being measured; the 1967 paper's figure is about 50 ms a call;
* ``machack replay --think`` over the four 1967 games at the defaults and at the
  tournament widths: agreement with Mac Hack's moves, the PDP-6 time a move (median and
  maximum) and the wall time a move on this engine; and game 4 alone at tournament
  widths, whose printed times (median about 30 s) the program of 1967 took.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable

import chess

from .replay import GAMES_1967, read_games
from .session import Session
from .think import TOURNAMENT, machack_side, summary, think_game

AC_P = 0o17
MIDDLEGAME_PLIES = range(16, 80)  # the game plies counted as middlegame for the PMG figure
SLICE = 5_000_000  # instructions a run between looks at the breakpoints


def pmg_call_times(session: Session, fen: str) -> list[tuple[float, int]]:
    """PDP-6 microseconds and instructions of every PMG call while the program searches
    ``fen``."""
    m, pmg = session.machine, session.image.symbol("PMG")
    session.setup(fen)
    session.command("PN")
    session.command("BOOK OFF")  # (a position still in the book would not be searched)
    session.type("GO\r")
    times: list[tuple[float, int]] = []
    m.breakpoints.add(pmg)
    try:
        while True:
            m.run(max_instructions=SLICE)
            if m.pc == pmg:
                back = m.memory[m.memory[AC_P] & 0o777777] & 0o777777
                start, ran = m.elapsed_us, m.instructions
                m.breakpoints.discard(pmg)
                m.breakpoints.add(back)
                while m.pc != back:
                    m.run(max_instructions=SLICE)
                m.breakpoints.discard(back)
                m.breakpoints.add(pmg)
                times.append((m.elapsed_us - start, m.instructions - ran))
            elif m.pc == session.idle_pc and session.at_prompt():  # (not between two keys)
                break
    finally:
        m.breakpoints.discard(pmg)
    session.run_until_idle()  # the move and the statistics it printed
    session.command("U")
    return times


def middlegame_positions(every: int) -> list[tuple[str, str]]:
    """Every EVERY-th middlegame position of the 1967 games with Mac Hack to move."""
    found = []
    for game in read_games(GAMES_1967 / "descriptive.txt"):
        board, side = chess.Board(game.start_fen), machack_side(game)
        for ply, move in enumerate(game.moves):
            if board.turn == side and ply in MIDDLEGAME_PLIES:
                found.append((f"{game.name[:5]} ply {ply}", board.fen()))
            board.push(move)
    return found[::every]


def pmg_lines(every: int = 6) -> list[str]:
    """The PMG's time a call, median over the calls of the searches, and its
    instructions: the paper's 50 ms were at its 200,000 operations a second."""
    session = Session()
    calls: list[tuple[float, int]] = []
    for _, fen in middlegame_positions(every):
        calls += pmg_call_times(session, fen)
    times = sorted(us for us, _ in calls)
    p90 = times[int(0.9 * (len(times) - 1))]
    instructions = statistics.median(n for _, n in calls)
    return [
        f"plausible move generator, searches at the defaults from {len(times)} calls: "
        f"median {statistics.median(times) / 1000:.1f} ms a call, mean "
        f"{statistics.mean(times) / 1000:.1f}, 90% under {p90 / 1000:.1f} (1967: about 50 ms)",
        f"  median {instructions:,.0f} instructions a call (1967: about 10,000, the paper's "
        f"50 ms at its 200,000 operations a second)",
    ]


def think_lines(echo: Callable[[str], None]) -> None:
    """replay --think over the 1967 games at the defaults and at tournament widths, with
    game 4's own figures at tournament widths (its printed times are the 1967 ones)."""
    games = read_games(GAMES_1967 / "descriptive.txt")
    for label, settings in (
        ("defaults (SETD 4, SETW 6, SETF 2)", ()),
        ("tournament widths (SETW 15 15 9 9 7)", TOURNAMENT),
    ):
        results = [think_game(Session(), game, settings) for game in games]
        echo(f"replay --think, the four 1967 games, {label}:")
        echo(f"  {summary(results)}")
        if settings:
            echo(f"  game 4 alone: {summary(results[3:])}")
