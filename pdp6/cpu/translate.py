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
from dataclasses import dataclass
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
import os
MAX_BLOCK = int(os.environ.get("MAXB", "64"))  # instructions in one block at most
SOURCES = load_sources((access, arith, fp, fixed, compare, logic, floatbyte, io, loop))
ARRAYS = ("mem", "st", "io", "ioq")

# fn, count, bound, end and words of the first stretch, PC flags set, other stretches
Block = tuple[Any, int, int, int, list[int], int, tuple[tuple[int, int, list[int]], ...]]
SLOW: Block = (None, 1 << 62, 0, 0, [], 0, ())  # run this address through loop.run
HOT = int(os.environ.get("HOT", "8"))  # times a block start is reached before it is translated
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


@dataclass(frozen=True)
class Instruction:
    """One instruction word at one address, specialized once and reused by every block.

    Its code starts from a clean state (nothing known about core, no time pending), so
    it fits wherever the instruction is reached; ``time`` and ``slots`` are what it
    leaves pending for the block to add or store later.
    """

    code: list[ast.stmt]
    nxt: ast.expr  # the next PC
    time: int
    spent: int
    slots: dict[int, int]
    effects: Effects
    taken: int | None  # the target of a skip or conditional jump, when known


_SPECIALIZERS: dict[tuple[int, tuple[int, ...]], Specializer] = {}
_INSTRUCTIONS: dict[tuple[int, int, int], Instruction | None] = {}


def specialized(memsize: int, optab: tuple[int, ...], ir: int, pc: int) -> Instruction | None:
    """``loop.execute`` specialized for ``ir`` at ``pc``; None if it must run in loop.run."""
    key = (memsize, ir, pc)
    if key in _INSTRUCTIONS:
        return _INSTRUCTIONS[key]
    spec = _SPECIALIZERS.get((memsize, optab))
    if spec is None:
        spec = _SPECIALIZERS[(memsize, optab)] = Specializer(SOURCES, facts(memsize))
    spec.effects = Effects()
    st = State({}, time=CORE_READ_NS, spent=CORE_READ_NS)  # the fetch, as loop.run charges it
    npc = (pc + 1) & RH
    code: list[ast.stmt] = []
    args = [name(a) for a in ARRAYS] + [const(optab), const(ir), const(pc), const(npc)]
    entry: Instruction | None = None
    try:
        nxt = spec.inline(SOURCES["execute"], args, st, Frame(SOURCES["execute"], True), code)
    except Unsupported:
        pass
    else:
        taken = None
        if isinstance(nxt, ast.Name):
            targets = set(spec.choices.get(nxt.id, ())) - {npc}
            taken = targets.pop() if len(targets) == 1 else None
        keep = frozenset({nxt.id} if isinstance(nxt, ast.Name) else ())
        code = tidy(code, keep)
        for stmt in code:
            _locate(stmt)
        entry = Instruction(code, nxt, st.time, st.spent, st.slots, spec.effects, taken)
    if len(_INSTRUCTIONS) >= SHARED_MAX * 8:
        _INSTRUCTIONS.clear()
    _INSTRUCTIONS[key] = entry
    return entry


def residual_defs(memsize: int, optab: tuple[int, ...], names: set[str]) -> list[ast.stmt]:
    spec = _SPECIALIZERS[(memsize, optab)]
    defs = []
    for fname, node, _ in spec.residuals.values():
        if fname in names:
            if fname not in _LOCATED:
                _locate(node)
                _LOCATED.add(fname)
            defs.append(node)
    return defs


_LOCATED: set[str] = set()  # residual routines ready for compile()


class Path:
    """One way through a block being translated: its code and what is known on it."""

    def __init__(self, body: list[ast.stmt], state: State, count: int, spent: int,
                 seen: frozenset[int]) -> None:  # fmt: skip
        self.body = body
        self.state = state
        self.count = count  # instructions on this path so far
        self.spent = spent  # most emulated ns they take
        self.last = 0  # ... of which the last instruction
        self.seen = seen  # their addresses


