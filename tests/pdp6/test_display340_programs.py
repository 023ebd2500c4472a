"""MIDAS programs driving the 340 through the CPU: BLKO on the data channel's
interrupt, the special (stop/edge) interrupt, a Mac Hack-style refresh loop, and the
all-modes test picture compared with its committed point list and reference image.

To re-make the reference files after a deliberate change:
``PDP6_REGEN_DIS340=1 pytest tests/pdp6/test_display340_programs.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

import midas
from pdp6 import Machine, jit
from pdp6.cpu import dis340 as L
from pdp6.devices import chargen342 as cg
from pdp6.devices.display340 import Display340
from pdp6.formats.snapshot import read_snapshot, restore, save
from pdp6.host.render import attach_display, load_png, render, save_png

from .dis340_helpers import brm_moves

HERE = Path(__file__).parent
PROGRAMS = HERE / "programs"
DATA = HERE / "data"
REF_POINTS = DATA / "dis340_all_modes.json"
REF_IMAGE = DATA / "dis340_all_modes.png"
REGEN = os.environ.get("PDP6_REGEN_DIS340", "") not in ("", "0")
IMAGE_SIZE = 512


def assemble(name: str, patch: dict[str, str] | None = None) -> midas.Program:
    path = PROGRAMS / name
    text = path.read_text()
    for old, new in (patch or {}).items():
        assert old in text
        text = text.replace(old, new)
    program = midas.assemble(text, filename=str(path))
    assert not program.errors, program.errors
    return program


def loaded(name: str, engine: str | None = None, patch: dict[str, str] | None = None
           ) -> tuple[Machine, Display340, midas.Program]:  # fmt: skip
    """A machine with a 340, the program in core and the PC at its start."""
    program = assemble(name, patch)
    m = Machine(engine=engine)
    for addr, word in program.words.items():
        m.memory[addr] = word
    m.pc = program.start
    d = Display340()
    m.attach(d)
    return m, d, program


def run(name: str, engine: str | None = None, patch: dict[str, str] | None = None,
        limit: int = 5_000_000) -> tuple[Machine, Display340, midas.Program]:  # fmt: skip
    m, d, program = loaded(name, engine, patch)
    stop = m.run(max_instructions=limit)
    assert stop.reason == "halt", stop
    return m, d, program


def mem(m: Machine, p: midas.Program, name: str) -> int:
    return m.memory[p.symbols[name]]


# --- the all-modes picture -------------------------------------------------------------


@pytest.fixture(scope="module")
def all_modes() -> tuple[Machine, Display340, midas.Program]:
    return run("dis340_all_modes.mid")


def test_all_modes_ends_with_the_stop_interrupt(all_modes) -> None:
    m, d, p = all_modes
    # special interrupt from the STOP: CONI 000400 + special PIA 6 + data PIA 7, mode 0
    assert mem(m, p, "STATUS") == 0o467
    assert mem(m, p, "OVCNT") == 0
    # the last drawing was the vector continue from (900, 150), 3 right 1 up each 64
    # counts, until X reached 1024 (wrapped to 0)
    x, y = 900, 150
    while x < 1024:
        for sx, sy in brm_moves(3, 1):
            x += sx
            y += sy
            if x >= 1024:
                break
    assert mem(m, p, "BEAM") == (y << 18) | 0


def test_all_modes_point_list_is_exact(all_modes) -> None:
    _, d, _ = all_modes
    got = d.points.as_tuples()
    if REGEN:
        DATA.mkdir(exist_ok=True)
        REF_POINTS.write_text(json.dumps({"points": got}, separators=(",", ":")) + "\n")
    ref = [tuple(p) for p in json.loads(REF_POINTS.read_text())["points"]]
    assert got == ref


def test_all_modes_parts_worked_out_by_hand(all_modes) -> None:
    _, d, _ = all_modes
    pts = d.points.as_tuples()
    # the intensity ramp: one point per level at Y 100 (the last Y word intensifies too)
    ramp = [(x, y, i) for x, y, i, _ in pts if y == 100 and x in range(100, 441)]
    assert ramp == [(100, 100, 0), (140, 100, 1), (200, 100, 2), (240, 100, 3), (300, 100, 4),
                    (340, 100, 5), (400, 100, 6), (400, 100, 7), (440, 100, 7)]  # fmt: skip
    # the square at scale 2 from (420, 200): 4 sides of 32 steps of 4 units
    side = range(4, 129, 4)
    square = ({(420 + s, 200) for s in side} | {(548, 200 + s) for s in side}
              | {(548 - s, 328) for s in side} | {(420, 328 - s) for s in side})  # fmt: skip
    assert {(x, y) for x, y, i, _ in pts if i == 4 and (x, y) in square} == square
    # the eight long star vectors: 64 steps each from (256, 300)
    for ux, uy in [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]:
        ray = {(256 + ux * k, 300 + uy * k) for k in range(1, 65)}
        assert ray <= {(x, y) for x, y, _, _ in pts}
    # the character set at scale 1: every dot of every glyph drawn, starting at (0, 1000)
    glyph_dots = sum(
        len(cg.PATTERNS[case][code])
        for case in (0, 1)
        for code in list(range(0o33)) + list(range(0o41, 0o100))
        if code in cg.PATTERNS[case]
    )
    first_text = [p for p in pts if p[1] >= 900 and p[2] == 7]
    assert len(first_text) == glyph_dots
    assert {(x, y) for x, y, _, _ in first_text[: len(cg.PATTERNS[0][0])]} == {
        (2 * x, 1000 + 2 * y) for x, y in cg.PATTERNS[0][0]
    }


def test_all_modes_rendering_matches_the_reference_image(all_modes) -> None:
    m, d, _ = all_modes
    img = render(d.points, m.elapsed_ns, size=IMAGE_SIZE, exposure_ns=m.elapsed_ns + 1)
    if REGEN:
        save_png(REF_IMAGE, img)
    ref = load_png(REF_IMAGE)
    assert ref.shape == img.shape
    diff = np.abs(img.astype(np.int16) - ref.astype(np.int16))
    assert diff.mean() < 0.5 and np.percentile(diff, 99.9) < 24
    # and it is a picture: lit pixels where the characters are, dark elsewhere
    assert img[:40, :200].max() > 150 and img[-40:, -40:].max() == 0


def test_both_engines_draw_the_same_points(all_modes) -> None:
    _, d, _ = all_modes
    _, d2, _ = run("dis340_all_modes.mid", engine="python")
    assert d2.points.as_tuples() == d.points.as_tuples()


PROGRAM_NAMES = (
    "dis340_all_modes.mid",
    "dis340_edge.mid",
    "dis340_refresh.mid",
    "dis340_watch.mid",
)


def _traced(name: str, engine: str, in_loop: bool, monkeypatch: pytest.MonkeyPatch,
            ) -> tuple[object, ...]:  # fmt: skip
    """Run a program with the 340 run by the execute loop or by the device's code:
    everything the machine and the 340 did, and how many words the device's code took."""
    monkeypatch.setattr(Display340, "in_loop", in_loop)
    taken: list[int] = []
    datao = Display340.datao
    monkeypatch.setattr(Display340, "datao", lambda self, w: (taken.append(w), datao(self, w)))
    m, d, p = run(name, engine=engine)
    state = tuple(getattr(d, r.attr) for r in d.registers)
    return (d.points.as_tuples(), state, m.elapsed_ns, m.instructions, m.pc,
            [m.memory[a] for a in sorted(p.words)], len(taken))  # fmt: skip


