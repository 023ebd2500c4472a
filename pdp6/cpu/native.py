"""The native engine: hot PDP-6 code as machine code, through LLVM.

The blocks are the python engine's (:mod:`pdp6.cpu.translate`: the loop's own routines
specialized for each instruction word, strung into paths), compiled to machine code
by :mod:`pdp6.cpu.llvmgen` and called from a compiled loop (:mod:`pdp6.cpu.nativeloop`)
that runs ``loop.run``, numba-compiled, for everything else.  So the engine has the
compiled engine's semantics, timing and interrupts by construction, and each block
checks on entry, in its own code, that core still holds the words it was made from
(self-modifying code, XCT of changed words and loading a new program all meet it).
A block goes on to the next by a jump of its own, through the machine's tables (``ctx``),
rather than back through the loop.

Translating a block costs some 50 ms (the specializer in Python, then LLVM), the
time the compiled loop takes for some five million instructions, so it is done on a
thread of its own while the loop goes on: an address where ``HOT`` stretches of
``loop.run`` started is queued; the thread translates it from a copy of core and the
engine takes the block between calls of the loop.  Blocks are kept for the process
and shared by machines whose core holds the same words.  What runs as a block then
depends on the host's timing, never what the machine does (the tests compare the
engines to the bit, translating every block at once).
"""

from __future__ import annotations

import collections
import gc
import importlib.util
import queue
import sys
import threading
import time
import weakref
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import jit as jitmod
from ..memory import ADDRESS_SPACE
from . import dis340, llvmgen, translate
from . import state as S

AVAILABLE = jitmod.ENABLED and importlib.util.find_spec("llvmlite") is not None
HOT = 8  # stretches of loop.run that start at an address before it is translated
# Instructions after which every address's count of stretches is halved: code is hot
# when it comes back often, not once in a while over a long game (Mac Hack's search
# ran slower with its lukewarm code translated too: more machine code, measured).
COOL = 2_000_000
CAPACITY = 1 << 15  # blocks one machine's tables hold (then they are emptied and refilled)
CHUNK = 1_000_000  # instructions the loop runs between looks for translated blocks
SWITCH_S = 0.0005  # Python's thread switch interval once the translating thread runs
HOTQ = 256  # hot addresses the loop queues before it hands them to the engine
ARRAYS = {"mem": ADDRESS_SPACE, "st": S.SIZE, "io": dis340.IO_SIZE, "ioq": 3 * S.IOQ_MAX}
ST_INDEXES = {"TIME": S.TIME, "EVENT": S.EVENT, "BOUNDARY": S.BOUNDARY}  # (for the entries)
REFUSED = -(1 << 30)  # an address's heat once it cannot be translated: never hot again
# Times the words under an address's block may change (the block found stale as it was
# entered, or before it was installed), after which the address is left to loop.run:
# code that rewrites itself as it runs (a counter kept in an instruction) would
# otherwise cost a translation, or at least a return to Python, every few times it runs.
# (A block dropped for a breakpoint does not count: sessions move theirs every search.)
RETRANSLATIONS = 4
# Instructions one block translates at most.  Blocks overlap (each runs on into code
# other blocks start at), and Mac Hack's 1,800 hot ones at 32 made more machine code than
# the host's caches hold; a call ran 4.4 PDP-6 instructions on average, and checked all
# the block's words first.  Since blocks go straight on to the next one, shorter blocks
# cost less: Mac Hack's search against the compiled engine, medians of runs of 5
# alternating rounds, 1.97x at 12 (runs 1.94-2.01), 1.89 at 16 (1.81-1.95), 1.95 at 10
# and at 8 (measured; at 32 1.83 and at 64 1.66 before blocks went on to the next).
MOST = 12


@dataclass(frozen=True)
class NativeBlock:
    """A block's machine code and the facts the loop checks before entering it."""

    address: int  # of its entry, which checks the words and returns MISS if they changed
    count: int
    bound: int
    flags: int
    stretches: tuple[tuple[int, int, tuple[int, ...]], ...]  # (first, end, words)

    def holds(self, mem: Any) -> bool:
        """Whether core holds its words."""
        return all(tuple(int(w) for w in mem[a:b]) == words for a, b, words in self.stretches)

    def clear(self, bp: Any) -> bool:
        """Whether no breakpoint is on its words (a block that loops comes back to its
        start without the loop's look at the breakpoints)."""
        return not any(bp[a:b].any() for a, b, _ in self.stretches)

    def fits(self, mem: Any, bp: Any) -> bool:
        return self.clear(bp) and self.holds(mem)


