"""The examples in docs/midas.md assemble (and the first one runs as the text says)."""

import re
from pathlib import Path

import pytest

from midas import assemble
from pdp6.formats.loader import load_into, read_sblk
from pdp6.formats.wordfile import encode_words

DOC = Path(__file__).resolve().parents[2] / "docs" / "midas.md"
EXAMPLES = re.findall(r"```midas\n(.*?)```", DOC.read_text(), re.S)


def test_the_guide_has_examples() -> None:
    assert len(EXAMPLES) >= 6


@pytest.mark.parametrize("source", EXAMPLES)
def test_example_assembles(source: str) -> None:
    program = assemble(source, "example.mid")
    assert not program.errors, program.errors
    assert not program.warnings, program.warnings


def test_first_program_runs() -> None:
    pdp6 = pytest.importorskip("pdp6")
    from midas.sblk import sblk_words

    program = assemble(EXAMPLES[0], "sum.mid")
    machine = pdp6.Machine(engine="python")
    machine.pc = load_into(machine.memory, read_sblk(encode_words(sblk_words(program))))
    assert machine.run(max_instructions=1000).reason == "halt"
    assert machine.memory[1] == 0o156  # 110 decimal: twice 1 + 2 + ... + 10
