"""One emulated machine for one browser tab: its teletype host and the thread that runs it.

The server (:mod:`pdp6.host.web.server`) makes a :class:`Console` for each websocket; the
console runs its machine in a thread of its own, as ``pdp6 run`` runs one at a terminal
(:class:`pdp6.host.runner.Runner`: chunks of emulated time, a waiting program paced to the
wall clock so it costs nothing).  The compiled engine releases the GIL (the 340's
device model, in Python, does not), so the server's event loop stays free.  Between
chunks the console hands the page what happened, at most :data:`SEND_EVERY_S` apart:

* what the program printed, as text (``{"type": "print"}``), and the host's own notes;
* the Type 340's new points, as one binary message (:func:`encode_points`), only once
  the page has drawn the last one, so a slow page gets bigger messages, never a queue
  that grows without end; while the machine computes, frames no closer than
  :data:`FRAME_SHARE` allows (the wall-clock budget of the drawing);
* now and then the status: PDP-6 time, whether the machine is waiting for a key.

From the page come keys (``{"type": "keys"}``), typed into the teletype as a Model 35
would send them, and BELL (the button, or Ctrl-C): the key 007, which is what the 1967
console's operator typed to stop a program thinking.  Closing the tab ends the thread
at its next chunk; the machine goes with it.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ... import jit
from ...devices.display340 import Display340
from ...devices.teletype import Teletype
from ...machine import Machine
from ..render import P7, RASTER, _gaussian_kernel
from ..runner import Outcome, Runner, StopFlag
from ..terminal import StreamHost

SEND_EVERY_S = 1 / 60  # the page draws at 60 frames a second: no need to send more often
FRAME_SHARE = 0.1
"""The wall-clock budget of the 340's frames while the machine computes (thinks, or
runs a program that is not waiting at a prompt): making a frame (the server's part: the
340's points drawn from the words the execute loop kept, encoded, sent) and drawing it
(the page's part, which the page reports with each ``took``) may take this share of the
wall time, and the next frame waits as long as that needs.  The server's part is taken
from the emulation's thread, and on a machine whose other core is busy the page's is
taken from the emulation too: at a tenth of the wall time the emulation keeps within
1.3 times its speed without the page (at a fifth it did not: docs/web.md).  At the
prompt, where the machine keeps pace with the wall clock and nobody waits for it, a
frame every :data:`SEND_EVERY_S`."""
STATUS_EVERY_S = 0.25
MAX_KEYS = 4096  # keys typed ahead of the program; more are refused, with a message
BELL = 0o007
EXPOSURE_NS = 4_000_000_000 // 60
"""Each canvas frame is the screen as a camera open for four ticks would see it: the
program redraws its main list about every three, so a frame holds one whole refresh (the
live window of ``machack play --display`` takes the same exposure)."""
CANVAS = 768  # pixels: machack.display's pictures are this size
CHUNK_WALL_S = 0.008
"""Wall time a chunk of the run should take (``Runner(chunk_wall_s=)``): the page gets
its messages and the machine its keys between chunks, and the look between them costs
some tens of microseconds, which the runner's fixed chunk (50 ms of emulated time, a
tenth of a millisecond of the compiled engine's wall time while the program thinks)
would pay thousands of times a second."""
ENGINE_LOOK_S = 0.25  # how often a machine on the python engine looks for the compiled one

Send = Callable[[str | bytes | dict[str, Any]], None]


def phosphor_settings(size: int = CANVAS) -> dict[str, Any]:
    """What the page's renderer needs to draw the picture :func:`pdp6.host.render.render`
    draws: the P7's constants, the beam spot's kernel, the exposure.  Sent to the page,
    so the two renderers never hold two copies of the numbers."""
    return {
        "size": size,
        "raster": RASTER,
        "exposure_ns": EXPOSURE_NS,
        "flash_rgb": list(P7.flash_rgb),
        "glow_rgb": list(P7.glow_rgb),
        "flash_energy": P7.flash_energy,
        "glow_energy": P7.glow_energy,
        "glow_tau_ns": P7.glow_tau_ns,
        "glow_power": P7.glow_power,
        "max_age_ns": P7.max_age_ns,
        "gain": 1.6,
        "kernel": _gaussian_kernel(max(0.45, 0.8 * size / RASTER)).tolist(),
    }


def encode_points(display: Display340, after_ns: int, upto_ns: int) -> tuple[bytes, int]:
    """The points drawn in (after_ns, upto_ns] and no older than the phosphor shows, as
    one binary message: float64 ``upto_ns`` and count, then each point's age at
    ``upto_ns`` (uint32 ns: the phosphor shows none as old as 2^32 ns), uint16 X, uint16
    Y, uint8 intensity (little-endian, each array aligned for a typed-array view).  Nine
    bytes a point: while the machine thinks, a frame is the last three seconds of
    refresh, some quarter of a million points.  Returns the message and the time of its
    last point (``after_ns`` if none)."""
    xs, ys, ls, ts = display.points.numpy()
    lo = int(np.searchsorted(ts, max(after_ns, upto_ns - P7.max_age_ns), side="right"))
    hi = int(np.searchsorted(ts, upto_ns, side="right"))
    n = hi - lo
    message = np.empty(16 + 9 * n, dtype=np.uint8)
    message[:16] = np.array([upto_ns, n], dtype="<f8").view(np.uint8)
    np.subtract(upto_ns, ts[lo:hi], out=message[16 : 16 + 4 * n].view("<u4"), casting="unsafe")
    at = 16 + 4 * n
    for column, width in ((xs, 2), (ys, 2), (ls, 1)):
        message[at : at + width * n].view(f"<u{width}")[:] = column[lo:hi]
        at += width * n
    last = int(ts[hi - 1]) if n else after_ns
    return message.tobytes(), last


class _Paper:
    """The teletype's paper: bytes the program printed, until the console takes them."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.data = bytearray()

    def write(self, data: bytes) -> None:
        with self.lock:
            self.data += data

    def flush(self) -> None:
        """(Nothing to flush: the console takes the bytes.)"""

    def take(self) -> str:
        with self.lock:
            text, self.data = self.data.decode("ascii", "replace"), bytearray()
        return text


class PageHost(StreamHost):
    """The teletype's far side in a page: keys the page sent (lower case typed as upper
    case, a newline as RETURN, as at the terminal), printing kept for the page, the
    host's notes kept as lines of their own.  Keys come from the server's thread, so
    waiting for one is an event, not a file descriptor."""

    def __init__(self) -> None:
        self.paper = _Paper()
        super().__init__(self.paper, None, upcase=True, text=True)  # type: ignore[arg-type]
        self.input_ended = False
        self.key_came = threading.Event()
        self.closed = False
        self.say: Callable[[str], None] = lambda _text: None  # the console's, once made

    def poll(self) -> None:
        """(Keys arrive through :meth:`type_keys`; there is no input to read.)"""

    def at_end(self) -> bool:
        """A person may always type more."""
        return False

    def type_keys(self, text: str) -> str | None:
        """The page's keys for the program; a message instead if they are more than the
        program could be given (it reads a key at a time)."""
        data = text.encode("latin-1", "replace")
        if len(self.keys) + len(data) > MAX_KEYS:
            return (f"{len(data)} keys refused: at most {MAX_KEYS} may wait for the program "
                    "(the teletype takes ten a second)")  # fmt: skip
        self._keys_from(data)
        self.key_came.set()
        return None

    def wait_for_input(self, seconds: float) -> bool:
        if not self.keys and not self.closed:
            self.key_came.wait(seconds)
        self.key_came.clear()
        return self.key_ready()

    def close(self) -> None:
        """The page went away: the run stops at its next chunk."""
        self.closed = True
        self.stop_requested = True
        self.key_came.set()

    def note(self, text: str) -> None:
        self.say(text)


class Console:
    """A machine, its teletype on a :class:`PageHost` and its 340, for one page.

    ``boot()`` (in the console's thread, so a slow start holds up no other tab) makes
    the machine; :meth:`handle` decides what a run's stop means (here: a halt ends the
    program, and the page is told).  Subclasses give other programs (Mac Hack) their
    own start and stops.  ``send`` hands a message to the page (from this thread)."""

    def __init__(self, send: Send) -> None:
        self.send = send
        self.host = PageHost()
        self.host.say = self.say
        self.stop = StopFlag()
        self.machine: Machine | None = None
        self.tty: Teletype | None = None
        self.display: Display340 | None = None
        self.sent_ns = 0  # the time of the last point sent
        self.page_ready = threading.Event()  # the page has drawn the last points
        self.page_ready.set()
        self.page_s = 0.0  # the wall time the page took to draw its last frame
        self.frames = 0  # frames sent
        self._next_frame = 0.0  # (time.monotonic) the next frame no sooner than this
        self._last_send = self._last_status = self._last_engine_look = 0.0
        self.wall0 = time.monotonic()
        self.runner: Runner | None = None
        self._hold_asked, self._held, self._release = (threading.Event() for _ in range(3))
        self.thread = threading.Thread(target=self._main, name="pdp6-web-console", daemon=True)

    # --- what a program gives ---------------------------------------------------------
    def boot(self) -> None:
        """Make ``machine``, ``tty`` and ``display`` (the machine at its start)."""
        raise NotImplementedError

    def handle(self, outcome: Outcome) -> bool:
        """After a run stopped: whether to run on."""
        if outcome.reason == "interrupted":
            return True
        self.say(f"[the machine stopped: {outcome.reason} at {outcome.pc:06o}"
                 f"{': ' + outcome.message if outcome.message else ''}]")  # fmt: skip
        return False

    # --- the page's side ----------------------------------------------------------------
    def start(self) -> None:
        self.thread.start()

    def keys(self, text: str) -> None:
        refused = self.host.type_keys(text)
        if refused is not None:
            self.send({"type": "error", "message": refused})

    def took(self, ms: float) -> None:
        """The page has drawn the last points; it took ``ms`` milliseconds."""
        self.page_s = ms / 1000
        self.page_ready.set()

    def bell(self) -> None:
        """BELL, as the 1967 operator stopped a program thinking."""
        self.keys(chr(BELL))

    def close(self, wait_s: float = 5.0) -> bool:
        """End the machine (the page is gone); whether its thread has ended."""
        self.host.close()
        self.page_ready.set()
        self._release.set()
        if self.thread.is_alive():
            self.thread.join(wait_s)
        return not self.thread.is_alive()

    # --- the thread --------------------------------------------------------------------
    def _main(self) -> None:
        try:
            self.boot()
            assert self.machine is not None
            self.runner = Runner(self.machine, self.tty, stop=self.stop, between=self.between,
                                 chunk_wall_s=CHUNK_WALL_S)  # fmt: skip
            runner = self.runner
            while not self.host.closed and self.handle(runner.run()):
                pass
        except Exception as exc:  # noqa: BLE001 - the page and the log say it, one line
            self.say(f"[the machine failed: {exc}]")
            print(f"pdp6 web: a console failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        finally:
            self.flush(force=True)
            self.send({"type": "ended"})
        while not self.host.closed:  # stopped: the page keeps its last picture and text
            self.host.key_came.wait(1.0)

    def say(self, text: str) -> None:
        """A line from the host (not the program) on the page, after what the program
        has printed so far."""
        printed = self.host.paper.take()
        if printed:
            self.send({"type": "print", "text": printed})
        self.send({"type": "note", "text": text})

    def between(self) -> None:
        """Between chunks of the run: the compiled engine if it has become ready, and
        what the page has not seen yet."""
        self._look_for_compiled_engine()
        self.flush()
        if self._hold_asked.is_set():
            self._held.set()
            self._release.wait()
            self._held.clear()

    @contextlib.contextmanager
    def held(self, wait_s: float = 10.0) -> Iterator[None]:
        """The machine stopped between two chunks for the length of the block, so that
        another thread may look at it (a test comparing the page's canvas with the
        display's points, which the running machine appends to)."""
        self._release.clear()
        self._hold_asked.set()
        try:
            if not self._held.wait(wait_s):
                raise TimeoutError(f"the machine did not stop within {wait_s} s")
            yield
        finally:
            self._hold_asked.clear()
            self._release.set()

    def _look_for_compiled_engine(self) -> None:
        m, now = self.machine, time.monotonic()
        if m is None or m.engine != "python" or now - self._last_engine_look < ENGINE_LOOK_S:
            return
        self._last_engine_look = now
        if jit.compiled_ready():
            m.switch_engine("compiled")
            self.say("[the compiled engine is ready: running on it from now on]")

    def flush(self, force: bool = False) -> None:
        """Send the printed text, the host's notes, the new 340 points and the status,
        if :data:`SEND_EVERY_S` has passed (or ``force``)."""
        now = time.monotonic()
        if not force and now - self._last_send < SEND_EVERY_S:
            return
        self._last_send = now
        text = self.host.paper.take()
        if text:
            self.send({"type": "print", "text": text})
        display = self.display
        if (display is not None and display.bus is not None and self.page_ready.is_set()
                and (force or now >= self._next_frame)):  # fmt: skip
            upto = display.now
            if upto > self.sent_ns:
                message, last = encode_points(display, self.sent_ns, upto)
                self.sent_ns = max(last, self.sent_ns)
                self.page_ready.clear()
                self.send(message)
                self.frames += 1
                made = time.monotonic()
                cost = made - now + self.page_s  # the server's part and the page's last
                gap = SEND_EVERY_S if self.paced() else max(SEND_EVERY_S, cost / FRAME_SHARE)
                self._next_frame = now + gap
        if force or now - self._last_status >= STATUS_EVERY_S:
            self._last_status = now
            self.send(self.status())

    def status(self) -> dict[str, Any]:
        m = self.machine
        return {
            "type": "status",
            "emulated_s": 0.0 if m is None else m.elapsed_us / 1e6,
            "wall_s": time.monotonic() - self.wall0,
            "engine": "" if m is None else m.engine,
            "waiting": self.waiting(),
        }

    def waiting(self) -> bool:
        """Whether the program waits for a key (the page shows 'thinking' otherwise)."""
        return False

    def paced(self) -> bool:
        """Whether the machine keeps pace with the wall clock (the program waits), rather
        than computing as fast as it can: then frames come every :data:`SEND_EVERY_S`,
        and :data:`FRAME_SHARE` does not hold them back."""
        return self.runner is not None and self.runner.pacing
