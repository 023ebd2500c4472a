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
    APR_OVEN,
    APR_PCCHEN,
    APR_PDLOV,
    APR_PIA,
    COUNT,
    EA_LH,
    EVENT,
    F_OV,
    F_PCCH,
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
    PIH,
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

Block = tuple[Any, int, int, int, list[int], int]  # fn, count, bound, end, words, flags set
SLOW: Block = (None, 1 << 62, 0, 0, [], 0)  # run this address through loop.run (never fits)
# Added to a block's result when the runner must look at the state again (a stop reason,
# queued I/O, PI or APR changes): count << 18 | PC stays below it.
RECHECK = 1 << 40
# Blocks depend only on their address, words and the core size, so machines share them
# (tests and benchmarks build many machines that run the same programs).
SHARED: dict[tuple[int, int], Block] = {}
SHARED_MAX = 50_000


def facts(memsize: int) -> Facts:
    """What holds inside every block (guarded by the runner, kept by the specializer)."""
    return Facts(
        constant={FAULT: 0, PI_CYCLE: 0, INHIBIT: 0, MEMSIZE: memsize},
        flags_slot=FLAGS,
        flags_zero=F_USER,
        time_slot=TIME,
        deferred=frozenset({EA_LH}),
        free=frozenset({TIME, FLAGS, EA_LH, APR_PDLOV, APR_NXM}),
        alarm=frozenset({APR_PDLOV, APR_NXM}),
        # No interrupt can become takeable inside a block (see BlockEngine.pi_quiet), so
        # the PI sampling inside ILDB/IDPB finds nothing, as loop.run would.
        quiet={"pi_latch": None, "pi_takeable": 0},
    )


class Translation:
    """The Python code of one block, built instruction by instruction."""

    def __init__(self, memsize: int, optab: tuple[int, ...]) -> None:
        self.memsize = memsize
        self.spec = Specializer(SOURCES, facts(memsize))
        self.optab = const(optab)
        self.body: list[ast.stmt] = []
        self.state = State({})
        self.bounds: list[int] = []
        self.stores: set[int] = set()
        self.smc = False
        self.alarm = False
        self.flag_bits = 0
        self.done = False  # the last instruction left the block

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
        effects = spec.effects
        self.stores |= effects.const_stores
        self.flag_bits |= effects.flag_bits
        count = len(self.bounds)
        if effects.alarm:
            # An APR condition was raised: leave, so the runner latches its interrupt.
            self.alarm = True
            raised: list[ast.stmt] = []
            self.exit(st.copy(), nxt, count, raised, recheck=True)
            self.body.append(ast.If(test=name("_apr"), body=raised, orelse=[]))
        if effects.ends_block:
            self.exit(st, nxt, count, self.body, recheck=True)
            self.done = True
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

    def exit(
        self, st: State, target: ast.expr, count: int, out: list[ast.stmt], recheck: bool = False
    ) -> None:
        self.spec.flush(st, out)
        high = (count << 18) | (RECHECK if recheck else 0)
        value = (
            const(high | target.value)
            if isinstance(target, ast.Constant)
            else ast.BinOp(left=const(high), op=ast.BitOr(), right=target)
        )
        out.append(ast.Return(value=value))

    def module(self, end: int) -> ast.Module:
        """The block as a module: residual routines, then ``_block``."""
        if not self.done:
            self.exit(self.state, const(end & RH), len(self.bounds), self.body)
            self.done = True
        flags = [
            ast.parse(f"{f} = 0").body[0]
            for f, on in (("_smc", self.smc), ("_apr", self.alarm))
            if on
        ]
        body = flags + tidy(self.body)
        fn = ast.parse(f"def _block({', '.join(ARRAYS)}): pass").body[0]
        assert isinstance(fn, ast.FunctionDef)
        fn.body = body
        residuals = [node for _, node, _ in self.spec.residuals.values()]
        module = ast.Module(body=[*residuals, fn], type_ignores=[])
        for node in ast.walk(module):
            if isinstance(node, ast.If | ast.For | ast.While) and not node.body:
                node.body = [ast.Pass()]
        return ast.fix_missing_locations(module)

    def compile(self, start: int, end: int) -> Callable[..., int]:
        module = self.module(end)
        namespace: dict[str, Any] = {"_LO": start, "_HI": end}
        exec(compile(module, f"<pdp6 block {start:06o}>", "exec"), namespace)  # noqa: S102
        return namespace["_block"]  # type: ignore[no-any-return]


def extend(t: Translation, mem: Any, bp: Any, pc: int) -> tuple[Translation, int]:
    """Add instructions from ``pc`` on until the block must end; (t, the end address)."""
    addr = pc
    while len(t.bounds) < MAX_BLOCK and not t.done:
        if addr < 16 or addr >= t.memsize or (addr != pc and bp[addr]) or addr in t.stores:
            break
        if not t.add(int(mem[addr]), addr):
            break
        addr += 1
    return t, addr


