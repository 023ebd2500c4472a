"""The ``pdp6`` command: run, console, debug, disasm, bench."""

from __future__ import annotations

import functools
import math
import os
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import click

from .. import jit as jitmod
from ..formats.hostfiles import standard_output
from .options import (
    DisplaySettings,
    MachineSettings,
    ProgramSettings,
    Seconds,
    display_options,
    machine_options,
    program_options,
)

EXIT_TIME_LIMIT = 3
EXIT_INTERRUPTED = 130


class _Group(click.Group):
    """The command, its standard output flushed and guarded (a full device is one line on
    stderr, not a traceback: :func:`pdp6.formats.hostfiles.standard_output`), --help too."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        with standard_output("pdp6"):
            return super().main(*args, **kwargs)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pdp6-machack")
def main() -> None:
    """A faithful DEC PDP-6 emulator.

    \b
    Examples:
      pdp6 run echo.bin            run a program, the teletype on this terminal
      echo HELLO | pdp6 run echo.bin
                                   type HELLO to it, print what it types back
      pdp6 console echo.bin        examine, deposit, break, step, go (SIMH-like)
      pdp6 debug echo.mid          assemble with midas and debug at source level
      pdp6 disasm echo.bin         list a binary's words with symbols
      pdp6 bench                   time the instruction mix on every engine

    Each command has its own --help.  docs/console.md and docs/debugging.md walk
    through a session.
    """


@main.command()
@click.option(
    "--engine",
    type=click.Choice(["all", "compiled", "native", "python", "interpreter"]),
    default="all",
    show_default=True,
    help="Which execute loop to time: compiled (numba), native (hot PDP-6 blocks as "
    "machine code through LLVM, the rest compiled), python (plain Python, PDP-6 code "
    "translated block by block), interpreter (plain Python, one instruction at a time; "
    "the reference the translation is checked against).",
)
@click.option(
    "--rounds",
    type=click.IntRange(1, 100_000),
    default=None,
    help="Rounds of the mix (default: 2000 compiled and native, 200 python, 40 interpreter; "
    "~10,700 instructions a round).",
)
@click.option(
    "--why", is_flag=True, help="Say why the python engine left instructions to the interpreter."
)
def bench(engine: str, rounds: int | None, why: bool) -> None:
    """Time a fixed program mix: arithmetic, bytes, stack calls, indirection, a sort.

    Prints, for each engine: instructions per wall second, emulated PDP-6 seconds per
    wall second, and the time of the first call (one round on a fresh machine): the
    numba compile "(compiled)", loading the compiled code from its on-disk cache
    "(cached)", or translating the mix's blocks to Python or machine code "(translated)".  To time a
    fresh compile, delete the cache first: rm -r ~/.cache/pdp6-numba

    --why lists the reasons the python engine left instructions to the interpreter (a
    construct the translator refused names its routine and source line; see
    docs/machine.md).  A real program on each engine: machack bench-engines.
    """
    from ..cpu import engines
    from .bench import run_mix, why_lines

    wanted = engines.ALL_ENGINES if engine == "all" else (engine,)
    if "compiled" in wanted and not jitmod.ENABLED:
        raise click.UsageError(
            "the compiled engine needs numba (pip install numba) and PDP6_NOJIT unset"
        )
    click.echo(f"{'engine':<11}{'instr/s':>14} {'PDP-6 s per wall s':>19} {'first call':>11}")
    notes = []
    for name in wanted:
        n = rounds or {"compiled": 2000, "native": 2000, "python": 200}.get(name, 40)
        click.echo(f"running {name} engine, {n} rounds ...", err=True)
        r = run_mix(name, n, why)
        how = {"python": " (translated)", "native": " (translated)", "interpreter": ""}.get(
            name, " (compiled)" if r.compiled_now else " (cached)"
        )
        click.echo(
            f"{name:<11}{r.ips:>14,.0f} {r.speed_ratio:>19.1f} {r.first_call_s:>10.2f}s{how}"
        )
        if name == "python":
            notes.append(f"python: {r.translated:.1%} of the instructions ran in "
                         f"{r.blocks} translated blocks")  # fmt: skip
            if why:
                notes += ["left to the interpreter:", *why_lines(r.why, r.instructions)]
    for note in notes:
        click.echo(note)
    click.echo("(a real PDP-6 ran about 200,000 instructions a second)")


# --- shared by run, console and debug --------------------------------------------------
def _debugger(
    host: Any,
    machine: MachineSettings,
    grace_s: float = 2.0,
    program: ProgramSettings | None = None,
) -> Any:
    """The machine with its devices, on the engine asked for, or else on the compiled
    engine when it is built and on the python engine while it is being built (see
    pdp6.host.autoengine): the machine moves to the compiled engine between chunks.  The
    program options, if given, say how binaries are loaded and run."""
    from ..cpu import engines
    from ..machine import Machine
    from .autoengine import AutoEngine
    from .debugger import Debugger

    engine = machine.engine
    if engine is not None and engine not in engines.ALL_ENGINES:
        raise click.UsageError(
            f"the {engine} engine is not available here (numba missing or PDP6_NOJIT set)"
        )
    auto = AutoEngine(engine, say=host.note)
    dbg = Debugger(Machine(core_words=machine.core, engine=auto.engine), host,
                   baud=machine.baud, grace_us=grace_s * 1e6, note=host.note)  # fmt: skip
    dbg.m.apr.switches = machine.switches
    if program is not None:
        dbg.ignore_checksum = program.ignore_checksum
        dbg.repair_checksums = program.repair_checksums
        dbg.continue_halts = program.continue_halts
    dbg.between_chunks = lambda: auto.poll(dbg.m)
    click.get_current_context().call_on_close(auto.note_unfinished)
    return dbg


def _standard_input() -> str:
    """What standard input is: ``terminal`` (a person at the keyboard), ``stream`` (a
    pipe or a file), or ``background`` (a terminal of which this process is not the
    foreground job: ``timeout`` runs its command so).  A background job that reads or
    sets its terminal is stopped (SIGTTIN, SIGTTOU), and a SIGTERM may then never end
    it, so it leaves the terminal alone: no keys, no commands, as from /dev/null."""
    try:
        if not sys.stdin.isatty():
            return "stream"
        foreground = os.tcgetpgrp(sys.stdin.fileno()) == os.getpgrp()
    except (OSError, ValueError, AttributeError):  # (closed, or no terminal after all)
        return "stream"
    return "terminal" if foreground else "background"


def _host(
    interactive: bool, machine: MachineSettings, read_stdin: bool, by_line: bool = False
) -> Any:
    """The teletype's far side: this terminal (raw keyboard) or the standard streams
    (``by_line``: standard input typed a line at a time, see StreamHost)."""
    from .terminal import StreamHost, TerminalHost

    upcase, cps = not machine.lowercase, machine.pace_cps
    if interactive:
        return TerminalHost(0, sys.stdout.buffer, upcase=upcase, pace_cps=cps)
    source = sys.stdin.buffer if read_stdin else None
    return StreamHost(sys.stdout.buffer, source, upcase=upcase, pace_cps=cps, by_line=by_line)


def _start_at(dbg: Any, start: str | None) -> None:
    """The PC at --start, read with the program's symbols (a usage error naming the
    option if it is wrong: it can only be read once the program is loaded)."""
    from .debugger import DebugError

    if start is not None:
        try:
            dbg.m.pc = dbg.address(start)
        except DebugError as exc:
            raise click.BadParameter(str(exc), param_hint="'--start'") from None


def _attach_display(machine: Any, display: DisplaySettings) -> Any:
    """Put the Type 340 on the machine, if the options ask for it: a live window and/or
    picture files.  None if they do not."""
    if not display.wanted:
        return None
    live, png, gif = display.display, display.display_png, display.display_gif
    try:
        from .render import attach_display
    except ImportError:
        raise click.ClickException("display support not installed yet") from None
    from ..formats.hostfiles import OutputFileError

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            screen = attach_display(
                machine, png=str(png) if png else None, gif=str(gif) if gif else None, live=live
            )
        except OutputFileError as exc:
            raise click.ClickException(str(exc)) from None
    for warning in caught:
        click.echo(f"pdp6: {warning.message}", err=True)
    return screen


def _ends_on_signals(func: Callable[..., Any]) -> Callable[..., Any]:
    """A command that SIGTERM and SIGHUP end (pdp6.host.runner's ``ending_on_signals``): a run
    stops at its next chunk, a prompt or a read at once; one line says so and the status
    is 128 + the signal's number.  The command catches :class:`pdp6.host.runner.Terminated`
    itself where it has output to finish (see :func:`_say_terminated`)."""

    @functools.wraps(func)
    def command(*args: Any, **kwargs: Any) -> Any:
        from .runner import Terminated, ending_on_signals

        with ending_on_signals():
            try:
                return func(*args, **kwargs)
            except Terminated as exc:
                _say_terminated(exc)

    return command


def _finish_line(host: Any) -> None:
    """What the program printed, all of it; on a terminal, its last line ended (in a
    pipe the line is the program's: standard error stays one line)."""
    host.finish_output()
    if host.line_open and sys.stdout.isatty():
        click.echo("", err=True)


def _say_terminated(exc: Any, dbg: Any = None) -> None:
    """``pdp6: terminated by SIGTERM at PLACE after S s emulated``; exit 128 + signal."""
    where = ""
    if dbg is not None:
        where = f" at {dbg.name(dbg.m.pc)} after {dbg.m.elapsed_us / 1e6:.3f} s emulated"
    click.echo(f"pdp6: {exc}{where}", err=True)
    sys.exit(exc.exit_status)


# --- pdp6 run --------------------------------------------------------------------------
@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@machine_options
@program_options
@display_options
@click.option(
    "--max-seconds",
    type=Seconds(min=0, min_open=True),
    metavar="SECONDS",
    help="Stop after this much emulated PDP-6 time (exit status 3; inf: no limit).",
)
@click.option(
    "--trace",
    "trace_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write one line per instruction to this file: PC, instruction, results, "
    "flags (single-steps: about a thousand times slower).",
)
@click.option(
    "--grace",
    default=2.0,
    show_default=True,
    type=Seconds(min=0),
    metavar="SECONDS",
    help="With standard input not a terminal: after the input "
    "ends, stop once the program has waited this long (emulated) for more.",
)
@click.option(
    "--boot",
    is_flag=True,
    help="Read FILE in through the paper tape reader and "
    "the RIM loader at 20, as an operator would, instead of loading it directly.",
)
@click.option(
    "--ptr",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Mount this tape on the paper tape reader.",
)
@click.option(
    "--ptp",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write what the program punches to this file.",
)
@click.option(
    "--type-lines",
    is_flag=True,
    help="With standard input not a terminal: type it a line at a time, each line once "
    "the program waits for input again, as a person waits for the prompt; for programs "
    "that lose keys typed ahead (the 1960s Mac Hack).  The run is slower meanwhile.",
)
@click.option("-v", "--verbose", is_flag=True, help="Say why and where the run ended.")
@_ends_on_signals
def run(
    file: Path, machine: MachineSettings, program: ProgramSettings, display: DisplaySettings,
    max_seconds: float | None,
    trace_path: Path | None, grace: float, boot: bool, ptr: Path | None, ptp: Path | None,
    type_lines: bool, verbose: bool,
) -> None:  # fmt: skip
    """Load FILE (SBLK, RIM or RIM10, as midas writes or as the ITS archives keep them)
    and run it with the teletype here.

    On a terminal, keys go to the program one at a time (lower case is typed as upper
    case, as on a Model 35) and Ctrl-C stops the run.  When standard input is not a
    terminal, it is typed into the teletype and the teletype's output goes to standard
    output; the run ends when the program halts or waits for input that will never
    come; in the background (under timeout at a terminal, for one) the terminal is
    left alone, as if standard input were /dev/null.  Exit status: 0 halted or input
    done, 1 error, 2 a wrong command line (an unknown option, a missing file), 3
    --max-seconds reached, 130 stopped by Ctrl-C, 143 ended by SIGTERM (129 SIGHUP).

    \b
    Examples:
      pdp6 run echo.bin
      echo HELLO | pdp6 run echo.bin
      pdp6 run echo.bin --pace                   print at 10 characters a second
      pdp6 run echo.bin --trace echo.trace --max-seconds 1 < /dev/null
      pdp6 run echo.rim --boot                   read in through the RIM loader
      pdp6 run DIAG.BIN --core 32K --switches 777777000000 --start 100 --continue-halts 9
      pdp6 run "@ CHESS" --repair-checksums --core 32K
                                                 the 1960s Mac Hack, its damaged word mended
    """
    from ..formats.readin import toggle_rim_loader
    from .debugger import DebugError
    from .runner import Runner, Terminated

    if boot and ptr is not None:
        raise click.UsageError("--boot puts FILE on the paper tape reader: no room for --ptr")
    if boot and program.start is not None:
        raise click.UsageError("--boot starts the read-in loader at 20: no room for --start")
    if boot and (program.deposits or program.repair_checksums):
        raise click.UsageError("--boot reads FILE in through the RIM loader: --deposit and "
                               "--repair-checksums need it loaded directly")  # fmt: skip
    stdin = _standard_input()
    interactive = stdin == "terminal"
    host = _host(interactive, machine, read_stdin=stdin == "stream", by_line=type_lines)
    dbg = _debugger(host, machine, grace, program)
    try:
        if boot:
            dbg.attach_boot_tape(file)
            toggle_rim_loader(dbg.m)
        else:
            image = dbg.load(file)
            for note in dbg.load_notes + dbg.deposit_words(program.deposits):
                click.echo(f"pdp6: {note}", err=True)
            _start_at(dbg, program.start)
            if image.start is None and program.start is None:
                raise DebugError(
                    f"{file}: no start address (END with an address sets one; or --start)"
                )
        if ptr is not None:
            dbg.attach_tape("ptr", ptr)
        if ptp is not None:
            dbg.attach_tape("ptp", ptp)
    except DebugError as exc:
        raise click.ClickException(str(exc)) from None
    screen = _attach_display(dbg.m, display)
    hook = _trace_hook(trace_path, dbg)
    runner = Runner(dbg.m, dbg.tty, stop=dbg.stop_flag, grace_us=grace * 1e6, hook=hook)
    until = None
    if max_seconds is not None and math.isfinite(max_seconds * 1e6):  # (inf: no limit)
        until = dbg.m.elapsed_us + max_seconds * 1e6
    try:
        with host.raw() if interactive else nullcontext():
            outcome = dbg.through_halts(lambda: runner.run(until_us=until))
    except Terminated as exc:  # what the program printed, then one line
        _finish_line(host)
        for message in _write_outputs(screen, hook, dbg, punch=ptp is not None):
            click.echo(f"pdp6: {message}", err=True)
        _say_terminated(exc, dbg)
    host.finish_output()
    verbose = verbose or program.continue_halts > 0  # each halt is told: the last one too
    if host.line_open and (verbose or outcome.reason not in ("halt", "end of input")):
        click.echo("", err=True)  # end the teletype's line on the terminal, not in stdout
    failed = _write_outputs(screen, hook, dbg, punch=ptp is not None)
    status = {
        "time limit": EXIT_TIME_LIMIT,
        "interrupted": EXIT_INTERRUPTED,
        "stuck": 1,
        "trap loop": 1,
    }.get(outcome.reason, 0)
    if verbose or status:
        seconds = dbg.m.elapsed_us / 1e6
        click.echo(
            f"pdp6: {dbg.stop_text(outcome).splitlines()[0]} after {outcome.instructions} "
            f"instructions, {seconds:.3f} s emulated",
            err=True,
        )
    for message in failed:
        click.echo(f"pdp6: {message}", err=True)
    sys.exit(status or (1 if failed else 0))


def _trace_hook(path: Path | None, dbg: Any) -> Any:
    """The --trace writer, its file opened (and so checked) before the run."""
    from .trace import TraceHook

    if path is None:
        return None
    try:
        out = path.open("w", encoding="ascii")
    except OSError as exc:
        raise click.ClickException(f"cannot write trace {path}: {exc.strerror}") from None
    return TraceHook(dbg.m, out, dbg.table)


def _write_outputs(screen: Any, hook: Any, dbg: Any, punch: bool) -> list[str]:
    """Write the files of a finished run (pictures, trace, punch); every one is tried,
    and the messages of those that failed are returned."""
    from ..formats.hostfiles import OutputFileError
    from .debugger import DebugError

    finishers = [screen.finish if screen else None, hook.close if hook else None,
                 (lambda: dbg.detach("ptp")) if punch else None]  # fmt: skip
    failed = []
    for finish in filter(None, finishers):
        try:
            finish()
        except (OutputFileError, DebugError) as exc:
            failed.append(str(exc))
    return failed


# --- pdp6 console and pdp6 debug -----------------------------------------------------------
def _console_options(func: Callable[..., Any]) -> Callable[..., Any]:
    options = [
        click.option("-x", "--script", "scripts", multiple=True,
                     type=click.Path(exists=True, dir_okay=False, path_type=Path),
                     help="Run the console commands in this file first (repeatable)."),
        click.option("-c", "--command", "commands", multiple=True, metavar="COMMAND",
                     help="Run this console command first (repeatable)."),
    ]  # fmt: skip
    for option in reversed(options):
        func = option(func)
    return machine_options(display_options(func))


def _session(
    setup: Callable[[Any], None], scripts: tuple[Path, ...], commands: tuple[str, ...],
    machine: MachineSettings, display: DisplaySettings, prompt: str,
    program: ProgramSettings | None = None,
) -> None:  # fmt: skip
    """Build the machine, run ``setup``, the scripts and commands, then the prompt (on a
    terminal) or the commands on standard input."""
    from .console import Console, enable_line_editing
    from .debugger import DebugError
    from .runner import Terminated

    stdin = _standard_input()
    interactive = stdin == "terminal"
    host = _host(interactive, machine, read_stdin=False)
    dbg = _debugger(host, machine, program=program)
    screen = _attach_display(dbg.m, display)
    console = Console(dbg, sys.stdout, terminal=host if interactive else None, prompt=prompt)
    try:
        try:
            setup(console)
        except DebugError as exc:
            raise click.ClickException(str(exc)) from None
        going = True
        for path in scripts:
            going = going and console.execute(f"do {path}")
        if going:
            going = console.run_lines(commands, echo=True)
        if going:
            if interactive:
                enable_line_editing()
                console.interact(input)
            else:
                console.run_lines(sys.stdin if stdin == "stream" else (), echo=True)
    except Terminated as exc:  # at the prompt, reading a command or running: the end
        _finish_line(host)
        console.finish()
        for message in _write_outputs(screen, None, dbg, punch=False):
            click.echo(f"pdp6: {message}", err=True)
        _say_terminated(exc, dbg)
    console.finish()
    unwritten = _write_outputs(screen, None, dbg, punch=False)
    for message in unwritten:
        click.echo(f"pdp6: {message}", err=True)
    if console.failures:
        click.echo(f"pdp6: {console.failures} command(s) failed (the lines starting with ?)",
                   err=True)  # fmt: skip
    if console.failures or unwritten:
        sys.exit(1)


@main.command()
@click.argument(
    "file", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@_console_options
@program_options
@_ends_on_signals
def console(
    file: Path | None, scripts: tuple[Path, ...], commands: tuple[str, ...],
    machine: MachineSettings, program: ProgramSettings, display: DisplaySettings,
) -> None:  # fmt: skip
    """The programmer's console: examine, deposit, break, step, go, attach, boot, save.

    FILE (optional) is a binary to load first.  On a terminal the console prompts
    (help lists the commands); otherwise it reads commands from standard input (in the
    background, under timeout at a terminal for one, none: the terminal is left alone).
    While the machine runs the keyboard is the teletype's, and Ctrl-C stops it.  FILE
    may have spaces in its name ("bin/@ CHESS").

    \b
    Examples:
      pdp6 console echo.bin
      pdp6 console -c "attach ptr echo.rim" -c boot
      pdp6 console echo.bin < commands.txt
      pdp6 console -x setup.cmd
      pdp6 console --ignore-checksum CHESS.BIN -c checksum
    """

    def setup(con: Any) -> None:
        if file is not None:
            con.load(str(file))
        for note in con.dbg.deposit_words(program.deposits):
            con.say(note)
        if program.start is not None:
            _start_at(con.dbg, program.start)
            con.say(f"PC at {con.dbg.name(con.dbg.m.pc)} (--start)")

    _session(setup, scripts, commands, machine, display, "pdp6> ", program)


def _octal(_ctx: click.Context, _param: click.Parameter, value: str | None) -> int | None:
    if value is None:
        return None
    try:
        address = int(value, 8)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not an octal address") from None
    if not 0 <= address <= 0o777777:
        raise click.BadParameter(f"{value} is not an 18-bit address")
    return address


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--start", callback=_octal, default=None, metavar="OCTAL",
              help="Start here, not at FILE's start address.")  # fmt: skip
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on.")  # fmt: skip
@click.option("--port", type=click.IntRange(0, 65535), default=8340, show_default=True,
              help="The port (0: any free one).")  # fmt: skip
def web(file: Path, start: int | None, host: str, port: int) -> None:
    """FILE in a web page: its teletype beside its Type 340, live.

    Serves a page at http://127.0.0.1:8340/ (the address is printed); every tab loads
    FILE into a fresh machine with a 340 and runs it (closing the tab ends it).  Type
    on the teletype's paper; BELL (the button, or Ctrl-C) types the BELL key.  Needs the
    web extra: pip install 'pdp6-machack[web]'.  Ctrl-C here ends the server.
    """
    from ..machine import Machine
    from .autoengine import AutoEngine
    from .debugger import DebugError, Debugger
    from .terminal import StreamHost
    from .web.cli import serve_consoles
    from .web.program import ProgramConsole

    try:  # FILE is read now, so that one that cannot be loaded is said at once
        image = Debugger(Machine(), StreamHost(sys.stdout.buffer), baud=None).load(file)
    except DebugError as exc:
        raise click.ClickException(str(exc)) from None
    if image.start is None and start is None:
        raise click.ClickException(f"{file}: no start address (END with an address sets "
                                   "one; or --start)")  # fmt: skip
    engine = AutoEngine(say=lambda text: click.echo(text, err=True)).engine

    def make(send: Any) -> ProgramConsole:
        return ProgramConsole(send, file, start, engine)

    serve_consoles(make, f"{file.name} on the PDP-6", host, port)


@main.command()
@click.argument("source", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@_console_options
@click.option(
    "--midas-arg",
    "midas_args",
    multiple=True,
    metavar="ARG",
    help="Pass this argument to midas (repeatable), e.g. --midas-arg=--old.",
)
@_ends_on_signals
def debug(
    source: Path, scripts: tuple[Path, ...], commands: tuple[str, ...],
    machine: MachineSettings, display: DisplaySettings, midas_args: tuple[str, ...],
) -> None:  # fmt: skip
    """Assemble SOURCE with midas and debug it at source level.

    Breakpoints go on labels or FILE:LINE; step, next (over calls) and finish run the
    program; list shows the source around the PC, where the calls on the stack.  All
    console commands work too (help lists them).

    \b
    Examples:
      pdp6 debug echo.mid
      pdp6 debug echo.mid -c "break TYO" -c go
    """
    try:
        head = source.read_bytes()[:4096]
    except OSError as exc:
        raise click.ClickException(f"cannot read {source}: {exc.strerror}") from None
    if b"\0" in head:  # (midas would read it as text and stumble on the first odd byte)
        raise click.ClickException(f"{source} is not a MIDAS source but a binary file: "
                                   f"'pdp6 console {source}' loads a binary")  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="pdp6-debug-") as tmp:
        binary = Path(tmp) / (source.stem + ".bin")
        _assemble(source, binary, midas_args)

        def setup(con: Any) -> None:
            con.dbg.load(binary)
            start = con.dbg.m.pc
            con.say(
                f"{source}: assembled and loaded; PC at {con.dbg.name(start)}. "
                "Type help for commands."
            )
            line = con.dbg.source_line(start)
            if line:
                con.say(line)

        _session(setup, scripts, commands, machine, display, "debug> ")


def _assemble(source: Path, binary: Path, midas_args: tuple[str, ...]) -> None:
    """Run the midas command (a separate program: pdp6 does not import the assembler)."""
    argv = [sys.executable, "-m", "midas", str(source.resolve()), "-o", str(binary),
            "--map", str(binary.with_suffix(".map")), *midas_args]  # fmt: skip
    env = dict(os.environ)
    here = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = here + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run(argv, capture_output=True, text=True, env=env)
    if done.stderr:
        click.echo(done.stderr.rstrip(), err=True)
    if done.returncode != 0:
        raise click.ClickException(f"midas could not assemble {source}")


# --- pdp6 disasm --------------------------------------------------------------------------
@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--map",
    "map_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Line map to take symbols and source lines from (default: FILE.map if it is there).",
)
@click.option("--no-symbols", is_flag=True, help="Numbers only, no symbolic addresses.")
@click.option(
    "--ignore-checksum",
    is_flag=True,
    help="List SBLK blocks whose checksum disagrees too, with a warning for each.",
)
def disasm(file: Path, map_path: Path | None, no_symbols: bool, ignore_checksum: bool) -> None:
    """List the words a binary (SBLK or RIM) loads: address, label, word, instruction.

    \b
    Examples:
      pdp6 disasm echo.bin
      pdp6 disasm echo.rim --no-symbols
    """
    from ..disasm import SymbolTable
    from ..formats.loader import LoaderError, load_file, read_line_map
    from ..word import halves
    from .debugger import program_symbols, typeout

    try:
        image = load_file(file, ignore_checksum)
        default_map = file.with_suffix(".map")
        use_map = map_path is not None or default_map.exists()
        line_map = read_line_map(map_path or default_map) if use_map else None
    except LoaderError as exc:
        raise click.ClickException(str(exc)) from None
    for block in image.bad_blocks:
        click.echo(f"pdp6: {block.warning()}", err=True)
    symbols, hidden = program_symbols(image, line_map)
    shown = {} if no_symbols else {n: v for n, v in symbols.items() if n not in hidden}
    table = SymbolTable(shown)
    labels: dict[int, list[str]] = {}
    for name, value in shown.items():
        labels.setdefault(value, []).append(name)
    previous = None
    for addr in sorted(image.words):
        if previous is not None and addr != previous + 1:
            click.echo("")
        previous = addr
        word = image.words[addr]
        label = next((n for n in sorted(labels.get(addr, [])) if table.symbolic(addr) == n), "")
        click.echo(
            f"{addr:06o}  {label + ':' if label else '':<8} {halves(word)}  {typeout(word, table)}"
        )
    if image.start is not None:
        click.echo(f"\nstart {table.symbolic(image.start) or ''} ({image.start:06o})")


if __name__ == "__main__":  # pragma: no cover
    main()
