"""``machack bench``: how fast the program runs, in wall time and in PDP-6 time.

* perft: leaf nodes per wall second and per emulated second (the program counts the
  last ply without making the moves);
* legal move generation: the emulated time of one call of GENLEG, measured by running
  a three-instruction stub (``MOVEI L,MSTK-1 / PUSHJ P,GENLEG / JRST 4,``) in free core
  between two commands, the program's state untouched;
* time per move at depth 4: GO from a few positions;
* the first start: seconds from ``machack play`` to its first prompt with empty caches
  (numba's and the assembled program's, as on a fresh machine) and with warm ones, and
  how long the background build of the compiled engine took.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pdp6 import jit

from .session import Session

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
MIDDLEGAMES = [
    ("opening (initial position)", START),
    ("Queen's Gambit, move 8", "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8"),
    ("Slav, move 8", "r2q1rk1/pp1nbppp/2p1pn2/3p4/2PP1B2/2N1PN2/PP3PPP/R2QKB1R w KQ - 1 8"),
    (
        "Tarrasch, Black to move",
        "r1bqk2r/pp2bppp/2n2n2/2pp4/3P4/2PBPN2/PP3PPP/RNBQK2R b KQkq - 3 7",
    ),  # fmt: skip
    ("Kiwipete (48 moves)", KIWIPETE),
]
OPCODE = {"MOVEI": 0o201, "PUSHJ": 0o260, "JRST": 0o254}
AC_L, AC_P = 0o11, 0o17


@dataclass
class GenTiming:
    name: str
    moves: int
    instructions: int
    emulated_us: float


def _ins(op: str, ac: int, address: int) -> int:
    return (OPCODE[op] << 27) | (ac << 23) | address


def time_generator(session: Session, fen: str, routine: str = "GENLEG") -> GenTiming:
    """Run the program's legal move generator once on ``fen`` and time it."""
    session.setup(fen)
    m, sym = session.machine, session.image.symbol
    stub, mstk = sym("PRGEND"), sym("MSTK")
    saved_acs = [m.memory[i] for i in range(16)]
    saved_pc = m.pc
    m.memory[stub] = _ins("MOVEI", AC_L, mstk - 1)
    m.memory[stub + 1] = _ins("PUSHJ", AC_P, sym(routine))
    m.memory[stub + 2] = _ins("JRST", 4, stub + 2)  # halt
    m.memory[AC_P] = ((-64 & 0o777777) << 18) | (sym("PDL") + 200)
    m.pc = stub
    t0, i0 = m.elapsed_us, m.instructions
    stop = m.run(max_instructions=1_000_000)
    if stop.reason != "halt":
        raise RuntimeError(f"the generator did not return: {stop}")
    timing = GenTiming(
        routine,
        (m.memory[AC_L] & 0o777777) - (mstk - 1),
        m.instructions - i0,
        m.elapsed_us - t0,
    )
    for i, word in enumerate(saved_acs):
        m.memory[i] = word
    m.pc = saved_pc
    return timing


def run(
    echo: Callable[[str], None] = print, depth4_positions: int = 3, first_start: bool = True
) -> None:
    """Print the benchmark figures."""
    session = Session()
    echo("Mac Hack VI on the emulated PDP-6 (MIDAS program, compiled emulator)")
    echo("")
    echo(f"{'perft':<28} {'nodes':>10} {'wall s':>8} {'nodes/wall s':>13} "
         f"{'PDP-6 s':>9} {'nodes/PDP-6 s':>14}")  # fmt: skip
    for name, fen, depth in [("initial, depth 4", START, 4), ("Kiwipete, depth 3", KIWIPETE, 3)]:
        session.setup(fen)
        t0 = time.perf_counter()
        reply = session.command(f"PERFT {depth}")
        wall = time.perf_counter() - t0
        line = reply.first("PERFT ")
        nodes = int(line.split("=")[1]) if line else 0
        emu = reply.emulated_us / 1e6
        echo(f"{name:<28} {nodes:>10,} {wall:>8.2f} {nodes / wall:>13,.0f} "
             f"{emu:>9.1f} {nodes / emu:>14,.0f}")  # fmt: skip
    echo("")
    echo(f"{'legal move generation':<36} {'moves':>5} {'instructions':>12} {'PDP-6 ms':>9}")
    for name, fen in MIDDLEGAMES:
        t = time_generator(session, fen)
        echo(f"{name:<36} {t.moves:>5} {t.instructions:>12,} {t.emulated_us / 1000:>9.2f}")
    echo("")
    echo(f"{'time per move, depth 4':<36} {'move':<10} {'nodes':>8} {'PDP-6 s':>9} {'wall s':>7}")
    session.command("DEPTH 4")
    for name, fen in MIDDLEGAMES[:depth4_positions]:
        session.setup(fen)
        session.command("PN")
        t0 = time.perf_counter()
        reply = session.command("GO")
        wall = time.perf_counter() - t0
        move = reply.after_ack[0].split()[-1] if reply.after_ack else "-"
        stats = session.command("STATS").first("TIME ") or ""
        words = stats.split()
        nodes = words[4] if len(words) > 4 else "?"
        echo(f"{name:<36} {move:<10} {nodes:>8} {reply.emulated_us / 1e6:>9.1f} {wall:>7.2f}")
    hash_table(session, echo)
    if first_start:
        echo("")
        echo("first start of machack play (the cold start also builds the compiled engine: "
             "1-3 minutes) ...")  # fmt: skip
        for line in first_start_lines():
            echo(line)


