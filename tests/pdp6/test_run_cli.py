"""``pdp6 run`` and ``pdp6 disasm`` driven through their command line (click's runner, and
one real subprocess with a pipe): teletype over standard input and output, RIM and SBLK,
read-in, time limits, the trace, tapes, the display, and clear errors."""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pdp6.host.cli import main

from .console_helpers import (
    ROOT,
    Programs,
    assemble,
    pdp6_command,
    programs_fixture,  # noqa: F401  (the programs fixture)
    subprocess_env,
)


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, ["run", *args], input=input)


def program(tmp_path: Path, name: str, source: str) -> Path:
    src = tmp_path / f"{name}.mid"
    src.write_text(source)
    return assemble(src, tmp_path / f"{name}.bin")


# --- the teletype on standard input and output ---------------------------------------------
def test_echo_reads_standard_input_and_ends_with_it(programs: Programs) -> None:
    result = run(str(programs.echo), "--engine", "python", input="hello\nP-K4\n")
    assert result.exit_code == 0, result.output
    # Lower case is typed as upper case (a Model 35 has none); CR LF comes out as \n.
    assert result.stdout == "ECHO READY\nHELLO\nP-K4\n"


def test_interrupt_driven_echo(programs: Programs) -> None:
    result = run(str(programs.echoint), "--engine", "python", "--lowercase", input="Abc\n")
    assert result.exit_code == 0, result.output
    assert result.stdout == "Abc\n"


