"""``pdp6 debug SOURCE.mid`` in a real pseudo-terminal: assemble with midas, break at a
label and at FILE:LINE, run with the keyboard live, list, where, finish, next over a
call, watch, and clear messages for bad lines, bad files and sources that do not
assemble."""

from __future__ import annotations

from pathlib import Path

import pexpect

from .console_helpers import (
    Programs,
    expect_reply,
    programs_fixture,  # noqa: F401  (the programs fixture)
    spawn,
)

PROMPT = "debug> "


def ask(child: pexpect.spawn, command: str, reply: str) -> None:
    expect_reply(child, command, reply, PROMPT)


def test_debug_session(programs: Programs) -> None:
    c = spawn("debug", "echo.mid", cwd=programs.dir)
    c.expect_exact("echo.mid: assembled and loaded; PC at GO (000100). Type help for commands.")
    c.expect_exact("echo.mid:11  GO:     MOVE P,[-PDLEN,,PDL-1]  ; set up the stack")
    c.expect_exact(PROMPT)
    ask(c, "break TYI", "breakpoint at TYI (000116), echo.mid:28")
    c.sendline("go")
    c.expect_exact("ECHO READY\r\n")
    c.expect_exact("breakpoint at TYI (000116)  CONSO TTY,40")
    c.expect_exact("echo.mid:28  TYI:    CONSO TTY,40            ; input flag: a character")
    c.expect_exact(PROMPT)
    ask(c, "list", "=>   28  TYI:    CONSO TTY,40")
    ask(c, "where", "#1  LOOP (000107), echo.mid:19")
    ask(c, "delete TYI", "removed execute breakpoint at TYI (000116)")  # TYI loops back to it
    c.sendline("finish")  # TYI waits for a key: the keyboard is the program's
    c.send("x")
    c.expect_exact("returned at LOOP+1 (000110)  PUSHJ 17,TYO")
    c.expect_exact(PROMPT)
    ask(c, "e A", "000001/            000000,,000130")  # X, upper case
    c.sendline("next")  # over PUSHJ P,TYO, which types the X on the way
    c.expect_exact("X\r\nLOOP+2 (000111)  CAIE 1,15")
    c.expect_exact(PROMPT)
    ask(c, "break echo.mid:24", "breakpoint at LOOP+5 (000114), echo.mid:24")
    c.sendline("continue")
    c.send("\r")  # RETURN: echoed, then the program calls TYO for the line feed
    c.expect_exact("breakpoint at LOOP+5 (000114)  PUSHJ 17,TYO")
    c.expect_exact(PROMPT)
    ask(c, "delete echo.mid:24", "removed execute breakpoint at LOOP+5 (000114)")
    ask(c, "watch PDL", "watching PDL (000132), now 040000,,000111")  # PC CHANGE in flags
    ask(c, "continue", "PDL (000132) changed: 040000,,000111 -> 040000,,000115")
    ask(c, "break echo.mid:9999", "?break: echo.mid:9999: no code at or after line 9999")
    ask(c, "break board.mid:3", "?break: board.mid:3: no source file 'board.mid' in this "
                                "program (echo.mid)")  # fmt: skip
    ask(c, "list ZORK", "?list: unknown symbol ZORK")
    ask(c, "finish", "returned at LOOP+6 (000115)  JRST LOOP")
    c.sendline("quit")
    c.expect(pexpect.EOF)
    assert c.wait() == 0


def test_missing_source() -> None:
    c = spawn("debug", "/no/such/prog.mid")
    c.expect_exact("File '/no/such/prog.mid' does not exist")
    c.expect(pexpect.EOF)
    assert c.wait() == 2


def test_source_that_does_not_assemble(tmp_path: Path) -> None:
    (tmp_path / "bad.mid").write_text("GO:\tMOVE 1,UNDEF\n\tEND GO\n")
    c = spawn("debug", "bad.mid", cwd=tmp_path)
    c.expect_exact("UNDEF")  # midas's own message, with file and line
    c.expect_exact("Error: midas could not assemble bad.mid")
    c.expect(pexpect.EOF)
    assert c.wait() == 1
    assert "Traceback" not in c.before