def positions_1967(every: int) -> list[tuple[str, str]]:
    """Every EVERY-th position of the four 1967 games with Mac Hack to move (not book)."""
    import chess

    from .replay import GAMES_1967, read_games
    from .think import machack_side

    found = []
    for game in read_games(GAMES_1967 / "descriptive.txt"):
        board, side = chess.Board(game.start_fen), machack_side(game)
        for ply, move in enumerate(game.moves):
            if board.turn == side and game.time_of(ply).upper() != "BOOK":
                found.append((f"{game.name[:5]} ply {ply}", board.fen()))
            board.push(move)
    return found[::every]


def _search_figures(session: Session, fen: str, settings: list[str]) -> tuple[int, float, str]:
    """Nodes, PDP-6 seconds and the hash figures of one search."""
    session.setup(fen)
    session.command("PN")
    for line in settings:
        session.command(line)
    reply = session.command("GO")
    stats = next(x for x in reply.after_ack if x.startswith("TIME "))
    words = stats.split()
    return int(words[4]), reply.emulated_us / 1e6, words[words.index("HASH") + 1]


def hash_table(session: Session, echo: Callable[[str], None], every: int = 16) -> None:
    """Depth 5 on the 1967 positions with the hash table off and on: nodes, time, and
    the table's probes/found/taken/stored; the median node reduction per search."""
    for search, extra in (("Greenblatt search", []), ("full-width search", ["FULLW 1"])):
        echo("")
        echo(f"hash table, {search}, depth 5 {'':<9} {'nodes off':>9} {'nodes on':>9} "
             f"{'PDP-6 s off':>11} {'on':>7} {'p/found/taken/stored':>22}")  # fmt: skip
        reductions, found, probes = [], 0, 0
        for name, fen in positions_1967(every):
            off = _search_figures(session, fen, ["SETD 5", "HASH OFF", *extra])
            on = _search_figures(session, fen, ["SETD 5", "HASH ON", *extra])
            reductions.append(1 - on[0] / off[0])
            p, h, _, _ = map(int, on[2].split("/"))
            found, probes = found + h, probes + p
            echo(f"{name:<36} {off[0]:>9,} {on[0]:>9,} {off[1]:>11.1f} {on[1]:>7.1f} "
                 f"{on[2]:>22}")  # fmt: skip
        echo(
            f"median node reduction {statistics.median(reductions):.0%}; "
            f"positions found with a value in {found / max(probes, 1):.1%} of the probes"
        )


@dataclass
class FirstStart:
    prompt_s: float  # from the command to its first prompt
    engine_ready_s: float | None  # until the compiled engine was in the cache (cold start)


def time_first_start(cache: Path, wait_for_engine: bool) -> FirstStart:
    """Start ``machack play`` with its caches in ``cache`` and time its first prompt;
    with ``wait_for_engine``, also the background build of the compiled engine."""
    env = dict(os.environ, XDG_CACHE_HOME=str(cache), NUMBA_CACHE_DIR=str(cache / "numba"))
    t0 = time.perf_counter()
    play = subprocess.Popen(
        [sys.executable, "-m", "machack", "play"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert play.stdout is not None and play.stdin is not None
    seen = b""
    while not seen.endswith(b"*"):
        chunk = play.stdout.read1(4096)
        if not chunk:
            raise RuntimeError(f"machack play ended before its prompt: {seen[-200:]!r}")
        seen += chunk
    prompt = time.perf_counter() - t0
    ready: float | None = None
    if wait_for_engine:
        while not list((cache / "numba").glob(f"*/*/{jit.READY_MARK}")):
            time.sleep(0.2)
        ready = time.perf_counter() - t0
    play.stdin.close()
    play.wait(timeout=60)
    return FirstStart(prompt, ready)


def first_start_lines() -> list[str]:
    """The first-start figures, cold then warm, as printed lines."""
    with tempfile.TemporaryDirectory(prefix="machack-bench-") as tmp:
        cold = time_first_start(Path(tmp), wait_for_engine=jit.ENABLED)
        warm = time_first_start(Path(tmp), wait_for_engine=False)
    built = (f"; compiled engine built in the background in {cold.engine_ready_s:.1f} s"
             if cold.engine_ready_s is not None else "")  # fmt: skip
    return [
        f"{'first prompt, empty caches':<36} {cold.prompt_s:>7.2f} s{built}",
        f"{'first prompt, warm caches':<36} {warm.prompt_s:>7.2f} s",
    ]
