"""The engine behind the console and source-level debugging.

A :class:`Debugger` holds one machine with its teletype and paper tape, the program's
symbols and (when ``midas`` wrote one) its source-line map, and offers what the
``pdp6 console`` and ``pdp6 debug`` commands need: loading and read-in, symbolic
examine/deposit, execute breakpoints (at full speed, through ``Machine.breakpoints``),
read/write breakpoints and watchpoints (by single-stepping, see :mod:`pdp6.host.memrefs`),
step, next (over PUSHJ/JSR/JSP/JSA calls and UUOs), finish, the stack, and source lines.

Everything that can go wrong because of what a person typed raises :class:`DebugError`
with a message fit to show as it is.
"""

from __future__ import annotations

import bisect
import sys
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..devices.display340 import Display340
from ..devices.papertape import PaperTapePunch, PaperTapeReader
from ..devices.teletype import Teletype, TeletypeHost
from ..disasm import SymbolTable, disassemble
from ..formats.checksum import BadBlock
from ..formats.hostfiles import OutputFileError, check_writable, read_input
from ..formats.loader import (
    SYM_HALFKILLED,
    LineMap,
    LoadedImage,
    LoaderError,
    load_file,
    not_a_binary,
    read_line_map,
)
from ..formats.readin import read_in_problem, tape_frames, toggle_rim_loader
from ..formats.sourcemap import SourceMap
from ..iobus import Device
from ..isa import OPCODES, UUO, decode
from ..machine import Machine, Stop
from ..word import MASK18, halves
from .memrefs import References, next_references
from .runner import Outcome, Runner, StopFlag, endless_trap
from .typein import TypeinError, parse_address, parse_word

PUSHJ, JSR, JSP, JSA = 0o260, 0o264, 0o265, 0o266
CALLS = (PUSHJ, JSR, JSP, JSA)
FLAG_NAMES = (
    (0o400000, "AROV"), (0o200000, "CRY0"), (0o100000, "CRY1"), (0o040000, "PCCHG"),
    (0o020000, "FPD"), (0o010000, "USER"), (0o004000, "UIOT"),
)  # fmt: skip


class DebugError(ValueError):
    """A request that cannot be carried out; the message says why, for a person."""


def _read_tape(path: str | Path) -> bytes:
    try:
        return read_input(path)
    except OSError as exc:
        raise DebugError(f"cannot read {path}: {exc.strerror}") from None


def flag_names(flags: int) -> str:
    return " ".join(name for bit, name in FLAG_NAMES if flags & bit) or "-"


def typeout(word: int, table: SymbolTable) -> str:
    """A word as DDT types it in instruction mode: an address (symbolic if near a
    symbol), L,,R halves for other data with a zero opcode, else an instruction."""
    if word >> 18 == 0:
        sym = table.symbolic(word) if word > 0o17 else None
        return sym or f"{word:o}"
    if word >> 27 == 0:
        return halves(word)
    return disassemble(word, table)


def program_symbols(
    image: LoadedImage, line_map: LineMap | None
) -> tuple[dict[str, int], set[str]]:
    """A program's symbols (from the binary and its line map) and which of them are
    half-killed: usable in type-in, never typed out."""
    symbols = dict(image.symbols)
    hidden = {n for n, f in image.symbol_flags.items() if f & SYM_HALFKILLED}
    if line_map is not None:
        symbols.update(line_map.symbols)
        hidden |= {n for n, f in line_map.symbol_flags.items() if "h" in f}
    return symbols, hidden


@dataclass
class Watch:
    """A read or write breakpoint, or a watchpoint ('change': stop when the word changes)."""

    address: int
    kind: str  # 'read', 'write', 'change'


@dataclass
class StopReport:
    """What the person is told when the machine stops."""

    outcome: Outcome
    text: str


