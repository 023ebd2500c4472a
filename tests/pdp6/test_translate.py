"""The plain engine's block translator, checked against the interpreter it is built from.

'python' translates straight runs of PDP-6 code into Python by specializing
``loop.execute``; 'interpreter' runs ``loop.run`` itself as plain Python.  Every test
here runs a program on both and demands the same machine state to the bit, around the
cases a block must get right: code that stores into itself, breakpoints, instruction
budgets and clock events in the middle of a block, interrupts and user mode (which
leave blocks to the interpreter).
"""

from __future__ import annotations

import ast
import copy
import logging
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdp6 import Machine, cpu
from pdp6.cpu import engines, translate
from pdp6.cpu.optable import build
from pdp6.cpu.specialize import Source
from pdp6.host.bench import build_mix
from pdp6.host.cli import main

from .conftest import ins, io, new_machine

START = 0o1000
DATA = 0o2000


def load(engine: str, program: list[int], data: dict[int, int] | None = None,
         acs: dict[int, int] | None = None, core_words: int = 1 << 18, at_once: bool = False,
         setup: Any = None) -> Machine:  # fmt: skip
    """A machine with ``program`` at START; ``at_once`` translates blocks the first time
    they are reached (the python engine); ``setup(m)`` sets registers before the run."""
    m = Machine(engine=engine, core_words=core_words)
    if at_once and hasattr(m._run, "translate_at_once"):
        m._run.translate_at_once()
    for k, w in enumerate(program):
        m.memory[START + k] = w
    for a, w in (data or {}).items():
        m.memory[a] = w
    for a, w in (acs or {}).items():
        m.memory[a] = w
    if setup:
        setup(m)
    m.pc = START
    return m


def state(m: Machine, stop: Any = None) -> dict[str, Any]:
    return {
        "stop": stop,
        "pc": m.pc,
        "flags": m.flags,
        "ns": m.elapsed_ns,
        "count": m.instructions,
        "core": list(m.memory[0:0o4000]),
        "apr": repr(m.apr),
        "pi": repr(m.pi),
    }


# The engines that translate blocks: the cases below run on each.
BLOCK_ENGINES = [e for e in ("python", "native") if e in engines.ENGINES]
block_engines = pytest.mark.parametrize("engine", BLOCK_ENGINES)


def both(program: list[int], data: dict[int, int] | None = None, acs: dict[int, int] | None = None,
         core_words: int = 1 << 18, at_once: bool = False, setup: Any = None,
         engine: str = "python", **run: Any) -> tuple[Machine, Machine]:  # fmt: skip
    """Run on a block engine and the interpreter; assert identical results; return
    (block engine, interpreter).  (The native engine always translates at once here.)"""
    at_once = at_once or engine == "native"
    fast, ref = (load(e, program, data, acs, core_words, at_once, setup)
                 for e in (engine, "interpreter"))  # fmt: skip
    a, b = fast.run(**run), ref.run(**run)
    assert state(fast, a) == state(ref, b)
    return fast, ref


HALT = ins("JRST", 4, 0)


def test_a_loop_runs_as_one_translated_block() -> None:
    # MOVEI 1,0 / ADDI 1,3 / SOJG 2,.-1 / HALT: the loop body is a block.
    program = [ins("MOVEI", 1, 0), ins("ADDI", 1, 3), ins("SOJG", 2, START + 1), HALT]
    fast, _ = both(program, acs={2: 10_000}, max_instructions=100_000)
    assert fast.memory[1] == 30_000
    # Until the loop is hot it runs on the interpreter; then in its translated block.
    assert fast._run.slow_steps <= 2 * translate.HOT * translate.STRETCH
    assert {START + 1, START + 2} & fast._run.blocks.keys()  # the loop, from either end


def test_a_block_another_machine_translated_is_taken_whatever_the_share() -> None:
    # Blocks serve the whole process: a second machine running the same loop (the next
    # game, the bench's second search) takes the first one's blocks, which cost it
    # nothing, even when its own share of translating is spent.
    program = [ins("MOVEI", 1, 0), ins("ADDI", 1, 3), ins("SOJG", 2, START + 1), HALT]
    first = load("python", program, acs={2: 10_000})
    first.run(max_instructions=100_000)
    second = load("python", program, acs={2: 10_000})
    second._run.cost = 1 << 40  # nothing new may be translated
    assert second.run(max_instructions=100_000).reason == "halt"
    assert second.memory[1] == 30_000
    assert first._run.blocks.keys() & second._run.blocks.keys()
    assert second._run.slow_steps <= 2 * translate.HOT * translate.STRETCH


