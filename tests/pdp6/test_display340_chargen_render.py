"""The 342 character generator's programs, the P7 renderer, and the display docs."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pytest

from pdp6.devices import chargen342 as cg
from pdp6.devices.display340 import PointLog
from pdp6.host.render import P7, ScreenRecorder, live_window_available, load_png, render, save_png

DRAWN_IN = [c for c in range(64) if c not in (0o33, 0o34, 0o35, 0o36, 0o37, 0o40)]


def walk(prog: tuple[int, ...]) -> tuple[list[tuple[int, int]], tuple[int, int], list[int]]:
    """Follow a stroke program: the intensified positions, the end, each step's size."""
    x = y = 0
    lit, sizes = [], []
    for op in prog:
        assert not op & cg.SPECIAL or op in (cg.CR, cg.SHIFT_IN, cg.SHIFT_OUT, cg.ESCAPE)
        if op & cg.SPECIAL:
            continue
        h, v = op & 0o14, op & 0o03
        dx = {0o10: 1, 0o14: -1}.get(h, 0)
        dy = {0o02: 1, 0o03: -1}.get(v, 0)
        x, y = x + dx, y + dy
        sizes.append(max(abs(dx), abs(dy)))
        if op & cg.INTENSIFY:
            lit.append((x, y))
    return lit, (x, y), sizes


@pytest.mark.parametrize("case", [0, 1])
def test_every_glyph_program_draws_its_dots_once_and_advances_six(case: int) -> None:
    for code in DRAWN_IN:
        if case == 1 and code in (0o72, 0o73, 0o77):
            continue  # the beam-motion codes of the shift-out set
        lit, end, sizes = walk(cg.PROGRAMS[code + 64 * case])
        assert sorted(lit) == sorted(cg.PATTERNS[case][code]), (case, oct(code))
        assert len(lit) == len(set(lit))
        assert end == (6, 0), (case, oct(code))  # reference 2.5: X advances 6 steps
        assert all(s <= 1 for s in sizes)  # one grid step at a time
        assert lit, "every drawable code shows something"


def test_glyphs_fit_the_dot_grid() -> None:
    for case in (0, 1):
        for code, dots in cg.PATTERNS[case].items():
            assert all(0 <= x <= 4 and -2 <= y <= 6 for x, y in dots), (case, oct(code))
    # capitals, digits and signs of the shift-in set stand on the baseline: 5 x 7
    assert all(y >= 0 for dots in cg.PATTERNS[0].values() for _, y in dots)


def test_printable_glyphs_differ() -> None:
    for case in (0, 1):
        seen: dict[frozenset[tuple[int, int]], int] = {}
        for code, dots in cg.PATTERNS[case].items():
            if cg.NAMES[case][code] == "unassigned":
                continue
            assert dots not in seen, (case, oct(code), oct(seen.get(dots, 0)))
            seen[dots] = code


@pytest.mark.parametrize("case", [0, 1])
def test_control_codes_are_the_same_in_both_cases(case: int) -> None:
    p = cg.PROGRAMS
    base = 64 * case
    assert p[base + 0o33] == (cg.DOWN,) * 11  # line feed: 11 steps down, dark
    assert p[base + 0o34] == (cg.CR,)
    assert p[base + 0o35] == (cg.SHIFT_IN,)
    assert p[base + 0o36] == (cg.SHIFT_OUT,)
    assert p[base + 0o37] == (cg.ESCAPE,)
    assert p[base + 0o40] == (cg.RIGHT,) * 6  # space


def test_code_table_of_the_reference() -> None:
    names = cg.NAMES[0]
    assert names[0] == "special"
    assert "".join(names[1:0o33]) == "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    assert "".join(names[0o41:0o60]) == "!\"#$%&'()*+,-./"
    assert "".join(names[0o60:0o72]) == "0123456789"
    assert "".join(names[0o72:0o100]) == ":;<=>?"
    assert "".join(cg.NAMES[1][1:0o33]) == "abcdefghijklmnopqrstuvwxyz"
    # 342 code = SIXBIT code XOR 40 for the shift-in set
    for ch in "AZ09!?/ ":
        sixbit = ord(ch) - 0o40
        assert cg.code_for(ch) == (sixbit ^ 0o40, False)
    assert cg.code_for("q") == (0o21, True)
    assert cg.code_for("[") == (0o53, True)
    with pytest.raises(KeyError):
        cg.code_for("\x07")


