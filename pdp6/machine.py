"""``Machine``: processor + core + I/O bus + devices + the emulated clock.

>>> from pdp6 import Machine
>>> m = Machine()
>>> m.memory[0o100] = 0o201040000005   # MOVEI 1,5
>>> m.memory[0o101] = 0o254200000102   # JRST 4,102  (halt)
>>> m.pc = 0o100
>>> m.run(max_instructions=100).reason
'halt'
>>> m.memory[1]
5
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import jit, timing
from .cpu import dis340, engines, optable
from .cpu import state as S
from .iobus import NEVER, D, IOBus, Reg, find_register
from .memory import ADDRESS_SPACE, Memory

CHUNK = 2_000_000  # instructions per call of the loop when running without a limit
_compiled_ran = False


def _first_compiled_run(run: Any, *args: Any) -> int:
    """The process's first call of the compiled loop, which compiles it or loads it from
    numba's cache: under the build lock (a compile already going on elsewhere is waited
    for and then loaded, not done twice), and afterwards the cache is marked ready for
    the next start (:func:`pdp6.jit.compiled_ready`)."""
    global _compiled_ran
    with jit.build_lock():
        code = int(run(*args))
    _compiled_ran = True
    jit.mark_compiled_ready()
    return code


@dataclass(frozen=True)
class Stop:
    """Why ``run`` returned: reason, the PC, and how many instructions ran."""

    reason: str  # 'halt', 'breakpoint', 'limit', 'time'
    pc: int
    instructions: int


class _Field:
    """A named view of one slot of the state vector (``m.apr.nxm`` and the like).

    An int field holds ``bits`` bits, as the register in the machine does; setting a
    value that does not fit is refused rather than stored.
    """

    def __init__(self, index: int, kind: type = int, doc: str = "", bits: int = 1) -> None:
        self.index = index
        self.kind = kind
        self.bits = bits
        self.__doc__ = doc

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        return self.kind(obj._st[self.index])

    def __set__(self, obj: Any, value: Any) -> None:
        if self.kind is bool:
            obj._st[self.index] = int(bool(value))
            return
        try:
            value = operator.index(value)  # Python and numpy integers
        except TypeError:
            value = None
        if value is None or not 0 <= value < 1 << self.bits:
            top = (1 << self.bits) - 1
            raise ValueError(
                f"{self.name} holds {self.bits} bits (0..{top:o} octal), not {value!r}"
            )
        obj._st[self.index] = value


class _FlagField:
    """A view of one bit of the PC-word flags."""

    def __init__(self, bit: int, doc: str = "") -> None:
        self.bit = bit
        self.__doc__ = doc

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        return bool(obj._st[S.FLAGS] & self.bit)

    def __set__(self, obj: Any, value: bool) -> None:
        if value:
            obj._st[S.FLAGS] |= self.bit
        else:
            obj._st[S.FLAGS] &= ~self.bit


class _BuiltIn:
    """APR and PI, the devices built into the processor: their fields (the ``_Field``
    entries) are their register table, as an attached device's ``registers`` is, so the
    console examines and deposits ``APR.PIA`` or ``PI.ON`` as it does ``TTY.PIA``."""

    name = ""

    @property
    def registers(self) -> tuple[Reg, ...]:
        return tuple(
            Reg(attr, field.bits if field.kind is int else 1)
            for attr, field in vars(type(self)).items()
            if isinstance(field, _Field)
        )

    def register(self, name: str) -> Reg | None:
        return find_register(self.registers, name)


class APR(_BuiltIn):
    """The arithmetic processor's device-000 state, readable and writable by name."""

    code = 0o000
    name = "APR"
    pia = _Field(S.APR_PIA, int, "PI channel of APR interrupts (0 = none)", 3)
    pushdown_overflow = _Field(S.APR_PDLOV, bool, "pushdown overflow flag")
    illegal_op = _Field(S.APR_ILLOP, bool, "illegal operation / memory protection flag")
    nxm = _Field(S.APR_NXM, bool, "non-existent memory flag")
    clock_flag = _Field(S.APR_CLKFLAG, bool, "60 Hz clock flag")
    clock_enabled = _Field(S.APR_CLKEN, bool, "clock interrupt enable")
    pc_change_enabled = _Field(S.APR_PCCHEN, bool, "PC-change interrupt enable")
    overflow_enabled = _Field(S.APR_OVEN, bool, "overflow interrupt enable")
    protection = _Field(S.PROT, int, "protection register (highest user block)", 8)
    relocation = _Field(S.RELOC, int, "relocation register (1K blocks)", 8)
    switches = _Field(S.SWITCHES, int, "console data switches (DATAI APR,)", 36)
    overflow = _FlagField(S.F_OV, "AR OV flag")
    pc_change = _FlagField(S.F_PCCH, "PC CHANGE flag")
    user_iot = _FlagField(S.F_UIOT, "USER IOT: user mode may do I/O")

    def __init__(self, st: Any) -> None:
        self._st = st

    def __repr__(self) -> str:
        names = ("pia", "pushdown_overflow", "illegal_op", "nxm", "clock_flag",
                 "clock_enabled", "overflow", "pc_change")  # fmt: skip
        return "APR(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in names) + ")"


