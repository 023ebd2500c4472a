"""Start at once on a fresh machine: the python engine runs while the compiled one is built.

numba compiles the execute loop the first time it runs (one to three minutes on a fresh
machine) and keeps it in an on-disk cache.  An interactive command must neither sit that
long on one line nor ignore Ctrl-C meanwhile, so when the cache is cold:

* the command starts on the python engine (the same source, translated to Python),
* a child process (``python -m pdp6.host.autoengine``) fills numba's cache, at a lower
  priority, and
* between runs the command calls :meth:`AutoEngine.poll`, which moves the machine to the
  compiled engine (:meth:`pdp6.machine.Machine.switch_engine`) as soon as the cache is
  ready and says so in one line.

One compile at a time (:func:`pdp6.jit.build_lock`): a second command started meanwhile
waits for the same build rather than compiling again.  A command that ends before the build does
leaves the child to finish, so the next start is quick.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from .. import jit

if TYPE_CHECKING:
    from ..machine import Machine

POLL_S = 0.25  # wall time between looks at the cache while the build runs
LOG = "build.log"


def _stderr_line(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class AutoEngine:
    """The engine an interactive command should build its machine with, now and later.

    ``requested`` (an ``--engine`` option) is used as it is.  Otherwise: the compiled
    engine when numba's cache holds it; the python engine when numba is missing or
    ``PDP6_NOJIT`` is set; and on a cold cache the python engine while a child builds
    the compiled one.  ``say`` shows the one-line notes.
    """

    def __init__(
        self, requested: str | None = None, say: Callable[[str], None] = _stderr_line
    ) -> None:
        self.say = say
        self.child: subprocess.Popen[bytes] | None = None
        self.pending = False
        self.started = time.monotonic()
        self._next_look = 0.0
        if requested is not None:
            self.engine = requested
        elif not jit.ENABLED:
            self.engine = "python"
        elif jit.compiled_ready():
            self.engine = "compiled"
        else:
            self.engine = "python"
            self.pending = True
            self.child = _spawn_builder()
            if self.child is not None:
                from ..cpu import helper

                helper.spare_a_core()  # the build takes the second core

    def poll(self, machine: Machine) -> bool:
        """Move ``machine`` to the compiled engine if it has become ready (looked at
        every :data:`POLL_S` of wall time at most); True when it moved."""
        if not self.pending:
            return False
        now = time.monotonic()
        if now < self._next_look:
            return False
        self._next_look = now + POLL_S
        if jit.compiled_ready():
            self.pending = False
            machine.switch_engine("compiled")
            self.say(
                f"[the compiled engine is ready after {now - self.started:.0f} s: "
                "running on it from now on]"
            )
            return True
        if self.child is not None and self.child.poll() not in (None, 0):
            self.pending = False
            self.say(
                "[the compiled engine could not be built; staying on the python engine "
                f"(details in {Path(jit.CACHE_DIR) / LOG})]"
            )
        return False

    def wait(self) -> None:
        """Block until the build is done and use the compiled engine from then on (for
        a benchmark, which must time it); Ctrl-C works meanwhile."""
        while self.pending and not jit.compiled_ready():
            if self.child is not None and self.child.poll() not in (None, 0):
                raise RuntimeError(
                    f"the compiled engine could not be built: see {Path(jit.CACHE_DIR) / LOG}"
                )
            time.sleep(POLL_S)
        if self.pending:
            self.pending = False
            self.engine = "compiled"

    def note_unfinished(self) -> None:
        """At the end of a command: say that the build goes on without it."""
        if self.pending and self.child is not None and self.child.poll() is None:
            self.say(
                "[the compiled engine is still being built in the background; "
                "the next start will use it]"
            )


def _spawn_builder() -> subprocess.Popen[bytes] | None:
    """Start the child that fills numba's cache; None when it cannot be started."""
    cache = Path(jit.CACHE_DIR)
    try:
        cache.mkdir(parents=True, exist_ok=True)
        log = (cache / LOG).open("ab")
    except OSError:
        return None
    env = dict(os.environ)
    package_root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = package_root + os.pathsep + env.get("PYTHONPATH", "")
    try:
        with log:
            return subprocess.Popen(
                [sys.executable, "-m", "pdp6.host.autoengine"],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                env=env,
                start_new_session=True,  # Ctrl-C at the terminal is the parent's alone
            )
    except OSError:
        return None


def build_compiled_engine() -> None:
    """Compile the execute loop into numba's cache (the child's work), once at a time."""
    from ..machine import Machine

    if not jit.ENABLED:
        raise SystemExit("numba is not available (or PDP6_NOJIT is set)")
    m = Machine(engine="compiled")
    m.memory[0o100] = 0o254200_000100  # JRST 4,100
    m.pc = 0o100
    m.run(max_instructions=10)  # compiles the whole loop, under the build lock


if __name__ == "__main__":
    try:
        os.nice(5)  # the interactive session on the python engine comes first
    except OSError:  # pragma: no cover - nice refused
        pass
    build_compiled_engine()
