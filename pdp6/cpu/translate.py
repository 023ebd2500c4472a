"""The plain-Python engine: PDP-6 code translated, a block at a time, into Python.

CPython spends most of an interpreted instruction on the interpreting (fetch, decode,
calls, state lookups), so the plain engine specializes ``loop.execute`` for each
instruction word with :mod:`pdp6.cpu.specialize` (once per word and address) and
strings the results together into *blocks*: trees of paths from one address that follow
unconditional jumps, both sides of skips, and a PUSHJ's callee back to its return; a
path that comes back to the start loops inside the block's one Python function.  The
function returns ``count << 18 | next PC``, plus ``RECHECK`` when the runner must look
at the state again.

A block may run only when every instruction boundary inside it would have done
nothing in ``loop.run``; the runner checks that on entry:

* exec mode, no UUO inhibit or fault, and no interrupt to take: the runner does the
  boundary's PI latch itself (``access.blocks_quiet``); these change only in
  instructions the blocks leave to ``loop.run``, or by APR conditions, which end a block;
* the emulated clock cannot reach the next event inside the block (each block knows
  the most time its paths take, but for their last instruction);
* the instruction budget covers the whole block;
* the words in core are still the words it was translated from (self-modifying code;
  a store into the running block ends it after that instruction);
* no breakpoint inside (the cache is cleared when breakpoints change).

Anything else runs through ``loop.run`` itself, the same source as plain Python, in
stretches that stop where a translated block starts, so both paths give identical
results, which the tests check.

Translating costs far more than interpreting the code once, so only code that keeps
coming back is translated.  On a host with a second core the work goes to a helper
process (:mod:`pdp6.cpu.helper`): the engine grows each block from the instructions the
helper has specialized, asks it for the missing ones, has it compile the block, and
interprets meanwhile.  Until the helper first answers, and on a one-core host, the
engine translates by itself, while that stays within its share of the engine's work
(:meth:`BlockEngine.may_translate`).  A block another machine translated from the same
words costs nothing and is always taken.  What the specializer refuses it says, with the
routine and line (``refused``; ``pdp6 bench --why``; a DEBUG log).
"""

from __future__ import annotations

import ast
import logging
import marshal
from collections import Counter
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from .. import isa
from ..disasm import disassemble
from ..timing import CORE_READ_NS
from . import helper, routine_modules
from .specialize import (
    Effects,
    Facts,
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
    BOUNDARY,
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
    REASON,
    REASON_BREAK,
    REASON_IO,
    REASON_LIMIT,
    TIME,
)

LOG = logging.getLogger(__name__)  # debug: each address the translator refused, and why
RH = 0o777777
PUSHJ, POPJ = isa.BY_NAME["PUSHJ"].code, isa.BY_NAME["POPJ"].code
JUMPING = {isa.JRST, isa.JUMP, isa.AOJ, isa.SOJ, isa.AOBJ, isa.JUMPS}  # families with a target
# Instructions that always jump: with a computed target (POPJ, JRST @X, JRST (AC)) their
# path ends there, not at the next address (data, as often as not, after a POPJ).
ALWAYS_JUMP = {PUSHJ, POPJ} | {op.code for op in isa.OPCODES if op.family in (isa.JRST, isa.JUMPS)}
MAX_BLOCK = 32  # instructions translated for one block at most (paths may repeat one)
HOT = 8  # times a stretch of loop.run starts at an address before it is translated
# Instructions loop.run runs at most for the engine between looks at its blocks: a run
# through loop.run costs a call, and where stretches start samples how hot code is.
STRETCH = 256
SHARE = 0.25  # most of an engine's work (in instructions' worth of time) translating may take
# What translating costs, in instructions interpreted in the same time (measured on
# Mac Hack's search): specializing an instruction word first met, and compiling one
# instruction of a block.
SPECIALIZE_COST = 1000
COMPILE_COST = 40
SOURCES = load_sources(routine_modules())
ARRAYS = ("mem", "st", "io", "ioq")