class PI(_BuiltIn):
    """The priority interrupt system (device 004); channel n is bit ``1 << (7 - n)``."""

    code = 0o004
    name = "PI"
    active = _Field(S.PI_ACTIVE, bool, "PI system active")
    on = _Field(S.PI_ON, int, "channels turned on (100 = channel 1 ... 1 = channel 7)", 7)
    requests = _Field(S.PIR, int, "latched requests", 7)
    held = _Field(S.PIH, int, "channels held (interrupt in progress)", 7)

    def __init__(self, st: Any) -> None:
        self._st = st

    def __repr__(self) -> str:
        return (
            f"PI(active={self.active}, on={self.on:03o}, requests={self.requests:03o}, "
            f"held={self.held:03o})"
        )


class Machine:
    """A PDP-6: ``memory``, ``pc``, ``flags``, ``apr``, ``pi``, ``bus``; ``run`` and ``step``.

    ``core_words`` sets how much core exists (up to 256K; references beyond it set the
    NXM flag).  ``engine`` is 'compiled' (numba; the default when available), 'python'
    (the same source as plain Python, translating PDP-6 code block by block) or
    'interpreter' (plain Python, an instruction at a time; see docs/machine.md).
    """

    def __init__(self, core_words: int = ADDRESS_SPACE, engine: str | None = None) -> None:
        if not 16 < core_words <= ADDRESS_SPACE:
            raise ValueError(f"core size must be 17..{ADDRESS_SPACE} words, not {core_words}")
        self.engine = ""
        self._mem: Any = np.zeros(ADDRESS_SPACE, dtype=np.int64)
        self._st: Any = np.zeros(S.SIZE, dtype=np.int64)
        self._io: Any = np.zeros(dis340.IO_SIZE, dtype=np.int64)
        self._ioq: Any = np.zeros(3 * S.IOQ_MAX, dtype=np.int64)
        self._optab: Any = optable.build()
        self._bp: Any = np.zeros(ADDRESS_SPACE, dtype=np.uint8)
        self.memory = Memory(self._mem, core_words)
        self.apr = APR(self._st)
        self.pi = PI(self._st)
        self.switch_engine(engine or engines.ENGINES[0])
        self._deadline = NEVER
        self._synced_breakpoints: set[int] = set()
        self.breakpoints: set[int] = set()
        self.bus = IOBus(self)
        st = self._st
        st[S.MEMSIZE] = core_words
        st[S.CLOCK_PERIOD] = timing.CLOCK_PERIOD_NS
        st[S.CLOCK_NEXT] = timing.CLOCK_PERIOD_NS
        st[S.HOST_EVENT] = st[S.DIS_EVENT] = NEVER
        st[S.EVENT] = timing.CLOCK_PERIOD_NS

    # --- registers ------------------------------------------------------------------
    @property
    def pc(self) -> int:
        return int(self._st[S.PC])

    @pc.setter
    def pc(self, value: int) -> None:
        if not isinstance(value, int) or not 0 <= value <= 0o777777:
            raise ValueError(f"PC must be an 18-bit address (0..777777 octal), not {value!r}")
        self._st[S.PC] = value

    @property
    def flags(self) -> int:
        """Left half of the PC word: 400000 AR OV, 200000 CRY0, 100000 CRY1, 040000 PC
        CHANGE, 020000 first part done, 010000 user, 004000 user IOT."""
        return int(self._st[S.FLAGS])

    @flags.setter
    def flags(self, value: int) -> None:
        if not isinstance(value, int) or value & ~0o774000:
            raise ValueError(f"flags are the bits 774000 of the PC word's left half, not {value!r}")
        self._st[S.FLAGS] = value

    @property
    def pc_word(self) -> int:
        """flags,,PC as JSR would store it."""
        return (self.flags << 18) | self.pc

    @property
    def elapsed_ns(self) -> int:
        return int(self._st[S.TIME])

    @property
    def elapsed_us(self) -> float:
        """Emulated PDP-6 time since power-on, in microseconds."""
        return self._st[S.TIME] / 1000.0

    @property
    def instructions(self) -> int:
        """Instructions executed since power-on (interrupt instructions included)."""
        return int(self._st[S.COUNT])

    @property
    def user_mode(self) -> bool:
        return bool(self._st[S.FLAGS] & S.F_USER)

    @property
    def core_words(self) -> int:
        return int(self._st[S.MEMSIZE])

    def switch_engine(self, engine: str) -> None:
        """Run on another engine from now on, the machine's state kept to the bit.

        Between runs only.  The compiled engine works on numpy arrays; the plain-Python
        engines on lists, whose elements are Python ints and several times faster to
        index there.  An interactive session starts on the python engine while the
        compiled one is being built, and moves to it when it is ready
        (:mod:`pdp6.host.autoengine`).
        """
        runner = engines.make_runner(engine)  # refuses an engine this process lacks
        if engine in engines.NUMPY_ENGINES:
            arrays = [np.asarray(a, dtype=np.int64) for a in
                      (self._mem, self._st, self._io, self._ioq, self._optab)]  # fmt: skip
            bp: Any = np.asarray(self._bp, dtype=np.uint8)
        else:
            arrays = [np.asarray(a, dtype=np.int64).tolist() for a in
                      (self._mem, self._st, self._io, self._ioq, self._optab)]  # fmt: skip
            bp = bytearray(np.asarray(self._bp, dtype=np.uint8).tobytes())
        self._mem, self._st, self._io, self._ioq, self._optab = arrays
        self._bp = bp
        self.memory._words = self._mem
        self.apr._st = self.pi._st = self._st
        self._run = runner
        self.engine = engine
        if getattr(self, "bus", None) is not None:
            self.bus.refresh()  # (a device that keeps state in the arrays finds the new ones)

    def loop_routine(self, name: str) -> Any:
        """A routine of the execute loop's source as this machine's engine runs it
        (compiled, or plain Python over lists), for a device that shares the loop's
        work (the 340's ``dis_replay``)."""
        if self.engine in engines.NUMPY_ENGINES:
            return next(getattr(m, name) for m in engines.MODULES if hasattr(m, name))
        return engines.plain()[name]

    # --- devices --------------------------------------------------------------------
    def attach(self, device: D) -> D:
        """Put a device on the I/O bus (see :class:`pdp6.iobus.Device`)."""
        return self.bus.attach(device)

    # --- running --------------------------------------------------------------------
    def _sync_breakpoints(self) -> None:
        if self.breakpoints == self._synced_breakpoints:
            return
        removed = self._synced_breakpoints - self.breakpoints
        added = self.breakpoints - self._synced_breakpoints
        for a in removed:
            self._bp[a] = 0
        for a in added:
            if not isinstance(a, int) or not 0 <= a <= 0o777777:
                raise ValueError(f"breakpoint {a!r} is not an 18-bit address")
            self._bp[a] = 1
        self._synced_breakpoints = set(self.breakpoints)
        forget = getattr(self._run, "breakpoints_changed", None)
        if forget is not None:
            forget(added, removed)

    def _drain_io(self) -> None:
        st, q = self._st, self._ioq
        n = int(st[S.IOQ_N])
        st[S.IOQ_N] = 0
        for i in range(n):
            self.bus.deliver(int(q[3 * i]), int(q[3 * i + 1]), int(q[3 * i + 2]), False)
        if n:
            self.bus.refresh()
        self.bus.after_loop()

    def run(self, max_instructions: int | None = None, until_us: float | None = None,
            pcs: list[int] | None = None) -> Stop:  # fmt: skip
        """Run until a halt, a breakpoint, ``max_instructions`` or emulated ``until_us``.

        A breakpoint never stops the first instruction of a run, so ``run()`` after a
        breakpoint stop continues past it.  ``pcs``: the PC of each instruction run is
        appended to it (the loop then runs one instruction at a time: for a few, as the
        runner looks at a program that may be waiting, where a ``step()`` each would
        cost the devices' look before and after every one).
        """
        if max_instructions is not None and max_instructions < 0:
            raise ValueError("max_instructions must not be negative")
        self._sync_breakpoints()
        st = self._st
        st[S.FIRST] = 1
        self._deadline = NEVER if until_us is None else int(until_us * 1000)
        self.bus.refresh()
        start = int(st[S.COUNT])
        try:
            while True:
                done = int(st[S.COUNT]) - start
                if max_instructions is not None:
                    budget = max_instructions - done
                    if budget <= 0:
                        return Stop("limit", self.pc, done)
                else:
                    budget = CHUNK
                if pcs is not None:
                    budget, pc, count = 1, int(st[S.PC]), int(st[S.COUNT])
                args = (self._mem, st, self._io, self._ioq, self._optab, self._bp, budget)
                if _compiled_ran or self.engine != "compiled":
                    code = self._run(*args)
                else:
                    code = _first_compiled_run(self._run, *args)
                if pcs is not None and int(st[S.COUNT]) != count:
                    pcs.append(pc)
                self._drain_io()
                if code == S.REASON_HALT:
                    return Stop("halt", self.pc, int(st[S.COUNT]) - start)
                if code == S.REASON_BREAK:
                    return Stop("breakpoint", self.pc, int(st[S.COUNT]) - start)
                if code == S.REASON_EVENT:
                    if int(st[S.TIME]) >= self._deadline:
                        return Stop("time", self.pc, int(st[S.COUNT]) - start)
                    self.bus.service_due()
        finally:
            self._deadline = NEVER
            self.bus.refresh()

    @property
    def at_start_of_run(self) -> bool:
        """Whether the last run has not yet left the instruction it started at: it ran
        nothing, or only interrupts that left the PC there (a BLKO on a data channel).
        A breakpoint there still does not stop the run."""
        return bool(self._st[S.FIRST])

    def next_event_us(self) -> float:
        """The emulated time of the next clock tick or device event (infinite if none)."""
        self.bus.refresh()
        event = int(self._st[S.EVENT])
        return float("inf") if event >= NEVER else event / 1000

    def idle_until(self, until_us: float) -> None:
        """Move the emulated clock on to ``until_us``, or to the next clock tick or device
        event if that comes first, without executing anything.

        Only for a host that knows the processor is in a wait loop that changes nothing
        but the time (a program's wait for a key): the loop's instructions are not run,
        and everything that could end the wait (an interrupt, a device's event) still
        comes at its emulated time, on the next ``run``.  A waiting program then costs
        the host nothing, on every engine.
        """
        self.bus.refresh()
        st = self._st
        target = int(st[S.EVENT])
        if until_us < target / 1000:
            target = int(until_us * 1000)
        if target > int(st[S.TIME]):
            st[S.TIME] = target

    def step(self) -> Stop:
        """Execute exactly one instruction (or one interrupt instruction)."""
        return self.run(max_instructions=1)

    def __repr__(self) -> str:
        return (
            f"<Machine pc={self.pc:06o} flags={self.flags:06o} "
            f"{self.core_words // 1024}K engine={self.engine} t={self.elapsed_us:.1f}us>"
        )
