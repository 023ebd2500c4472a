"""The console teletype, device 120: a Model 35 KSR on the Type 626 interface.

Registers and CONO/CONI bits follow reference section 2.3 [AAP newemu/tty.c]:

=====  ======  =====================  ============================
bit    octal   CONO                   CONI
=====  ======  =====================  ============================
25     002000  clear input busy
26     001000  clear input flag
27     000400  clear output busy
28     000200  clear output flag
29     000100  set input busy         input busy (char arriving)
30     000040  set input flag         input flag (char ready)
31     000020  set output busy        output busy
32     000010  set output flag        output flag (done)
33-35  7       PIA                    PIA
=====  ======  =====================  ============================

Timing is in emulated time: at 110 baud a character is 11 bits (start, 8 data, 2 stop),
100 ms each way.  An output character is handed to the host when DATAO sends it and the
output flag rises when its last stop bit has gone.  An input character starts arriving
when the host has one, the line is idle and the program has taken the previous character
(the input flag is clear); the input flag rises after 9 bit times, as in aap's model.
Waiting for the flag makes the host a considerate typist: a script typed at line speed
never overruns a program that is busy printing, where a real keyboard would have
overwritten the unread character.  ``baud=None`` is the fast mode for tests and tools
(10 us a character); there the next key starts no sooner than ``FAST_HOLD_NS`` after
the program's DATAI took the last, so a program whose interrupt routine hands each key
to the main program through a one-word mailbox still finds time to empty it.

The host side is a :class:`TeletypeHost`: something that may have typed characters
ready and takes printed ones.  :class:`ScriptedHost` feeds text and collects output;
:mod:`pdp6.host.terminal` has the interactive terminal and the standard-stream hosts.
A keyboard that may type at any time (a terminal's) is looked at whenever the bus asks
for the teletype's next event: as each run starts, after each I/O instruction or event.
In a long stretch with neither, a bare ``Machine.run`` looks every ``poll_ns`` (20 ms of
emulated time, on a fixed grid); :class:`pdp6.host.runner.Runner` turns that off and
looks between its chunks, since each look leaves the compiled loop.
"""

from __future__ import annotations

from collections import deque

from ..iobus import NEVER, Device, Reg

FAST_CHAR_NS = 10_000
# Fast mode: the next key arrives no sooner than this after the program read the last.
FAST_HOLD_NS = 1_000_000
# A run not driven by pdp6.host.runner looks at a keyboard that may type this often.
POLL_NS = 20_000_000


class TeletypeHost:
    """The far side of the teletype line: a keyboard and a printer."""

    #: The person asked to stop the machine (Ctrl-C at a terminal).  A run ends after
    #: the next character printed (a printer paced to the wall clock holds a run a
    #: tenth of a second a character), and whoever drives the runs
    #: (:class:`pdp6.host.runner.Runner`) takes the request and clears it.
    stop_requested: bool = False

    def key_ready(self) -> bool:
        """A typed character is waiting."""
        return False

    def read_key(self) -> int | None:
        """Take the next typed character (0-255), or None."""
        return None

    def at_end(self) -> bool:
        """No character will ever be typed again (end of a script or of standard input)."""
        return False

    def print_char(self, code: int) -> None:
        """The teletype printed ``code`` (the low 7 bits are the character)."""


class ScriptedHost(TeletypeHost):
    """Typed text from a script; printed text collected in ``output``."""

    def __init__(self, text: str | bytes = b"", eof: bool = True) -> None:
        self.keys: deque[int] = deque()
        self.printed = bytearray()
        self.eof = eof
        self.type(text)

    def type(self, text: str | bytes) -> None:
        """Queue more keystrokes (``\\n`` is sent as CR, as a teletype's RETURN key)."""
        data = text.encode("ascii", "replace") if isinstance(text, str) else text
        self.keys.extend(0o15 if b == 0o12 else b for b in data)

    def key_ready(self) -> bool:
        return bool(self.keys)

    def read_key(self) -> int | None:
        return self.keys.popleft() if self.keys else None

    def at_end(self) -> bool:
        return self.eof and not self.keys

    def print_char(self, code: int) -> None:
        self.printed.append(code & 0o177)

    @property
    def output(self) -> str:
        """Everything printed so far, as text (CR LF shown as a newline)."""
        return self.printed.decode("ascii").replace("\r\n", "\n").replace("\r", "")

    def take_output(self) -> str:
        text = self.output
        self.printed.clear()
        return text


