"""Running a machine with its teletype: in chunks, until something worth stopping for.

``Machine.run`` is the fast compiled loop; this is the driver around it that the ``pdp6``
command, the console and the debugger share.  It runs the machine in chunks of emulated
time and between chunks:

* notices a stop request (Ctrl-C on the terminal, SIGINT) and a request to end (SIGTERM,
  SIGHUP; below);
* looks at the keyboard: a key typed during a chunk starts to arrive as the next one
  begins (within a chunk the teletype does not look, ``Teletype.poll_ns``: each look
  would leave the compiled loop).  A chunk is 50 ms of emulated time, or as long as
  takes ``chunk_wall_s`` of wall time (``machack play`` and the web console: some
  10 ms, so that a key or Ctrl-C is seen that soon, and the looks cost nothing
  measurable); a Ctrl-C read while a paced printer waits ends the chunk after that
  character (``TeletypeHost.stop_requested``);
* ends the run when the program is waiting for input that will never come: the
  keyboard is at its end, the teletype has nothing in progress, the program has neither
  typed nor read anything for a grace period of emulated time, and it is *idling*: going
  round a loop of a few instructions that changes nothing and sees nothing change (a
  ``CONSO TTY,``/``JRST .-1`` wait, a ``JRST .`` waiting for an interrupt, a ``SKIPN
  FLAG``/``JRST .-1``, a ``SKIPN 1,MBOX``/``JRST .-1`` storing the same 0 in AC 1 at
  every turn), which can only be waiting for something outside it.  Two looks at the
  loop, a chunk of emulated time apart, must find the same instructions and the same
  values in every word they read or write; interrupts between the looks (the 60 Hz clock
  keeping its time) do not matter, but a computation, even a tight one such as a
  ``SOJG`` delay loop, changes something, and a wait for a clock counter to reach a
  value sees it change, so neither is taken for waiting;
* when the program waits for a person at the keyboard, paces emulated time to wall time
  (a short sleep per chunk), so an idle program costs almost no host CPU;
* optionally single-steps with a per-instruction hook (watchpoints, the trace), since
  the compiled loop cannot call Python for each instruction.

Signals.  Ctrl-C (SIGINT) *stops*: the run ends at the next chunk with the outcome
'interrupted', and the command goes on (the console takes its next command); a second
Ctrl-C before the run has stopped raises KeyboardInterrupt.  SIGTERM and SIGHUP *end*:
whoever sends them (``timeout``, a window closed, a service stopped) wants the process
gone, so they must not be taken for Ctrl-C.  The API, for any command that runs the
machine:

* ``with ending_on_signals():`` around the whole command: from then on SIGTERM and SIGHUP
  raise :class:`Terminated` wherever the program is (loading, at a prompt, reading input);
* while a run is under way (:meth:`StopFlag.catching_signals`, which :meth:`Runner.run`
  uses) they only set ``StopFlag.terminated`` (the signal's number; ``raised`` too, so that
  code that polls for Ctrl-C stops what it is doing), and the run raises
  :class:`Terminated` at the next chunk, between instructions, so that nothing is left
  half done; leaving ``catching_signals`` raises it too if the signal came at the very
  end (code that runs the machine itself can call :meth:`StopFlag.end_if_terminated`
  between its slices);
* the command catches :class:`Terminated`, flushes what the program printed, says so in
  one line on stderr and exits with ``Terminated.exit_status``: 128 + the signal's number,
  143 for SIGTERM, 129 for SIGHUP, as a shell reports a process the signal killed.
  Terminated is a SystemExit with that status (no ``except Exception`` takes it), so a
  command that does not catch it still ends with the status, silently.  Once one has
  come, further SIGTERMs and SIGHUPs are ignored, so that they cannot break the exit.
"""

from __future__ import annotations

import contextlib
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ..devices.teletype import Teletype
from ..isa import decode, decode_io

if TYPE_CHECKING:
    from ..machine import Machine, Stop

CHUNK_US = 50_000.0  # emulated time run between looks at the host
MAX_CHUNK_US = 5_000_000.0  # the longest chunk a runner with a wall time per chunk takes
STEP_CHUNK = 2_000  # instructions per chunk when single-stepping
IDLE_SLEEP_S = 0.02  # wall time slept per chunk while the program waits for a person
SAMPLE_STEPS = 32  # instructions stepped to see whether the program circles in a loop
LOOP_SIZE = 8  # at most this many distinct PCs make a "tight loop"
MAX_SAMPLE_INTERVAL_S = 0.05


