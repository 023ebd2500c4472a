"""The Type 340 precision CRT display through the Type 344 interface, device 130.

Everything here follows pdp6-reference.md section 2.5 (itself checked against aap's
schematic-level ``newemu/dis340.c``); the section numbers in comments refer to it.

The processor side (the 344)
    ``DATAO DIS,`` (or ``BLKO DIS,``) loads a 36-bit word into the interface buffer: two
    18-bit 340 words, left half first.  A new DATAO replaces whatever the buffer still
    held.  When the 340 has used both halves and is ready for data, the **data flag**
    (CONI 000200) rises and requests the *data PIA*.  ``CONO DIS,`` replaces both PIAs
    (bits 33-35 data, 30-32 special); bit 29 (000100) **initializes** the 340 (parameter
    mode, shift in, STOP, light pen and edge flags cleared, data requested); any CONO
    without bit 29 is a **resume**, which clears the light-pen enable/find/flag and lets
    a display that stopped on a light-pen hit go on.  ``CONI DIS,`` gives the mode in
    bits 18-20, vertical edge 004000, light pen 002000, horizontal edge 001000, stop
    interrupt 000400, data 000200, special PIA 000070, data PIA 000007.  ``DATAI DIS,``
    reads the beam position Y,,X.  A special interrupt (special PIA) is requested by an
    edge flag, the light-pen flag, or a STOP with its interrupt bit.

The 340
    X and Y are 10 bits (origin lower left), scale 0-3 (steps of 1, 2, 4, 8), intensity
    0-7.  Modes: 0 parameter, 1 point, 4 vector, 5 vector continue, 6 increment,
    3 character (through the 342, see :mod:`.chargen342`).  Modes 2 (slave) and
    7 (subroutine) are not part of a basic 340: a word in either mode leaves the 340
    hung, asking for no data and raising no flag, until an initialize -- what aap's
    model does too.  Vectors step with the 7-bit binary rate multiplier exactly as the
    reference describes; increment words take four nibbles; stepping off the raster in
    vector or increment mode sets an edge flag, escapes to parameter mode and stops the
    display with a special interrupt (only an initialize restarts it), except on the
    last step of a word (cleared by the following data request) and in vector-continue
    mode (escape and ask for the next word, no lasting flag).  Character mode wraps.

Timing (2.5 "Timing"), in emulated nanoseconds
    data sync 2.8 us per 18-bit word, then 0.5 us settle; each vector/increment count or
    character stroke step 1.0 us, the beam intensified at the end of that microsecond,
    then 0.5 us settle; 0.5 us between the characters of a word; point mode 35 us for an
    X position (and for a Y position only if it intensifies, else 0.2 us) and 0.5 us
    after.  So a parameter word takes 3.3 us, a vector 99.3 us (64 counts) or 195.3 us
    (128 counts), an increment word 9.3 us.  Unlike aap, the last count of a vector or
    increment word also takes its 1.5 us and intensifies (the reference calls aap's
    never-intensified last increment point an artifact).

How it is simulated
    The 340 runs from one data request to the next without any input except a CONO, so
    each 18-bit word is worked out completely when the 340 starts it (a "plan"): its
    intensified points go into :attr:`Display340.points` with their emulated times, and
    the changes the processor can see (CONI bits, interrupt requests, the DATAI
    position) are queued as timed events.  ``next_event`` is the next such change, so
    the processor only leaves its compiled loop when something visible happens (about
    twice per 18-bit word), not at every step.  If a CONO arrives in the middle of a
    word, the word is replayed from a snapshot of the 340 taken at its start up to the
    time of the CONO, so that an initialize leaves the beam where it really was and
    drops the points that would have come later.  The DATAI position between visible
    events is the one at the last event (exact whenever the 340 waits or stops).
    Vectors and characters that can meet neither an edge nor the light pen are worked
    out whole from cached tables (``fast``), which tests check against the step loops.
    A resume in the middle of a word (which clears the light-pen state) replays the
    word up to its time too, and is remembered, so that a later replay of the same
    word clears the light pen at the same moment.

    On a machine, the execute loop does that work itself (:mod:`pdp6.cpu.dis340`, the
    same statements in the loop's subset of Python) while no light pen is involved and
    no word is being replayed: the registers live in the machine's ``io`` array, where
    both work on them, and the loop keeps the words it worked out, whose points are
    drawn when ``points`` is read.  This code takes over for the rest.

Host side
    ``points`` (a :class:`PointLog`) is the list of intensified points with times;
    :mod:`pdp6.host.render` turns it into frames with P7 phosphor decay (PNG, animated GIF,
    a live window), and :func:`pdp6.host.render.attach_display` puts a 340 on a machine
    with those outputs.
    ``pen`` (None or an (x, y) raster position) is a light pen held to the screen.
"""

from __future__ import annotations

from array import array
from collections.abc import Generator
from functools import lru_cache
from typing import Any, Protocol

from ..cpu import dis340 as L
from ..iobus import NEVER, Device, Reg
from .chargen342 import CR, ESCAPE, PROGRAMS, SHIFT_IN, SHIFT_OUT, STEPS

M18 = 0o777777
M36 = 0o777777777777

# Modes (CONI bits 18-20; reference 2.5 "Modes and 18-bit word formats")
PARAMETER, POINT, SLAVE, CHARACTER, VECTOR, VECTOR_CONTINUE, INCREMENT, SUBROUTINE = range(8)
MODE_NAMES = ("parameter", "point", "slave", "character", "vector", "vector continue",
              "increment", "subroutine")  # fmt: skip

# CONO bits
CONO_INIT = 0o000100
# CONI bits
CONI_VEDGE = 0o004000
CONI_LIGHT_PEN = 0o002000
CONI_HEDGE = 0o001000
CONI_STOP = 0o000400
CONI_DATA = 0o000200

# Timing in ns (reference 2.5 "Timing")
SYNC_NS = 2800  # data sync: take an 18-bit word from the interface
SETTLE_NS = 500  # settle after loading, after each step, between characters
COUNT_NS = 1000  # one BRM count / increment step / character stroke step
STEP_NS = COUNT_NS + SETTLE_NS
POSITION_NS = 35000  # point mode: X position, or Y position with intensify
Y_LOAD_NS = 200  # point mode: Y position without intensify

