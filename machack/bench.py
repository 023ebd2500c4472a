"""``machack bench``: how fast the program runs, in wall time and in PDP-6 time.

* perft: leaf nodes per wall second and per emulated second (the program counts the
  last ply without making the moves);
* legal move generation: the emulated time of one call of GENLEG, measured by running
  a three-instruction stub (``MOVEI L,MSTK-1 / PUSHJ P,GENLEG / JRST 4,``) in free core
  between two commands, the program's state untouched;
* time per move at depth 4: GO from a few positions;
* the hash table: depth-5 searches of the 1967 positions with the table off and on;
* the agreement table of ``machack replay --think --1967`` with the opening book and the
  hash table on (the searches above have the book off: they time the search);
* the Type 340's cost: the same search with no 340 and with the program refreshing
  its display in each mode; the emulated time the refresh takes from the search
  (interrupts, BLKO, the lists built) as a share of the move's time;
* the first start: seconds from ``machack play`` to its first prompt with empty caches
  (numba's and the assembled program's, as on a fresh machine) and with warm ones, and
  how long the background build of the compiled engine took;
* waiting for a person: the host CPU ``machack play`` uses at its ``*`` prompt on a
  terminal, on the compiled and the python engines (it should sleep: under 5% of a core).
"""

from __future__ import annotations

import io
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

from .display import GAME3_TO_13
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


DISPLAY_MODES = [("FANCY 1", "FANCY 1"), ("FANCY 2", "FANCY 2"), ("FANCY 0", "FANCY 0"),
                 ("SDS 1 (the PMG's list)", "SDS 1")]  # fmt: skip


@dataclass
class RefreshCost:
    """One search timed with the display in one mode (``mode`` None: no 340)."""

    mode: str | None
    move: str
    nodes: str
    emulated_s: float
    wall_s: float
    cpu_s: float  # this process's CPU time (steadier than the wall time on a shared host)
    main_lists: int  # main lists the 340 drew during the search
    clock_lists: int


def time_display(mode: str | None, setting: str | None, depth: int) -> RefreshCost:
    """GO in 1967 game 3 before 13. B-KR4 on a fresh machine, with a 340 showing
    ``setting`` (None: no 340, the program draws nothing)."""
    from .display import Screen

    session = Session()
    if setting is not None:
        Screen(session)
        session.command(setting)
    session.command(f"DEPTH {depth}")
    for move in GAME3_TO_13:
        session.command(move)
    peek = session.peek
    main0, clocks0 = peek("DSNRF"), peek("DSNCK")
    t0, c0 = time.perf_counter(), time.process_time()
    reply = session.command("GO")
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    move = reply.after_ack[0].split()[-1] if reply.after_ack else "-"
    words = (session.command("STATS").first("TIME ") or "").split()
    nodes = words[4] if len(words) > 4 else "?"
    return RefreshCost(mode, move, nodes, reply.emulated_us / 1e6, wall, cpu,
                       peek("DSNRF") - main0, peek("DSNCK") - clocks0)  # fmt: skip


def display_cost_lines(depth: int = 4, rounds: int = 5) -> list[str]:
    """The refresh's share of a search's emulated time, by display mode; the host's
    cost as the median over ``rounds`` of the CPU time with the display against the
    bare search timed just before it (the two side by side, so that a busy host slows
    both)."""
    bare = time_display(None, None, depth)
    lines = [f"{'Type 340 refresh during a search':<30} {'move':<7} {'nodes':>6} {'PDP-6 s':>8} "
             f"{'cost':>6} {'main/s':>7} {'wall s':>7} {'CPU s':>6} {'x bare':>6}",
             f"{'no 340':<30} {bare.move:<7} {bare.nodes:>6} {bare.emulated_s:>8.2f} "
             f"{'':>6} {'':>7} {bare.wall_s:>7.2f} {bare.cpu_s:>6.2f}"]  # fmt: skip
    for name, setting in DISPLAY_MODES:
        pairs = []
        for _ in range(rounds):
            before = time_display(None, None, depth)
            pairs.append((time_display(name, setting, depth), before))
        ratio = statistics.median(r.cpu_s / b.cpu_s for r, b in pairs)
        r = min((r for r, _ in pairs), key=lambda r: r.cpu_s)
        share = (r.emulated_s - bare.emulated_s) / r.emulated_s
        same = "" if (r.move, r.nodes) == (bare.move, bare.nodes) else "  (a different search!)"
        rate = r.main_lists / r.emulated_s
        lines.append(f"{name:<30} {r.move:<7} {r.nodes:>6} {r.emulated_s:>8.2f} "
                     f"{share:>6.1%} {rate:>7.1f} {r.wall_s:>7.2f} {r.cpu_s:>6.2f} "
                     f"{ratio:>6.2f}{same}")  # fmt: skip
    lines.append(f"(x bare: the median over {rounds} rounds of the CPU time against the bare "
                 "search just before it; wall and CPU s: the fastest round)")  # fmt: skip
    return lines