def test_the_benchmark_mix_runs_almost_entirely_translated() -> None:
    # Warmed up (translation takes its share of the engine's work meanwhile), the mix
    # leaves little to the interpreter: what passes a clock tick, the halt.
    warm = Machine(engine="python")
    start, words = build_mix(60)
    for a, w in words.items():
        warm.memory[a] = w
    warm.pc = start
    assert warm.run(max_instructions=2_000_000).reason == "halt"
    engine = warm._run
    warm_up = engine.slow_steps
    start, words = build_mix(10)
    results = []
    for m in (warm, Machine(engine="interpreter")):
        for a, w in words.items():
            m.memory[a] = w
        m.pc = start
        results.append(m.run(max_instructions=2_000_000))
    assert results[0] == results[1] and results[0].reason == "halt"
    assert warm.memory[0:0o22000] == m.memory[0:0o22000]
    assert engine.slow_steps - warm_up < results[0].instructions / 100


@pytest.mark.parametrize(
    "word",
    [ins("ILDB", 5, 3), ins("IDPB", 5, 4), ins("MOVE", 7, DATA, i=1), ins("PUSHJ", 0o17, DATA),
     ins("IMULI", 1, 3), ins("IDIVI", 1, 5), ins("FADR", 1, DATA), ins("ASH", 1, 1)],
)  # fmt: skip
def test_common_instructions_are_translated(word: int) -> None:
    # Byte instructions and @ chains included: their loops run as residual routines.
    t = translate.translator(1 << 18, tuple(int(x) for x in build()))
    assert t.specialized(word, START) is not None


@block_engines
def test_store_into_the_next_instruction_of_the_block(engine: str) -> None:
    # MOVE 1,NEW / MOVEM 1,L / L: MOVEI 2,1 / HALT -- the MOVEM replaces L before it runs.
    new = ins("MOVEI", 2, 2)
    program = [ins("MOVE", 1, DATA), ins("MOVEM", 1, START + 2), ins("MOVEI", 2, 1), HALT]
    fast, _ = both(program, data={DATA: new}, engine=engine, max_instructions=100)
    assert fast.memory[2] == 2


@block_engines
def test_indexed_store_into_the_running_block(engine: str) -> None:
    # The address comes from core (0(3) with AC 3 loaded from DATA+1), unknown when the
    # block is translated, so the block checks it when the store happens.
    new = ins("MOVEI", 2, 2)
    program = [ins("MOVE", 1, DATA), ins("MOVE", 3, DATA + 1), ins("MOVEM", 1, 0, x=3),
               ins("MOVEI", 2, 1), HALT]  # fmt: skip
    assert "_smc" in translate.python_of(program, START)
    fast, _ = both(
        program, data={DATA: new, DATA + 1: START + 3}, engine=engine, max_instructions=100
    )
    assert fast.memory[2] == 2


@block_engines
def test_pushj_onto_the_code_that_follows(engine: str) -> None:
    # A pushdown pointer aimed at the block itself: PUSH overwrites the next instruction.
    program = [ins("MOVEI", 0o17, START + 1), ins("PUSH", 0o17, DATA), ins("MOVEI", 2, 1), HALT]
    fast, _ = both(program, data={DATA: ins("MOVEI", 2, 7)}, engine=engine, max_instructions=100)
    assert fast.memory[2] == 7


def test_host_writes_to_core_are_seen_by_a_cached_block() -> None:
    program = [ins("MOVEI", 1, 5), HALT]
    fast = load("python", program)
    fast.run(max_instructions=10)
    assert fast.memory[1] == 5
    fast.memory[START] = ins("MOVEI", 1, 6)
    fast.pc = START
    fast.run(max_instructions=10)
    assert fast.memory[1] == 6


@block_engines
@pytest.mark.parametrize("budget", range(1, 25))
def test_an_instruction_budget_ends_inside_a_block(engine: str, budget: int) -> None:
    program = [ins("ADDI", 1, 1)] * 10 + [ins("JRST", 0, START)]
    fast, _ = both(program, engine=engine, max_instructions=budget)
    assert fast.memory[1] == budget - budget // 11


