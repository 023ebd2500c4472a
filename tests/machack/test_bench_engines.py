"""`machack bench-engines`: Mac Hack VI's search timed on an engine, a game and a fresh
machine."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from machack.cli import main
from pdp6.cpu.engines import ENGINES


@pytest.mark.skipif("compiled" not in ENGINES, reason="the search takes seconds uncompiled")
def test_bench_times_a_game_of_mac_hacks_search_and_a_fresh_machine() -> None:
    result = CliRunner().invoke(main, ["bench-engines", "--engine", "compiled"])
    assert result.exit_code == 0, result.output
    lines = [ln.split(", ")[1] for ln in result.output.splitlines() if ln.startswith("compiled, ")]
    assert [ln.rsplit(None, 1)[0] for ln in lines] == ["move 1", "moves 2-4", "fresh"]
    assert all(float(ln.split()[-1].replace(",", "")) > 0 for ln in lines)


@pytest.mark.skipif("native" not in ENGINES, reason="needs numba and llvmlite")
def test_alternate_times_the_same_search_on_compiled_and_native_in_turn() -> None:
    result = CliRunner().invoke(main, ["bench-engines", "--alternate", "2", "--warm", "1"])
    assert result.exit_code == 0, result.output
    out = result.output.splitlines()
    head = out.index(next(ln for ln in out if ln.startswith("round ") and "wall" in ln))
    rows = [ln.split() for ln in out[head + 1 : head + 3]]
    assert [r[0] for r in rows] == ["1", "2"] and all(float(v) > 0 for r in rows for v in r[1:])
    assert out[head + 3].startswith("median native/compiled: ")
    assert "warm-up search 1:" in result.output  # (the notes go to standard error)
