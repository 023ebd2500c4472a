"""Statements: the loop that reads words into a context, groupings, and the location counter."""

from __future__ import annotations

import re

from .conditionals import ARITHMETIC
from .contexts import Context, GroupContext
from .errors import AssemblyAbort
from .expressions import DONE, INDIRECT, MASK18, MASK36, add_rh, swap, to_signed
from .source import EOF_CH, FILE
from .symbols import F_IO, PSEUDO, VALUE

MAX_DEPTH = 100  # literals and groupings nested inside each other

_SKIP = re.compile(r"[ \t\n?]*")
_SKIP_SAME_LINE = re.compile(r"[ \t?]*")
_CLOSERS = ")>]"

# The commonest statement, "LABEL: OP AC,@ADDR+N(X) ;comment" with every part a plain
# symbol or number, is read by one regular expression (see ``simple_statement``).
_NAME = r"[A-Za-z$%][A-Za-z0-9$%]*"
_TOKEN = rf"(?:{_NAME}|[0-9]+\.?|\.)"
_SIMPLE = re.compile(
    rf"((?:{_NAME}:(?!:)[ \t]*)*)({_NAME})(?:[ \t]+(?:({_TOKEN}),)?(@)?"
    rf"({_TOKEN})?(?:([+-])({_TOKEN}))?(?:\(({_TOKEN})\))?)?[ \t]*(?=[;\n])"
)
_LABEL = re.compile(rf"({_NAME}):[ \t]*")
# So is an arithmetic conditional on a plain field, "IFE X-1,[...]": IRPC-driven code (an
# outline compiler) is mostly made of them.
_SIMPLE_IF = re.compile(rf"(IF[ENGL]E?)[ \t]+({_TOKEN})(?:([+-])({_TOKEN}))?,", re.IGNORECASE)


