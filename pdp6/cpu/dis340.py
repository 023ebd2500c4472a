"""The Type 340 display run by the execute loop itself, so that feeding it costs no exit.

Mac Hack refreshes its screen with a ``BLKO DIS,`` on the data channel for every 36-bit
word of its display lists: some ten thousand words an emulated second.  Handing each to
the host's :class:`pdp6.devices.display340.Display340` cost far more than the search
itself, so the loop does the 340's common work here, in the loop's own subset of Python
(compiled by numba, plain Python on the other engines): it takes the DATAO/BLKO words,
the CONOs between words and the DATAIs, works each 18-bit word out when it starts (its
points into a buffer the host empties, its visible changes as timed events), and applies
those events at their emulated time, as the host device does.

The device keeps all its state in the ``io`` array (the slots below), so this code and
the device's own Python work on the same registers, and the device decides when the loop
may act (``D_FAST``): when no light pen is held to the screen and none of its state is
set, and no word is being replayed.  Everything else -- a CONO in the middle of a word
(which replays it), the light pen, the I/O reset -- is left to the device, whose code
this follows statement by statement for the cases it takes (tests compare the two
point by point).

What a refresh word costs decides how much slower Mac Hack thinks with its screen on,
so the common path is kept short (docs/machine.md has the figures):

* **One look a word.**  A 36-bit word's two halves are worked out together when it
  arrives (``dis_start_word``): the 340 takes the second the instant the first ends,
  with nothing the processor could see in between.
* **Lazy visible changes.**  The loop stops to look at the 340 only when its request
  lines would change (``dis_due``): the end of a word, an edge, a stop.  A position or
  mode change in between waits in the event queue until a CONI or DATAI asks
  (``dis_look``) or the stretch of the loop ends (``dis_settle``, which also takes back
  a second half planned ahead while the first is still in progress, so the device's own
  code always finds the 340 as it would have it).
* **The refresh's interrupt in one step.**  ``loop.refresh_340`` does the data
  channel's ``BLKO DIS,`` at 40+2n without the general instruction path.
* Words are only worked out, not drawn: their points come when the host looks
  (``dis_replay``).
* **A memo of words.**  While the program thinks, its refresh sends the same words
  from the same 340 states again and again, so what a whole 36-bit word did (its
  registers, end times, log entries, events and what ``dis_due`` finds among them) is
  kept by the word and the registers it depends on, and set down again when the same
  word comes in the same state (``dis_memo_find``).  Entries are placed by the word's
  address in core, so a refresh reads them in order.
* No loop whose length varies from word to word on the common path: branch
  mispredictions, not instructions, were most of what was left.
"""

from __future__ import annotations

from ..jit import jit, jit_inline
from .state import (
    BOUNDARY,
    CLOCK_NEXT,
    DIS_EVENT,
    DIS_REQ,
    EVENT,
    HOST_EVENT,
    IOQ_N,
    REASON_IO,
    REASON_POINTS,
    TIME,
)

NEVER = (1 << 62) - 1
M18 = 0o777777
M36 = 0o777777777777
DEV = 0o130 >> 2  # the 340's row in the io array (device code 130)
IO_DEVICES = 384  # three rows of 128: present, CONI, DATAI

# The 340's registers and the device's bookkeeping (see Display340), from D on.
D = IO_DEVICES
D_FAST = D + 0  # 1: the loop runs the 340 (set by the device)
D_PIA_DATA = D + 1
D_PIA_SPEC = D + 2
D_IB = D + 3
D_IBC = D + 4
D_MODE = D + 5
D_X = D + 6
D_Y = D + 7
D_SCALE = D + 8
D_INTENSITY = D + 9
D_SHIFT = D + 10
D_LP_ENABLE = D + 11
D_LP_FIND = D + 12
D_LP_FLAG = D + 13
D_STOP = D + 14
D_STOP_INT = D + 15
D_BR = D + 16
D_HEF = D + 17
D_VEF = D + 18
D_RFD = D + 19
D_WORDS = D + 20
D_DATAO_COUNT = D + 21
D_STATE = D + 22
D_T_END = D + 23
D_END_STATE = D + 24
D_LP_USED = D + 25
D_MARK = D + 26  # points before the word in progress (log + buffer; set by dis_replay)
D_HALF_BR = D + 27
D_HALF_T0 = D + 28
D_PLOG = D + 29  # points in the device's log (the buffer comes after them)
D_VIS = D + 30  # 8: mode hef vef lp stop_int rfd x y, as the processor sees them
D_SNAP = D + 38  # 15: the registers at the start of the word (Display340._snapshot)
D_EV_HEAD = D + 53
D_EV_N = D + 54
D_EV = D + 55  # EV_MAX events of EV_WIDTH: time, then the 8 of D_VIS packed (dis_pack)
EV_MAX = 16
EV_MASK = EV_MAX - 1  # (a ring of a power of two: & rather than %)
EV_WIDTH = 2
# An event's visible state packed in one word: (shift, mask) of each of D_VIS's eight
# (mode hef vef lp stop_int rfd x y).  dis_pack and dis_unpack, and the device's Python
# (Display340's event queue), all read this table.
VIS_FIELDS = ((0, 0o7), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (8, 0o1777), (18, 0o1777))
# (the same, by name: the loop's code takes numbers, not tables)
(VS_MODE, VS_HEF, VS_VEF, VS_LP, VS_STOP_INT, VS_RFD, VS_X, VS_Y) = (s for s, _ in VIS_FIELDS)
(VM_MODE, VM_HEF, VM_VEF, VM_LP, VM_STOP_INT, VM_RFD, VM_X, VM_Y) = (m for _, m in VIS_FIELDS)
EV_RFD = 1 << VS_RFD  # ready for data, in an event's packed state
D_DRAW = D_EV + EV_MAX * EV_WIDTH  # 1 while dis_replay draws a word's points
D_KEEP = D_DRAW + 1  # ns of points the host keeps (-1: all): older words are forgotten
# The second half of a 36-bit word is planned with the first (dis_start_word); until the
# first has ended, what is needed to take that back (dis_unchain): its snapshot, (18-bit
# word, start time) and end time.  D_AHEAD: 0 none, 1 planned ahead, 2 and logged.
D_AHEAD = D_KEEP + 1
D_SNAP1 = D_AHEAD + 1
D_HALF1 = D_SNAP1 + 15
D_T_END1 = D_HALF1 + 2
# The words the loop worked out, whose points are drawn when the host asks for them
# (dis_replay): a ring of WCAP words, each the start time and the word with the 340's
# state (D_W + 2k, D_W + 2k + 1).  (What the loop touches for every word is kept in
# these first cache lines: a refresh word comes every few dozen instructions.)
D_WHEAD = D_T_END1 + 1
D_WN = D_WHEAD + 1
WCAP = 65536  # some seven emulated seconds of Mac Hack's refresh
WFULL = WCAP - 64  # (a step starts at most a few dozen words)
LATE_NS = 1_000_000  # a word's points come within this of its start (at most 0.2 ms)
D_SAVE = D_WN + 1  # the registers D+1 .. D_SAVED-1 while dis_replay works
D_SAVED = D_PLOG
D_PROG_LEN = D_SAVE + D_SAVED - D  # 128: the 342's stroke program lengths
PROG_WIDTH = 32
D_PROG = D_PROG_LEN + 128  # 128 x PROG_WIDTH: the stroke programs (chargen342.PROGRAMS)
# 128 x GLYPH_WIDTH: each program's steps (-1: a special code), end and extent in units
# (Display340._glyph_table at scale 0)
GLYPH_WIDTH = 7
D_GLYPH = D_PROG + 128 * PROG_WIDTH
D_W = D_GLYPH + 128 * GLYPH_WIDTH  # the ring of words (above)
# The points dis_replay draws, for the host to take.
D_PN = D_W + 2 * WCAP  # points in the buffer
PCAP = 16384  # the buffer's size in points
D_PX = D_PN + 1
D_PY = D_PX + PCAP
D_PI = D_PY + PCAP
D_PT = D_PI + PCAP
# The words worked out before, by the word and the 340's state it started from
# (dis_start_word): MCAP entries of MW slots, see dis_memo_record.
MCAP = 8192  # (direct-mapped: room enough that a refresh's words seldom meet)
MW = 8
MEMO_EVENTS = 4  # a word queuing more is not kept
LOG_MASK = (1 << 47) - 1  # a log entry (dis_log): the memo keeps more above it
D_ADDR = D_PT + PCAP  # where in core the last BLKO's word came from (-1: not known)
D_MEMO_HITS = D_ADDR + 1  # words set down from the memo (for tests)
D_MEMO = D_ADDR + 8
IO_SIZE = D_MEMO + MCAP * MW
PFULL = PCAP - 512  # dis_replay stops past this (a word draws at most 127 points)