def run(
    echo: Callable[[str], None] = print,
    depth4_positions: int = 3,
    first_start: bool = True,
    agreement_every: int = 1,
    display_cost: bool = True,
    search: bool = True,
    idle: bool = True,
    web: bool = True,
) -> None:
    """Print the benchmark figures (``agreement_every`` 0: no agreement table)."""
    session = Session()
    session.command("BOOK OFF")
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
        chosen = reply.after_ack[0].split()[-1] if reply.after_ack else "-"
        stats = session.command("STATS").first("TIME ") or ""
        words = stats.split()
        searched = words[4] if len(words) > 4 else "?"
        echo(f"{name:<36} {chosen:<10} {searched:>8} {reply.emulated_us / 1e6:>9.1f} {wall:>7.2f}")
    if search:
        from .bench_search import pmg_lines, think_lines

        echo("")
        echo("the Greenblatt search ...")
        for line in pmg_lines():
            echo(line)
        think_lines(echo)
    hash_table(session, echo)
    if agreement_every:
        agreement(echo, agreement_every)
    if display_cost:
        echo("")
        echo("the Type 340 (1967 game 3 before 13. B-KR4, depth 4; cost: the refresh's share "
             "of the move's PDP-6 time; main/s: main lists drawn a PDP-6 second) ...")  # fmt: skip
        for line in display_cost_lines():
            echo(line)
    if web:
        from .bench_web import web_lines

        echo("")
        echo("machack web (a headless Chromium on the page) ...")
        for line in web_lines():
            echo(line)
    if idle:
        echo("")
        echo(f"waiting at the * prompt on a terminal, {IDLE_S:.0f} s {'':<14} {'CPU':>7}")
        for line in prompt_cpu_lines():
            echo(line)
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


def agreement(echo: Callable[[str], None], every: int) -> None:
    """Part 2's agreement with the 1967 moves, with BOOK ON and HASH ON: every
    ``every``-th position of Mac Hack's, each row printed as it comes (a full run takes
    the emulator some minutes), then the summary."""
    from .replay import GAMES_1967
    from .think import HEADER, summary, think_files

    echo("")
    part = "every position" if every == 1 else f"every {every}th position"
    echo(f"agreement with Mac Hack's 1967 moves, book and hash table on ({part}; "
         "machack replay --think --book --1967)")  # fmt: skip
    echo(HEADER)
    games = think_files([GAMES_1967 / "descriptive.txt"], ("HASH ON",), log=echo, book=True,
                        every=every)  # fmt: skip
    for game in games:
        if game.problem:
            echo(f"PROBLEM in {game.name}: {game.problem}")
    echo(summary(games))


@dataclass
class FirstStart:
    prompt_s: float  # from the command to its first prompt
    reply_s: float  # from typing FIRST_SEARCHED[-1] to the machine's (searched) answer
    engine_ready_s: float | None  # until the compiled engine was in the cache (cold start)


# White's moves to the first reply that is searched, not taken from the book: after
# 1. P-KR4 P-Q4 (book), 2. P-QR4 is answered by a depth-4 search (2.1 million instructions).
FIRST_SEARCHED = (b"P-KR4", b"P-QR4")


