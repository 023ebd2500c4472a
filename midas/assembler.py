"""The assembler: its state, the two passes, and the :class:`~midas.program.Program` built.

Pass 1 assigns addresses (undefined symbols count as 0, literals are only sized); pass 2
reads everything again with the symbols of pass 1 known, stores the words, and reports
undefined symbols and labels whose values changed (phase errors).  Symbols and macros are
kept between the passes, as in MIDAS.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from pdp6.formats.hostfiles import read_input
from pdp6.formats.loader import JRST, SYM_GLOBAL, SYM_HALFKILLED, SYM_LOCAL

from .conditionals import ConditionalMixin
from .contexts import ProgramContext
from .data import DataMixin
from .definitions import DefinitionMixin
from .errors import AsmError, AssemblyAbort, Diagnostics, EndOfPass
from .expressions import MASK18, Evaluator, to_signed
from .fastlines import FastPath
from .literals import ConstantsArea, ConstantsMixin
from .loops import LoopMixin
from .macros import MacroMixin
from .program import Program, SourceLine, SymbolEntry
from .pseudos import PseudoMixin
from .reader import Reader
from .source import SourceFile
from .statements import StatementMixin
from .symbols import F_GLOBAL, F_HALFKILL, F_KILL, F_PREDEF, VALUE, initial_table


class Assembler(
    DefinitionMixin,
    StatementMixin,
    ConstantsMixin,
    ConditionalMixin,
    MacroMixin,
    LoopMixin,
    DataMixin,
    PseudoMixin,
):
    """Assembles one main source file (and what it inserts) in two passes."""

    fast_statements = True  # tests turn the fast path off to compare with the general reader

    def __init__(
        self, main: SourceFile, old: bool = False, defines: Mapping[str, int] | None = None
    ) -> None:
        self.main = main
        self.defines = dict(defines or {})  # SYM=VALUE before each pass (--define)
        self.sources: dict[Path | str, SourceFile] = {main.path or main.name: main}
        self.symbols = initial_table()
        # IRP bodies and passes read from expansions, by their text (midas.loops).
        self.bodies: dict[tuple, tuple[str, int]] = {}
        self.irps: dict[tuple, tuple[list[str], int]] = {}
        self.diagnostics = Diagnostics()
        self.reader = Reader(self.diagnostics)
        self.expr = Evaluator(self)
        self.fast = FastPath(self)
        self.old = old  # the 1960s dialect (--old)
        self.initial_mllit = 0 if old else 1
        self.order = 0  # symbol definition counter
        self.multiply_defined: set[str] = set()
        self.prev_areas: list[ConstantsArea] = []
        self.phase_errors = 0
        self.printed: list[str] = []
        self.title = ""
        self.pass_no = 0

    # --- the passes -------------------------------------------------------------------
    def assemble(self) -> Program:
        for pass_no in (1, 2):
            if not self.run_pass(pass_no):
                break
        return self.program()

    def begin_pass(self, pass_no: int) -> None:
        self.pass_no = pass_no
        self.reader.start(self.main)
        self.depth = 0
        self.open_closers: list[str] = []
        self.top = ProgramContext(self.emit)
        self.ctx = self.top
        self.radix = 8
        self.loc = 0o100
        self.offset = 0
        self.mllit = self.initial_mllit
        self.hkall = 0
        self.litsw = 0
        self.stgsw = False
        self.gensym_count = 0
        self.aval1 = self.aval2 = self.askip = 0
        self.text_word_index = None
        self.expr.reset()
        self.area = ConstantsArea()
        self.areas: list[ConstantsArea] = []
        self.pending_vars: list[tuple[str, int]] = []
        self.vars_seen: set[str] = set()
        self.emitted: list[tuple[int, int, tuple]] = []
        self.start_word = 0
        self.output_format = "sblk"
        self.nosyms = False
        self.relocatable = False
        self.raw_words: list[tuple[int, int]] = []
        for name, value in self.defines.items():
            self.define(name, value, 0, None)  # as SYM=VALUE before the first line

    def run_pass(self, pass_no: int) -> bool:
        """One pass over the input; False if it had to stop early."""
        self.begin_pass(pass_no)
        try:
            self.read_statements(self.top)
            self.error("no END statement (the assembly ended at the end of the file)")
            self.finish_pass(0)
        except EndOfPass:
            pass
        except AssemblyAbort:
            return False
        except RecursionError:
            self.error("nesting too deep for the assembler (runaway recursion?)")
            return False
        if pass_no == 1:
            self.prev_areas = self.areas
        return True

    def finish_pass(self, start: int) -> None:
        """END: pending variables, then pending literals; the start instruction."""
        self.top.flush_bytes()
        self.allocate_variables()
        self.dump_constants()
        if start and not start >> 18:
            start |= JRST  # a bare address means JRST to it
        self.start_word = start
        for source, pos in self.reader.open_conditionals():
            line, col = source.position(pos)
            self.report(
                AsmError(source.name, line, col,
                         "successful '[' conditional never closed by ']'", warning=True)
            )  # fmt: skip

    # --- diagnostics ----------------------------------------------------------------------
    def error(self, message: str, pos: int | None = None, warning: bool = False) -> None:
        """A problem at ``pos`` of the text being read (here if None)."""
        self.reader.error(message, pos, warning)

    def report(self, err: AsmError) -> None:
        self.diagnostics.report(err)

    def phase_error(self, name: str, new: int, old: int, start: int | None) -> None:
        self.phase_problem(
            f"phase error: {name} is {new:o} on pass 2 but was {old:o} on pass 1 (the "
            "code before it assembled to a different size on the two passes)",
            start,
        )

    def phase_problem(self, message: str, start: int | None = None) -> None:
        """Report the first difference between the passes; count the ones it causes."""
        self.phase_errors += 1
        if self.phase_errors == 1:
            self.error(message, start)

    # --- files ----------------------------------------------------------------------------
    def load_source(self, path: Path) -> SourceFile | None:
        key = path.resolve()
        source = self.sources.get(key)
        if source is None:
            try:
                raw = read_input(path).decode("latin-1")
            except OSError as exc:
                self.error(f"cannot read {path}: {exc.strerror}")
                return None
            source = self.sources[key] = SourceFile(str(path), raw, path)
        return source

    # --- the result -------------------------------------------------------------------------
    def program(self) -> Program:
        prog = Program(
            output_format=self.output_format,
            nosyms=self.nosyms,
            relocatable=self.relocatable,
            raw_words=list(self.raw_words),
            title=self.title,
            printed=list(self.printed),
            start_word=self.start_word,
        )
        lines: dict[tuple, SourceLine] = {}
        for loc, word, site in self.emitted:
            source = lines.get(site)
            if source is None:
                source = lines[site] = SourceLine(site[0].name, site[0].position(site[1])[0])
            prog.emitted.append((loc, word, source))
            prog.words[loc] = word
            prog.line_map[loc] = source
        if self.start_word:
            prog.start = self.start_word & MASK18
        entries = []
        for name, sym in self.symbols.items():
            if sym.kind != VALUE or sym.flags & F_PREDEF or sym.defpass <= 0:
                continue
            prog.symbols[name] = sym.value
            if sym.flags & F_KILL:
                continue
            flags = SYM_GLOBAL if sym.flags & F_GLOBAL else SYM_LOCAL
            if sym.flags & F_HALFKILL:
                flags |= SYM_HALFKILLED
            entries.append(SymbolEntry(name, sym.value, flags, sym.order))
        entries.sort(key=lambda e: (to_signed(e.value), bool(e.flags & SYM_HALFKILLED), e.order))
        prog.symbol_table = entries
        order = {source.name: i for i, source in enumerate(self.sources.values())}
        prog.errors = sorted(
            self.diagnostics.errors.values(), key=lambda e: (order.get(e.file, 0), e.line, e.col)
        )
        prog.warnings = sorted(
            self.diagnostics.warnings.values(), key=lambda e: (order.get(e.file, 0), e.line, e.col)
        )
        if self.phase_errors > 1:
            first = next(e for e in prog.errors if "phase error" in e.message)
            i = prog.errors.index(first)
            prog.errors[i] = AsmError(
                first.file, first.line, first.col,
                f"{first.message}; {self.phase_errors - 1} later places moved too",
            )  # fmt: skip
        prog.sources = {s.name: s.lines for s in self.sources.values()}
        prog.lines = sum(len(s.lines) for s in self.sources.values())
        return prog
