"""The programmer's console: a command interpreter over a :class:`pdp6.host.debugger.Debugger`.

``pdp6 console`` and ``pdp6 debug`` read commands from a terminal (with line editing),
from standard input, from ``-c``/``-x`` options or from ``do FILE`` scripts.  Commands
look like SIMH's (``examine``, ``deposit``, ``go``, ``break``, ``attach``, ``boot``,
``save``/``restore``, ``do``) with gdb's for source-level work (``step``, ``next``,
``finish``, ``list``, ``where``, ``watch``), and values are typed DDT-style
(``d LOOP+3 MOVE 1,@BAR(2)``).  A command that cannot be done prints one line saying why
and the prompt comes back; nothing a person types produces a traceback.
"""

from __future__ import annotations

import re
import shlex
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TextIO

from ..formats.hostfiles import read_input
from ..formats.snapshot import read_snapshot, restore, save, unsaved_devices
from ..iobus import Device, Reg
from ..machine import APR, PI
from ..word import halves
from .debugger import DebugError, Debugger, StopReport, flag_names
from .runner import Terminated
from .terminal import StreamHost, TerminalHost
from .typein import parse_word

MAX_RANGE = 1000  # words one examine may print
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class CommandError(ValueError):
    """A command that cannot be carried out; shown as ``COMMAND: message``."""


@dataclass(frozen=True)
class Command:
    names: tuple[str, ...]
    usage: str
    summary: str
    detail: str = ""
    examples: tuple[str, ...] = ()


