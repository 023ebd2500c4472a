"""The first start on a fresh machine: the python engine at once, the compiled engine
when its background build is done (pdp6/host/autoengine.py), and the state kept across the
switch to the bit."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdp6 import Machine, jit
from pdp6.cpu import engines, helper
from pdp6.host import autoengine as auto_mod
from pdp6.host.autoengine import AutoEngine
from pdp6.host.bench import build_mix


def _state(m: Machine) -> tuple[object, ...]:
    return (m.pc, m.flags, m.elapsed_ns, m.instructions, repr(m.apr), repr(m.pi),
            list(m.memory[0:0o40000]))  # fmt: skip


def _mix_machine(engine: str) -> Machine:
    start, words = build_mix(2)
    m = Machine(engine=engine)
    for address, word in words.items():
        m.memory[address] = word
    m.pc = start
    return m


@pytest.mark.parametrize("first", ["python", "interpreter"])
@pytest.mark.parametrize("then", engines.ALL_ENGINES)
def test_switching_engine_mid_run_keeps_the_machine(first: str, then: str) -> None:
    """Half the mix on one engine, the rest on another, ends exactly as one engine does."""
    whole = _mix_machine(first)
    whole.run(max_instructions=15_000)
    switched = _mix_machine(first)
    switched.run(max_instructions=7_000)
    switched.switch_engine(then)
    assert switched.engine == then
    switched.run(max_instructions=8_000)
    assert _state(switched) == _state(whole)


@pytest.mark.parametrize("then", engines.ALL_ENGINES)
def test_breakpoints_travel_with_the_machine(then: str) -> None:
    m = _mix_machine("python")
    outer = m.pc + 2  # the top of the mix's outer loop, run twice
    m.breakpoints.add(outer)
    assert m.run(max_instructions=100_000).pc == outer
    m.switch_engine(then)
    stop = m.run(max_instructions=100_000)
    assert (stop.reason, stop.pc) == ("breakpoint", outer)


def test_switching_to_an_unknown_engine_changes_nothing() -> None:
    m = _mix_machine("python")
    m.run(max_instructions=100)
    before = _state(m)
    with pytest.raises(ValueError, match="unknown or unavailable engine"):
        m.switch_engine("turbo")
    assert m.engine == "python" and _state(m) == before


@pytest.fixture()
def cold_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """numba's cache as on a fresh machine; the builder child replaced by a recorder."""
    monkeypatch.setattr(jit, "ENABLED", True)
    monkeypatch.setattr(jit, "CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(helper, "_spoken_for", 0)  # (a build spares a core: not for long)
    spawned: list[object] = []

    class FakeChild:
        returncode: int | None = None

        def poll(self) -> int | None:
            return self.returncode

    def spawn() -> FakeChild:
        child = FakeChild()
        spawned.append(child)
        return child

    monkeypatch.setattr(auto_mod, "_spawn_builder", spawn)
    monkeypatch.setattr(auto_mod, "POLL_S", 0.0)
    return spawned


def test_a_requested_engine_is_used_as_it_is(cold_cache: list[object]) -> None:
    auto = AutoEngine("interpreter", say=lambda text: None)
    assert auto.engine == "interpreter" and not auto.pending and not cold_cache


def test_a_cold_cache_starts_on_python_and_builds_in_the_background(
    cold_cache: list[object],
) -> None:
    said: list[str] = []
    auto = AutoEngine(say=said.append)
    assert auto.engine == "python" and auto.pending and len(cold_cache) == 1
    m = Machine(engine=auto.engine)
    assert not auto.poll(m) and m.engine == "python"  # still building
    jit.mark_compiled_ready()  # what the child does when it is done
    if "compiled" not in engines.ENGINES:
        pytest.skip("this process has no compiled engine to switch to")
    assert auto.poll(m)
    assert m.engine == "compiled"
    assert len(said) == 1 and "compiled engine is ready" in said[0]
    assert not auto.poll(m) and len(said) == 1  # said once


def test_a_warm_cache_starts_compiled(cold_cache: list[object]) -> None:
    jit.mark_compiled_ready()
    auto = AutoEngine(say=lambda text: None)
    assert auto.engine == "compiled" and not auto.pending and not cold_cache


def test_a_failed_build_is_reported_once_and_the_session_goes_on(
    cold_cache: list[object],
) -> None:
    said: list[str] = []
    auto = AutoEngine(say=said.append)
    m = Machine(engine=auto.engine)
    cold_cache[0].returncode = 1  # type: ignore[attr-defined]
    assert not auto.poll(m) and not auto.poll(m)
    assert m.engine == "python"
    assert len(said) == 1 and "could not be built" in said[0]


def test_a_command_ending_before_the_build_says_it_goes_on(cold_cache: list[object]) -> None:
    said: list[str] = []
    auto = AutoEngine(say=said.append)
    auto.note_unfinished()
    assert len(said) == 1 and "next start will use it" in said[0]


def test_while_the_build_runs_the_python_engine_spares_its_core(
    cold_cache: list[object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On two cores the build takes one: the python engine translates without a helper
    process, which would take the session's own core (the first move 2-3x slower)."""
    monkeypatch.setattr(helper, "cores", lambda: 2)
    monkeypatch.delenv(helper.ENV, raising=False)
    assert helper.wanted()
    auto = AutoEngine(say=lambda text: None)
    assert auto.pending and not helper.wanted()
    assert not Machine(engine=auto.engine)._run.use_helper