@block_engines
def test_a_breakpoint_inside_a_translated_block(engine: str) -> None:
    program = [ins("ADDI", 1, 1)] * 10 + [ins("JRST", 0, START)]
    machines = [load(e, program, at_once=engine == "native") for e in (engine, "interpreter")]
    for m in machines:
        m.run(max_instructions=110)  # ten times round: translated and cached, back at START
        assert m.pc == START
        m.breakpoints.add(START + 6)
    stops = [m.run(max_instructions=100) for m in machines]
    assert stops[0] == stops[1]
    assert stops[0].reason == "breakpoint" and stops[0].pc == START + 6
    assert state(machines[0]) == state(machines[1])
    for m in machines:
        m.breakpoints.clear()
    assert machines[0].run(max_instructions=30) == machines[1].run(max_instructions=30)
    assert state(machines[0]) == state(machines[1])


@block_engines
@pytest.mark.parametrize("until_us", [1.0, 7.5, 33.3, 100.0, 16_670.0, 16_700.0, 50_001.0])
def test_time_limits_and_clock_ticks_inside_blocks(engine: str, until_us: float) -> None:
    # A long loop crosses 60 Hz clock ticks; the clock flag and the stop must fall on
    # the same instruction as in the interpreter.
    program = [ins("ADDI", 1, 1), ins("IMULI", 2, 3), ins("ANDI", 2, 0o7777),
               ins("SOJG", 3, START)]  # fmt: skip
    both(program, acs={3: 100_000, 2: 1}, engine=engine, until_us=until_us)


@block_engines
@pytest.mark.parametrize("until_us", [50.0, 16_670.0, 40_000.0])
def test_shifts_by_a_count_from_data_run_in_blocks(engine: str, until_us: float) -> None:
    # ROT 1,3(2) and LSH 4,-2(2): a shift's time grows with its count, known only as
    # it runs; the block adds it then, and bounds it by the longest (Mac Hack's ROT
    # 15,(1) in its search was left to the loop before).
    program = [ins("ROT", 1, 3, x=2), ins("LSH", 4, 0o777776, x=2), ins("ADDI", 2, 7),
               ins("ANDI", 2, 0o777), ins("SOJG", 3, START)]  # fmt: skip
    fast, _ = both(program, acs={1: 0o123456701234, 2: 5, 3: 1_000_000, 4: 0o777777777777},
                   at_once=True, engine=engine, until_us=until_us)  # fmt: skip
    run = fast._run
    assert not run.refused
    assert START in run.installed if engine == "native" else run.blocks[START][0] is not None


@block_engines
def test_clock_interrupts_with_pi_on(engine: str) -> None:
    # The clock interrupts on channel 7; the handler counts ticks in AC 5.
    handler = 0o3000
    program = [
        io("CONO", "APR", 0o003007),  # clear the clock flag, enable the clock, PIA 7
        io("CONO", "PI", 0o2201),  # PI on, channel 7 on
        ins("ADDI", 1, 1), ins("JRST", 0, START + 2),
    ]  # fmt: skip
    data = {
        0o56: ins("JSR", 0, handler),
        handler: 0,
        handler + 1: ins("AOJ", 5, 0),
        handler + 2: io("CONO", "APR", 0o003007),
        handler + 3: ins("JRST", 0o12, handler, i=1),
    }
    fast = load(engine, program, data, at_once=engine == "native")
    ref = load("interpreter", program, data)
    for until in (10_000, 20_000, 40_000, 60_000):  # each run starts with PI on
        assert fast.run(until_us=until) == ref.run(until_us=until)
        assert state(fast) == state(ref)
    assert fast.memory[5] >= 3


def test_user_mode_code_runs_on_the_interpreter_path() -> None:
    # User address 1000 is relocated to 5000 (relocation 4K); at 1000 in physical core
    # there is other code, which a block that ignored user mode would run.
    program = [
        ins("ADDI", 1, 1),
        ins("SOJG", 2, START),
        ins("MOVEI", 3, 1),
        ins("JRST", 0, START + 2),
    ]
    results = []
    for engine in ("python", "interpreter"):
        m = load(engine, [ins("MOVEI", 4, 4)] * 8, acs={2: 20})
        for k, w in enumerate(program):
            m.memory[0o5000 + k] = w
        m.flags = 0o010000
        m.apr.relocation, m.apr.protection = 2, 1
        results.append(state(m, m.run(max_instructions=200)))
        results[-1]["core"] = list(m.memory[0:0o10000])
    assert results[0] == results[1]
    assert results[0]["core"][1] == 20 and results[0]["core"][4] == 0