def test_glyph_art_shows_the_pattern() -> None:
    assert cg.glyph_art(0o01).splitlines()[0] == ".###."
    assert len(cg.glyph_art(0o07, shifted=True).splitlines()) == 9  # g has descenders


# --- rendering -------------------------------------------------------------------------


def log_of(*pts: tuple[int, int, int, int]) -> PointLog:
    log = PointLog()
    for p in pts:
        log.append(*p)
    return log


def test_a_point_lands_on_its_pixel_with_y_up() -> None:
    img = render(log_of((0, 0, 7, 1000), (1023, 1023, 7, 1000)), 2000, size=64)
    assert img[63, 0].sum() > 300  # raster (0, 0) is the bottom-left corner
    assert img[0, 63].sum() > 300
    assert img[0, 0].sum() == 0 and img[63, 63].sum() == 0


def test_future_points_are_not_shown() -> None:
    img = render(log_of((512, 512, 7, 5000)), 4999, size=32)
    assert img.max() == 0


def test_p7_blue_flash_then_yellow_green_afterglow() -> None:
    fresh = render(log_of((512, 512, 7, 999_000)), 1_000_000, size=32)[16, 16].astype(int)
    old_t = 1_000_000 - 300_000_000  # drawn 0.3 s before the frame
    old = render(log_of((512, 512, 7, old_t)), 1_000_000, size=32)[16, 16].astype(int)
    assert fresh[2] >= fresh[1] > 0  # the flash is blue-white
    assert 0 < old.sum() < fresh.sum() / 4  # long persistence, much dimmer
    assert old[1] > old[2]  # the afterglow is yellow-green
    gone = render(log_of((512, 512, 7, 0)), P7.max_age_ns + 10, size=32)
    assert gone.max() == 0


def test_intensity_levels_order_brightness() -> None:
    sums = [
        int(render(log_of((512, 512, lvl, 100)), 200, size=32, gain=0.2)[16, 16].sum())
        for lvl in range(8)
    ]
    assert sums == sorted(sums) and sums[0] < sums[7]


def test_splat_and_blur_give_the_same_picture() -> None:
    rng = np.random.default_rng(6)
    n = 3000
    pts = log_of(*zip(rng.integers(0, 1024, n).tolist(), rng.integers(0, 1024, n).tolist(),
                      rng.integers(0, 8, n).tolist(), sorted(rng.integers(0, 10**8, n).tolist()),
                      strict=True))  # fmt: skip
    a = render(pts, 10**8, size=128, method="splat")
    b = render(pts, 10**8, size=128, method="blur")
    assert np.abs(a.astype(int) - b.astype(int)).max() <= 1  # rounding only
    assert a.max() > 0


def test_png_round_trip(tmp_path: Path) -> None:
    img = render(log_of((100, 200, 7, 10)), 20, size=64)
    save_png(tmp_path / "a.png", img)
    assert np.array_equal(load_png(tmp_path / "a.png"), img)


def test_live_window_is_optional() -> None:
    if live_window_available():
        pytest.skip("a display is available here")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rec = ScreenRecorder(live=True)
    assert rec.window is None
    assert any("no live 340 window" in str(w.message) for w in caught)


def test_live_window_shows_frames_when_a_display_exists() -> None:
    if not live_window_available():
        pytest.skip("no display (DISPLAY unset or no tkinter)")
    from types import SimpleNamespace

    rec = ScreenRecorder(live=True, size=64, frame_ms=1)
    assert rec.window is not None
    fake = SimpleNamespace(points=log_of((512, 512, 7, 500_000)), now=1_000_000, bus=None)
    rec._last_wall = -1.0
    rec.frame(fake, 1_000_000)  # type: ignore[arg-type]
    assert sum(rec.window.image.get(32, 32)) > 0
    rec.close(fake)  # type: ignore[arg-type]
    assert rec.window.closed


# --- docs/display.md examples run ------------------------------------------------------

DOC = Path(__file__).resolve().parents[2] / "docs" / "display.md"


def test_display_doc_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert blocks
    for i, code in enumerate(blocks):
        exec(compile(code, f"display.md#{i}", "exec"), {})
        out = capsys.readouterr().out
        for line in code.splitlines():
            m = re.match(r"\s*print\(.*\)\s*#\s*(.+)$", line)
            if m:
                for token in m.group(1).split():
                    assert token in out, (i, token, out)
