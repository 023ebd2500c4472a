"""Literals, constants areas and variables (reference 1.7).

A literal's words go into the current constants area, which CONSTANTS (or END) places at
the location counter.  On pass 1 the area is only sized; pass 2 places it where pass 1
did, and gives each literal its address when the literal ends.  Identical literals in an
area are stored once.  ``FOO'`` and ``.SCALAR``/``.VECTOR`` make variables, whose storage
VARIABLES (or END) allocates.
"""

from __future__ import annotations

from .contexts import LiteralContext
from .expressions import MASK18
from .symbols import F_FIXED, F_PREDEF, F_VARIABLE, VALUE, Sym


class ConstantsArea:
    """The literals waiting for one CONSTANTS."""

    __slots__ = ("start", "size", "index", "pending", "words", "sites")

    def __init__(self) -> None:
        self.start = 0
        self.size = 0
        self.index: dict[tuple, int] = {}  # a literal's key -> its offset, for sharing
        self.pending: dict[str, int] = {}  # pass 1, --old: text -> offset, symbols undefined
        self.words: list[int] = []  # pass 2: the area's contents
        self.sites: list[tuple] = []  # pass 2: where each word's literal was written


class ConstantsMixin:
    """Literals, CONSTANTS and VARIABLES (mixed into the assembler)."""

    def read_literal(self) -> int:
        """After ``[``: read the literal's statements; its address in the constants area."""
        if self.litsw:
            self.error("literal used while .LITSW forbids them")
        self.enter()
        ctx = LiteralContext()
        mark = self.reader.open_literal()
        text, start = self.reader.text, self.reader.pos
        undefined = self.expr.undefined_in(self.read_statements, ctx)[1]
        ctx.flush_bytes()
        self.reader.close_literal(mark)
        self.depth -= 1
        words = ctx.words or [0]
        if self.pass_no == 2:
            return self.place_literal(tuple(words), words)
        # Pass 1: MIDAS shares a literal whose symbols are not all defined yet with an
        # earlier one that has the same value and refers to the same undefined symbols
        # the same way, which its text tells (a literal read across the end of an
        # expansion is never shared).
        source = text[start : self.reader.pos] if text is self.reader.text else None
        if self.old and source is not None and "." not in source:
            return self.place_old_literal(words, _literal_text(source), undefined)
        if not undefined:
            return self.place_literal(tuple(words), words)
        # (an old-style literal closed by the line end has no ']')
        return self.place_literal(
            (tuple(words), source.removesuffix("]") if source is not None else object()), words
        )

    def place_old_literal(self, words: list[int], source: str, undefined: bool) -> int:
        """Pass 1 of the old dialect: MIDAS 73 also shares a literal with an earlier one
        whose symbols were undefined then and are defined now, if the two read alike:
        ITS 138's ``[JRST 2,@UUOH`` twice before UUOH and once after, ``[MUR,,MEMBLT(A)``
        three times before and once after, take one word each, and so its constants area
        is 105 words, where comparing values alone makes it 110 with 5 left as zeros on
        pass 2 (the real binary has none).  (Not for a text with a ``.`` in it, whose
        value depends on where it is.)"""
        area = self.area
        key = (tuple(words), source) if undefined else tuple(words)
        pending = area.pending.get(source)
        if pending is not None and not undefined and area.index.setdefault(key, pending) == pending:
            self.expr.note_undefined()  # (its address is not known before CONSTANTS)
            return 0
        if undefined and key not in area.index:
            area.pending.setdefault(source, area.size)
        return self.place_literal(key, words)

    def place_literal(self, key: tuple, words: list[int]) -> int:
        """The address of a literal in the current area; it is stored once per ``key``
        (its words; on pass 1 with undefined symbols, its words and its text)."""
        area = self.area
        if self.pass_no == 1:
            # Only the size matters.
            if key not in area.index:
                area.index[key] = area.size
                area.size += len(words)
            self.expr.note_undefined()  # the address is not known before CONSTANTS
            return 0
        offset = area.index.get(key)
        if offset is None:
            offset = area.index[key] = area.size
            area.words.extend(words)
            area.sites.extend([self.reader.statement_site] * len(words))
            area.size += len(words)
        number = len(self.areas)
        base = self.prev_areas[number].start if number < len(self.prev_areas) else 0
        return (base + offset) & MASK18

    def dump_constants(self) -> None:
        """CONSTANTS: put the pending literals at the location counter."""
        self.top.flush_bytes()
        area = self.area
        number = len(self.areas)
        if self.pass_no == 1:
            area.start = self.loc
            self.advance(area.size)
        else:
            prev = self.prev_areas[number] if number < len(self.prev_areas) else None
            if prev is None:
                self.error("CONSTANTS: more constants areas on pass 2 than on pass 1")
                area.start = self.loc
                size = area.size
            else:
                area.start = prev.start
                size = prev.size
                if prev.start != self.loc:
                    self.phase_problem(
                        f"constants phase error: this area is at {self.loc:o} on pass 2 "
                        f"but was at {prev.start:o} on pass 1"
                    )
                if area.size > prev.size:
                    self.phase_problem(
                        f"constants phase error: this area needs {area.size} words on "
                        f"pass 2 but only {prev.size} on pass 1"
                    )
                    size = area.size
            # Literals shared on pass 2 but not on pass 1 leave slack: zero words.
            area.words.extend([0] * (size - len(area.words)))
            area.sites.extend([self.reader.statement_site] * (size - len(area.sites)))
            for i, word in enumerate(area.words):
                self.emitted.append(((area.start + i) & MASK18, word, area.sites[i]))
            self.locate(area.start + size)
        self.areas.append(area)
        self.area = ConstantsArea()

    # --- variables ----------------------------------------------------------------------
    def add_variable(self, name: str, size: int, start: int | None) -> None:
        """Make ``name`` a variable of ``size`` words, if it is not defined otherwise."""
        sym = self.symbols.get(name)
        if sym is None or sym.kind != VALUE or sym.flags & F_PREDEF:
            sym = Sym(VALUE, 0, F_VARIABLE)
            self.symbols[name] = sym
        elif not sym.flags & F_VARIABLE:
            if sym.defpass:
                return  # defined otherwise: FOO' just refers to it
            sym.flags |= F_VARIABLE
        if name not in self.vars_seen:
            self.vars_seen.add(name)
            self.pending_vars.append((name, size))

    def allocate_variables(self) -> None:
        """VARIABLES: storage for the variables seen so far, at the location counter."""
        self.top.flush_bytes()
        for name, size in self.pending_vars:
            sym = self.symbols.get(name)
            if sym is None or not sym.flags & F_VARIABLE:
                continue  # expunged, or defined some other way since
            self.define(name, self.location_value(), F_FIXED | F_VARIABLE, None)
            self.advance(size)
        self.pending_vars: list[tuple[str, int]] = []


def _literal_text(text: str) -> str:
    """A literal's text as MIDAS's comparison sees it: without its ``]``, or, for an
    old-style literal that the line end closed, without the comment and blanks before
    the line end (``[IOLO,,IOBFT(R)`` and ``[IOLO,,IOBFT(R)	;UT DIR`` are one)."""
    if text.endswith("]"):
        return text[:-1]
    return text.partition(";")[0].rstrip()
