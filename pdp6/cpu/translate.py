"""The plain-Python engine: PDP-6 code translated, a block at a time, into Python.

CPython spends most of an interpreted instruction on the interpreting (fetch, decode,
calls, state lookups), so the plain engine specializes ``loop.execute`` for each
instruction word with :mod:`pdp6.cpu.specialize` and strings the results together:
a *block* is the straight run of instructions from one address up to the first
taken jump, a stop, or code the specializer leaves alone.  Each block compiles to one
Python function that returns ``count << 18 | next PC``.

A block may run only when every instruction boundary inside it would have done
nothing in ``loop.run``; the runner checks that on entry:

* exec mode, no UUO inhibit, PI off with nothing requested (``quiet``; these change
  only in instructions the blocks leave to the general routines);
* the emulated clock cannot reach the next event inside the block (each block knows
  the most time its instructions but the last can take);
* the instruction budget covers the whole block;
* the words in core are still the words it was translated from (self-modifying code;
  a store into the running block ends it after that instruction);
* no breakpoint inside (the cache is cleared when breakpoints change).

Anything else runs one instruction through ``loop.run`` itself, the same source as
plain Python, so both paths give identical results, which the tests check.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from ..timing import CORE_READ_NS
from . import access, arith, compare, fixed, floatbyte, fp, io, logic, loop
from .specialize import (
    Effects,
    Facts,
    Frame,
    Specializer,
    State,
    Unsupported,
    const,
    load_sources,
    name,
    tidy,
)
from .state import (
    APR_NXM,
    APR_PDLOV,
    COUNT,
    EA_LH,
    EVENT,
    F_USER,
    FAULT,
    FIRST,
    FLAGS,
    INHIBIT,
    IOQ_N,
    MEMSIZE,
    PC,
    PI_CYCLE,
    PI_ON,
    PIR,
    REASON,
    REASON_IO,
    REASON_LIMIT,
    TIME,
)

RH = 0o777777
MAX_BLOCK = 64  # instructions in one block at most
SOURCES = load_sources((access, arith, fp, fixed, compare, logic, floatbyte, io, loop))
ARRAYS = ("mem", "st", "io", "ioq")

Block = tuple[Any, int, int, int, list[int], bool]  # fn, count, bound, end, words, stops
SLOW: Block = (None, 0, 0, 0, [], False)  # run this address through loop.run
# Blocks depend only on their address, words and the core size, so machines share them
# (tests and benchmarks build many machines that run the same programs).
SHARED: dict[tuple[int, int], Block] = {}
SHARED_MAX = 50_000


def facts(memsize: int) -> Facts:
    """What holds inside every block (guarded by the runner, kept by the specializer)."""
    return Facts(
        constant={FAULT: 0, PI_CYCLE: 0, INHIBIT: 0, PI_ON: 0, PIR: 0, MEMSIZE: memsize},
        flags_slot=FLAGS,
        flags_zero=F_USER,
        time_slot=TIME,
        deferred=frozenset({EA_LH}),
        free=frozenset({TIME, FLAGS, EA_LH, APR_PDLOV, APR_NXM}),
    )


class Translation:
    """The Python code of one block, built instruction by instruction."""

    def __init__(self, memsize: int, optab: tuple[int, ...]) -> None:
        self.spec = Specializer(SOURCES, facts(memsize))
        self.optab = const(optab)
        self.body: list[ast.stmt] = []
        self.state = State({})
        self.bounds: list[int] = []
        self.stores: set[int] = set()
        self.smc = False
        self.done = False  # the last instruction left the block
        self.stops = False  # ... and may have set a stop reason or queued I/O

    def add(self, ir: int, pc: int) -> bool:
        """Append the instruction ``ir`` at ``pc``; False if it must be left to loop.run."""
        spec = self.spec
        spec.effects = Effects()
        st = self.state.copy()
        st.time += CORE_READ_NS  # the fetch, as loop.run charges it
        st.spent = CORE_READ_NS
        npc = (pc + 1) & RH
        code: list[ast.stmt] = []
        args = [name(a) for a in ARRAYS] + [self.optab, const(ir), const(pc), const(npc)]
        try:
            nxt = spec.inline(SOURCES["execute"], args, st, Frame(SOURCES["execute"], True), code)
        except Unsupported:
            return False
        self.body.extend(code)
        self.bounds.append(st.spent)
        self.stores |= spec.effects.const_stores
        count = len(self.bounds)
        effects = spec.effects
        if effects.ends_block:
            self.exit(st, nxt, count, self.body)
            self.done = self.stops = True
        elif isinstance(nxt, ast.Constant) and nxt.value != npc:
            self.exit(st, nxt, count, self.body)
            self.done = True
        else:
            if not isinstance(nxt, ast.Constant):
                taken: list[ast.stmt] = []
                self.exit(st.copy(), nxt, count, taken)
                test = ast.Compare(left=nxt, ops=[ast.NotEq()], comparators=[const(npc)])
                self.body.append(ast.If(test=test, body=taken, orelse=[]))
            if effects.smc:
                self.smc = True
                moved: list[ast.stmt] = []
                self.exit(st.copy(), const(npc), count, moved)
                self.body.append(ast.If(test=name("_smc"), body=moved, orelse=[]))
        self.state = st
        return True

    def exit(self, st: State, target: ast.expr, count: int, out: list[ast.stmt]) -> None:
        self.spec.flush(st, out)
        value = const((count << 18) | target.value) if isinstance(target, ast.Constant) else ast.BinOp(
            left=const(count << 18), op=ast.BitOr(), right=target)  # fmt: skip
        out.append(ast.Return(value=value))

    def compile(self, start: int, end: int) -> Callable[..., int]:
        if not self.done:
            self.exit(self.state, const(end & RH), len(self.bounds), self.body)
        body = ([ast.parse("_smc = 0").body[0]] if self.smc else []) + tidy(self.body)
        fn = ast.parse(f"def _block({', '.join(ARRAYS)}): pass").body[0]
        assert isinstance(fn, ast.FunctionDef)
        fn.body = body
        residuals = [node for _, node, _ in self.spec.residuals.values()]
        module = ast.Module(body=[*residuals, fn], type_ignores=[])
        for node in ast.walk(module):
            if isinstance(node, ast.If | ast.For | ast.While) and not node.body:
                node.body = [ast.Pass()]
        ast.fix_missing_locations(module)
        namespace: dict[str, Any] = {"_LO": start, "_HI": end}
        exec(compile(module, f"<pdp6 block {start:06o}>", "exec"), namespace)  # noqa: S102
        return namespace["_block"]  # type: ignore[no-any-return]


class BlockEngine:
    """``loop.run``'s interface, running translated blocks where it can.

    ``step`` is ``loop.run`` as plain Python: it runs everything the blocks do not.
    One engine belongs to one machine (its block cache describes that machine's core).
    """

    def __init__(self, step: Callable[..., int]) -> None:
        self.step = step
        self.blocks: dict[int, Block] = {}
        self.memsize = -1
        self.optab: tuple[int, ...] = ()

    def breakpoints_changed(self) -> None:
        self.blocks.clear()

    def translate(self, mem: Any, bp: Any, pc: int) -> Block:
        if pc < 16 or pc >= self.memsize or bp[pc]:
            return SLOW
        known = SHARED.get((pc, self.memsize))
        if known is not None and mem[pc : known[3]] == known[4] and not any(bp[pc : known[3]]):
            return known
        t = Translation(self.memsize, self.optab)
        addr = pc
        while len(t.bounds) < MAX_BLOCK and not t.done:
            if addr < 16 or addr >= self.memsize or (addr != pc and bp[addr]) or addr in t.stores:
                break
            if not t.add(int(mem[addr]), addr):
                break
            addr += 1
        if not t.bounds:
            return SLOW
        fn = t.compile(pc, addr)
        block = (fn, len(t.bounds), sum(t.bounds[:-1]), addr, list(mem[pc:addr]), t.stops)
        if len(SHARED) >= SHARED_MAX:
            SHARED.clear()
        SHARED[(pc, self.memsize)] = block
        return block

    def __call__(self, mem: Any, st: Any, io: Any, ioq: Any, optab: Any, bp: Any, max_n: int) -> int:
        if st[MEMSIZE] != self.memsize or not self.optab:
            self.blocks.clear()
            self.memsize = st[MEMSIZE]
            self.optab = tuple(int(x) for x in optab)
        blocks = self.blocks
        step = self.step
        n = 0
        reason = REASON_LIMIT
        first = st[FIRST]
        quiet = _quiet(st)
        while n < max_n:
            pc = st[PC]
            b = blocks.get(pc)
            if b is None:
                b = blocks[pc] = self.translate(mem, bp, pc)
            fn = b[0]
            if (
                quiet
                and fn is not None
                and n + b[1] <= max_n
                and st[TIME] + b[2] < st[EVENT]
                and mem[pc : b[3]] == b[4]
            ):
                r = fn(mem, st, io, ioq)
                n += r >> 18
                st[PC] = r & RH
                first = 0
                if b[5] and (st[REASON] or st[IOQ_N]):
                    reason = st[REASON] or REASON_IO
                    break
                continue
            # Everything else: one instruction (or interrupt) through loop.run.
            st[FIRST] = first
            before = st[COUNT]
            code = step(mem, st, io, ioq, optab, bp, 1)
            n += st[COUNT] - before
            st[COUNT] = before
            first = st[FIRST]
            quiet = _quiet(st)
            if code != REASON_LIMIT:
                reason = code
                break
        st[COUNT] += n
        st[FIRST] = first
        return reason


def _quiet(st: Any) -> bool:
    """Whether the facts the blocks rely on hold (they change only outside blocks)."""
    return not (st[FLAGS] & F_USER or st[INHIBIT] or st[PI_ON] or st[PIR] or st[FAULT] or st[PI_CYCLE])
