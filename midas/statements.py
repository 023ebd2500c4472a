"""Statements: the loop that reads words into a context, groupings, and the location counter."""

from __future__ import annotations

from .contexts import Context, GroupContext
from .errors import AssemblyAbort
from .expressions import DONE, MASK18
from .source import EOF_CH

MAX_DEPTH = 100  # literals and groupings nested inside each other

_CLOSERS = ")>]"


class StatementMixin:
    """Reading statements, groupings, storing words (mixed into the assembler)."""

    loc: int  # the location counter: where the next word goes (OFFSET apart)
    offset: int  # OFFSET: what ``.`` reads more than the location counter

    def read_statements(self, ctx: Context) -> None:
        """Read statements into ``ctx`` until its closing character (or the input ends)."""
        reader = self.reader
        expr = self.expr
        closer = ctx.closer
        outer = self.ctx
        self.ctx = ctx
        top = ctx is self.top
        opened = None if top else reader.site(reader.pos - 1)
        self.open_closers.append(closer)
        try:
            while True:
                c = reader.next_statement(not top and self.mllit <= 0)
                if c == closer and closer:
                    reader.skip()
                    return
                if c == EOF_CH:
                    if opened is not None:
                        self.error(f"missing '{closer}' for the {ctx.name} opened at "
                                   f"{reader.place(opened)} (the input ended)")  # fmt: skip
                    return
                if c == "\n":  # old dialect: the line end closes literals and groupings
                    if self.mllit < 0:
                        self.error(f"'{closer}' missing at the end of the line")
                    return
                if c in _CLOSERS:
                    if c in self.open_closers:
                        self.error(f"missing '{closer}' for the {ctx.name} opened at "
                                   f"{reader.place(opened)}, before '{c}'")  # fmt: skip
                        return
                    self.error(f"unmatched '{c}'")
                    reader.skip()
                    continue
                if not ctx.whole_value and expr.undef:
                    expr.new_statement()
                if top:
                    reader.begin_statement(reader.pos)
                    if self.fast_statements and not ctx.sizes and self.fast.simple_statement():
                        continue
                reader.count_statement()
                value = expr.read_word(True, at_start=True)
                if value is not None and value is not DONE:
                    if top and not ctx.sizes:
                        self.emit(value)
                    else:
                        ctx.add(value)
                elif value is DONE and expr.take_split():
                    continue
                c = reader.text[reader.pos]
                if c != "\n" and c != ";":
                    self.end_statement()
        finally:
            self.ctx = outer
            self.open_closers.pop()

    def end_statement(self) -> None:
        """After a statement: only a line end, ``?``, a comment or a closer may follow."""
        c = self.reader.end_of_statement()
        if c in "\n?;" or c in _CLOSERS or c == EOF_CH:
            return
        self.error(f"unexpected {c!r}: the statement should end here")
        self.reader.rest_of_line()

    def read_group(self, closer: str) -> int:
        """After ``<`` or ``(``: the value of the last word before the closer."""
        self.enter()
        ctx = GroupContext(closer)
        undefined = self.expr.undefined_in(self.read_statements, ctx)[1]
        ctx.flush_bytes()
        self.depth -= 1
        if undefined:
            self.expr.note_undefined()
        return ctx.value

    def enter(self) -> None:
        """One level deeper into literals and groupings."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.error(f"literals and groupings nested more than {MAX_DEPTH} deep")
            raise AssemblyAbort

    # --- storing words -------------------------------------------------------------------
    def emit(self, word: int, at: int | None = None) -> None:
        """Store a word at the location counter and advance it.  ``at``: where a message
        goes, if not where the reader is (the fast path's instruction: where it ends)."""
        loc = self.loc
        if loc > MASK18:
            self.error("the location counter is past 777777", at)
            loc &= MASK18
        if self.stgsw:
            self.error("storage word assembled while .NSTGW forbids them", at)
        if self.pass_no == 2:
            self.emitted.append((loc, word, self.reader.statement_site))
        self.loc = loc + 1

    def location_value(self) -> int:
        """``.``: the location counter plus OFFSET (a byte pointer in .BYTE mode)."""
        loc = (self.loc + self.offset) & MASK18
        if self.top.sizes and self.ctx is self.top:
            return (self.top.byte_pointer_lh() << 18) | loc
        return loc

    def advance(self, words: int) -> None:
        """Leave ``words`` words at the location counter (BLOCK, a constants area, a
        variable's storage)."""
        self.loc += words

    def locate(self, address: int) -> None:
        """Set the location counter (LOC, RELOCATABLE, after a constants area)."""
        self.loc = address

    def set_location(self, value: int, start: int | None = None) -> None:
        """``.=x``: set the location counter so that ``.`` (with OFFSET) reads ``x``."""
        self.top.flush_bytes()
        self.loc = (value - self.offset) & MASK18
