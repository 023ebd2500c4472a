"""Devices on the PDP-6 I/O bus (the APR and PI are part of the processor).

What belongs here: one module a device, a :class:`pdp6.iobus.Device` with its register
table and the handlers for what the processor does to it (CONO, CONI, DATAO, DATAI),
in emulated time.  A new device goes here and is attached with ``Machine.attach``.
What the host does with a device's output (a terminal, a picture, a file) belongs in
:mod:`pdp6.host`, which a device never imports.  Each device is imported when first
named, so a command that uses the teletype alone does not load the 340 and its
character generator at start-up.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .display340 import Display340
    from .papertape import PaperTapePunch, PaperTapeReader
    from .teletype import ScriptedHost, Teletype, TeletypeHost

_HOMES = {
    "Display340": "display340",
    "PaperTapePunch": "papertape",
    "PaperTapeReader": "papertape",
    "ScriptedHost": "teletype",
    "Teletype": "teletype",
    "TeletypeHost": "teletype",
}
__all__ = [
    "Display340",
    "PaperTapePunch",
    "PaperTapeReader",
    "ScriptedHost",
    "Teletype",
    "TeletypeHost",
]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
