"""The other pseudo-ops: location counter, files and output, symbols and radix, and the
assembler's state as symbols.

Conditionals live in :mod:`midas.conditionals`, macros in :mod:`midas.macros`, loops in
:mod:`midas.loops`, text and byte pseudo-ops in :mod:`midas.data`, literal and variable
storage in :mod:`midas.literals`.
"""

from __future__ import annotations

import re
from pathlib import Path

from .errors import EndOfPass
from .expressions import MASK18, MASK36, SQUOZE, to_signed
from .source import EOF_CH, FILE, Frame, SourceFile
from .symbols import (
    F_GLOBAL,
    F_HALFKILL,
    F_KILL,
    F_VARIABLE,
    MACRO,
    P_START,
    P_STMT,
    P_VALUE,
    PSEUDO,
    SPECIAL,
    key,
    pseudo,
    special,
)
from .textcodes import sixbit_code, sixbit_words

MAX_INCLUDE_DEPTH = 20
UNSUPPORTED = (
    "1PASS", ".DECREL", ".DECSAV", ".DECTWO", ".FASL", ".BEGIN", ".END", ".BIND",
    ".DOWN", ".FORMAT", ".TTYMAC", ".I", ".F", ".LIBRA", ".LIBRQ", ".LIFS", ".ELDC",
    ".LOP", ".LNKOT", ".INEOF",
)  # fmt: skip
FORMATS = {"SBLK": "sblk", ".SBLK": "sblk", ".SLDR": "sblk", "RIM": "rim", "RIM10": "rim10"}
_ITS_NAME = re.compile(r"^(?:[A-Za-z0-9]+:)?(?:([^;\s]+);)?\s*(\S+)(?:\s+(\S+))?\s*$")