class StepHook(Protocol):
    """Called around each instruction when the runner single-steps."""

    def before(self) -> None: ...

    def after(self, stop: Stop) -> str | None:
        """A message if the run must stop after this instruction, else None."""
        ...


@dataclass(frozen=True)
class Outcome:
    """Why a run ended: 'halt', 'breakpoint', 'watch', 'end of input', 'time limit',
    'instruction limit', 'interrupted', 'stuck' (it could not start, see
    :func:`endless_trap`) or 'trap loop' (it ran into such a place);
    ``message`` gives the details for 'watch', 'stuck' and 'trap loop'."""

    reason: str
    pc: int
    instructions: int
    message: str = ""


class Terminated(SystemExit):
    """SIGTERM or SIGHUP (``signum``) asked the process to end (see the module docstring).
    ``str()`` is ``terminated by SIGTERM``; the command exits with :attr:`exit_status`.
    A SystemExit with that status: one that no command catches still ends the process
    with it, and without a traceback."""

    def __init__(self, signum: int) -> None:
        super().__init__(128 + signum)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        return 128 + self.signum

    def __str__(self) -> str:
        try:
            name = signal.Signals(self.signum).name
        except ValueError:
            name = f"signal {self.signum}"
        return f"terminated by {name}"


ENDING_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)


def _ignore_ending_signals() -> None:
    """After the first SIGTERM or SIGHUP: the others are ignored while the process ends."""
    for sig in ENDING_SIGNALS:
        with contextlib.suppress(ValueError):  # (not the main thread)
            signal.signal(sig, signal.SIG_IGN)


@contextlib.contextmanager
def ending_on_signals() -> Iterator[None]:
    """For the length of a command: SIGTERM and SIGHUP raise :class:`Terminated` in the
    main thread, wherever it is (inside a run they only set the run's flag: see
    :meth:`StopFlag.catching_signals`).  The handlers before are put back on the way out.
    Outside the main thread nothing is changed."""

    def handler(signum: int, _frame: object) -> None:
        _ignore_ending_signals()
        raise Terminated(signum)

    saved = {}
    for sig in ENDING_SIGNALS:
        try:
            saved[sig] = signal.signal(sig, handler)
        except ValueError:  # not the main thread: leave signals alone
            break
    try:
        yield
    finally:
        for sig, old in saved.items():
            signal.signal(sig, old)


class StopFlag:
    """Set by Ctrl-C (SIGINT, or the terminal's Ctrl-C key): ``raised``; by SIGTERM or
    SIGHUP: ``terminated``, the signal's number (and ``raised``).  The runner looks at it
    between chunks: a raised flag stops the run, a terminated one ends it
    (:class:`Terminated`).  ``clear`` lowers ``raised`` only: an end is not taken back."""

    def __init__(self) -> None:
        self.raised = False
        self.terminated = 0

    def set(self) -> None:
        self.raised = True

    def clear(self) -> None:
        self.raised = False

    def end_if_terminated(self) -> None:
        """Raise :class:`Terminated` if SIGTERM or SIGHUP has come."""
        if self.terminated:
            _ignore_ending_signals()
            raise Terminated(self.terminated)

    @contextlib.contextmanager
    def catching_signals(self) -> Iterator[None]:
        """While running, SIGINT, SIGTERM and SIGHUP set the flag instead of interrupting
        the process mid-chunk; a second SIGINT interrupts as usual (KeyboardInterrupt).
        Leaving, a SIGTERM or SIGHUP that came raises :class:`Terminated`."""

        def handler(signum: int, _frame: object) -> None:
            if signum == signal.SIGINT:
                if self.raised and not self.terminated:
                    raise KeyboardInterrupt
            else:
                self.terminated = self.terminated or signum
            self.raised = True

        saved = {}
        for sig in (signal.SIGINT, *ENDING_SIGNALS):
            try:
                saved[sig] = signal.signal(sig, handler)
            except ValueError:  # not the main thread: leave signals alone
                break
        try:
            yield
        finally:
            for sig, old in saved.items():
                if not (self.terminated and sig in ENDING_SIGNALS):
                    signal.signal(sig, old)
            if self.terminated:
                _ignore_ending_signals()
        self.end_if_terminated()