COMMANDS: tuple[Command, ...] = (
    Command(("examine", "e"), "examine LOC...", "show words, octal and symbolic",
            "LOC is an address or symbol expression, FILE:LINE, a range A:B, A/COUNT "
            "(octal count) or A-B (octal numbers), or pc, flags, switches, or a device's "
            "register DEV.NAME (show devices lists them)",
            ("e 100", "e LOOP+3", "e GO:GO+5", "e 100/10", "e pc flags", "e tty.input_flag")),
    Command(("deposit", "d"), "deposit LOC VALUE", "store a word",
            "VALUE is octal, a symbol expression, L,,R halves or an instruction; LOC may be "
            "a range (every word gets VALUE), pc, flags, switches or a device's register "
            "DEV.NAME",
            ("d 100 MOVEI 1,5", "d 1 -1", "d 200:210 0", "d pc GO", "d 5 1,,2", "d tty.pia 3")),
    Command(("step", "s"), "step [N]", "execute N instructions (default 1), into calls",
            examples=("step", "step 10")),
    Command(("next", "n"), "next [N]", "step, but over calls",
            "a PUSHJ, JSR, JSP or JSA call or a UUO runs until it returns to the next "
            "instruction or skips it", ("next", "next 3")),
    Command(("finish", "fin"), "finish", "run until the current PUSHJ subroutine returns"),
    Command(("go", "g"), "go [LOC]", "run from LOC (default: the PC)",
            "Ctrl-C stops the machine and returns to the prompt", ("go", "go GO")),
    Command(("continue", "c", "cont"), "continue", "run from the PC"),
    Command(("break", "b"), "break [read|write] LOC", "set a breakpoint (no LOC: list them)",
            "an execute breakpoint stops before the instruction at LOC runs (full speed); "
            "read and write breakpoints stop after an instruction reads or writes LOC "
            "(the machine is single-stepped, about a thousand times slower)",
            ("break TYO", "break echo.mid:20", "break write COUNT")),
    Command(("watch", "w"), "watch LOC", "stop when the word at LOC changes",
            examples=("watch COUNT",)),
    Command(("delete", "nobreak"), "delete LOC|all", "remove breakpoints and watches",
            examples=("delete TYO", "delete all")),
    Command(("list", "l"), "list [LOC]", "show the source around LOC (default: the PC)",
            "a FILE:LINE shows that line itself, code or not"),
    Command(("where", "bt", "backtrace"), "where", "where the PC is and the calls that led there",
            "calls are found from the PUSHJ return addresses on the stack"),
    Command(("stack",), "stack [N]", "the top N words of the stack (default 8)"),
    Command(("registers", "regs"), "registers", "PC, flags, accumulators, APR, PI, time"),
    Command(("show",), "show WHAT", "show registers, devices, breaks, symbols [PREFIX], stack",
            examples=("show devices", "show symbols T")),
    Command(("attach", "at"), "attach ptr|ptp FILE", "mount a tape or a punch file",
            "a midas binary (RIM or SBLK) on the reader is read as binary frames; any other "
            "file is taken as frames; the punch file is written at detach or quit",
            ("attach ptr echo.rim", "attach ptp out.tape")),
    Command(("detach", "det"), "detach ptr|ptp", "remove a tape; the punch writes its file"),
    Command(("load",), "load FILE [MAP]", "load an SBLK or RIM binary with its symbols",
            "FILE.map (the line map midas writes) is read if it is there; quote a name "
            "with spaces",
            ("load echo.bin", 'load "bin/@ CHESS"')),
    Command(("checksum",), "checksum [LOC]", "blocks loaded despite their checksum; a repair",
            "after pdp6 console --ignore-checksum: with no LOC, the blocks whose checksum "
            "disagreed; with LOC (a word of one of them), the one value of that word the "
            "checksum implies, as the deposit that stores it (which word is damaged the "
            "checksum cannot tell: look for the one that makes no sense)",
            ("checksum", "checksum 1234")),
    Command(("boot",), "boot [FILE]", "read in a paper tape",
            "toggles the RIM loader in at 20 and starts it on the tape in the reader "
            "(FILE is attached first if given)", ("boot echo.rim",)),
    Command(("save",), "save FILE", "save the whole machine state"),
    Command(("restore",), "restore FILE", "restore a saved machine state"),
    Command(("do",), "do FILE", "run the commands in FILE"),
    Command(("type",), "type TEXT", "queue keys for the teletype",
            'type TEXT sends TEXT and RETURN; type "TEXT" sends it as it is, with \\r for '
            'RETURN, \\n, \\t, \\\\ and \\"', ("type P-K4", 'type "Y\\r"')),
    Command(("set",), "set WHAT VALUE", "set tty BAUD|fast, stack AC, switches VALUE",
            examples=("set tty fast", "set stack 16", "set switches 1,,0")),
    Command(("reset",), "reset", "I/O reset: clear devices, PI and APR flags"),
    Command(("help", "h", "?"), "help [COMMAND]", "list the commands, or explain one"),
    Command(("quit", "q", "exit"), "quit", "leave (the punch file is written)"),
)  # fmt: skip
_BY_NAME = {name: cmd for cmd in COMMANDS for name in cmd.names}