class _WatchHook:
    """Single-step hook: checks read/write breakpoints and watchpoints around each step."""

    def __init__(self, dbg: Debugger) -> None:
        self.dbg = dbg
        self.refs: References | None = None
        self.values: dict[int, int] = {}

    def before(self) -> None:
        dbg = self.dbg
        self.refs = next_references(dbg.m) if dbg.needs_references() else None
        self.values = {w.address: dbg.m.memory[w.address] for w in dbg.watches.values()}

    def after(self, stop: Stop) -> str | None:
        dbg, refs = self.dbg, self.refs
        hits: list[str] = []
        for (addr, _kind), watch in sorted(dbg.watches.items()):
            old, new = self.values[addr], dbg.m.memory[addr]
            who = dbg.describe_instruction(refs) if refs else "an interrupt"
            if watch.kind == "read" and refs and refs.reads_any({addr}):
                hits.append(f"read of {dbg.name(addr)} by {who}")
            elif watch.kind == "write" and ((refs and refs.writes_any({addr})) or old != new):
                hits.append(f"write to {dbg.name(addr)} by {who}: {halves(old)} -> {halves(new)}")
            elif watch.kind == "change" and old != new:
                hits.append(f"{dbg.name(addr)} changed: {halves(old)} -> {halves(new)}")
        return "; ".join(hits) if hits else None


def _to_stderr(text: str) -> None:
    print(text, file=sys.stderr)


def _bits_differ(xor: int) -> str:
    """``1 bit differs``, ``6 bits differ``: how far a repair is from the file's word."""
    bits = xor.bit_count()
    return "1 bit differs" if bits == 1 else f"{bits} bits differ"