RASTER = 1024

# Sequencer states
IDLE = 0  # ready for data (waiting for the interface buffer)
BUSY = 1  # working on a word (possibly paused by a light-pen hit)
STOPPED = 2  # halted: STOP, edge, or a mode 2/7 word; only an initialize restarts

_LIMIT = "limit"  # the plan reached the replay limit (see Display340._cut)
_PAUSE = "pause"  # the plan stopped at a light-pen hit until a resume

# The widths of the 340's registers, in the order of Display340._snapshot, and of what
# the processor sees (Display340.vis: mode hef vef lp stop_int rfd x y).
_SNAP_BITS = (10, 10, 3, 2, 3, 1, 1, 1, 1, 1, 1, 18, 1, 1, 1)
_VIS_BITS = (3, 1, 1, 1, 1, 1, 10, 10)


def _plan_fields(raw: bytes) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """The word in progress saved by ``Display340.plan``: (state, vis, rest), where
    rest is (word, start, *state at its start, number of resumes, *resumes, *clears)
    for a busy 340 and empty otherwise.  Raises ValueError if ``raw`` is not such."""
    values = array("q")
    if len(raw) % values.itemsize:
        raise ValueError("DIS.PLAN is not a list of numbers")
    values.frombytes(raw)
    head = len(_VIS_BITS) + 1
    if len(values) < head or values[0] not in (IDLE, BUSY, STOPPED):
        raise ValueError("DIS.PLAN has no state")
    state, vis, rest = values[0], tuple(values[1:head]), tuple(values[head:])
    fields = list(zip(vis, _VIS_BITS, strict=True))
    times: tuple[int, ...] = ()
    if state == BUSY:
        base = 2 + len(_SNAP_BITS)
        if len(rest) <= base or not 0 <= rest[base] <= len(rest) - base - 1:
            raise ValueError("DIS.PLAN has no word in progress")
        fields += [(rest[0], 18), *zip(rest[2:base], _SNAP_BITS, strict=True)]
        times = (rest[1], *rest[base + 1 :])
    elif rest:
        raise ValueError("DIS.PLAN has a word in progress but the 340 is not busy")
    out_of_range = any(not 0 <= v < 1 << bits for v, bits in fields)
    if out_of_range or any(not 0 <= t < NEVER for t in times):
        raise ValueError("DIS.PLAN holds a value out of range")
    return state, vis, rest


# Trailing zeros of 1..127: the BRM bit that goes 0->1 when the counter reaches i.
_TZ = tuple((i & -i).bit_length() - 1 if i else 0 for i in range(128))


def _np() -> Any:
    """numpy, imported when first needed (a 340 on a bare clock needs none)."""
    import numpy

    return numpy


@lru_cache(maxsize=8192)
def _vector_table(mx: int, my: int) -> tuple[int, tuple[int, ...], tuple[int, ...],
                                             tuple[int, ...]]:  # fmt: skip
    """The counts of a vector that move, for the fast path of ``_steps``.

    Returns (n, counts, cx, cy): the BRM length, the 0-based index of each count that
    moves, and the unit offsets from the start after it.  The same rule as the step
    loop: count i (1-based) raises BRM bit k = TZ(i) (in the 64-count case the 6-bit
    count stands for bits 1-6, so magnitude bit 5-TZ(i)); reference 2.5 mode 4.
    """
    n, base = (128, 6) if (mx >= 64 or my >= 64) else (64, 5)
    counts: list[int] = []
    cx: list[int] = []
    cy: list[int] = []
    ux = uy = 0
    for i in range(1, n):
        k = _TZ[i]
        mvx = (mx >> (base - k)) & 1
        mvy = (my >> (base - k)) & 1
        if mvx or mvy:
            ux += mvx
            uy += mvy
            counts.append(i - 1)
            cx.append(ux)
            cy.append(uy)
    return n, tuple(counts), tuple(cx), tuple(cy)


@lru_cache(maxsize=1024)
def _glyph_table(index: int, scale: int) -> tuple[Any, ...] | None:
    """A character's intensified points relative to its start, for the fast path of
    ``_characters``: (dx, dy, dt of each point, steps, end dx, end dy, min x, max x,
    min y, max y over every position the beam passes).  None for the special codes."""
    prog = STEPS[index]
    if any(b is None for _, b, _ in prog):
        return None
    step = 1 << scale
    x = y = t = 0
    xs: list[int] = []
    ys: list[int] = []
    ts: list[int] = []
    lo_x = hi_x = lo_y = hi_y = 0
    for a, b, on in prog:
        x += a * step
        y += b * step  # type: ignore[operator]
        lo_x, hi_x, lo_y, hi_y = min(lo_x, x), max(hi_x, x), min(lo_y, y), max(hi_y, y)
        if on:
            xs.append(x)
            ys.append(y)
            ts.append(t + COUNT_NS)
        t += COUNT_NS + SETTLE_NS
    return (tuple(xs), tuple(ys), tuple(ts), len(prog), x, y, lo_x, hi_x, lo_y, hi_y)


