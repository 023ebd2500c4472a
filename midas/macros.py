"""Macros (reference 1.9): DEFINE ... TERMIN, calls and their argument syntaxes, gensyms.

A body is scanned once, when it is defined: dummy names (recognised only between
non-SQUOZE characters, six characters significant) become argument slots, ``!`` next to
a dummy is dropped, ``.QUOTE`` text is copied untouched, and nested DEFINE/IRP ... TERMIN
pairs are counted to find the matching TERMIN.  A call substitutes the arguments into the
body and pushes the result on the input stack, where it is read like any other text.
"""

from __future__ import annotations

import re

from .expressions import SQUOZE
from .source import EOF_CH, MACRO, TEXT, Frame, blanks_end
from .symbols import MACRO as MACRO_SYM
from .symbols import Sym, key, pseudo, special
from .textcodes import numeral

# Argument syntaxes (bind classes).
NORMAL, BALANCED, WHOLELINE, STRUNG, KEEPSTRUNG, EVALUATED = range(6)
# How an argument scan ended.
MORE, END_EOL, END_OTHER = range(3)
# What a call said about a dummy.
UNSPECIFIED, NULLSPECIFIED, SPECIFIED = range(3)

OPENS = "<([{"
CLOSES = ">)]}"
TERMIN_OPENERS = frozenset(("DEFINE", "IRP", "IRPC", "IRPS", "IRPW", "IRPNC", ".TTYMA"))
_BODY_TOKEN = re.compile(r"[A-Za-z0-9.$%]+|\x00")
_PLAIN_ARG = re.compile(r"[^,;\n\x00]*")


class Dummy:
    """One dummy argument and its bind class."""

    __slots__ = ("name", "syntax", "gensym", "default", "keyword")

    def __init__(self, name: str, syntax: int, gensym: bool, keyword: bool) -> None:
        self.name = name
        self.syntax = syntax
        self.gensym = gensym
        self.default: str | None = None
        self.keyword = keyword


class Macro:
    """A macro: its dummies and its body as a template (see :func:`template`)."""

    __slots__ = ("name", "dummies", "body", "simple_call", "one_line")

    def __init__(self, name: str, dummies: list[Dummy], parts: list[str | int]) -> None:
        self.name = name
        self.dummies = dummies
        self.body = template(parts) + EOF_CH
        # Every argument read the normal way, a body ending with a line end: a call the
        # fast path can make (midas.fastlines).
        normal = all(d.syntax == NORMAL and not d.keyword for d in dummies)
        self.simple_call = normal and self.body.endswith("\n" + EOF_CH)
        # ... or a body of one line and no gensyms or defaults: a call that stands for
        # its text in the line that holds it.
        self.one_line = (
            normal
            and "\n" not in self.body
            and not any(d.gensym or d.default is not None for d in dummies)
        )


def template(parts: list[str | int]) -> str:
    """A body split at its dummy slots as a ``str.format`` template: expanding it (the
    arguments put in, not rescanned) is then one call, ``body.format(*args)``."""
    return "".join(
        p.replace("{", "{{").replace("}", "}}") if isinstance(p, str) else f"{{{p}}}" for p in parts
    )