# Modes, sequencer states, timing, bits: as in pdp6.devices.display340 (reference 2.5)
PARAMETER, POINT, CHARACTER = 0, 1, 3
VECTOR, VECTOR_CONTINUE, INCREMENT = 4, 5, 6
IDLE, BUSY, STOPPED = 0, 1, 2
SYNC_NS = 2800
SETTLE_NS = 500
COUNT_NS = 1000
POSITION_NS = 35000
Y_LOAD_NS = 200
RASTER = 1024
CONO_INIT = 0o100
# the 342's stroke operations (chargen342)
RIGHT, LEFT, UP, DOWN, INTENSIFY = 0o10, 0o14, 0o02, 0o03, 0o20
ESCAPE, CR, SHIFT_IN, SHIFT_OUT = 0o40, 0o100, 0o200, 0o400
SPECIAL = ESCAPE | CR | SHIFT_IN | SHIFT_OUT
BLKI, DATAI, BLKO, DATAO, CONO = 0, 1, 2, 3, 4
# What the processor sees, in D_VIS's order; the registers in Display340._snapshot's order
VIS_SLOTS = (D_MODE, D_HEF, D_VEF, D_LP_FLAG, D_STOP_INT, D_RFD, D_X, D_Y)
SNAP_SLOTS = (D_X, D_Y, D_MODE, D_SCALE, D_INTENSITY, D_LP_ENABLE, D_LP_FIND, D_LP_FLAG,
              D_SHIFT, D_STOP, D_STOP_INT, D_BR, D_HEF, D_VEF, D_RFD)  # fmt: skip


@jit_inline
def dis_copy(io, dest: int, slots: tuple[int, ...], n: int) -> None:
    """The ``n`` registers ``slots`` into consecutive slots from ``dest``."""
    for j in range(n):
        io[dest + j] = io[slots[j]]


@jit_inline
def dis_pack(mode: int, hef: int, vef: int, lp: int, stop_int: int, rfd: int, x: int,
             y: int) -> int:  # fmt: skip
    """The visible state in one word, as an event keeps it (VIS_FIELDS)."""
    return (mode << VS_MODE | hef << VS_HEF | vef << VS_VEF | lp << VS_LP
            | stop_int << VS_STOP_INT | rfd << VS_RFD | x << VS_X | y << VS_Y)  # fmt: skip


@jit_inline
def dis_unpack(io, v: int) -> None:
    """An event's packed visible state into D_VIS (mode hef vef lp stop_int rfd x y)."""
    io[D_VIS] = (v >> VS_MODE) & VM_MODE
    io[D_VIS + 1] = (v >> VS_HEF) & VM_HEF
    io[D_VIS + 2] = (v >> VS_VEF) & VM_VEF
    io[D_VIS + 3] = (v >> VS_LP) & VM_LP
    io[D_VIS + 4] = (v >> VS_STOP_INT) & VM_STOP_INT
    io[D_VIS + 5] = (v >> VS_RFD) & VM_RFD
    io[D_VIS + 6] = (v >> VS_X) & VM_X
    io[D_VIS + 7] = (v >> VS_Y) & VM_Y


