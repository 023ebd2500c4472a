"""``pdp6 console`` driven through its command line with commands on standard input
(and ``-c``/``-x``), as scripts use it: every command, its forms, and its errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pdp6.host.cli import main

from .console_helpers import (
    ROOT,
    Programs,
    assemble,
    programs_fixture,  # noqa: F401  (the programs fixture)
    replies,
)


def console(*args: str, commands: str = "") -> Result:
    return CliRunner().invoke(
        main, ["console", "--engine", "python", "--baud", "fast", *args], input=commands
    )


@pytest.fixture
def echo_console(programs: Programs):
    def run(commands: str, *args: str, status: int = 0) -> dict[str, str]:
        result = console(str(programs.echo), *args, commands=commands)
        assert result.exit_code == status, result.output
        assert "Traceback" not in result.output
        return replies(result)

    return run


def test_load_message(programs: Programs) -> None:
    result = console(str(programs.echo))
    assert result.stdout.startswith(
        f"loaded {programs.echo}: 28 words (sblk), start GO (000100), with source lines\n"
    )


def test_examine_forms(echo_console) -> None:
    r = echo_console("e GO:GO+2\ne 125/2\ne 126-127\ne pc flags switches\ne echo.mid:35\n")
    assert r["e GO:GO+2"].splitlines() == [
        "000100 GO/         200740,,000152   MOVE 17,PDL+20",
        "000101 GO+1/       712200,,000010   CONO TTY,10",
        "000102 GO+2/       200100,,000153   MOVE 2,PDL+21",
    ]
    assert r["e 125/2"].splitlines()[1] == "000126 TYO+3/      263740,,000000   POPJ 17,"
    assert len(r["e 126-127"].splitlines()) == 2
    assert r["e pc flags switches"].splitlines() == [
        "PC/ 000100   GO (000100)", "FLAGS/ 000000   -", "SWITCHES/ 000000,,000000"]  # fmt: skip
    assert r["e echo.mid:35"] == "000123 TYO/        712340,,000010   CONSO TTY,10"


def test_deposit_forms(echo_console) -> None:
    r = echo_console(
        "d 200 MOVE 1,@TYO(2)\nd 201:203 1,,-1\ne 201:203\nd pc TYO\nd flags 400000\n"
        "d switches 123\ne flags\nd 204 -1\n"
    )
    assert r["d 200 MOVE 1,@TYO(2)"] == "000200 PDL+46/     200062,,000123   MOVE 1,@TYO(2)"
    assert r["e 201:203"].count("000001,,777777   000001,,777777") == 3
    assert r["d pc TYO"] == "PC/ 000123   TYO (000123)"
    assert r["e flags"] == "FLAGS/ 400000   AROV"
    assert r["d switches 123"] == "SWITCHES/ 000000,,000123"
    assert r["d 204 -1"].endswith("777777,,777777   CONSO 774,@777777(17)")


def test_device_registers_are_examined_and_deposited_by_name(echo_console) -> None:
    """DEV.NAME names a register of the device's table: a deposit changes what the
    processor sees (the CONI word), a point in a location still means decimal."""
    r = echo_console("e tty.pia tty.input_flag ptr.buffer\nd tty.pia 5\nshow devices\n"
                     "d ptr.busy 1\ne ptr.busy\ne 10.+1\n")  # fmt: skip
    assert r["e tty.pia tty.input_flag ptr.buffer"].splitlines() == [
        "TTY.PIA/ 0", "TTY.INPUT_FLAG/ 0", "PTR.BUFFER/ 000000000000"]  # fmt: skip
    assert r["d tty.pia 5"] == "TTY.PIA/ 5"
    tty = next(x for x in r["show devices"].splitlines() if x.startswith("TTY"))
    assert "CONI 000005" in tty
    assert r["e ptr.busy"] == "PTR.BUSY/ 1"
    assert r["e 10.+1"].startswith("000013/")


def test_the_processors_apr_and_pi_are_examined_and_deposited_the_same_way(
    echo_console,
) -> None:
    r = echo_console("e apr.pia apr.clock_enabled pi.on\nd pi.on 177\nd apr.pia 3\nregisters\n")
    assert r["e apr.pia apr.clock_enabled pi.on"].splitlines() == [
        "APR.PIA/ 0", "APR.CLOCK_ENABLED/ 0", "PI.ON/ 000"]  # fmt: skip
    assert r["d pi.on 177"] == "PI.ON/ 177"
    assert "APR pia 3 clock off" in r["registers"] and "PI off on 177" in r["registers"]


NO_CLOSING_QUOTE = 'the quoted text has no closing quote (write \\" for a quote in it)'


@pytest.mark.parametrize(
    "command, reply",
    [
        ("frobnicate", "?unknown command 'frobnicate' (type help for the list)"),
        ("e ZORK", "?examine: unknown symbol ZORK"),
        ("e", "?examine: what? e.g. examine 100, examine LOOP:LOOP+5, examine pc"),
        ("e 1000000", "?examine: address 1000000 is outside 0-777777"),
        ("e 200:100", "?examine: 200:100: the range ends before it starts"),
        ("e 100:3000", "?examine: 100:3000: 1473 words; at most 1000 at a time"),
        ("e 100/x", "?examine: 100/x: the count after '/' must be octal"),
        ("d 100", "?deposit: usage: deposit LOC VALUE, e.g. deposit 100 MOVEI 1,5"),
        ("d 100 MOVE 25,1", "?deposit: accumulator 25 is not 0-17"),
        ("d flags 1", "?deposit: flags are the bits 774000 of the PC word's left half, not 1"),
        ("d pc 1,,0", "?deposit: PC must be an 18-bit address (0..777777 octal), not 262144"),
        ("step 0", "?step: step wants a count of at least 1"),
        ("step two", "?step: step wants a decimal count, not 'two'"),
        ("go NOWHERE", "?go: unknown symbol NOWHERE"),
        ("break nofile.mid:3", "?break: nofile.mid:3: no source file 'nofile.mid' in this "
                               "program (echo.mid)"),
        ("delete TYO", "?delete: no breakpoint or watch at TYO (000123)"),
        ("continue now", "?continue: continue takes no arguments"),
        ("load /no/such.bin", "?load: /no/such.bin: No such file or directory"),
        ("do /no/such.cmd", "?do: cannot read /no/such.cmd: No such file or directory"),
        ("attach ptr", "?attach: usage: attach ptr FILE, or attach ptp FILE"),
        ("attach lpt x", "?attach: no device 'lpt': tapes go on ptr (reader) or ptp (punch)"),
        ("boot", "?boot: no tape in the reader: attach ptr FILE first"),
        ("restore /no/such.snap", "?restore: cannot read snapshot /no/such.snap: No such file "
                                  "or directory"),
        ("show nothing", "?show: show registers, devices, breaks, symbols [PREFIX] or stack"),
        ("set tty slow", "?set: set tty BAUD (e.g. 110) or set tty fast"),
        ("set stack 20", "?set: set stack AC wants an accumulator 0-17 (octal, or its name)"),
        ("help frob", "?help: no command 'frob' (help lists them)"),
        ('type "ABC', f"?type: {NO_CLOSING_QUOTE}"),
        ('type "AB\\"', f"?type: {NO_CLOSING_QUOTE}"),  # \" is a quote in the text
        ('type "A\\q"', "?type: unknown escape \\q: use \\r \\n \\t \\\\ or \\\""),
        # typed values are read whole or refused (these were cut short or read by int())
        ("d 100 1,,2,,3", "?deposit: unexpected ',,' after L,,R in '1,,2,,3'"),
        ("step 1_0", "?step: step wants a decimal count, not '1_0'"),
        ("e 100/1_0", "?examine: 100/1_0: the count after '/' must be octal"),
        ("set stack +7", "?set: set stack AC wants an accumulator 0-17 (octal, or its name)"),
        ("set tty 1_10", "?set: set tty BAUD (e.g. 110) or set tty fast"),
        ("show devices now", "?show: show devices takes no arguments"),
        ("show symbols T Y", "?show: show symbols takes one PREFIX"),
        ("d tty.pia 10", "?deposit: TTY.PIA is 3 bits wide: 10 does not fit"),
        ("d apr.pia 10", "?deposit: APR.PIA is 3 bits wide: 10 does not fit"),
        ("d tty.characters_in 5", "?deposit: TTY.CHARACTERS_IN is a count or a time, not a "
                                  "register: it cannot be deposited"),
        ("e ptr.tape", "?examine: ptr.tape: PTR has no register TAPE (its registers: BINARY "
                       "BUSY FLAG PIA DONE_AT POSITION BUFFER FRAMES_IN_WORD)"),
    ],
)  # fmt: skip
def test_bad_commands_get_one_clear_line_and_the_console_goes_on(
    echo_console, command: str, reply: str
) -> None:
    r = echo_console(f"{command}\ne pc\n", status=1)  # one command failed
    assert r[command] == reply
    assert r["e pc"] == "PC/ 000100   GO (000100)"  # still working afterwards


def test_break_go_step_next_finish_continue(echo_console) -> None:
    r = echo_console("break TYO\ngo\nstep 2\nfinish\nnext\nbreak\ndelete all\ncontinue\n")
    assert r["break TYO"] == "breakpoint at TYO (000123), echo.mid:35"
    assert r["go"].startswith("breakpoint at TYO (000123)  CONSO TTY,10\necho.mid:35")
    assert r["step 2"].splitlines() == [
        "TYO+2 (000125)  DATAO TTY,1", "echo.mid:37          DATAO TTY,A",
        "E",  # the teletype printed the character
        "TYO+3 (000126)  POPJ 17,", "echo.mid:38          POPJ P,",
    ]  # fmt: skip
    assert r["finish"].startswith("returned at GREET+3 (000106)  JRST GREET")
    assert r["next"].startswith("GREET (000103)  ILDB 1,2")
    assert r["break"] == "execute  TYO (000123), echo.mid:35"
    assert r["delete all"] == "all breakpoints and watches removed"
    assert r["continue"] == (
        "CHO READY\nwaiting for input (none left) at TYI (000116)  CONSO TTY,40\n"
        "echo.mid:28  TYI:    CONSO TTY,40            ; input flag: a character is ready"
    )


def test_type_keys_then_go(echo_console) -> None:
    r = echo_console('type hello\ntype "P-K4\\r"\ngo\n')
    assert r["go"].startswith("ECHO READY\nHELLO\nP-K4\nwaiting for input (none left)")


def test_watch_and_write_break(echo_console) -> None:
    r = echo_console("watch PDL\ngo\ndelete PDL\nbreak write 1\ncontinue\n")
    assert r["watch PDL"] == "watching PDL (000132), now 000000,,000000"
    assert r["go"].startswith("PDL (000132) changed: 000000,,000000 -> 000000,,000106\n"
                              "stopped at TYO (000123)")  # fmt: skip
    assert r["continue"].startswith("E\nwrite to 000001 by GREET (000103) ILDB 1,2:")


def test_state_commands(echo_console) -> None:
    r = echo_console("registers\nshow devices\nshow symbols T\nshow breaks\nwhere\nstack 1\n"
                     "list\nset tty 300\nset stack 16\nset switches 1,,2\nreset\n")  # fmt: skip
    assert r["registers"].startswith("PC 000100 GO (000100)   flags 000000 (-)")
    assert "TTY  120  CONI 000000  fast\n" in r["show devices"]
    assert r["show symbols T"] == "TYI      000000000116\nTYO      000000000123"
    assert r["show breaks"] == "no breakpoints"
    assert r["where"] == "#0  GO (000100), echo.mid:11"
    assert r["stack 1"].startswith("stack pointer AC 17 = 000000,,000000")
    assert "=>   11  GO:     MOVE P,[-PDLEN,,PDL-1]" in r["list"]
    assert r["set tty 300"] == "teletype: 300 baud"
    assert r["set stack 16"] == "stack pointer is AC 16"
    assert r["set switches 1,,2"] == "SWITCHES/ 000001,,000002"
    assert r["reset"] == "I/O reset: devices, PI and APR flags cleared"


def test_list_shows_any_source_line(echo_console) -> None:
    """A FILE:LINE is listed as written, whether it holds code or not: the BLOCK near the
    end assembles no word and nothing follows it, the comment at the top is no code."""
    r = echo_console("list echo.mid:43\nlist :1\nlist :46\n", status=1)
    assert "=>   43  PDL:    BLOCK PDLEN" in r["list echo.mid:43"]
    assert r["list :1"].splitlines()[0].startswith("=>    1  ")
    assert r["list :46"] == "?list: :46: echo.mid has lines 1-45"


def test_help(echo_console) -> None:
    r = echo_console("help\nhelp deposit\n")
    assert "  examine LOC...          show words, octal and symbolic" in r["help"]
    assert r["help deposit"].startswith("deposit LOC VALUE\n  store a word\n")
    assert "  e.g. d 100 MOVEI 1,5" in r["help deposit"]


def test_boot_a_rim_tape_and_punch_a_file(programs: Programs, tmp_path: Path) -> None:
    punch = tmp_path / "out.tape"
    result = console(commands=f'type "HI\\r"\nboot {programs.echo_rim}\nattach ptp {punch}\n')
    r = replies(result)
    assert r[f"boot {programs.echo_rim}"].startswith(
        f"ptr: {programs.echo_rim} mounted, 348 frames (binary words)\nECHO READY\nHI\n"
        "waiting for input (none left) at 000116  CONSO TTY,40"  # no symbols: not loaded
    )
    assert result.stdout.rstrip().endswith(f"ptp: 0 frames written to {punch}")  # at the end
    assert punch.exists()


def test_scripts_commands_and_quit(programs: Programs, tmp_path: Path) -> None:
    inner = tmp_path / "inner.cmd"
    inner.write_text("e pc\nquit\ne 100\n")
    outer = tmp_path / "outer.cmd"
    outer.write_text(f"# a comment\nd pc TYO\ndo {inner}\ne 101\n")
    result = console(str(programs.echo), "-c", "e 102", "-x", str(outer), commands="e 103\n")
    lines = result.stdout.splitlines()
    assert "pdp6> e 102" not in lines  # scripts (-x) run before commands (-c)
    assert lines[1:5] == ["pdp6> d pc TYO", "PC/ 000123   TYO (000123)", f"pdp6> do {inner}",
                          "pdp6> e pc"]  # fmt: skip
    assert lines[-2:] == ["PC/ 000123   TYO (000123)", "pdp6> quit"]  # nothing after quit


def test_script_that_runs_itself(tmp_path: Path) -> None:
    loop = tmp_path / "loop.cmd"
    loop.write_text(f"do {loop}\n")
    result = console(commands=f"do {loop}\n")
    assert "?do: scripts nested too deeply (a script that runs itself?)" in result.stdout


def test_console_file_errors(tmp_path: Path) -> None:
    result = console("/no/such.bin")
    assert result.exit_code == 2 and "does not exist" in result.output
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x80unk")
    result = console(str(junk))
    assert result.exit_code == 1
    assert f"Error: {junk}: 4 bytes is not a whole number of 9-byte word pairs" in result.output


def test_load_and_boot_refuse_what_is_not_a_binary(programs: Programs, tmp_path: Path) -> None:
    source = programs.dir / "echo.mid"
    hint = (f"{source} looks like a MIDAS source: assemble it with "
            f"`midas {source} -o {programs.dir / 'echo.bin'}`")  # fmt: skip
    notes = tmp_path / "notes.txt"
    notes.write_text("a tape of text\n")
    result = console(commands=f"load {source}\nboot {source}\nattach ptr {notes}\nboot\ne 20\n")
    r = replies(result)
    assert r[f"load {source}"] == f"?load: {hint}"  # it said "loaded: 0 words (rim)"
    assert r[f"boot {source}"] == f"?boot: {hint}"
    assert r["boot"] == (
        "?boot: the tape in the reader cannot be read in: it has no binary frames "
        "(hole 8 punched): the read-in loader would read nothing"
    )
    assert r["e 20"] == "000020/            000000,,000000   0"  # no loader toggled in


def test_a_script_with_failed_commands_exits_1(programs: Programs, tmp_path: Path) -> None:
    """It used to exit 0 whatever failed; the console still goes through the rest."""
    script = tmp_path / "bad.cmd"
    script.write_text("e NOWHERE\ne pc\n")
    result = console(str(programs.echo), "-x", str(script), "-c", "frob", commands="e 100\n")
    assert result.exit_code == 1
    assert result.stderr == "pdp6: 2 command(s) failed (the lines starting with ?)\n"
    r = replies(result)
    assert r["e pc"] == "PC/ 000100   GO (000100)" and r["e 100"].startswith("000100 GO/")
    for commands in ("e 100\n", "frob\nquit\n"):  # all well; a failure before quit
        result = console(str(programs.echo), commands=commands)
        assert result.exit_code == (1 if "frob" in commands else 0), commands


def test_mistakes_typed_at_the_prompt_do_not_count() -> None:
    """The person saw each ? line; only scripted commands make the exit status."""
    import io

    from pdp6.devices import ScriptedHost
    from pdp6.host.console import Console
    from pdp6.host.debugger import Debugger
    from pdp6.machine import Machine

    con = Console(Debugger(Machine(engine="python"), ScriptedHost()), io.StringIO())
    con.run_lines(["frob"], echo=False)
    typed = iter(["e ZORK", "step two"])

    def read(_prompt: str) -> str:
        line = next(typed, None)
        if line is None:
            raise EOFError
        return line

    con.interact(read)
    assert con.failures == 1
    assert con.out.getvalue().count("?") == 3


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_file_that_never_ends_is_refused(echo_console) -> None:
    """Reading /dev/zero whole used to fill memory until the process died."""
    r = echo_console("restore /dev/zero\ndo /dev/zero\nattach ptr /dev/zero\nload /dev/zero\n",
                     status=1)  # fmt: skip
    too_long = "/dev/zero: longer than 67108864 bytes (not a PDP-6 file)"
    assert r["restore /dev/zero"] == f"?restore: cannot read snapshot {too_long}"
    assert r["do /dev/zero"] == f"?do: cannot read {too_long}"
    assert r["attach ptr /dev/zero"] == f"?attach: cannot read {too_long}"
    assert r["load /dev/zero"] == f"?load: {too_long}"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_save_to_a_full_disk(echo_console) -> None:
    r = echo_console("save /dev/full\n", status=1)
    assert r["save /dev/full"] == "?save: cannot write snapshot /dev/full: No space left on device"


def test_the_340_on_the_console_is_examined_saved_and_drawn(tmp_path: Path) -> None:
    """--display-png puts a 340 on the console's machine: its registers are examined,
    a snapshot holds it (nothing is left out), and the picture is written at the end."""
    from PIL import Image

    binary = assemble(ROOT / "tests/pdp6/programs/dis340_refresh.mid", tmp_path / "r.bin")
    png, snap = tmp_path / "screen.png", tmp_path / "r.snap"
    result = console(str(binary), "--display-png", str(png), commands="\n".join([
        "break SPEC+1", "go", "show devices", "examine dis.stop dis.words", f"save {snap}",
        "delete all",
        "continue", f"restore {snap}", "e dis.stop dis.words", "c", "e dis.words", "quit",
    ]))  # fmt: skip
    assert result.exit_code == 0, result.output
    out = replies(result)
    assert out["go"].startswith("breakpoint at SPEC+1")  # the first refresh is drawn
    assert "\nDIS  130  CONI 000467  stopped\n      PIA_DATA 7  PIA_SPEC 6" in out["show devices"]
    assert out["examine dis.stop dis.words"] == "DIS.STOP/ 1\nDIS.WORDS/ 128"
    assert out[f"save {snap}"] == f"machine state saved to {snap}"  # (no "not saved: DIS")
    assert out["continue"].startswith("halted at WAIT+2")
    assert out["e dis.stop dis.words"] == "DIS.STOP/ 1\nDIS.WORDS/ 128"
    assert out["c"].startswith("halted at WAIT+2")
    assert out["e dis.words"] == "DIS.WORDS/ 640"  # five refreshes of 128 words
    with Image.open(png) as picture:
        assert picture.convert("L").getextrema()[1] > 100  # the board was drawn


def test_a_machine_that_cannot_start_fails_go_as_it_fails_step() -> None:
    """go used to print the refusal as a stop and count the command done; refused, it
    leaves the PC where it was."""
    result = console(commands="d 100 XCT 100\ngo 100\ne pc\nd pc 100\ncontinue\nstep\n")
    assert result.exit_code == 1
    out = replies(result)
    assert out["e pc"] == "PC/ 000000   000000"
    for command in ("go 100", "continue", "step"):
        verb = command.split()[0]
        assert out[command] == f"?{verb}: XCT 100 at 000100 executes itself forever"
    assert "3 command(s) failed" in result.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_picture_the_console_cannot_write_fails_it(programs: Programs) -> None:
    result = console(str(programs.echo), "--display-png", "/dev/full", commands="quit\n")
    assert result.exit_code == 1
    assert result.stderr == "pdp6: cannot write /dev/full: No space left on device\n"


def test_the_340_s_registers_without_a_340_say_how_to_attach_one(echo_console) -> None:
    r = echo_console("e dis.x\n", status=1)
    assert r["e dis.x"] == (
        "?examine: dis.x: no Type 340 on this machine (start the console with --display, "
        "--display-png FILE or --display-gif FILE)"
    )


def test_set_stack_takes_the_accumulator_s_name(echo_console) -> None:
    assert echo_console("set stack P\n")["set stack P"] == "stack pointer is AC 17"