class PseudoMixin:
    """Pseudo-ops not covered by the other mixins."""

    # --- arguments ----------------------------------------------------------------------
    def comma(self, what: str) -> bool:
        """Expect and consume the comma between two arguments."""
        if self.reader.skip_blanks() == ",":
            self.reader.skip()
            self.reader.skip_blanks()
            return True
        self.error(f"{what}: a comma should separate the arguments")
        return False

    def layout_value(self, what: str) -> int | None:
        """The argument of LOC, BLOCK, OFFSET: it must be known on pass 1."""
        value, undefined = self.expr.undefined_in(self.expr.argument_word)
        if value is None:
            self.error(f"{what} needs an argument")
            return None
        if undefined:
            if self.pass_no == 1:
                self.error(
                    f"{what}: the value is not defined yet (a forward reference here "
                    "would move code between the passes)"
                )
            return None
        return value

    def symbol_list(self) -> list[tuple[str, int]]:
        """Symbols separated by commas or blanks, to the end of the line."""
        names = []
        while True:
            c = self.reader.skip_blanks()
            if c == ",":
                self.reader.skip()
            elif c in SQUOZE:
                start = self.reader.pos
                names.append((key(self.reader.read_run()), start))
            else:
                return names

    # --- location counter -----------------------------------------------------------------
    @pseudo("LOC", kind=P_STMT)
    def p_loc(self, name: str) -> None:
        value = self.layout_value("LOC")
        if value is not None:
            self.top.flush_bytes()
            self.locate(value & MASK18)

    @pseudo("BLOCK", kind=P_STMT)
    def p_block(self, name: str) -> None:
        value = self.layout_value("BLOCK")
        if value is None:
            return
        if to_signed(value) < 0:
            self.error(f"BLOCK size negative ({to_signed(value)})")
            return
        self.top.flush_bytes()
        self.advance(value)

    @pseudo("OFFSET", kind=P_STMT)
    def p_offset(self, name: str) -> None:
        value = self.layout_value("OFFSET")
        if value is not None:
            self.offset = value & MASK18

    @pseudo("CONSTANTS", kind=P_STMT)
    def p_constants(self, name: str) -> None:
        self.dump_constants()

    @pseudo("VARIABLES", kind=P_STMT)
    def p_variables(self, name: str) -> None:
        self.allocate_variables()

    @pseudo("END", kind=P_STMT)
    def p_end(self, name: str) -> None:
        """END [start]: store pending variables and literals, end the pass."""
        start = 0
        if self.reader.skip_blanks() not in "\n;?" + EOF_CH:
            start = self.expr.argument_word() or 0
        self.finish_pass(start)
        raise EndOfPass

    # --- files and output -------------------------------------------------------------------
    @pseudo(".INSRT", kind=P_START)
    def p_insrt(self, name: str) -> None:
        start = self.reader.pos
        spec = _strip_comment(self.reader.rest_of_line())
        self.reader.skip_line_end()
        if not spec:
            self.error(".INSRT needs a file name", start)
            return
        if self.reader.file_depth() > MAX_INCLUDE_DEPTH:
            self.error(f".INSRT {spec}: files inserted more than {MAX_INCLUDE_DEPTH} deep", start)
            return
        source = self.include(spec, start)
        if source is not None:
            self.reader.push_frame(Frame(FILE, source.text, source=source))

    def include(self, spec: str, start: int) -> SourceFile | None:
        """Find an inserted file, relative to the directory of the file inserting it."""
        including = self.reader.current_file()
        base = including.path.parent if including.path else Path.cwd()
        tried = _candidates(spec)
        for candidate in tried:
            path = _find(base, candidate)
            if path is not None:
                return self.load_source(path)
        self.error(
            f".INSRT {spec}: file not found (looked for {', '.join(tried)} in {base})", start
        )
        return None

    @pseudo(*FORMATS)
    def p_format(self, name: str) -> None:
        self.output_format = FORMATS[name]

    @pseudo("RELOCA")
    def p_relocatable(self, name: str) -> None:
        """RELOCATABLE: MIDAS starts relocatable (STINK) output at relocatable 0.  We
        record it and assemble absolute from 0, which is that output loaded at 0."""
        self.error(
            "RELOCATABLE: relocatable (STINK) output is not supported; the program is "
            "assembled absolute from location 0",
            self.expr.pseudo_start,
            warning=True,
        )
        self.relocatable = True
        self.top.flush_bytes()
        self.locate(0)

    @pseudo("WORD", kind=P_STMT)
    def p_word(self, name: str) -> None:
        """WORD x: x goes into the binary file itself, where the output has got to, not
        into memory (MIDAS ends the current block and punches the word)."""
        value = self.expr.argument_word()
        if value is None:
            self.error("WORD needs a word to write", self.expr.pseudo_start)
        elif self.pass_no == 2:
            self.raw_words.append((len(self.emitted), value))

    @pseudo("OCT", "EXP")
    def p_exp(self, name: str) -> None:
        """OCT and EXP (MIDAS 73, dropped later) do nothing: ``OCT 1750`` is the word
        1750, read in the current radix like any other."""

    @pseudo("NOSYMS")
    def p_nosyms(self, name: str) -> None:
        self.nosyms = True

    @pseudo(*UNSUPPORTED)
    def p_unsupported(self, name: str) -> None:
        self.error(f"{name} is not supported by this assembler", self.expr.pseudo_start)
        self.reader.rest_of_line()

    @pseudo(".SYMTAB", ".XCREF", ".CRFON", ".CRFOFF", ".CRFIL", ".LSTON", ".LSTOF", ".AUXIL",
            ".SEE")  # fmt: skip
    def p_ignored(self, name: str) -> None:
        """Table sizes, cross-reference and listing control: accepted and ignored."""
        self.reader.rest_of_line()

    @pseudo("TITLE", "SUBTTL")
    def p_title(self, name: str) -> None:
        text = self.reader.rest_of_line().strip()
        if name == "TITLE" and not self.title:
            self.title = text

    @pseudo("PRINTX", "PRINTC")
    def p_print(self, name: str) -> None:
        text = self.reader.read_delimited()
        if text is None:
            self.error(f"{name} needs a delimited text")
            return
        self.printed.append(text.replace("!", "") if name == "PRINTX" else text)

    @pseudo("COMMEN")
    def p_comment(self, name: str) -> None:
        self.reader.read_delimited()

    @pseudo(".ERR", ".FATAL")
    def p_err(self, name: str) -> None:
        self.error(f"{name} {self.reader.rest_of_line().strip()}", self.expr.pseudo_start)

    @pseudo(".NSTGW", ".YSTGW")
    def p_stgw(self, name: str) -> None:
        self.stgsw = name == ".NSTGW"

    # --- radix and symbols ------------------------------------------------------------------
    @pseudo("RADIX")
    def p_radix(self, name: str) -> None:
        self.reader.skip_blanks()
        self.radix = self.checked_radix(self.expr.argument_field())

    @pseudo("DECIMAL", "OCTAL")
    def p_decimal(self, name: str) -> None:
        self.radix = 10 if name == key("DECIMAL") else 8

    def checked_radix(self, value: int) -> int:
        if 2 <= value <= 10:
            return value
        self.error(f"radix {value} is not between 2 and 10.")
        return self.radix

    @pseudo("EXPUNGE")
    def p_expunge(self, name: str) -> None:
        for sym_name, _start in self.symbol_list():
            self.symbols.pop(sym_name, None)

    @pseudo("EQUALS")
    def p_equals(self, name: str) -> None:
        names = self.symbol_list()
        if len(names) != 2:
            self.error("EQUALS needs two symbols: EQUALS NEW,OLD")
            return
        (new, _), (old, start) = names
        sym = self.symbols.get(old)
        if sym is None:
            self.error(f"EQUALS: {old} is not defined", start)
            return
        copy = sym.copy()
        copy.defpass = self.pass_no
        self.order += 1
        copy.order = self.order
        self.symbols[new] = copy

    @pseudo(".KILL", ".HKILL", ".GLOBAL")
    def p_symbol_flags(self, name: str) -> None:
        flag = {".KILL": F_KILL, ".HKILL": F_HALFKILL, key(".GLOBAL"): F_GLOBAL}[name]
        for sym_name, _start in self.symbol_list():
            self.own_symbol(sym_name).flags |= flag

    @pseudo(".SCALAR", ".VECTOR")
    def p_scalar(self, name: str) -> None:
        size = 1
        while True:
            c = self.reader.skip_blanks()
            if c == ",":
                self.reader.skip()
                continue
            if c not in SQUOZE:
                return
            start = self.reader.pos
            var = key(self.reader.read_run())
            if self.reader.peek() == "(":
                self.reader.skip()
                size = self.expr.argument_field() or size
                if self.reader.skip_blanks() == ")":
                    self.reader.skip()
                else:
                    self.error(f"{name}: missing ')'")
            elif name == key(".SCALAR"):
                size = 1
            self.add_variable(var, size, start)

    # --- functions of symbols and numbers ---------------------------------------------
    @pseudo(".RADIX", kind=P_VALUE)
    def p_dot_radix(self, name: str) -> int:
        self.reader.skip_blanks()
        radix = self.checked_radix(self.expr.argument_field())
        self.comma(name)
        saved = self.radix
        self.radix = radix
        try:
            return self.expr.argument_field()
        finally:
            self.radix = saved

    @pseudo(".TYPE", kind=P_VALUE)
    def p_type(self, name: str) -> int:
        """Definition status of a symbol (the codes of the MIDAS manual)."""
        if self.reader.skip_blanks() not in SQUOZE:
            self.error(".TYPE needs a symbol")
            return 0o17
        run = self.reader.read_run()
        if self.reader.peek() == ",":
            self.reader.skip()
        if re.fullmatch(r"[0-9]+\.?|[0-9]*\.[0-9]+", run):
            return MASK36  # -1: a number
        sym_name = run[:6].upper()
        sym = self.symbols.get(sym_name)
        if sym is None:
            return 3 if sym_name in self.expr.seen_undefined else 0o17
        if sym.kind in (PSEUDO, MACRO, SPECIAL):
            return 1
        glob = sym.flags & F_GLOBAL
        if sym.flags & F_VARIABLE:
            code = 6 if glob else 4
        else:
            code = 0o10 if glob else 2
        return code + (0 if sym.defpass else 1)

    # --- assembly state as symbols ----------------------------------------------------------
    @special(".PASS")
    def get_pass(self) -> int:
        return self.pass_no

    @special(".PPASS")
    def get_ppass(self) -> int:
        return 2

    @special(".SUCCESS", setter="set_success")
    def get_success(self) -> int:
        return self.reader.success

    def set_success(self, value: int) -> None:
        self.reader.success = value

    @special(".MLLIT", setter="set_mllit")
    def get_mllit(self) -> int:
        return self.mllit & MASK36

    def set_mllit(self, value: int) -> None:
        self.mllit = to_signed(value)

    @special(".HKALL", setter="set_hkall")
    def get_hkall(self) -> int:
        return self.hkall

    def set_hkall(self, value: int) -> None:
        self.hkall = value

    @special(".LITSW", setter="set_litsw")
    def get_litsw(self) -> int:
        return self.litsw

    def set_litsw(self, value: int) -> None:
        self.litsw = value

    @special(".STGSW", setter="set_stgsw")
    def get_stgsw(self) -> int:
        return int(self.stgsw)

    def set_stgsw(self, value: int) -> None:
        self.stgsw = bool(value)

    @special(".ERRCNT")
    def get_errcnt(self) -> int:
        return len(self.diagnostics.errors)

    @special(".FNAM1")
    def get_fnam1(self) -> int:
        return self.sixbit_name(Path(self.main.name).stem)

    @special(".FNAM2")
    def get_fnam2(self) -> int:
        return self.sixbit_name(Path(self.main.name).suffix.lstrip("."))

    @staticmethod
    def sixbit_name(name: str) -> int:
        codes = [c for c in (sixbit_code(ch) for ch in name[:6]) if c is not None]
        return sixbit_words(codes)[0] if codes else 0


def _strip_comment(spec: str) -> str:
    """An .INSRT file name ends at a comment: a ``;`` after a blank (ITS ``DIR;`` stays)."""
    m = re.search(r"(^|[ \t]);", spec)
    return (spec[: m.start()] if m else spec).strip()


def _candidates(spec: str) -> list[str]:
    """Host names to try for an .INSRT name (host style, or ITS ``DEV:DIR;FN1 FN2``)."""
    out = [spec]
    m = _ITS_NAME.match(spec)
    if m:
        directory, fn1, fn2 = m.groups()
        names = [f"{fn1}.{fn2}"] if fn2 and fn2 != ">" else []
        names += [f"{fn1}.mid", fn1]
        for name in names:
            out.append(name)
            if directory:
                out.append(f"{directory}/{name}")
    return list(dict.fromkeys(out))


def _find(base: Path, name: str) -> Path | None:
    """``base/name`` if it exists, else a file whose path differs from it only in case."""
    path = base / name
    if path.is_file():
        return path
    current = base
    for part in Path(name).parts:
        try:
            entries = {entry.name.lower(): entry for entry in current.iterdir()}
        except OSError:
            return None
        match = entries.get(part.lower())
        if match is None:
            return None
        current = match
    return current if current.is_file() else None
