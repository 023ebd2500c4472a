"""``machack bench``: how fast the program runs, in wall time and in PDP-6 time.

* perft: leaf nodes per wall second and per emulated second (the program counts the
  last ply without making the moves);
* legal move generation: the emulated time of one call of GENLEG, measured by running
  a three-instruction stub (``MOVEI L,MSTK-1 / PUSHJ P,GENLEG / JRST 4,``) in free core
  between two commands, the program's state untouched;
* time per move at depth 4: GO from a few positions.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

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


def run(echo: Callable[[str], None] = print, depth4_positions: int = 3) -> None:
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
