"""A faithful emulator of the DEC PDP-6 (1964).

``from pdp6 import Machine`` is the entry point; see ``docs/machine.md``.  The machine
is imported lazily, so tools that need only the instruction table (the assembler, the
disassembler) don't pay for numba.

The package has three floors (``docs/architecture.md``).  What belongs at this top level
is the machine's core: ``word`` (36-bit arithmetic), ``isa`` (the one instruction
table), ``disasm`` (words back to text), ``timing``, ``memory``, ``iobus`` (devices by
code), ``machine`` (:class:`Machine`), ``jit`` (compiled or plain engine), the
processor in ``cpu`` and the devices in ``devices``.  Above it, ``formats`` (binaries,
tapes, snapshots in host files) and ``host`` (commands, console, debugger, terminal,
pictures).  The core imports neither.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .iobus import Device
    from .machine import Machine, Stop

__all__ = ["Device", "Machine", "Stop"]


def __getattr__(name: str) -> Any:
    if name == "Device":
        from .iobus import Device

        return Device
    if name in ("Machine", "Stop"):
        from . import machine

        return getattr(machine, name)
    raise AttributeError(f"module 'pdp6' has no attribute {name!r}")