def test_a_real_pipe_into_a_subprocess(programs: Programs) -> None:
    done = subprocess.run(
        [*pdp6_command(), "run", str(programs.echo)], input=b"HELLO\n",
        capture_output=True, env=subprocess_env(), timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == b"ECHO READY\nHELLO\n"
    assert b"Traceback" not in done.stderr


def test_rim_file_loads_directly_and_through_the_read_in_loader(programs: Programs) -> None:
    for extra in ([], ["--boot"]):
        result = run(str(programs.echo_rim), "--engine", "python", "--baud", "fast", *extra,
                     input="OK\n")  # fmt: skip
        assert result.exit_code == 0, result.output
        assert result.stdout == "ECHO READY\nOK\n", extra


def test_verbose_says_why_the_run_ended(programs: Programs) -> None:
    result = run(str(programs.echo), "--engine", "python", "--baud", "fast", "-v", input="")
    assert result.exit_code == 0
    assert re.search(r"waiting for input \(none left\) at TYI\+?1? \(00011[67]\)", result.stderr)


def test_max_seconds_stops_in_emulated_time(programs: Programs) -> None:
    result = run(str(programs.echo), "--engine", "python", "--max-seconds", "0.35", input="")
    assert result.exit_code == 3
    assert result.stdout in ("ECH", "ECHO")  # 3 or 4 characters at 10 a second
    assert "time limit reached" in result.stderr and "0.350 s emulated" in result.stderr


def test_halting_program_ends_the_run(tmp_path: Path) -> None:
    binary = program(tmp_path, "hi", 'GO:\tMOVEI 1,"H\n\tDATAO TTY,1\n\tHALT .\n\tEND GO\n')
    result = run(str(binary), "--engine", "python", "-v", input="")
    assert result.exit_code == 0
    assert result.stdout == "H"  # the program's output as it is
    assert "halted at GO+2 (000102)" in result.stderr


# --- trace ----------------------------------------------------------------------------------
def test_trace_writes_one_line_per_instruction(programs: Programs, tmp_path: Path) -> None:
    trace = tmp_path / "echo.trace"
    result = run(str(programs.echo), "--engine", "python", "--baud", "fast",
                 "--trace", str(trace), "--grace", "0.01", "-v", input="A")  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = trace.read_text().splitlines()
    count = int(re.search(r"after (\d+) instructions", result.stderr).group(1))
    # The runner's loop sampling also runs instructions, and all of them are traced.
    assert len(lines) >= count
    assert re.fullmatch(r"000100 GO +MOVE 17,PDL\+20 +17=777760,,000131 +flags 000000", lines[0])
    assert re.match(r"000103 GREET +ILDB 1,2 +2=350700,,000127 1=000000,,000105", lines[3])
    assert any(re.match(r"000120 TYI\+2 +DATAI TTY,1 +1=000000,,000101", ln) for ln in lines)
    assert all(re.match(r"\d{6} ", ln) and "flags" in ln for ln in lines)


def test_trace_marks_interrupt_instructions(programs: Programs, tmp_path: Path) -> None:
    trace = tmp_path / "echoint.trace"
    result = run(str(programs.echoint), "--engine", "python", "--baud", "fast",
                 "--trace", str(trace), "--grace", "0.01", input="Z")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert re.search(r"^000042 PI1 +JSR TTYINT +TTYINT=", trace.read_text(), re.M)


# --- tapes -----------------------------------------------------------------------------------
PUNCH = """GO:\tCONO PTP,10\t\t; ready
\tMOVE 2,[440700,,TEXT]
NEXT:\tILDB 1,2
\tJUMPE 1,DONE
\tCONSO PTP,10
\tJRST .-1
\tDATAO PTP,1
\tJRST NEXT
DONE:\tCONSO PTP,10
\tJRST .-1
\tHALT .
TEXT:\tASCIZ /HI!/
\tEND GO
"""

COPY = """GO:\tCONO PTR,20\t\t; ASCII mode, start reading
\tCONO TTY,10
LOOP:\tCONSO PTR,10
\tJRST .-1
\tDATAI PTR,1
\tCONSO TTY,10
\tJRST .-1
\tDATAO TTY,1
\tJRST LOOP
\tEND GO
"""


def test_punch_and_reader_files(tmp_path: Path) -> None:
    tape = tmp_path / "out.tape"
    result = run(str(program(tmp_path, "punch", PUNCH)), "--engine", "python",
                 "--ptp", str(tape), input="")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert tape.read_bytes() == b"HI!"
    result = run(str(program(tmp_path, "copy", COPY)), "--engine", "python", "--baud", "fast",
                 "--ptr", str(tape), input="")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.stdout == "HI!"  # as typed: no newline is added to a script's output


def test_boot_refuses_a_tape_the_read_in_loader_cannot_read(
    programs: Programs, tmp_path: Path
) -> None:
    """Read in, such a tape is executed as garbage (or reads as nothing) and the run never
    ended, even with the input at its end; now it is refused before the machine starts."""
    snap = tmp_path / "echo.snap"
    console_result = CliRunner().invoke(main, ["console", str(programs.echo), "-c",
                                               f"save {snap}"], input="")  # fmt: skip
    assert console_result.exit_code == 0, console_result.output
    noise = tmp_path / "noise.tape"
    noise.write_bytes(random.Random(2).randbytes(900))
    expected = {
        snap: f"{snap} is a machine snapshot, not a binary: restore it in the console "
        f"(pdp6 console -c 'restore {snap}')",
        noise: f"{noise} cannot be read in: its binary frames do not make a RIM or SBLK tape",
    }
    for tape, message in expected.items():
        done = subprocess.run(
            [*pdp6_command(), "run", "--boot", str(tape)], stdin=subprocess.DEVNULL,
            capture_output=True, text=True, env=subprocess_env(), timeout=60,
        )  # fmt: skip
        assert (done.returncode, done.stderr) == (1, f"Error: {message}\n")


def test_boot_with_a_second_tape_is_a_usage_error(programs: Programs, tmp_path: Path) -> None:
    """--ptr used to replace the tape being read in, silently."""
    result = run(str(programs.echo_rim), "--boot", "--ptr", str(programs.echo_rim), input="")
    assert result.exit_code == 2
    assert "--boot puts FILE on the paper tape reader: no room for --ptr" in result.output


# --- the display --------------------------------------------------------------------------
def test_display_png_renders_the_340(tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    refresh = ROOT / "tests/pdp6/programs/dis340_refresh.mid"
    if not refresh.exists():
        pytest.skip("the 340 test program is not in this checkout")
    binary = assemble(refresh, tmp_path / "refresh.bin")
    png = tmp_path / "screen.png"
    result = run(str(binary), "--engine", "python", "--display-png", str(png),
                 "--max-seconds", "0.1", input="")  # fmt: skip
    assert result.exit_code in (0, 3), result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --- output files ---------------------------------------------------------------------------
def test_output_files_are_checked_before_the_run(programs: Programs, tmp_path: Path) -> None:
    """A picture used to be written only after the whole run, and then fail with a
    traceback; every output file is now checked before the machine starts."""
    pytest.importorskip("PIL")
    target = tmp_path / "no" / "dir" / "out.file"
    missing = f"cannot write {target}: there is no directory {target.parent}"
    expected = {"--display-png": missing, "--display-gif": missing, "--ptp": missing,
                "--trace": f"cannot write trace {target}: No such file or directory"}  # fmt: skip
    for option, message in expected.items():
        result = run(str(programs.echo), "--engine", "python", option, str(target), input="")
        # one line, and nothing from the program: it never ran
        assert (result.exit_code, result.output) == (1, f"Error: {message}\n"), option


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_write_that_fails_at_the_end_is_one_line(programs: Programs, tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    punch = program(tmp_path, "punch", PUNCH)
    for binary, option in ((programs.echo, "--display-png"), (programs.echo, "--display-gif"),
                           (programs.echo, "--trace"), (punch, "--ptp")):  # fmt: skip
        result = run(str(binary), "--engine", "python", "--baud", "fast", option, "/dev/full",
                     input="A\n")  # fmt: skip
        assert result.exit_code == 1, option
        assert result.stderr == "pdp6: cannot write /dev/full: No space left on device\n"
        assert result.exception is None or isinstance(result.exception, SystemExit)


# --- errors -------------------------------------------------------------------------------
def test_missing_file_is_a_usage_error() -> None:
    result = run("no-such.bin")
    assert result.exit_code == 2
    assert "no-such.bin" in result.output and "does not exist" in result.output


def test_file_that_is_not_a_binary(tmp_path: Path) -> None:
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x80not a PDP-6 binary")
    result = run(str(junk))
    assert result.exit_code == 1
    assert f"Error: {junk}: 19 bytes is not a whole number of 9-byte word pairs" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_midas_source_where_a_binary_belongs(programs: Programs) -> None:
    source = programs.dir / "echo.mid"
    assert source.stat().st_size % 9 == 0  # it decodes as words: it used to "load" nothing
    hint = (f"{source} looks like a MIDAS source: assemble it with "
            f"`midas {source} -o {programs.dir / 'echo.bin'}`")  # fmt: skip
    for command in (["run", str(source)], ["disasm", str(source)], ["run", "--boot", str(source)]):
        result = CliRunner().invoke(main, command, input="")
        assert (result.exit_code, result.output) == (1, f"Error: {hint}\n"), command


def test_text_snapshots_and_empty_binaries_are_refused(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("sixteen letters\n\n")  # 18 bytes: two word pairs
    snap = tmp_path / "m.snap"
    snap.write_bytes(b"PDP6SNAP 1\n" + bytes(range(200, 250)))
    nothing = tmp_path / "nothing.bin"
    nothing.write_bytes(bytes([0o377]) + bytes(8))  # one transfer word and a pad: no words
    expected = {
        notes: f"{notes} is a text file, not a PDP-6 binary (SBLK or RIM, as midas writes)",
        snap: f"{snap} is a machine snapshot, not a binary: restore it in the console "
        f"(pdp6 console -c 'restore {snap}')",
        nothing: f"{nothing}: it loads no words: not an SBLK or RIM binary",
    }
    for path, message in expected.items():
        for command in ("run", "disasm"):
            result = CliRunner().invoke(main, [command, str(path)], input="")
            assert (result.exit_code, result.output) == (1, f"Error: {message}\n"), command


def test_bad_baud_and_engine_options(programs: Programs) -> None:
    result = run(str(programs.echo), "--baud", "slow")
    assert result.exit_code == 2 and "'slow': a line speed such as 110, or 'fast'" in result.output
    result = run(str(programs.echo), "--engine", "turbo")
    assert result.exit_code == 2 and "turbo" in result.output


def test_program_that_would_trap_forever_is_not_started(tmp_path: Path) -> None:
    result = run(str(program(tmp_path, "uuo", "GO:\t0\n\tEND GO\n")), input="")
    assert result.exit_code == 1
    assert "would trap forever" in result.stderr


def test_a_program_that_runs_into_zeroed_core_stops_saying_why(tmp_path: Path) -> None:
    """Without its HALT the program runs on into a data word (a UUO) with nothing in 41:
    the run used to go on until Ctrl-C; it stops there, saying why."""
    source = "A=1\nGO:\tMOVEI A,5\n\tMOVEM A,RESULT\nRESULT:\t0\n\tEND GO\n"
    result = run(str(program(tmp_path, "nohalt", source)), input="")
    assert result.exit_code == 1
    assert result.stderr.startswith("pdp6: the instruction at 000102 is a UUO (000000000005)")
    assert "would trap forever" in result.stderr


def test_an_idle_loop_that_is_not_the_teletype_is_not_called_waiting_for_input(
    tmp_path: Path,
) -> None:
    """It used to be reported as waiting for input, which the program never asked for."""
    result = run(str(program(tmp_path, "idle", "GO:\tMOVEI 1,5\n\tJRST .\n\tEND GO\n")),
                 "-v", input="")  # fmt: skip
    assert result.exit_code == 0
    idle = "pdp6: the program is idle in a loop that does not use the teletype: a JRST . at"
    assert result.stderr.startswith(idle) and "the Type 340 needs a --display" in result.stderr


def test_debug_refuses_a_binary_naming_the_command_that_loads_one(programs: Programs) -> None:
    result = CliRunner().invoke(main, ["debug", str(programs.echo)], input="")
    assert result.exit_code == 1
    assert result.output == (f"Error: {programs.echo} is not a MIDAS source but a binary file: "
                             f"'pdp6 console {programs.echo}' loads a binary\n")  # fmt: skip


# --- pdp6 disasm --------------------------------------------------------------------------
def test_disasm_lists_words_with_symbols(programs: Programs) -> None:
    result = CliRunner().invoke(main, ["disasm", str(programs.echo)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "000100  GO:      200740,,000152  MOVE 17,PDL+20" in out
    assert "000116  TYI:     712340,,000040  CONSO TTY,40" in out
    assert "000125           712140,,000001  DATAO TTY,1" in out
    assert out.rstrip().endswith("start GO (000100)")
    plain = CliRunner().invoke(main, ["disasm", str(programs.echo_rim), "--no-symbols"])
    assert "000100           200740,,000152  MOVE 17,152" in plain.output
    assert "GO" not in plain.output.replace("GOTO", "")


def test_disasm_of_a_file_that_is_not_a_binary(tmp_path: Path) -> None:
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x80yz")
    result = CliRunner().invoke(main, ["disasm", str(junk)])
    assert result.exit_code == 1
    assert (
        result.output == f"Error: {junk}: 3 bytes is not a whole number of 9-byte word "
        "pairs (3 bytes left over at offset 0)\n"
    )


# --- when a run ends, and how it idles -------------------------------------------------------
SLOW = """GO:\tCONO TTY,10
\tCONSO TTY,40\t\t; wait for a key
\tJRST .-1
\tDATAI TTY,1
\tMOVE 2,[2000000]\t; then compute for about 3 s of emulated time:
\tSOJG 2,.\t\t; a tight loop, but one that changes something
\tDATAO TTY,1\t\t; and answer
\tCONSO TTY,10
\tJRST .-1
\tJRST GO+1
\tEND GO
"""


def test_a_long_computation_after_the_last_input_is_not_cut_short(tmp_path: Path) -> None:
    result = run(str(program(tmp_path, "slow", SLOW)), "--engine", "python", "-v", input="Z")
    assert result.exit_code == 0, result.output
    assert result.stdout == "Z"  # typed after nearly 3 s of emulated time: past the grace
    assert "waiting for input (none left)" in result.stderr
    seconds = float(re.search(r"([\d.]+) s emulated", result.stderr).group(1))
    assert seconds > 4.5  # nearly 3 s computing, then the 2 s grace


def test_a_program_waiting_for_a_person_idles_at_wall_clock_speed() -> None:
    import time

    from pdp6 import Machine
    from pdp6.devices import ScriptedHost, Teletype
    from pdp6.host.runner import Runner
    from pdp6.host.typein import parse_word

    m = Machine(engine="python")
    m.memory[0o100] = parse_word("JRST 100")  # waits for an interrupt that never comes
    m.pc = 0o100
    tty = m.attach(Teletype(ScriptedHost(eof=False)))  # a keyboard that may yet type
    wall, cpu = time.monotonic(), time.process_time()
    outcome = Runner(m, tty).run(until_us=600_000)
    wall, cpu = time.monotonic() - wall, time.process_time() - cpu
    assert outcome.reason == "time limit"
    assert wall > 0.4  # 0.6 s of emulated time took about as long on the wall clock
    assert cpu < 0.6 * wall  # mostly asleep


def test_a_runner_with_a_wall_time_per_chunk_takes_longer_chunks_when_they_are_quick() -> None:
    """``chunk_wall_s``: a program that computes fast runs in chunks of emulated time
    grown to take about that wall time (the web console's host looks in far less often),
    never below the fixed chunk nor above the longest; without it the chunk stays fixed."""
    from pdp6 import Machine
    from pdp6.host import runner as runner_module
    from pdp6.host.runner import Runner
    from pdp6.host.typein import parse_word

    def chunks(**options: float) -> tuple[list[float], Runner]:
        m = Machine(engine="python")
        m.memory[0o100] = parse_word("AOJA 1,100")  # computes (AC 1 changes): never idle
        m.pc = 0o100
        seen: list[float] = []
        runner = Runner(m, between=lambda: seen.append(m.elapsed_us), **options)
        runner.run(until_us=5_000_000)
        return [b - a for a, b in zip(seen, seen[1:], strict=False)], runner

    fixed, runner = chunks()
    least = runner_module.CHUNK_US  # (a chunk ends at the first instruction past its end)
    assert max(fixed) < least + 1_000 and runner.chunk_us == least
    fitted, runner = chunks(chunk_wall_s=0.25)  # (long: a loaded machine runs slowly)
    assert least < runner.chunk_us <= runner_module.MAX_CHUNK_US
    assert len(fitted) < len(fixed) / 4 and min(fitted[:-1]) >= least
