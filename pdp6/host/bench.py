"""``pdp6 bench``: a fixed program mix timed on each engine.

The mix has five kernels, each a loop run many times: integer arithmetic, byte
instructions, subroutine calls through a stack, indirect addressing, and a bubble
sort.  The program is built here from the instruction table (the emulator does not
depend on the assembler) and ends with a halt, so every engine executes exactly the
same instructions.  A real program's branchy code on each engine is timed by ``machack
bench-engines`` (:mod:`machack.bench_engines`): the machine does not know the chess program.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from .. import isa
from ..machine import Machine

P = 0o17  # stack pointer AC


def ins(name: str, ac: int = 0, y: int = 0, x: int = 0, indirect: bool = False) -> int:
    """An instruction word from its mnemonic (or alias) and fields."""
    base = isa.BY_NAME[name].word if name in isa.BY_NAME else isa.ALIASES[name]
    return base | (ac << 23) | (int(indirect) << 22) | (x << 18) | (y & 0o777777)


class _Program:
    """A tiny two-pass-free builder: words appended at consecutive addresses."""

    def __init__(self, origin: int) -> None:
        self.origin = origin
        self.words: list[int] = []

    @property
    def here(self) -> int:
        return self.origin + len(self.words)

    def emit(self, *words: int) -> int:
        at = self.here
        self.words.extend(words)
        return at

    def patch(self, at: int, word: int) -> None:
        self.words[at - self.origin] = word


def build_mix(rounds: int) -> tuple[int, dict[int, int]]:
    """The benchmark program: (start address, {address: word})."""
    data = 0o20000
    text = data + 0o100  # packed 7-bit text for the byte kernel
    copy = data + 0o200
    array = data + 0o400  # 64 words to sort
    ptrs = data + 0o600  # indirect chain
    stack = data + 0o1000
    stack_ptr = data + 0o777  # holds -64,,stack-1 (an IOWD-style pushdown pointer)
    mem: dict[int, int] = {stack_ptr: ((-64) & 0o777777) << 18 | (stack - 1)}
    for i in range(20):
        mem[text + i] = (0o101 + i) * 0o2010040201 << 1  # five equal characters, as ASCII
    for i in range(64):
        mem[array + i] = (i * 0o4_1101) % 0o1000  # a scrambled permutation-ish fill
    mem[ptrs] = (1 << 22) | (ptrs + 1)  # @ -> @ -> word
    mem[ptrs + 1] = ptrs + 2
    mem[ptrs + 2] = 12345

    p = _Program(0o1000)
    start = p.emit(ins("MOVE", P, stack_ptr), ins("MOVEI", 16, rounds))
    outer = p.here
    # 1. integer arithmetic: 200 iterations of add, subtract, multiply, divide, shift
    p.emit(ins("MOVEI", 1, 0), ins("MOVEI", 2, 200))
    loop = p.emit(ins("ADDI", 1, 7), ins("IMULI", 1, 3), ins("IDIVI", 1, 5), ins("ASH", 1, 1))
    p.emit(ins("SUBI", 1, 2), ins("ANDI", 1, 0o77777), ins("SOJG", 2, loop))
    # 2. bytes: copy 100 characters with ILDB/IDPB
    p.emit(ins("MOVE", 3, 0), ins("MOVE", 4, 0), ins("MOVEI", 2, 100))
    bp_src = p.here - 3
    loop = p.emit(ins("ILDB", 5, 3), ins("IDPB", 5, 4), ins("SOJG", 2, 0))
    p.patch(loop + 2, ins("SOJG", 2, loop))
    # 3. stack calls: 100 calls of a subroutine that pushes and pops
    p.emit(ins("MOVEI", 2, 100))
    call = p.emit(ins("PUSHJ", P, 0), ins("SOJG", 2, 0))
    p.patch(call + 1, ins("SOJG", 2, call))
    # 4. indirect addressing: 100 loads through a two-level chain and an index
    p.emit(ins("MOVEI", 2, 100), ins("MOVEI", 6, 0))
    loop = p.emit(ins("MOVE", 7, ptrs, indirect=True), ins("ADD", 7, ptrs + 2, x=6))
    p.emit(ins("SOJG", 2, loop))
    # 5. bubble sort of 64 words (restored from a scramble each round)
    p.emit(ins("MOVEI", 10, 63))
    sort_outer = p.emit(ins("MOVN", 11, 10), ins("HRLZS", 11, 11), ins("HRRI", 11, array))
    inner = p.emit(ins("MOVE", 12, 0, x=11), ins("CAMG", 12, 1, x=11), ins("JRST", 0, 0))
    p.emit(ins("EXCH", 12, 1, x=11), ins("MOVEM", 12, 0, x=11))
    nxt = p.emit(ins("AOBJN", 11, inner), ins("SOJG", 10, sort_outer))
    p.patch(inner + 2, ins("JRST", 0, nxt))
    # scramble the array again: a[i] = (a[i] * 5 + 3) mod 512
    p.emit(ins("MOVSI", 11, 0o777700), ins("HRRI", 11, array))
    loop = p.emit(ins("MOVE", 12, 0, x=11), ins("IMULI", 12, 5), ins("ADDI", 12, 3))
    p.emit(ins("ANDI", 12, 0o777), ins("MOVEM", 12, 0, x=11), ins("AOBJN", 11, loop))
    p.emit(ins("SOJG", 16, outer), ins("HALT", 0, 0))
    sub = p.emit(ins("PUSH", P, 1), ins("MOVEI", 1, 5), ins("POP", P, 1), ins("POPJ", P, 0))
    p.patch(call, ins("PUSHJ", P, sub))
    src_ptr = p.emit(0o440700 << 18 | text)
    dst_ptr = p.emit(0o440700 << 18 | copy)
    p.patch(bp_src, ins("MOVE", 3, src_ptr))
    p.patch(bp_src + 1, ins("MOVE", 4, dst_ptr))
    for i, w in enumerate(p.words):
        mem[p.origin + i] = w
    return start, mem


@dataclass
class Result:
    engine: str
    instructions: int
    wall_s: float
    emulated_s: float
    first_call_s: float
    compiled_now: bool  # the first call compiled the loop (False: loaded from the cache)
    translated: float  # share of instructions that ran in translated blocks ('python')
    blocks: int  # blocks translated ('python')
    why: Counter[str]  # instructions left to the interpreter, by reason ('python', --why)

    @property
    def ips(self) -> float:
        return self.instructions / self.wall_s

    @property
    def speed_ratio(self) -> float:
        return self.emulated_s / self.wall_s


def run_mix(engine: str, rounds: int, why: bool = False) -> Result:
    """Time the mix on one engine; the first call is timed apart.

    The first call is one round of the mix on a machine of its own: for 'compiled' it
    compiles the loop (or loads it from numba's cache), for 'python' it translates the
    mix's blocks (kept for later machines, as in any process) and waits for the
    translator's helper process to be ready (it starts with the first translation); for
    'native', rounds until the blocks made from the hot code's exits stop coming.
    """
    t0 = time.perf_counter()
    warm = Machine(engine=engine)
    start, mem = build_mix(1 if engine != "native" else rounds)
    for a, w in mem.items():
        warm.memory[a] = w
    engine_run: Any = warm._run
    # (The native engine translates what has run often, the blocks' exits in turn: the
    # mix, the very words timed, runs on until a stretch brings no new block.)
    warm.pc = start
    for turn in range(60 if engine == "native" else 1):
        known = len(getattr(engine_run, "installed", ()))
        if warm.run(max_instructions=100_000).reason == "halt":
            warm.pc = start
        if engine in ("python", "native"):
            engine_run.settle()  # the translator (helper process, or thread) done with it
        if engine == "native" and turn > engine_run.hot and len(engine_run.installed) == known:
            break
    first = time.perf_counter() - t0
    compiled_now = engine == "compiled" and _compiled_loop_misses() > 0
    m = Machine(engine=engine)
    start, mem = build_mix(rounds)
    for a, w in mem.items():
        m.memory[a] = w
    m.pc = start
    if why and hasattr(m._run, "why"):
        m._run.why = Counter()
    t0 = time.perf_counter()
    stop = m.run(max_instructions=2_000_000_000)
    wall = time.perf_counter() - t0
    if stop.reason != "halt":
        raise RuntimeError(f"benchmark program did not halt: {stop}")
    slow = getattr(m._run, "slow_steps", stop.instructions)
    blocks = sum(1 for b in getattr(m._run, "blocks", {}).values() if b[0] is not None)
    translated = 1 - slow / stop.instructions
    return Result(engine, stop.instructions, wall, m.elapsed_us / 1e6, first, compiled_now,
                  translated, blocks, getattr(m._run, "why", None) or Counter())  # fmt: skip


def _compiled_loop_misses() -> int:
    """How many signatures of the loop numba compiled in this process (not cache hits)."""
    from ..cpu import loop

    stats = getattr(loop.run, "stats", None)
    return sum(stats.cache_misses.values()) if stats else 0


def why_lines(why: Counter[str], total: int, limit: int = 12) -> list[str]:
    """The reasons instructions ran on the interpreter, most instructions first."""
    return [f"  {n / total:6.1%}  {reason}" for reason, n in why.most_common(limit)]