class PointLog:
    """The intensified points: parallel arrays of X, Y, intensity (0-7) and time (ns).

    Arrays of machine ints rather than point objects, so that a refresh loop of
    thousands of points per frame stays cheap; :meth:`numpy` gives zero-copy views.
    Points are in time order.
    """

    def __init__(self) -> None:
        self.x = array("H")
        self.y = array("H")
        self.i = array("B")
        self.t = array("q")

    def __len__(self) -> int:
        return len(self.t)

    def append(self, x: int, y: int, intensity: int, t: int) -> None:
        self.x.append(x)
        self.y.append(y)
        self.i.append(intensity)
        self.t.append(t)

    def take(self, io: Any, n: int) -> None:
        """Append the first ``n`` points of the execute loop's buffer (``pdp6.cpu.dis340``)."""
        np = _np()
        columns = ((self.x, L.D_PX, np.uint16), (self.y, L.D_PY, np.uint16),
                   (self.i, L.D_PI, np.uint8), (self.t, L.D_PT, np.int64))  # fmt: skip
        for column, base, kind in columns:
            column.frombytes(np.asarray(io[base : base + n]).astype(kind).tobytes())

    def truncate(self, n: int) -> None:
        """Keep only the first ``n`` points."""
        for a in (self.x, self.y, self.i, self.t):
            del a[n:]

    def drop_after(self, t: int) -> None:
        """Forget the points later than time ``t`` (they never happened)."""
        ts = self.t
        n = len(ts)
        while n and ts[n - 1] > t:
            n -= 1
        self.truncate(n)

    def discard_first(self, n: int) -> None:
        """Forget the oldest ``n`` points (a host that has rendered them)."""
        for a in (self.x, self.y, self.i, self.t):
            del a[:n]

    def clear(self) -> None:
        self.truncate(0)

    def as_tuples(self) -> list[tuple[int, int, int, int]]:
        """``[(x, y, intensity, t_ns), ...]`` -- for tests and the JSON point list."""
        return list(zip(self.x, self.y, self.i, self.t, strict=True))

    def numpy(self) -> tuple[Any, Any, Any, Any]:
        """numpy views (x, y, intensity, t) of the arrays (valid until the next append)."""
        import numpy as np

        return (
            np.frombuffer(self.x, dtype=np.uint16) if len(self) else np.zeros(0, np.uint16),
            np.frombuffer(self.y, dtype=np.uint16) if len(self) else np.zeros(0, np.uint16),
            np.frombuffer(self.i, dtype=np.uint8) if len(self) else np.zeros(0, np.uint8),
            np.frombuffer(self.t, dtype=np.int64) if len(self) else np.zeros(0, np.int64),
        )


class _Slot:
    """A register kept in the 340's slot of the machine's ``io`` array (or, before the
    340 is attached, in a list of its own), where the execute loop reads and writes it
    too (:mod:`pdp6.cpu.dis340`)."""

    def __init__(self, index: int) -> None:
        self.index = index

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        return int(obj._regs[self.index])

    def __set__(self, obj: Any, value: int) -> None:
        obj._regs[self.index] = int(value)


class _Slots:
    """A tuple of registers kept in consecutive slots (the visible state, a snapshot)."""

    def __init__(self, index: int, n: int) -> None:
        self.index = index
        self.n = n

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        regs = obj._regs
        return tuple(int(regs[i]) for i in range(self.index, self.index + self.n))

    def __set__(self, obj: Any, values: tuple[int, ...]) -> None:
        assert len(values) == self.n
        regs = obj._regs
        for i, v in enumerate(values):
            regs[self.index + i] = int(v)


class _Events:
    """The queue of timed visible changes, (t, mode, hef, vef, lp, stop_int, rfd, x, y)
    each, as a ring in the 340's slots (the time and the rest packed in one word): the
    execute loop applies them too."""

    def __init__(self, display: Display340) -> None:
        self.display = display

    def __len__(self) -> int:
        return int(self.display._regs[L.D_EV_N])

    def __getitem__(self, i: int) -> tuple[int, ...]:
        regs = self.display._regs
        if not 0 <= i < len(self):
            raise IndexError(i)
        k = L.D_EV + L.EV_WIDTH * ((int(regs[L.D_EV_HEAD]) + i) % L.EV_MAX)
        v = int(regs[k + 1])
        return (int(regs[k]), *((v >> shift) & mask for shift, mask in L.VIS_FIELDS))

    def __iter__(self) -> Any:
        return (self[i] for i in range(len(self)))

    def head_time(self) -> int:
        """The time of the first change, or NEVER (without building the event)."""
        regs = self.display._regs
        if not regs[L.D_EV_N]:
            return NEVER
        return int(regs[L.D_EV + L.EV_WIDTH * int(regs[L.D_EV_HEAD])])

    def append(self, event: tuple[int, ...]) -> None:
        regs = self.display._regs
        n = len(self)
        if n >= L.EV_MAX:
            raise RuntimeError("the 340's event queue is full")
        k = L.D_EV + L.EV_WIDTH * ((int(regs[L.D_EV_HEAD]) + n) % L.EV_MAX)
        regs[k] = int(event[0])
        fields = zip(event[1:], L.VIS_FIELDS, strict=True)
        regs[k + 1] = sum(int(v) << shift for v, (shift, _) in fields)
        regs[L.D_EV_N] = n + 1

    def popleft(self) -> tuple[int, ...]:
        event = self[0]
        regs = self.display._regs
        regs[L.D_EV_HEAD] = (int(regs[L.D_EV_HEAD]) + 1) % L.EV_MAX
        regs[L.D_EV_N] = len(self) - 1
        return event

    def clear(self) -> None:
        self.display._regs[L.D_EV_N] = 0

    def extend(self, events: list[tuple[int, ...]]) -> None:
        for event in events:
            self.append(event)


class FrameListener(Protocol):
    """Something that wants to look at the screen at given emulated times (a renderer)."""

    next_frame_ns: int

    def frame(self, display: Display340, t: int) -> None:
        """Called once emulated time has reached ``next_frame_ns`` (``t`` = that time)."""