# fn, count, bound, end and words of the first stretch, PC flags set, other stretches
Block = tuple[Any, int, int, int, list[int], int, tuple[tuple[int, int, list[int]], ...]]
SLOW: Block = (None, 1 << 62, 0, 0, [], 0, ())  # run this address through loop.run
# Added to a block's result when the runner must look at the state again (a stop reason,
# queued I/O, PI or APR changes): count << 18 | PC stays below it.
RECHECK = 1 << 40
# Blocks depend only on their address, words and the core size, so machines share them
# (tests and benchmarks build many machines that run the same programs).
SHARED: dict[tuple[int, tuple[int, int]], Block] = {}
SHARED_MAX = 50_000
# The helper process's work in flight, for the whole process like SHARED: instruction
# words asked for (translator number, word, address), and blocks being compiled (by
# SHARED's key) with the words they were made from.
ASKED: set[tuple[int, int, int]] = set()
COMPILING: dict[tuple[int, tuple[int, int]], tuple[Translation, int, list[int], Any]] = {}
AHEAD = 8  # words asked for from a missing one on (code mostly runs on in sequence)
POLL = 16  # stretches of loop.run (or blocks) between looks for the helper's answers
# What a block costs the engine's own process when the helper translates it (growing
# it from instructions already specialized, loading its code), per instruction.
HELPER_COST = 20


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
        # The PI sampling inside ILDB/IDPB finds nothing to take: nothing was takeable
        # when the block began (access.blocks_quiet), the clock cannot tick inside it,
        # and an APR condition raised earlier in a block ends it.  (Within one instruction,
        # the specializer declines the sampling after anything that could request.)
        quiet={"pi_latch": None, "pi_takeable": 0},
    )


@dataclass(frozen=True)
class Instruction:
    """One instruction word at one address, specialized once and reused by every block.

    Its code starts from a clean state (nothing known about core, no time pending), so
    it fits wherever the instruction is reached; ``time`` and ``slots`` are what it
    leaves pending for the block to add or store later.
    """

    lines: list[str]  # its Python
    nxt: str  # the next PC: a constant or a name
    time: int
    spent: int
    slots: dict[int, int]
    effects: Effects
    taken: int | None  # the target of a skip or conditional jump, when known


class Translator:
    """The specializer for one core size and opcode table, and what it has made: each
    instruction's code by (word, address), and the text of its residual routines."""

    def __init__(self, memsize: int, optab: tuple[int, ...], number: int = 0) -> None:
        self.memsize = memsize
        self.optab = optab
        self.number = number  # how the helper process knows it
        self.named = False  # told the helper its core size and opcode table
        self.spec = Specializer(SOURCES, facts(memsize))
        self.instructions: dict[tuple[int, int], Instruction | None] = {}
        self.refused: dict[tuple[int, int], str] = {}  # why an instruction was not translated
        self.residual_text: dict[str, str] = {}

    def specialized(self, ir: int, pc: int) -> Instruction | None:
        """``loop.execute`` specialized for ``ir`` at ``pc``; None if it must run in
        loop.run."""
        if (ir, pc) in self.instructions:
            return self.instructions[(ir, pc)]
        spec = self.spec
        spec.effects = Effects()
        st = State({}, time=CORE_READ_NS, spent=CORE_READ_NS)  # the fetch, as loop.run charges
        npc = (pc + 1) & RH
        code: list[ast.stmt] = []
        args: list[ast.expr] = [name(a) for a in ARRAYS]
        args += [const(self.optab), const(ir), const(pc), const(npc)]
        entry: Instruction | None = None
        try:
            nxt = spec.inline(SOURCES["execute"], args, st, code)
        except Unsupported as exc:
            self.refused[(ir, pc)] = f"{disassemble(ir)}: {exc}"
        else:
            taken = None
            if isinstance(nxt, ast.Name):
                targets = set(spec.choices.get(nxt.id, ())) - {npc}
                taken = targets.pop() if len(targets) == 1 else None
            keep = frozenset({nxt.id} if isinstance(nxt, ast.Name) else ())
            lines = _text(tidy(code, keep))
            next_pc = ast.unparse(nxt)
            entry = Instruction(lines, next_pc, st.time, st.spent, st.slots, spec.effects, taken)
        if len(self.instructions) >= 8 * SHARED_MAX:
            self.instructions.clear()
            self.refused.clear()
        self.instructions[(ir, pc)] = entry
        return entry

    def residual_texts(self, names: set[str]) -> dict[str, str]:
        """The Python of the residual routines called by name, by name."""
        missing = names - self.residual_text.keys()
        for fname, node, _ in self.spec.residuals.values():
            if fname in missing:
                self.residual_text[fname] = ast.unparse(node)
        return {fname: self.residual_text[fname] for fname in sorted(names)}

    def learn(self, ir: int, pc: int, entry: Instruction | None, refused: str | None,
              texts: dict[str, str]) -> None:  # fmt: skip
        """Take an instruction the helper process specialized."""
        self.instructions[(ir, pc)] = entry
        if refused is not None:
            self.refused[(ir, pc)] = refused
        self.residual_text.update(texts)


