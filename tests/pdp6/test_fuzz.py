"""Fuzz tests (slow): random console commands and damaged binaries never give a traceback
or a hang, and what is refused changes nothing.

The code under test runs in a child process (``tests.worker``): a hang there fails the
test with its input instead of stopping the test run.
"""

from __future__ import annotations

import io
import os
import random
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pdp6.devices import ScriptedHost
from pdp6.formats.loader import LoaderError, load_file
from pdp6.formats.readin import read_in_problem, tape_frames
from pdp6.formats.wordfile import decode_words, encode_words
from pdp6.host.console import COMMANDS, Console
from pdp6.host.debugger import Debugger
from pdp6.machine import Machine

from ..worker import Worker
from .console_helpers import (
    Programs,
    pdp6_command,
    programs_fixture,  # noqa: F401  (the programs fixture)
    subprocess_env,
)

pytestmark = pytest.mark.slow
FUZZ = settings(deadline=None, derandomize=True, database=None)
CTRL_C_AFTER_S = 5.0  # a run the fuzz started is interrupted after this


# --- console commands --------------------------------------------------------------------------
NAMES = [name for cmd in COMMANDS for name in cmd.names if name != "do"] + ["frob", "", "#"]
# Arguments: good ones (so that commands also succeed and change things), near misses and
# garbage.  Counts stay small: "step 99999999" is obeyed, one step at a time.
ARGUMENTS = [
    "100", "GO", "TYO", "GO+3", "TYI+1", ".", "pc", "flags", "switches", "sw", "17", "0",
    "777777", "1000000", "-1", "GO:GO+3", "100/4", "100-104", "100:", ":5", "echo.mid:35",
    "nofile.mid:3", "echo.mid:x", "MOVEI 1,5", "1,,2", "1,,2,,3", "JRST 4,", "DATAO TTY,1",
    "MOVE 25,1", "FOO(", "@@", '"A', '"', "1^777777777777", "9" * 50 + ".", "-" * 50 + "1",
    "1_0", "+7", "2", "3", "read", "write", "ptr", "ptp", "lpt", "tty", "fast", "110", "stack",
    "devices", "symbols", "breaks", "registers", "all", "/no/such/file", "/dev/full", "/",
    '"HI\\r"', "HELLO", "\x00", "\x7f", "\u00df", "  ", ",",
]  # fmt: skip


@st.composite
def command_lines(draw: st.DrawFn) -> str:
    """A command name (or garbage) with up to three arguments."""
    words = [draw(st.sampled_from(NAMES))]
    for _ in range(draw(st.integers(0, 3))):
        words.append(draw(st.sampled_from(ARGUMENTS) | st.text(max_size=6)))
    return " ".join(words)


def console_problems(job: tuple[str, list[str]]) -> list[str]:
    """Run ``lines`` in a console on ``binary`` (in the worker, in a directory of its own
    for the files the commands write); list the refused commands that changed the
    machine and the replies that are not one ``?`` line."""
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        try:
            return _console_problems(*job)
        finally:
            os.chdir(here)


def _console_problems(binary: str, lines: list[str]) -> list[str]:
    dbg = Debugger(Machine(core_words=4096, engine="python"), ScriptedHost(), baud=None,
                   grace_us=10_000)  # fmt: skip
    out = io.StringIO()
    console = Console(dbg, out)
    console.cmd_load(binary)
    problems = []
    # A command may start a program that never stops (go into garbage): as a person
    # would, press Ctrl-C (SIGINT, which the console catches) after a few seconds.
    signal.signal(signal.SIGALRM, lambda *_: os.kill(os.getpid(), signal.SIGINT))
    for line in lines:
        before, failures, start = _state(dbg), console.failures, out.tell()
        signal.setitimer(signal.ITIMER_REAL, CTRL_C_AFTER_S)
        try:
            console.execute(line)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        reply = out.getvalue()[start:]
        if console.failures > failures:
            if not (reply.startswith("?") and reply.count("\n") == 1):
                problems.append(f"{line!r}: refused with {reply!r}")
            if _state(dbg) != before:
                problems.append(f"{line!r}: refused, but the machine changed")
    return problems