class StatementMixin:
    """Reading statements, groupings, storing words (mixed into the assembler)."""

    def read_statements(self, ctx: Context) -> None:
        """Read statements into ``ctx`` until its closing character (or the input ends)."""
        closer = ctx.closer
        outer = self.ctx
        self.ctx = ctx
        top = ctx is self.top
        opened = None if top else self.site(self.pos - 1)
        self.open_closers.append(closer)
        try:
            while True:
                c = self.next_statement(top)
                if c == closer and closer:
                    self.pos += 1
                    return
                if c == EOF_CH:
                    if opened is not None:
                        self.error(f"missing '{closer}' for the {ctx.name} opened at "
                                   f"{self.place(opened)} (the input ended)")  # fmt: skip
                    return
                if c == "\n":  # old dialect: the line end closes literals and groupings
                    if self.mllit < 0:
                        self.error(f"'{closer}' missing at the end of the line")
                    return
                if c in _CLOSERS:
                    if c in self.open_closers:
                        self.error(f"missing '{closer}' for the {ctx.name} opened at "
                                   f"{self.place(opened)}, before '{c}'")  # fmt: skip
                        return
                    self.error(f"unmatched '{c}'")
                    self.pos += 1
                    continue
                if not ctx.whole_value:
                    self.undef = False
                if top:
                    frame = self.frames[-1]
                    self.stmt_site = (frame.source, self.pos) if frame.kind == FILE else frame.site
                    if self.fast_statements and not ctx.sizes and self.simple_statement():
                        continue
                self.at_start = True
                value = self.read_word(True)
                if value is not None and value is not DONE:
                    if top and not ctx.sizes:
                        self.emit(value)
                    else:
                        ctx.add(value)
                c = self.text[self.pos]
                if c != "\n" and c != ";":
                    self.end_statement()
        finally:
            self.ctx = outer
            self.open_closers.pop()

    fast_statements = True  # tests turn it off to compare with the general reader

    def simple_statement(self) -> bool:
        """Assemble a plain instruction line in one step, as the general reader would.

        Returns False (having done nothing) unless every name in it is a numeric symbol
        (or undefined) and every number is valid, so that nothing else can happen.
        """
        m = _SIMPLE.match(self.text, self.pos)
        if m is None:
            return self.simple_conditional()
        labels, op, ac, indirect, addr, sign, offset, index = m.groups()
        sym = self.symbols.get(op[:6].upper())
        if sym is None or sym.kind != VALUE or not sym.defpass:
            return False
        tokens = []
        for group, token in ((3, ac), (5, addr), (7, offset), (8, index)):
            if token is None:
                tokens.append(0)
                continue
            value = self.simple_value(token, m.start(group))
            if value is None:
                return False
            tokens.append(value)
        ac_value, addr_value, offset_value, index_value = tokens
        if sign is not None:
            addr_value += offset_value if sign == "+" else -offset_value
            addr = "+"
        if labels:
            for label in _LABEL.finditer(labels):
                name = label.group(1)[:6].upper()
                self.define_label(name, m.start(1) + label.start(), False, 0)
        self.pos = m.end()
        value = sym.value
        if ac is not None:
            self.w_io = bool(sym.flags & F_IO)
            value = (value + self.ac_field(ac_value)) & MASK36
            self.w_io = False
        if addr is not None:
            value = add_rh(value, addr_value)
        if index is not None:
            value = (value + swap(index_value)) & MASK36
        if indirect:
            value |= INDIRECT
        self.emit(value)
        return True

    def simple_conditional(self) -> bool:
        """Decide ``IFE A-B,`` (IFN, IFG ...) on plain symbols and numbers in one step, as
        the general reader would; False (nothing done) for anything else."""
        m = _SIMPLE_IF.match(self.text, self.pos)
        if m is None:
            return False
        name, left, sign, right = m.groups()
        name = name.upper()
        sym = self.symbols.get(name)
        if sym is None or sym.kind != PSEUDO or sym.handler[0] != "p_if_arithmetic":
            return False
        value = self.simple_value(left, m.start(2))
        if value is None:
            return False
        if sign is not None:
            other = self.simple_value(right, m.start(4))
            if other is None:
                return False
            value = value + other if sign == "+" else value - other
        self.pos = m.end()
        self.conditional(ARITHMETIC[name](to_signed(value & MASK36)))
        return True

    def simple_value(self, token: str, start: int) -> int | None:
        """A plain symbol's or number's value; None where the general reader is needed."""
        c = token[0]
        if "0" <= c <= "9":
            decimal = token[-1] == "."
            try:
                value = int(token.rstrip("."), 10 if decimal else self.radix)
            except ValueError:
                return None
            return value if value <= MASK36 else None
        if token == ".":
            return self.location_value()
        name = token[:6].upper()
        sym = self.symbols.get(name)
        if sym is None or (sym.kind == VALUE and not sym.defpass):
            return self.undefined(name, start)
        return sym.value if sym.kind == VALUE else None

    def next_statement(self, top: bool) -> str:
        """Skip blank lines, ``?``, comments and invisible brackets; the next character."""
        skip = _SKIP if top or self.mllit > 0 else _SKIP_SAME_LINE
        while True:
            self.pos = skip.match(self.text, self.pos).end()
            c = self.text[self.pos]
            if c == ";":
                self.rest_of_line()
            elif c == "]" and self.cond_stack and self.cond_stack[-1]:
                self.close_conditional()
            elif c == "}":
                self.pos += 1
            elif c != EOF_CH or not self.pop_frame():
                return c

    def end_statement(self) -> None:
        """After a statement: only a line end, ``?``, a comment or a closer may follow."""
        while True:
            c = self.skip_blanks()
            if c == "}":
                self.pos += 1
            elif c == "]" and self.cond_stack and self.cond_stack[-1]:
                self.close_conditional()
            else:
                break
        if c in "\n?;" or c in _CLOSERS or c == EOF_CH:
            return
        self.error(f"unexpected {c!r}: the statement should end here")
        self.rest_of_line()

    def read_group(self, closer: str) -> int:
        """After ``<`` or ``(``: the value of the last word before the closer."""
        self.enter()
        undefined = self.undef
        ctx = GroupContext(closer)
        self.read_statements(ctx)
        ctx.flush_bytes()
        self.depth -= 1
        self.undef = self.undef or undefined
        return ctx.value

    def enter(self) -> None:
        """One level deeper into literals and groupings."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.error(f"literals and groupings nested more than {MAX_DEPTH} deep")
            raise AssemblyAbort

    # --- storing words -------------------------------------------------------------------
    def emit(self, word: int) -> None:
        """Store a word at the location counter and advance it."""
        loc = self.loc
        if loc > MASK18:
            self.error("the location counter is past 777777")
            loc &= MASK18
        if self.stgsw:
            self.error("storage word assembled while .NSTGW forbids them")
        if self.pass_no == 2:
            self.emitted.append((loc, word, self.stmt_site))
        self.loc = loc + 1

    def set_location(self, value: int, start: int | None = None) -> None:
        """``.=x``: set the location counter so that ``.`` (with OFFSET) reads ``x``."""
        self.top.flush_bytes()
        self.loc = (value - self.offset) & MASK18