_TRANSLATORS: dict[tuple[int, tuple[int, ...]], Translator] = {}


def translator(memsize: int, optab: tuple[int, ...]) -> Translator:
    key = (memsize, optab)
    if key not in _TRANSLATORS:
        _TRANSLATORS[key] = Translator(memsize, optab, len(_TRANSLATORS))
    return _TRANSLATORS[key]


def take(answers: list[Any]) -> tuple[list[tuple[int, int]], list[tuple[int, Any]]]:
    """Take the helper's answers: instructions into their translator, compiled blocks
    into SHARED, where every engine finds them.  Returns the instructions (word,
    address) and the blocks (SHARED's keys) that came in."""
    by_number = {tr.number: tr for tr in _TRANSLATORS.values()}
    learned, published = [], []
    for answer in answers:
        if answer[0] == "ins":
            tr = by_number[answer[1]]
            for ir, pc, entry, refused, texts in answer[2]:
                tr.learn(ir, pc, entry, refused, texts)
                learned.append((ir, pc))
        else:
            _, key, code = answer
            t, end, words, others = COMPILING.pop(key)
            publish(key, (t.compile(marshal.loads(code)), t.count, t.bound, end, words,
                          t.flag_bits, others))  # fmt: skip
            published.append(key)
    return learned, published


def targets(ir: int) -> int | None:
    """Where a jump or call goes when it is taken, if its word says (no index, no @)."""
    op = isa.OPCODES[ir >> 27]
    if ir >> 18 & 0o37 or not (op.family in JUMPING or op.code == PUSHJ):
        return None
    return ir & RH


def publish(key: tuple[int, tuple[int, int]], block: Block) -> Block:
    if len(SHARED) >= SHARED_MAX:
        SHARED.clear()
    SHARED[key] = block
    return block


def made_from(t: Translation, mem: Any) -> tuple[int, list[int], Any]:
    """The end of a block's first stretch, its words, and its other stretches' words."""
    (_, end), *rest = t.stretches()
    return end, list(mem[t.start : end]), tuple((a, b, list(mem[a:b])) for a, b in rest)


def _text(stmts: list[ast.stmt]) -> list[str]:
    if not stmts:
        return []
    return ast.unparse(ast.Module(body=stmts, type_ignores=[])).split("\n")


class Nest:
    """``if test:`` with a body, in a block being built."""

    def __init__(self, test: str) -> None:
        self.test = test
        self.body: list[Item] = []


class Leave:
    """Leave the block after ``count`` instructions of this time round, for ``target``."""

    def __init__(self, count: int, target: str, recheck: bool) -> None:
        self.high = (count << 18) | (RECHECK if recheck else 0)
        self.target = target


class Again:
    """Back at the first instruction after ``count`` instructions: round the loop again."""

    def __init__(self, count: int, smc: bool) -> None:
        self.count = count
        self.smc = smc  # check first that no store hit the block


Item = str | Nest | Leave | Again


class Path:
    """One way through a block being translated: its code and what is known on it."""

    def __init__(self, body: list[Item], state: State, count: int, spent: int,
                 seen: frozenset[int], calls: tuple[int, ...] = ()) -> None:  # fmt: skip
        self.body = body
        self.state = state
        self.count = count  # instructions on this path so far
        self.spent = spent  # most emulated ns they take
        self.last = 0  # ... of which the last instruction
        self.seen = seen  # their addresses
        self.calls = calls  # return addresses of the PUSHJs followed, innermost last