class Teletype(Device):
    """Device 120.  ``baud`` sets the line speed (None: fast mode)."""

    code = 0o120
    name = "TTY"
    registers = (
        Reg("pia", 3), Reg("input_busy", 1), Reg("input_flag", 1), Reg("output_busy", 1),
        Reg("output_flag", 1), Reg("input_char", 8), Reg("output_done_at"),
        Reg("input_ready_at"), Reg("line_free_at"), Reg("characters_out"),
        Reg("characters_in"),
    )  # fmt: skip

    def __init__(self, host: TeletypeHost | None = None, baud: int | None = 110) -> None:
        super().__init__()
        self.host = host or TeletypeHost()
        self.baud = baud
        self.pia = 0
        self.input_busy = False
        self.input_flag = False
        self.output_busy = False
        self.output_flag = False
        self.input_char = 0
        self.output_done_at = NEVER  # when the character being sent has gone
        self.input_ready_at = NEVER  # when the arriving character's flag rises
        self.line_free_at = 0  # when the receiving line is idle again
        # How often (emulated) a run looks at a keyboard that may type while it runs;
        # None: only when the bus asks anew (the start of each run, after each I/O or
        # event).  The runner sets None while it runs: it looks between its chunks.
        self.poll_ns: int | None = POLL_NS
        self.characters_out = 0
        self.characters_in = 0

    # --- timing ---------------------------------------------------------------------
    @property
    def char_ns(self) -> int:
        """One character time: 11 bits at the line speed."""
        return FAST_CHAR_NS if self.baud is None else round(11 * 1e9 / self.baud)

    # --- the processor's side ---------------------------------------------------------
    def cono(self, value: int) -> None:
        # CONO replaces the PIA; set bits are applied before clear bits (aap), so a bit
        # that both sets and clears a flip-flop leaves it clear.
        self.pia = value & 7
        if value & 0o100:
            self.input_busy = True
        if value & 0o040:
            self.input_flag = True
        if value & 0o020:
            self.output_busy = True
        if value & 0o010:
            self.output_flag = True
        if value & 0o2000:
            self.input_busy = False
        if value & 0o1000:
            self.input_flag = False
        if value & 0o400:
            self.output_busy = False
        if value & 0o200:
            self.output_flag = False

    def coni(self) -> int:
        return (
            (0o100 if self.input_busy else 0)
            | (0o040 if self.input_flag else 0)
            | (0o020 if self.output_busy else 0)
            | (0o010 if self.output_flag else 0)
            | self.pia
        )

    def datao(self, word: int) -> None:
        """Send the low 8 bits; the flag rises one character time later."""
        self.output_flag = False
        self.output_busy = True
        self.host.print_char(word & 0o377)
        self.characters_out += 1
        self.output_done_at = self.now + self.char_ns
        if self.host.stop_requested and self.bus is not None:
            self.bus.end_run()

    def data_in(self) -> int:
        return self.input_char

    def on_datai(self) -> None:
        self.input_flag = False
        if self.baud is None:
            # An interrupt routine reads a key at once, but the program it hands the key
            # to (a one-word mailbox, say) needs time to take it before the next arrives.
            self.line_free_at = max(self.line_free_at, self.now + FAST_HOLD_NS)

    def request(self) -> int:
        return self.pia if (self.input_flag or self.output_flag) else 0

    def reset(self) -> None:
        self.pia = 0
        self.input_flag = self.output_flag = False
        self.input_busy = self.output_busy = False

    def _line_idle(self) -> bool:
        """No character is arriving and the last one has been read: the next may start."""
        return self.input_ready_at == NEVER and not self.input_flag

    # --- events -----------------------------------------------------------------------
    def next_event(self) -> int:
        event = min(self.output_done_at, self.input_ready_at)
        if self._line_idle() and not self.host.at_end():
            if self.host.key_ready():
                event = min(event, max(self.line_free_at, self.now))
            elif self.poll_ns is not None:
                # On a fixed grid of emulated time, not "from now": when the host asks
                # must not move the machine's events (runs are sliced at will).
                event = min(event, (self.now // self.poll_ns + 1) * self.poll_ns)
        return event

    def service(self, now: int) -> None:
        if now >= self.output_done_at:
            self.output_done_at = NEVER
            self.output_busy = False
            self.output_flag = True
        if now >= self.input_ready_at:
            self.input_ready_at = NEVER
            self.input_busy = False
            self.input_flag = True
        if self._line_idle() and now >= self.line_free_at and self.host.key_ready():
            code = self.host.read_key()
            if code is not None:
                self.input_char = code & 0o377
                self.input_busy = True
                self.characters_in += 1
                self.input_ready_at = now + self.char_ns * 9 // 11
                self.line_free_at = now + self.char_ns
