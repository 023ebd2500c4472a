"""The native engine: hot PDP-6 code as machine code, through LLVM.

The blocks are the python engine's (:mod:`pdp6.cpu.translate`: the loop's own routines
specialized for each instruction word, strung into paths), compiled to machine code
by :mod:`pdp6.cpu.llvmgen` and called from a compiled loop (:mod:`pdp6.cpu.nativeloop`)
that runs ``loop.run``, numba-compiled, for everything else.  So the engine has the
compiled engine's semantics, timing and interrupts by construction, and each block
checks on entry, in its own code, that core still holds the words it was made from
(self-modifying code, XCT of changed words and loading a new program all meet it).

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
import importlib.util
import queue
import threading
import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import jit as jitmod
from ..memory import ADDRESS_SPACE
from . import dis340, llvmgen, translate
from . import state as S

AVAILABLE = jitmod.ENABLED and importlib.util.find_spec("llvmlite") is not None
HOT = 8  # stretches of loop.run that start at an address before it is translated
CAPACITY = 1 << 15  # blocks one machine's tables hold (then they are emptied and refilled)
CHUNK = 1_000_000  # instructions the loop runs between looks for translated blocks
ARRAYS = {"mem": ADDRESS_SPACE, "st": S.SIZE, "io": dis340.IO_SIZE, "ioq": 3 * S.IOQ_MAX}
REFUSED = -(1 << 30)  # an address's heat once it cannot be translated: never hot again
# Blocks one address may be given (translated, or found among those kept), after which
# it is left to loop.run: code that rewrites itself as it runs (a counter kept in an
# instruction) would otherwise cost a translation, or at least a return to Python, every
# few times it runs.
RETRANSLATIONS = 4


@dataclass(frozen=True)
class NativeBlock:
    """A block's machine code and the facts the loop checks before entering it."""

    address: int  # of its entry, which checks the words and returns MISS if they changed
    count: int
    bound: int
    flags: int
    stretches: tuple[tuple[int, int, tuple[int, ...]], ...]  # (first, end, words)

    def fits(self, mem: Any, bp: Any) -> bool:
        """Whether core holds its words and no breakpoint is inside it (one at its start
        is the loop's to honour: the block runs there only to go on from it)."""
        start = self.stretches[0][0]
        return all(
            tuple(int(w) for w in mem[a:b]) == words and not bp[max(a, start + 1) : b].any()
            for a, b, words in self.stretches
        )


class Jit:
    """LLVM for the process: one target machine and one MCJIT engine, to which every
    block is added as a module of its own.  llvmlite is not safe from two threads at
    once, nor beside numba compiling: everything that compiles holds ``LOCK``."""

    def __init__(self) -> None:
        import llvmlite.binding as llvm

        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        self.llvm = llvm
        self.machine = llvm.Target.from_default_triple().create_target_machine(opt=2)
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

            from . import engines, nativeloop

            engines.compiled()  # numba's dispatchers in place of the loop's routines
            with jitmod.build_lock():
                _DRIVER = numba.njit(cache=True, nogil=True, _nrt=False)(nativeloop.run)
                _DRIVER.compile(
                    "int64(int64[::1], int64[::1], int64[::1], int64[::1], int64[::1], "
                    "uint8[::1], uint8[::1], int64, int64[::1], int64[:, ::1], int64[::1], "
                    "int64[::1], int64)"
                )
            _JIT = Jit()
    return _DRIVER


def make_block(memsize: int, optab: tuple[int, ...], mem: Any, bp: Any,
               pc: int) -> NativeBlock | str:  # fmt: skip
    """Translate and compile the block at ``pc`` from ``mem`` (a copy the caller does
    not change meanwhile); the reason if it cannot be."""
    with LOCK:
        key = (memsize, optab)
        tr = _TRANSLATORS.get(key)
        if tr is None:
            tr = _TRANSLATORS[key] = translate.Translator(memsize, optab)
        t = translate.Translation(tr).grow(mem, bp, pc)
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
        llvmgen.add_entry(module, name + "__block", name, "mem", words)
        address = _JIT.add(module, name)
        return NativeBlock(address, t.count, t.bound, t.flag_bits, stretches)


def _translating() -> None:
    """The translating thread: takes (engine, address, core, breakpoints) and hands the
    engine its block, or the reason there is none."""
    while True:
        ref, pc, mem, bp, key = WORK.get()
        engine = ref()
        if engine is None:
            continue
        block = make_block(*key, mem, bp, pc)
        engine.inbox.append((pc, block))


