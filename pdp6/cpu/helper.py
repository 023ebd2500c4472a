"""The translator's helper: a second process that specializes and compiles for the
python engine.

Specializing an instruction word and compiling a block cost as much host time as
interpreting that code hundreds of times, more than a short run gives back (one move
of Mac Hack's search runs each of its instruction words about 300 times).  On a host
with a second core the engine asks this process instead and goes on interpreting; it
takes each block when the answer is in, so translating no longer slows the program
down and everything hot ends up translated, for this machine and the next ones in the
process.  With one core the engine translates by itself, within its share of the work
(:meth:`pdp6.cpu.translate.BlockEngine.may_translate`).

The helper is ``python -m pdp6.cpu.helpermain`` (a plain subprocess, not multiprocessing,
so a user's script is never imported again in it), reading pickled requests on stdin and
writing pickled answers on stdout.  Which instructions run translated then depends on
the host's timing, never what they do: a block does exactly what loop.run would.
"""

from __future__ import annotations

import atexit
import os
import pickle
import select
import subprocess
import sys
from typing import Any, BinaryIO

ENV = "PDP6_HELPER"  # "0": translate in the engine's own process, as on a one-core host


def cores() -> int:
    """The host cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


_spoken_for = 0  # cores this process's own children keep busy (spare_a_core)


def spare_a_core() -> None:
    """A child of this process keeps a core busy (the compiled engine's build, at a
    lower priority): a helper would only take the engine's own core from it, so engines
    made from now on translate without one."""
    global _spoken_for
    _spoken_for += 1


def wanted() -> bool:
    """Whether engines should use a helper: a second core no child of ours is using,
    pipes that can be polled (POSIX), and not switched off."""
    free = cores() - _spoken_for
    return os.environ.get(ENV, "") != "0" and os.name == "posix" and free >= 2


class Helper:
    """The helper process and the two pipes to it, used without threads or waiting.

    Requests are tuples: ``("key", n, memsize, optab)`` names a translator (no answer),
    ``("ins", n, [(word, address), ...])`` specializes instruction words with it,
    ``("code", tag, source, filename)`` compiles a block.  Each goes as a pickle behind
    its length; answers come back the same way, in order.  The pipes are non-blocking:
    what the helper cannot take yet waits in ``pending`` (sent at the next call), and
    :meth:`answers` returns what has come in, never waiting for more.
    """

    def __init__(self) -> None:
        env = dict(os.environ, PDP6_NOJIT="1")  # the helper needs no numba
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pdp6.cpu.helpermain"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        assert self.process.stdin and self.process.stdout
        self.to = self.process.stdin.fileno()
        self.fro = self.process.stdout.fileno()
        os.set_blocking(self.to, False)
        os.set_blocking(self.fro, False)
        self.pending = bytearray()  # requests not yet taken by the pipe
        self.received = bytearray()  # answers' bytes not yet a whole answer
        self.alive = True
        self.asked = 0  # requests sent that get an answer
        self.answered = 0  # answers returned by :meth:`answers`

    def ask(self, request: tuple[Any, ...], answered: bool = True) -> None:
        """Send a request; ``answered`` False for one that gets no answer."""
        self.asked += answered
        self.pending += frame(request)
        self._send()

    def answers(self) -> list[Any]:
        """The answers that have come in since the last call (never waits)."""
        self._send()
        while self.alive:
            try:
                data = os.read(self.fro, 1 << 20)
            except BlockingIOError:
                break
            except OSError:
                data = b""
            if not data:
                self.alive = False
                break
            self.received += data
        out = []
        while len(self.received) >= 4:
            size = int.from_bytes(self.received[:4], "little")
            if len(self.received) < 4 + size:
                break
            out.append(pickle.loads(self.received[4 : 4 + size]))
            del self.received[: 4 + size]
        self.answered += len(out)
        return out

    def wait(self) -> list[Any]:
        """Every answer still owed (for tests and benchmarks that want the work done)."""
        out = self.answers()
        while self.alive and self.answered < self.asked:
            select.select([self.fro], [self.to] if self.pending else [], [], 0.5)
            out += self.answers()
        return out

    def close(self) -> None:
        """End the helper: it stops when its input ends."""
        self.alive = False
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()

    def _send(self) -> None:
        while self.pending and self.alive:
            try:
                n = os.write(self.to, self.pending[: 1 << 16])
            except BlockingIOError:
                return
            except OSError:
                self.alive = False
                return
            del self.pending[:n]


def frame(message: Any) -> bytes:
    """A message as the pipes carry it: its pickle's length, then the pickle."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return len(data).to_bytes(4, "little") + data


def read_frame(pipe: BinaryIO) -> Any:
    """The next message on a blocking pipe; EOFError at its end."""
    head = pipe.read(4)
    if len(head) < 4:
        raise EOFError
    return pickle.loads(pipe.read(int.from_bytes(head, "little")))


_helper: list[Helper | None] = []


def shared() -> Helper | None:
    """The process's helper, started on first use; None if it could not start or has
    died (engines then translate by themselves)."""
    if not _helper:
        helper: Helper | None
        try:
            helper = Helper()
            atexit.register(helper.close)
        except OSError:
            helper = None
        _helper.append(helper)
    helper = _helper[0]
    return helper if helper is not None and helper.alive else None


def running() -> Helper | None:
    """The process's helper if it has been started and is alive (never starts it)."""
    helper = _helper[0] if _helper else None
    return helper if helper is not None and helper.alive else None