class BlockEngine:
    """``loop.run``'s interface, running translated blocks where it can.

    ``plain`` holds the loop's routines as plain Python (``run``, ``pi_latch`` ...):
    ``run`` executes everything the blocks do not.  One engine belongs to one machine
    (its block cache describes that machine's core).
    """

    def __init__(self, plain: dict[str, Callable[..., Any]]) -> None:
        self.step = plain["run"]
        self.pi_latch = plain["pi_latch"]
        self.pi_takeable = plain["pi_takeable"]
        self.apr_request = plain["apr_request"]
        self.blocks: dict[int, Block] = {}
        self.memsize = -1
        self.optab: tuple[int, ...] = ()
        self.slow_steps = 0  # instructions run through loop.run (for pdp6 bench)

    def breakpoints_changed(self) -> None:
        self.blocks.clear()

    def translate(self, mem: Any, bp: Any, pc: int) -> Block:
        if pc < 16 or pc >= self.memsize or bp[pc]:
            return SLOW
        known = SHARED.get((pc, self.memsize))
        if known is not None and mem[pc : known[3]] == known[4] and not any(bp[pc : known[3]]):
            return known
        t, addr = extend(Translation(self.memsize, self.optab), mem, bp, pc)
        if not t.bounds:
            return SLOW
        fn = t.compile(pc, addr)
        block = (fn, len(t.bounds), sum(t.bounds[:-1]), addr, list(mem[pc:addr]), t.flag_bits)
        if len(SHARED) >= SHARED_MAX:
            SHARED.clear()
        SHARED[(pc, self.memsize)] = block
        return block

    def __call__(
        self, mem: Any, st: Any, io: Any, ioq: Any, optab: Any, bp: Any, max_n: int
    ) -> int:
        if st[MEMSIZE] != self.memsize or not self.optab:
            self.blocks.clear()
            self.memsize = st[MEMSIZE]
            self.optab = tuple(int(x) for x in optab)
        blocks = self.blocks
        step = self.step
        left = max_n  # instructions still to run
        reason = REASON_LIMIT
        first = st[FIRST]
        pi_quiet = self.pi_quiet
        quiet, danger = pi_quiet(st)
        pc = st[PC]
        while left > 0:
            b = blocks.get(pc)
            if b is None:
                b = blocks[pc] = self.translate(mem, bp, pc)
            fn, count, bound, end, words, flag_bits = b
            if (
                quiet
                and count <= left
                and st[TIME] + bound < st[EVENT]
                and not flag_bits & danger
                and mem[pc:end] == words
            ):
                r = fn(mem, st, io, ioq)
                first = 0
                if r < RECHECK:
                    left -= r >> 18
                    pc = r & RH
                    continue
                r -= RECHECK
                left -= r >> 18
                pc = st[PC] = r & RH
                if st[REASON] or st[IOQ_N]:
                    reason = st[REASON] or REASON_IO
                    break
                quiet, danger = pi_quiet(st)
                continue
            # Everything else: one instruction (or interrupt) through loop.run.
            self.slow_steps += 1
            st[PC] = pc
            st[FIRST] = first
            before = st[COUNT]
            code = step(mem, st, io, ioq, optab, bp, 1)
            left -= st[COUNT] - before
            st[COUNT] = before
            first = st[FIRST]
            pc = st[PC]
            if code != REASON_LIMIT:
                reason = code
                break
            quiet, danger = pi_quiet(st)
        st[PC] = pc
        st[COUNT] += max_n - left
        st[FIRST] = first
        return reason

    def pi_quiet(self, st: Any) -> tuple[bool, int]:
        """Whether blocks may run from this instruction boundary on, and which PC flags they
        must not set.

        Blocks rely on facts that only instructions left to ``loop.run`` change: exec mode,
        no UUO inhibit or fault, and no interrupt to take.  Here, at a boundary that
        ``loop.run`` would pass without an event (time before the next event), the PI
        latch is done as it would do it; if then nothing is takeable, nothing can become so
        inside blocks, except by an APR condition: NXM and pushdown overflow end a block
        when raised, and overflow or PC change matter only when enabled (the danger mask).
        """
        if st[FLAGS] & F_USER or st[INHIBIT] or st[FAULT] or st[PI_CYCLE] or st[TIME] >= st[EVENT]:
            return False, 0
        if not (st[PI_ON] or st[PIR]):
            return True, 0
        self.pi_latch(st)
        if self.pi_takeable(st):
            return False, 0
        pia = st[APR_PIA]
        bit = 1 << (7 - pia) if pia else 0
        if not bit & st[PI_ON] & ~st[PIH] & ~st[PIR] or self.apr_request(st):
            return True, 0  # the APR cannot add a request (off, held, pending, or already asking)
        return True, (F_OV if st[APR_OVEN] else 0) | (F_PCCH if st[APR_PCCHEN] else 0)


def python_of(words: list[int], pc: int, memsize: int = 1 << 18) -> str:
    """The Python a block of ``words`` at ``pc`` translates to (up to the block's end).

    For the curious, the docs and the tests: ``pdp6.cpu.translate.python_of([w], 0o100)``.
    """
    from .optable import build

    core = [0] * memsize
    core[pc : pc + len(words)] = words
    t, end = extend(Translation(memsize, tuple(int(x) for x in build())), core, bytes(memsize), pc)
    return ast.unparse(t.module(end))
