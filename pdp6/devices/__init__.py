"""Devices on the PDP-6 I/O bus (the APR and PI are part of the processor).

Each is imported when first named, so a command that uses the teletype alone does not
load the 340 and its character generator at start-up.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .display340 import Display340, attach_display
    from .papertape import PaperTapePunch, PaperTapeReader
    from .teletype import ScriptedHost, Teletype, TeletypeHost

_HOMES = {
    "Display340": "display340",
    "attach_display": "display340",
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
    "attach_display",
]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