class MacroMixin:
    """Macro definition and expansion (mixed into the assembler)."""

    # --- definition ---------------------------------------------------------------------
    @pseudo("DEFINE")
    def p_define(self, name: str) -> None:
        start = self.reader.pos
        if self.reader.skip_blanks() not in SQUOZE:
            self.error("DEFINE needs the name of the macro")
            self.reader.rest_of_line()
            return
        macro_name = key(self.reader.read_run())
        dummies = self.read_dummy_list()
        parts = self.read_body({d.name: i for i, d in enumerate(dummies)}, start)
        if parts is None:
            return
        sym = Sym(MACRO_SYM, macro=Macro(macro_name, dummies, parts))
        sym.defpass = self.pass_no
        self.symbols[macro_name] = sym

    def read_dummy_list(self) -> list[Dummy]:
        """The rest of a define line: dummy names and the delimiters giving bind classes."""
        dummies: list[Dummy] = []
        syntax, gensym, keyword = NORMAL, False, False
        while True:
            c = self.reader.peek()
            if c == "\n" or c == EOF_CH:
                self.reader.skip_line_end()
                return dummies
            if c == ";":
                self.reader.rest_of_line()
                continue
            if c in SQUOZE:
                dummy = Dummy(key(self.reader.read_run()), syntax, gensym, keyword)
                dummies.append(dummy)
                c = self.reader.peek()
                if c == "/":  # FOO/ is the old way of writing -FOO
                    self.reader.skip()
                    syntax = NORMAL if syntax == WHOLELINE else WHOLELINE
                    dummy.syntax = syntax
                elif c == "=":
                    self.reader.skip()
                    text, how = self.scan_normal(backslash=False, paren=False)
                    dummy.default = text or ""
                    if how == END_EOL:
                        self.reader.skip_line_end()
                        return dummies
                continue
            self.reader.skip()
            if c in OPENS:
                syntax = BALANCED
            elif c in CLOSES:
                syntax = NORMAL
            elif c in "*&#?-/":
                toggled = {"*": STRUNG, "&": KEEPSTRUNG, "#": EVALUATED, "?": BALANCED,
                           "-": WHOLELINE, "/": WHOLELINE}[c]  # fmt: skip
                syntax = NORMAL if syntax == toggled else toggled
            elif c == "\\":
                gensym = not gensym
            elif c == "+":
                keyword = not keyword
            elif c == ":":
                syntax, gensym, keyword = NORMAL, False, False

    def read_body(self, dummies: dict[str, int], start: int) -> list[str | int] | None:
        """The text up to the matching TERMIN, with dummies made into argument slots."""
        site = self.reader.site(start)
        parts: list[str | int] = []
        text = []
        depth = 0
        pos = seg = self.reader.pos
        src = self.reader.text
        while True:
            m = _BODY_TOKEN.search(src, pos)
            assert m is not None
            tok = m.group()
            at = m.start()
            if tok == EOF_CH:
                text.append(src[seg:at])
                self.reader.seek(at)
                if not self.reader.pop_frame():
                    self.error(f"no TERMIN for the DEFINE or IRP at {self.reader.place(site)}")
                    return None
                src, pos, seg = self.reader.text, self.reader.pos, self.reader.pos
                continue
            word = tok[:6].upper()
            slot = dummies.get(word)
            if slot is not None or (word == "TERMIN" and depth == 0) or word == ".QUOTE":
                # Text before it; an adjacent '!' is a concatenation mark and goes.
                end = at - 1 if at > seg and src[at - 1] == "!" else at
                text.append(src[seg:end])
                pos = m.end()
                if slot is not None:
                    parts.append("".join(text))
                    text = []
                    parts.append(slot)
                    if src[pos] == "!":
                        pos += 1
                    seg = pos
                    continue
                if word == "TERMIN":
                    parts.append("".join(text))
                    self.reader.seek(pos)
                    if self.reader.peek() != EOF_CH:
                        self.reader.skip()  # the character after TERMIN is eaten
                    return [p for p in parts if p != ""]
                self.reader.seek(pos)
                quoted = self.reader.read_delimited()
                text.append(quoted or "")
                src, pos, seg = self.reader.text, self.reader.pos, self.reader.pos
                continue
            if word == "TERMIN":
                depth -= 1
            elif word in TERMIN_OPENERS:
                depth += 1
            pos = m.end()

    def read_template(self, dummies: dict[str, int], start: int) -> str | None:
        """:meth:`read_body` as a template.  A body read from an expansion is kept by the
        text it was read from, so that the next expansion of the same text (an IRP in a
        macro called again) does not read it again."""
        key = None
        if self.reader.in_expansion():
            key = (tuple(dummies), self.reader.text_key(self.reader.pos))
            known = self.bodies.get(key)
            if known is not None:
                body, length = known
                self.reader.skip(length)
                return body
        text, pos = self.reader.text, self.reader.pos
        parts = self.read_body(dummies, start)
        if parts is None:
            return None
        body = template(parts)
        if key is not None and self.reader.text is text:  # read from this text alone
            self.bodies[key] = (body, self.reader.pos - pos)
        return body

    @pseudo("TERMIN")
    def p_termin(self, name: str) -> None:
        """A TERMIN that closes nothing: MIDAS goes on as if it were not there."""
        self.error("TERMIN without a DEFINE or IRP (ignored)", self.expr.pseudo_start, warning=True)

    @pseudo(".QUOTE")
    def p_quote(self, name: str) -> None:
        text = self.reader.read_delimited()
        if text:
            self.reader.push_text(TEXT, text)

    # --- calls --------------------------------------------------------------------------
    def call_macro(self, macro: Macro, name: str, start: int) -> None:
        site = self.reader.site(start)
        args = self.call_arguments(macro) if macro.dummies else []
        frame = Frame(MACRO, macro.body.format(*args), site, name)
        self.reader.push_frame(frame)

    def call_arguments(self, macro: Macro) -> list[str]:
        """Read a call's arguments by each dummy's syntax; fill in the unspecified ones."""
        dummies = macro.dummies
        n = len(dummies)
        values: list[str] = [""] * n
        status = [UNSPECIFIED] * n
        c = self.reader.peek()
        paren = ended = eol = False
        if c == "\n":
            self.reader.skip()  # NAME alone on its line: every dummy unspecified
            ended = True
        elif c == EOF_CH or c == ";":
            ended = True
        else:
            self.reader.skip()  # the character after the name is not part of the arguments
            paren = c in OPENS
        i = 0
        while i < n and not ended:
            if dummies[i].keyword:
                j = i
                while j < n and dummies[j].keyword:
                    j += 1
                how = self.keyword_arguments(dummies, i, j, values, status, paren)
                i = j
            else:
                how = self.one_argument(dummies[i].syntax, i, values, status, paren)
                i += 1
            if how != MORE:
                ended = True
                eol = how == END_EOL
        if paren:
            self.skip_to_close()
        elif eol:
            self.reader.skip_line_end()
        return self.filled_arguments(dummies, values, status)

    def filled_arguments(
        self, dummies: list[Dummy], values: list[str], status: list[int]
    ) -> list[str]:
        """The arguments of a call: those given, else defaults, gensyms or nothing."""
        result = []
        for d, value, st in zip(dummies, values, status, strict=True):
            if st == SPECIFIED:
                result.append(value)
            elif d.default is not None:
                result.append(d.default)
            elif d.gensym and st == UNSPECIFIED:
                result.append(self.new_gensym())
            else:
                result.append("")
        return result

    def one_argument(
        self, syntax: int, i: int, values: list[str], status: list[int], paren: bool
    ) -> int:
        text, how = self.scan_argument(syntax, paren)
        if text is not None:
            values[i] = text
            status[i] = SPECIFIED
            if (
                syntax == NORMAL
                and i + 1 < len(values)
                and self.reader.text[self.reader.pos - 1] == "]"
                and self.reader.text[self.reader.pos] == ","
            ):
                self.error(
                    "a comma after a bracketed argument gives the next dummy no argument "
                    "(MIDAS reads [A],[B] as A, nothing, B: write [A][B])",
                    self.reader.pos,
                    warning=True,
                )
        elif how == MORE:
            status[i] = NULLSPECIFIED
        return how

    def keyword_arguments(
        self, dummies: list[Dummy], i: int, j: int,
        values: list[str], status: list[int], paren: bool,
    ) -> int:  # fmt: skip
        """A run of by-keyword dummies: ``NAME=value`` until a terminator."""
        slots = {dummies[k].name: k for k in range(i, j)}
        while True:
            c = self.reader.skip_blanks()
            if c not in SQUOZE:
                if c == ",":
                    self.reader.skip()
                    return MORE
                return END_EOL if c == "\n" else END_OTHER
            start = self.reader.pos
            name = key(self.reader.read_run())
            k = slots.get(name)
            if self.reader.skip_blanks() != "=" or k is None:
                self.error(f"{name} is not a keyword argument of this macro", start)
                return END_OTHER
            self.reader.skip()
            how = self.one_argument(dummies[k].syntax, k, values, status, paren)
            if how != MORE:
                return how

    def scan_argument(self, syntax: int, paren: bool) -> tuple[str | None, int]:
        if syntax == NORMAL:
            return self.scan_normal(backslash=True, paren=paren)
        if syntax == BALANCED:
            return self.scan_balanced()
        if syntax == WHOLELINE:
            if self.reader.peek() == EOF_CH:
                return None, END_OTHER
            text = self.reader.rest_of_line()
            self.reader.skip_line_end()
            return text, MORE
        if syntax in (STRUNG, KEEPSTRUNG):
            return self.scan_strung(syntax == KEEPSTRUNG)
        return self.scan_evaluated()

    def scan_normal(self, backslash: bool, paren: bool) -> tuple[str | None, int]:
        """The normal syntax: ``[text]``, ``\\expr``, or text up to ``,`` ``;`` or EOL."""
        c = self.reader.peek()
        if c in " \t":
            end = blanks_end(self.reader.text, self.reader.pos)
            if self.reader.text[end] == ";":  # blanks before a semicolon do not count
                self.reader.seek(end)
                c = ";"
        if c == ",":
            self.reader.skip()
            return None, MORE
        if c == "\n" or c == EOF_CH:
            return None, END_EOL
        if c == ";" or (paren and c in CLOSES):
            return None, END_OTHER
        if c == "[":
            self.reader.skip()
            text = self.reader.read_balanced("[", "]")
            return text or "", MORE
        if c == "\\" and backslash:
            self.reader.skip()
            return self.value_argument()
        if paren:
            return self.scan_until_close(stop=",;\n")
        parts = []
        while True:
            m = self.reader.read_match(_PLAIN_ARG)
            assert m is not None
            parts.append(m.group())
            c = self.reader.text[self.reader.pos]
            if c != EOF_CH or not self.reader.pop_frame():
                break
        return self.end_argument("".join(parts), c)

    def end_argument(self, text: str, c: str) -> tuple[str, int]:
        """An argument ended by ``c``: a comma means more follow (and is consumed), ``;``
        ends the call before a comment, anything else is the end of the line."""
        if c == ",":
            self.reader.skip()
            return text, MORE
        if c == ";":
            return text.rstrip(" \t"), END_OTHER
        return text, END_EOL

    def scan_balanced(self) -> tuple[str | None, int]:
        """The balanced syntax: brackets must balance; an unmatched close ends the call."""
        c = self.reader.peek()
        if c == ",":
            self.reader.skip()
            return None, MORE
        if c in "\n;" or c == EOF_CH or c in CLOSES:
            return None, END_EOL if c == "\n" else END_OTHER
        return self.scan_until_close(stop=",;\n")

    def scan_until_close(self, stop: str) -> tuple[str | None, int]:
        """Text up to a character of ``stop`` outside brackets, or an unmatched close."""
        parts: list[str] = []
        depth = 0
        while True:
            c = self.reader.peek()
            if c == EOF_CH:
                return "".join(parts), END_OTHER
            if depth == 0 and c in stop:
                return self.end_argument("".join(parts), c)
            if c in OPENS:
                depth += 1
            elif c in CLOSES:
                if depth == 0:
                    return "".join(parts), END_OTHER
                depth -= 1
            parts.append(c)
            self.reader.skip()

    def scan_strung(self, keep: bool) -> tuple[str | None, int]:
        """The strung syntax: ``/text/`` with any delimiter (kept if keepstrung)."""
        c = self.reader.skip_blanks()
        if c == ",":
            self.reader.skip()
            return None, MORE
        if c in "\n;" or c == EOF_CH or c in CLOSES:
            return None, END_EOL if c == "\n" else END_OTHER
        text = self.reader.read_delimited() or ""
        if keep:
            text = c + text + c
        return text, self.argument_end()

    def scan_evaluated(self) -> tuple[str | None, int]:
        c = self.reader.skip_blanks()
        if c == ",":
            self.reader.skip()
            return None, MORE
        if c in "\n;" or c == EOF_CH:
            return None, END_EOL if c == "\n" else END_OTHER
        return self.value_argument()

    def value_argument(self) -> tuple[str, int]:
        """``\\expr`` (or an evaluated dummy): the field's value as a numeral.

        Only the field's terminator is eaten.  A line end is CR LF: MIDAS eats the CR,
        and the LF still ends the statement, so a line end here ends the call and stays.
        """
        self.reader.skip_blanks()
        text = numeral(self.expr.argument_field(), self.radix)
        c = self.reader.peek()
        if c == "\n" or c == EOF_CH or c == ";" or c in CLOSES:
            return text, END_OTHER
        self.reader.skip()  # the field's terminator
        return text, MORE

    def argument_end(self) -> int:
        """After a strung argument: a comma lets more follow, anything else ends the call."""
        c = self.reader.skip_blanks()
        if c == ",":
            self.reader.skip()
            return MORE
        return END_EOL if c == "\n" else END_OTHER

    def skip_to_close(self) -> None:
        """End of a parenthesized call: drop text up to the close matching the open."""
        depth = 0
        while True:
            c = self.reader.peek()
            if c == "\n" or c == EOF_CH:
                self.error("missing close bracket of a parenthesized macro call")
                return
            self.reader.skip()
            if c in OPENS:
                depth += 1
            elif c in CLOSES:
                if depth == 0:
                    return
                depth -= 1

    def new_gensym(self) -> str:
        self.gensym_count = (self.gensym_count + 1) & ((1 << 36) - 1)
        return "G" + numeral(self.gensym_count, self.radix).rjust(5, "0")[-5:]

    @special(".GSCNT", setter="set_gensym_count")
    def get_gensym_count(self) -> int:
        return self.gensym_count

    def set_gensym_count(self, value: int) -> None:
        self.gensym_count = value

    @pseudo(".GSSET")
    def p_gsset(self, name: str) -> None:
        self.reader.skip_blanks()
        self.gensym_count = self.expr.argument_field()