WORK: queue.SimpleQueue[Any] = queue.SimpleQueue()
_THREAD: threading.Thread | None = None


def _start_thread() -> None:
    global _THREAD
    if _THREAD is None:
        _THREAD = threading.Thread(target=_translating, name="pdp6-native", daemon=True)
        _THREAD.start()


class NativeEngine:
    """``loop.run``'s interface for one machine: its block tables and translation."""

    def __init__(self) -> None:
        self.run = driver()
        self.bidx = np.full(ADDRESS_SPACE, -1, dtype=np.int64)
        self.binfo = np.zeros((CAPACITY, 3), dtype=np.int64)
        self.addrs = np.zeros(CAPACITY, dtype=np.int64)
        self.heat = np.zeros(ADDRESS_SPACE, dtype=np.int64)
        self.at_once = False  # translate in this thread, each block when first reached
        self.hot = HOT
        self.used = 0  # rows of binfo and addrs in use
        self.installed: dict[int, NativeBlock] = {}
        self.refused: dict[int, str] = {}  # why the code at an address was not translated
        self.translations: collections.Counter[int] = collections.Counter()  # by address
        self.stops: Any = None
        self.key: tuple[int, tuple[int, ...]] = (0, ())
        self._cache_key = (0, 0)
        self.inbox: collections.deque[tuple[int, NativeBlock | str]] = collections.deque()
        self.pending = 0  # addresses handed to the translating thread, not yet back

    def translate_at_once(self) -> None:
        """Translate every block the first time it is reached, in this thread: for tests,
        so that everything they run also tests its translation."""
        self.hot = 1
        self.at_once = True

    def breakpoints_changed(self) -> None:
        self.stops = None

    def _reset(self, mem: Any, bp: Any) -> None:
        """Empty the tables and put back the blocks that still fit core and breakpoints."""
        self.bidx.fill(-1)
        self.used = 0
        self.stops = np.array(bp, dtype=np.uint8)
        installed, self.installed = self.installed, {}
        for pc, block in installed.items():
            if block.fits(mem, bp):
                self._install(pc, block)

    def _install(self, pc: int, block: NativeBlock) -> None:
        if self.used == CAPACITY:
            self.installed.clear()
            self.bidx.fill(-1)
            self.stops[:] = 0
            self.used = 0
        k = self.used
        self.used += 1
        self.binfo[k] = (block.count, block.bound, block.flags)
        self.addrs[k] = block.address
        self.bidx[pc] = k
        self.stops[pc] = 1
        self.installed[pc] = block

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
            self.heat[pc] = 0

    def _hot(self, mem: Any, bp: Any, pc: int) -> None:
        """Translate the address the loop found hot (at once, or on the thread)."""
        self.translations[pc] += 1  # (a block found among those kept counts too)
        if self.translations[pc] > RETRANSLATIONS:
            self._take(pc, "its code keeps changing as it runs", mem, bp)
            return
        block = self._known(mem, bp, pc)
        if block is not None:
            self._install(pc, block)
            return
        if self.at_once:
            self._take(pc, make_block(*self.key, mem, bp, pc), mem, bp)
        else:
            _start_thread()
            WORK.put((weakref.ref(self), pc, mem.copy(), bp.copy(), self.key))
            self.pending += 1

    def __call__(self, mem: Any, st: Any, io: Any, ioq: Any, optab: Any, bp: Any,
                 max_n: int) -> int:  # fmt: skip
        key = (int(st[S.MEMSIZE]), tuple(int(x) for x in optab))
        if key != self.key:
            self.key = key
            self._cache_key = (key[0], hash(key[1]))
            self.installed.clear()
            self.heat.fill(0)
            self.stops = None
        if self.stops is None:
            self._reset(mem, bp)
        start = int(st[S.COUNT])
        while True:
            while self.inbox:
                pc, block = self.inbox.popleft()
                self.pending -= 1
                self._take(pc, block, mem, bp)
            left = max_n - (int(st[S.COUNT]) - start)
            budget = min(left, CHUNK) if self.pending else left
            code = self.run(mem, st, io, ioq, optab, bp, self.stops, budget, self.bidx,
                            self.binfo, self.addrs, self.heat, self.hot)  # fmt: skip
            if code == S.REASON_HOT:
                self._hot(mem, bp, int(st[S.PC]))
                continue
            if code == S.REASON_LIMIT and int(st[S.COUNT]) - start < max_n:
                continue
            return int(code)
