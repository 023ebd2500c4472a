"""A program that waits for keys in a loop the 60 Hz clock keeps interrupting, as the
1960s Mac Hack does (``tests/pdp6/programs/clockwait.mid``): its ``SKIPN A,MBOX`` /
``JRST .-1`` wait stores the same 0 in A at every turn, and the runner takes it for
idle (pdp6.host.runner), so a piped run ends at the end of its input and a run at a terminal
sleeps while it waits, the emulated machine doing exactly what it does unsliced.  A wait
for the clock itself, which sees the tick counter change, is not taken for idle."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from midas import assemble_file
from pdp6 import Machine
from pdp6.devices import ScriptedHost, Teletype
from pdp6.host import runner as runner_module
from pdp6.host.cli import main
from pdp6.host.runner import Runner

from .console_helpers import assemble, pdp6_command, subprocess_env

PROGRAM = Path(__file__).parent / "programs" / "clockwait.mid"


@pytest.fixture(scope="module")
def binary(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(assemble(PROGRAM, tmp_path_factory.mktemp("clockwait") / "clockwait.bin"))


def run(binary: str, typed: str, *options: str) -> tuple[int, str, str, float]:
    """``pdp6 run`` with ``typed`` on standard input: status, output, stderr, emulated s."""
    result = CliRunner().invoke(main, ["run", binary, "--engine", "python", "-v",
                                       "--max-seconds", "60", *options], input=typed)  # fmt: skip
    seconds = float(re.search(r"([\d.]+) s emulated", result.stderr).group(1))
    return result.exit_code, result.stdout, result.stderr, seconds


def test_a_piped_run_ends_at_the_end_of_its_input(binary: str) -> None:
    status, out, err, seconds = run(binary, "HI\n")
    assert (status, out) == (0, "HI\n"), err
    assert err.startswith("pdp6: waiting for input (none left) at WAITK (000104)"), err
    assert seconds < 4  # the 2 s grace after the last key, not the 60 s limit


def test_a_scripted_console_go_returns(binary: str) -> None:
    """(A subprocess: were the wait not seen, go would never return.)"""
    done = subprocess.run([*pdp6_command(), "console", binary, "-c", 'type "HI\\r"', "-c",
                           "go", "-c", "e pc"], capture_output=True, text=True,
                          env=subprocess_env(), stdin=subprocess.DEVNULL, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "HI\nwaiting for input (none left) at WAITK" in done.stdout
    assert "pdp6> e pc\nPC/ 000104   WAITK" in done.stdout


def test_a_wait_for_the_clock_is_not_a_wait_for_input(binary: str) -> None:
    status, out, err, seconds = run(binary, "D")  # five seconds by the clock, then READY
    assert (status, out) == (0, "DREADY\n"), err
    assert 5 < seconds < 9 and "waiting for input (none left) at WAITK" in err


def test_type_lines_waits_for_the_program_to_wait_before_each_line(binary: str) -> None:
    """X and Y typed during the clock wait after D are lost (the mailbox keeps only the
    last key); --type-lines types them once the program waits for input again."""
    assert run(binary, "D\nXY\n")[:2] == (0, "DREADY\n\n")
    assert run(binary, "D\nXY\n", "--type-lines")[:2] == (0, "DREADY\n\nXY\n")


def machine(host: ScriptedHost) -> tuple[Machine, Teletype]:
    program = assemble_file(PROGRAM)
    assert not program.errors and program.start is not None
    m = Machine(core_words=0o10000, engine="python")
    for address, word in program.words.items():
        m.memory[address] = word
    m.pc = program.start
    return m, m.attach(Teletype(host))


def test_at_a_terminal_it_sleeps_while_it_waits_and_runs_as_unsliced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sleeps: list[float] = []
    monkeypatch.setattr(runner_module.time, "sleep", sleeps.append)  # (no real sleep)
    host = ScriptedHost("HI\n", eof=False)  # a keyboard that may yet type
    m, tty = machine(host)
    assert Runner(m, tty).run(until_us=2e6).reason == "time limit"
    assert len(sleeps) > 100  # it slept a short while at each of its chunks of waiting
    alone_host = ScriptedHost("HI\n", eof=False)
    alone, _tty = machine(alone_host)
    alone.run(max_instructions=m.instructions)  # as many instructions, in one run
    assert host.output == alone_host.output == "HI\n"
    assert (m.elapsed_us, m.pc) == (alone.elapsed_us, alone.pc)
    assert m.memory[0:0o10000] == alone.memory[0:0o10000]