@dataclass
class Debugger:
    """One machine and everything known about the program in it."""

    m: Machine
    host: TeletypeHost
    baud: int | None = 110
    grace_us: float = 2_000_000.0
    stop_flag: StopFlag = field(default_factory=StopFlag)
    between_chunks: Callable[[], object] | None = None  # see pdp6.host.runner.Runner's between
    ignore_checksum: bool = False  # load SBLK blocks whose checksum disagrees (with a warning)
    repair_checksums: bool = False  # repair such a block when one word explains it
    continue_halts: int = 0  # halts a run goes on past, as the operator pressing CONTINUE
    note: Callable[[str], None] = _to_stderr  # a line from the host (each halt gone past)

    def __post_init__(self) -> None:
        self.tty = self.m.attach(Teletype(self.host, baud=self.baud))
        self.ptr = self.m.attach(PaperTapeReader())
        self.ptp = self.m.attach(PaperTapePunch())
        self.tape_files: dict[str, Path] = {}
        self.symbols: dict[str, int] = {}
        self.table = SymbolTable({})
        self.source: SourceMap | None = None
        self.breaks: set[int] = set()
        self.watches: dict[tuple[int, str], Watch] = {}  # by address and kind
        self.stack_ac = 0o17
        self.bad_blocks: list[BadBlock] = []  # of the last load, when ignore_checksum
        self.load_notes: list[str] = []  # what the last load repaired or loaded anyway

    # --- programs -------------------------------------------------------------------
    def load(self, path: str | Path, map_path: str | Path | None = None) -> LoadedImage:
        """Load an SBLK or RIM file; its symbols and the line map beside it (FILE.map).
        Both files are read and checked before memory changes."""
        map_file = Path(map_path) if map_path else Path(path).with_suffix(".map")
        try:
            image = load_file(path, self.ignore_checksum or self.repair_checksums)
            line_map = read_line_map(map_file) if map_path or map_file.exists() else None
        except LoaderError as exc:
            raise DebugError(str(exc)) from None
        repairs, notes = self._repairs(path, image.bad_blocks)
        for addr in image.words:
            if addr >= self.m.core_words:
                raise DebugError(f"{path}: loads {addr:06o}, beyond this machine's core")
        for addr, word in (image.words | repairs).items():
            self.m.memory[addr] = word
        self.bad_blocks = image.bad_blocks
        self.load_notes = notes
        self.source = SourceMap(line_map, map_file.parent) if line_map else None
        symbols, hidden = program_symbols(image, line_map)
        self.set_symbols(symbols, hidden)
        if image.start is not None:
            self.m.pc = image.start
        return image

    def _repairs(
        self, path: str | Path, blocks: list[BadBlock]
    ) -> tuple[dict[int, int], list[str]]:
        """The words to store for ``--repair-checksums`` and a line for each bad block: the
        repair made, or the warning that it is loaded as it is (with --ignore-checksum;
        without, a block no one word explains refuses the file)."""
        repairs: dict[int, int] = {}
        notes = []
        for block in blocks:
            nearest = block.nearest_repairs() if self.repair_checksums else []
            if len(nearest) == 1:
                ((addr, word),) = nearest
                was = block.body[(addr - block.first) & MASK18]
                repairs[addr] = word
                notes.append(f"repaired {block.kind} block {block.number} "
                             f"({block.first:06o}-{block.last:06o}): {addr:06o} "
                             f"{halves(was)} -> {halves(word)}, the word its checksum "
                             f"implies ({_bits_differ(was ^ word)})")  # fmt: skip
                continue
            if not self.ignore_checksum:
                why = (f"{len(nearest)} words explain it equally well "
                       f"({', '.join(f'{a:06o}' for a, _w in nearest)})" if nearest
                       else "only a data block's words can be repaired")  # fmt: skip
                raise DebugError(f"{path}: {block.describe()}: not repaired, {why} "
                                 "(--ignore-checksum loads it as it is)")  # fmt: skip
            notes.append(block.warning())
        return repairs, notes

    def deposit_words(self, deposits: Iterable[tuple[int, int]]) -> list[str]:
        """Store each ``(address, word)`` (``--deposit``); a line for each: was, now."""
        notes = []
        for addr, word in deposits:
            if addr >= self.m.core_words:
                raise DebugError(f"--deposit {addr:o}: beyond this machine's core")
            notes.append(f"deposited {halves(word)} at {addr:06o} (was "
                         f"{halves(self.m.memory[addr])})")  # fmt: skip
            self.m.memory[addr] = word
        return notes

    def implied_repair(self, addr: int) -> str:
        """The deposit that gives ``addr`` the one value its block's checksum implies (a
        block loaded despite its checksum; see :mod:`pdp6.formats.checksum`)."""
        block = next((b for b in self.bad_blocks if b.holds(addr)), None)
        if block is None:
            loaded = ", ".join(f"{b.first:06o}-{b.last:06o}" for b in self.bad_blocks
                               if b.kind == "data")  # fmt: skip
            where = f"they load {loaded}" if loaded else "there are none"
            raise DebugError(f"{addr:06o} is in no block loaded despite its checksum ({where})")
        word = block.implied_word(addr)
        now = self.m.memory[addr]
        differs = _bits_differ(word ^ now) if word != now else "it holds that already"
        return (
            f"data block {block.number}'s checksum implies {halves(word)} at {self.name(addr)} "
            f"(now {halves(now)}: {differs}): d {addr:o} {halves(word)}"
        )

    def set_symbols(self, symbols: dict[str, int], hidden: Collection[str] = ()) -> None:
        """Symbols for type-in; all but the ``hidden`` (half-killed) ones also for type-out."""
        self.symbols = {name.upper(): value for name, value in symbols.items()}
        self.table = SymbolTable({n: v for n, v in symbols.items() if n not in hidden})
        p = self.symbols.get("P")
        self.stack_ac = p if p is not None and 0 <= p <= 0o17 else 0o17

    def attach_tape(self, unit: str, path: str | Path) -> str:
        """Mount a file on the reader ('ptr') or the punch ('ptp'); say what was done."""
        unit = unit.lower()
        if unit == "ptr":
            return self._mount(path, _read_tape(path))
        if unit == "ptp":
            target = Path(path)
            try:
                check_writable(target)
            except OutputFileError as exc:
                raise DebugError(str(exc)) from None
            self.detach("ptp")
            self.tape_files["ptp"] = target
            return f"ptp: punching to {path}"
        raise DebugError(f"no device {unit!r}: tapes go on ptr (reader) or ptp (punch)")

    def attach_boot_tape(self, path: str | Path) -> str:
        """Mount a tape for the read-in procedure, after checking that the RIM loader can
        read it: anything else (a source, a snapshot, random bytes) would be executed as
        garbage or read as nothing, and the run would never end."""
        data = _read_tape(path)
        hint = not_a_binary(path, data)
        if hint is not None:
            raise DebugError(hint)
        problem = read_in_problem(tape_frames(data))
        if problem is not None:
            raise DebugError(f"{path} cannot be read in: {problem}")
        return self._mount(path, data)

    def _mount(self, path: str | Path, data: bytes) -> str:
        frames = tape_frames(data)
        self.ptr.attach(frames)
        self.tape_files["ptr"] = Path(path)
        kind = "binary words" if frames is not data else "frames"
        return f"ptr: {path} mounted, {len(frames)} frames ({kind})"

    def detach(self, unit: str) -> str:
        """Unmount a tape; the punch writes out what it punched."""
        unit = unit.lower()
        if unit not in ("ptr", "ptp"):
            raise DebugError(f"no device {unit!r}: detach ptr or ptp")
        path = self.tape_files.pop(unit, None)
        if unit == "ptr":
            self.ptr.attach(b"")
            return f"ptr: {path} removed" if path else "ptr: no tape was mounted"
        if path is None:
            return "ptp: no file was attached"
        try:
            self.ptp.write(path)
        except OSError as exc:
            raise DebugError(f"cannot write {path}: {exc.strerror}") from None
        n = len(self.ptp.punched)
        self.ptp.punched.clear()
        return f"ptp: {n} frames written to {path}"

    def boot(self) -> StopReport:
        """The read-in procedure: toggle the RIM loader in at 20, start it, read the tape."""
        if self.ptr.remaining == 0:
            raise DebugError("no tape in the reader: attach ptr FILE first")
        problem = read_in_problem(self.ptr.tape[self.ptr.position :])
        if problem is not None:
            raise DebugError(f"the tape in the reader cannot be read in: {problem}")
        toggle_rim_loader(self.m)
        return self.resume()

    def type_keys(self, text: str) -> None:
        """Queue keystrokes on the teletype keyboard (for scripts and the console)."""
        typer = getattr(self.host, "type", None)
        if typer is None:
            raise DebugError("this teletype keyboard cannot be typed on by commands")
        typer(text)

    def reset(self) -> None:
        """The I/O reset (as CONO APR,200000 gives), plus PI off and the APR flags clear."""
        for dev in self.m.bus.devices.values():
            dev.reset()
            self.m.bus.publish(dev)
        pi, apr = self.m.pi, self.m.apr
        pi.active, pi.on, pi.requests, pi.held = False, 0, 0, 0
        apr.pia = 0
        apr.pushdown_overflow = apr.illegal_op = apr.nxm = apr.clock_flag = False
        self.m.bus.refresh()

    # --- names and locations ----------------------------------------------------------
    def name(self, addr: int) -> str:
        """``LOOP+3 (000112)``, or just the octal address without a nearby symbol."""
        sym = self.table.symbolic(addr) if addr > 0o17 else None
        return f"{sym} ({addr:06o})" if sym else f"{addr:06o}"

    def symbolic(self, word: int) -> str:
        return typeout(word, self.table)

    def describe_instruction(self, refs: References) -> str:
        where = self.name(refs.address)
        text = self.symbolic(refs.word)
        prefix = f"PI channel {refs.interrupt} " if refs.interrupt else ""
        return f"{prefix}{where} {text}"

    def address(self, text: str) -> int:
        """A location: an expression (``LOOP+3``, ``100``), or ``FILE:LINE`` in the source."""
        text = text.strip()
        if ":" in text and self.source is None and not text.startswith(":"):
            raise DebugError(
                f"{text}: no source-line map is loaded (load a midas binary "
                "with its .map, or use pdp6 debug)"
            )
        if ":" in text and self.source is not None:
            return self._source_address(text)
        try:
            addr = parse_address(text, self.symbols, self.m.pc)
        except TypeinError as exc:
            raise DebugError(str(exc)) from None
        if addr >= self.m.core_words:
            raise DebugError(f"address {addr:o} is beyond core (0-{self.m.core_words - 1:o})")
        return addr

    def _source_place(self, text: str) -> tuple[str, int]:
        """The map's file name and the line number that ``FILE:LINE`` (or ``:LINE``) names."""
        assert self.source is not None
        spec, _, line_text = text.rpartition(":")
        if not line_text.isdigit():
            raise DebugError(f"{text}: the line after ':' must be a decimal number")
        name = self.source.find_file(spec) if spec else self.source.files[0]
        if name is None:
            known = ", ".join(self.source.display_name(f) for f in self.source.files)
            raise DebugError(f"{text}: no source file {spec!r} in this program ({known})")
        return name, int(line_text)

    def _source_address(self, text: str) -> int:
        found = self.source.addresses_at(*self._source_place(text)) if self.source else None
        if found is None:
            raise DebugError(f"{text}: no code at or after line {text.rpartition(':')[2]}")
        return min(found[1])

    def where(self, addr: int) -> str | None:
        """``echo.mid:14`` for ``addr``, if the line map knows it."""
        if self.source is None:
            return None
        place = self.source.line_of(addr)
        if place is None:
            return None
        return f"{self.source.display_name(place[0])}:{place[1]}"

    # --- examine and deposit --------------------------------------------------------------
    def examine(self, addr: int) -> str:
        word = self.m.memory[addr]
        label = self.table.symbolic(addr) if addr > 0o17 else None
        head = f"{addr:06o}" + (f" {label}" if label else "") + "/"
        return f"{head:<18} {halves(word)}   {self.symbolic(word)}"

    def deposit(self, addr: int, text: str) -> int:
        try:
            word = parse_word(text, self.symbols, addr)
        except TypeinError as exc:
            raise DebugError(str(exc)) from None
        self.m.memory[addr] = word
        return word

    # --- breakpoints and watches ---------------------------------------------------------
    def add_break(self, addr: int, kind: str = "execute") -> str:
        """An execute, read or write breakpoint, or a 'change' watchpoint, at ``addr``."""
        where = self.name(addr) + self._line_suffix(addr)
        if kind == "execute":
            self.breaks.add(addr)
            self._sync_breaks()
            return f"breakpoint at {where}"
        self.watches[(addr, kind)] = Watch(addr, kind)  # (one of each kind on a word)
        if kind == "change":
            return f"watching {where}, now {halves(self.m.memory[addr])}"
        return f"{kind} breakpoint at {where}"

    def remove_break(self, addr: int) -> str:
        removed = []
        if addr in self.breaks:
            self.breaks.discard(addr)
            removed.append("execute")
        for key in sorted(k for k in self.watches if k[0] == addr):
            removed.append(self.watches.pop(key).kind)
        if not removed:
            raise DebugError(f"no breakpoint or watch at {self.name(addr)}")
        self._sync_breaks()
        return f"removed {' and '.join(removed)} breakpoint at {self.name(addr)}"

    def clear_breaks(self) -> None:
        self.breaks.clear()
        self.watches.clear()
        self._sync_breaks()

    def _sync_breaks(self, extra: set[int] | None = None) -> None:
        self.m.breakpoints.clear()
        self.m.breakpoints.update(self.breaks | (extra or set()))

    def needs_references(self) -> bool:
        return any(w.kind in ("read", "write") for w in self.watches.values())

    def break_list(self) -> list[str]:
        lines = [f"execute  {self.name(a)}{self._line_suffix(a)}" for a in sorted(self.breaks)]
        for (a, _kind), w in sorted(self.watches.items()):
            lines.append(f"{w.kind:<8} {self.name(a)}{self._line_suffix(a)}")
        return lines

    def _line_suffix(self, addr: int) -> str:
        place = self.where(addr)
        return f", {place}" if place else ""

    # --- running ----------------------------------------------------------------------
    def resume(self, until_us: float | None = None, extra: set[int] | None = None) -> StopReport:
        """Run from the PC until something stops it (see :class:`pdp6.host.runner.Runner`)."""
        self._sync_breaks(extra)
        hook = _WatchHook(self) if self.watches else None
        runner = Runner(self.m, self.tty, stop=self.stop_flag, grace_us=self.grace_us, hook=hook,
                        between=self.between_chunks)  # fmt: skip
        try:
            outcome = self.through_halts(lambda: runner.run(until_us=until_us))
        finally:
            self._sync_breaks()
        return StopReport(outcome, self.stop_text(outcome))

    def through_halts(self, run: Callable[[], Outcome]) -> Outcome:
        """``run``, and again after each of the first ``continue_halts`` halts, as the
        operator presses CONTINUE (DEC's diagnostics halt at the end of each part); each
        halt gone past is noted with its address.  The instructions of all are counted."""
        done = halts = 0
        while True:
            outcome = run()
            done += outcome.instructions
            if outcome.reason != "halt" or halts == self.continue_halts:
                return replace(outcome, instructions=done)
            halts += 1
            self.note(f"[halt {halts} at {self.name(outcome.pc)}: continuing]")

    def go(self, addr: int | None = None) -> StopReport:
        """Run from ``addr`` (default: the PC); a machine that cannot start there keeps
        its PC."""
        before = self.m.pc
        if addr is not None:
            self.m.pc = addr
        report = self.resume()
        if report.outcome.reason == "stuck":
            self.m.pc = before
        return report

    def step(self) -> StopReport:
        """One instruction (into calls); watches are checked."""
        stuck = endless_trap(self.m)
        if stuck:
            raise DebugError(stuck)
        hook = _WatchHook(self)
        hook.before()
        stop = self.m.step()
        message = hook.after(stop)
        if message:
            outcome = Outcome("watch", self.m.pc, 1, message)
        else:
            outcome = Outcome("halt" if stop.reason == "halt" else "step", self.m.pc, 1)
        return StopReport(outcome, self.stop_text(outcome))

    def next(self) -> StopReport:
        """One instruction, but a call (PUSHJ, JSR, JSP, JSA, a UUO) runs until it returns
        to the next instruction or skips over it."""
        m = self.m
        pc = m.pc
        op, ac, _i, _x, _y = decode(m.memory[pc])
        if op not in CALLS and OPCODES[op].family != UUO:
            return self.step()
        returns = {(pc + 1) & MASK18, (pc + 2) & MASK18}
        depth = m.memory[ac] & MASK18 if op == PUSHJ else None
        while True:
            report = self.resume(extra=returns)
            o = report.outcome
            if o.reason != "breakpoint" or o.pc in self.breaks or o.pc not in returns:
                return report
            if depth is None or m.memory[ac] & MASK18 <= depth:
                outcome = Outcome("step", m.pc, o.instructions)
                return StopReport(outcome, self.stop_text(outcome))

    def finish(self) -> StopReport:
        """Run until the current subroutine (called with PUSHJ on the stack AC) returns."""
        m, ac = self.m, self.stack_ac
        top = m.memory[ac] & MASK18
        if not 0o20 <= top < m.core_words:
            raise DebugError(
                f"no subroutine to finish: the stack pointer (AC {ac:o}) is {halves(m.memory[ac])}"
            )
        ret = m.memory[top] & MASK18
        if not self._is_return_address(ret):
            raise DebugError(
                f"no subroutine to finish: the top of the stack ({self.name(top)}) holds "
                f"{halves(m.memory[top])}, not a return address after a PUSHJ"
            )
        while True:
            report = self.resume(extra={ret})
            o = report.outcome
            if o.reason != "breakpoint" or o.pc in self.breaks or o.pc != ret:
                return report
            if m.memory[ac] & MASK18 < top:
                outcome = Outcome("finish", m.pc, o.instructions)
                return StopReport(outcome, self.stop_text(outcome))

    def _is_return_address(self, addr: int) -> bool:
        if not 0o21 <= addr < self.m.core_words:
            return False
        op, ac, _i, _x, _y = decode(self.m.memory[addr - 1])
        return op == PUSHJ and ac == self.stack_ac

    # --- reports ----------------------------------------------------------------------
    def stop_text(self, outcome: Outcome) -> str:
        """One or two lines: why the machine stopped, where, and the source line."""
        reason = {
            "step": "", "finish": "returned", "halt": "halted", "breakpoint": "breakpoint",
            "watch": "stopped", "end of input": "waiting for input (none left)",
            "time limit": "time limit reached", "instruction limit": "instruction limit",
            "interrupted": "interrupted", "stuck": "not started", "trap loop": "stopped",
        }.get(outcome.reason, outcome.reason)  # fmt: skip
        pc = self.m.pc
        head = f"{reason} at " if reason else ""
        lines = [f"{head}{self.name(pc)}  {self.symbolic(self.m.memory[pc])}"]
        if outcome.message:
            lines.insert(0, outcome.message)
        source = self.source_line(pc)
        if source:
            lines.append(source)
        return "\n".join(lines)

    def source_line(self, addr: int) -> str | None:
        """``echo.mid:14  GREET:	ILDB A,B`` for ``addr``, if known."""
        if self.source is None:
            return None
        place = self.source.line_of(addr)
        if place is None:
            return None
        text = self.source.source_text(*place)
        where = f"{self.source.display_name(place[0])}:{place[1]}"
        return f"{where}  {text.expandtabs(8) if text is not None else '(source not found)'}"

    def listing(self, addr: int | None = None, context: int = 5) -> list[str]:
        """The source around ``addr`` (default: the PC), the line there marked ``=>``."""
        if self.source is None:
            raise DebugError("no source-line map is loaded")
        addr = self.m.pc if addr is None else addr
        place = self.source.line_of(addr)
        if place is None:
            raise DebugError(f"{self.name(addr)} has no source line")
        return self._lines_around(*place, context)

    def source_listing(self, text: str, context: int = 5) -> list[str]:
        """The source around ``FILE:LINE`` itself, the line marked ``=>``: any line, a
        comment or a BLOCK as well as code, since nothing is looked up in core."""
        if self.source is None:
            raise DebugError("no source-line map is loaded")
        name, line = self._source_place(text)
        lines = self.source.text(name)
        if lines is not None and not 1 <= line <= len(lines):
            raise DebugError(f"{text}: {self.source.display_name(name)} has lines 1-{len(lines)}")
        return self._lines_around(name, line, context)

    def _lines_around(self, name: str, line: int, context: int) -> list[str]:
        assert self.source is not None
        text = self.source.text(name)
        if text is None:
            raise DebugError(f"source file {name} not found")
        out = []
        for n in range(max(1, line - context), min(len(text), line + context) + 1):
            mark = "=>" if n == line else "  "
            out.append(f"{mark} {n:4d}  {text[n - 1].expandtabs(8)}")
        return out

    def registers(self) -> list[str]:
        m = self.m
        out = [
            f"PC {m.pc:06o} {self.name(m.pc)}   flags {m.flags:06o} ({flag_names(m.flags)})",
        ]
        for row in range(0, 0o20, 4):
            cells = [f"{ac:2o} {halves(m.memory[ac])}" for ac in range(row, row + 4)]
            out.append("   ".join(cells))
        out.append(
            f"APR pia {m.apr.pia} clock {'on' if m.apr.clock_enabled else 'off'} "
            f"pdlov {int(m.apr.pushdown_overflow)} illop {int(m.apr.illegal_op)} "
            f"nxm {int(m.apr.nxm)} switches {m.apr.switches:012o}"
        )
        out.append(
            f"PI {'active' if m.pi.active else 'off'} on {m.pi.on:03o} "
            f"requests {m.pi.requests:03o} held {m.pi.held:03o}"
        )
        out.append(f"time {m.elapsed_us / 1e6:.6f} s emulated, {m.instructions} instructions")
        return out

    def devices(self) -> list[str]:
        out = []
        for code, dev in sorted(self.m.bus.devices.items()):
            coni = dev.coni()
            line = f"{dev.name:<4} {code:03o}  CONI {coni:06o}"
            if dev is self.tty:
                line += f"  {self.tty.baud} baud" if self.tty.baud else "  fast"
            elif isinstance(dev, Display340):
                line += f"  {_DIS_STATES[dev.state_name]}"
            elif dev is self.ptr:
                path = self.tape_files.get("ptr")
                line += f"  {path or 'no tape'}; {self.ptr.remaining} frames left"
            elif dev is self.ptp:
                path = self.tape_files.get("ptp")
                line += f"  {path or 'no file'}; {len(self.ptp.punched)} frames punched"
            out.append(line)
            out += _register_lines(dev)
        return out

    def stack(self, count: int = 8) -> list[str]:
        """The top ``count`` words of the stack; return addresses show where they return."""
        m, ac = self.m, self.stack_ac
        pointer = m.memory[ac]
        top = pointer & MASK18
        out = [f"stack pointer AC {ac:o} = {halves(pointer)}"]
        if top < 0o20 or top >= m.core_words:
            where = "the accumulators" if top < 0o20 else "no core"
            return [*out, f"  (it points into {where}: no stack set up yet, or set stack names "
                          "another accumulator)"]  # fmt: skip
        floor = self._stack_floor(top)
        for addr in range(top, max(0o20, top - count + 1) - 1, -1):
            word = m.memory[addr]
            line = f"  {self.examine(addr)}"
            ret = word & MASK18
            if addr >= floor and self._is_return_address(ret):
                line += f"   <- return to {self.name(ret)}{self._line_suffix(ret - 1)}"
            out.append(line)
        return out

    def _stack_floor(self, top: int) -> int:
        """Where the stack's block starts, as far as the symbols tell: the nearest label
        at or below the word after the top (``PDL: BLOCK n`` with the pointer made from
        ``PDL-1``).  Words below it are the program's, whatever they look like."""
        values = self.table.values
        i = bisect.bisect_right(values, top + 1) - 1
        return values[i] if i >= 0 else 0o20

    def backtrace(self, depth: int = 32) -> list[str]:
        """The current place, then each PUSHJ return address found on the stack."""
        m = self.m
        frames = [f"#0  {self.name(m.pc)}{self._line_suffix(m.pc)}"]
        top = m.memory[self.stack_ac] & MASK18
        for addr in range(top, max(0o20, self._stack_floor(top), top - depth) - 1, -1):
            if addr >= m.core_words:
                break
            ret = m.memory[addr] & MASK18
            if self._is_return_address(ret):
                call = ret - 1
                frames.append(f"#{len(frames)}  {self.name(call)}{self._line_suffix(call)}")
        return frames


_DIS_STATES = {"idle": "ready for data", "busy": "drawing a word",
               "paused": "paused by the light pen", "stopped": "stopped"}  # fmt: skip


def _register_lines(dev: Device, width: int = 88) -> list[str]:
    """The device's registers (its table, ``Device.registers``) as NAME VALUE pairs,
    indented under its line in ``show devices``."""
    lines: list[str] = []
    line = ""
    for reg in dev.registers:
        if reg.shown:
            pair = f"{reg.name} {reg.text(getattr(dev, reg.attr))}"
            if line and len(line) + 2 + len(pair) > width:
                lines.append(line)
                line = ""
            line = f"{line}  {pair}" if line else f"      {pair}"
    return lines + [line] if line else lines
