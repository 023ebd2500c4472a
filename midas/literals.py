"""Literals, constants areas and variables (reference 1.7).

A literal's words go into the current constants area, which CONSTANTS (or END) places at
the location counter.  On pass 1 the area is only sized; pass 2 places it where pass 1
did, and gives each literal its address when the literal ends.  Identical literals in an
area are stored once.  ``FOO'`` and ``.SCALAR``/``.VECTOR`` make variables, whose storage
VARIABLES (or END) allocates.
"""

from __future__ import annotations

from .contexts import LiteralContext
from .expressions import LITERAL, MASK18
from .symbols import F_FIXED, F_PREDEF, F_VARIABLE, VALUE, Sym


class ConstantsArea:
    """The literals waiting for one CONSTANTS."""

    __slots__ = ("start", "size", "index", "words", "sites")

    def __init__(self) -> None:
        self.start = 0
        self.size = 0
        self.index: dict[tuple[int, ...], int] = {}  # words -> offset, for sharing
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
        mark = len(self.cond_stack)
        self.cond_stack.append(LITERAL)
        saved = self.undef
        self.undef = False
        self.read_statements(ctx)
        ctx.flush_bytes()
        del self.cond_stack[mark:]
        undefined = self.undef
        self.undef = saved
        self.depth -= 1
        return self.place_literal(ctx.words or [0], undefined)

    def place_literal(self, words: list[int], undefined: bool) -> int:
        area = self.area
        key = tuple(words)
        if self.pass_no == 1:
            # Only the size matters; a literal with unknown values is never shared.
            if undefined or key not in area.index:
                if not undefined:
                    area.index[key] = area.size
                area.size += len(words)
            self.undef = True  # the address is not known before CONSTANTS
            return 0
        offset = area.index.get(key)
        if offset is None:
            offset = area.index[key] = area.size
            area.words.extend(words)
            area.sites.extend([self.stmt_site] * len(words))
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
            self.loc += area.size
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
            for i, word in enumerate(area.words):
                self.emitted.append(((area.start + i) & MASK18, word, area.sites[i]))
            self.loc = area.start + size
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
            self.loc += size
        self.pending_vars = []