class Jit:
    """LLVM for the process: one target machine and one MCJIT engine, to which every
    block is added as a module of its own.  llvmlite is not safe from two threads at
    once, nor beside numba compiling: everything that compiles holds ``LOCK``."""

    def __init__(self) -> None:
        import llvmlite.binding as llvm

        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        self.llvm = llvm
        self.machine = llvm.Target.from_default_triple().create_target_machine(
            cpu=llvm.get_host_cpu_name(), features=llvm.get_host_cpu_features().flatten(), opt=2
        )
        self.engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), self.machine)
        self.modules = 0

    def add(self, module: Any, entry: str) -> int:
        """Compile ``module`` (optimized as clang's -O2) and return ``entry``'s address."""
        llvm = self.llvm
        compiled = llvm.parse_assembly(str(module))
        compiled.verify()
        passes = llvm.create_pass_builder(
            self.machine, llvm.create_pipeline_tuning_options(speed_level=2)
        )
        passes.getModulePassManager().run(compiled, passes)
        self.engine.add_module(compiled)
        self.engine.finalize_object()
        self.modules += 1
        return int(self.engine.get_function_address(entry))


LOCK = threading.RLock()
_JIT: Jit | None = None
_DRIVER: Any = None
# Blocks by (address, core size and opcode table), for every machine of the process.
CACHE: dict[tuple[int, tuple[int, int]], list[NativeBlock]] = {}
CACHE_MAX = 50_000
_TRANSLATORS: dict[tuple[int, tuple[int, ...]], translate.Translator] = {}


def driver() -> Any:
    """The native loop, compiled with ``loop.run`` (from numba's cache after the first
    time), and LLVM ready."""
    global _DRIVER, _JIT
    with LOCK:
        if _DRIVER is None:
            import numba

            from . import nativeloop, routine_modules

            jitmod.compile_modules(routine_modules())  # numba's in place of the routines
            with jitmod.build_lock():
                _DRIVER = numba.njit(cache=True, nogil=True, _nrt=False)(nativeloop.run)
                _DRIVER.compile(
                    "int64(int64[::1], int64[::1], int64[::1], int64[::1], int64[::1], "
                    "uint8[::1], uint8[::1], int64, int64[::1], int64[:, ::1], int64[::1], "
                    "int64[::1], int64, int64[::1], int64[::1])"
                )
            _JIT = Jit()
    return _DRIVER


