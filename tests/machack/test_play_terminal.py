"""``machack play`` at a terminal, in process: the runner it uses (``play_runner``) on a
pseudo-terminal, against the same search piped (issue 28: at a terminal a search cost
10-15% more, the teletype leaving the compiled loop every 20 ms of emulated time to
look for a key nobody typed)."""

from __future__ import annotations

import contextlib
import io
import os
import pty
import threading
import time
from collections.abc import Iterator
from typing import Any

from machack.playhost import play_runner
from machack.session import Session
from pdp6.host.runner import CHUNK_US, Outcome, Runner
from pdp6.host.terminal import TerminalHost

OLD_POLL_NS = 20_000_000  # the grid the teletype looked at the keyboard on


def searching_session(depth: int) -> Session:
    session = Session()
    for command in ("BOOK OFF", f"SETD {depth}", "PB"):
        session.command(command)
    return session


def count_stretches(session: Session) -> list[int]:
    """Count the execute loop's stretches from now on (the runner's single steps, which
    look at the PCs, not counted): a one-element list that grows."""
    m = session.machine
    count = [0]
    loop = m._run

    def counted(*args: Any) -> int:
        count[0] += args[-1] > 1
        return loop(*args)

    m._run = counted
    return count


class Terminal:
    """The session's teletype on a pseudo-terminal in raw mode, as ``machack play`` puts
    it on the person's: ``type`` writes to the keyboard, ``printed`` is the paper."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.master, self.slave = pty.openpty()
        self.paper = io.BytesIO()
        self.host = TerminalHost(self.slave, self.paper)
        session.tty.host = self.host
        self.runner: Runner = play_runner(session)

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    @property
    def printed(self) -> str:
        return self.paper.getvalue().decode("ascii", "replace")

    def run(self) -> Outcome:
        """Run as ``machack play`` does until the program waits at its prompt, or the
        run is interrupted (Ctrl-C)."""
        session = self.session
        while True:
            outcome = self.runner.run()
            if outcome.reason == "interrupted":
                return outcome
            assert outcome.reason == "breakpoint", outcome
            if outcome.pc == session.idle_pc and session.at_prompt():
                return outcome
            if outcome.pc == session.idle_pc and session.waiting():
                session.machine.idle_until(float("inf"))

    def close(self) -> None:
        self.session.tty.host = self.session.host
        os.close(self.master)
        os.close(self.slave)


@contextlib.contextmanager
def at_a_terminal(session: Session) -> Iterator[Terminal]:
    term = Terminal(session)
    try:
        with term.host.raw():
            yield term
    finally:
        term.close()


def test_a_search_at_the_terminal_leaves_the_loop_about_as_often_as_piped() -> None:
    """Nothing typed while the program thinks: the loop is left for the program's
    printing and the runner's chunks (some 10 ms of wall time each), not on a grid of
    emulated time.  The 20 ms grid added a stop for every 20 ms of the search's
    emulated time (some 3,200 here); the chunks add some tens on the compiled engine,
    some hundreds on the python one."""
    piped = searching_session(5)
    piped_count = count_stretches(piped)
    reply = piped.send("P-K4")
    (move,) = [line for line in reply.lines if line.startswith("1. ...")]
    nodes = next(line for line in reply.lines if line.startswith("TIME")).split("NODES")[1]

    session = searching_session(5)
    count = count_stretches(session)
    m = session.machine
    start_us = m.elapsed_us
    with at_a_terminal(session) as terminal:
        terminal.type(b"P-K4\r")
        terminal.run()
        printed = terminal.printed
    searched_us = m.elapsed_us - start_us
    assert move in printed and "NODES" + nodes in printed  # the same search
    assert searched_us * 1000 / OLD_POLL_NS > 2_000  # (a search long enough to tell)
    # At most a stop for each of the runner's chunks, never shorter than CHUNK_US (the
    # grid stopped 2.5 times as often, besides the chunks); on the compiled engine,
    # where the chunks grow to 10 ms of wall time, few.
    extra, most = count[0] - piped_count[0], searched_us / CHUNK_US
    assert extra < most, (extra, most)
    if m.engine == "compiled":
        assert extra < most / 5, (extra, most)


def test_bell_stops_a_search_at_the_terminal_at_once() -> None:
    """Ctrl-C while the program thinks: the run stops within a tenth of a second (the
    runner's chunk, some 10 ms), and the BELL that ``machack play`` then types makes the
    program stop thinking and say QUIT."""
    with at_a_terminal(searching_session(12)) as terminal:  # (it would think for minutes)
        terminal.type(b"P-K4\r")
        typed_at: list[float] = []

        def ctrl_c() -> None:
            time.sleep(0.5)
            typed_at.append(time.monotonic())
            terminal.type(b"\x03")

        thread = threading.Thread(target=ctrl_c, daemon=True)
        thread.start()
        outcome = terminal.run()
        stopped_at = time.monotonic()
        thread.join()
        assert outcome.reason == "interrupted"
        assert "1. ..." not in terminal.printed  # it was thinking
        assert stopped_at - typed_at[0] < 0.1
        terminal.host.keys.append(0o007)  # BELL, as machack play types it
        terminal.run()
        assert "QUIT" in terminal.printed