class Translation:
    """The Python code of one block.

    A block is a tree of straight paths from its first instruction: unconditional jumps
    are followed, and a skip or conditional jump with a known target grows a second
    path; a path that comes back to the first instruction goes round a loop inside the
    function.  Everything else leaves the block, returning ``count << 18 | PC``.
    """

    def __init__(self, memsize: int, optab: tuple[int, ...]) -> None:
        self.memsize = memsize
        self.optab = optab
        self.flusher = Specializer(SOURCES, facts(memsize))  # only emits deferred stores
        self.residuals: set[str] = set()
        self.body: list[ast.stmt] = []
        self.start = -1  # address of the first instruction
        self.size = 0  # instructions translated (paths may repeat one)
        self.addresses: set[int] = set()
        self.stores: set[int] = set()  # constant addresses some instruction stores to
        self.smc = False
        self.check = False
        self.flag_bits = 0
        self.loops = False  # some path jumps back to the start: the body is a loop
        self.loopbacks: list[tuple[list[ast.stmt], ast.stmt, ast.stmt]] = []
        self.returns: list[ast.Return] = []  # every exit (`return _n + ...`)
        self.count = 0  # most instructions along one path
        self.bound = 0  # most ns along one path, but for its last instruction

    def grow(self, mem: Any, bp: Any, pc: int) -> None:
        """Translate from ``pc``: the main path first, then the paths that branch off."""
        self.start = pc
        pending = [(pc, Path(self.body, State({}), 0, 0, frozenset()))]
        while pending:
            addr, path = pending.pop(0)
            self.follow(mem, bp, addr, path, pending)

    def follow(self, mem: Any, bp: Any, addr: int, path: Path,
               pending: list[tuple[int, Path]]) -> None:  # fmt: skip
        while True:
            if addr == self.start and path.count:
                self.jump(path, const(addr), path.body)  # fell or jumped back to the start
                return
            if (
                self.size >= MAX_BLOCK
                or addr < 16
                or addr >= self.memsize
                or (addr != self.start and bp[addr])
                or addr in self.stores
                or addr in path.seen
            ):
                break
            nxt = self.add(int(mem[addr]), addr, path, pending)
            if nxt is None:
                break
            if nxt < 0:
                return  # the path has left the block
            addr = nxt
        if path.count:
            self.exit(path, const(addr & RH), path.body)
        elif path.body is self.body:
            self.start = -1  # not even the first instruction: nothing to translate

    def add(self, ir: int, pc: int, path: Path, pending: list[tuple[int, Path]]) -> int | None:
        """Translate ``ir`` at ``pc`` onto ``path``: the next address on the path, -1 if
        the path ends here, None if the instruction must be left to loop.run."""
        ins = specialized(self.memsize, self.optab, ir, pc)
        if ins is None:
            return None
        effects, nxt = ins.effects, ins.nxt
        npc = (pc + 1) & RH
        st = path.state.copy()
        if effects.reads_state or effects.direct & st.slots.keys():
            self.spec_flush(st, path.body)  # it reads or stores what the block deferred
        st.time += ins.time
        st.slots.update(ins.slots)
        self.size += 1
        self.addresses.add(pc)
        self.stores |= effects.const_stores
        self.flag_bits |= effects.flag_bits
        self.smc |= effects.smc
        self.residuals |= effects.residuals
        path.body.extend(ins.code)
        path.state = st
        path.count += 1
        path.spent += ins.spent
        path.last = ins.spent
        path.seen = path.seen | {pc}
        if effects.check:
            # An APR condition was raised or a routine ran: leave, and the runner looks.
            self.check = True
            raised: list[ast.stmt] = []
            self.exit(path, nxt, raised, recheck=True)
            path.body.append(_locate(ast.If(test=name("_chk"), body=raised, orelse=[]), False))
        if effects.ends_block:
            self.exit(path, nxt, path.body, recheck=True)
            return -1
        if isinstance(nxt, ast.Constant):
            if nxt.value == npc:
                self.moved(path, effects, npc)
                return npc
            if nxt.value != self.start and self.size < MAX_BLOCK and nxt.value not in path.seen:
                self.moved(path, effects, int(nxt.value))
                return int(nxt.value)  # an unconditional jump: the path goes on there
            self.jump(path, nxt, path.body)
            return -1
        # A skip or conditional jump: grow the taken path too when its target is known.
        taken: list[ast.stmt] = []
        test = ast.Compare(left=nxt, ops=[ast.NotEq()], comparators=[const(npc)])
        path.body.append(_locate(ast.If(test=test, body=taken, orelse=[]), False))
        branch = Path(taken, st.copy(), path.count, path.spent, path.seen)
        branch.last = path.last
        target = ins.taken
        if target is None or target == self.start or target in path.seen:
            self.jump(branch, const(target) if target is not None else nxt, taken)
        else:
            self.moved(branch, effects, target)
            pending.append((target, branch))
        self.moved(path, effects, npc)
        return npc

    def moved(self, path: Path, effects: Effects, nxt: int) -> None:
        """Before going on to ``nxt``: leave if this instruction stored into the block."""
        if effects.smc:
            out: list[ast.stmt] = []
            self.exit(path, const(nxt), out)
            path.body.append(_locate(ast.If(test=name("_smc"), body=out, orelse=[]), False))

    def jump(self, path: Path, target: ast.expr, out: list[ast.stmt]) -> None:
        """Go to ``target``: round the loop again if it is the start, else leave."""
        if not (isinstance(target, ast.Constant) and target.value == self.start):
            self.exit(path, target, out)
            return
        # Back to the start: the runner's entry checks, for the next time round.
        self.loops = True
        self.note_end(path)
        st = path.state.copy()
        self.spec_flush(st, out)
        out.extend(ast.parse(f"_n += {path.count << 18}").body)
        stop = f"_n > _lim or st[{TIME}] + _BOUND >= st[{EVENT}]" + (" or _smc" if self.smc else "")
        guard, again = ast.parse(f"if {stop}:\n    return _n + {self.start}\ncontinue").body
        out.extend((guard, again))
        assert isinstance(guard, ast.If)
        self.loopbacks.append((out, again, guard.body[0]))

    def exit(self, path: Path, target: ast.expr, out: list[ast.stmt],
             recheck: bool = False) -> None:  # fmt: skip
        """Leave the block: ``_n`` counts the instructions of earlier times round."""
        self.note_end(path)
        st = path.state.copy()
        self.spec_flush(st, out)
        high = (path.count << 18) | (RECHECK if recheck else 0)
        value = (
            const(high | target.value)
            if isinstance(target, ast.Constant)
            else ast.BinOp(left=const(high), op=ast.BitOr(), right=target)
        )
        leave = _locate(ast.Return(value=ast.BinOp(left=name("_n"), op=ast.Add(), right=value)))
        self.returns.append(leave)
        out.append(leave)

    def spec_flush(self, st: State, out: list[ast.stmt]) -> None:
        mark = len(out)
        self.flusher.flush(st, out)
        for stmt in out[mark:]:
            _locate(stmt)

    def note_end(self, path: Path) -> None:
        self.count = max(self.count, path.count)
        self.bound = max(self.bound, path.spent - path.last)

    def stretches(self) -> list[tuple[int, int]]:
        """The addresses translated, as [first, end) stretches of core, the start first."""
        out: list[list[int]] = []
        for a in sorted(self.addresses):
            if out and out[-1][1] == a:
                out[-1][1] = a + 1
            else:
                out.append([a, a + 1])
        first = next(i for i, (a, b) in enumerate(out) if a <= self.start < b)
        out.insert(0, out.pop(first))
        if out[0][0] != self.start:  # the block's check starts at its first instruction
            out.append([out[0][0], self.start])
            out[0][0] = self.start
        return [(a, b) for a, b in out]

    def module(self) -> ast.Module:
        """The block as a module: residual routines, then ``_block``."""
        if self.loops and self.stores & self.addresses:
            # It stores into its own code: never go round again, leave instead.
            for out, again, leave in self.loopbacks:
                out[out.index(again)] = leave
        flags = [f"{f} = 0" for f, on in (("_smc", self.smc), ("_chk", self.check)) if on]
        body = self.body
        if self.loops:
            flags += ["_n = 0", "_lim = (left - _COUNT) << 18"]
            loop = ast.parse("while True: pass").body[0]
            assert isinstance(loop, ast.While)
            loop.body = body
            body = [loop]
        else:
            for leave in self.returns:  # no earlier times round: return the constant
                assert isinstance(leave.value, ast.BinOp)
                leave.value = leave.value.right
        fn = ast.parse(f"def _block({', '.join(ARRAYS)}, left): pass").body[0]
        assert isinstance(fn, ast.FunctionDef)
        fn.body = [*(ast.parse(f).body[0] for f in flags), *body]
        residuals = residual_defs(self.memsize, self.optab, self.residuals)
        return ast.Module(body=[*residuals, fn], type_ignores=[])

    def compile(self) -> Callable[..., int]:
        module = self.module()
        namespace: dict[str, Any] = {
            "_LO": min(self.addresses),  # stores in here may hit the block
            "_HI": max(self.addresses) + 1,
            "_COUNT": self.count,
            "_BOUND": self.bound,
        }
        exec(compile(module, f"<pdp6 block {self.start:06o}>", "exec"), namespace)  # noqa: S102
        return namespace["_block"]  # type: ignore[no-any-return]