@pytest.mark.parametrize("engine", ["compiled", "python", "interpreter"])
@pytest.mark.parametrize("name", PROGRAM_NAMES)
def test_the_loop_runs_the_340_as_the_device_does(
    name: str, engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pdp6.cpu.dis340 inside the execute loop: the same points at the same times, the
    same registers, core and emulated time as the device's own code, on every engine;
    and the device's code saw none of the words (the loop took them all)."""
    if engine == "compiled" and not jit.ENABLED:
        pytest.skip("numba is off")
    *host, host_words = _traced(name, engine, False, monkeypatch)
    *loop, loop_words = _traced(name, engine, True, monkeypatch)
    assert loop == host
    assert host_words > 0 and loop_words == 0


# --- edges and stops through the CPU ----------------------------------------------------


def test_edge_interrupt_then_initialize_then_stop_interrupt() -> None:
    m, d, p = run("dis340_edge.mid")
    assert mem(m, p, "STAT1") == 0o4067  # vertical edge, parameter mode, PIAs 6 and 7
    assert mem(m, p, "BEAM1") == (0 << 18) | 500  # Y 1000 + 24 wrapped to 0
    list1 = p.symbols["LIST1"]
    assert mem(m, p, "DPTR1") == ((-2 & 0o777777) << 18) | (list1 + 1)  # 2 words sent
    assert mem(m, p, "STAT1R") == 0o4067  # a resume leaves the edge stop
    assert mem(m, p, "STAT1I") == 0o200 | 0o67  # initialize: ready for data
    assert mem(m, p, "STAT2") == 0o467
    assert mem(m, p, "BEAM2") == (500 << 18) | 100
    assert mem(m, p, "OVCNT") == 0
    assert [(x, y) for x, y, _, _ in d.points.as_tuples()] == [
        (500, y) for y in range(1001, 1024)
    ] + [(100, 500)]


def test_blko_counting_out_runs_the_second_location() -> None:
    # start on the second list with a count exactly its length: sending its last word
    # counts the pointer out, and 41+2n (JSR OVFL) runs in the same interrupt.  The
    # special routine then runs that list again, this time with a spare count.
    m, d, p = run("dis340_edge.mid", patch={
        "MOVE A,[-<LIST1E-LIST1+2>,,LIST1-1]": "MOVE A,[-<LIST2E-LIST2+1>,,LIST2-1]",
    })  # fmt: skip
    assert mem(m, p, "OVCNT") == 1
    assert mem(m, p, "STAT1") == 0o467  # the list ran to its STOP
    assert [(x, y) for x, y, _, _ in d.points.as_tuples()] == [(100, 500), (100, 500)]


# --- the Mac Hack flow: a refresh loop ----------------------------------------------------


def test_refresh_loop_like_mac_hack() -> None:
    m, d, p = run("dis340_refresh.mid")
    n = 5
    assert mem(m, p, "NREF") == n
    assert mem(m, p, "STATUS") == 0o467
    assert mem(m, p, "OVCNT") == 0
    length = p.symbols["LISTND"] - p.symbols["LIST"] + 1
    # each pass sends the whole list: the STOP is the right half of its last word
    assert d.words == n * 2 * length
    pts = d.points.as_tuples()
    assert len(pts) % n == 0
    k = len(pts) // n
    assert [q[:3] for q in pts[:k]] == [q[:3] for q in pts[-k:]]
    # the board: 9 + 9 lines of 48 steps of 8 units, corners at (320,160), (704,544)
    xs = [x for x, _, _, _ in pts[:k]]
    assert min(xs) == 320 and max(xs) == 704


@pytest.mark.parametrize("engine", ["compiled", "python", "interpreter"])
def test_a_refresh_sent_again_comes_from_the_memo(engine: str) -> None:
    """The loop keeps each word's outcome by the word and the 340's state it starts
    from: after the first pass, (nearly) every word of the list is set down from that
    memo (that the picture, registers and times are the device's own is
    test_the_loop_runs_the_340_as_the_device_does, on the same program)."""
    if engine == "compiled" and not jit.ENABLED:
        pytest.skip("numba is off")
    m, _, p = run("dis340_refresh.mid", engine=engine)
    length = p.symbols["LISTND"] - p.symbols["LIST"] + 1
    assert m._io[L.D_MEMO_HITS] >= (mem(m, p, "NREF") - 1) * (length - 1)


@pytest.mark.parametrize("stop_after", [300, 1_234, 3_001, 4_800])
def test_a_snapshot_of_the_refresh_loop_runs_on_as_the_machine_did(
    tmp_path: Path, stop_after: int
) -> None:
    """Saved at any instruction (the 340 in mid-word, words in the 344's buffer),
    restored into a new machine with a new 340: the same points from then on and the
    same machine at the end."""
    m, d, _ = loaded("dis340_refresh.mid")
    assert m.run(max_instructions=stop_after).reason != "halt"
    assert d.coni() & 0o200 == 0  # (the 340 is drawing a word)
    snap = tmp_path / "refresh.snap"
    save(m, snap)
    t_saved = m.elapsed_ns
    m2 = Machine()
    d2 = Display340()
    m2.attach(d2)
    restore(m2, read_snapshot(snap))
    assert m2.elapsed_ns == t_saved and d2.coni() == d.coni()
    for machine in (m, m2):
        assert machine.run(max_instructions=5_000_000).reason == "halt"
    assert [p for p in d2.points.as_tuples() if p[3] > t_saved] == [
        p for p in d.points.as_tuples() if p[3] > t_saved
    ]
    assert (m2.pc, m2.elapsed_ns, d2.coni(), d2.words) == (m.pc, m.elapsed_ns, d.coni(), d.words)
    assert list(m2.memory[0:0o2000]) == list(m.memory[0:0o2000])
    # restored into the machine that ran on: the run abandoned leaves no points behind,
    # and the screen's log stays in time order (what the renderers rely on)
    first = d.points.as_tuples()
    restore(m, read_snapshot(snap))
    assert m.run(max_instructions=5_000_000).reason == "halt"
    assert d.points.as_tuples() == first


def test_a_malformed_word_in_progress_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    """The 340's PLAN is checked with everything else before restore changes anything."""
    import base64

    from pdp6.formats.snapshot import SnapshotError

    from .console_helpers import rewrite

    m, d, _ = loaded("dis340_refresh.mid")
    m.run(max_instructions=300)
    snap = tmp_path / "refresh.snap"
    save(m, snap)
    bad = base64.b64encode((9).to_bytes(8, "little") * 9).decode()  # state 9: no such state
    rewrite(snap, lambda doc: doc["devices"]["DIS"]["fields"].update(plan={"bytes": bad}))
    m.run(max_instructions=100)
    before = (m.pc, m.elapsed_ns, list(m.memory[0:0o2000]), d.plan, d.points.as_tuples())
    with pytest.raises(SnapshotError, match="corrupt: DIS.PLAN has no state"):
        restore(m, read_snapshot(snap))
    assert (m.pc, m.elapsed_ns, list(m.memory[0:0o2000]), d.plan, d.points.as_tuples()) == before


def test_attach_display_writes_png_and_gif(tmp_path: Path) -> None:
    program = assemble("dis340_refresh.mid")
    m = Machine()
    for addr, word in program.words.items():
        m.memory[addr] = word
    m.pc = program.start
    png, gif = tmp_path / "screen.png", tmp_path / "run.gif"
    d = attach_display(m, png=str(png), gif=str(gif), frame_ms=5, size=128)
    assert m.bus.get("DIS") is d
    assert m.run(max_instructions=1_000_000).reason == "halt"
    d.finish()
    from PIL import Image

    img = load_png(png)
    assert img.shape == (128, 128, 3) and img.max() > 100
    with Image.open(gif) as g:
        frames = g.n_frames
    # one frame per 5 ms of emulated time
    assert frames == m.elapsed_ns // 5_000_000


@pytest.mark.parametrize("engine", ["compiled", "interpreter"])
def test_the_loops_340_draws_points_when_looked_at_and_forgets_old_ones(
    engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loop keeps the words it works out and draws their points only when someone
    looks; a word older than ``keep_ns`` may be forgotten unseen, but every point the
    host keeps is the one the device's code draws."""
    if engine == "compiled" and not jit.ENABLED:
        pytest.skip("numba is off")
    keep = 3_000_000  # 3 emulated ms: a few of the program's refreshes
    got = {}
    for in_loop in (False, True):
        monkeypatch.setattr(Display340, "in_loop", in_loop)
        m, d, _ = loaded("dis340_refresh.mid", engine)
        d.keep_ns = keep
        assert m.run(max_instructions=5_000_000).reason == "halt"
        if in_loop:
            assert d._regs[L.D_WN] > 0  # kept, not drawn yet
        got[in_loop] = (d.points.as_tuples(), m.elapsed_ns)
    (host, end), (loop, loop_end) = got[False], got[True]
    assert loop_end == end
    recent = [p for p in host if p[3] >= end - keep]
    assert recent and loop[-len(recent) :] == recent
    assert set(loop) <= set(host)


@pytest.mark.parametrize(("first", "then"), [("interpreter", "python"), ("python", "compiled")])
def test_the_loops_340_goes_on_across_a_change_of_engine(first: str, then: str) -> None:
    """The 340's registers live in the machine's arrays, which a change of engine
    converts: the run goes on to the same points, registers and time."""
    if "compiled" in (first, then) and not jit.ENABLED:
        pytest.skip("numba is off")
    ref, d_ref, _ = loaded("dis340_refresh.mid", first)
    assert ref.run(max_instructions=5_000_000).reason == "halt"
    m, d, _ = loaded("dis340_refresh.mid", first)
    m.run(max_instructions=3_000)
    m.switch_engine(then)
    assert m.run(max_instructions=5_000_000).reason == "halt"
    assert d.points.as_tuples() == d_ref.points.as_tuples()
    assert [getattr(d, r.attr) for r in d.registers] == [
        getattr(d_ref, r.attr) for r in d_ref.registers
    ]
    assert m.elapsed_ns == ref.elapsed_ns


@pytest.mark.parametrize("engine", ["compiled", "interpreter"])
@pytest.mark.parametrize("name", PROGRAM_NAMES)
def test_the_loop_ended_anywhere_leaves_the_340_as_the_device_has_it(
    name: str, engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loop works out both halves of a word at once and shows visible changes only
    when asked; ended after any instruction (here stretches of 1 to 37), it hands the
    device the 340 exactly as the device's own code has it at that moment (registers,
    CONI, DATAI, the word in progress: the second half back in the buffer while the
    first is drawn), and the run goes on to the same points, time and core."""
    if engine == "compiled" and not jit.ENABLED:
        pytest.skip("numba is off")
    lengths = [1, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37]
    seen = {}
    for in_loop in (False, True):
        monkeypatch.setattr(Display340, "in_loop", in_loop)
        m, d, p = loaded(name, engine)
        registers = [r.attr for r in d.registers]  # ("plan": the word in progress)
        states = []
        for i in range(3_000):
            stop = m.run(max_instructions=lengths[i % len(lengths)])
            states.append((m.elapsed_ns, d.coni(), d.data_in(),
                           tuple(getattr(d, r) for r in registers)))  # fmt: skip
            if stop.reason == "halt":
                break
        seen[in_loop] = (states, d.points.as_tuples(), [m.memory[a] for a in sorted(p.words)])
    assert seen[True] == seen[False]
    assert len(seen[True][0]) > 5