@jit_inline
def dis_emit(io, t: int) -> None:
    """Queue a visible change at time ``t``: the state as it is now (Display340._emit)."""
    n = io[D_EV_N]
    if n >= EV_MAX:
        return  # (a word queues at most three)
    k = D_EV + EV_WIDTH * ((io[D_EV_HEAD] + n) & EV_MASK)
    io[k] = t
    io[k + 1] = dis_pack(io[D_MODE], io[D_HEF], io[D_VEF], io[D_LP_FLAG], io[D_STOP_INT],
                         io[D_RFD], io[D_X], io[D_Y])  # fmt: skip
    io[D_EV_N] = n + 1


@jit_inline
def dis_end(io, t: int, state: int) -> None:
    io[D_T_END] = t
    io[D_END_STATE] = state
    dis_emit(io, t)


@jit_inline
def dis_point(io, x: int, y: int, t: int) -> None:
    """An intensified point into the buffer (only while dis_replay draws)."""
    if not io[D_DRAW]:
        return
    n = io[D_PN]
    io[D_PX + n] = x
    io[D_PY + n] = y
    io[D_PI + n] = io[D_INTENSITY]
    io[D_PT + n] = t
    io[D_PN] = n + 1


@jit_inline
def dis_read_mode(io, br: int) -> None:
    io[D_MODE] = (br >> 13) & 7
    if br & 0o10000:
        io[D_LP_ENABLE] = 1 if br & 0o4000 else 0
        io[D_LP_USED] = 1


@jit_inline
def dis_escape(io) -> None:
    io[D_MODE] = PARAMETER
    io[D_LP_FIND] = 0


@jit_inline
def dis_unit(field: int) -> int:
    """An increment step's two bits for one axis: 10 one unit up (right), 11 one down
    (left), 0x none."""
    return (field >> 1) * (1 - 2 * (field & 1))


@jit_inline
def dis_steps(io, br: int, t: int, mode: int) -> None:
    """Vector, vector-continue and increment words (Display340._steps, no light pen)."""
    step = 1 << io[D_SCALE]
    intens = br & 0o200000
    increment = mode == INCREMENT
    cont = mode == VECTOR_CONTINUE
    mx = 0
    my = 0
    base = 0
    sx = step
    sy = step
    n = 4
    if not increment:
        mx = br & 0o177
        my = (br >> 8) & 0o177
        if br & 0o200:
            sx = -step
        if br & 0o100000:
            sy = -step
        n = 64
        base = 5
        if mx >= 64 or my >= 64:
            n = 128
            base = 6
        if cont and mx == 0 and my == 0:
            dis_end(io, t, STOPPED)  # counts forever without moving, never asks for data
            return
    x = io[D_X]
    y = io[D_Y]
    if increment and not io[D_DRAW]:
        # four steps of -1, 0 or +1 on each axis: if no position on the way is off the
        # raster, the word is known at once (the steps below, without their branches)
        x1 = x + step * dis_unit((br >> 14) & 3)
        x2 = x1 + step * dis_unit((br >> 10) & 3)
        x3 = x2 + step * dis_unit((br >> 6) & 3)
        x4 = x3 + step * dis_unit((br >> 2) & 3)
        y1 = y + step * dis_unit((br >> 12) & 3)
        y2 = y1 + step * dis_unit((br >> 8) & 3)
        y3 = y2 + step * dis_unit((br >> 4) & 3)
        y4 = y3 + step * dis_unit(br & 3)
        if (x1 | x2 | x3 | x4 | y1 | y2 | y3 | y4) >> 10 == 0:
            io[D_X] = x4
            io[D_Y] = y4
            if br & 0o400000:
                dis_escape(io)
            io[D_RFD] = 1
            dis_end(io, t + 4 * (COUNT_NS + SETTLE_NS), IDLE)
            return
    if mode == VECTOR and not io[D_DRAW]:
        # each axis moves one way only: if the end is on the raster no step crosses an
        # edge, and the vector is known at once (Display340._steps' fast path)
        x1 = x + sx * mx
        y1 = y + sy * my
        if x1 >= 0 and x1 < RASTER and y1 >= 0 and y1 < RASTER:
            io[D_X] = x1
            io[D_Y] = y1
            if br & 0o400000:
                dis_escape(io)
            io[D_RFD] = 1
            dis_end(io, t + n * (COUNT_NS + SETTLE_NS), IDLE)
            return
    i = 0
    while True:
        i += 1
        last = i == n and not cont
        dx = 0
        dy = 0
        if increment:
            nib = (br >> (16 - 4 * i)) & 0o17
            h = nib & 0o14
            if h == 0o10:
                dx = step
            elif h == 0o14:
                dx = -step
            v = nib & 0o03
            if v == 0o02:
                dy = step
            elif v == 0o03:
                dy = -step
        elif i < n:
            k = 0  # the BRM bit that goes 0->1 at count i: its trailing zeros
            while (i >> k) & 1 == 0:
                k += 1
            if (mx >> (base - k)) & 1:
                dx = sx
            if (my >> (base - k)) & 1:
                dy = sy
        else:
            i = 0  # vector continue: the BRM wraps and keeps counting
        edge = False
        if dx or dy:
            x += dx
            y += dy
            if x < 0 or x >= RASTER:
                io[D_HEF] = 1
                x &= 0o1777
                edge = True
            if y < 0 or y >= RASTER:
                io[D_VEF] = 1
                y &= 0o1777
                edge = True
        if edge:
            io[D_X] = x
            io[D_Y] = y
            if last:
                io[D_HEF] = 0  # cleared by the following data request, unseen
                io[D_VEF] = 0
            elif cont:
                io[D_HEF] = 0
                io[D_VEF] = 0
                dis_escape(io)
                io[D_RFD] = 1
                dis_end(io, t + COUNT_NS, IDLE)
                return
            else:
                dis_emit(io, t)
                dis_escape(io)
                dis_end(io, t + COUNT_NS, STOPPED)
                return
        t += COUNT_NS
        if intens and (dx or dy) and not edge:
            dis_point(io, x, y, t)
        t += SETTLE_NS
        if last:
            io[D_X] = x
            io[D_Y] = y
            if br & 0o400000:
                dis_escape(io)
            io[D_RFD] = 1
            dis_end(io, t, IDLE)
            return


