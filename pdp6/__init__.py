"""A faithful emulator of the DEC PDP-6 (1964).

``from pdp6 import Machine`` is the entry point; see ``docs/machine.md``.
"""

from .iobus import Device
from .machine import Machine, Stop

__all__ = ["Device", "Machine", "Stop"]
