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