@jit_inline
def dis_characters(io, br: int, t: int) -> None:
    """Character mode through the 342 (Display340._characters, no light pen)."""
    step = 1 << io[D_SCALE]
    x = io[D_X]
    y = io[D_Y]
    for j in range(3):
        if j:
            t += SETTLE_NS
        index = ((br >> (12 - 6 * j)) & 0o77) + 64 * io[D_SHIFT]
        g = D_GLYPH + GLYPH_WIDTH * index
        if (
            not io[D_DRAW]
            and io[g] >= 0
            and x + step * io[g + 3] >= 0
            and x + step * io[g + 4] < RASTER
            and y + step * io[g + 5] >= 0
            and y + step * io[g + 6] < RASTER
        ):
            # the whole character at once: it cannot wrap (Display340._characters)
            x += step * io[g + 1]
            y += step * io[g + 2]
            t += io[g] * (COUNT_NS + SETTLE_NS)
            continue
        for s in range(io[D_PROG_LEN + index]):
            op = io[D_PROG + PROG_WIDTH * index + s]
            if op & SPECIAL:
                if op == ESCAPE:
                    io[D_X] = x
                    io[D_Y] = y
                    dis_escape(io)
                    io[D_RFD] = 1
                    dis_end(io, t, IDLE)
                    return
                if op == CR:
                    x = 0
                elif op == SHIFT_IN:
                    io[D_SHIFT] = 0
                elif op == SHIFT_OUT:
                    io[D_SHIFT] = 1
                continue
            h = op & 0o14
            if h == RIGHT:
                x += step
            elif h == LEFT:
                x -= step
            v = op & 0o03
            if v == UP:
                y += step
            elif v == DOWN:
                y -= step
            x &= 0o1777  # character mode wraps without a flag
            y &= 0o1777
            t += COUNT_NS
            if op & INTENSIFY:
                dis_point(io, x, y, t)
            t += SETTLE_NS
    io[D_X] = x
    io[D_Y] = y
    io[D_RFD] = 1
    dis_end(io, t, IDLE)


@jit
def dis_plan(io, br: int, t: int) -> None:
    """Work out one 18-bit word from DATA SYNC at ``t`` (Display340._plan)."""
    io[D_HEF] = 0
    io[D_VEF] = 0
    t += SYNC_NS
    if io[D_LP_FIND] and io[D_LP_ENABLE]:
        io[D_LP_FLAG] = 1
        io[D_LP_USED] = 1
    io[D_BR] = br
    t += SETTLE_NS
    mode = io[D_MODE]
    if mode == PARAMETER:
        dis_read_mode(io, br)
        if br & 0o10:
            io[D_INTENSITY] = br & 7
        if br & 0o100:
            io[D_SCALE] = (br >> 4) & 3
        if br & 0o2000:
            io[D_STOP] = 1
            io[D_STOP_INT] = 1 if br & 0o1000 else 0
            dis_end(io, t, STOPPED)
        else:
            io[D_RFD] = 1
            dis_end(io, t, IDLE)
    elif mode == POINT:
        dis_read_mode(io, br)
        if br & 0o200000:
            io[D_Y] = br & 0o1777
            dis_emit(io, t)
            t += Y_LOAD_NS
            if br & 0o2000:
                t += POSITION_NS
        else:
            io[D_X] = br & 0o1777
            dis_emit(io, t)
            t += POSITION_NS
        if br & 0o2000:
            dis_point(io, io[D_X], io[D_Y], t)
        t += SETTLE_NS
        io[D_RFD] = 1
        dis_end(io, t, IDLE)
    elif mode == CHARACTER:
        dis_characters(io, br, t)
    elif mode == VECTOR or mode == VECTOR_CONTINUE or mode == INCREMENT:
        dis_steps(io, br, t, mode)
    else:
        dis_end(io, t, STOPPED)  # slave, subroutine: not on a basic 340; it waits forever


@jit_inline
def dis_snapshot(io, dest: int) -> None:
    """The registers at the start of a word, in Display340._snapshot's order."""
    dis_copy(io, dest, SNAP_SLOTS, 15)


@jit_inline
def dis_start(io, t0: int, snap: int, half: int) -> None:
    """DATA SYNC at ``t0``: the next 18-bit word from the buffer (Display340._start),
    its snapshot (unless ``snap`` < 0: dis_settle works it out) and (word, start) into
    ``snap`` and ``half``."""
    br = (io[D_IB] >> 18) & M18
    io[D_IB] = (io[D_IB] << 18) & M36
    io[D_IBC] -= 1
    io[D_WORDS] += 1
    if snap >= 0:
        dis_snapshot(io, snap)  # (its points, and D_MARK, come with dis_replay)
    io[half] = br
    io[half + 1] = t0
    io[D_LP_USED] = 1 if io[D_LP_ENABLE] or io[D_LP_FIND] or io[D_LP_FLAG] else 0
    io[D_STATE] = BUSY
    io[D_RFD] = 0
    io[D_VIS + 5] = 0
    dis_log(io, br, t0)
    dis_plan(io, br, t0)


@jit_inline
def dis_first_half(io) -> None:
    """The first half's snapshot and (word, start) where the device looks for the word
    in progress's."""
    for j in range(15):
        io[D_SNAP + j] = io[D_SNAP1 + j]
    io[D_HALF_BR] = io[D_HALF1]
    io[D_HALF_T0] = io[D_HALF1 + 1]


@jit
def dis_start_word(io, t0: int) -> None:
    """dis_start_word_here, called (the loop's one inlined copy is in dis_datao)."""
    dis_start_word_here(io, t0)


@jit_inline
def dis_start_word_here(io, t0: int) -> int:
    """DATA SYNC at ``t0`` for the buffer's next half-word and, when that one ends ready
    for data with the other half still in the buffer, for that one too at once: the 340
    takes it at that instant with nothing the processor could see in between, so one
    event serves the whole 36-bit word.  The first half's own end is then not ready for
    data (its event says so) and dis_unchain can take the second back (dis_settle).

    A refresh sends the same words from the same states again and again while the
    program thinks, so a whole word's outcome is kept (dis_memo_record) and, when the
    same word comes in the same state, set down again (dis_memo_apply) instead of
    worked out.  Returns dis_due's answer when the memo knew it, else -1."""
    m = dis_memo_find(io)
    if m > 0:
        io[D_MEMO_HITS] += 1
        return dis_memo_apply(io, t0, m)
    dis_start_word_new(io, t0, m)
    return -1


