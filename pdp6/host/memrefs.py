"""Which locations the next instruction reads and writes, found by running it.

Read and write breakpoints, watchpoints, the ``--trace`` listing and the runner's idle
test single-step the machine and ask this module, before each step, what the
instruction is about to touch.  The answer is not worked out from a second description
of the instruction set, which would drift from the processor: the step is *dry-run*,
through the execute loop itself (``loop.run``, as plain Python), on a copy of the state
and over a core that records every access and keeps its writes to itself.  So the
answer follows everything the processor does: the effective-address chain, XCT, a UUO
and the instruction at 41 it executes, an interrupt instruction and a BLKI/BLKO that
counts out, BLT, bytes, stacks, I/O.

Addresses are physical core addresses, as ``m.memory`` shows them: 0-17 are the
accumulators, and in user mode an address is the relocated one the core saw.  The
instruction fetch is not a read; an indirect word, XCT's operand and the word at 41 a
UUO executes are.  A reference to non-existent memory touches no core and is not listed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..cpu import dis340, engines
from ..cpu import state as S
from ..iobus import NEVER
from ..machine import Machine

RH = 0o777777


@dataclass
class References:
    """What one instruction (or interrupt instruction) read and wrote, in order."""

    address: int  # where the instruction word came from (the PC, or 40+2n)
    word: int
    reads: list[int] = field(default_factory=list)
    writes: list[int] = field(default_factory=list)
    interrupt: int = 0  # the PI channel (1-7) whose instruction this is, or 0

    def reads_any(self, addresses: set[int]) -> set[int]:
        return addresses.intersection(self.reads)

    def writes_any(self, addresses: set[int]) -> set[int]:
        return addresses.intersection(self.writes)

    def written(self, limit: int = 4) -> list[int]:
        """The first few addresses written, in order (for a trace line)."""
        return self.writes[:limit]


class RecordingCore:
    """Core for a dry run: reads come from the machine's words (or this run's own
    writes), every access is recorded, and nothing is written through."""

    def __init__(self, words: Any) -> None:
        self.words = words
        self.changed: dict[int, int] = {}
        self.reads: list[int] = []
        self.writes: list[int] = []

    def __getitem__(self, addr: int) -> int:
        self.reads.append(addr)
        value = self.changed.get(addr)
        return int(self.words[addr]) if value is None else value

    def __setitem__(self, addr: int, value: int) -> None:
        self.writes.append(addr)
        self.changed[addr] = value


def _plain(name: str) -> Callable[..., Any]:
    return engines.plain()[name]


def _dry_state(m: Machine) -> list[int]:
    """A copy of the state vector for a dry run: no host device will fall due in it
    (the caller serviced those already), so the step runs whatever the deadline."""
    st = [int(v) for v in m._st]
    st[S.HOST_EVENT] = NEVER
    st[S.EVENT] = st[S.CLOCK_NEXT]
    st[S.FIRST] = 1  # a breakpoint at the PC does not stop the step
    return st


def _interrupt_channel(st: list[int]) -> int | None:
    """The channel (0 for 40 itself) whose interrupt instruction ``loop.run`` fetches
    next instead of the PC's, or None: its prologue, on a copy."""
    st = list(st)
    _plain("clock_due")(st)
    if not (st[S.PI_ON] or st[S.PIR] or st[S.PI_CYCLE]):
        return None
    if not st[S.PI_CYCLE]:
        _plain("pi_latch")(st)
    bit = _plain("pi_takeable")(st)
    if not (bit or st[S.PI_CYCLE]):
        return None
    return 8 - int(bit).bit_length() if bit else 0


def _ints(array: Any) -> list[int]:
    """A copy as a list of Python ints, of a list or a numpy array (the compiled engine's)."""
    return list(array) if isinstance(array, list) else array.tolist()


def _dry_run(m: Machine, st: list[int]) -> RecordingCore:
    """One step of ``loop.run`` over a recording core and copies of the I/O arrays.

    The copy of ``io`` stops at the 340's slots, with the loop's share of the 340 off:
    the step leaves a 340 I/O instruction queued, as for a device the host runs, and
    reads and writes the same core (a copy of its words and points would cost more than
    the step)."""
    core = RecordingCore(m._mem)
    io, ioq = _ints(m._io[: dis340.D_FAST + 1]), _ints(m._ioq)
    io[dis340.D_FAST] = 0
    _plain("run")(core, st, io, ioq, m._optab, m._bp, 1)
    return core


def _references(address: int, core: RecordingCore, channel: int) -> References:
    """The recorded accesses, less the instruction fetch (always the first read; there
    is none when the fetch itself faulted)."""
    if not core.reads:
        return References(address, 0, [], list(dict.fromkeys(core.writes)), channel)
    fetched, *reads = core.reads
    return References(address, int(core.words[fetched]), list(dict.fromkeys(reads)),
                      list(dict.fromkeys(core.writes)), channel)  # fmt: skip


def next_references(m: Machine) -> References:
    """What the next step of ``m`` will read and write (the interrupt instruction, if one
    is about to be taken)."""
    m.bus.service_due()  # device events due now happen before the next fetch
    st = _dry_state(m)
    channel = _interrupt_channel(st)
    core = _dry_run(m, st)
    if channel is None:
        return _references(m.pc, core, 0)
    return _references(0o40 + 2 * channel, core, channel)


def references_at(m: Machine, address: int) -> References:
    """What the instruction at ``address`` would read and write if it ran now, without
    an interrupt (the runner asks this of every instruction of a loop)."""
    st = _dry_state(m)
    st[S.PC] = address
    st[S.PI_ON] = st[S.PIR] = st[S.PI_CYCLE] = st[S.PI_ACTIVE] = 0
    return _references(address, _dry_run(m, st), 0)
