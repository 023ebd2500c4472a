"""``machack bench-engines``: Mac Hack VI's search timed on each of the emulator's engines.

``pdp6 bench`` times a fixed mix of tight loops; this times a real program, whose many
short blocks with the clock interrupting show what the python engine's translation
costs.  On one machine the first move in this process and three more (a game: what a
player waits for), then the first move of a fresh machine, which finds the blocks the
first one translated.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pdp6.cpu import helper
from pdp6.host.bench import why_lines

from .session import Session

SEARCH_FEN = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8"
SEARCH_DEPTH = 3


@dataclass
class SearchResult:
    engine: str
    instructions: int
    wall_s: float
    translated: float  # share of instructions that ran in translated blocks ('python')
    why: Counter[str]  # instructions left to the interpreter, by reason ('python', --why)

    @property
    def ips(self) -> float:
        return self.instructions / self.wall_s


def _at_search(engine: str) -> Session:
    """A new machine at the benchmark's position, searching at its depth."""
    session = Session(engine=engine)
    session.setup(SEARCH_FEN)
    session.command(f"DEPTH {SEARCH_DEPTH}")
    return session


def run_game(engine: str, moves: int, why: bool = False) -> list[SearchResult]:
    """Time ``moves`` moves of Mac Hack VI (depth 3 from a Queen's Gambit middlegame,
    the program playing both sides) on one fresh machine, one result a move: a real
    program's profile, many short blocks with the clock interrupting, unlike the mix's
    tight loops.  Blocks translated earlier in the process are reused (as by every
    machine in a process)."""
    session = _at_search(engine)
    session.command("PN")
    run = session.machine._run
    results = []
    for _ in range(moves):
        if why and hasattr(run, "why"):
            run.why = Counter()
        slow0 = getattr(run, "slow_steps", 0)
        t0 = time.perf_counter()
        reply = session.command("GO")
        wall = time.perf_counter() - t0
        slow = getattr(run, "slow_steps", slow0 + reply.instructions) - slow0
        results.append(SearchResult(engine, reply.instructions, wall,
                                    1 - slow / reply.instructions,
                                    getattr(run, "why", None) or Counter()))  # fmt: skip
    return results


def combined(results: list[SearchResult]) -> SearchResult:
    """Several moves' figures as one."""
    why: Counter[str] = Counter()
    for r in results:
        why += r.why
    n = sum(r.instructions for r in results)
    translated = sum(r.translated * r.instructions for r in results) / n
    return SearchResult(results[0].engine, n, sum(r.wall_s for r in results), translated, why)


def report(wanted: tuple[str, ...], why: bool, echo: Callable[[str], None],
           note: Callable[[str], None]) -> None:  # fmt: skip
    """Print the table for the engines ``wanted``: instructions a wall second and, for
    the python engine, the share that ran translated (``why``: what did not, and why).
    ``note`` says what is running (standard error)."""
    echo(f"Mac Hack VI, depth 3{'instr/s':>32} {'translated':>11}")
    for name in wanted:
        note(f"running {name} engine, Mac Hack's search (four moves) ...")
        game = run_game(name, 4, why)
        note(f"running {name} engine, Mac Hack's search (a fresh machine) ...")
        fresh = run_game(name, 1, why)
        for label, r in (("move 1", game[0]), ("moves 2-4", combined(game[1:])),
                         ("fresh", fresh[0])):  # fmt: skip
            share = f"{r.translated:.1%}" if name == "python" else ""
            echo(f"{name + ', ' + label:<34}{r.ips:>14,.0f} {share:>11}")
            if why and name == "python":
                echo("left to the interpreter:")
                for line in why_lines(r.why, r.instructions):
                    echo(line)
    if "python" in wanted:
        how = ("in a helper process (a second core)" if helper.wanted()
               else "in this process, within a quarter of its work")  # fmt: skip
        echo(f"(the python engine translates {how})")


@dataclass
class Round:
    """One search on each of two engines, one after the other."""

    instructions: int
    wall_s: tuple[float, float]
    cpu_s: tuple[float, float]  # of this thread (the native engine's translating is not)


def _search(session: Session) -> tuple[int, float, float]:
    session.setup(SEARCH_FEN)
    session.command("PN")
    w0, c0 = time.perf_counter(), time.thread_time()
    reply = session.command("GO")
    return reply.instructions, time.perf_counter() - w0, time.thread_time() - c0


def warm_up(session: Session, most: int, note: Callable[[str], None]) -> int:
    """Search on the native engine until a search brings no new block (blocks are made
    on a thread from code run often; a search's exits grow hot in turn), at most
    ``most`` times; returns the searches made."""
    run: Any = session.machine._run  # (a NativeEngine)
    for n in range(1, most + 1):
        before = len(run.installed)
        _search(session)
        run.settle()
        note(f"  warm-up search {n}: {len(run.installed)} blocks")
        if n > 2 and len(run.installed) == before:
            return n
    return most


COMPARED = ("compiled", "native")


def alternate(rounds: int, warm: int, note: Callable[[str], None]) -> list[Round]:
    """The same depth-3 search from the same position, ``rounds`` times on the compiled
    and the native engine in turn, each on its own machine: native warmed first
    (``warm`` searches at most), compiled given as many searches, so that both programs
    are in the same state."""
    native = _at_search("native")
    note("warming the native engine ...")
    searches = warm_up(native, warm, note)
    compiled = _at_search("compiled")
    note(f"the compiled engine: {searches} searches ...")
    for _ in range(searches):
        _search(compiled)
    out = []
    for k in range(rounds):
        (n, wa, ca), (m, wb, cb) = _search(compiled), _search(native)
        if n != m:
            raise RuntimeError(f"the engines searched differently: {n} and {m} instructions")
        out.append(Round(n, (wa, wb), (ca, cb)))
        note(f"round {k + 1}: {n / wa / 1e6:.0f} and {n / wb / 1e6:.0f} million a second")
    return out


def report_alternate(rounds: int, warm: int, echo: Callable[[str], None],
                     note: Callable[[str], None]) -> None:  # fmt: skip
    """Print each round and the median of the native engine's speed over the compiled's."""
    a, b = COMPARED
    got = alternate(rounds, warm, note)
    echo(f"Mac Hack VI, depth 3, {rounds} alternating rounds (million instructions a second)")
    echo(f"{'round':<7}{a + ' wall':>14}{b + ' wall':>14}{a + ' cpu':>14}{b + ' cpu':>14}")
    for k, r in enumerate(got, 1):
        speeds = [r.instructions / t / 1e6 for t in (*r.wall_s, *r.cpu_s)]
        echo(f"{k:<7}" + "".join(f"{v:>14.1f}" for v in speeds))
    wall = statistics.median(r.wall_s[0] / r.wall_s[1] for r in got)
    cpu = statistics.median(r.cpu_s[0] / r.cpu_s[1] for r in got)
    echo(f"median {b}/{a}: {wall:.2f}x wall, {cpu:.2f}x cpu")