def test_translated_python_is_specialized() -> None:
    # MOVEI 1,5 folds to a store of the constant; no routine of the loop is called.
    text = translate.python_of([ins("MOVEI", 1, 5), HALT], START)
    assert "mem[1] = 5" in text
    assert "(" not in text.split("def _block", 1)[1].split(":", 1)[1]  # no calls at all


SUB = 0o1100  # a subroutine: ADDI 1,1 / POPJ 17,  (or a skip return: AOS (17) first)


@pytest.mark.parametrize("skip_return", [False, True])
def test_a_call_in_a_loop_returns_inside_the_block(skip_return: bool) -> None:
    # PUSHJ 17,SUB / ADDI 3,1 / SOJG 2,START: the block follows the call into SUB and
    # expects the POPJ to come back to START+1; a skip return (AOS (17)) goes to START+2.
    program = [ins("PUSHJ", 0o17, SUB), ins("ADDI", 3, 1), ins("SOJG", 2, START), HALT]
    sub = [ins("AOS", 0, 0, x=0o17)] if skip_return else []
    sub += [ins("ADDI", 1, 1), ins("POPJ", 0o17, 0)]
    data = {SUB + k: w for k, w in enumerate(sub)}
    acs = {2: 100, 0o17: (((-20) & 0o777777) << 18) | DATA}
    fast, _ = both(program, data=data, acs=acs, max_instructions=10_000)
    assert fast.memory[1] == 100
    assert fast.memory[3] == (0 if skip_return else 100)
    core = [0] * (1 << 18)
    for a, w in [*enumerate(program, START), *data.items()]:
        core[a] = w
    t = translate.Translation(translate.translator(1 << 18, tuple(int(x) for x in build())))
    t.grow(core, bytes(1 << 18), START)
    assert f"!= {START + 1}:" in t.source()  # the guard on the predicted return


def test_untranslatable_instructions_end_the_block() -> None:
    # XCT is left to the interpreter: the block stops before it.
    text = translate.python_of([ins("MOVEI", 1, 5), ins("XCT", 0, DATA), HALT], START)
    assert f"return {(1 << 18) | (START + 1)}" in text


# --- structured fuzzing: loops of random instructions ------------------------------------
# Opcodes that keep a loop a loop (no UUOs, XCT, I/O or JRST): moves, arithmetic,
# booleans, half-words, tests, compares and skips, shifts, stack, bytes, floating point.
LOOP_OPS = [op for op in range(0o134, 0o700) if op not in (0o254, 0o256)]
LOOP_START = 0o1000
LOOP_DATA = 0o1400  # data the loop reads and writes; its own code is in reach too


def loop_program(body: list[int]) -> list[int]:
    """body, then SOJG 16,start (AC 16 counts the rounds), then a halt."""
    return [*body, ins("SOJG", 0o16, LOOP_START), HALT]


loop_instructions = st.builds(
    lambda op, ac, i, x, y: (op << 27) | (ac << 23) | (i << 22) | (x << 18) | y,
    st.sampled_from(LOOP_OPS),
    st.integers(0, 0o15),  # never AC 16 (the round counter) or 17
    st.sampled_from([0] * 15 + [1]),
    st.sampled_from([0] * 3 + [1, 2, 3]),
    st.one_of(
        st.integers(0, 0o17),
        st.integers(LOOP_DATA, LOOP_DATA + 0o77),
        st.integers(LOOP_START, LOOP_START + 0o40),  # stores into the loop itself
    ),
)


def run_loop(engine: str, body: list[int], acs: list[int], data: list[int], clock: int,
             budget: int, until_us: float) -> dict[str, Any]:  # fmt: skip
    """Run the loop; ``clock`` 1 interrupts on clock ticks, 2 on overflow too, 3 on PC
    change too (each interrupt counts in 3000 and returns)."""
    m = Machine(engine=engine)
    if hasattr(m._run, "translate_at_once"):
        m._run.translate_at_once()  # translate at once (the block engines)
    for a, v in enumerate(acs):
        m.memory[a] = v
    m.memory[0o16] = 40  # rounds
    m.memory[0o17] = ((-8) & 0o777777) << 18 | LOOP_DATA + 0o200  # a stack
    for k, w in enumerate(data):
        m.memory[LOOP_DATA + k] = w
    for k, w in enumerate(loop_program(body)):
        m.memory[LOOP_START + k] = w
    if clock:
        # The clock interrupts on channel 7; the handler counts ticks at 3000.
        m.memory[0o56] = ins("JSR", 0, 0o3001)
        m.memory[0o3002] = ins("AOS", 0, 0o3000)
        m.memory[0o3003] = io("CONO", "APR", 0o003007)
        m.memory[0o3004] = ins("JRST", 0o12, 0o3001, i=1)
        m.apr.clock_enabled, m.apr.pia = True, 7
        m.apr.overflow_enabled = clock >= 2
        m.apr.pc_change_enabled = clock >= 3
        m.pi.active, m.pi.on = True, 1
    m.pc = LOOP_START
    stop = m.run(max_instructions=budget, until_us=until_us)
    result = state(m, stop)
    result["core"] = list(m.memory[0:0o4000])
    return result