@jit
def dis_start_word_new(io, t0: int, m: int) -> None:
    """dis_start_word for a word not in the memo: worked out, and kept there unless
    ``m`` is 0 (a word the memo does not take)."""
    if m < 0:
        key1 = dis_memo_key(io)
        key2 = dis_memo_key2(io)
        dis_plan_word(io, t0)
        dis_memo_record(io, t0, -m, key1, key2)
    else:
        dis_plan_word(io, t0)


@jit_inline
def dis_memo_key(io) -> int:
    """The 36-bit word in the buffer and the registers its work depends on, but for
    those in dis_memo_key2 (X, Y, mode, scale, case)."""
    return (io[D_IB] | io[D_X] << 36 | io[D_Y] << 46 | io[D_MODE] << 56 | io[D_SCALE] << 59
            | io[D_SHIFT] << 61)  # fmt: skip


@jit_inline
def dis_memo_key2(io) -> int:
    """The rest of the key: intensity, light pen, stop (and a bit that is never 0)."""
    return (1 | io[D_INTENSITY] << 1 | io[D_LP_ENABLE] << 4 | io[D_LP_FIND] << 5
            | io[D_LP_FLAG] << 6 | io[D_STOP] << 7 | io[D_STOP_INT] << 8)  # fmt: skip


@jit_inline
def dis_memo_find(io) -> int:
    """The memo's entry for the word about to start: > 0 it holds the word, < 0 (minus
    the entry) it may be kept there, 0 the memo does not take it (half a word in the
    buffer, events still queued, the log nearly full)."""
    if io[D_IBC] != 2 or io[D_EV_N] or io[D_WN] > WCAP - 2 or io[D_DRAW]:
        return 0
    key1 = dis_memo_key(io)
    key2 = dis_memo_key2(io)
    # by the word's address, where known: a refresh then reads the memo in order
    h = io[D_ADDR]
    if h < 0:
        h = key1 ^ (key1 >> 17) ^ (key1 >> 31) ^ (key1 >> 47) ^ (key2 << 5)
    m = D_MEMO + MW * (h & (MCAP - 1))
    if io[m] == key1 and io[m + 1] & 0o777 == key2:
        return m
    return -m


@jit_inline
def dis_plan_word(io, t0: int) -> None:
    """dis_start_word worked out."""
    dis_start(io, t0, D_SNAP1, D_HALF1)
    k = D_EV + EV_WIDTH * ((io[D_EV_HEAD] + io[D_EV_N] - 1) & EV_MASK)
    if (io[D_END_STATE] == IDLE and io[D_IBC] and io[D_EV_N] and io[k] == io[D_T_END]
            and not io[D_DRAW]):  # fmt: skip
        io[k + 1] &= ~EV_RFD
        io[D_T_END1] = io[D_T_END]
        logged = io[D_WN] < WCAP
        dis_start(io, io[D_T_END], -1, D_HALF_BR)
        io[D_AHEAD] = 2 if logged else 1
    else:
        dis_first_half(io)
        io[D_AHEAD] = 0


@jit_inline
def dis_due_case(io) -> int:
    """What dis_due's answer depends on besides the queue: the lines each channel
    raises (bits 0 and 1: the special and data channels are assigned and can be
    raised) and those raised now (bits 2 and 3)."""
    spec = 0o170 if io[D_PIA_SPEC] else 0
    data = EV_RFD if io[D_PIA_DATA] and io[D_IBC] == 0 else 0
    vis = dis_pack(io[D_VIS], io[D_VIS + 1], io[D_VIS + 2], io[D_VIS + 3], io[D_VIS + 4],
                   io[D_VIS + 5], 0, 0)  # fmt: skip
    return ((1 if spec else 0) | (2 if data else 0) | (4 if vis & spec else 0)
            | (8 if vis & data else 0))  # fmt: skip


@jit_inline
def dis_due_lines(io, v: int) -> int:
    """The lines the packed visible state ``v`` raises, as dis_due_case's bits 2, 3."""
    spec = 0o170 if io[D_PIA_SPEC] else 0
    data = EV_RFD if io[D_PIA_DATA] and io[D_IBC] == 0 else 0
    return (1 if v & spec else 0) | (2 if v & data else 0)


@jit_inline
def dis_memo_record(io, t0: int, m: int, key1: int, key2: int) -> None:
    """Keep in the memo's entry ``m`` what dis_plan_word did from ``t0`` (MW slots: the
    key; the rest of it with the number of events and the end times after ``t0``; the
    registers it left; the second half's word for the log; the events it queued, each
    its time after ``t0`` and what it shows)."""
    n = io[D_EV_N]
    dt = io[D_T_END] - t0
    dt1 = io[D_T_END1] - t0 + 1 if io[D_AHEAD] else 0
    if n > MEMO_EVENTS or dt >= 1 << 24 or dt1 >= 1 << 24:
        return
    io[m] = key1
    io[m + 1] = key2 | n << 9 | dt << 12 | dt1 << 36
    io[m + 2] = (io[D_X] | io[D_Y] << 10 | io[D_MODE] << 20 | io[D_SCALE] << 23
                 | io[D_INTENSITY] << 25 | io[D_SHIFT] << 28 | io[D_LP_ENABLE] << 29
                 | io[D_LP_FIND] << 30 | io[D_LP_FLAG] << 31 | io[D_STOP] << 32
                 | io[D_STOP_INT] << 33 | io[D_HEF] << 34 | io[D_VEF] << 35
                 | io[D_RFD] << 36 | io[D_LP_USED] << 37 | io[D_END_STATE] << 38
                 | io[D_BR] << 40)  # fmt: skip
    head = io[D_EV_HEAD]
    for i in range(n):
        k = D_EV + EV_WIDTH * ((head + i) & EV_MASK)
        io[m + 4 + i] = (io[k] - t0) << 32 | io[k + 1]
    # which event dis_due finds now (7: none), and in which case: the same word from
    # the same registers queues the same events, but the request lines it is compared
    # with are not in the key
    case = dis_due_case(io)
    first = 7
    for i in range(n):
        v = io[D_EV + EV_WIDTH * ((head + i) & EV_MASK) + 1]
        if first == 7 and dis_due_lines(io, v) != case >> 2:
            first = i
    last = io[D_W + 2 * ((io[D_WHEAD] + io[D_WN] - 1) & (WCAP - 1)) + 1]
    io[m + 3] = last | case << 48 | first << 52


