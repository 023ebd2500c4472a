"""SIGTERM and SIGHUP end ``pdp6 run`` and ``pdp6 console`` (pdp6.host.runner's ``Terminated``):
the run stops at its next chunk, one line on stderr says so, what the program printed is
all there, and the exit status is 128 + the signal (143, 129).  Ctrl-C (SIGINT) still only
stops the run.  The commands run as real subprocesses with pipes; the terminal's side is
in test_console_pty.py."""

from __future__ import annotations

import os
import re
import select
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pexpect
import pytest

from pdp6 import Machine
from pdp6.host.runner import Runner, StopFlag, Terminated, ending_on_signals

from .console_helpers import (
    Programs,
    assemble,
    pdp6_command,
    programs_fixture,  # noqa: F401  (the programs fixture)
    subprocess_env,
)

# Types R, then counts for ever: a run that never waits and never ends.
BUSY = 'TTY=120\nSTART:\tMOVEI 1,"R\n\tDATAO TTY,1\nL:\tAOJA 2,L\nEND START\n'
TERMINATED = r"pdp6: terminated by SIG(TERM|HUP) at \S+ \(\d{6}\) after \d+\.\d{3} s emulated\n"


@pytest.fixture(scope="module")
def busy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("busy")
    (d / "busy.mid").write_text(BUSY)
    return assemble(d / "busy.mid", d / "busy.bin")