class Runner:
    """Runs ``machine`` (with ``teletype`` if it has one) as described in the module doc.

    ``grace_us`` is the quiet time after the end of input before a waiting program is
    stopped; ``hook`` switches to single-stepping; ``between`` is called before each
    chunk.  ``chunk_wall_s``: the wall time a chunk should take, if the host wants one
    (the web console: its page gets messages, its machine keys, between chunks); the
    chunk's emulated time then grows or shrinks to keep near it, never below
    :data:`CHUNK_US` nor above :data:`MAX_CHUNK_US`.  Without it every chunk is
    :data:`CHUNK_US`, which the compiled engine runs in a fraction of a millisecond: a
    host that looks in between at every chunk would cost more than the chunks.
    """

    def __init__(
        self,
        machine: Machine,
        teletype: Teletype | None = None,
        *,
        stop: StopFlag | None = None,
        grace_us: float = 2_000_000.0,
        hook: StepHook | None = None,
        between: Callable[[], object] | None = None,
        chunk_wall_s: float | None = None,
    ) -> None:
        self.m = machine
        self.tty = teletype
        self.stop = stop or StopFlag()
        self.grace_us = grace_us
        self.hook = hook
        self.between = between  # called between chunks (AutoEngine.poll, for one)
        self.chunk_wall_s = chunk_wall_s
        self.chunk_us = CHUNK_US  # a thinking program's chunk (see chunk_wall_s)
        self.pacing = False  # the last chunk was paced to the wall clock (it waits)
        self._first = True  # at the first instruction of a run (breakpoints do not stop it)

    # --- the teletype, seen from outside ---------------------------------------------
    def _tty_state(self) -> tuple[int, ...]:
        t = self.tty
        if t is None:
            return ()
        return (t.characters_in, t.characters_out, t.input_busy, t.input_flag, t.output_busy)

    def _tty_quiet(self) -> bool:
        t = self.tty
        return t is None or not (t.input_busy or t.input_flag or t.output_busy)

    def _input_at_end(self) -> bool:
        return self.tty is not None and self.tty.host.at_end()

    def _holding_line(self) -> bool:
        """The host types a line at a time and holds the next (``StreamHost.by_line``)."""
        return self.tty is not None and getattr(self.tty.host, "holding", False)

    def _host_stop(self) -> bool:
        host = self.tty.host if self.tty else None
        poll = getattr(host, "poll", None)
        if poll is not None:
            poll()
        return bool(getattr(host, "stop_requested", False))

    # --- running ---------------------------------------------------------------------
    def run(self, until_us: float | None = None, max_instructions: int | None = None) -> Outcome:
        """Run until a halt, a breakpoint, a hook's stop, the end of input, ``until_us``
        (emulated), ``max_instructions`` or a stop request."""
        m = self.m
        start = m.instructions
        state = self._tty_state()
        quiet_since = m.elapsed_us
        signature: Signature | None = None
        idle = False
        missed = False  # an idle loop's last look did not find it (an interrupt came)
        sample_interval = 0.0
        next_sample = 0.0
        last_wall = time.monotonic()
        stuck = endless_trap(m)
        if stuck:
            return Outcome("stuck", m.pc, 0, stuck)
        self.stop.clear()
        self._first = True
        with self.stop.catching_signals(), self._keyboard_between_chunks():
            while True:
                if self.between is not None:
                    self.between()
                done = m.instructions - start
                self.stop.end_if_terminated()
                if self.stop.raised or self._host_stop():
                    self._clear_host_stop()
                    return Outcome("interrupted", m.pc, done)
                if self._at_breakpoint():
                    return Outcome("breakpoint", m.pc, done)
                now = m.elapsed_us
                if until_us is not None and now >= until_us:
                    return Outcome("time limit", m.pc, done)
                if max_instructions is not None and done >= max_instructions:
                    return Outcome("instruction limit", m.pc, done)
                chunk = self.chunk_us
                wall = time.monotonic()
                pacing = self.pacing = idle and not self._input_at_end()
                if pacing:
                    time.sleep(IDLE_SLEEP_S)
                    wall = time.monotonic()
                    chunk = min(CHUNK_US, max(1_000.0, (wall - last_wall) * 1e6))
                last_wall = wall
                end = now + chunk if until_us is None else min(until_us, now + chunk)
                budget = None if max_instructions is None else max_instructions - done
                stop, message, pcs = self._advance(end, budget)
                if self.chunk_wall_s is not None and not pacing and self.hook is None:
                    self._fit_chunk(m.elapsed_us - now, time.monotonic() - wall)
                if stop.reason in ("halt", "breakpoint"):
                    return Outcome(stop.reason, stop.pc, m.instructions - start)
                if message is not None:
                    return Outcome("watch", m.pc, m.instructions - start, message)
                # run into zeroed core (a UUO with none in 41), or an endless @ chain
                trapped = None if _interruptible(m) else endless_trap(m)
                if trapped:
                    return Outcome("trap loop", m.pc, m.instructions - start, trapped)
                new_state = self._tty_state()
                if new_state != state or not self._tty_quiet():
                    state, quiet_since = new_state, m.elapsed_us
                    idle, signature, sample_interval, missed = False, None, 0.0, False
                    continue
                ending = self._input_at_end() and m.elapsed_us - quiet_since >= self.grace_us
                holding = self._holding_line()  # (then looked at in every chunk: the
                # typing's emulated time may not depend on the host's speed)
                if pcs is None and (idle or holding or time.monotonic() >= next_sample):
                    sampled = self._sample()
                    if isinstance(sampled, Outcome):
                        return Outcome(sampled.reason, sampled.pc, m.instructions - start)
                    pcs = sampled
                if pcs is None:
                    continue
                seen = _loop_signature(m, pcs)
                matched = seen is not None and seen == signature
                if matched or not idle or missed:
                    signature, idle, missed = seen, matched, False
                else:  # one look of an idle loop in the middle of an interrupt: look again
                    missed = True
                if matched and ending:
                    note = "" if _waits_for_teletype(m, self.tty, signature) else _NOT_TELETYPE
                    return Outcome("end of input", m.pc, m.instructions - start, note)
                if matched and holding:  # it waits for input: type the next line
                    self.tty.host.release_line()  # type: ignore[union-attr]
                    idle, signature, missed = False, None, False
                    continue
                if not idle:
                    sample_interval = min(MAX_SAMPLE_INTERVAL_S, sample_interval * 2 or 0.001)
                    next_sample = time.monotonic() + sample_interval

    @contextlib.contextmanager
    def _keyboard_between_chunks(self) -> Iterator[None]:
        """For the length of a run the teletype does not look at its keyboard within a
        chunk (``Teletype.poll_ns``): the runner looks between chunks, and a key found
        there starts to arrive as the next chunk begins.  A look within the chunk took
        the machine out of its compiled loop every 20 ms of emulated time while the
        program thought, some 25,000 times a wall second, for keys that mostly never
        came."""
        tty = self.tty
        if tty is None:
            yield
            return
        saved, tty.poll_ns = tty.poll_ns, None
        try:
            yield
        finally:
            tty.poll_ns = saved

    def _fit_chunk(self, ran_us: float, spent_s: float) -> None:
        """The next chunk's emulated time, from the last one's: as long as would take
        ``chunk_wall_s`` at the speed it ran (at most twice, at least half, as long as
        the last), within CHUNK_US..MAX_CHUNK_US.  A chunk cut short (a breakpoint, a
        time limit) says nothing of the speed unless it took longer than asked."""
        assert self.chunk_wall_s is not None
        if spent_s <= 0 or (ran_us < 0.5 * self.chunk_us and spent_s < self.chunk_wall_s):
            return
        ratio = min(2.0, max(0.5, self.chunk_wall_s / spent_s * ran_us / self.chunk_us))
        self.chunk_us = min(MAX_CHUNK_US, max(CHUNK_US, self.chunk_us * ratio))

    def _at_breakpoint(self) -> bool:
        """At a breakpoint, other than where the run started (chunks must not skip one)."""
        if self._first:
            return False
        return self.m.pc in self.m.breakpoints

    def _clear_host_stop(self) -> None:
        host = self.tty.host if self.tty else None
        if getattr(host, "stop_requested", False):
            host.stop_requested = False  # type: ignore[union-attr]

    def _advance(
        self, until_us: float, budget: int | None
    ) -> tuple[Stop, str | None, list[int] | None]:
        """One chunk: the fast loop, or single steps through the hook.  Returns the stop,
        a hook's message, and (when stepping) the last PCs seen."""
        from ..machine import Stop

        m = self.m
        if self.hook is None:
            stop = m.run(max_instructions=budget, until_us=until_us)
            self._first = self._first and m.at_start_of_run
            return stop, None, None
        limit = STEP_CHUNK if budget is None else min(budget, STEP_CHUNK)
        pcs: list[int] = []
        stop = Stop("limit", m.pc, 0)
        for _ in range(limit):
            if m.elapsed_us >= until_us:
                break
            if self._at_breakpoint():
                return Stop("breakpoint", m.pc, len(pcs)), None, pcs
            pcs.append(m.pc)
            self.hook.before()
            stop = m.step()
            self._first = self._first and m.at_start_of_run
            message = self.hook.after(stop)
            if message is not None or stop.reason == "halt":
                return stop, message, pcs
        return stop, None, pcs[-SAMPLE_STEPS:]

    def _sample(self) -> list[int] | Outcome:
        """Run a few instructions (stopping at breakpoints and halts) to see the PCs."""
        m = self.m
        if self._at_breakpoint():
            return Outcome("breakpoint", m.pc, 0)
        pcs: list[int] = []
        stop = m.run(max_instructions=SAMPLE_STEPS, pcs=pcs)
        self._first = self._first and m.at_start_of_run
        if stop.reason in ("halt", "breakpoint"):
            return Outcome(stop.reason, m.pc, 0)
        return pcs