class Translation:
    """The Python code of one block.

    A block is a tree of straight paths from its first instruction: unconditional jumps
    are followed, and a skip or conditional jump with a known target grows a second
    path; a path that comes back to the first instruction goes round a loop inside the
    function.  Everything else leaves the block, returning ``count << 18 | PC``.
    """

    def __init__(self, translator: Translator, ask: bool = False, most: int = MAX_BLOCK) -> None:
        self.translator = translator
        self.ask = ask  # end a path at an instruction not specialized yet, noting it
        self.most = most  # instructions translated at most
        self.missing: list[tuple[int, int]] = []  # those instructions: (word, address)
        self.memsize = translator.memsize
        self.residuals: set[str] = set()
        self.body: list[Item] = []
        self.start = -1  # address of the first instruction
        self.size = 0  # instructions translated (paths may repeat one)
        self.addresses: set[int] = set()
        self.stores: set[int] = set()  # constant addresses some instruction stores to
        self.smc = False
        self.check = False
        self.flag_bits = 0
        self.loops = False  # some path jumps back to the start: the body is a loop
        self.count = 0  # most instructions along one path
        self.bound = 0  # most ns along one path, but for its last instruction

    def grow(self, mem: Any, bp: Any, pc: int) -> Translation:
        """Translate from ``pc``: the main path first, then the paths that branch off.

        Afterwards ``start`` is -1 if not even the first instruction could be translated.
        """
        self.start = pc
        pending = [(pc, Path(self.body, State({}), 0, 0, frozenset()))]
        while pending:
            addr, path = pending.pop(0)
            self.follow(mem, bp, addr, path, pending)
        return self

    def follow(self, mem: Any, bp: Any, addr: int, path: Path,
               pending: list[tuple[int, Path]]) -> None:  # fmt: skip
        while True:
            if addr == self.start and path.count:
                self.jump(path, addr)  # fell or jumped back to the start
                return
            if (
                self.size >= self.most
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
            self.leave(path, str(addr & RH), path.body)
        elif path.body is self.body:
            self.start = -1  # not even the first instruction: nothing to translate

    def add(self, ir: int, pc: int, path: Path, pending: list[tuple[int, Path]]) -> int | None:
        """Translate ``ir`` at ``pc`` onto ``path``: the next address on the path, -1 if
        the path ends here, None if the instruction must be left to loop.run."""
        tr = self.translator
        if self.ask and (ir, pc) not in tr.instructions:
            self.missing.append((ir, pc))
            return None
        ins = tr.specialized(ir, pc)
        if ins is None:
            return None
        effects, nxt = ins.effects, ins.nxt
        npc = (pc + 1) & RH
        st = path.state.copy()
        if effects.reads_state or effects.direct & st.slots.keys():
            self.flush(st, path.body)  # it reads or stores what the block deferred
        st.time += ins.time
        st.slots.update(ins.slots)
        self.size += 1
        self.addresses.add(pc)
        self.stores |= effects.const_stores
        self.flag_bits |= effects.flag_bits
        self.smc |= effects.smc
        self.residuals |= effects.residuals
        path.body.extend(ins.lines)
        path.state = st
        path.count += 1
        path.spent += ins.spent
        path.last = ins.spent
        path.seen = path.seen | {pc}
        if effects.check:
            # An APR condition was raised or a routine ran: leave, and the runner looks.
            self.check = True
            path.body.append(raised := Nest("_chk"))
            self.leave(path, nxt, raised.body, recheck=True)
        if effects.ends_block:
            self.leave(path, nxt, path.body, recheck=True)
            return -1
        if nxt.isdigit():
            target = int(nxt)
            if target == npc:
                self.moved(path, effects, npc)
                return npc
            if target != self.start and self.size < self.most and target not in path.seen:
                self.moved(path, effects, target)
                if ir >> 27 == PUSHJ:
                    path.calls = (*path.calls, npc)
                return target  # an unconditional jump: the path goes on there
            self.jump(path, target)
            return -1
        if ir >> 27 == POPJ and path.calls and ins.taken is None:
            # Most likely back to the PUSHJ this path followed: go on there, else leave.
            back = path.calls[-1]
            path.calls = path.calls[:-1]
            path.body.append(elsewhere := Nest(f"{nxt} != {back}"))
            self.leave(path, nxt, elsewhere.body)
            self.moved(path, effects, back)
            return back
        if ir >> 27 in ALWAYS_JUMP:
            self.leave(path, nxt, path.body)
            return -1
        # A skip or conditional jump: grow the taken path too when its target is known.
        path.body.append(taken := Nest(f"{nxt} != {npc}"))
        branch = Path(taken.body, st.copy(), path.count, path.spent, path.seen, path.calls)
        branch.last = path.last
        if ins.taken is None:
            self.leave(branch, nxt, taken.body)
        elif ins.taken == self.start or ins.taken in path.seen:
            self.jump(branch, ins.taken)
        else:
            self.moved(branch, effects, ins.taken)
            pending.append((ins.taken, branch))
        self.moved(path, effects, npc)
        return npc

    def moved(self, path: Path, effects: Effects, nxt: int) -> None:
        """Before going on to ``nxt``: leave if this instruction stored into the block."""
        if effects.smc:
            path.body.append(hit := Nest("_smc"))
            self.leave(path, str(nxt), hit.body)

    def jump(self, path: Path, target: int) -> None:
        """Go to ``target``: round the loop again if it is the start, else leave."""
        if target != self.start:
            self.leave(path, str(target), path.body)
            return
        self.loops = True
        self.note_end(path)
        self.flush(path.state.copy(), path.body)
        path.body.append(Again(path.count, self.smc))

    def leave(self, path: Path, target: str, out: list[Item], recheck: bool = False) -> None:
        self.note_end(path)
        self.flush(path.state.copy(), out)
        out.append(Leave(path.count, target, recheck))

    def flush(self, st: State, out: list[Item]) -> None:
        """Emit the time and state stores deferred on a path."""
        if st.time:
            out.append(f"st[{TIME}] += {st.time}")
        out.extend(f"st[{slot}] = {v}" for slot, v in sorted(st.slots.items()))
        st.time, st.slots = 0, {}

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

    def source(self) -> str:
        """The block as Python: the residual routines it calls, then ``_block``."""
        # A block that stores into its own code never goes round again: it leaves.
        looping = self.loops and not self.stores & self.addresses
        lines = [f"def _block({', '.join(ARRAYS)}, left):"]
        lines += [f"    {f} = 0" for f, on in (("_smc", self.smc), ("_chk", self.check)) if on]
        if looping:
            lines += ["    _n = 0", "    _lim = (left - _COUNT) << 18", "    while True:"]
        self.render(self.body, "        " if looping else "    ", looping, lines)
        return "\n".join([*self.translator.residual_texts(self.residuals).values(), *lines])

    def render(self, items: list[Item], pad: str, looping: bool, out: list[str]) -> None:
        n = "_n + " if looping else ""
        for item in items:
            if isinstance(item, str):
                out.append(pad + item.replace("\n", "\n" + pad))
            elif isinstance(item, Nest):
                out.append(f"{pad}if {item.test}:")
                self.render(item.body or ["pass"], pad + "    ", looping, out)
            elif isinstance(item, Leave):
                value = str(item.high | int(item.target)) if item.target.isdigit() else (
                    f"{item.high} | {item.target}")  # fmt: skip
                out.append(f"{pad}return {n}{value}")
            elif looping:
                out.append(f"{pad}_n += {item.count << 18}")
                smc = " or _smc" if item.smc else ""
                out.append(f"{pad}if _n > _lim or st[{TIME}] + _BOUND >= st[{EVENT}]{smc}:")
                out.append(f"{pad}    return _n + {self.start}")
                out.append(f"{pad}continue")
            else:
                out.append(f"{pad}return {(item.count << 18) | self.start}")

    @property
    def filename(self) -> str:
        return f"<pdp6 block {self.start:06o}>"

    def compile(self, code: Any = None) -> Callable[..., int]:
        """The block's function; ``code``: its source compiled elsewhere (the helper)."""
        namespace: dict[str, Any] = {
            "_LO": min(self.addresses),  # stores in here may hit the block
            "_HI": max(self.addresses) + 1,
            "_COUNT": self.count,
            "_BOUND": self.bound,
        }
        if code is None:
            code = compile(self.source(), self.filename, "exec")
        exec(code, namespace)  # noqa: S102
        return namespace["_block"]


def _same(mem: Any, stretches: tuple[tuple[int, int, list[int]], ...]) -> bool:
    for a, b, words in stretches:
        if mem[a:b] != words:
            return False
    return True


class BlockEngine:
    """``loop.run``'s interface, running translated blocks where it can.

    ``plain`` holds the loop's routines as plain Python (``run``, ``pi_latch`` ...):
    ``run`` executes everything the blocks do not.  One engine belongs to one machine
    (its block cache describes that machine's core).
    """

    def __init__(self, plain: dict[str, Callable[..., Any]]) -> None:
        self.step = plain["run"]
        self.pi_quiet = plain["blocks_quiet"]
        self.dis_settle = plain["dis_settle"]  # (loop.run's last step, after blocks too)
        self.blocks: dict[int, Block] = {}
        self.memsize = -1
        self.optab: tuple[int, ...] = ()
        self.key = (0, 0)  # core size and opcode table: what shared blocks depend on
        self.slow_steps = 0  # instructions run through loop.run (for pdp6 bench)
        self.heat: dict[int, int] = {}
        self.hot = HOT
        self.share: float | None = SHARE
        self.executed = 0  # instructions this engine has run
        self.cost = 0  # what its translations cost, in instructions' worth of time
        self.refused: dict[int, str] = {}  # why the code at an address was not translated
        # Where loop.run must stop so that a block can be entered: the breakpoints and
        # every translated block's start (rebuilt when the breakpoints change).
        self.stops: bytearray | None = None
        self.why: Counter[str] | None = None  # set a Counter to count slow steps by reason
        # Translate in the helper process (a second core), not in this one.
        self.use_helper = helper.wanted()
        # Block start -> the instructions (word, address) it waits for from the helper.
        self.waiting: dict[int, list[tuple[int, int]]] = {}
        self.expecting: set[int] = set()  # block starts the helper is working for
        self.waiters: dict[tuple[int, int], set[int]] = {}  # instruction -> blocks waiting

    def translate_at_once(self) -> None:
        """Translate every block the first time it is reached, whatever it costs: for
        tests, so that everything they run also tests its translation."""
        self.hot = 1
        self.share = None
        self.use_helper = False

    def breakpoints_changed(
        self, added: AbstractSet[int] = frozenset(), removed: AbstractSet[int] = frozenset()
    ) -> None:  # noqa: E501
        """The machine's breakpoints moved (``added``, ``removed``): the blocks are looked
        up again, each checking the breakpoints as it is taken."""
        self.blocks.clear()
        self.stops = None

    def translate(self, mem: Any, bp: Any, pc: int, allowed: bool,
                  ask: bool = False) -> Block | None:  # fmt: skip
        """The block at ``pc``: one another machine translated from the same words (it
        costs nothing), else a new one if ``allowed`` (translation is within its share
        of the work), else one the helper process is asked for if ``ask`` (None: not
        now, ask again later)."""
        block = self._shared(mem, bp, pc)
        if block is None and (allowed or ask):
            aid = helper.shared() if ask else None
            if aid is not None and (not allowed or pc in self.expecting):
                block = self._ask(aid, translator(self.memsize, self.optab), mem, bp, pc)
            elif allowed:
                block = self._translate(mem, bp, pc)
        if block is None:
            return None
        if self.stops is not None:
            self.stops[pc] = block is not SLOW or bp[pc]
        if block is SLOW:
            self.refused[pc] = why = self._refusal(mem, bp, pc)
            LOG.debug("not translated at %06o: %s", pc, why)
        else:
            self.refused.pop(pc, None)
        return block

    def _refusal(self, mem: Any, bp: Any, pc: int) -> str:
        if pc < 16:
            return "code in the accumulators"
        if pc >= self.memsize:
            return "outside core"
        if bp[pc]:
            return "a breakpoint"
        tr = translator(self.memsize, self.optab)
        return tr.refused.get((int(mem[pc]), pc), f"{disassemble(int(mem[pc]))}: not translated")

    def _shared(self, mem: Any, bp: Any, pc: int) -> Block | None:
        """The block some machine translated at ``pc`` from the words now in core."""
        known = SHARED.get((pc, self.key))
        if known is None or pc < 16 or pc >= self.memsize or bp[pc]:
            return None
        stretches = ((pc, known[3], known[4]), *known[6])
        if _same(mem, stretches) and not any(any(bp[a:b]) for a, b, _ in stretches):
            return known
        return None

    def _translate(self, mem: Any, bp: Any, pc: int) -> Block:
        if pc < 16 or pc >= self.memsize or bp[pc]:
            return SLOW
        tr = translator(self.memsize, self.optab)
        known = len(tr.instructions)
        t = Translation(tr).grow(mem, bp, pc)
        self.cost += SPECIALIZE_COST * max(0, len(tr.instructions) - known)
        if t.start < 0:
            return SLOW
        self.cost += COMPILE_COST * t.size
        end, words, others = made_from(t, mem)
        return publish((pc, self.key), (t.compile(), t.count, t.bound, end, words,
                                        t.flag_bits, others))  # fmt: skip

    def _ask(self, aid: helper.Helper, tr: Translator, mem: Any, bp: Any,
             pc: int) -> Block | None:  # fmt: skip
        """Have the helper process translate the block at ``pc``: None until it has
        (the block then comes through SHARED), or SLOW if it cannot be translated.

        The block is grown here from the instructions the helper has specialized; at
        one it has not, the helper is asked for that word and the next few, and the
        block is grown again when answers have come in."""
        if pc < 16 or pc >= self.memsize or bp[pc]:
            return SLOW
        self.expecting.add(pc)
        if (pc, self.key) in COMPILING or not self.ready(tr, pc):
            return None
        t = Translation(tr, ask=True).grow(mem, bp, pc)
        if t.missing:
            if not tr.named:
                aid.ask(("key", tr.number, tr.memsize, tr.optab), answered=False)
                tr.named = True
            # Each missing word and the next few, and where those jump to.
            if len(ASKED) >= 8 * SHARED_MAX:  # (as the translator forgets, when as full)
                ASKED.clear()
            words: list[tuple[int, int]] = []
            todo = [at for _, at in t.missing]
            for at in todo:
                for a in range(at, min(at + AHEAD, tr.memsize)):
                    ir = int(mem[a])
                    if (ir, a) not in tr.instructions and (tr.number, ir, a) not in ASKED:
                        ASKED.add((tr.number, ir, a))
                        words.append((ir, a))
                        if len(todo) < 4 * AHEAD and (y := targets(ir)) is not None:
                            todo.append(y)
            if words:
                aid.ask(("ins", tr.number, words))
            self.waiting[pc] = t.missing
            for ins in t.missing:
                self.waiters.setdefault(ins, set()).add(pc)
            return None
        self.waiting.pop(pc, None)
        if t.start < 0:
            self.expecting.discard(pc)
            return SLOW
        self.cost += HELPER_COST * t.size
        COMPILING[(pc, self.key)] = (t, *made_from(t, mem))
        aid.ask(("code", (pc, self.key), t.source(), t.filename))
        return None

    def ready(self, tr: Translator, pc: int) -> bool:
        """Whether the block at ``pc`` has all it waited for from the helper."""
        return all(ins in tr.instructions for ins in self.waiting.get(pc, ()))

    def collect(self, aid: helper.Helper, mem: Any, bp: Any) -> None:
        """Take the helper's answers, and go on with the blocks waiting for them."""
        answers = aid.answers()
        if not answers:
            return
        learned, published = take(answers)
        tr = translator(self.memsize, self.optab)
        ready = {pc for pc, key in published if key == self.key and pc in self.expecting}
        for ins in learned:
            ready.update(pc for pc in self.waiters.pop(ins, ()) if self.ready(tr, pc))
        for pc in ready:
            block = self.translate(mem, bp, pc, False, True)
            if block is not None:
                self.expecting.discard(pc)
                self.blocks[pc] = block

    def settle(self) -> None:
        """Wait for the helper to be up and to have answered everything asked so far,
        and take the answers (for tests and benchmarks that want translation settled)."""
        aid = helper.shared() if self.use_helper else None
        if aid is not None:
            aid.ask(("code", None, "", "<ping>"))
            take([a for a in aid.wait() if a[:2] != ("code", None)])

    def __call__(
        self, mem: Any, st: Any, io: Any, ioq: Any, optab: Any, bp: Any, max_n: int
    ) -> int:
        if st[MEMSIZE] != self.memsize or not self.optab:
            self.breakpoints_changed()
            self.memsize = st[MEMSIZE]
            self.optab = tuple(int(x) for x in optab)
            self.key = (self.memsize, hash(self.optab))
        st[REASON] = 0
        if self.stops is None:
            self.stops = bytearray(bp)
            for at, block in self.blocks.items():
                self.stops[at] = block[0] is not None
        stops = self.stops
        blocks = self.blocks
        step = self.step
        left = max_n  # instructions still to run
        reason = REASON_LIMIT
        first = st[FIRST]
        pi_quiet = self.pi_quiet
        quiet: bool | None = None  # looked at only before an instruction runs (it latches PI)
        danger = 0
        pc = st[PC]
        aid = helper.running() if self.use_helper else None
        expecting = self.expecting
        polls = 0
        while left > 0:
            if quiet is None:
                quiet, danger = pi_quiet(st)
            b = blocks.get(pc)
            if aid is not None and (b is None or expecting):
                # Between stretches, and between blocks while the helper owes some.
                polls += 1
                if not polls % POLL:
                    self.collect(aid, mem, bp)
                    b = blocks.get(pc)
            if b is None:
                # Translate code that runs often, within the time translation may take.
                # (A block another machine made from these words is taken at once.)
                heat = self.heat[pc] = self.heat.get(pc, 0) + 1
                hot = heat >= self.hot
                if aid is not None and not aid.alive:
                    aid = None
                    self.expecting.clear()
                if aid is not None and pc in self.expecting and heat % POLL:
                    found = None  # the helper has it in hand (collect takes it)
                else:
                    # In process while the helper starts, then only by the helper.
                    own = not (aid is not None and aid.answered)
                    found = self.translate(mem, bp, pc, hot and own and self.may_translate(
                        max_n - left), hot and self.use_helper)  # fmt: skip
                if aid is None and hot and self.use_helper:
                    aid = helper.running()
                if found is None:
                    b = SLOW
                else:
                    b = blocks[pc] = found
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
                st[BOUNDARY] = st[TIME]  # (for dis_settle: a block is one step)
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
                quiet = None
                continue
            # Everything else runs through loop.run, a stretch at a time: up to the next
            # block start (``stops``), a breakpoint, or STRETCH instructions.
            if bp[pc] and not first:
                reason = REASON_BREAK
                break
            st[PC] = pc
            st[FIRST] = 1
            before = st[COUNT]
            code = step(mem, st, io, ioq, optab, stops, min(left, STRETCH))
            ran = st[COUNT] - before
            st[COUNT] = before
            left -= ran
            self.slow_steps += ran
            if self.why is not None:
                self.why[self.slow_reason(st, pc, b, quiet, left + ran, danger)] += ran
            first = first and st[FIRST]  # (an interrupt that left the PC keeps it)
            pc = st[PC]
            quiet = None
            if code == REASON_BREAK and not (bp[pc] and not first):
                continue  # at a block's start
            if code != REASON_LIMIT:
                reason = code
                break
        st[PC] = pc
        st[COUNT] += max_n - left
        st[FIRST] = first
        self.executed += max_n - left
        self.dis_settle(io, st)
        return reason

    def may_translate(self, done: int) -> bool:
        """Whether translation so far is within its share of the engine's work
        (``share``; None: no limit), ``done`` instructions into this run.

        Translating a block costs as much time as interpreting thousands of
        instructions, which code that runs little never gives back.  The cost is counted
        in those instructions (``cost``), not in wall time, so that what runs translated
        does not depend on the host's speed; hot code comes back, and is translated
        when the share allows."""
        return self.share is None or self.cost <= self.share * (self.executed + done)

    def slow_reason(self, st: Any, pc: int, b: Block, quiet: bool, left: int,
                    danger: int) -> str:  # fmt: skip
        """Why the instruction at ``pc`` runs through loop.run rather than in a block."""
        fn, count, bound, end, words, flag_bits, others = b
        if not quiet:
            if st[FLAGS] & F_USER:
                return "user mode"
            if st[INHIBIT] or st[FAULT] or st[PI_CYCLE]:
                return "a UUO, fault or interrupt cycle in progress"
            return "an interrupt to take or an event due"
        if fn is None:
            if pc in self.refused:
                return self.refused[pc]
            if pc in self.expecting:
                return "hot, waiting for the helper process to translate it"
            if self.heat.get(pc, 0) >= self.hot:
                return "hot, waiting for translation's share of the engine's work"
            return "not run often enough yet to translate"
        if count > left:
            return "the run's instruction budget ends inside the block"
        if st[TIME] + bound >= st[EVENT]:
            return "a clock tick or device event falls due inside the block"
        if flag_bits & danger:
            return "may set a PC flag an enabled APR interrupt watches"
        return "the code changed since it was translated"


def python_of(words: list[int], pc: int, memsize: int = 1 << 18) -> str:
    """The Python a block of ``words`` at ``pc`` translates to (up to the block's end).

    For the curious, the docs and the tests: ``pdp6.cpu.translate.python_of([w], 0o100)``.
    """
    from .optable import build

    core = [0] * memsize
    core[pc : pc + len(words)] = words
    t = Translation(translator(memsize, tuple(int(x) for x in build()))).grow(
        core, bytes(memsize), pc
    )
    return t.source() if t.start >= 0 else ""