def start(*args: str) -> subprocess.Popen[bytes]:
    """``pdp6 ARGS`` with pipes; standard input stays open (no end of input)."""
    return subprocess.Popen(
        [*pdp6_command(), *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env=subprocess_env(),
    )  # fmt: skip


def read_until(proc: subprocess.Popen[bytes], text: bytes, timeout: float = 60) -> bytes:
    """What ``proc`` prints up to and including ``text`` (the command is under way)."""
    assert proc.stdout is not None
    seen = b""
    deadline = time.monotonic() + timeout
    while text not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"no {text!r} in {seen!r}"
        if select.select([proc.stdout], [], [], left)[0]:
            chunk = os.read(proc.stdout.fileno(), 4096)
            assert chunk, f"the command ended before {text!r}: {seen!r}"
            seen += chunk
    return seen


def end(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> tuple[int, bytes, bytes]:
    """Send ``sig``; the exit status and the rest of the output.  The command must be
    gone within a few seconds (it takes well under one: a chunk of the run)."""
    proc.send_signal(sig)
    try:
        out, err = proc.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"still running 5 s after signal {sig}")
    return proc.returncode, out, err


def test_sigterm_ends_a_run_that_never_stops(busy: Path) -> None:
    proc = start("run", str(busy))
    read_until(proc, b"R")
    status, out, err = end(proc)
    assert status == 143
    assert out == b""  # the R was read above: nothing more
    assert re.fullmatch(TERMINATED, err.decode()) and "SIGTERM at L (000102)" in err.decode(), err


def test_sigterm_ends_a_program_waiting_for_input(programs: Programs) -> None:
    proc = start("run", str(programs.echo))
    assert proc.stdin is not None
    proc.stdin.write(b"HELLO\n")
    proc.stdin.flush()
    printed = read_until(proc, b"HELLO\n")
    status, out, err = end(proc)
    assert status == 143
    assert printed + out == b"ECHO READY\nHELLO\n"  # what the program printed, all of it
    assert re.fullmatch(TERMINATED, err.decode()) and "TYI" in err.decode(), err


def test_sighup_ends_it_too(programs: Programs) -> None:
    proc = start("run", str(programs.echo))
    read_until(proc, b"ECHO READY\n")
    status, _out, err = end(proc, signal.SIGHUP)
    assert status == 129
    assert re.fullmatch(TERMINATED, err.decode()) and "SIGHUP" in err.decode(), err


def test_ctrl_c_still_only_stops_the_run(programs: Programs) -> None:
    proc = start("run", str(programs.echo))
    read_until(proc, b"ECHO READY\n")
    status, _out, err = end(proc, signal.SIGINT)
    assert status == 130
    assert err.decode().startswith("pdp6: interrupted at TYI"), err


def test_sigterm_ends_the_console_waiting_for_a_command(busy: Path) -> None:
    proc = start("console", str(busy))
    read_until(proc, b"loaded ")
    status, _out, err = end(proc)
    assert status == 143
    assert re.fullmatch(TERMINATED, err.decode()) and "START (000100)" in err.decode(), err


def test_sigterm_ends_the_console_while_it_runs(busy: Path) -> None:
    """Not taken for Ctrl-C: the run does not stop for the next command (the ``e pc``
    after ``go`` is never answered), the console ends."""
    proc = start("console", str(busy))
    assert proc.stdin is not None
    proc.stdin.write(b"go\ne pc\n")
    proc.stdin.flush()
    read_until(proc, b"pdp6> go\nR")
    status, out, err = end(proc)
    assert status == 143
    assert b"e pc" not in out and b"interrupted" not in out
    assert re.fullmatch(TERMINATED, err.decode()) and "at L (000102)" in err.decode(), err


@pytest.mark.skipif(shutil.which("timeout") is None, reason="needs coreutils' timeout")
@pytest.mark.parametrize("command", ["console", "run"])
def test_timeout_at_a_terminal_ends_it(busy: Path, command: str) -> None:
    """``timeout 3 pdp6 console FILE -c go`` typed at a terminal: timeout runs the command
    in a process group of its own, in the background, where touching the terminal stops
    it; the command leaves the terminal alone, runs, and SIGTERM ends it (timeout: 124)."""
    extra = "-c go" if command == "console" else ""
    line = " ".join([*pdp6_command(), command, str(busy), extra])
    child = pexpect.spawn("/bin/sh", ["-c", f"timeout 3 {line}; echo status=$?"],
                          env=subprocess_env(), encoding="ascii", timeout=30)  # fmt: skip
    child.expect(r"pdp6: terminated by SIGTERM at L \(000102\) after [\d.]+ s emulated")
    child.expect_exact("status=124")
    child.expect(pexpect.EOF)


# --- the API, in this process ---------------------------------------------------------------
def _counting_machine() -> Machine:
    m = Machine(core_words=1024, engine="python")
    m.memory[0o100] = 0o344000000100  # AOJA 0,100: runs for ever, never idle
    m.pc = 0o100
    return m


def test_a_run_ends_at_the_next_chunk_with_terminated() -> None:
    m = _counting_machine()
    flag = StopFlag()
    chunks = []

    def between() -> None:
        chunks.append(m.instructions)
        if len(chunks) == 2:
            os.kill(os.getpid(), signal.SIGTERM)  # (handled: the run catches it)

    before = signal.getsignal(signal.SIGTERM)
    with ending_on_signals(), pytest.raises(Terminated) as caught:
        Runner(m, stop=flag, between=between).run()
    assert caught.value.signum == signal.SIGTERM and caught.value.exit_status == 143
    assert str(caught.value) == "terminated by SIGTERM"
    assert isinstance(caught.value, SystemExit) and caught.value.code == 143
    assert flag.terminated == signal.SIGTERM and flag.raised
    assert len(chunks) == 2  # ended before another chunk
    assert signal.getsignal(signal.SIGTERM) == before  # put back


def test_outside_a_run_sigterm_raises_at_once() -> None:
    with pytest.raises(Terminated) as caught, ending_on_signals():
        os.kill(os.getpid(), signal.SIGHUP)
        time.sleep(5)  # (interrupted by the handler)
    assert caught.value.exit_status == 129


def test_a_sigterm_at_the_end_of_a_run_is_not_lost() -> None:
    """A SIGTERM that came after the runner's last look at the flag: leaving
    ``catching_signals`` raises it."""
    flag = StopFlag()
    with ending_on_signals(), pytest.raises(Terminated), flag.catching_signals():
        os.kill(os.getpid(), signal.SIGTERM)
    flag.clear()
    assert flag.terminated == signal.SIGTERM  # clear() does not take an end back
    before = signal.getsignal(signal.SIGTERM)
    with ending_on_signals(), pytest.raises(Terminated):
        flag.end_if_terminated()
    assert signal.getsignal(signal.SIGTERM) == before


def test_sigint_in_a_run_only_raises_the_flag() -> None:
    flag = StopFlag()
    with flag.catching_signals():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)
    assert flag.raised and not flag.terminated
