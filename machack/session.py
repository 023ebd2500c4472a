"""Boot the chess program in an emulated PDP-6 and talk to it over the teletype.

The host never decides anything about chess: it types lines and reads what the program
prints.  A reply is complete when the program is back at the instruction ``IDLE`` (its
wait for the keyboard, in ``tty.mid``) with nothing more typed: the session puts a
breakpoint there.  Every exchange has a budget of PDP-6 instructions and of emulated
time, so a program that loops or halts is reported as :class:`ProgramHung` or
:class:`ProgramHalted` and never hangs the host.

Protocol (``docs/teletype.md``): the program echoes the typed line, prints its reply,
``_`` when the line was accepted (the 1967 acknowledgement) and then the prompt ``*``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from pdp6.devices.teletype import ScriptedHost, Teletype
from pdp6.iobus import NEVER

from .build import Image, build

PROMPT = "*"
ACK = "_"
DEFAULT_BUDGET = 4_000_000_000  # PDP-6 instructions per exchange
DEFAULT_EMULATED_S = 3.0e5  # emulated seconds per exchange (a long think at depth 6)
# Instructions per call of the loop: about a third of a second on each engine, so that
# between calls the host sees Ctrl-C and can move to the compiled engine (on_slice).
SLICE = {"compiled": 30_000_000, "native": 60_000_000, "python": 400_000, "interpreter": 150_000}


class SessionError(RuntimeError):
    """The program did not answer as a working program must."""


class ProgramHung(SessionError):
    """The program did not come back to wait for the keyboard within the budget."""


class ProgramHalted(SessionError):
    """The program executed a halt (it never should)."""


class ProgramRanAway(ProgramHalted):
    """The program's PC left its code: into the accumulators (a jump through a zeroed
    or clobbered word, a POPJ on a bad stack) or onto a word that is no instruction (a
    UUO: the program has none, and its trap ``UUOERR`` halts).  ``where`` says where."""

    def __init__(self, where: str, printed: str) -> None:
        super().__init__(f"the program in core ran away: {where}; printed last: {printed!r}")
        self.where = where


RUNAWAY_PCS = range(0o20)
"""Breakpoints that catch a runaway: the program never executes in the accumulators."""


@dataclass
class Reply:
    """What the program printed for one typed line.

    ``lines`` are the lines after the echo of the typed line, without the prompt;
    ``accepted`` says whether the `_` acknowledgement came; ``after_ack`` are the lines
    printed after it (the machine's own move).  ``emulated_us``/``instructions`` are the
    PDP-6 time and instructions the exchange took, ``wall_s`` the host's time.
    """

    raw: str
    lines: list[str]
    accepted: bool
    emulated_us: float = 0.0
    instructions: int = 0
    wall_s: float = 0.0
    after_ack: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def echo(self) -> str:
        """The program's echo of the typed line: the first line it printed, which
        ``lines`` leaves out."""
        return self.raw.split("\n", 1)[0]

    def first(self, prefix: str) -> str | None:
        """The first line starting with ``prefix``, or None."""
        for line in self.lines:
            if line.startswith(prefix):
                return line
        return None


def parse_reply(raw: str, echoed: bool = True) -> Reply:
    """Split printed text into a :class:`Reply` (drop the echo line and the prompt)."""
    text = raw
    if echoed and "\n" in text:
        text = text.split("\n", 1)[1]
    elif echoed:
        text = ""
    if text.endswith(PROMPT):
        text = text[: -len(PROMPT)]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    accepted = ACK in lines
    after = lines[lines.index(ACK) + 1 :] if accepted else []
    return Reply(raw, lines, accepted, after_ack=after)


BOOK_MARK = " BOOK"
"""What follows a move the machine took from its opening book, in its move line and in
``PG`` ('3. B-N5 BOOK'), as the 1967 printouts marked book moves."""


def is_move_line(line: str) -> bool:
    """'12. N-KB3' or '12. ... N-KB3' (or '3. B-N5 BOOK'): a move the machine made."""
    head = line.split(" ", 1)[0]
    return head.endswith(".") and head[:-1].isdigit()


def is_book_move(line: str) -> bool:
    """A machine's move line for a move from the book: '3. B-N5 BOOK'."""
    return is_move_line(line) and line.endswith(BOOK_MARK)


def move_text(line: str) -> str:
    """The move of a machine's move line, without the book's mark: 'N-KB3' of
    '12. ... N-KB3', 'B-N5' of '3. B-N5 BOOK' (as the program reads it back)."""
    return line.split(" ", 1)[1].removeprefix("... ").removesuffix(BOOK_MARK)


class Session:
    """The chess program running in a fresh emulated PDP-6.

    ``baud=None`` runs the teletype in the fast mode (10 us a character); 110 gives the
    Model 35's real 10 characters a second in emulated time.

    >>> session = Session()                 # the program booted, waiting at its prompt
    >>> session.command("PN").accepted      # play neither side: both sides are typed
    True
    >>> session.send("P-K4").lines          # a move in descriptive notation, taken
    ['_']
    >>> session.fen()
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
    >>> session.send("K-K3").lines          # no piece can make it: the program says IMP
    ['IMP']
    >>> session.setup("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    >>> session.command("GO").after_ack[0]  # the machine moves: mate on the back rank
    '1. R-R8 MATE'
    """

    def __init__(
        self,
        image: Image | None = None,
        *,
        baud: int | None = None,
        budget: int = DEFAULT_BUDGET,
        emulated_limit_s: float = DEFAULT_EMULATED_S,
        engine: str | None = None,
    ) -> None:
        self.image = image or build()
        self.budget = budget
        self.emulated_limit_s = emulated_limit_s
        from pdp6.machine import Machine  # numpy and the engines: only for a session

        self.machine = Machine(engine=engine)
        self.host = ScriptedHost(b"", eof=True)
        self.tty = Teletype(self.host, baud=baud)
        self.machine.attach(self.tty)
        for address, word in self.image.words.items():
            self.machine.memory[address] = word
        self.machine.pc = self.image.start
        self.idle_pc = self.image.symbol("IDLE")
        self._ring = (self.image.symbol("TIRD"), self.image.symbol("TIWR"))  # input ring
        self.machine.breakpoints.add(self.idle_pc)
        self.machine.breakpoints.update(RUNAWAY_PCS)
        self.saved_game: list[int] | None = None  # the game state at the last prompt
        self.on_slice: Callable[[], object] | None = None  # called between slices of a run
        # A host that must act at once (a UCI `stop`, a move's time running out) runs in
        # short slices (a thirtieth: about 10 ms of wall time), and may set an emulated
        # time at which the run pauses for on_slice (the alarm is cleared as it rings).
        self.short_slices = False
        self.alarm_us: float | None = None
        self.banner = self.run_until_idle()

    # --- low level -------------------------------------------------------------------
    def type(self, text: str | bytes) -> None:
        """Queue keystrokes (a newline is typed as RETURN)."""
        self.host.type(text)

    def waiting(self) -> bool:
        """The program is in its wait for a key (at IDLE, its input ring empty)."""
        m, (tird, tiwr) = self.machine, self._ring
        return m.pc == self.idle_pc and m.memory[tird] == m.memory[tiwr]

    def at_prompt(self) -> bool:
        """The program waits at IDLE and nothing is typed or on its way (the teletype's
        host, whichever it is now, has no key ready)."""
        tty = self.tty
        if not self.waiting() or tty.host.key_ready():
            return False
        return not (tty.input_flag or tty.input_busy or tty.input_ready_at != NEVER)

    def waits_for_a_key(self, settle_us: float = 2_000.0) -> bool:
        """Whether the program is at its prompt's wait for a key (TYI's loop): there
        now, or back there within ``settle_us`` of PDP-6 time, run on to see, since a
        host's look can land in an interrupt routine (the 60 Hz clock's) that broke into
        the wait.  A program that is thinking does not come back to it."""
        m, sym = self.machine, self.image.symbol
        loop = range(sym("TYI1"), self.idle_pc + 2)  # TYI1, IDLE and its JRST
        end = m.elapsed_us + settle_us
        while m.pc not in loop:
            if m.elapsed_us >= end:
                return False
            if m.run(max_instructions=20, until_us=end).reason == "halt":
                return False
        return True

    def run_until_idle(
        self, budget: float | None = None, emulated_limit_s: float | None = None
    ) -> str:
        """Run until the program waits for the keyboard; return what it printed."""
        m = self.machine
        budget = self.budget if budget is None else budget
        limit_s = self.emulated_limit_s if emulated_limit_s is None else emulated_limit_s
        deadline_us = m.elapsed_us + limit_s * 1e6
        start = m.instructions
        while True:
            left = int(budget) - (m.instructions - start)
            if left <= 0 or m.elapsed_us >= deadline_us:
                raise ProgramHung(
                    f"no reply within {budget} instructions / {limit_s} emulated s "
                    f"(pc {m.pc:06o}); printed so far: {self.host.output[-300:]!r}"
                )
            step = SLICE[m.engine] // (30 if self.short_slices else 1)
            until = deadline_us if self.alarm_us is None else min(deadline_us, self.alarm_us)
            stop = m.run(max_instructions=min(left, step), until_us=until)
            if self.alarm_us is not None and m.elapsed_us >= self.alarm_us:
                self.alarm_us = None
            if stop.reason in ("halt", "breakpoint"):
                self.check_runaway()
            if stop.reason == "halt":
                raise ProgramHalted(
                    f"the program halted at {stop.pc:06o}; printed: {self.host.output[-300:]!r}"
                )
            if stop.reason == "breakpoint":
                if self.at_prompt():
                    self.save_game()
                    return self.host.take_output()
                self._wait_for_key(min(left, step), until)
            if self.on_slice is not None:
                self.on_slice()

    def runaway(self) -> str | None:
        """Where the program ran away to, if it has (see :class:`ProgramRanAway`)."""
        m, pc = self.machine, self.machine.pc
        if pc in RUNAWAY_PCS:
            return f"its PC went to {pc:06o}, into the accumulators"
        trap = self.image.symbol("UUOERR")
        if pc == trap + 1:
            at = (m.memory[trap] & 0o777777) - 1
            return (f"it executed {m.memory[0o40]:012o} at {at:06o} "
                    f"({self.image.label_of(at)}), a word that is no instruction of the "
                    "program (a UUO)")  # fmt: skip
        return None

    def check_runaway(self) -> None:
        """Raise :class:`ProgramRanAway` if the program has run away."""
        where = self.runaway()
        if where is not None:
            printed = self.host.output[-200:] if hasattr(self.host, "output") else ""
            raise ProgramRanAway(where, printed)

    # --- the game kept by the host ---------------------------------------------------
    def save_game(self) -> None:
        """Keep the program's game state (POSST..POSEND: the position and the game's
        history) as it is at the prompt, so that a program that runs away later loses
        nothing: :meth:`restored` gives it back in a new machine."""
        lo, hi = self.image.symbol("POSST"), self.image.symbol("POSEND")
        self.saved_game = [int(w) for w in self.machine.memory[lo:hi]]

    def game_ply(self) -> int:
        """The plies of the game so far, from the state kept at the last prompt."""
        if self.saved_game is None:
            return 0
        return self.saved_game[self.image.symbol("GPLY") - self.image.symbol("POSST")]

    def restored(self) -> Session:
        """A newly booted program holding the game kept by :meth:`save_game`."""
        fresh = Session(self.image, engine=self.machine.engine)
        if self.saved_game is not None:
            lo = self.image.symbol("POSST")
            for i, word in enumerate(self.saved_game):
                fresh.machine.memory[lo + i] = word
        return fresh

    def idle_wait(self, ready: Callable[[float], bool], most_s: float = 0.1) -> None:
        """The program waits at IDLE for a key: wait in host time, not by running its
        loop.  ``ready(seconds)`` waits up to that long for a key on the host and says
        whether one came.  The emulated clock follows the wall clock in jumps that stop
        at every device or clock event (``Machine.idle_until``), so the 60 Hz clock and
        the display go on as on the real machine, at no host cost."""
        m = self.machine
        start_us, t0 = m.elapsed_us, time.monotonic()
        gap_s = (m.next_event_us() - start_us) / 1e6
        ready(max(0.0, min(most_s, gap_s)))
        m.idle_until(start_us + (time.monotonic() - t0) * 1e6)

    def _wait_for_key(self, instructions: int, until_us: float) -> None:
        """At IDLE with a key on its way: run on without the IDLE breakpoint until the
        teletype's next event (the key arriving), not a stop at every turn of the wait
        loop (a fast-mode key comes 1 ms after the last was read: some hundred turns)."""
        m = self.machine
        due_ns = self.tty.next_event()
        if m.pc != self.idle_pc or due_ns == NEVER:
            return
        m.breakpoints.discard(self.idle_pc)
        try:
            m.run(max_instructions=instructions, until_us=min(until_us, due_ns / 1000))
        finally:
            m.breakpoints.add(self.idle_pc)

    def run_for(self, instructions: int) -> str:
        """Run a fixed number of instructions (or until idle); return the output."""
        m = self.machine
        start = m.instructions
        while m.instructions - start < instructions:
            stop = m.run(max_instructions=instructions - (m.instructions - start))
            if stop.reason == "halt":
                raise ProgramHalted(f"the program halted at {stop.pc:06o}")
            if stop.reason == "breakpoint" and self.at_prompt():
                break
        return self.host.take_output()

    # --- exchanges -------------------------------------------------------------------
    def send(self, line: str | bytes, **limits: float) -> Reply:
        """Type one line (RETURN is added) and return the program's reply."""
        m = self.machine
        t0, i0, w0 = m.elapsed_us, m.instructions, time.perf_counter()
        data = line.encode("latin-1", "replace") if isinstance(line, str) else line
        self.type(data + b"\r")
        raw = self.run_until_idle(**limits)
        reply = parse_reply(raw)
        reply.emulated_us = m.elapsed_us - t0
        reply.instructions = m.instructions - i0
        reply.wall_s = time.perf_counter() - w0
        return reply

    def command(self, line: str, **limits: float) -> Reply:
        """Send a line that must be accepted; raise :class:`SessionError` if not."""
        reply = self.send(line, **limits)
        if not reply.accepted:
            raise SessionError(f"{line!r} was refused: {reply.text!r}")
        return reply

    # --- conveniences ----------------------------------------------------------------
    def fen(self) -> str:
        """The program's position as FEN (the FEN command)."""
        line = self.command("FEN").first("FEN ")
        if line is None:
            raise SessionError("FEN printed no FEN line")
        return line[4:].strip()

    def setup(self, fen: str) -> None:
        self.command(f"SETUP {fen}")

    def perft(self, depth: int) -> int:
        reply = self.command(f"PERFT {depth}")
        line = reply.first("PERFT ")
        if line is None:
            raise SessionError(f"PERFT printed {reply.text!r}")
        return int(line.split("=")[1])

    def moves(self) -> list[str]:
        """The legal moves in coordinates (upper case, as the program prints them)."""
        reply = self.command("MOVES")
        head = reply.first("MOVES ")
        if head is None:
            raise SessionError(f"MOVES printed {reply.text!r}")
        count = int(head.split()[1])
        out: list[str] = []
        for line in reply.lines[reply.lines.index(head) + 1 :]:
            if line == ACK:
                break
            out.extend(line.split())
        if len(out) != count:
            raise SessionError(f"MOVES said {count} but listed {len(out)}")
        return out

    def peek(self, name: str, offset: int = 0) -> int:
        """A word of the program's memory by symbol (for tests and the bench)."""
        return self.machine.memory[self.image.symbol(name) + offset]
