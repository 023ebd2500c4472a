"""``pdp6 web FILE``: any PDP-6 binary with its teletype and Type 340 in a browser tab.

Each tab loads FILE into a fresh machine (as ``pdp6 run`` does: SBLK or RIM, in either
encoding, through :class:`pdp6.host.debugger.Debugger`) with a 340 on device 130, and runs it
from its start address.  A program that halts stops there, and the page says where; its
last picture stays on the screen.
"""

from __future__ import annotations

from pathlib import Path

from ...machine import Machine
from ..debugger import DebugError, Debugger
from ..render import attach_display
from .console import Console, Send


class ProgramConsole(Console):
    """FILE in a fresh machine for one page (``start``: an address other than FILE's)."""

    def __init__(self, send: Send, file: Path, start: int | None, engine: str | None) -> None:
        super().__init__(send)
        self.file, self.start_at, self.engine = file, start, engine

    def boot(self) -> None:
        dbg = Debugger(Machine(engine=self.engine), self.host, baud=None, note=self.say)
        image = dbg.load(self.file)
        for note in dbg.load_notes:
            self.say(f"[{note}]")
        if self.start_at is not None:
            dbg.m.pc = self.start_at
        elif image.start is None:
            raise DebugError(f"{self.file.name}: no start address (pdp6 web --start ADDR)")
        self.display = attach_display(dbg.m)
        self.say(f"[{self.file.name} loaded; running from {dbg.m.pc:06o}]")
        self.machine, self.tty = dbg.m, dbg.tty