@jit_inline
def dis_memo_apply(io, t0: int, m: int) -> int:
    """What dis_plan_word does from ``t0``, as dis_memo_record kept it in entry ``m``;
    returns what dis_due will find, or -1 if the entry does not know (another case)."""
    ib = io[D_IB]
    dis_snapshot(io, D_SNAP1)
    n = io[D_WN]
    k = D_W + 2 * ((io[D_WHEAD] + n) & (WCAP - 1))
    io[k] = t0  # the log: the first half, and the registers it started from
    io[k + 1] = ((ib >> 18) | io[D_X] << 18 | io[D_Y] << 28 | io[D_MODE] << 38
                 | io[D_SCALE] << 41 | io[D_INTENSITY] << 43 | io[D_SHIFT] << 46)  # fmt: skip
    io[D_HALF1] = ib >> 18
    io[D_HALF1 + 1] = t0
    a = io[m + 2]
    io[D_X] = a & 0o1777
    io[D_Y] = (a >> 10) & 0o1777
    io[D_MODE] = (a >> 20) & 7
    io[D_SCALE] = (a >> 23) & 3
    io[D_INTENSITY] = (a >> 25) & 7
    io[D_SHIFT] = (a >> 28) & 1
    io[D_LP_ENABLE] = (a >> 29) & 1
    io[D_LP_FIND] = (a >> 30) & 1
    io[D_LP_FLAG] = (a >> 31) & 1
    io[D_STOP] = (a >> 32) & 1
    io[D_STOP_INT] = (a >> 33) & 1
    io[D_HEF] = (a >> 34) & 1
    io[D_VEF] = (a >> 35) & 1
    io[D_RFD] = (a >> 36) & 1
    io[D_LP_USED] = (a >> 37) & 1
    io[D_END_STATE] = (a >> 38) & 3
    io[D_BR] = (a >> 40) & M18
    io[D_STATE] = BUSY
    io[D_VIS + 5] = 0
    b = io[m + 1]
    io[D_T_END] = t0 + ((b >> 12) & 0o77777777)
    # the queue is empty: its first slots take the events (all four, those past the
    # word's own unread)
    io[D_EV_HEAD] = 0
    e = io[m + 4]
    io[D_EV] = t0 + (e >> 32)
    io[D_EV + 1] = e & 0o37777777777
    e = io[m + 5]
    io[D_EV + 2] = t0 + (e >> 32)
    io[D_EV + 3] = e & 0o37777777777
    e = io[m + 6]
    io[D_EV + 4] = t0 + (e >> 32)
    io[D_EV + 5] = e & 0o37777777777
    e = io[m + 7]
    io[D_EV + 6] = t0 + (e >> 32)
    io[D_EV + 7] = e & 0o37777777777
    io[D_EV_N] = (b >> 9) & 7
    dt1 = b >> 36
    if dt1:
        t1 = t0 + dt1 - 1
        k = D_W + 2 * ((io[D_WHEAD] + n + 1) & (WCAP - 1))
        io[k] = t1
        io[k + 1] = io[m + 3] & LOG_MASK
        io[D_WN] = n + 2
        io[D_IB] = 0
        io[D_IBC] = 0
        io[D_WORDS] += 2
        io[D_T_END1] = t1
        io[D_HALF_BR] = ib & M18
        io[D_HALF_T0] = t1
        io[D_AHEAD] = 2
    else:
        io[D_WN] = n + 1
        io[D_IB] = (ib << 18) & M36
        io[D_IBC] = 1
        io[D_WORDS] += 1
        dis_first_half(io)
        io[D_AHEAD] = 0
    g = io[m + 3]
    if (g >> 48) & 15 != dis_due_case(io):
        return -1
    first = (g >> 52) & 7
    if first < MEMO_EVENTS:
        return t0 + (io[m + 4 + first] >> 32)
    return io[D_T_END] if io[D_IBC] else NEVER


@jit_inline
def dis_first_end(io) -> None:
    """The registers as the first half of a word planned ahead left them, worked out
    again from its snapshot (a plan depends on nothing else); its events are not queued
    again."""
    head = io[D_EV_HEAD]
    n = io[D_EV_N]
    for j in range(15):
        io[SNAP_SLOTS[j]] = io[D_SNAP1 + j]
    io[D_LP_USED] = 1 if io[D_LP_ENABLE] or io[D_LP_FIND] or io[D_LP_FLAG] else 0
    io[D_RFD] = 0
    dis_plan(io, io[D_HALF1], io[D_HALF1 + 1])
    io[D_EV_HEAD] = head
    io[D_EV_N] = n


@jit_inline
def dis_unchain(io) -> None:
    """Take back the half-word dis_start_word planned ahead: the first half is in
    progress again and the second back in the buffer, as the device has them."""
    io[D_IB] = io[D_HALF_BR] << 18
    io[D_IBC] = 1
    io[D_WORDS] -= 1
    if io[D_AHEAD] == 2:
        io[D_WN] -= 1
    dis_first_end(io)  # (its end time and state too)
    dis_first_half(io)
    io[D_STATE] = BUSY
    n = 0
    while n < io[D_EV_N] and io[D_EV + EV_WIDTH * ((io[D_EV_HEAD] + n) & EV_MASK)] <= io[D_T_END]:
        n += 1
    io[D_EV_N] = n
    if n:
        io[D_EV + EV_WIDTH * ((io[D_EV_HEAD] + n - 1) & EV_MASK) + 1] |= EV_RFD
    io[D_AHEAD] = 0


