"""Turning the 340's intensified points into pictures: P7 phosphor, PNG, GIF, a window.

The 340 (``pdp6.devices.display340``) records every intensified point with its
emulated time.  A picture of the screen at time ``F`` is what a camera with its
shutter open from ``F - exposure`` to ``F`` would catch of the glowing phosphor.

The phosphor is a P7 (reference 2.5 "Timing": a blue flash with a long yellow-green
decay).  Each point gives two lights:

* the **flash**, blue-white fluorescence that dies within microseconds -- for a camera
  it is all-or-nothing: a point drawn during the exposure gives its whole flash energy;
* the **afterglow**, yellow-green phosphorescence decaying as a power law
  ``(1 + age/tau)^-n`` (tau 20 ms, n 1.5 here: the trail of a moving spot stays
  visible for a good part of a second, as on the real tube).

Its energy over the exposure is integrated in closed form, so the picture does not
depend on how often frames are taken.  Intensity levels 0-7 scale the brightness by
``2^((level-7)/2)`` (our choice: each level about 1.4 times the previous one).  Energy
is splatted at the spot's pixel, blurred with a small Gaussian (the beam spot), and
tone-mapped per colour channel with ``1 - exp(-gain * energy)``.  Raster Y grows
upwards, image rows downwards.

Outputs: :func:`render` (an RGB numpy array), :func:`save_png`, and
:class:`ScreenRecorder`, the frame listener that :func:`attach_display` hangs on the
display for a final PNG, an animated GIF and a live
tkinter window.  Pillow is needed for PNG and GIF; tkinter and a ``DISPLAY`` for the
window (optional: without them the recorder warns and carries on headless).
"""

from __future__ import annotations

import atexit
import math
import os
import sys
import time
import warnings
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..devices.display340 import Display340, PointLog
from ..formats.hostfiles import check_writable, write_failed

if TYPE_CHECKING:
    from ..machine import Machine

RASTER = 1024
FRAME_NS = 1_000_000_000 // 30  # one frame of a 30 Hz film


@dataclass(frozen=True)
class Phosphor:
    """Light of one intensified spot, in arbitrary energy units (see module doc)."""

    flash_rgb: tuple[float, float, float] = (0.55, 0.70, 1.00)  # blue-white
    glow_rgb: tuple[float, float, float] = (0.62, 1.00, 0.22)  # yellow-green
    flash_energy: float = 1.0  # whole flash of a level-7 spot
    glow_energy: float = 1.2  # whole afterglow of a level-7 spot (to infinity)
    glow_tau_ns: float = 20e6
    glow_power: float = 1.5  # n > 1
    max_age_ns: int = 3_000_000_000  # older points are taken as dark


P7 = Phosphor()


def level_factor(levels: np.ndarray) -> np.ndarray:
    """Brightness of intensity levels 0-7 relative to level 7."""
    return np.power(2.0, (levels.astype(np.float64) - 7.0) / 2.0)


def _glow_fraction(a0: np.ndarray, a1: np.ndarray, ph: Phosphor) -> np.ndarray:
    """Share of the whole afterglow emitted between ages a0 and a1 (ns)."""
    k = 1.0 - ph.glow_power
    return np.power(1.0 + a0 / ph.glow_tau_ns, k) - np.power(1.0 + a1 / ph.glow_tau_ns, k)


def _gaussian_kernel(sigma: float) -> np.ndarray:
    r = max(1, math.ceil(2.5 * sigma))
    xs = np.arange(-r, r + 1, dtype=np.float64)
    k = np.exp(-(xs * xs) / (2 * sigma * sigma))
    return k / k.sum()


