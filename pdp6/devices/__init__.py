"""Devices on the PDP-6 I/O bus (the APR and PI are part of the processor)."""

from .display340 import Display340, attach_display
from .papertape import PaperTapePunch, PaperTapeReader
from .teletype import ScriptedHost, Teletype, TeletypeHost

__all__ = [
    "Display340",
    "PaperTapePunch",
    "PaperTapeReader",
    "ScriptedHost",
    "Teletype",
    "TeletypeHost",
    "attach_display",
]
