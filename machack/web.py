"""``machack web``: Mac Hack VI at the 1967 console, in a browser tab.

Each tab gets a newly booted program (:class:`MacHackConsole`) with its Type 340, run as
``machack play`` runs it at a terminal: the program waits at ``IDLE`` for a key while the
host sleeps until one comes (``Session.idle_wait``: its 60 Hz clock and the 340 go on in
emulated time that follows the wall clock), and BELL from the page stops it thinking.
The page is pdp6.host.web's; what the program prints and draws is all the program's doing.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from pdp6.host.runner import Outcome
from pdp6.host.web.console import Console, Send

from .build import Image, build
from .display import Screen
from .session import ProgramHalted, Session
from .sides import MODES, YOU

IDLE_STEP_S = 1 / 60  # the wait at the prompt runs and sleeps in steps of a frame
FALLEN_BEHIND_US = 250_000.0  # further behind the wall clock than this: it starts again


class MacHackConsole(Console):
    """The chess program in a fresh machine for one page; it plays ``colour`` at
    ``depth`` (as ``machack play --colour --depth``)."""

    title = "Mac Hack VI on the PDP-6"

    def __init__(self, send: Send, image: Image, colour: str, depth: int,
                 engine: str | None) -> None:  # fmt: skip
        super().__init__(send)
        self.image, self.colour, self.depth, self.engine = image, colour, depth, engine
        self.session: Session | None = None
        self.at_prompt = False  # in the wait for a key at the prompt

    def boot(self) -> None:
        session = Session(self.image, engine=self.engine)
        self.say(f"[a new machine for this tab: it plays {self.colour}, {YOU[self.colour]}; "
                 f"depth {self.depth}; BELL or Ctrl-C stops it thinking; HELP lists "
                 "the commands]")  # fmt: skip
        self.display = Screen(session).display
        opening = [line for line in session.banner.split("\n") if line and line != "*"]
        session.command(f"DEPTH {self.depth}")
        reply = session.command(MODES[self.colour])  # (it may move: its reply is shown)
        self.host.paper.write(
            "\n".join([*opening, *reply.after_ack, "*"]).encode("ascii", "replace")
        )
        session.tty.host = self.host
        self.session, self.machine, self.tty = session, session.machine, session.tty

    def handle(self, outcome: Outcome) -> bool:
        """As ``machack play`` at a terminal: at IDLE with nothing typed the host sleeps
        until a key; a program that ran away or halted is said, and ends."""
        session = self.session
        assert session is not None
        if outcome.reason in ("halt", "breakpoint"):
            session.check_runaway()
        if outcome.reason == "breakpoint" and outcome.pc == session.idle_pc:
            if session.at_prompt():
                self._wait_for_key()
            elif session.waiting():  # a key on its way: the clock on to it
                session.machine.idle_until(float("inf"))
            return True
        return super().handle(outcome)

    def _wait_for_key(self) -> None:
        """At the prompt: run the program's wait (IDLE, and the interrupts that keep its
        clock and draw the 340) in step with the wall clock until a key comes: a step of
        a frame's emulated time, up to a frame ahead of the wall clock, then a sleep
        until the wall clock has caught up.  The compiled engine runs the wait in some
        1% of the wall time; stopping at each device event instead, as
        ``Session.idle_wait`` does, costs more and falls behind the wall clock with the
        340 drawing."""
        session = self.session
        assert session is not None
        m = session.machine
        m.breakpoints.discard(session.idle_pc)
        self.at_prompt = True
        anchor_us, anchor_wall = m.elapsed_us, time.monotonic()
        typed = session.tty.characters_in
        try:  # (a key may come in during a step: then the program is off, unpaced)
            while not self.host.closed and not self.host.key_ready():
                if session.tty.characters_in != typed or session.tty.input_busy:
                    break
                self.between()
                target = anchor_us + (time.monotonic() - anchor_wall) * 1e6
                if m.elapsed_us >= target:  # ahead of the wall clock: sleep till it comes
                    self.host.wait_for_input(min(IDLE_STEP_S, (m.elapsed_us - target) / 1e6))
                    continue
                if target - m.elapsed_us > FALLEN_BEHIND_US:  # (the python engine)
                    anchor_us, anchor_wall = m.elapsed_us, time.monotonic()
                # a step of a frame ahead of the wall clock, then a sleep (running only up
                # to the wall clock's time, it ran some microseconds a step and never slept)
                stop = m.run(until_us=target + IDLE_STEP_S * 1e6)
                if stop.reason in ("halt", "breakpoint"):
                    session.check_runaway()
                if stop.reason == "halt":
                    raise ProgramHalted(f"the program halted at {stop.pc:06o}")
        finally:
            m.breakpoints.add(session.idle_pc)
            self.at_prompt = False

    def waiting(self) -> bool:
        return self.at_prompt

    def paced(self) -> bool:
        return self.at_prompt


def console_maker(colour: str, depth: int, engine: str | None) -> Callable[[Send], Console]:
    """A function of ``send`` that boots a new :class:`MacHackConsole` (the image is
    assembled once, here, for every tab)."""
    image = build()

    def make(send: Send) -> Console:
        return MacHackConsole(send, image, colour, depth, engine)

    return make
