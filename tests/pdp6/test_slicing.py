"""A run does not depend on how it is sliced.

The console, ``Session``, breakpoints and ``step`` all run the machine in pieces; the
machine they show must be the machine that runs in one piece.  Random programs (UUOs,
XCT, I/O to the APR, PI and the teletype among them) run with the 60 Hz clock
interrupting and a teletype typing, once in one run and once cut where hypothesis
chooses, on every engine: memory, ACs, PC, flags, APR and PI state, the teletype and
the emulated time must agree to the bit.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pdp6 import Machine
from pdp6.cpu.engines import ALL_ENGINES
from pdp6.devices.teletype import ScriptedHost, Teletype

from .conftest import ins, io
from .test_cpu_properties import addresses, data_words, snapshot, words

TTY = 0o120
slice_instructions = st.one_of(
    st.builds(
        lambda op, ac, i, x, y: (op << 27) | (ac << 23) | (i << 22) | (x << 18) | y,
        # BLTs often: a long copy crosses device events (as in DEC's BLT test)
        st.one_of(st.integers(0, 0o677), st.integers(0, 0o677), st.just(0o251)),
        st.integers(0, 0o17),
        st.sampled_from([0] * 7 + [1]),
        st.one_of(st.just(0), st.integers(0, 0o17)),
        addresses,
    ),
    st.builds(
        lambda f, dev, y: io(
            ("BLKI", "DATAI", "BLKO", "DATAO", "CONO", "CONI", "CONSZ", "CONSO")[f], dev, y
        ),  # fmt: skip
        st.integers(0, 7),
        st.sampled_from((0o000, 0o004, TTY)),
        st.one_of(addresses, st.integers(0, 0o777777)),
    ),
)


def machine(engine: str, baud: int | None, typed: str, acs: list[int], program: list[int],
            data: list[int]) -> tuple[Machine, ScriptedHost]:  # fmt: skip
    """A 4K machine running ``program`` in a loop, the clock interrupting on channel 7
    (its handler counts ticks), a teletype with ``typed`` waiting and more to come."""
    m = Machine(engine=engine, core_words=0o10000)
    if engine == "python":
        m._run.translate_at_once()  # translate at once, so that blocks are sliced too
    host = ScriptedHost(typed, eof=False)
    m.attach(Teletype(host, baud=baud))
    for a, v in enumerate(acs):
        m.memory[a] = v
    for k, w in enumerate(program):
        m.memory[0o100 + k] = w
    m.memory[0o100 + len(program)] = ins("JRST", 0, 0o100)
    for k, w in enumerate(data):
        m.memory[0o200 + k] = w
    m.memory[0o41] = ins("JSR", 0, 0o500)  # UUOs return past themselves
    m.memory[0o501] = ins("JRST", 2, 0o500, i=1)
    m.memory[0o56] = ins("JSR", 0, 0o3001)  # the clock on channel 7
    m.memory[0o3002] = ins("AOS", 0, 0o3000)
    m.memory[0o3003] = io("CONO", "APR", 0o003007)
    m.memory[0o3004] = ins("JRST", 0o12, 0o3001, i=1)
    m.apr.clock_enabled, m.apr.pia = True, 7
    m.pi.active, m.pi.on = True, 1
    m.pc = 0o100
    return m, host


def run_sliced(m: Machine, total: int, cuts: list[int]) -> None:
    """Run ``total`` instructions in pieces of the sizes in ``cuts`` (then the rest),
    going on after halts as the CONTINUE key would."""
    done = 0
    pieces = iter(cuts)
    while done < total:
        size = min(next(pieces, total), total - done)
        done += m.run(max_instructions=size).instructions


def outcome(m: Machine, host: ScriptedHost) -> dict[str, Any]:
    result = snapshot(m, m.run(max_instructions=0))
    tty = m.bus.get("TTY")
    result["tty"] = (tty.coni(), tty.input_char, bytes(host.printed), list(host.keys))
    return result


def check_slicing(acs, program, data, total, cuts, baud, typed) -> None:
    """Every engine, cut, ends as the first engine (the fastest) run whole: the same
    machine however it is sliced, and whichever engine runs it."""
    whole = machine(ALL_ENGINES[0], baud, typed, acs, program, data)
    run_sliced(whole[0], total, [])
    a = outcome(*whole)
    for engine in ALL_ENGINES:
        cut = machine(engine, baud, typed, acs, program, data)
        run_sliced(cut[0], total, cuts)
        b = outcome(*cut)
        for key in a:
            assert a[key] == b[key], (engine, key)


cases = {
    "acs": st.lists(words, min_size=16, max_size=16),
    "data": st.lists(data_words, max_size=64),
    "baud": st.sampled_from([None, 110]),
    "typed": st.sampled_from(["", "A", "HELLO\n"]),
}


# The case: BLTs of 2K words (some 10 ms each) in a loop, the keyboard idle, run
# whole and in pieces; a stop for the keyboard's poll (placed from when a piece began)
# made the pieces end at another PC and time.
BLT_LOOP = {
    "acs": [0] * 16,
    "program": [ins("MOVE", 1, 0o200), ins("BLT", 1, 0o7777)],
    "data": [(0o4000 << 18) | 0o4000],
    "total": 600,
    "cuts": [7, 100, 33, 250],
    "baud": None,
    "typed": "",
}


SHORT = {"program": 16, "total": 8000, "cut": 3000, "cuts": 8}  # the property
LONG = {"program": 32, "total": 20_000, "cut": 5000, "cuts": 20}  # longer runs, cut more


def slicing_property(examples: int, size: dict[str, int]):
    """The property over EXAMPLES random programs and runs of SIZE, and the BLT loop."""

    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        program=st.lists(slice_instructions, min_size=1, max_size=size["program"]),
        total=st.integers(1, size["total"]),
        cuts=st.lists(st.integers(1, size["cut"]), max_size=size["cuts"]),
        **cases,
    )
    @example(**BLT_LOOP)
    def prop(acs, program, data, total, cuts, baud, typed) -> None:
        check_slicing(acs, program, data, total, cuts, baud, typed)

    return prop


# 60 in the default run, 2,000 in CI's slow set (two tests of 1,000, so that CI's two
# processes share them: some ten minutes); the longer programs and runs, 2,000 of them,
# at `-m soak` (most of an hour).
test_a_run_does_not_depend_on_how_it_is_sliced = slicing_property(60, SHORT)
test_a_run_does_not_depend_on_how_it_is_sliced_slow_1 = pytest.mark.slow(
    slicing_property(1000, SHORT)
)
test_a_run_does_not_depend_on_how_it_is_sliced_slow_2 = pytest.mark.slow(
    slicing_property(1000, SHORT)
)
test_a_run_does_not_depend_on_how_it_is_sliced_soak = pytest.mark.soak(slicing_property(2000, LONG))
