"""``pdp6 console`` and ``pdp6 run`` in a real pseudo-terminal (pexpect): the prompt, bad
commands, bad addresses and a missing file answered with a clear message; the keyboard
going to the program while it runs, Ctrl-C stopping it, and the terminal restored."""

from __future__ import annotations

import os
import shlex
import signal

import pexpect
import pytest

from .console_helpers import (
    Programs,
    expect_reply,
    pdp6_command,
    programs_fixture,  # noqa: F401  (the programs fixture)
    spawn,
    subprocess_env,
)

PROMPT = "pdp6> "


def ask(child: pexpect.spawn, command: str, reply: str) -> None:
    expect_reply(child, command, reply, PROMPT)


def test_console_session(programs: Programs) -> None:
    c = spawn("console", str(programs.echo))
    c.expect_exact("start GO (000100), with source lines")
    c.expect_exact(PROMPT)
    ask(c, "e GO", "000100 GO/         200740,,000152   MOVE 17,PDL+20")
    ask(c, "frob", "?unknown command 'frob' (type help for the list)")
    ask(c, "e 2000000", "?examine: address 2000000 is outside 0-777777")
    ask(c, "d NOWHERE 0", "?deposit: unknown symbol NOWHERE")
    ask(c, "load /no/such/file.bin", "?load: /no/such/file.bin: No such file or directory")
    ask(c, "break TYO", "breakpoint at TYO (000123), echo.mid:35")
    ask(c, "go", "breakpoint at TYO (000123)  CONSO TTY,10")
    ask(c, "delete TYO", "removed execute breakpoint at TYO (000123)")
    c.sendline("continue")
    c.expect_exact("ECHO READY\r\n")  # the teletype prints CR LF itself (raw terminal)
    c.send("hi\r")  # keys go to the program one by one, upper-cased like a Model 35
    c.expect_exact("HI\r\n")
    c.send("\x03")  # Ctrl-C stops the machine, not the console
    c.expect(r"interrupted at TYI\+?1? \(00011[67]\)")
    c.expect_exact(PROMPT)
    ask(c, "e 1", "000001/            000000,,000012")  # the line feed it typed last
    c.sendcontrol("c")  # at the prompt: a fresh line
    c.expect_exact("^C")
    c.expect_exact(PROMPT)
    c.sendline("quit")
    c.expect(pexpect.EOF)
    assert c.wait() == 0


def test_missing_file_on_the_command_line() -> None:
    c = spawn("console", "/no/such/file.bin")
    c.expect_exact("File '/no/such/file.bin' does not exist")
    c.expect(pexpect.EOF)
    assert c.wait() == 2
    assert "Traceback" not in c.before


def test_end_of_file_at_the_prompt_leaves(programs: Programs) -> None:
    c = spawn("console", str(programs.echo))
    c.expect_exact(PROMPT)
    c.sendeof()
    c.expect(pexpect.EOF)
    assert c.wait() == 0


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_run_restores_the_terminal(programs: Programs, how: str) -> None:
    """After ``pdp6 run`` ends (Ctrl-C, or SIGTERM: exit status 130, 143) the terminal is
    back in cooked mode."""
    run = " ".join(shlex.quote(a) for a in [*pdp6_command(), "run", str(programs.echo)])
    c = pexpect.spawn("/bin/sh", ["-c", f"{run}; echo status=$?; stty -a"],
                      env=subprocess_env(), encoding="ascii", timeout=60)  # fmt: skip
    c.expect_exact("ECHO READY\r\n")
    c.send("ok\r")
    c.expect_exact("OK\r\n")
    if how == "ctrl-c":
        c.send("\x03")
        c.expect(r"pdp6: interrupted at TYI\+?1? \(00011[67]\)  .* emulated")
    else:
        pid = int(pexpect.run(f"pgrep -f -n -- {shlex.quote(str(programs.echo))}",
                              encoding="ascii").split()[0])  # fmt: skip
        os.kill(pid, signal.SIGTERM)  # the end, not a Ctrl-C: 128 + 15
        c.expect(r"pdp6: terminated by SIGTERM at TYI\+?1? \(00011[67]\) after .* s emulated")
    c.expect_exact(f"status={130 if how == 'ctrl-c' else 143}")
    c.expect(pexpect.EOF)
    settings = c.before.split()
    assert {"icanon", "echo", "isig", "icrnl", "opost"} <= set(settings)  # cooked again


@pytest.mark.parametrize("running", [False, True], ids=["at the prompt", "during go"])
def test_sigterm_ends_the_console(programs: Programs, running: bool) -> None:
    """SIGTERM is not a Ctrl-C: at the prompt (in readline) or while the machine runs
    (the terminal raw), the console ends with one line and status 143, the terminal
    restored."""
    console = " ".join(shlex.quote(a) for a in [*pdp6_command(), "console", str(programs.echo)])
    c = pexpect.spawn("/bin/sh", ["-c", f"{console}; echo status=$?; stty -a"],
                      env=subprocess_env(), encoding="ascii", timeout=60)  # fmt: skip
    c.expect_exact(PROMPT)
    if running:
        c.sendline("go")
        c.expect_exact("ECHO READY\r\n")
    pid = int(pexpect.run(f"pgrep -f -n -- {shlex.quote(str(programs.echo))}",
                          encoding="ascii").split()[0])  # fmt: skip
    os.kill(pid, signal.SIGTERM)
    c.expect(r"(\r\n)?pdp6: terminated by SIGTERM at \S+ \(\d{6}\) after \d+\.\d{3} s emulated\r\n")
    assert running or c.match.group(1), "the prompt's line is ended first"
    c.expect_exact("status=143")
    c.expect(pexpect.EOF)
    assert "Traceback" not in c.before
    assert {"icanon", "echo", "isig", "icrnl", "opost"} <= set(c.before.split())


def test_ctrl_c_stops_a_long_command(programs: Programs) -> None:
    c = spawn("console", str(programs.echo))
    c.expect_exact(PROMPT)
    c.sendline("step 100000")
    c.expect_exact("TYO+1 (000124)  JRST TYO")  # stepping round the output wait
    c.send("\x03")
    c.expect(r"\?step: interrupted|\ninterrupted")
    c.expect_exact(PROMPT)
    ask(c, "e pc", "PC/ 00012")  # TYO or TYO+1: the console is still there
    c.sendline("quit")
    c.expect(pexpect.EOF)
    assert c.wait() == 0
    assert "Traceback" not in c.before
