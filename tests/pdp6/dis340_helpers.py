"""Helpers for the Type 340 tests: a 340 on a bare clock, word builders, and an
independent model of the binary rate multiplier written from the reference text.

Every expected value in the 340 tests comes from pdp6-reference.md section 2.5 (the
word formats, the BRM rule, the timing list); nothing is copied from the device's own
output.
"""

from __future__ import annotations

from types import SimpleNamespace

from pdp6.cpu import state as S
from pdp6.devices.display340 import Display340
from pdp6.iobus import NEVER

# Timing from reference 2.5, in ns
SYNC = 2800
SETTLE = 500
COUNT = 1000
STEP = COUNT + SETTLE  # one BRM count / increment step / stroke step
IDP = SYNC + SETTLE  # from the start of a word to its first action
POSITION = 35000
Y_LOAD = 200

# Word fields (reference 2.5)
NPAR, NPNT, NCHR, NVEC, NVCT, NINC = 0, 0o20000, 0o60000, 0o100000, 0o120000, 0o140000
LPCHG, LPON, STOP, STPINT, SCL, INT = 0o10000, 0o4000, 0o2000, 0o1000, 0o100, 0o10
YP, PINT = 0o200000, 0o2000
ESC, VINT = 0o400000, 0o200000
IR, IL, IU, ID = 0o10, 0o14, 0o2, 0o3


def param(*, mode: int = NPAR, scale: int | None = None, intensity: int | None = None,
          stop: bool = False, stop_int: bool = False, lp: bool | None = None) -> int:  # fmt: skip
    """A parameter word."""
    w = mode
    if scale is not None:
        w |= SCL | (scale << 4)
    if intensity is not None:
        w |= INT | intensity
    if stop:
        w |= STOP
    if stop_int:
        w |= STPINT
    if lp is not None:
        w |= LPCHG | (LPON if lp else 0)
    return w


def px(x: int, *, mode: int = NPNT, intensify: bool = False) -> int:
    """A point-mode X word."""
    return mode | (PINT if intensify else 0) | (x & 0o1777)


def py(y: int, *, mode: int = NPNT, intensify: bool = False) -> int:
    """A point-mode Y word."""
    return YP | mode | (PINT if intensify else 0) | (y & 0o1777)


def vec(dx: int, dy: int, *, intensify: bool = True, escape: bool = False) -> int:
    """A vector word: sign + 7-bit magnitude for each of dY (177400) and dX (000377)."""
    assert -127 <= dx <= 127 and -127 <= dy <= 127
    w = (0o200 | -dx) if dx < 0 else dx
    w |= ((0o200 | -dy) if dy < 0 else dy) << 8
    return w | (VINT if intensify else 0) | (ESC if escape else 0)


def inc(*nibbles: int, intensify: bool = True, escape: bool = False) -> int:
    """An increment word from four 4-bit step codes, first in bits 170000."""
    assert len(nibbles) == 4
    w = 0
    for n in nibbles:
        w = (w << 4) | n
    return w | (VINT if intensify else 0) | (ESC if escape else 0)


def chars(a: int, b: int, c: int) -> int:
    """A character-mode word: three 6-bit 342 codes, first in the high bits."""
    return (a << 12) | (b << 6) | c


def brm_moves(mx: int, my: int) -> list[tuple[int, int]]:
    """Per BRM count, whether X and Y step: (0/1, 0/1) for each count.

    Straight from the reference: the 7-bit BRM runs 128 counts if either magnitude is
    64 or more, else 64 counts counting by 2; at each count the bit that went 0->1 is
    BRM bit k (k = 0 for the 1s bit), and an axis steps if its magnitude has a 1 in bit
    6 - k.  Simulated here as a counter, independently of the device's table.
    """
    big = mx >= 64 or my >= 64
    n, inc_by = (128, 1) if big else (64, 2)
    c = 0
    out = []
    for _ in range(n):
        new = (c + inc_by) & 0o177
        rising = ~c & new & 0o177
        c = new
        sx = sy = 0
        for k in range(7):
            if rising >> k & 1:
                sx |= (mx >> (6 - k)) & 1
                sy |= (my >> (6 - k)) & 1
        out.append((sx, sy))
    return out


class Rig:
    """A 340 driven the way the I/O bus drives it, on a clock the test sets."""

    def __init__(self) -> None:
        self.st = [0] * S.SIZE
        self.d = Display340()
        self.d.bus = SimpleNamespace(machine=SimpleNamespace(_st=self.st))  # type: ignore[assignment]

    @property
    def t(self) -> int:
        return self.st[S.TIME]

    def run_to(self, t: int) -> None:
        """Let emulated time pass to ``t``, servicing the 340 at each of its events."""
        while (e := self.d.next_event()) <= t:
            self.st[S.TIME] = max(self.t, e)
            self.d.service(self.t)
        self.st[S.TIME] = max(self.t, t)
        self.d.advance(self.t)

    def cono(self, value: int, at: int | None = None) -> None:
        if at is not None:
            self.run_to(at)
        self.d.cono(value)

    def datao(self, word: int, at: int | None = None) -> None:
        if at is not None:
            self.run_to(at)
        self.d.datao(word)

    def coni(self) -> int:
        return self.d.coni()

    def feed(self, halves: list[int], limit: int = 10**9) -> list[int]:
        """DATAO the 18-bit words in pairs, each as soon as the data flag is up (as a
        BLKO on the data interrupt would); returns the DATAO times."""
        assert len(halves) % 2 == 0
        times = []
        for i in range(0, len(halves), 2):
            while not self.d.data_flag:
                e = self.d.next_event()
                assert e != NEVER and e <= limit, "the 340 never asked for data"
                self.run_to(e)
            times.append(self.t)
            self.d.datao((halves[i] << 18) | halves[i + 1])
        return times

    def settle(self, limit: int = 10**9) -> None:
        """Run until the 340 has nothing more to do (or ``limit`` ns)."""
        while (e := self.d.next_event()) != NEVER and e <= limit:
            self.run_to(e)

    def points(self) -> list[tuple[int, int, int, int]]:
        return self.d.points.as_tuples()
