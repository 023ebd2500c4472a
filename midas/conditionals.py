"""Conditional assembly (reference 1.11): IFE ... IFLE, IF1/IF2, IFSE/IFSN, IFDEF/IFNDEF,
IFB/IFNB, IFSQ/IFNSQ, NULL, .ELSE/.ALSO.

The conditionalised text is the rest of the line, or ``[...]`` (brackets counted; the
closing ``]`` of a successful one is passed over later by the reader, which keeps it open),
or ``{...}`` (only braces counted; a ``}`` is simply invisible).  A failing one is skipped:
:meth:`midas.reader.Reader.conditional` takes the text either way.
"""

from __future__ import annotations

from .expressions import SQUOZE, to_signed
from .symbols import MACRO, PSEUDO, SPECIAL, key, pseudo

ARITHMETIC = {
    "IFE": lambda v: v == 0,
    "IFN": lambda v: v != 0,
    "IFG": lambda v: v > 0,
    "IFGE": lambda v: v >= 0,
    "IFL": lambda v: v < 0,
    "IFLE": lambda v: v <= 0,
}


class ConditionalMixin:
    """The conditional pseudo-ops (mixed into the assembler)."""

    def condition_separator(self) -> None:
        """The space or comma ending a conditional's name or arguments is not text."""
        if self.reader.peek() in " \t,":
            self.reader.skip()

    def condition_value(self) -> tuple[int, bool]:
        """A field and its terminator; the value and whether it used undefined symbols."""
        self.reader.skip_blanks()
        value, undefined = self.expr.undefined_in(self.expr.argument_field)
        self.condition_separator()
        return value, undefined

    @pseudo("IFE", "IFN", "IFG", "IFGE", "IFL", "IFLE")
    def p_if_arithmetic(self, name: str) -> None:
        value, _undefined = self.condition_value()
        self.reader.conditional(ARITHMETIC[name](to_signed(value)))

    @pseudo("IF1", "IF2")
    def p_if_pass(self, name: str) -> None:
        self.condition_separator()
        self.reader.conditional(self.pass_no == int(name[2]))

    @pseudo("NULL")
    def p_null(self, name: str) -> None:
        self.condition_separator()
        self.reader.conditional(False)

    @pseudo(".ELSE", ".ALSO")
    def p_else_also(self, name: str) -> None:
        self.condition_separator()
        self.reader.conditional((self.reader.success == 0) == (name == ".ELSE"))

    @pseudo("IFSE", "IFSN")
    def p_if_strings(self, name: str) -> None:
        self.reader.skip_blanks()
        first = self.string_argument()
        second = self.string_argument()
        self.reader.conditional((first.upper() == second.upper()) == (name == "IFSE"))

    @pseudo("IFB", "IFNB", "IFSQ", "IFNSQ")
    def p_if_blank(self, name: str) -> None:
        self.reader.skip_blanks()
        text = self.string_argument()
        if name in ("IFB", "IFNB"):
            blank = not any(c in SQUOZE for c in text)
            self.reader.conditional(blank == (name == "IFB"))
        else:
            all_squoze = all(c in SQUOZE for c in text)
            self.reader.conditional(all_squoze == (name == "IFSQ"))

    @pseudo("IFDEF", "IFNDEF")
    def p_if_defined(self, name: str) -> None:
        c = self.reader.skip_blanks()
        if c not in SQUOZE:
            self.error(f"{name} needs a symbol")
            defined = False
        else:
            defined = self.is_defined(key(self.reader.read_run()))
        self.condition_separator()
        self.reader.conditional(defined == (name == "IFDEF"))

    def is_defined(self, name: str) -> bool:
        sym = self.symbols.get(name)
        if sym is None:
            return False
        return sym.kind in (MACRO, PSEUDO, SPECIAL) or sym.defpass != 0

    def string_argument(self) -> str:
        """A conditional's string argument: macro-argument syntax, ``\\`` not special."""
        text, _how = self.scan_normal(backslash=False, paren=False)
        return text or ""
