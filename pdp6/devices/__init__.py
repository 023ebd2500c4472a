"""Devices on the PDP-6 I/O bus (the APR and PI are part of the processor)."""

from .papertape import PaperTapePunch, PaperTapeReader
from .teletype import ScriptedHost, Teletype, TeletypeHost

__all__ = ["PaperTapePunch", "PaperTapeReader", "ScriptedHost", "Teletype", "TeletypeHost"]
