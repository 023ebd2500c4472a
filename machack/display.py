"""The host's side of Mac Hack's Type 340 display: the 340 on the machine, and pictures.

Everything on the screen is the MIDAS program's doing (``machack/src/display.mid``): it
builds its display lists in core, and its interrupt routines feed them to the emulated
340 (BLKO on the data channel, a STOP's special interrupt starting the next list, one
refresh a clock tick).  The host only attaches the 340 and renders what it drew.

Pictures are taken of whole refreshes.  The program stops at ``DSBLDX`` (a breakpoint
the host sets) each time it has built its main list; if that list shows a position of
the game not yet pictured, the host lets the machine run on until the 340 has drawn one
main list whole and the clock list after it (the special channel's routine ``DSRCY``
marks the end of each list), and renders exactly that span of emulated time as the P7
phosphor shows it.  Those pictures go to a PNG file, rewritten after every move, and to
an animated GIF with a frame a move.  The live window is pdp6.host.render's, updated as the
machine runs.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from pdp6.devices.display340 import Display340
from pdp6.formats.hostfiles import check_writable, write_failed
from pdp6.host.render import attach_display, live_window_available, render, save_png

if TYPE_CHECKING:
    from .session import Session

# The live window shows a frame every 4 ticks of emulated time: the program draws its
# main list every 3 ticks or so, so each frame holds one refresh.
GAME3_TO_13 = ("P-K4 P-QB4 P-Q4 PXP QXP N-QB3 Q-Q3 N-B3 N-QB3 P-KN3 N-KB3 P-Q3 B-KB4 P-K4 "
               "B-KN3 P-QR3 O-O-O P-QN4 P-QR4 B-R3 K-QN1 P-N5 QXP/Q6 B-Q2").split()  # fmt: skip
"""1967 game 3 (Mac Hack VI - Landey) to 12... B-Q2, Mac Hack (White) to play 13. B-KR4:
a middlegame board with every kind of piece, which the display's benchmarks draw."""
LIVE_FRAME_MS = 4000 / 60
PICTURE_SIZE = 768  # pixels: the 342's characters at scale 1 stay readable
PICTURE_REFRESHES = 4  # a picture after the main list was drawn this often: it glows
GIF_FRAME_MS = 1200  # each move's picture, in the animation
REFRESH_LIMIT_US = 2_000_000  # a refresh takes some 50 ms; past 2 s the program is not drawing


class DisplayError(RuntimeError):
    """The program did not draw a whole refresh when the host waited for one."""


@dataclass(frozen=True)
class Refresh:
    """One refresh of the screen as the 340 drew it.

    ``main`` and ``clocks`` are the intensified points (x, y, intensity) of the main list
    and of the clock list drawn right after it, in the order drawn; ``start_ns`` and
    ``end_ns`` the emulated times at which the main list began and the clock list ended;
    ``since_ns`` when the host began to wait for it (the earlier refreshes it waited
    through glow on in its picture).
    """

    main: list[tuple[int, int, int]]
    clocks: list[tuple[int, int, int]]
    start_ns: int
    end_ns: int
    since_ns: int


def no_window_reason() -> str | None:
    """Why the live window cannot open here (None: it can).  A display that is named
    but does not answer (a stale DISPLAY) is found by opening a connection to it, before
    the 340 is attached, so the game is played without it rather than with a 340 that
    nobody sees and a header that says otherwise."""
    if not live_window_available():
        return "no display for the Type 340 window (DISPLAY is not set, or tkinter is missing)"
    import tkinter

    try:
        tkinter.Tk().destroy()
    except tkinter.TclError as exc:
        return f"no display for the Type 340 window ({exc})"
    return None