def extend(t: Translation, mem: Any, bp: Any, pc: int) -> Translation:
    """Translate a block from ``pc`` (t.start is -1 if not even one instruction could be)."""
    t.grow(mem, bp, pc)
    return t


def _locate(node: Any, fill: bool = True) -> Any:
    """Give ``node`` and everything in it the line numbers compile() wants (all 1), and
    (``fill``) an empty ``if`` body a ``pass``."""
    stack = [node]
    while stack:
        n = stack.pop()
        if "lineno" in n._attributes:
            n.lineno = n.end_lineno = 1
            n.col_offset = n.end_col_offset = 0
        if fill and isinstance(n, ast.If | ast.For | ast.While) and not n.body:
            n.body = [ast.Pass(lineno=1, col_offset=0, end_lineno=1, end_col_offset=0)]
        for f in n._fields:
            v = getattr(n, f, None)
            if isinstance(v, list):
                stack.extend(x for x in v if isinstance(x, ast.AST))
            elif isinstance(v, ast.AST):
                stack.append(v)
    return node


def _same(mem: Any, stretches: tuple[tuple[int, int, list[int]], ...]) -> bool:
    return all(mem[a:b] == words for a, b, words in stretches)


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
        self.heat: dict[int, int] = {}

    def breakpoints_changed(self) -> None:
        self.blocks.clear()

    def translate(self, mem: Any, bp: Any, pc: int) -> Block:
        if pc < 16 or pc >= self.memsize or bp[pc]:
            return SLOW
        known = SHARED.get((pc, self.memsize))
        if known is not None:
            stretches = ((pc, known[3], known[4]), *known[6])
            if _same(mem, stretches) and not any(any(bp[a:b]) for a, b, _ in stretches):
                return known
        t = extend(Translation(self.memsize, self.optab), mem, bp, pc)
        if t.start < 0:
            return SLOW
        fn = t.compile()
        (_, end), *rest = t.stretches()
        others = tuple((a, b, list(mem[a:b])) for a, b in rest)
        block = (fn, t.count, t.bound, end, list(mem[pc:end]), t.flag_bits, others)
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
                # Translate code that runs often; the rest is not worth the time.
                heat = self.heat[pc] = self.heat.get(pc, 0) + 1
                b = blocks[pc] = self.translate(mem, bp, pc) if heat >= HOT else SLOW
                if heat < HOT:
                    del blocks[pc]
            fn, count, bound, end, words, flag_bits, others = b
            if (
                quiet
                and count <= left
                and st[TIME] + bound < st[EVENT]
                and not flag_bits & danger
                and mem[pc:end] == words
                and (not others or _same(mem, others))
            ):
                r = fn(mem, st, io, ioq, left)
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
    t = extend(Translation(memsize, tuple(int(x) for x in build())), core, bytes(memsize), pc)
    return ast.unparse(t.module())