def _blur(img: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """Separable convolution of an (H, W) image, zero outside."""
    r = len(kernel) // 2
    h, w = img.shape
    pad = np.zeros((h + 2 * r, w), dtype=img.dtype)
    pad[r : r + h] = img
    out = np.zeros_like(img)
    for i, c in enumerate(kernel):
        out += c * pad[i : i + h]
    pad = np.zeros((h, w + 2 * r), dtype=img.dtype)
    pad[:, r : r + w] = out
    out2 = np.zeros_like(img)
    for i, c in enumerate(kernel):
        out2 += c * pad[:, i : i + w]
    return out2


def render(
    points: PointLog | tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    at_ns: int,
    *,
    size: int = 512,
    exposure_ns: int = FRAME_NS,
    phosphor: Phosphor = P7,
    gain: float = 1.6,
    spot: float = 0.8,
    method: str = "auto",
) -> np.ndarray:
    """The screen at emulated time ``at_ns`` as an (size, size, 3) uint8 RGB array.

    ``exposure_ns``: how long the shutter was open before ``at_ns`` (a large value
    gives a "long exposure" with every point at full flash).  ``spot``: the beam
    spot's Gaussian sigma in raster units.  ``method``: 'splat' (a spot around each
    point), 'blur' (points on pixels, then the whole picture blurred) or 'auto' (the
    cheaper for the number of points); both give the same picture.
    """
    xs, ys, ls, ts = points.numpy() if isinstance(points, PointLog) else points
    lo = int(np.searchsorted(ts, at_ns - phosphor.max_age_ns, side="left"))
    hi = int(np.searchsorted(ts, at_ns, side="right"))
    xs, ys, ls, ts = xs[lo:hi], ys[lo:hi], ls[lo:hi], ts[lo:hi]
    out = np.zeros((size, size, 3), dtype=np.uint8)
    if not len(ts):
        return out
    age1 = (at_ns - ts).astype(np.float64)
    age0 = np.maximum(0.0, age1 - exposure_ns)
    lvl = level_factor(ls)
    f_w = np.where(age1 <= exposure_ns, phosphor.flash_energy, 0.0) * lvl
    g_w = phosphor.glow_energy * _glow_fraction(age0, age1, phosphor) * lvl
    scale = size / RASTER
    col = np.minimum((xs.astype(np.float64) + 0.5) * scale, size - 1).astype(np.int64)
    row = size - 1 - np.minimum((ys.astype(np.float64) + 0.5) * scale, size - 1).astype(np.int64)
    kernel = _gaussian_kernel(max(0.45, spot * size / RASTER))
    # a spot's energy spread over the kernel; scaled so that a lone spot's peak keeps
    # the energy it would have on one pixel
    kernel2 = np.outer(kernel, kernel) / kernel.max() ** 2
    r = len(kernel) // 2
    n = size * size
    if method == "splat" or (method == "auto" and len(ts) * kernel2.size <= 2 * n):
        # few points: splat the spot around each one
        idx_parts, f_parts, g_parts = [], [], []
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                rr, cc = row + dy, col + dx
                ok = (rr >= 0) & (rr < size) & (cc >= 0) & (cc < size)
                w = kernel2[dy + r, dx + r]
                idx_parts.append(rr[ok] * size + cc[ok])
                f_parts.append(f_w[ok] * w)
                g_parts.append(g_w[ok] * w)
        idx = np.concatenate(idx_parts)
        flash = np.bincount(idx, weights=np.concatenate(f_parts), minlength=n)
        glow = np.bincount(idx, weights=np.concatenate(g_parts), minlength=n)
    else:
        # many points: put them on pixels, then blur the whole picture
        idx = row * size + col
        norm = 1.0 / kernel.max() ** 2
        flash = _blur(np.bincount(idx, weights=f_w, minlength=n).reshape(size, size),
                      kernel).ravel() * norm  # fmt: skip
        glow = _blur(np.bincount(idx, weights=g_w, minlength=n).reshape(size, size),
                     kernel).ravel() * norm  # fmt: skip
    # tone-map only the pixels that got light (most of a 340 picture is black)
    lit = np.flatnonzero((flash > 0) | (glow > 0))
    fl, gl = flash[lit], glow[lit]
    flat = out.reshape(n, 3)
    for c in range(3):
        e = fl * phosphor.flash_rgb[c] + gl * phosphor.glow_rgb[c]
        flat[lit, c] = np.clip(np.rint((1.0 - np.exp(-gain * e)) * 255.0), 0, 255)
    return out


def _pil() -> Any:
    try:
        from PIL import Image
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise RuntimeError("PNG and GIF output need Pillow: pip install pillow") from exc
    return Image


def save_png(path: str | os.PathLike[str], img: np.ndarray) -> None:
    """Write an RGB array as a PNG file."""
    _pil().fromarray(img, "RGB").save(path, format="PNG", optimize=True)


def load_png(path: str | os.PathLike[str]) -> np.ndarray:
    """Read a PNG file as an RGB array."""
    with _pil().open(path) as im:
        return np.asarray(im.convert("RGB"))


class LiveWindow:
    """A tkinter window showing frames; updated from the emulator's own thread.

    The emulator calls :meth:`show` between instructions (at frame events), and
    ``update()`` handles the window's events there, so no second thread is needed.
    """

    def __init__(self, size: int) -> None:
        import tkinter as tk

        self.tk = tk
        self.root = tk.Tk()
        self.root.title("Type 340")
        self.root.configure(background="black")
        self.image = tk.PhotoImage(width=size, height=size)
        self.label = tk.Label(self.root, image=self.image, borderwidth=0, background="black")
        self.label.pack()
        self.closed = False
        self.root.protocol("WM_DELETE_WINDOW", self._on_close)
        self.root.update()

    def _on_close(self) -> None:
        self.closed = True
        self.root.destroy()

    def show(self, img: np.ndarray) -> None:
        if self.closed:
            return
        h, w, _ = img.shape
        ppm = b"P6 %d %d 255\n" % (w, h) + img.tobytes()
        try:
            self.image.configure(data=ppm, format="PPM")
            self.root.update()
        except self.tk.TclError:  # the window went away
            self.closed = True

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            try:
                self.root.destroy()
            except self.tk.TclError:
                pass


def live_window_available() -> bool:
    """tkinter importable and a display to open it on."""
    if sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
        return False
    try:
        import tkinter  # noqa: F401
    except ImportError:
        return False
    return True


class ScreenRecorder:
    """Frame listener for a :class:`Display340`: final PNG, animated GIF, live window.

    ``frame_ms``: emulated time between GIF/window frames (default 1000/30).
    ``size``: picture size in pixels (square).  ``max_frames``: GIF frames kept (later
    ones are dropped with a warning).  ``png_exposure_ms``: the final picture's
    exposure (default one frame).  ``realtime_window``: show a window frame only when
    1/30 s of wall time has passed since the last one.
    """

    def __init__(
        self,
        png: str | os.PathLike[str] | None = None,
        gif: str | os.PathLike[str] | None = None,
        live: bool = False,
        *,
        frame_ms: float = 1000 / 30,
        size: int = 512,
        max_frames: int = 900,
        png_exposure_ms: float | None = None,
        phosphor: Phosphor = P7,
    ) -> None:
        for path in (png, gif):
            if path is not None:
                check_writable(path)
        self.png = png
        self.gif = gif
        self.frame_ns = max(1, int(frame_ms * 1e6))
        self.size = size
        self.max_frames = max_frames
        self.png_exposure_ns = (
            self.frame_ns if png_exposure_ms is None else int(png_exposure_ms * 1e6)
        )
        self.phosphor = phosphor
        self.frames: list[Any] = []
        self.window: LiveWindow | None = None
        if live:
            if live_window_available():
                try:
                    self.window = LiveWindow(size)
                except Exception as exc:  # noqa: BLE001 - any Tk failure: go headless
                    warnings.warn(f"no live 340 window: {exc}", stacklevel=2)
            else:
                warnings.warn(
                    "no live 340 window: tkinter or a display (DISPLAY) is missing",
                    stacklevel=2,
                )
        self.next_frame_ns = self.frame_ns if (gif or self.window) else (1 << 62) - 1
        self._last_wall = 0.0
        self._closed = False
        self._dropped_warned = False

    def frame(self, display: Display340, t: int) -> None:
        self.next_frame_ns = t + self.frame_ns
        want_gif = self.gif is not None and len(self.frames) < self.max_frames
        want_window = self.window is not None and not self.window.closed
        if want_window and time.monotonic() - self._last_wall < 1 / 30:
            want_window = False
        if self.gif is not None and not want_gif and not self._dropped_warned:
            self._dropped_warned = True
            warnings.warn(f"GIF limited to {self.max_frames} frames", stacklevel=2)
        if not (want_gif or want_window):
            return
        img = render(display.points, t, size=self.size, exposure_ns=self.frame_ns,
                     phosphor=self.phosphor)  # fmt: skip
        if want_gif:
            self.frames.append(_pil().fromarray(img, "RGB").quantize(colors=64))
        if want_window and self.window is not None:
            self.window.show(img)
            self._last_wall = time.monotonic()

    def close(self, display: Display340) -> None:
        """Write the outputs (once): the final PNG at the display's current time, and
        the GIF of the frames taken.  A file that cannot be written raises
        :class:`pdp6.formats.hostfiles.OutputFileError` (after the other one is written)."""
        if self._closed:
            return
        self._closed = True
        if self.window is not None:
            self.window.close()
        now = display.now if display.bus is not None else 0
        failed = None
        if self.png is not None:
            picture = render(display.points, now, size=self.size,
                             exposure_ns=self.png_exposure_ns, phosphor=self.phosphor)  # fmt: skip
            try:
                save_png(self.png, picture)
            except OSError as exc:
                failed = write_failed(self.png, exc)
        if self.gif is not None:
            frames = self.frames or [
                _pil().fromarray(render(display.points, now, size=self.size), "RGB").quantize(64)
            ]
            try:
                frames[0].save(self.gif, format="GIF", save_all=True, append_images=frames[1:],
                               duration=max(20, round(self.frame_ns / 1e6)), loop=0)  # fmt: skip
            except OSError as exc:
                failed = failed or write_failed(self.gif, exc)
        if failed is not None:
            raise failed

    def register_exit(self, display: Display340) -> None:
        """Write the outputs at interpreter exit if nobody called ``finish`` before."""
        ref = weakref.ref(display)

        def _at_exit() -> None:
            d = ref()
            if d is not None:
                try:
                    self.close(d)
                except Exception as exc:  # noqa: BLE001 - at exit, report and go on
                    print(f"340 display output not written: {exc}", file=sys.stderr)

        atexit.register(_at_exit)


def attach_display(
    machine: Machine,
    png: str | None = None,
    gif: str | None = None,
    live: bool = False,
    **options: Any,
) -> Display340:
    """Put a 340 on ``machine`` (device 130) with the requested outputs.

    ``png``: write the screen as it looks at the end of the run (``display.finish()``,
    also called at interpreter exit).  ``gif``: an animated GIF of the run, one frame
    per ``frame_ms`` of emulated time (default 1000/30).  ``live``: a window updated as
    the machine runs, when tkinter and a display are available (otherwise a warning and
    no window).  ``keep_all``: keep every point in ``display.points`` (by default points
    older than 4 emulated seconds, dark by then, are dropped as the run goes on, so a
    long run does not fill memory).  Other keyword options go to
    :class:`ScreenRecorder`.  A PNG or GIF file that cannot be written raises
    :class:`pdp6.formats.hostfiles.OutputFileError` before anything is attached.
    """
    keep_all = bool(options.pop("keep_all", False))
    # the recorder first: it refuses an unwritable file before the machine changes
    recorder = None
    if png or gif or live:
        recorder = ScreenRecorder(png=png, gif=gif, live=live, **options)
    display = Display340(keep_ns=None if keep_all else 4_000_000_000)
    machine.attach(display)
    if recorder is not None:
        display.listeners.append(recorder)
        recorder.register_exit(display)
    return display