@pytest.mark.parametrize("budget", [5, 6, 7, 20])
def test_budget_ends_before_an_apr_request_is_latched(budget: int) -> None:
    # POP 0,0 with AC 0 = 0 underflows: pushdown overflow requests channel 7 (PI on).
    # A run that ends right after it has not reached the next instruction boundary, where
    # the request would be latched (found by the loop fuzzing below).
    ildb, pop = ins("ILDB", 0, 0), ins("POP", 0, 0)
    args = ([ildb] * 4 + [pop, ildb], [0, 0, 0o1000001] + [0] * 13, [], 1, budget, 120.0)
    assert run_loop("python", *args) == run_loop("interpreter", *args)
    # The same where the block's last instruction raises it (XCT ends the block).
    args = ([pop, ins("XCT", 0, DATA)], [0] * 16, [], 1, 1, 120.0)
    assert run_loop("python", *args) == run_loop("interpreter", *args)


def loop_cases(body: int, budget: int, until_us: float) -> dict[str, Any]:
    """Strategies for run_loop's arguments, up to the given sizes."""
    return {
        "body": st.lists(loop_instructions, min_size=1, max_size=body),
        "acs": st.lists(st.integers(0, (1 << 36) - 1), min_size=16, max_size=16),
        "data": st.lists(st.integers(0, (1 << 36) - 1), max_size=64),
        "clock": st.integers(0, 3),
        "budget": st.integers(1, budget),
        "until_us": st.floats(1.0, until_us),
    }


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**loop_cases(body=12, budget=3000, until_us=40_000.0))
def test_random_loops_agree(body, acs, data, clock, budget, until_us) -> None:
    args = (body, acs, data, clock, budget, until_us)
    assert run_loop("python", *args) == run_loop("interpreter", *args)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**loop_cases(body=24, budget=20_000, until_us=100_000.0))
def test_random_loops_agree_long(body, acs, data, clock, budget, until_us) -> None:
    args = (body, acs, data, clock, budget, until_us)
    assert run_loop("python", *args) == run_loop("interpreter", *args)


# --- cases found in review ---------------------------------------------------------------
def test_continuing_after_a_halt() -> None:
    # A halt's stop reason must not stop the next run (the interpreter clears it per run).
    program = [ins("MOVE", 1, DATA, i=1), ins("AOJ", 2, 0), ins("JRST", 4, START)]
    for engine in ("python", "interpreter"):
        m = load(engine, program, data={DATA: 0o3000}, at_once=True)
        stops = [m.run(max_instructions=100) for _ in range(3)]
        assert [s.instructions for s in stops] == [3, 3, 3]
        assert m.memory[2] == 3


def test_machines_of_different_core_sizes_in_one_process() -> None:
    # An @ chain through 300000: NXM on a 64K machine, not on a 256K one; the residual
    # routine for the chain depends on the core size.
    program = [ins("MOVE", 1, DATA, i=1), HALT]
    data = {DATA: (1 << 22) | 0o300000}
    for core_words, nxm in ((1 << 18, False), (1 << 16, True)):
        fast, _ = both(program, data, core_words=core_words, at_once=True, max_instructions=10)
        assert fast.apr.nxm == nxm


def test_ildb_that_raises_nxm_is_interrupted_between_its_parts() -> None:
    # ILDB through a pointer beyond core: NXM requests channel 7 at once, and the
    # interrupt is taken between the increment and the load (first part done set).
    def setup(m: Machine) -> None:
        m.memory[2] = 0o150000
        m.apr.pia = 7
        m.pi.active, m.pi.on = True, 1

    program = [ins("ILDB", 1, 0o150000), ins("HALT", 0, START + 1)]
    data = {0o56: ins("JSR", 0, 0o3001), 0o3002: ins("HALT", 0, 0o3002)}
    fast, _ = both(program, data, core_words=0o100000, at_once=True, setup=setup,
                   max_instructions=10)  # fmt: skip
    assert fast.memory[0o3001] == 0o20000_001000  # first part done, PC of the ILDB