def endless_trap(m: Machine) -> str | None:
    """Why the next instruction would never finish, or None.

    The execute loop follows UUO traps and XCT chains inside one instruction and cannot
    be stopped there (see the report on ``pdp6.cpu``): a UUO whose trap instruction in
    41 is itself a UUO (zeroed core, typically), or an ``XCT`` of itself.  Refusing to
    start is better than a machine that no Ctrl-C can stop.
    """
    word = m.memory[m.pc]
    op = word >> 27
    if op < 0o100 and m.memory[0o41] >> 27 < 0o100:
        return (
            f"the instruction at {m.pc:06o} is a UUO ({word:012o}) and the trap "
            f"instruction at 41 is one too ({m.memory[0o41]:012o}): it would trap forever; "
            "put a JSR to a UUO handler (or a HALT) in 41"
        )
    if op == 0o256 and not word & 0o37_000000 and word & 0o777777 == m.pc:
        return f"XCT {m.pc:o} at {m.pc:06o} executes itself forever"
    loop = None if _interruptible(m) else _endless_indirection(m, word)
    if loop is not None:
        return (f"the instruction at {m.pc:06o} ({word:012o}) never finishes: its "
                f"address is indirect through {loop:06o} for ever (an @ chain that comes "
                "back)")  # fmt: skip
    return None


