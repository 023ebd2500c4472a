"""Conditional assembly (reference 1.11): IFE ... IFLE, IF1/IF2, IFSE/IFSN, IFDEF/IFNDEF,
IFB/IFNB, IFSQ/IFNSQ, NULL, .ELSE/.ALSO.

The conditionalised text is the rest of the line, or ``[...]`` (brackets counted; the
closing ``]`` of a successful one is found later by the reader, via ``cond_stack``), or
``{...}`` (only braces counted; a ``}`` is simply invisible).  A failing one is skipped.
"""

from __future__ import annotations

from .expressions import MASK36, SQUOZE, to_signed
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

    def conditional(self, success: bool) -> None:
        """Assemble or skip the conditionalised text that starts here."""
        self.success = MASK36 if success else 0
        c = self.peek()
        if c == "[":
            self.pos += 1
            if success:
                self.cond_stack.append(self.site(self.pos - 1))
            else:
                self.skip_balanced("[", "]")
        elif c == "{":
            self.pos += 1
            if not success:
                self.skip_balanced("{", "}")
        elif not success:
            self.rest_of_line()

    def skip_balanced(self, open_ch: str, close_ch: str) -> None:
        site = self.site(self.pos - 1)
        if self.read_balanced(open_ch, close_ch) is None:
            self.error(f"'{close_ch}' missing for the failing conditional at {self.place(site)}")

    def close_conditional(self) -> None:
        """The ``]`` ending a successful bracketed conditional."""
        self.cond_stack.pop()
        self.pos += 1
        self.success = MASK36

    def condition_separator(self) -> None:
        """The space or comma ending a conditional's name or arguments is not text."""
        if self.peek() in " \t,":
            self.pos += 1

    def condition_value(self) -> tuple[int, bool]:
        """A field and its terminator; the value and whether it used undefined symbols."""
        self.skip_blanks()
        saved = self.undef
        self.undef = False
        value = self.argument_field()
        undefined = self.undef
        self.undef = saved
        self.condition_separator()
        return value, undefined

    @pseudo("IFE", "IFN", "IFG", "IFGE", "IFL", "IFLE")
    def p_if_arithmetic(self, name: str) -> None:
        value, _undefined = self.condition_value()
        self.conditional(ARITHMETIC[name](to_signed(value)))

    @pseudo("IF1", "IF2")
    def p_if_pass(self, name: str) -> None:
        self.condition_separator()
        self.conditional(self.pass_no == int(name[2]))

    @pseudo("NULL")
    def p_null(self, name: str) -> None:
        self.condition_separator()
        self.conditional(False)

    @pseudo(".ELSE", ".ALSO")
    def p_else_also(self, name: str) -> None:
        self.condition_separator()
        self.conditional((self.success == 0) == (name == ".ELSE"))

    @pseudo("IFSE", "IFSN")
    def p_if_strings(self, name: str) -> None:
        self.skip_blanks()
        first = self.string_argument()
        second = self.string_argument()
        self.conditional((first.upper() == second.upper()) == (name == "IFSE"))

    @pseudo("IFB", "IFNB", "IFSQ", "IFNSQ")
    def p_if_blank(self, name: str) -> None:
        self.skip_blanks()
        text = self.string_argument()
        if name in ("IFB", "IFNB"):
            blank = not any(c in SQUOZE for c in text)
            self.conditional(blank == (name == "IFB"))
        else:
            all_squoze = all(c in SQUOZE for c in text)
            self.conditional(all_squoze == (name == "IFSQ"))

    @pseudo("IFDEF", "IFNDEF")
    def p_if_defined(self, name: str) -> None:
        c = self.skip_blanks()
        if c not in SQUOZE:
            self.error(f"{name} needs a symbol")
            defined = False
        else:
            defined = self.is_defined(key(self.read_run()))
        self.condition_separator()
        self.conditional(defined == (name == "IFDEF"))

    def is_defined(self, name: str) -> bool:
        sym = self.symbols.get(name)
        if sym is None:
            return False
        return sym.kind in (MACRO, PSEUDO, SPECIAL) or sym.defpass != 0

    def string_argument(self) -> str:
        """A conditional's string argument: macro-argument syntax, ``\\`` not special."""
        text, _how = self.scan_normal(backslash=False, paren=False)
        return text or ""