class Console:
    """Reads commands and carries them out on ``dbg``; ``terminal`` (when the console is a
    real terminal) gets the keyboard and raw mode while the machine runs."""

    def __init__(
        self,
        dbg: Debugger,
        out: TextIO,
        *,
        terminal: TerminalHost | None = None,
        prompt: str = "pdp6> ",
    ) -> None:
        self.dbg = dbg
        self.out = out
        self.terminal = terminal
        self.prompt = prompt
        self.depth = 0  # nesting of do scripts
        self.failures = 0  # commands refused or failed (scripts: the exit status)
        self.handlers: dict[str, Callable[[str], bool | None]] = {
            cmd.names[0]: getattr(self, "cmd_" + cmd.names[0]) for cmd in COMMANDS
        }

    # --- input ------------------------------------------------------------------------
    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def fail(self, text: str) -> None:
        """Say why a command could not be done (one line starting with ``?``, control
        characters from the command shown escaped); count it."""
        self.failures += 1
        self.say("?" + _CONTROL.sub(lambda m: repr(m.group())[1:-1], text))

    def execute(self, line: str) -> bool:
        """Carry out one command line; False when the console should end."""
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            return True
        word, _, rest = line.partition(" ")
        cmd = _BY_NAME.get(word.lower())
        if cmd is None:
            self.fail(f"unknown command {word!r} (type help for the list)")
            return True
        try:
            return self.handlers[cmd.names[0]](rest.strip()) is not False
        except (ValueError, IndexError) as exc:  # ours (all ValueErrors), or the machine's
            self.fail(f"{cmd.names[0]}: {exc}")
        except KeyboardInterrupt:
            self.fail(f"{cmd.names[0]}: interrupted")
        return True

    def run_lines(self, lines: Iterable[str], echo: bool) -> bool:
        """Commands from a script; False if one of them was quit."""
        for line in lines:
            if echo and line.strip() and not line.lstrip().startswith(("#", ";")):
                self.say(f"{self.prompt}{line.rstrip()}")
            if not self.execute(line):
                return False
        return True

    def interact(self, read: Callable[[str], str]) -> None:
        """The prompt loop: ``read(prompt)`` returns a line, raises EOFError at the end.
        A person sees each refusal and types again, so these do not count in ``failures``."""
        failures = self.failures
        try:
            while True:
                try:
                    line = read(self.prompt)
                except EOFError:
                    self.say("")
                    return
                except KeyboardInterrupt:
                    self.say("^C")
                    continue
                except Terminated:  # SIGTERM at the prompt: the end (pdp6.host.runner)
                    self.say("")
                    raise
                if not self.execute(line):
                    return
        finally:
            self.failures = failures

    def finish(self) -> None:
        """Leaving: write the punch file, if one is attached."""
        if "ptp" in self.dbg.tape_files:
            try:
                self.say(self.dbg.detach("ptp"))
            except DebugError as exc:
                self.fail(str(exc))

    # --- running ----------------------------------------------------------------------
    def _run(self, action: Callable[[], StopReport]) -> StopReport:
        """Run the machine with the keyboard on the teletype, then report the stop (a
        machine that could not start, as ``step`` would refuse it, is a failed command)."""
        self.out.flush()
        if self.terminal is not None:
            with self.terminal.raw():
                report = action()
        else:
            report = action()
        host = self.dbg.host
        if isinstance(host, StreamHost):
            host.finish_output()
            if host.line_open:
                self.say("")
                host.line_open = False
        if report.outcome.reason == "stuck":
            raise CommandError(report.outcome.message or report.text)
        self.say(report.text)
        return report

    def _count(self, arg: str, what: str) -> int:
        if not arg:
            return 1
        n = _digits(arg, 10)
        if n is None:
            raise CommandError(f"{what} wants a decimal count, not {arg!r}")
        if n < 1:
            raise CommandError(f"{what} wants a count of at least 1")
        return n

    def _repeat(self, arg: str, what: str, action: Callable[[], StopReport]) -> None:
        """``action`` up to N times, stopping early if the machine stops for a reason."""
        for _ in range(self._count(arg, what)):
            if self._run(action).outcome.reason != "step" or self._interrupted():
                return

    def _interrupted(self) -> bool:
        """Ctrl-C was typed on the terminal (in raw mode it arrives as a key)."""
        host = self.terminal
        if host is None:
            return False
        host.poll()
        if host.stop_requested:
            host.stop_requested = False
            self.say("interrupted")
            return True
        return False

    def cmd_step(self, arg: str) -> None:
        self._repeat(arg, "step", self.dbg.step)

    def cmd_next(self, arg: str) -> None:
        self._repeat(arg, "next", self.dbg.next)

    def cmd_finish(self, arg: str) -> None:
        self._no_args(arg, "finish")
        self._run(self.dbg.finish)

    def cmd_go(self, arg: str) -> None:
        addr = self.dbg.address(arg) if arg else None
        self._run(lambda: self.dbg.go(addr))

    def cmd_continue(self, arg: str) -> None:
        self._no_args(arg, "continue")
        self._run(self.dbg.resume)

    def cmd_boot(self, arg: str) -> None:
        if arg:
            self.say(self.dbg.attach_boot_tape(arg))
        self._run(self.dbg.boot)

    # --- examine and deposit -----------------------------------------------------------
    def _locations(self, spec: str) -> list[int]:
        """The addresses a LOC names: one address, A:B, A/COUNT or A-B (bare octal)."""
        dbg = self.dbg
        m = re.fullmatch(r"([0-7]+)-([0-7]+)", spec)
        if m:
            low, high = int(m.group(1), 8), int(m.group(2), 8)
        elif "/" in spec:
            start, _, count = spec.partition("/")
            low = dbg.address(start)
            n = _digits(count, 8)
            if n is None:
                raise CommandError(f"{spec}: the count after '/' must be octal")
            high = low + n - 1
        elif ":" in spec and not self._is_source_place(spec):
            start, _, end = spec.partition(":")
            low, high = dbg.address(start), dbg.address(end)
        else:
            return [dbg.address(spec)]
        if high < low:
            raise CommandError(f"{spec}: the range ends before it starts")
        if high >= dbg.m.core_words:
            raise CommandError(f"{spec}: the range runs past the end of core")
        if high - low + 1 > MAX_RANGE:
            raise CommandError(f"{spec}: {high - low + 1} words; at most {MAX_RANGE} at a time")
        return list(range(low, high + 1))

    def _is_source_place(self, spec: str) -> bool:
        src = self.dbg.source
        left = spec.rpartition(":")[0]
        return src is not None and (left == "" or src.find_file(left) is not None)

    def _register(self, name: str) -> str | None:
        m = self.dbg.m
        name = name.lower()
        if name == "pc":
            return f"PC/ {m.pc:06o}   {self.dbg.name(m.pc)}"
        if name == "flags":
            return f"FLAGS/ {m.flags:06o}   {flag_names(m.flags)}"
        if name in ("switches", "sw"):
            return f"SWITCHES/ {halves(m.apr.switches)}"
        found = self._device_register(name)
        if found is not None:
            dev, reg = found
            return f"{dev.name}.{reg.name}/ {reg.text(getattr(dev, reg.attr))}"
        return None

    def _device_register(self, spec: str) -> tuple[Device | APR | PI, Reg] | None:
        """DEV.NAME: the device DEV (attached, or the processor's APR and PI) and its
        register NAME; None when SPEC is not of that form (then it is a location:
        10.+GO); a CommandError when the device has no register NAME."""
        if not re.fullmatch(r"[A-Za-z]\w*\.[A-Za-z]\w*", spec):
            return None
        dev_name, _, reg_name = spec.partition(".")
        m = self.dbg.m
        builtin: dict[str, APR | PI] = {"APR": m.apr, "PI": m.pi}
        dev = builtin.get(dev_name.upper()) or m.bus.get(dev_name)
        if dev is None and dev_name.upper() == "DIS" and spec.upper() not in self.dbg.symbols:
            raise CommandError(f"{spec}: no Type 340 on this machine (start the console with "
                               "--display, --display-png FILE or --display-gif FILE)")  # fmt: skip
        if dev is None:
            return None
        reg = dev.register(reg_name)
        if reg is None or not reg.shown:
            names = " ".join(r.name for r in dev.registers if r.shown) or "none"
            raise CommandError(f"{spec}: {dev.name} has no register {reg_name.upper()} "
                               f"(its registers: {names})")  # fmt: skip
        return dev, reg

    def cmd_examine(self, arg: str) -> None:
        if not arg:
            raise CommandError("what? e.g. examine 100, examine LOOP:LOOP+5, examine pc")
        lines = []  # every LOC is read before anything is shown: all or nothing
        for spec in arg.split():
            register = self._register(spec)
            if register is not None:
                lines.append(register)
                continue
            lines += [self.dbg.examine(addr) for addr in self._locations(spec)]
        self.say("\n".join(lines))

    def cmd_deposit(self, arg: str) -> None:
        spec, _, value = arg.partition(" ")
        if not spec or not value.strip():
            raise CommandError("usage: deposit LOC VALUE, e.g. deposit 100 MOVEI 1,5")
        m, dbg = self.dbg.m, self.dbg
        name = spec.lower()
        if name in ("pc", "flags", "switches", "sw"):
            word = parse_word(value, dbg.symbols, m.pc)
            if name == "pc":
                m.pc = word
            elif name == "flags":
                m.flags = word
            else:
                m.apr.switches = word
            self.say(self._register(name) or "")
            return
        found = self._device_register(spec)
        if found is not None:
            self._deposit_register(*found, parse_word(value, dbg.symbols, m.pc))
            self.say(self._register(spec) or "")
            return
        for addr in self._locations(spec):
            dbg.deposit(addr, value)
            self.say(dbg.examine(addr))

    def _deposit_register(self, dev: Device | APR | PI, reg: Reg, word: int) -> None:
        if not reg.bits:
            raise CommandError(f"{dev.name}.{reg.name} is a count or a time, not a register: "
                               "it cannot be deposited")  # fmt: skip
        if not reg.fits(word):
            raise CommandError(f"{dev.name}.{reg.name} is {reg.bits} bits wide: "
                               f"{word:o} does not fit")  # fmt: skip
        current = getattr(dev, reg.attr)
        setattr(dev, reg.attr, bool(word) if isinstance(current, bool) else word)
        bus = self.dbg.m.bus
        if isinstance(dev, Device):
            dev.registers_changed()
            bus.publish(dev)  # its CONI and interrupt request as the processor sees them
        bus.refresh()

    # --- breakpoints -------------------------------------------------------------------
    def cmd_break(self, arg: str) -> None:
        if not arg:
            lines = self.dbg.break_list()
            self.say("\n".join(lines) if lines else "no breakpoints")
            return
        kind, _, rest = arg.partition(" ")
        if kind.lower() in ("read", "write") and rest.strip():
            self.say(self.dbg.add_break(self.dbg.address(rest), kind.lower()))
        else:
            self.say(self.dbg.add_break(self.dbg.address(arg)))

    def cmd_watch(self, arg: str) -> None:
        if not arg:
            raise CommandError("usage: watch LOC")
        self.say(self.dbg.add_break(self.dbg.address(arg), "change"))

    def cmd_delete(self, arg: str) -> None:
        if not arg:
            raise CommandError("usage: delete LOC, or delete all")
        if arg.lower() == "all":
            self.dbg.clear_breaks()
            self.say("all breakpoints and watches removed")
        else:
            self.say(self.dbg.remove_break(self.dbg.address(arg)))

    # --- source and state -------------------------------------------------------------
    def cmd_list(self, arg: str) -> None:
        if ":" in arg and self._is_source_place(arg):
            self.say("\n".join(self.dbg.source_listing(arg)))
            return
        addr = self.dbg.address(arg) if arg else None
        self.say("\n".join(self.dbg.listing(addr)))

    def cmd_where(self, arg: str) -> None:
        self._no_args(arg, "where")
        self.say("\n".join(self.dbg.backtrace()))

    def cmd_stack(self, arg: str) -> None:
        self.say("\n".join(self.dbg.stack(self._count(arg, "stack") if arg else 8)))

    def cmd_registers(self, arg: str) -> None:
        self._no_args(arg, "registers")
        self.say("\n".join(self.dbg.registers()))

    def cmd_show(self, arg: str) -> None:
        what, _, rest = arg.partition(" ")
        what, rest = what.lower(), rest.strip()
        if what in ("registers", "regs", "r"):
            self.cmd_registers(rest)
        elif what in ("devices", "dev"):
            self._no_args(rest, "show devices")
            self.say("\n".join(self.dbg.devices()))
        elif what in ("breaks", "break", "breakpoints"):
            self._no_args(rest, "show breaks")
            self.cmd_break("")
        elif what in ("symbols", "sym"):
            if " " in rest:
                raise CommandError("show symbols takes one PREFIX")
            prefix = rest.upper()
            found = [(v, n) for n, v in self.dbg.symbols.items() if n.startswith(prefix)]
            self.say("\n".join(f"{n:<8} {v:012o}" for v, n in sorted(found)) or "no symbols")
        elif what == "stack":
            self.cmd_stack(rest)
        else:
            raise CommandError("show registers, devices, breaks, symbols [PREFIX] or stack")

    # --- devices, files --------------------------------------------------------------------
    def cmd_attach(self, arg: str) -> None:
        parts = arg.split(None, 1)
        if len(parts) != 2:
            raise CommandError("usage: attach ptr FILE, or attach ptp FILE")
        self.say(self.dbg.attach_tape(parts[0], parts[1].strip()))

    def cmd_detach(self, arg: str) -> None:
        if not arg:
            raise CommandError("usage: detach ptr, or detach ptp")
        self.say(self.dbg.detach(arg))

    def cmd_load(self, arg: str) -> None:
        parts = shlex.split(arg) if arg else []
        if not 1 <= len(parts) <= 2:
            raise CommandError("usage: load FILE [MAPFILE] (quote a name with spaces)")
        self.load(*parts)

    def load(self, path: str, map_path: str | None = None) -> None:
        """Load the binary at ``path`` and say what it held (a file name as it is, spaces
        and all: ``pdp6 console "bin/@ CHESS"``; the load command's words are split)."""
        image = self.dbg.load(path, map_path)
        for note in self.dbg.load_notes:
            self.say(note)
        start = f", start {self.dbg.name(image.start)}" if image.start is not None else ""
        extra = ", with source lines" if self.dbg.source else ""
        self.say(f"loaded {path}: {len(image.words)} words ({image.kind}){start}{extra}")

    def cmd_checksum(self, arg: str) -> None:
        if arg:
            self.say(self.dbg.implied_repair(self.dbg.address(arg)))
            return
        lines = [block.describe() for block in self.dbg.bad_blocks]
        self.say("\n".join(lines) or "no block was loaded despite its checksum")

    def cmd_save(self, arg: str) -> None:
        if not arg:
            raise CommandError("usage: save FILE")
        save(self.dbg.m, arg)
        skipped = unsaved_devices(self.dbg.m)
        note = f" (not saved: {', '.join(skipped)})" if skipped else ""
        self.say(f"machine state saved to {arg}{note}")

    def cmd_restore(self, arg: str) -> None:
        if not arg:
            raise CommandError("usage: restore FILE")
        restore(self.dbg.m, read_snapshot(arg))
        self.say(f"machine state restored from {arg}; PC {self.dbg.name(self.dbg.m.pc)}")

    def cmd_do(self, arg: str) -> bool:
        if not arg:
            raise CommandError("usage: do FILE")
        if self.depth >= 8:
            raise CommandError("scripts nested too deeply (a script that runs itself?)")
        try:
            lines = read_input(arg).decode("utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {arg}: {getattr(exc, 'strerror', exc)}") from None
        self.depth += 1
        try:
            return self.run_lines(lines, echo=True)
        finally:
            self.depth -= 1

    def cmd_type(self, arg: str) -> None:
        if not arg:
            raise CommandError('usage: type TEXT, or type "TEXT" with \\r for RETURN')
        if arg.startswith('"'):
            text = _quoted(arg)
        else:
            text = arg + "\r"
        self.dbg.type_keys(text)

    def cmd_set(self, arg: str) -> None:
        what, _, value = arg.partition(" ")
        value = value.strip()
        if what.lower() == "tty" and value:
            if value.lower() == "fast":
                self.dbg.tty.baud = None
            elif (_digits(value, 10) or 0) > 0:
                self.dbg.tty.baud = int(value)
            else:
                raise CommandError("set tty BAUD (e.g. 110) or set tty fast")
            self.say(f"teletype: {value} {'mode' if value.lower() == 'fast' else 'baud'}")
        elif what.lower() == "stack" and value:
            ac = _digits(value, 8)
            if ac is None and value.upper() in self.dbg.symbols:  # (its name: set stack P)
                ac = self.dbg.symbols[value.upper()]
            if ac is None or not 0 <= ac <= 0o17:
                raise CommandError("set stack AC wants an accumulator 0-17 (octal, or its name)")
            self.dbg.stack_ac = ac
            self.say(f"stack pointer is AC {ac:o}")
        elif what.lower() in ("switches", "sw") and value:
            self.cmd_deposit(f"switches {value}")
        else:
            raise CommandError("set tty BAUD|fast, set stack AC or set switches VALUE")

    def cmd_reset(self, arg: str) -> None:
        self._no_args(arg, "reset")
        self.dbg.reset()
        self.say("I/O reset: devices, PI and APR flags cleared")

    def cmd_help(self, arg: str) -> None:
        if arg:
            cmd = _BY_NAME.get(arg.lower())
            if cmd is None:
                raise CommandError(f"no command {arg!r} (help lists them)")
            lines = [cmd.usage, f"  {cmd.summary}"]
            if cmd.detail:
                lines += ["  " + ln for ln in textwrap.wrap(cmd.detail, 76)]
            if len(cmd.names) > 1:
                lines.append("  also: " + ", ".join(cmd.names[1:]))
            lines += [f"  e.g. {ex}" for ex in cmd.examples]
            self.say("\n".join(lines))
            return
        width = max(len(c.usage) for c in COMMANDS)
        lines = [f"  {c.usage:<{width}}  {c.summary}" for c in COMMANDS]
        lines.append("Numbers are octal (10. is decimal).  help COMMAND explains one.")
        self.say("\n".join(lines))

    def cmd_quit(self, arg: str) -> bool:
        self._no_args(arg, "quit")
        return False

    @staticmethod
    def _no_args(arg: str, name: str) -> None:
        if arg:
            raise CommandError(f"{name} takes no arguments")