def _until_prompt(play: subprocess.Popen[bytes], seen: bytes, after: bytes = b"") -> bytes:
    """Read ``play``'s output until it waits at its ``*`` prompt (after ``after``)."""
    assert isinstance(play.stdout, io.BufferedReader)
    while not (seen.rstrip().endswith(b"*") and after in seen):
        chunk = play.stdout.read1(4096)
        if not chunk:
            raise RuntimeError(f"machack play ended before its prompt: {seen[-200:]!r}")
        seen += chunk
    return seen


def time_first_start(cache: Path, wait_for_engine: bool) -> FirstStart:
    """Start ``machack play`` with its caches in ``cache`` and time its first prompt and
    its first searched reply; with ``wait_for_engine``, also the background build of the
    compiled engine."""
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
    seen = _until_prompt(play, b"")
    prompt = time.perf_counter() - t0
    for number, move in enumerate(FIRST_SEARCHED, 1):
        play.stdin.write(move + b"\n")
        play.stdin.flush()
        t1 = time.perf_counter()
        seen = _until_prompt(play, seen, f"{number}. ... ".encode())
    reply = time.perf_counter() - t1
    ready: float | None = None
    if wait_for_engine:
        while not list((cache / "numba").glob(f"*/*/{jit.READY_MARK}")):
            time.sleep(0.2)
        ready = time.perf_counter() - t0
    play.stdin.close()
    play.wait(timeout=60)
    return FirstStart(prompt, reply, ready)


def first_start_lines() -> list[str]:
    """The first-start figures, cold then warm, as printed lines."""
    with tempfile.TemporaryDirectory(prefix="machack-bench-") as tmp:
        cold = time_first_start(Path(tmp), wait_for_engine=jit.ENABLED)
        warm = time_first_start(Path(tmp), wait_for_engine=False)
    built = (f"; compiled engine built in the background in {cold.engine_ready_s:.1f} s"
             if cold.engine_ready_s is not None else "")  # fmt: skip
    return [
        f"{'first prompt, empty caches':<36} {cold.prompt_s:>7.2f} s{built}",
        f"{'first searched reply, empty caches':<36} {cold.reply_s:>7.2f} s",
        f"{'first prompt, warm caches':<36} {warm.prompt_s:>7.2f} s",
        f"{'first searched reply, warm caches':<36} {warm.reply_s:>7.2f} s",
    ]


IDLE_S = 5.0  # wall seconds measured at the prompt


def _cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux's /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def prompt_cpu(engine: str) -> float:
    """The share of a core ``machack play`` uses while it waits at its prompt on a
    terminal (a pseudo-terminal here), on ``engine`` ('compiled' or 'python')."""
    import pty

    env = dict(os.environ)
    if engine == "python":
        env["PDP6_NOJIT"] = "1"
    master, slave = pty.openpty()
    play = subprocess.Popen([sys.executable, "-m", "machack", "play"], stdin=slave,
                            stdout=slave, stderr=slave, env=env, close_fds=True)  # fmt: skip
    os.close(slave)
    try:
        seen = b""
        while not seen.rstrip().endswith(b"*"):
            chunk = os.read(master, 4096)
            if not chunk:
                raise RuntimeError(f"machack play ended before its prompt: {seen[-200:]!r}")
            seen += chunk
        time.sleep(1.0)  # settled at the prompt
        c0, t0 = _cpu_seconds(play.pid), time.monotonic()
        time.sleep(IDLE_S)
        share = (_cpu_seconds(play.pid) - c0) / (time.monotonic() - t0)
        os.write(master, b"\x04")  # Ctrl-D: the game ends
        play.wait(timeout=30)
    finally:
        if play.poll() is None:
            play.kill()
        os.close(master)
    return share


def prompt_cpu_lines() -> list[str]:
    """The prompt's CPU share on each engine, as printed lines."""
    if not os.path.exists(f"/proc/{os.getpid()}/stat"):
        return ["(needs Linux's /proc to read a process's CPU time)"]
    engines = ["compiled", "python"] if jit.ENABLED else ["python"]
    return [f"{'machack play, ' + e + ' engine':<50} {prompt_cpu(e):>7.1%}" for e in engines]
