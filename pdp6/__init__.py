"""A faithful emulator of the DEC PDP-6 (1964).

``from pdp6 import Machine`` is the entry point; see ``docs/machine.md``.  The machine
is imported lazily, so tools that need only the instruction table (the assembler, the
disassembler) don't pay for numba.
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