class Screen:
    """A 340 on the session's machine, and the pictures the host takes of it.

    ``png``: rewritten with the screen after every move of the game; ``gif``: an
    animation with a frame a move, written by :meth:`close`; ``live``: the window (the
    caller checks :func:`no_window_reason` first).  With neither file the host takes no
    pictures and never stops the program.  ``say`` shows a one-line note when a picture
    cannot be taken or written (the game goes on without it).
    """

    def __init__(
        self,
        session: Session,
        *,
        live: bool = False,
        png: str | Path | None = None,
        gif: str | Path | None = None,
        size: int = PICTURE_SIZE,
        say: Callable[[str], None] = lambda text: print(text, file=sys.stderr),
    ) -> None:
        for path in (png, gif):
            if path is not None:
                check_writable(path)
        self.session = session
        self.png = png
        self.gif = gif
        self.size = size
        self.say = say
        options: dict[str, Any] = {"frame_ms": LIVE_FRAME_MS, "size": size} if live else {}
        self.display: Display340 = attach_display(session.machine, live=live, **options)
        symbol = session.image.symbol
        self.build_pc = symbol("DSBLDX")
        self.recycle_pc = symbol("DSRCY") + 1
        self._state = symbol("DSST")
        self._built_ply = symbol("DSBPLY")
        self.pictured_ply: int | None = None
        self.frames: list[Any] = []
        if png is not None or gif is not None:
            session.machine.breakpoints.add(self.build_pc)

    # --- what the program drew ------------------------------------------------------
    def refresh(self, count: int = 1, limit_us: float = REFRESH_LIMIT_US) -> Refresh:
        """Run the machine until the 340 has drawn a main list whole and the clock list
        after it, ``count`` times; return the last such refresh.  The program goes on as
        it would have (at the prompt it waits; thinking, it thinks on); only the host's
        breakpoints are set aside meanwhile.  Raises :class:`DisplayError` if no
        refresh comes."""
        m = self.session.machine
        since = self.display.now
        saved = set(m.breakpoints)
        m.breakpoints.clear()
        m.breakpoints.add(self.recycle_pc)
        ends: list[tuple[int, int]] = []  # (the list that ended: 1 main, 2 clocks; time)
        deadline = m.elapsed_us + limit_us
        try:
            while m.elapsed_us < deadline:
                stop = m.run(until_us=deadline)
                if stop.reason == "halt":
                    raise DisplayError(f"the program halted at {stop.pc:06o}")
                if stop.reason != "breakpoint" or m.pc != self.recycle_pc:
                    continue
                ends.append((m.memory[self._state], self.display.now))
                if [e[0] for e in ends[-3:]] != [2, 1, 2]:
                    continue
                count -= 1
                if count <= 0:
                    (_, t0), (_, t1), (_, t2) = ends[-3:]
                    return Refresh(self._points(t0, t1), self._points(t1, t2), t0, t2, since)
        finally:
            m.breakpoints.clear()
            m.breakpoints.update(saved)
        raise DisplayError(
            f"the program drew no whole refresh in {limit_us / 1000:.0f} emulated ms "
            "(is the 340 attached, and did the program see it at a prompt?)"
        )

    def _points(self, after_ns: int, upto_ns: int) -> list[tuple[int, int, int]]:
        """The points drawn in (after_ns, upto_ns], in order."""
        xs, ys, ls, ts = self.display.points.numpy()
        lo = int(np.searchsorted(ts, after_ns, side="right"))
        hi = int(np.searchsorted(ts, upto_ns, side="right"))
        return list(zip(xs[lo:hi].tolist(), ys[lo:hi].tolist(), ls[lo:hi].tolist(), strict=True))

    def picture(self, refresh: Refresh | None = None) -> np.ndarray:
        """The screen at the end of ``refresh`` (by default the next one) as an RGB array,
        exposed for exactly that refresh, with the afterglow of those drawn while the host
        waited for it.  Nothing older is rendered: between two exchanges at the teletype
        no emulated time passes, so the afterglow of the position before would stay on
        the screen unnaturally strong."""
        r = refresh or self.refresh(PICTURE_REFRESHES)
        xs, ys, ls, ts = self.display.points.numpy()
        lo = int(np.searchsorted(ts, r.since_ns, side="right"))
        hi = int(np.searchsorted(ts, r.end_ns, side="right"))
        drawn = (xs[lo:hi], ys[lo:hi], ls[lo:hi], ts[lo:hi])
        return render(drawn, r.end_ns, size=self.size, exposure_ns=r.end_ns - r.start_ns)

    # --- after each move ------------------------------------------------------------
    def poll(self) -> None:
        """Between slices of a run: if the program is stopped where it has just built a
        list for a position not yet pictured, picture it (PNG, GIF frame)."""
        m = self.session.machine
        if m.pc != self.build_pc or (self.png is None and self.gif is None):
            return
        ply = m.memory[self._built_ply]
        if ply == self.pictured_ply:
            return
        self.pictured_ply = ply
        try:
            image = self.picture()
        except DisplayError as exc:
            self.say(f"[no picture of the 340: {exc}]")
            return
        if self.png is not None:
            try:
                save_png(self.png, image)
            except OSError as exc:
                self.say(f"[{write_failed(self.png, exc)}: no more pictures go there]")
                self.png = None
        if self.gif is not None:
            from PIL import Image

            self.frames.append(Image.fromarray(image, "RGB").quantize(colors=64))

    def close(self) -> None:
        """Write the GIF (if one was asked for) and close the window."""
        self.session.machine.breakpoints.discard(self.build_pc)
        self.display.finish()
        if self.gif is None or not self.frames:
            return
        durations = [GIF_FRAME_MS] * len(self.frames)
        durations[-1] = 3 * GIF_FRAME_MS
        try:
            first, rest = self.frames[0], self.frames[1:]
            first.save(self.gif, format="GIF", save_all=True, append_images=rest,
                       duration=durations, loop=0)  # fmt: skip
        except OSError as exc:
            raise write_failed(self.gif, exc) from exc