def _interruptible(m: Machine) -> bool:
    """Whether an interrupt could come: the processor samples PI between the steps of an
    @ chain or a UUO trap, so a program may wait in one for an interrupt to end it."""
    return bool(m.pi.active and m.pi.on)


def _endless_indirection(m: Machine, word: int) -> int | None:
    """The address where the @ chain of ``word``'s effective address comes back on
    itself, or None if the chain ends (the processor would follow it for ever)."""
    seen: set[int] = set()
    while True:
        _op, _ac, indirect, x, y = decode(word)
        if not indirect:
            return None
        if x:
            y = (y + m.memory[x]) & 0o777777
        if y in seen:
            return y
        if len(seen) > 64 or y >= m.core_words:
            return None  # (a long chain that may end; or one through missing core)
        seen.add(y)
        word = m.memory[y]


_NOT_TELETYPE = (
    "the program is idle in a loop that does not use the teletype: a JRST . at its end, or "
    "a wait for a device that is not attached (the Type 340 needs a --display option)"
)


Signature = tuple[frozenset[int], tuple[tuple[int, int], ...]]


def _waits_for_teletype(m: Machine, tty: Teletype | None, signature: Signature | None) -> bool:
    """Whether the idle loop of ``signature`` can be waiting for the teletype: it has an
    I/O instruction for it, or the teletype interrupts on a channel (a routine hands the
    keys over, as in Mac Hack)."""
    if tty is not None and tty.pia:
        return True
    words = [m.memory[pc] for pc in (signature[0] if signature else ())]
    return any(w >> 33 == 7 and decode_io(w)[0] == Teletype.code for w in words)


def _loop_signature(m: Machine, pcs: list[int]) -> Signature | None:
    """What a look at a loop of a few instructions sees: its PCs, and every word they
    read or write with its value; None if ``pcs`` are too many for such a loop.  Two
    looks alike, a chunk of emulated time apart, make an idle loop (module docstring):
    ``SKIPN 1,MBOX``/``JRST .-1`` stores the same 0 in AC 1 at each turn while it waits
    for an interrupt to fill MBOX, and the clock interrupts that come between the looks
    do not change what the loop sees; a counter it reads, a delay loop's AC, do."""
    from .memrefs import references_at  # the plain-Python loop, only when looked at

    seen = frozenset(pcs)
    if len(seen) > LOOP_SIZE:
        return None
    refs = [references_at(m, pc) for pc in sorted(seen)]
    touched = sorted({a for r in refs for a in (*r.reads, *r.writes)})
    return seen, tuple((a, m.memory[a]) for a in touched)