def _state(dbg: Debugger) -> tuple:
    """What a refused command must leave alone: core, the processor, the debugger."""
    m = dbg.m
    return (m.memory[:], m.pc, m.flags, m.elapsed_us, m.instructions, m.apr.switches,
            sorted(dbg.breaks), sorted(dbg.watches), dbg.stack_ac, dbg.tty.baud,
            dict(dbg.tape_files), dbg.ptr.position)  # fmt: skip


@settings(FUZZ, max_examples=1000)
@given(lines=st.lists(command_lines(), min_size=1, max_size=8))
@example(lines=["go 17"])  # a machine that cannot start there: go refused, the PC kept
def test_fuzz_console_commands(
    console_worker: Worker, programs: Programs, lines: list[str]
) -> None:
    assert console_worker((str(programs.echo), lines), timeout=60) == []


# --- binaries ----------------------------------------------------------------------------------
def damaged(data: bytes, rng: random.Random) -> bytes:
    """``data`` truncated, with bits flipped, with words dropped or doubled, or noise."""
    kind = rng.randrange(5)
    if kind == 0:
        return data[: rng.randrange(len(data) + 1)]
    if kind == 1:
        flipped = bytearray(data)
        for _ in range(rng.randrange(1, 6)):
            flipped[rng.randrange(len(flipped))] ^= 1 << rng.randrange(8)
        return bytes(flipped)
    if kind == 2:
        words = decode_words(data)
        i = rng.randrange(len(words))
        words[i : i + 1] = [] if rng.random() < 0.5 else [words[i], words[i]]
        return encode_words(words)
    if kind == 3:
        return rng.randbytes(rng.randrange(0, 200))
    return rng.randbytes(9 * rng.randrange(1, 20))


def loader_problems(data: bytes) -> list[str]:
    """Load ``data`` every way the tools do (in the worker): a one-line LoaderError or an
    image of 36-bit words at 18-bit addresses; the boot check says yes or why not."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "damaged.bin"
        path.write_bytes(data)
        try:
            image = load_file(path)
        except LoaderError as exc:
            return [] if "\n" not in str(exc) and str(exc) else [f"message {exc!r}"]
    problems = [f"{a:o}/{w:o}" for a, w in image.words.items()
                if not (0 <= a <= 0o777777 and 0 <= w < 1 << 36)]  # fmt: skip
    if not image.words:
        problems.append("loaded no words")
    read_in_problem(tape_frames(data))  # no exception either way
    return problems


@settings(FUZZ, max_examples=2000)
@given(seed=st.integers(0, 2**32))
def test_fuzz_damaged_binaries_into_the_loader(
    loader_worker: Worker, programs: Programs, seed: int
) -> None:
    rng = random.Random(seed)
    original = rng.choice([programs.echo, programs.echo_rim, programs.echoint]).read_bytes()
    assert loader_worker(damaged(original, rng), timeout=20) == []


@settings(FUZZ, max_examples=8)
@given(seed=st.integers(0, 2**32))
def test_fuzz_damaged_binaries_through_disasm_and_run(
    programs: Programs, tmp_path_factory: pytest.TempPathFactory, seed: int
) -> None:
    """One line of error or a run; never a traceback, never a hang (--max-seconds bounds
    a damaged program that computes for ever)."""
    rng = random.Random(seed)
    original = rng.choice([programs.echo, programs.echo_rim]).read_bytes()
    path = tmp_path_factory.mktemp("damaged") / "damaged.bin"
    path.write_bytes(damaged(original, rng))
    limits = ["--max-seconds", "0.5", "--baud", "fast"]
    for command in (["disasm", str(path)], ["run", str(path), *limits],
                    ["run", "--boot", str(path), *limits]):  # fmt: skip
        done = subprocess.run(
            [*pdp6_command(), *command], stdin=subprocess.DEVNULL, capture_output=True,
            text=True, env=subprocess_env(), timeout=120,
        )  # fmt: skip
        assert "Traceback" not in done.stderr, done.stderr
        assert done.returncode in (0, 1, 3), (command, done.returncode, done.stderr)
        if done.returncode == 1 and done.stderr.startswith("Error: "):
            assert done.stderr.count("\n") == 1, done.stderr


@pytest.fixture(scope="module")
def console_worker() -> Iterator[Worker]:
    with Worker(console_problems) as worker:
        yield worker


@pytest.fixture(scope="module")
def loader_worker() -> Iterator[Worker]:
    with Worker(loader_problems) as worker:
        yield worker
