"""Devices on the PDP-6 I/O bus (the APR and PI are part of the processor).

What belongs here: one module a device, a :class:`pdp6.iobus.Device` with its register
table and the handlers for what the processor does to it (CONO, CONI, DATAO, DATAI),
in emulated time.  A new device goes here and is attached with ``Machine.attach``.
What the host does with a device's output (a terminal, a picture, a file) belongs in
:mod:`pdp6.host`, which a device never imports.
"""

from .display340 import Display340
from .papertape import PaperTapePunch, PaperTapeReader
from .teletype import ScriptedHost, Teletype, TeletypeHost

__all__ = [
    "Display340",
    "PaperTapePunch",
    "PaperTapeReader",
    "ScriptedHost",
    "Teletype",
    "TeletypeHost",
]
