"""Teletype hosts for people and pipes: the keyboard and printer of device 120 on the host.

* :class:`StreamHost` takes keys from a file descriptor (standard input when it is a
  pipe or a file) and from :meth:`StreamHost.type`, and prints to a byte stream.  Text
  output turns the teletype's CR LF into a newline, so scripts see ordinary lines.
* :class:`TerminalHost` is the interactive adapter: the terminal in raw mode, lower case
  typed as upper case (a Model 35 has no lower case), Ctrl-C taken as "stop the machine"
  rather than sent to the program, the terminal restored however the run ends, and
  optionally the printer paced at the teletype's real speed.

Both drop the parity bit on output and leave out NUL and RUBOUT, which a teletype prints
as nothing (programs send them as padding).
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import termios
import time
import tty
from collections import deque
from collections.abc import Iterator
from typing import BinaryIO

from ..devices.teletype import TeletypeHost

CTRL_C = 0o003
CR, LF = 0o015, 0o012
NUL, RUBOUT = 0o000, 0o177
POLL_INTERVAL_S = 0.002  # how often an empty input is looked at again


def model35_key(code: int, upcase: bool = True) -> int:
    """The code a Model 35 keyboard sends for a host key: RETURN for a newline, and
    upper case for letters (the Model 35 has no lower case)."""
    if code == LF:
        return CR
    if upcase and ord("a") <= code <= ord("z"):
        return code - 0o40
    return code


class StreamHost(TeletypeHost):
    """Keys from ``source`` (read as they arrive) and from :meth:`type`; printing to
    ``output``.  ``source`` is a file descriptor, a binary file (an in-memory one is read
    as it is) or None.  ``text`` output writes CR LF as a newline; otherwise bytes go as
    they are.  ``pace_cps`` (characters a second, 10 for a Model 35) makes printing take
    as long on the host as on a real teletype.  ``by_line`` types a line at a time: after
    each RETURN the keys wait for :meth:`release_line`, which the runner calls when the
    program waits for input again, as a person waits for the prompt."""

    def __init__(
        self,
        output: BinaryIO,
        source: int | BinaryIO | None = None,
        *,
        upcase: bool = True,
        text: bool = True,
        pace_cps: float | None = None,
        by_line: bool = False,
    ) -> None:
        self.output = output
        self.by_line = by_line
        self.holding = False  # by_line: a line was typed; the next waits for release_line
        self.pace_cps = pace_cps
        self._next_print = 0.0
        self.input_fd, self.input_file = _descriptor(source)
        self.upcase = upcase
        self.text = text
        self.keys: deque[int] = deque()
        self.input_ended = source is None
        self.stop_requested = False
        self._held_cr = False
        self._next_poll = 0.0
        self.line_open = False  # something was printed since the last newline
        self._notes: list[str] = []

    # --- keyboard --------------------------------------------------------------------
    def type(self, text: str | bytes) -> None:
        """Queue keystrokes as if typed (a newline is RETURN)."""
        data = text.encode("ascii", "replace") if isinstance(text, str) else text
        self._keys_from(data)

    def _keys_from(self, data: bytes) -> None:
        self.keys.extend(model35_key(b, self.upcase) for b in data)

    def poll(self) -> None:
        """Read whatever the input has ready, without waiting."""
        if self.input_ended:
            return
        if self.input_fd is None:
            assert self.input_file is not None
            data = self.input_file.read(4096)
            self.input_ended = not data
            self.received(data)
            return
        now = time.monotonic()
        if now < self._next_poll:
            return
        ready, _, _ = select.select([self.input_fd], [], [], 0)
        if not ready:
            self._next_poll = now + POLL_INTERVAL_S
            return
        try:
            data = os.read(self.input_fd, 4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.input_ended = True
        self.received(data)

    def received(self, data: bytes) -> None:
        """Bytes that arrived from the input (the terminal host filters Ctrl-C here)."""
        self._keys_from(data)

    def key_ready(self) -> bool:
        if not self.keys:
            self.poll()
        return bool(self.keys) and not self.holding

    def read_key(self) -> int | None:
        if not self.key_ready():
            return None
        key = self.keys.popleft()
        self.holding = self.by_line and key == CR
        return key

    def release_line(self) -> bool:
        """The program waits for input: the next line may be typed.  False if no line
        was held."""
        held, self.holding = self.holding, False
        return held

    def wait_for_input(self, seconds: float) -> bool:
        """Wait up to ``seconds`` of wall time for a key, sleeping in the host (a program
        that waits for a person costs nothing); whether one is there."""
        if not self.keys and not self.input_ended and self.input_fd is not None:
            try:
                select.select([self.input_fd], [], [], seconds)
            except (OSError, ValueError):  # (a descriptor that went away: poll says so)
                pass
            self._next_poll = 0.0
        elif not self.keys and seconds > 0:
            time.sleep(seconds)
        return self.key_ready()

    def at_end(self) -> bool:
        if not self.keys:
            self.poll()
        return self.input_ended and not self.keys

    # --- printer ---------------------------------------------------------------------
    def print_char(self, code: int) -> None:
        if self.pace_cps:
            now = time.monotonic()
            if now < self._next_print:
                self._pace(self._next_print)
            self._next_print = max(now, self._next_print) + 1.0 / self.pace_cps
        code &= 0o177
        if code in (NUL, RUBOUT):
            return
        if self.text:
            if self._held_cr:
                self._held_cr = False
                if code != LF:
                    self._write(b"\r")
            if code == CR:
                self._held_cr = True
                return
        self._write(bytes((code,)))

    def _pace(self, until: float) -> None:
        """Wait for the printer until ``until`` (``time.monotonic``), reading the
        keyboard meanwhile: a key typed while the paper moves is taken at once (a Ctrl-C
        then ends the run after this character: ``TeletypeHost.stop_requested``)."""
        while (left := until - time.monotonic()) > 0:
            if self.input_ended or self.input_fd is None or self.stop_requested:
                time.sleep(left)
                return
            try:
                select.select([self.input_fd], [], [], left)
            except (OSError, ValueError):  # (a descriptor that went away: poll says so)
                pass
            self._next_poll = 0.0
            self.poll()

    def _write(self, data: bytes) -> None:
        self.output.write(data)
        self.output.flush()
        self.line_open = data[-1:] not in (b"\n", b"")
        if self._notes and not self.line_open:
            notes, self._notes = self._notes, []
            for text in notes:
                self.note(text)

    def note(self, text: str) -> None:
        """A line from the host, not the program.  From a pipe it goes to standard error
        at once (standard output is the program's); on a terminal it waits for the end
        of the line the program is printing, so neither breaks the other."""
        if self.text:
            sys.stderr.write(text + "\n")
            sys.stderr.flush()
        elif self.line_open:
            self._notes.append(text)
        else:
            self.output.write(text.encode("ascii", "replace") + b"\r\n")
            self.output.flush()

    def finish_output(self) -> None:
        """Write a carriage return still held back (a CR at the very end of output)."""
        if self._held_cr:
            self._held_cr = False
            self._write(b"\r")


def _descriptor(source: int | BinaryIO | None) -> tuple[int | None, BinaryIO | None]:
    """(file descriptor, file) for an input: select() works on the descriptor if any."""
    if source is None or isinstance(source, int):
        return source, None
    try:
        return source.fileno(), None
    except (OSError, ValueError, AttributeError):  # io.UnsupportedOperation is an OSError
        return None, source


class TerminalHost(StreamHost):
    """The interactive adapter for a terminal on ``fd`` (see the module docstring).

    Use :meth:`raw` around running the machine: keys reach the program one at a time,
    and the terminal is restored after.
    """

    def __init__(
        self, fd: int, output: BinaryIO, *, upcase: bool = True, pace_cps: float | None = None
    ) -> None:
        super().__init__(output, fd, upcase=upcase, text=False, pace_cps=pace_cps)

    def at_end(self) -> bool:
        """A person may always type more."""
        return False

    def received(self, data: bytes) -> None:
        if not data:  # the terminal went away (hang-up)
            self.stop_requested = True
            return
        for b in data:
            if b == CTRL_C:
                self.stop_requested = True
            else:
                self.keys.append(model35_key(b, self.upcase))

    @contextlib.contextmanager
    def raw(self) -> Iterator[None]:
        """The terminal in raw mode for the duration; restored on any exit."""
        assert self.input_fd is not None
        saved = termios.tcgetattr(self.input_fd)
        try:
            tty.setraw(self.input_fd, termios.TCSANOW)
            yield
        finally:
            termios.tcsetattr(self.input_fd, termios.TCSADRAIN, saved)