def _digits(text: str, base: int) -> int | None:
    """``text`` as a number if it is nothing but digits of ``base``; None otherwise (int()
    alone would also take ``1_0``, ``+5`` or other scripts' digits)."""
    if not text or any(c not in "0123456789"[:base] for c in text):
        return None
    return int(text, base)


_ESCAPES = {"r": "\r", "n": "\n", "t": "\t", "\\": "\\", '"': '"'}


def _quoted(arg: str) -> str:
    """The keys of ``type "TEXT"``: the text between the quotes with its escapes read
    (a misspelt escape is refused, not typed as its letter)."""
    match = re.fullmatch(r'"((?:[^"\\]|\\.)*)"', arg)
    if match is None:
        raise CommandError('the quoted text has no closing quote (write \\" for a quote in it)')
    for escape in re.findall(r"\\(.)", match.group(1)):
        if escape not in _ESCAPES:
            raise CommandError(f'unknown escape \\{escape}: use \\r \\n \\t \\\\ or \\"')
    return re.sub(r"\\(.)", lambda m: _ESCAPES[m.group(1)], match.group(1))


def enable_line_editing() -> None:
    """Line editing and history at the prompt, when Python has readline."""
    try:
        import readline
    except ImportError:  # pragma: no cover - depends on the Python build
        return
    readline.parse_and_bind("set enable-bracketed-paste off")
