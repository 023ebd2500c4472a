"""How fast the 340 model consumes display words (wall and CPU time).

Run from the repository root: ``python -m tests.pdp6.bench_display340``.  Prints, per
kind of word, 18-bit words and points per second of process CPU time (steadier than
wall time on a shared machine), and emulated seconds per CPU second; then the same for
the Mac Hack-style refresh loop through the CPU (BLKO on the data interrupt).
"""

from __future__ import annotations

import time
from pathlib import Path

import midas
from pdp6 import Machine
from pdp6.devices.display340 import Display340

from .dis340_helpers import NCHR, NINC, NPNT, NVEC, Rig, chars, inc, param, px, py, vec

POS = [param(mode=NPNT), py(500)]
CASES = {
    "parameter": ([param(), param()], 20000),
    "point": (
        [param(mode=NPNT), param(mode=NPNT)]
        + [py(100, intensify=True), px(200, intensify=True)] * 10,
        2000,
    ),  # fmt: skip
    "vector <64": (POS + [px(500, mode=NVEC), vec(40, -20), vec(-40, 20, escape=True)], 3000),
    "vector >=64": (POS + [px(500, mode=NVEC), vec(100, -20), vec(-100, 20, escape=True)], 3000),
    "increment": (
        POS + [px(500, mode=NINC), inc(8, 10, 2, 14), inc(12, 15, 3, 11, escape=True)],
        10000,
    ),  # fmt: skip
    "character": (
        POS + [px(500, mode=NCHR), chars(1, 2, 3), chars(4, 5, 6), chars(7, 8, 0o37)],
        3000,
    ),  # fmt: skip
}


def model(name: str, halves: list[int], reps: int) -> None:
    r = Rig()
    r.cono(0o100)
    words = halves * reps
    c0 = time.process_time()
    r.feed(words, limit=10**13)
    r.settle(limit=10**13)
    cpu = time.process_time() - c0
    print(f"  {name:12s} {len(words) / cpu:9,.0f} words/s {len(r.d.points) / cpu:11,.0f} "
          f"points/s {r.t / 1e9 / cpu:6.2f} emulated s/s")  # fmt: skip


def refresh(passes: int = 300) -> None:
    path = Path(__file__).parent / "programs" / "dis340_refresh.mid"
    text = path.read_text().replace("NWANT==5", f"NWANT=={passes}")
    program = midas.assemble(text, filename=str(path))
    m = Machine()
    for addr, word in program.words.items():
        m.memory[addr] = word
    m.pc = program.start
    d = Display340()
    m.attach(d)
    m.run(max_instructions=10)  # load the compiled loop first
    c0, w0 = time.process_time(), time.perf_counter()
    stop = m.run()
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    assert stop.reason == "halt"
    print(f"  refresh loop through the CPU: {d.words / cpu:,.0f} words/s, "
          f"{len(d.points) / cpu:,.0f} points/s, {m.elapsed_ns / 1e9 / cpu:.2f} emulated s "
          f"per CPU s (wall {wall:.2f} s for {m.elapsed_ns / 1e9:.2f} emulated s)")  # fmt: skip


def main() -> None:
    print("340 model alone (per CPU second):")
    for name, (halves, reps) in CASES.items():
        model(name, halves, reps)
    refresh()


if __name__ == "__main__":
    main()