@jit_inline
def dis_log(io, br: int, t0: int) -> None:
    """Keep the word and the state it starts from, to draw its points later."""
    n = io[D_WN]
    if n >= WCAP:
        return  # (the loop asked the host to take the words before this could be)
    k = D_W + 2 * ((io[D_WHEAD] + n) & (WCAP - 1))
    io[k] = t0
    io[k + 1] = (
        br
        | (io[D_X] << 18)
        | (io[D_Y] << 28)
        | (io[D_MODE] << 38)
        | (io[D_SCALE] << 41)
        | (io[D_INTENSITY] << 43)
        | (io[D_SHIFT] << 46)
    )
    io[D_WN] = n + 1


@jit_inline
def dis_forget(io, horizon: int) -> None:
    """Forget the words that started before ``horizon``: their points are older than
    the host keeps."""
    while io[D_WN] and io[D_W + 2 * io[D_WHEAD]] < horizon:
        io[D_WHEAD] = (io[D_WHEAD] + 1) & (WCAP - 1)
        io[D_WN] -= 1


@jit_inline
def dis_full(io, now: int) -> bool:
    """Whether the host must take the words now: the ring is nearly full with words
    whose points it keeps."""
    if io[D_WN] <= WFULL:
        return False
    if io[D_KEEP] >= 0:
        dis_forget(io, now - io[D_KEEP] - LATE_NS)
    return io[D_WN] > WFULL


@jit
def dis_replay(io, horizon: int) -> int:
    """Draw the points of the kept words from the oldest, into the point buffer, until
    it is nearly full; words that started before ``horizon`` are forgotten unseen.
    Each word is worked out again from the state it started from, with its points on,
    and the 340's registers are left as they were.  Returns the words left."""
    dis_forget(io, horizon)
    for i in range(D_SAVED - D - 1):
        io[D_SAVE + i] = io[D + 1 + i]
    head = io[D_EV_HEAD]
    n = io[D_EV_N]
    mark = io[D_MARK]
    io[D_DRAW] = 1
    while io[D_WN] and io[D_PN] <= PFULL:
        k = io[D_WHEAD]
        w = io[D_W + 2 * k + 1]
        io[D_X] = (w >> 18) & 0o1777
        io[D_Y] = (w >> 28) & 0o1777
        io[D_MODE] = (w >> 38) & 7
        io[D_SCALE] = (w >> 41) & 3
        io[D_INTENSITY] = (w >> 43) & 7
        io[D_SHIFT] = (w >> 46) & 1
        io[D_LP_ENABLE] = 0
        io[D_LP_FIND] = 0
        io[D_LP_FLAG] = 0
        if io[D_WN] == 1:
            mark = io[D_PLOG] + io[D_PN]  # the last word is the one in progress, if any
        dis_plan(io, w & M18, io[D_W + 2 * k])
        io[D_WHEAD] = (k + 1) & (WCAP - 1)
        io[D_WN] -= 1
    io[D_DRAW] = 0
    for i in range(D_SAVED - D - 1):
        io[D + 1 + i] = io[D_SAVE + i]
    io[D_EV_HEAD] = head
    io[D_EV_N] = n
    io[D_MARK] = mark
    return io[D_WN]


@jit_inline
def dis_advance(io, now: int) -> None:
    """What the processor sees brought up to ``now``; the next word started when the
    last has ended and the buffer holds one (Display340.advance)."""
    while True:
        n = io[D_EV_N]
        if n and io[D_EV + EV_WIDTH * ((io[D_EV_HEAD] + n - 1) & EV_MASK)] <= now:
            # all due (a word's end, the common case): the last shows
            dis_unpack(io, io[D_EV + EV_WIDTH * ((io[D_EV_HEAD] + n - 1) & EV_MASK) + 1])
            io[D_EV_HEAD] = 0  # (the next word's events in the same cache lines)
            io[D_EV_N] = 0
        elif n and io[D_EV + EV_WIDTH * io[D_EV_HEAD]] <= now:
            head = io[D_EV_HEAD]
            last = 0  # each event is the whole visible state: only the last due one shows
            while n and io[D_EV + EV_WIDTH * head] <= now:
                last = io[D_EV + EV_WIDTH * head + 1]
                head = (head + 1) & EV_MASK
                n -= 1
            io[D_EV_HEAD] = head if n else 0  # (the next word's events in the same lines)
            io[D_EV_N] = n
            dis_unpack(io, last)
        if io[D_STATE] == BUSY and io[D_T_END] <= now:
            io[D_STATE] = io[D_END_STATE]
            if io[D_STATE] == IDLE and io[D_IBC]:
                dis_start_word(io, io[D_T_END])
                continue
        break


@jit_inline
def dis_show(io) -> None:
    """The 340's state visible at once (Display340._show)."""
    dis_copy(io, D_VIS, VIS_SLOTS, 8)


@jit_inline
def dis_bits(io, v: int) -> int:
    """The request lines with the visible state ``v`` (packed, dis_pack)."""
    bits = 0
    if io[D_PIA_SPEC] and v & 0o170:  # an edge flag, the light pen, the stop interrupt
        bits |= 1 << (7 - io[D_PIA_SPEC])
    if io[D_PIA_DATA] and v & EV_RFD and io[D_IBC] == 0:
        bits |= 1 << (7 - io[D_PIA_DATA])
    return bits


@jit_inline
def dis_due(io, vis: int) -> int:
    """When the processor must next look at the 340: its first queued change of the
    request lines, or the start of the buffer's next half-word (which plans more).
    Other visible changes wait in the queue until then, or until a CONI or DATAI asks
    (dis_look) or the loop ends (dis_settle)."""
    n = io[D_EV_N]
    if n:
        # which lines each event would raise (dis_bits, with the PIAs and the buffer,
        # which no event changes, taken out of the loop; two causes on one channel
        # count as a change: a look that finds nothing new)
        spec = 0o170 if io[D_PIA_SPEC] else 0
        data = EV_RFD if io[D_PIA_DATA] and io[D_IBC] == 0 else 0
        lines = (vis & spec != 0, vis & data != 0)
        head = io[D_EV_HEAD]
        for i in range(n):
            k = D_EV + EV_WIDTH * ((head + i) & EV_MASK)
            v = io[k + 1]
            if (v & spec != 0, v & data != 0) != lines:
                return io[k]
    if io[D_STATE] == BUSY and io[D_IBC]:
        return io[D_T_END]
    return NEVER