class Display340(Device):
    """Device 130: a Type 340 display with its 342 character generator, on a 344.

    ``keep_ns``: if set, points older than this (emulated ns) are forgotten from time to
    time, for long runs with a renderer; by default every point is kept.
    """

    code = 0o130
    name = "DIS"
    #: Work out whole vectors and characters at once when nothing can interrupt them
    #: (no edge, no light pen, no replay); False forces the step-by-step loops, which
    #: give the same result (tests compare the two).
    fast = True
    #: With ``keep_ns`` set, old points are dropped once there are more than this.
    trim_at = 200_000
    #: The 340's registers are as of the end of the word being drawn (the plan works
    #: each word out when it starts; CONI shows the state of the moment).  PLAN, last,
    #: is the word in progress for snapshots: restoring it works the word out again from
    #: its start up to the restored time.
    #: Let the execute loop run the 340 (:mod:`pdp6.cpu.dis340`) while nothing needs this
    #: code (no light pen, no word being replayed); False keeps every word here (tests
    #: compare the two).
    in_loop = True
    pia_data = _Slot(L.D_PIA_DATA)
    pia_spec = _Slot(L.D_PIA_SPEC)
    ib = _Slot(L.D_IB)
    ibc = _Slot(L.D_IBC)
    mode = _Slot(L.D_MODE)
    x = _Slot(L.D_X)
    y = _Slot(L.D_Y)
    scale = _Slot(L.D_SCALE)
    intensity = _Slot(L.D_INTENSITY)
    shift = _Slot(L.D_SHIFT)
    lp_enable = _Slot(L.D_LP_ENABLE)
    lp_find = _Slot(L.D_LP_FIND)
    lp_flag = _Slot(L.D_LP_FLAG)
    stop = _Slot(L.D_STOP)
    stop_int = _Slot(L.D_STOP_INT)
    br = _Slot(L.D_BR)
    hef = _Slot(L.D_HEF)
    vef = _Slot(L.D_VEF)
    rfd = _Slot(L.D_RFD)
    words = _Slot(L.D_WORDS)
    datao_count = _Slot(L.D_DATAO_COUNT)
    _state, _t_end, _end_state = _Slot(L.D_STATE), _Slot(L.D_T_END), _Slot(L.D_END_STATE)
    _lp_used, _mark = _Slot(L.D_LP_USED), _Slot(L.D_MARK)
    vis = _Slots(L.D_VIS, 8)  # what the processor sees: mode hef vef lp stop_int rfd x y
    _snap = _Slots(L.D_SNAP, 15)  # the registers at the start of the word (_snapshot)
    _half = _Slots(L.D_HALF_BR, 2)  # (18-bit word, start time) of the plan
    registers = (
        Reg("pia_data", 3), Reg("pia_spec", 3), Reg("ib", 36), Reg("ibc", 2),
        Reg("mode", 3), Reg("x", 10), Reg("y", 10), Reg("scale", 2), Reg("intensity", 3),
        Reg("shift", 1), Reg("lp_enable", 1), Reg("lp_find", 1), Reg("lp_flag", 1),
        Reg("stop", 1), Reg("stop_int", 1), Reg("br", 18), Reg("hef", 1), Reg("vef", 1),
        Reg("rfd", 1), Reg("words"), Reg("datao_count"),
        Reg("plan", shown=False, check=_plan_fields),
    )  # fmt: skip

    def __init__(self, keep_ns: int | None = None) -> None:
        super().__init__()
        self._own: list[int] = [0] * L.D_PN  # the slots, until attached to a machine
        # Where the slots are: the machine's io array once attached (attached(); looked up
        # again at every loop_state, as the array changes when the machine changes engine).
        self._regs: Any = self._own
        self._shared = False
        self._points = PointLog()
        self.keep_ns = keep_ns
        self._trim_floor = 0  # see advance
        self.pen: tuple[int, int] | None = None
        self.listeners: list[FrameListener] = []
        # the 344 interface
        self.pia_data = 0
        self.pia_spec = 0
        self.ib = 0  # interface buffer (36 bits)
        self.ibc = 0  # 18-bit words left in it
        # the 340 (state as of the end of the current plan)
        self.x = 0
        self.y = 0
        self.mode = PARAMETER
        self.scale = 0
        self.intensity = 0
        self.lp_enable = 0
        self.lp_find = 0
        self.lp_flag = 0
        self.shift = 0  # 342 case: 0 shift in, 1 shift out
        self.stop = 0
        self.stop_int = 0  # STOP with its interrupt bit (CONI 000400)
        self.br = 0  # the word being worked on
        self.hef = 0
        self.vef = 0
        self.rfd = 1  # ready for data
        # what the processor sees (the plan's visible events applied up to now)
        self.vis = (PARAMETER, 0, 0, 0, 0, 1, 0, 0)  # mode hef vef lp stop_int rfd x y
        self._events = _Events(self)
        # the plan of the current word
        self._state = IDLE
        self._gen: Generator[str, None, None] | None = None
        self._limit = NEVER
        self._t_end = 0  # when the plan ends (if it has ended: self._gen is None)
        self._end_state = IDLE
        self._mark = 0  # len(points) when the plan started
        self._resumes: list[int] = []  # resume times after light-pen pauses in the plan
        self._clears: list[int] = []  # resumes in the plan that cleared the light pen
        self._yielded = ""  # what the plan's generator last yielded
        self._resume_idx = 0
        self._lp_used = False  # the plan touched the light-pen logic
        # statistics
        self.words = 0  # 18-bit words started
        self.datao_count = 0

    # ------------------------------------------------------------------ the loop's share
    def attached(self) -> None:
        """On a machine's bus: the registers move into its ``io`` array, with the 342's
        stroke programs, so that the execute loop can run the 340."""
        io = getattr(self.bus.machine, "_io", None)  # type: ignore[union-attr]
        if io is None or len(io) < L.IO_SIZE:
            return  # (a bus without the loop's arrays: the 340 stays here)
        for i in range(L.D, L.D_PN):
            io[i] = self._own[i]
        for index, prog in enumerate(PROGRAMS):
            assert len(prog) <= L.PROG_WIDTH
            io[L.D_PROG_LEN + index] = len(prog)
            for j, op in enumerate(prog):
                io[L.D_PROG + L.PROG_WIDTH * index + j] = op
            g = _glyph_table(index, 0)  # steps, end and extent in units, or a special code
            shape = (-1, 0, 0, 0, 0, 0, 0) if g is None else g[3:]
            for j, v in enumerate(shape):
                io[L.D_GLYPH + L.GLYPH_WIDTH * index + j] = v
        io[L.D_WN] = io[L.D_PN] = 0
        self._regs = io
        self._shared = True

    def detached(self) -> None:
        """Off the bus: the registers (and the points the loop drew) come back here."""
        if self._shared:
            self._take_points()
            io = self._regs
            self._own[L.D : L.D_PN] = [int(v) for v in io[L.D : L.D_PN]]
            self._own[L.D_FAST] = 0
            io[L.D_FAST] = 0
            self._regs = self._own
            self._shared = False

    @property
    def points(self) -> PointLog:
        """The intensified points so far (those the loop drew included)."""
        self._take_points()
        return self._points

    def _take_points(self) -> None:
        """Draw the points of the words the execute loop worked out (it keeps the words,
        and draws their points only when someone looks: most are never looked at)."""
        if not self._shared or not self._regs[L.D_WN]:
            return
        machine = self.bus.machine  # type: ignore[union-attr]
        replay = machine.loop_routine("dis_replay")
        horizon = -1 if self.keep_ns is None else self.now - self.keep_ns - L.LATE_NS
        log = self._points
        while True:
            io = machine._io
            io[L.D_PLOG] = len(log)
            left = replay(io, horizon)
            log.take(io, int(io[L.D_PN]))
            io[L.D_PN] = 0
            if not left:
                break
        io[L.D_PLOG] = len(log)

    def after_loop(self) -> None:
        """After each stretch of the execute loop: if it has kept as many words as it can,
        draw them (see ``keep_ns``)."""
        if self._shared and self._regs[L.D_WN] > L.WFULL:
            self._take_points()
            self._trim_old(self.now)

    def loop_state(self) -> tuple[int, int, int] | None:
        """Whether the execute loop may run the 340 from now on (no light pen, none of
        its state set, no word being replayed or paused) and, if so, (its request lines,
        its next visible change, the next time the host wants it: a frame)."""
        if not self._shared:
            return None
        self._regs = self.bus.machine._io  # type: ignore[union-attr]
        fast = (self.in_loop and self.pen is None and self._gen is None and not self._resumes
                and not self._clears and not self.lp_find and not self.lp_flag)  # fmt: skip
        io = self._regs
        io[L.D_FAST] = int(fast)
        io[L.D_PLOG] = len(self._points)
        io[L.D_KEEP] = -1 if self.keep_ns is None else self.keep_ns
        if not fast:
            return None
        return self.requests(), self._events.head_time(), self._frame_event()

    # ------------------------------------------------------------------ the processor
    def cono(self, value: int) -> None:
        now = self.now
        self.advance(now)
        self.pia_data = value & 7
        self.pia_spec = (value >> 3) & 7
        if value & CONO_INIT:
            self._initialize(now)
        else:
            self._resume(now)

    def datao(self, word: int) -> None:
        now = self.now
        self.advance(now)
        self.datao_count += 1
        self.ib = word & M36  # replaces anything the buffer still held (aap)
        self.ibc = 2
        if self._state == IDLE:
            self._start(now)

    def reset(self) -> None:
        """I/O reset: PIAs off, interface buffer cleared, 340 initialized."""
        now = self.now if self.bus is not None else 0
        self.advance(now)
        self.pia_data = self.pia_spec = 0
        self.ib = self.ibc = 0
        self._initialize(now)

    def coni(self) -> int:
        mode, hef, vef, lp, stop_int, rfd, _, _ = self.vis
        w = (mode << 15) | (self.pia_spec << 3) | self.pia_data
        if vef:
            w |= CONI_VEDGE
        if lp:
            w |= CONI_LIGHT_PEN
        if hef:
            w |= CONI_HEDGE
        if stop_int:
            w |= CONI_STOP
        if rfd and self.ibc == 0:
            w |= CONI_DATA
        return w

    def data_in(self) -> int:
        """DATAI DIS,: the beam position Y,,X (for the light pen)."""
        return (self.vis[7] << 18) | self.vis[6]

    @property
    def data_flag(self) -> bool:
        return bool(self.vis[5] and self.ibc == 0)

    @property
    def special_flag(self) -> bool:
        _, hef, vef, lp, stop_int, _, _, _ = self.vis
        return bool(hef or vef or lp or stop_int)

    def request(self) -> int:
        """The higher-priority (lower-numbered) of the channels requested now, or 0."""
        bits = self.requests()
        return next((n for n in range(1, 8) if bits & (1 << (7 - n))), 0)

    def requests(self) -> int:
        """The 344 has two PIAs: data (data flag) and special (stop, edge, light pen)."""
        bits = 0
        if self.pia_spec and self.special_flag:
            bits |= 1 << (7 - self.pia_spec)
        if self.pia_data and self.data_flag:
            bits |= 1 << (7 - self.pia_data)
        return bits

    # ------------------------------------------------------------------ snapshots
    @property
    def plan(self) -> bytes:
        """The 340's progress through the current word, as ``_plan_fields`` reads it
        (what is due by now applied: a snapshot serves the devices first)."""
        values = [self._state, *self.vis]
        if self._state == BUSY:
            br, t0 = self._half
            values += [br, t0, *self._snap, len(self._resumes), *self._resumes,
                       *self._clears]  # fmt: skip
        return array("q", values).tobytes()

    @plan.setter
    def plan(self, raw: bytes) -> None:
        """Restore the word in progress (a snapshot sets this last).  The screen's points
        after the restored moment are forgotten (a run abandoned), and renderers go on
        from that moment.  A light pen (``pen``, the host's) must be where it was when
        the word started, as for any replay."""
        state, vis, rest = _plan_fields(raw)
        now = self.now
        self._events.clear()
        self._gen = None
        self._state = state
        self.points.drop_after(rest[1] if state == BUSY else now)
        for listener in self.listeners:
            if listener.next_frame_ns != NEVER:
                listener.next_frame_ns = now
        if state == BUSY:
            # work the word out again from its start (as a CONO in mid-word does), up to
            # now, and on to its end or a light-pen pause as it first went
            base = 2 + len(_SNAP_BITS)
            self._half = (rest[0], rest[1])
            self._snap = rest[2:base]
            self._resumes = list(rest[base + 1 : base + 1 + rest[base]])
            self._clears = list(rest[base + 1 + rest[base] :])
            self._mark = len(self.points)
            self._lp_used = any(self._snap[5:8])
            self._cut(now, initialize=False)
            if now in self._clears:  # (a replay stops short of a clearing at its end)
                self.lp_enable = self.lp_find = self.lp_flag = 0
            self._limit = NEVER
            if self._gen is not None and self._yielded == _LIMIT:
                self._drive()
        self.vis = vis

    def registers_changed(self) -> None:
        """A deposit into a 340 between words shows in CONI at once."""
        if self._state != BUSY:
            self._show()

    # ------------------------------------------------------------------ time
    def next_event(self) -> int:
        return min(self._events.head_time(), self._frame_event())

    def _frame_event(self) -> int:
        """When a renderer next wants to look at the screen."""
        t = NEVER
        for listener in self.listeners:
            t = min(t, listener.next_frame_ns)
        return t

    def service(self, now: int) -> None:
        self.advance(now)
        for listener in self.listeners:
            while listener.next_frame_ns <= now:
                listener.frame(self, listener.next_frame_ns)

    def advance(self, now: int) -> None:
        """Bring what the processor sees up to emulated time ``now``; start the next
        word when the current one has ended and the buffer holds one."""
        events = self._events
        while True:
            while events.head_time() <= now:
                self.vis = events.popleft()[1:]
            if self._state == BUSY and self._gen is None and self._t_end <= now:
                self._state = self._end_state
                if self._state == IDLE and self.ibc:
                    self._start(self._t_end)
                    continue
            break
        self._trim_old(now)

    def _trim_old(self, now: int) -> None:
        """Forget points older than ``keep_ns`` once there are many."""
        if self.keep_ns is not None and len(self.points) > max(self.trim_at, self._trim_floor):
            self._trim(now - self.keep_ns)
            # what is left may all be recent: trim again only once it has doubled, so a
            # steady stream costs a copy of the list per doubling, not per word
            self._trim_floor = 2 * len(self.points)

    def _trim(self, before: int) -> None:
        ts = self.points.t
        lo, hi = 0, min(len(ts), self._mark if self._state == BUSY else len(ts))
        while lo < hi:
            mid = (lo + hi) // 2
            if ts[mid] < before:
                lo = mid + 1
            else:
                hi = mid
        if lo:
            self.points.discard_first(lo)
            self._mark -= lo

    # ------------------------------------------------------------------ CONO actions
    def _initialize(self, now: int) -> None:
        """CONO bit 29 (2.5): parameter mode, shift in, STOP, light pen and edge flags
        cleared, ready for data.  The interface buffer is kept (aap)."""
        if self._state == BUSY:
            self._cut(now)
            self._gen = None
        self.shift = 0
        self.lp_enable = self.lp_find = self.lp_flag = 0
        self.stop = self.stop_int = 0
        self.mode = PARAMETER
        self.hef = self.vef = 0
        self.rfd = 1
        self._state = IDLE
        self._events.clear()
        self._show()
        if self.ibc:
            self._start(now)

    def _resume(self, now: int) -> None:
        """Any CONO without bit 29 (2.5): clear the light-pen enable/find/flag; a 340
        paused by a light-pen hit goes on.  A STOP, an edge stop or a hung mode-2/7
        word stay as they are (aap re-escapes or re-runs the stopping word, which for a
        STOP followed by parameter mode stops again)."""
        if self._state == BUSY:
            if self._gen is not None and self._paused_at <= now:
                # paused by the light pen: go on from here
                self.lp_enable = self.lp_find = self.lp_flag = 0
                self._resumes.append(now)
                self._show()
                self._drive()
                return
            if self._lp_used:
                # replay to now, clear, go on; a later replay repeats the clearing
                self._cut(now, initialize=False)
                self.lp_enable = self.lp_find = self.lp_flag = 0
                self._clears.append(now)
                self._show()
                self._limit = NEVER
                if self._gen is not None and self._yielded == _LIMIT:
                    self._drive()
                return
            return  # the light-pen state is clear all through this word: nothing to do
        self.lp_enable = self.lp_find = self.lp_flag = 0
        self._show()

    # ------------------------------------------------------------------ plans
    def _snapshot(self) -> tuple[int, ...]:
        return (self.x, self.y, self.mode, self.scale, self.intensity, self.lp_enable,
                self.lp_find, self.lp_flag, self.shift, self.stop, self.stop_int, self.br,
                self.hef, self.vef, self.rfd)  # fmt: skip

    def _restore(self, s: tuple[int, ...]) -> None:
        (self.x, self.y, self.mode, self.scale, self.intensity, self.lp_enable,
         self.lp_find, self.lp_flag, self.shift, self.stop, self.stop_int, self.br,
         self.hef, self.vef, self.rfd) = s  # fmt: skip

    def _show(self) -> None:
        """Make the 340's current state visible at once (after a CONO)."""
        self.vis = (self.mode, self.hef, self.vef, self.lp_flag, self.stop_int, self.rfd,
                    self.x, self.y)  # fmt: skip

    def _emit(self, t: int) -> None:
        self._events.append((t, self.mode, self.hef, self.vef, self.lp_flag, self.stop_int,
                             self.rfd, self.x, self.y))  # fmt: skip

    def _start(self, t0: int) -> None:
        """DATA SYNC at ``t0``: take the next 18-bit word from the buffer and plan it."""
        br = (self.ib >> 18) & M18
        self.ib = (self.ib << 18) & M36
        self.ibc -= 1
        self.words += 1
        self._snap = self._snapshot()
        self._mark = len(self.points)
        self._half = (br, t0)
        self._resumes = []
        self._clears = []
        self._resume_idx = 0
        self._paused_at = NEVER
        self._lp_used = bool(self.lp_enable or self.lp_find or self.lp_flag)
        self._limit = NEVER
        self._state = BUSY
        self.rfd = 0
        self.vis = self.vis[:5] + (0,) + self.vis[6:]
        self._gen = self._plan(br, t0)
        self._drive()

    def _drive(self) -> None:
        """Run the plan until it ends, pauses on the light pen, or passes the limit."""
        assert self._gen is not None
        try:
            self._yielded = next(self._gen)
        except StopIteration:
            self._gen = None
            self._yielded = ""

    def _cut(self, t: int, initialize: bool = True) -> None:
        """Replay the current word from its start up to time ``t`` (a CONO at ``t``):
        afterwards the 340's state is that of time ``t`` and ``self._gen`` (if not None)
        is suspended at the first step after ``t``.  For an initialize, the points and
        events after ``t`` (of a step begun before it) are dropped: they never happen;
        for a resume they are kept, as the step goes on."""
        self._restore(self._snap)
        self.points.truncate(self._mark)
        self._events.clear()
        self._resume_idx = 0
        self._paused_at = NEVER
        br, t0 = self._half
        self.rfd = 0
        self._gen = self._plan(br, t0)
        self._yielded = ""
        # light-pen clearings by resumes earlier in this word happen again on the way
        for c in self._clears:
            if c >= t:
                break
            self._limit = c
            self._drive()
            if self._gen is None or self._yielded != _LIMIT:
                break
            self.lp_enable = self.lp_find = self.lp_flag = 0
        self._limit = t
        if self._gen is not None and self._yielded in ("", _LIMIT):
            self._drive()
        if initialize:
            self.points.drop_after(t)
            self._events.clear()  # those up to t were applied already
        else:
            later = [e for e in self._events if e[0] > t]
            self._events.clear()
            self._events.extend(later)

    def _end(self, t: int, state: int) -> None:
        self._t_end = t
        self._end_state = state
        self._emit(t)

    def _pen_near(self, x: int, y: int) -> bool:
        pen = self.pen
        if pen is None:
            return False
        dx, dy = pen[0] - x, pen[1] - y
        return dx * dx + dy * dy <= 4

    def _pause(self, t: int) -> Generator[str, None, int]:
        """Stop at a light-pen hit until a resume; return the time work goes on.

        ``_resume`` records each resume time in ``_resumes``; a replay (``_cut``) finds
        them there and goes through the same pauses without stopping."""
        self._paused_at = t
        self._emit(t)
        if self._resume_idx >= len(self._resumes):
            yield _PAUSE
        r = self._resumes[self._resume_idx]
        self._resume_idx += 1
        self._paused_at = NEVER
        self.lp_enable = self.lp_find = self.lp_flag = 0  # what the resume did (also in a replay)
        return r + COUNT_NS  # aap: a resume goes on to SEQ DLY after 1 us

    _paused_at = NEVER

    def _plan(self, br: int, t: int) -> Generator[str, None, None]:
        """Work out one 18-bit word starting with DATA SYNC at time ``t``.

        A generator so that a replay (``_cut``) can stop it at a given time and a
        light-pen hit can pause it; normally it runs to the end in one step.
        """
        # DATA SYNC: clear BR, BRM, S and the edge flags; 2.8 us (2.5 Timing)
        self.hef = self.vef = 0
        t += SYNC_NS
        if t > self._limit:
            yield _LIMIT
        # READ TO S: the light-pen flag rises from a find; load BR
        if self.lp_find and self.lp_enable:
            self.lp_flag = 1
            self._lp_used = True
        self.br = br
        t += SETTLE_NS
        if t > self._limit:
            yield _LIMIT
        mode = self.mode
        # --- parameter mode (2.5 mode 0)
        if mode == PARAMETER:
            self._read_mode(br)
            if br & 0o10:
                self.intensity = br & 7
            if br & 0o100:
                self.scale = (br >> 4) & 3
            if br & 0o2000:
                self.stop = 1
                self.stop_int = 1 if br & 0o1000 else 0
                self._end(t, STOPPED)
            else:
                self.rfd = 1
                self._end(t, IDLE)
            return
        # --- point mode (2.5 mode 1)
        if mode == POINT:
            while self.lp_flag:  # a light-pen flag holds the word until a resume
                t = yield from self._pause(t)
                t += SETTLE_NS
            self._read_mode(br)
            if br & 0o200000:
                self.y = br & 0o1777
                self._emit(t)
                t += Y_LOAD_NS + (POSITION_NS if br & 0o2000 else 0)
            else:
                self.x = br & 0o1777
                self._emit(t)
                t += POSITION_NS
            if br & 0o2000:
                self._intensify(t)
            t += SETTLE_NS
            self.rfd = 1
            self._end(t, IDLE)
            return
        # --- character mode (2.5 mode 3, the 342)
        if mode == CHARACTER:
            yield from self._characters(br, t)
            return
        # --- vector, vector continue, increment (2.5 modes 4, 5, 6)
        if mode in (VECTOR, VECTOR_CONTINUE, INCREMENT):
            yield from self._steps(br, t, mode)
            return
        # --- slave (2), subroutine (7): not on a basic 340; the sequencer waits forever
        self._end(t, STOPPED)

    def _read_mode(self, br: int) -> None:
        """Next mode and light-pen enable from a parameter or point word (2.5)."""
        self.mode = (br >> 13) & 7
        if br & 0o10000:
            self.lp_enable = 1 if br & 0o4000 else 0
            self._lp_used = True

    def _intensify(self, t: int) -> None:
        self.points.append(self.x, self.y, self.intensity, t)
        if self.lp_enable and self._pen_near(self.x, self.y):
            self.lp_find = 1

    def _steps(self, br: int, t: int, mode: int) -> Generator[str, None, None]:
        """Vector, vector-continue and increment words: BRM counts / nibble steps."""
        step = 1 << self.scale
        intens = br & 0o200000
        increment = mode == INCREMENT
        cont = mode == VECTOR_CONTINUE
        if increment:
            n = 4
            mx = my = 0
            base = 0
            sx = sy = step
        else:
            # 2.5 mode 4: 177400 = dY (sign 100000), 000377 = dX (sign 000200); BRM of
            # 128 counts if either magnitude >= 64, else 64 counts (counting by 2)
            mx = br & 0o177
            my = (br >> 8) & 0o177
            sx = -step if br & 0o200 else step
            sy = -step if br & 0o100000 else step
            n, base = (128, 6) if (mx >= 64 or my >= 64) else (64, 5)
            if cont and mx == 0 and my == 0:
                # counts forever without moving and never asks for data
                self._end(t, STOPPED)
                return
        x, y = self.x, self.y
        inten = self.intensity
        px, py, pi, pt = self.points.x, self.points.y, self.points.i, self.points.t
        pen = self.pen
        # the light-pen logic can only act with a pen, or a find/flag left from before
        watch = pen is not None or self.lp_find or self.lp_flag
        limit = self._limit
        if mode == VECTOR and self.fast and not watch and limit == NEVER:
            # Fast path: each axis moves one way only, so if the end is on the raster
            # no step crosses an edge, and the vector is known at once.
            x1, y1 = x + sx * mx, y + sy * my
            if 0 <= x1 < RASTER and 0 <= y1 < RASTER:
                n, counts, cx, cy = _vector_table(mx, my)
                if intens and counts:
                    t1 = t + COUNT_NS
                    px.fromlist([x + sx * c for c in cx])
                    py.fromlist([y + sy * c for c in cy])
                    pi.frombytes(bytes((inten,)) * len(counts))
                    pt.fromlist([t1 + STEP_NS * c for c in counts])
                self.x, self.y = x1, y1
                if br & 0o400000:
                    self._escape()
                self.rfd = 1
                self._end(t + n * STEP_NS, IDLE)
                return
        i = 0
        while True:
            if t > limit:
                self.x, self.y = x, y
                yield _LIMIT
                limit = self._limit
            i += 1
            last = i == n and not cont
            dx = dy = 0
            if increment:
                nib = (br >> (16 - 4 * i)) & 0o17
                h = nib & 0o14
                dx = step if h == 0o10 else -step if h == 0o14 else 0
                v = nib & 0o03
                dy = step if v == 0o02 else -step if v == 0o03 else 0
            elif i < n:
                k = _TZ[i]
                if (mx >> (base - k)) & 1:
                    dx = sx
                if (my >> (base - k)) & 1:
                    dy = sy
            else:
                i = 0  # vector continue: the BRM wraps and keeps counting
            if watch and self.lp_find and self.lp_enable:
                self.lp_flag = 1
            edge = False
            if dx or dy:
                x += dx
                y += dy
                if not 0 <= x < RASTER:
                    self.hef = 1
                    x &= 0o1777
                    edge = True
                if not 0 <= y < RASTER:
                    self.vef = 1
                    y &= 0o1777
                    edge = True
            if edge:
                self.x, self.y = x, y
                if last:
                    # the last step of a word: the following data request clears the
                    # flag before anyone sees it (2.5 Edges); the wrapped point is dark
                    self.hef = self.vef = 0
                elif cont:
                    # vector continue: escape and ask for the next word; the flag is
                    # cleared at once (2.5 Edges)
                    self.hef = self.vef = 0
                    self._escape()
                    self.rfd = 1
                    self._end(t + COUNT_NS, IDLE)
                    return
                else:
                    # vector / increment: flag, escape to parameter mode and stop
                    self._emit(t)
                    self._escape()
                    self._end(t + COUNT_NS, STOPPED)
                    return
            t += COUNT_NS
            if watch and self.lp_flag and not last:
                self.x, self.y = x, y
                t = yield from self._pause(t)
            if intens and (dx or dy) and not edge:
                px.append(x)
                py.append(y)
                pi.append(inten)
                pt.append(t)
                if pen is not None and self.lp_enable and self._pen_near(x, y):
                    self.lp_find = 1
                    self._lp_used = True
            t += SETTLE_NS
            if last:
                self.x, self.y = x, y
                if br & 0o400000:
                    self._escape()
                self.rfd = 1
                self._end(t, IDLE)
                return

    def _escape(self) -> None:
        self.mode = PARAMETER
        self.lp_find = 0

    def _characters(self, br: int, t: int) -> Generator[str, None, None]:
        """Character mode: three 6-bit codes through the 342 (2.5 mode 3)."""
        step = 1 << self.scale
        x, y = self.x, self.y
        inten = self.intensity
        px, py, pi, pt = self.points.x, self.points.y, self.points.i, self.points.t
        pen = self.pen
        watch = pen is not None or self.lp_find
        limit = self._limit
        fast = self.fast and not watch and limit == NEVER
        scale = self.scale
        for j in range(3):
            if j:
                t += SETTLE_NS
            code = (br >> (12 - 6 * j)) & 0o77
            if fast:
                g = _glyph_table(code + 64 * self.shift, scale)
                if (g is not None and x + g[6] >= 0 and x + g[7] < RASTER
                        and y + g[8] >= 0 and y + g[9] < RASTER):  # fmt: skip
                    # the whole character at once: it cannot wrap
                    if g[0]:
                        px.fromlist([x + d for d in g[0]])
                        py.fromlist([y + d for d in g[1]])
                        pi.frombytes(bytes((inten,)) * len(g[0]))
                        pt.fromlist([t + d for d in g[2]])
                    x += g[4]
                    y += g[5]
                    t += g[3] * STEP_NS
                    continue
            for a, b, on in STEPS[code + 64 * self.shift]:
                if b is None:  # a special operation
                    if a == ESCAPE:
                        self.x, self.y = x, y
                        self._escape()
                        self.rfd = 1
                        self._end(t, IDLE)
                        return
                    if a == CR:
                        x = 0
                    elif a == SHIFT_IN:
                        self.shift = 0
                    elif a == SHIFT_OUT:
                        self.shift = 1
                    continue
                if t > limit:
                    self.x, self.y = x, y
                    yield _LIMIT
                    limit = self._limit
                if watch and self.lp_find and self.lp_enable and not self.lp_flag:
                    self.lp_flag = 1
                    self.x, self.y = x, y
                    self._emit(t)  # a light-pen hit interrupts; characters go on
                x = (x + a * step) & 0o1777  # character mode wraps without a flag
                y = (y + b * step) & 0o1777
                t += COUNT_NS
                if on:
                    px.append(x)
                    py.append(y)
                    pi.append(inten)
                    pt.append(t)
                    if pen is not None and self.lp_enable and self._pen_near(x, y):
                        self.lp_find = 1
                        self._lp_used = True
                t += SETTLE_NS
        self.x, self.y = x, y
        self.rfd = 1
        self._end(t, IDLE)

    # ------------------------------------------------------------------ host helpers
    @property
    def state_name(self) -> str:
        """'idle', 'busy', 'paused' or 'stopped' (as of the latest event)."""
        if self._state == BUSY and self._gen is not None and self._paused_at != NEVER:
            return "paused"
        return ("idle", "busy", "stopped")[self._state]

    def finish(self) -> None:
        """Tell every renderer attached (:func:`pdp6.host.render.attach_display`) that the
        run is over (writes the final PNG and the GIF)."""
        for listener in self.listeners:
            close = getattr(listener, "close", None)
            if close is not None:
                close(self)