def test_machine_refuses_register_values_that_do_not_fit() -> None:
    m = Machine(engine="interpreter")
    for field, bad in (("switches", -1), ("switches", 1 << 36), ("pia", 8), ("relocation", 256)):
        with pytest.raises(ValueError, match=field):
            setattr(m.apr, field, bad)
    with pytest.raises(ValueError, match="on"):
        m.pi.on = 0o200
    m.apr.switches = (1 << 36) - 1
    assert m.apr.switches == (1 << 36) - 1


def test_residual_routines_are_valid_python_on_a_small_machine() -> None:
    # Found by the long random-program test: on a 4K machine the residual routine of
    # ILDB 0,@0 (its @ chain) had an `if` whose body specialized to nothing, which
    # Python's grammar does not allow.
    text = translate.python_of([ins("ILDB", 0, 0, i=1), HALT], START, memsize=0o10000)
    assert "def _block" in text
    compile(text, "<block>", "exec")


# --- why the translator refused ---------------------------------------------------------------
def with_assert_in(routine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Put ``assert ac >= 0`` first in a CPU routine, as the translator sees it (a construct
    outside the subset docs/machine.md allows), with fresh translation caches."""
    src = translate.SOURCES[routine]
    node = copy.deepcopy(src.node)
    node.body.insert(0, ast.parse("assert ac >= 0").body[0])
    sources = {**translate.SOURCES, routine: Source(src.name, node, src.globals, src.plain)}
    monkeypatch.setattr(translate, "SOURCES", sources)
    monkeypatch.setattr(translate, "_TRANSLATORS", {})
    monkeypatch.setattr(translate, "SHARED", {})


def test_a_refused_construct_is_named_with_its_routine_and_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with_assert_in("exec_move", monkeypatch)
    t = translate.translator(1 << 18, tuple(int(x) for x in build()))
    assert t.specialized(ins("MOVE", 1, DATA), START) is None
    line = translate.SOURCES["exec_move"].plain.__code__.co_firstlineno
    assert t.refused[(ins("MOVE", 1, DATA), START)] == (
        f"MOVE 1,{DATA:o}: statement Assert, in exec_move (fixed.py:{line})"
    )
    # The engine keeps it by address and says it in the debug log.
    caplog.set_level(logging.DEBUG, logger="pdp6.cpu.translate")
    program = [ins("MOVE", 1, DATA), ins("SOJG", 2, START), HALT]
    fast, _ = both(program, acs={2: 100}, at_once=True, max_instructions=1000)
    assert "statement Assert, in exec_move" in fast._run.refused[START]
    assert f"not translated at {START:06o}: MOVE 1,{DATA:o}: statement Assert" in caplog.text


def test_bench_why_shows_what_sent_the_mix_to_the_interpreter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with_assert_in("exec_move", monkeypatch)
    args = ["bench", "--engine", "python", "--rounds", "3", "--why"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "left to the interpreter:" in result.output
    assert "statement Assert, in exec_move (fixed.py:" in result.output


def test_cpu_tests_run_their_instructions_translated() -> None:
    # The CPU unit tests' machines (conftest.new_machine) translate at once on the python
    # engine, so that every instruction test also tests the instruction's translation.
    m = new_machine("python")
    m.memory.load(START, [ins("MOVEI", 1, 5), ins("ADDI", 1, 3), HALT])
    m.pc = START
    assert m.run(max_instructions=10).reason == "halt"
    assert m.memory[1] == 0o10
    assert START in m._run.blocks and m._run.slow_steps <= 1  # the halt


def test_the_cpu_modules_are_listed_once() -> None:
    # pdp6/cpu/__init__.py lists the loop's modules; the engines, the translator and the
    # compiled loop's cache key all take them from there, and no module is left out.
    here = Path(cpu.__file__).parent
    plain_only = {"__init__", "engines", "specialize", "translate", "helper", "helpermain",
                  "native", "llvmgen", "nativeloop"}  # fmt: skip
    # (nativeloop is the native engine's own loop: numba keys its cache by its file.)
    assert {p.stem for p in here.glob("*.py")} - plain_only == set(cpu.LOOP_SOURCES)
    modules = cpu.routine_modules()
    assert engines.MODULES == modules
    sources = {s.plain.__module__ for s in translate.SOURCES.values()}
    assert sources == {m.__name__ for m in modules}
