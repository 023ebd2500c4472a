"""``pdp6.host.memrefs`` against the machine: every word a step changes is among the writes
``next_references`` named before it, whatever the instruction (UUOs with ``JSR 500`` at
41, XCT, BLT, I/O, stacks, bytes) and whether an interrupt is taken instead, on every
engine.  (The references come from a dry run of the execute loop itself; this checks
that the dry run is the step that follows.)"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdp6.cpu.engines import ALL_ENGINES
from pdp6.host.memrefs import next_references

from .conftest import ins
from .test_slicing import cases, machine, slice_instructions

STEPS = 40
uuos = st.builds(lambda op, ac, y: ins(op, ac, y), st.integers(1, 0o37), st.integers(0, 0o17),
                 st.integers(0o200, 0o277))  # fmt: skip
programs = st.lists(st.one_of(slice_instructions, uuos), min_size=1, max_size=16)


def check_references(acs, program, data, before, baud, typed) -> None:
    for engine in ALL_ENGINES:
        m, _host = machine(engine, baud, typed, acs, program, data)
        m.run(max_instructions=before)
        for _ in range(STEPS):
            refs = next_references(m)
            old = np.array(m.memory[0 : m.core_words])
            word = m.memory[refs.address] if refs.interrupt else None
            m.step()
            changed = np.nonzero(np.array(m.memory[0 : m.core_words]) != old)[0]
            unnamed = {int(a) for a in changed} - set(refs.writes)
            assert not unnamed, (engine, oct(refs.address), oct(refs.word), sorted(unnamed))
            if word is not None:
                assert refs.word == word, engine


def references_property(examples: int, longest: int):
    """The property over EXAMPLES programs, each run up to LONGEST instructions before
    the step that is checked."""

    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(program=programs, before=st.integers(0, longest), **cases)
    def prop(acs, program, data, before, baud, typed) -> None:
        check_references(acs, program, data, before, baud, typed)

    return prop


test_every_word_a_step_changes_was_named_before_it = references_property(60, 3000)
# Longer runs: 200 in CI's slow set (a few minutes), 2,000 at full length (`-m soak`).
test_every_word_a_step_changes_was_named_before_it_long = pytest.mark.slow(
    references_property(200, 20_000)
)
test_every_word_a_step_changes_was_named_before_it_soak = pytest.mark.soak(
    references_property(2000, 20_000)
)


def test_a_uuo_names_what_the_instruction_at_41_writes() -> None:
    # With JSR 500 at 41, a UUO writes 40 and 500 (the old model named 40 alone).
    m, _host = machine("interpreter", None, "", [0] * 16, [ins(0o1, 1, 0o200)], [])
    refs = next_references(m)
    assert refs.writes == [0o40, 0o500] and 0o41 in refs.reads