def make_block(memsize: int, optab: tuple[int, ...], mem: Any, bp: Any,
               pc: int) -> NativeBlock | str:  # fmt: skip
    """Translate and compile the block at ``pc`` from ``mem`` (a copy the caller does
    not change meanwhile); the reason if it cannot be.

    Python's cycle collector is held off meanwhile: the translation makes some hundred
    thousand short-lived objects, and collections over the long-lived ones (every
    instruction specialized so far) took a fifth of the time (measured)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _make_block(memsize, optab, mem, bp, pc)
    finally:
        if collecting:
            gc.enable()


def _make_block(memsize: int, optab: tuple[int, ...], mem: Any, bp: Any,
                pc: int) -> NativeBlock | str:  # fmt: skip
    with LOCK:
        key = (memsize, optab)
        tr = _TRANSLATORS.get(key)
        if tr is None:
            tr = _TRANSLATORS[key] = translate.Translator(memsize, optab)
        t = translate.Translation(tr, most=MOST).grow(mem, bp, pc)
        if t.start < 0:
            ir = int(mem[pc])
            return tr.refused.get((ir, pc), "not translated")
        consts = {"_LO": min(t.addresses), "_HI": max(t.addresses) + 1, "_COUNT": t.count,
                  "_BOUND": t.bound}  # fmt: skip
        assert _JIT is not None
        name = f"b{_JIT.modules}"
        try:
            module = llvmgen.compile_module(t.source(), ARRAYS, consts, "_block", name + "_")
        except llvmgen.Unsupported as exc:
            return f"LLVM: {exc}"
        stretches = tuple((a, b, tuple(int(w) for w in mem[a:b])) for a, b in t.stretches())
        words = [(a + i, w) for a, _, ws in stretches for i, w in enumerate(ws)]
        llvmgen.add_entry(module, name + "__block", name, pc, words, ST_INDEXES, translate.RECHECK)
        address = _JIT.add(module, name)
        return NativeBlock(address, t.count, t.bound, t.flag_bits, stretches)


def _translating() -> None:
    """The translating thread: for each engine that asks, translates its hottest wanted
    address from its latest copy of core, until none is left, and hands each block
    (or the reason there is none) to the engine."""
    while True:
        engine = WORK.get()()
        while engine is not None:
            with engine.lock:
                if not engine.wanted:
                    break
                wanted = np.fromiter(engine.wanted, dtype=np.int64, count=len(engine.wanted))
                pc = int(wanted[engine.heat[wanted].argmax()])
                engine.wanted.discard(pc)
                engine.in_hand += 1
                core, bp = engine.snapshot
            memsize, optab = engine.key
            engine.inbox.append((pc, make_block(memsize, optab, core, bp, pc)))
            with engine.lock:
                engine.in_hand -= 1


WORK: queue.SimpleQueue[Any] = queue.SimpleQueue()  # engines with addresses wanted
_THREAD: threading.Thread | None = None


def _start_thread() -> None:
    """Start the translating thread.  Python then switches threads every half
    millisecond (not five): the loop, between its chunks, waits for the interpreter
    while the thread translates, and would otherwise lose half its time doing so."""
    global _THREAD
    if _THREAD is None:
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_S))
        _THREAD = threading.Thread(target=_translating, name="pdp6-native", daemon=True)
        _THREAD.start()


class NativeEngine:
    """``loop.run``'s interface for one machine: its block tables and translation."""

    def __init__(self) -> None:
        self.run = driver()
        self.bidx = np.full(ADDRESS_SPACE, -1, dtype=np.int64)
        self.binfo = np.zeros((CAPACITY, llvmgen.B_WIDTH), dtype=np.int64)
        self.addrs = np.zeros(CAPACITY, dtype=np.int64)
        self.heat = np.zeros(ADDRESS_SPACE, dtype=np.int64)
        self.hotq = np.zeros(HOTQ + 2, dtype=np.int64)  # [count, at once, addresses...]
        self.hot = HOT
        self.since_cooled = 0  # instructions run since the heat was last halved
        self.used = 0  # rows of binfo and addrs in use
        self.installed: dict[int, NativeBlock] = {}
        self.refused: dict[int, str] = {}  # why the code at an address was not translated
        self.changes: collections.Counter[int] = collections.Counter()  # by address
        self.stops = np.zeros(ADDRESS_SPACE, dtype=np.uint8)  # breakpoints, block starts
        self.bp: Any = None  # the machine's breakpoints (its array, for its life)
        # The blocks' look at the tables, to go on to the next block (llvmgen.add_entry).
        self.ctx = np.zeros(llvmgen.C_SIZE, dtype=np.int64)
        for slot, table in ((llvmgen.C_BIDX, self.bidx), (llvmgen.C_BINFO, self.binfo),
                            (llvmgen.C_ADDRS, self.addrs)):  # fmt: skip
            self.ctx[slot] = table.ctypes.data
        self.covering: dict[int, set[int]] = {}  # address -> starts of blocks over it
        # Blocks set aside while a breakpoint is on their code: start -> row in binfo.
        self.suspended: dict[int, int] = {}
        self.key: tuple[int, tuple[int, ...]] = (0, ())
        self._cache_key = (0, 0)
        self.optab: Any = None
        self.inbox: collections.deque[tuple[int, NativeBlock | str]] = collections.deque()
        # What the translating thread works from: the addresses, hottest first, and the
        # latest copy of core and breakpoints (the block checks its words when taken).
        self.lock = threading.Lock()
        self.wanted: set[int] = set()
        self.snapshot: tuple[Any, Any] = (None, None)
        self.in_hand = 0  # addresses the thread is translating now

    def translate_at_once(self) -> None:
        """Translate every block the first time it is reached, in this thread: for tests,
        so that everything they run also tests its translation."""
        self.hot = 1
        self.hotq[1] = 1

    def breakpoints_changed(self, added: AbstractSet[int] = frozenset(),
                            removed: AbstractSet[int] = frozenset()) -> None:  # fmt: skip
        """The machine's breakpoints moved: a loop's stop at each, and no block running
        over one.  (A session moves its breakpoints hundreds of times a search: the
        blocks a new one falls in are only set aside, and come back with it gone.)"""
        for at in added:
            self.stops[at] = 1
            for pc in self.covering.get(at, ()):
                if self.bidx[pc] >= 0:
                    self.suspended[pc] = int(self.bidx[pc])
                    self.bidx[pc] = -1
                    self.stops[pc] = self.bp[pc]
        for at in removed:
            self.stops[at] = self.bidx[at] >= 0
        for at in removed:
            for pc in self.covering.get(at, ()):
                if pc in self.suspended and self.installed[pc].clear(self.bp):
                    self.bidx[pc] = self.suspended.pop(pc)
                    self.stops[pc] = 1

    def settle(self) -> None:
        """Wait until the translating thread has done what this engine asked (for
        benchmarks that time the blocks, not their making)."""
        while True:
            with self.lock:
                if not self.wanted and not self.in_hand:
                    return
            time.sleep(0.01)

    def _forget(self, pc: int) -> None:
        for at in self._inside(self.installed.pop(pc)):
            self.covering[at].discard(pc)

    @staticmethod
    def _inside(block: NativeBlock) -> list[int]:
        """The addresses a block runs over."""
        return [at for a, b, _ in block.stretches for at in range(a, b)]

    def _empty(self) -> None:
        """No blocks (the tables full, or another core size or opcode table)."""
        self.installed.clear()
        self.covering.clear()
        self.suspended.clear()
        self.bidx.fill(-1)
        self.stops[:] = self.bp
        self.used = 0

    def _install(self, pc: int, block: NativeBlock) -> None:
        if self.used == CAPACITY:
            self._empty()
        k = self.used
        self.used += 1
        self.binfo[k] = (block.count, block.bound, block.flags)
        self.addrs[k] = block.address
        self.bidx[pc] = k
        self.stops[pc] = 1
        self.installed[pc] = block
        for at in self._inside(block):
            self.covering.setdefault(at, set()).add(pc)

    def _known(self, mem: Any, bp: Any, pc: int) -> NativeBlock | None:
        for block in CACHE.get((pc, self._cache_key), ()):
            if block.fits(mem, bp):
                return block
        return None

    def _take(self, pc: int, block: NativeBlock | str, mem: Any, bp: Any) -> None:
        """Install a block made for ``pc`` if core still holds its words, else let the
        address grow hot again; note a refusal."""
        if isinstance(block, str):
            self.refused[pc] = block
            self.heat[pc] = REFUSED
            return
        known = CACHE.setdefault((pc, self._cache_key), [])
        if len(CACHE) > CACHE_MAX:
            CACHE.clear()
            CACHE[(pc, self._cache_key)] = known
        known.append(block)
        if block.fits(mem, bp):
            self._install(pc, block)
        else:
            self.changes[pc] += not block.holds(mem)
            self.heat[pc] = 0

    def _hot(self, mem: Any, bp: Any, pcs: list[int]) -> None:
        """Translate the addresses the loop found hot (at once, or on the thread, from
        one copy of core and breakpoints for all of them)."""
        wanted = []
        for pc in pcs:
            if self.bp[pc]:
                self.heat[pc] = 0  # (counted again once the breakpoint is gone)
            if self.bidx[pc] >= 0 or self.bp[pc] or pc in self.suspended:
                continue
            if pc in self.installed:  # the loop found its words changed, and dropped it
                self._forget(pc)
                self.changes[pc] += 1
            if self.changes[pc] > RETRANSLATIONS:
                self._take(pc, "its code keeps changing as it runs", mem, bp)
                continue
            block = self._known(mem, bp, pc)
            if block is not None:
                self._install(pc, block)
            elif self.hotq[1]:
                self._take(pc, make_block(self.key[0], self.key[1], mem, bp, pc), mem, bp)
            else:
                wanted.append(pc)
        if wanted:
            _start_thread()
            with self.lock:
                self.snapshot = (mem.copy(), bp.copy())
                self.wanted.update(wanted)
            WORK.put(weakref.ref(self))

    def __call__(self, mem: Any, st: Any, io: Any, ioq: Any, optab: Any, bp: Any,
                 max_n: int) -> int:  # fmt: skip
        if st[S.MEMSIZE] != self.key[0] or optab is not self.optab:
            # (the opcode table is the machine's for its life: looked at once)
            self.optab = optab
            self.key = key = (int(st[S.MEMSIZE]), tuple(int(x) for x in optab))
            self._cache_key = (key[0], hash(key[1]))
            self.bp = bp
            self.ctx[llvmgen.C_BP] = bp.ctypes.data
            self._empty()
            self.heat.fill(0)
            # Addresses with a block kept from another machine are hot at once: taking
            # one costs no translation (it is installed if core holds its words).
            for pc, cache_key in list(CACHE):
                if cache_key == self._cache_key:
                    self.heat[pc] = self.hot - 1
        start = int(st[S.COUNT])
        while True:
            while self.inbox:
                pc, block = self.inbox.popleft()
                self._take(pc, block, mem, bp)
            before = int(st[S.COUNT])
            left = max_n - (before - start)
            budget = min(left, CHUNK)
            code = self.run(mem, st, io, ioq, optab, bp, self.stops, budget, self.bidx,
                            self.binfo, self.addrs, self.heat, self.hot, self.hotq,
                            self.ctx)  # fmt: skip
            self.since_cooled += int(st[S.COUNT]) - before
            if self.since_cooled >= COOL:
                self.since_cooled = 0
                np.right_shift(self.heat, 1, out=self.heat, where=self.heat > 0)
            if self.hotq[0]:
                self._hot(mem, bp, [int(pc) for pc in self.hotq[2 : 2 + self.hotq[0]]])
                self.hotq[0] = 0
            if code == S.REASON_HOT:
                continue
            if code == S.REASON_LIMIT and int(st[S.COUNT]) - start < max_n:
                continue
            return int(code)
