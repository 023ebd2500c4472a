"""The terminal of ``machack play``: the keyboard a key at a time, moves timed.

Imported only for interactive play (the terminal module is not needed otherwise).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from pdp6.host.runner import Runner, StopFlag
from pdp6.host.terminal import TerminalHost
from pdp6.machine import Machine

from .session import Session, is_move_line

CTRL_D = b"\x04"  # at the terminal: end the game
CHUNK_WALL_S = 0.01
"""Wall time a chunk of the run takes while the program thinks (``Runner(chunk_wall_s=)``):
the host looks at the keyboard between chunks (a key typed, Ctrl-C), so within this
long.  The runner's fixed chunk, 50 ms of emulated time, is a tenth of a millisecond of
the compiled engine's wall time: looking in between that often cost the search a sixth
of its speed."""


def play_runner(session: Session) -> Runner:
    """The runner of the game at the terminal: chunks of :data:`CHUNK_WALL_S`, and the
    session's ``on_slice`` (the compiled engine, the display) between them."""
    return Runner(session.machine, session.tty, stop=StopFlag(), between=session.on_slice,
                  chunk_wall_s=CHUNK_WALL_S)  # fmt: skip


class PlayHost(TerminalHost):
    """A TerminalHost that times the machine's moves: from the RETURN that ended
    the line (or the previous move) to the move's line end."""

    def __init__(
        self, machine: Machine, pace_cps: float | None, watch: Callable[[str], None] | None
    ) -> None:
        super().__init__(0, sys.stdout.buffer, upcase=True, pace_cps=pace_cps)
        self.machine = machine
        self.watch = watch
        self.current = bytearray()
        self.mark_us = 0.0
        self.mark_wall = time.perf_counter()
        self.hung_up = False
        self.muted = 0  # lines still to swallow (the host's own command)
        self.keys_read = 0

    def received(self, data: bytes) -> None:
        if not data or CTRL_D in data:  # hang-up, or Ctrl-D: the game ends
            self.hung_up = True
            self.stop_requested = True
            data = data.split(CTRL_D)[0]
        super().received(data)

    def read_key(self) -> int | None:
        code = super().read_key()
        self.keys_read += code is not None
        if code == 0o15:
            self._mark()
        return code

    def note_at_prompt(self, text: str) -> None:
        """A host's line under the prompt, and the line being typed (the prompt
        and what was typed after it) again below it."""
        note = text.encode("ascii", "replace")
        self._write(b"\r\n" + note + b"\r\n" + bytes(self.current))

    def _mark(self) -> None:
        self.mark_us = self.machine.elapsed_us
        self.mark_wall = time.perf_counter()

    def print_char(self, code: int) -> None:
        c = code & 0o177
        if self.muted:
            self.muted -= c == 0o12
            return
        if c == 0o15:
            line = self.current.decode("ascii", "replace")
            if self.watch is not None:
                self.watch(line)
            if is_move_line(line):
                emu = (self.machine.elapsed_us - self.mark_us) / 1e6
                wall = time.perf_counter() - self.mark_wall
                note = f"   [PDP-6 {emu:.1f} s, wall {wall:.2f} s]"
                for ch in note.encode():
                    super().print_char(ch)
                self._mark()
            self.current.clear()
        elif c >= 0o40:
            self.current.append(c)
        super().print_char(code)