@jit_inline
def dis_requests(io, st) -> None:
    """The request lines and when the loop must next look (the part of the bus's
    publishing the processor needs between instructions)."""
    dis_requests_due(io, st, -1)


@jit_inline
def dis_requests_due(io, st, due: int) -> None:
    """dis_requests, with dis_due's answer if known (``due`` >= 0)."""
    v = dis_pack(io[D_VIS], io[D_VIS + 1], io[D_VIS + 2], io[D_VIS + 3], io[D_VIS + 4],
                 io[D_VIS + 5], 0, 0)  # fmt: skip
    st[DIS_REQ] = dis_bits(io, v)
    st[DIS_EVENT] = due if due >= 0 else dis_due(io, v)
    st[EVENT] = min(st[CLOCK_NEXT], st[HOST_EVENT], st[DIS_EVENT])


@jit_inline
def dis_publish(io, st) -> None:
    """CONI, DATAI, request lines and next event, as the bus publishes a host device's."""
    w = (io[D_VIS] << 15) | (io[D_PIA_SPEC] << 3) | io[D_PIA_DATA]
    if io[D_VIS + 2]:
        w |= 0o004000
    if io[D_VIS + 3]:
        w |= 0o002000
    if io[D_VIS + 1]:
        w |= 0o001000
    if io[D_VIS + 4]:
        w |= 0o000400
    if io[D_VIS + 5] and io[D_IBC] == 0:
        w |= 0o000200
    io[128 + DEV] = w
    io[256 + DEV] = (io[D_VIS + 7] << 18) | io[D_VIS + 6]
    dis_requests(io, st)


@jit
def dis_look(io, st) -> None:
    """A CONI or DATAI of the 340: what it shows brought up to the start of the
    instruction first (a change due during it shows at the next, as when the loop
    looked at every change)."""
    if io[D_FAST]:
        dis_advance(io, st[BOUNDARY])
        dis_publish(io, st)


@jit
def dis_settle(io, st) -> None:
    """At the end of each stretch of the execute loop: the 340 brought up to now, a
    half-word planned ahead taken back while the first is in progress, and everything
    published, so that the host's device finds the 340 as its own code would have it."""
    if not io[D_FAST]:
        return
    now = st[BOUNDARY]  # (a change due since the last instruction began waits, as before)
    dis_advance(io, now)
    if io[D_AHEAD] and now < io[D_T_END1]:
        dis_unchain(io)
    elif io[D_AHEAD]:
        # the second half in progress: its snapshot, which dis_start_word left out, is
        # where the first half ended
        for i in range(D_SAVED - D - 1):
            io[D_SAVE + i] = io[D + 1 + i]
        dis_first_end(io)
        dis_snapshot(io, D_SNAP)
        for i in range(D_SAVED - D - 1):
            io[D + 1 + i] = io[D_SAVE + i]
    io[D_AHEAD] = 0
    dis_publish(io, st)


@jit_inline
def dis_cono(io, now: int, value: int) -> bool:
    """CONO DIS, between words; False (nothing done) in the middle of one, which the
    device replays (Display340.cono)."""
    dis_advance(io, now)
    if io[D_STATE] == BUSY:
        return False
    io[D_PIA_DATA] = value & 7
    io[D_PIA_SPEC] = (value >> 3) & 7
    io[D_LP_ENABLE] = 0
    io[D_LP_FIND] = 0
    io[D_LP_FLAG] = 0
    if value & CONO_INIT:
        io[D_SHIFT] = 0
        io[D_STOP] = 0
        io[D_STOP_INT] = 0
        io[D_MODE] = PARAMETER
        io[D_HEF] = 0
        io[D_VEF] = 0
        io[D_RFD] = 1
        io[D_STATE] = IDLE
        io[D_EV_N] = 0
        dis_show(io)
        if io[D_IBC]:
            dis_start_word(io, now)
    else:
        dis_show(io)
    return True


@jit_inline
def dis_datao(io, now: int, word: int, addr: int) -> int:
    """DATAO or BLKO DIS, (Display340.datao) of ``word`` from ``addr`` (-1: unknown);
    dis_due's answer if the memo knew it, else -1."""
    dis_advance(io, now)
    io[D_ADDR] = addr
    io[D_DATAO_COUNT] += 1
    io[D_IB] = word & M36
    io[D_IBC] = 2
    if io[D_STATE] == IDLE:
        return dis_start_word_here(io, now)
    return -1


@jit
def dis_service(io, st) -> int:
    """The 340's next visible change has come (the loop calls this at an instruction
    boundary, as the host would its device); REASON_POINTS when the buffer wants
    emptying, else 0."""
    if not io[D_FAST]:  # (the host runs the 340 now: its events are the host's)
        st[DIS_EVENT] = NEVER
        st[EVENT] = min(st[CLOCK_NEXT], st[HOST_EVENT])
        return 0
    dis_advance(io, st[TIME])
    dis_requests(io, st)
    if dis_full(io, st[TIME]):
        return REASON_POINTS
    return 0


@jit
def dis_deliver(io, st, ioq) -> int:
    """The step's queued I/O for the 340, done here in order while the loop may run the
    340; the rest stays queued for the host.  0 when nothing is left, else the reason to
    leave the loop."""
    n = st[IOQ_N]
    k = 0
    if io[D_FAST]:
        now = st[TIME]
        while k < n and ioq[3 * k] == DEV:
            func = ioq[3 * k + 1]
            if func == CONO:
                if not dis_cono(io, now, ioq[3 * k + 2]):
                    break
            elif func == BLKO or func == DATAO:
                dis_datao(io, now, ioq[3 * k + 2], -1)
            k += 1  # (DATAI and BLKI read the published position; nothing to do)
    if k == 0:
        return REASON_IO
    for j in range(3 * (n - k)):
        ioq[j] = ioq[3 * k + j]
    st[IOQ_N] = n - k
    dis_publish(io, st)
    if n > k:
        return REASON_IO
    if dis_full(io, st[TIME]):
        return REASON_POINTS
    return 0
