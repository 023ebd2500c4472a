"""The I/O bus: devices by device code, their status as the CPU sees it, interrupt lines.

A device is a small class in the spirit of a SIMH device table: registers as
attributes, listed once in ``registers`` (SIMH's ``REG`` table: name, width), which
``show devices``, ``examine``/``deposit DEV.NAME`` and snapshots all read, and handlers
for what the processor does to it.  The execute loop never calls Python; instead the
bus publishes each device's CONI word, DATAI word and interrupt request into arrays the
loop reads, and the loop queues every CONO, DATAO and DATAI for the bus to deliver
before the next instruction.  The Type 340 is the exception: the loop runs it itself
while it may (``Device.loop_state``; :mod:`pdp6.cpu.dis340`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from .cpu import state as S

NEVER = (1 << 62) - 1  # "no event scheduled"


@dataclass(frozen=True)
class Reg:
    """One piece of a device's state (SIMH's ``REG``), held in the attribute ``attr``
    and named ``attr.upper()``.  ``bits`` > 0: a register of that width, shown in octal
    and checked on deposit and restore.  ``bits`` = 0: state that is not a register (a
    count, or a time in emulated ns): shown in decimal, not deposited.  ``shown`` False:
    kept in snapshots, not listed (a tape's frames).  ``check``: for state kept as
    bytes, raises ValueError when a value to restore is not well formed."""

    attr: str
    bits: int = 0
    shown: bool = True
    check: Callable[[bytes], object] | None = None

    @property
    def name(self) -> str:
        return self.attr.upper()

    def text(self, value: Any) -> str:
        """The value as ``show devices`` and ``examine`` print it."""
        if self.bits:
            return f"{int(value):0{(self.bits + 2) // 3}o}"
        if value == NEVER:
            return "never"
        return str(value)

    def fits(self, value: int) -> bool:
        """Whether ``value`` fits the register (any number fits state of width 0)."""
        return not self.bits or 0 <= value < 1 << self.bits


def find_register(registers: tuple[Reg, ...], name: str) -> Reg | None:
    """The register of the table called ``name`` (any case), or None."""
    return next((r for r in registers if r.name == name.upper()), None)


_NAMES = ("BLKI", "DATAI", "BLKO", "DATAO", "CONO", "CONI", "CONSZ", "CONSO")


class Device:
    """Base class of a device on the I/O bus.

    Subclasses set ``code`` (as written in instructions, e.g. 0o120) and ``name`` and
    override what they need.  After any handler the bus re-reads ``coni()``,
    ``data_in()``, ``request()`` and ``next_event()``, so handlers just change state.
    """

    code: int = 0
    name: str = "DEV"
    #: The device's state, for show, examine, deposit and snapshots; a device with
    #: none is not saved in snapshots.
    registers: tuple[Reg, ...] = ()

    def __init__(self) -> None:
        self.bus: IOBus | None = None

    # --- what the processor does -------------------------------------------------
    def cono(self, value: int) -> None:
        """CONO DEV,value (value is 0,,E)."""

    def datao(self, word: int) -> None:
        """DATAO or BLKO: a word from the processor."""

    def on_datai(self) -> None:
        """The processor has just read ``data_in()`` with DATAI or BLKI."""

    def reset(self) -> None:
        """I/O reset (CONO APR,200000): clear flags and PIA."""

    def registers_changed(self) -> None:
        """Called after a deposit or a restore has set registers directly, for a device
        whose CONI is derived from its registers rather than read from them."""

    # --- what the processor sees --------------------------------------------------
    def coni(self) -> int:
        """The CONI word (also tested by CONSZ/CONSO)."""
        return 0

    def data_in(self) -> int:
        """The word DATAI would read now (no side effects; see ``on_datai``)."""
        return 0

    def request(self) -> int:
        """The PI channel (1-7) this device requests now, or 0."""
        return 0

    def requests(self) -> int:
        """The PI channels requested now as bits (channel n = ``1 << (7 - n)``).

        Most devices have one PIA and need only ``request``; a device with two (the 344
        display interface: data and special) overrides this.
        """
        chan = self.request()
        return 1 << (7 - chan) if chan else 0

    # --- time -----------------------------------------------------------------------
    def next_event(self) -> int:
        """Emulated time (ns) at which ``service`` must run, or ``NEVER``."""
        return NEVER

    def service(self, now: int) -> None:
        """Called once emulated time has reached ``next_event()``."""

    # --- a device the execute loop runs itself (the 340: pdp6.cpu.dis340) ------------
    def attached(self) -> None:
        """Now on a machine's bus (``self.bus`` is set)."""

    def detached(self) -> None:
        """About to leave the bus (``self.bus`` is still set)."""

    def loop_state(self) -> tuple[int, int, int] | None:
        """None for a device the host runs (all but the 340).  A device whose work the
        execute loop can do returns, while it may: (its request lines, its next event,
        which the loop handles itself, and the next time the host wants it)."""
        return None

    def after_loop(self) -> None:
        """After each stretch of the execute loop (to take what it produced)."""

    def register(self, name: str) -> Reg | None:
        """The register called ``name`` (any case), or None."""
        return find_register(self.registers, name)

    @property
    def now(self) -> int:
        """Emulated time in nanoseconds."""
        assert self.bus is not None, f"{self.name} is not attached to a machine"
        return int(self.bus.machine._st[S.TIME])


D = TypeVar("D", bound=Device)  # attach returns the very device, typed as given


class BusArrays(Protocol):
    """What the bus reads and writes of its machine (a :class:`pdp6.machine.Machine`):
    the state vector, the I/O arrays the execute loop reads, and the end of the current
    run.  Named here so that the bus needs no import of the machine that builds it."""

    _st: Any
    _io: Any
    _deadline: int

    def loop_routine(self, name: str) -> Any: ...


class IOBus:
    """Device registry by device code; delivers queued I/O and publishes device state."""

    def __init__(self, machine: BusArrays) -> None:
        self.machine = machine
        self.devices: dict[int, Device] = {}

    def attach(self, device: D) -> D:
        """Put ``device`` on the bus at its code (APR 000 and PI 004 are built in)."""
        code = device.code
        if code & 3 or not 0o10 <= code <= 0o774:
            raise ValueError(
                f"device code {code:o} is not a multiple of 4 in 010..774 (000 and 004 are "
                "the built-in APR and PI)"
            )
        if code in self.devices:
            raise ValueError(f"device code {code:o} is already taken by {self.devices[code].name}")
        device.bus = self
        self.devices[code] = device
        self.machine._io[code >> 2] = 1
        device.attached()
        self.publish(device)
        return device

    def detach(self, code: int) -> None:
        device = self.devices.pop(code, None)
        if device is not None:
            device.detached()
            device.bus = None
            n = code >> 2
            io = self.machine._io
            io[n] = io[128 + n] = io[256 + n] = 0
            self.refresh()

    def get(self, name_or_code: str | int) -> Device | None:
        if isinstance(name_or_code, int):
            return self.devices.get(name_or_code)
        for dev in self.devices.values():
            if dev.name == name_or_code.upper():
                return dev
        return None

    def publish(self, device: Device, refresh: bool = True) -> None:
        """Copy one device's visible state into the arrays the execute loop reads
        (``refresh``: and recompute the request lines and next event, which a caller
        publishing several devices does once, after them)."""
        n = device.code >> 2
        io = self.machine._io
        io[128 + n] = device.coni() & 0o777777777777
        io[256 + n] = device.data_in() & 0o777777777777
        if refresh:
            self.refresh()

    def refresh(self) -> None:
        """Recompute the interrupt request lines and the next device event."""
        st = self.machine._st
        lines = loop_lines = 0
        event = loop_event = NEVER
        for dev in self.devices.values():
            inner = dev.loop_state()
            if inner is None:
                lines |= dev.requests()
                event = min(event, dev.next_event())
            else:
                loop_lines |= inner[0]
                loop_event = min(loop_event, inner[1])
                event = min(event, inner[2])
        st[S.DEVREQ] = lines
        st[S.DIS_REQ] = loop_lines
        st[S.DIS_EVENT] = loop_event
        st[S.HOST_EVENT] = min(event, self.machine._deadline)
        st[S.EVENT] = min(st[S.CLOCK_NEXT], st[S.HOST_EVENT], loop_event)

    def end_run(self) -> None:
        """End the machine's run in progress at the next instruction boundary, as if its
        ``until_us`` had come (``Stop('time')``): for a device whose host was asked to
        stop (the teletype's Ctrl-C).  Nothing in the machine changes: a run may be cut
        anywhere."""
        st = self.machine._st
        self.machine._deadline = min(self.machine._deadline, int(st[S.TIME]))
        self.refresh()

    def after_loop(self) -> None:
        """After each stretch of the execute loop: devices take what it produced."""
        for dev in self.devices.values():
            dev.after_loop()

    def deliver(self, dev7: int, func: int, word: int, refresh: bool = True) -> None:
        """Hand one queued I/O operation to its device (``refresh``: as ``publish``)."""
        if dev7 == 0:  # CONO APR with I/O reset
            for dev in self.devices.values():
                dev.reset()
                self.publish(dev, False)
            if refresh:
                self.refresh()
            return
        device = self.devices.get(dev7 << 2)
        if device is None:
            return
        if func in (0, 1):
            device.on_datai()
        elif func in (2, 3):
            device.datao(word)
        elif func == 4:
            device.cono(word)
        self.publish(device, refresh)

    def service_due(self) -> None:
        """Run ``service`` for every device whose event time has come."""
        now = int(self.machine._st[S.TIME])
        for dev in list(self.devices.values()):
            if dev.next_event() <= now:
                dev.service(now)
                self.publish(dev, False)
        self.refresh()

    @staticmethod
    def function_name(func: int) -> str:
        return _NAMES[func]
