"""Defining symbols: labels, assignments, variables and globals (reference 1.5).

A label, ``=:`` assignment or variable is *fixed*: giving it another value in the same
pass is "multiply defined"; a value different from pass 1's is a phase error.  Other
assignments may change.  Predefined symbols are shadowed by a copy, never changed.
"""

from __future__ import annotations

from .expressions import DONE
from .symbols import F_FIXED, F_GLOBAL, F_HALFKILL, F_PREDEF, F_VARIABLE, SPECIAL, VALUE, Sym


class DefinitionMixin:
    """Symbol definition (mixed into the assembler)."""

    def mark_symbol(self, name: str, sym: Sym | None, flag: int, start: int) -> Sym | None:
        """``FOO'`` makes FOO a variable (if not otherwise defined); ``FOO"`` global."""
        if flag == F_GLOBAL:
            sym = self.own_symbol(name)
            sym.flags |= F_GLOBAL
            return sym if sym.defpass else None
        if (
            sym is not None
            and sym.kind == VALUE
            and sym.flags & F_FIXED
            and not (sym.flags & F_VARIABLE)
        ):
            return sym  # already a label: FOO' just refers to it
        if sym is not None and sym.kind != VALUE:
            self.error(f"{name}' : {name} is not a numeric symbol", start)
            return None
        self.add_variable(name, 1, start)
        sym = self.symbols.get(name)
        return sym if sym is not None and sym.defpass else None

    def define_label(self, name: str, start: int, halfkill: bool, suffix: int) -> None:
        if self.ctx is not self.top:
            self.error(f"label {name}: inside a {self.ctx.name}", start)
            return
        flags = F_FIXED | (F_HALFKILL if halfkill or self.hkall else 0) | suffix
        self.define(name, self.location_value(), flags, start)

    def assignment(self, name: str, start: int, suffix: int) -> None:
        """``FOO=word``; ``==`` half-kills, ``=:`` forbids another value (reference 1.5)."""
        reader = self.reader
        while not reader.take("="):
            reader.skip()
        flags = suffix
        if reader.take("="):
            flags |= F_HALFKILL
        if reader.take(":"):
            flags |= F_FIXED
        reader.skip_blanks()
        value, undefined = self.expr.undefined_in(self.expr.read_word)
        if undefined:
            self.expr.note_undefined()
        if value is None or value is DONE:
            self.error(f"nothing to assign to {name}", start)
            return
        self.ctx.assigned(value)  # <FOO=1> has the value 1
        if undefined:
            if name == "." and self.pass_no == 1:
                self.error(".= needs a value defined before this point", start)
            return  # not done while the value is unknown
        if name == ".":
            self.set_location(value, start)
            return
        sym = self.symbols.get(name)
        if sym is not None and sym.kind == SPECIAL:
            setter = sym.handler[1]
            if setter is None:
                self.error(f"{name} cannot be assigned", start)
            else:
                getattr(self, setter)(value)
            return
        self.define(name, value, flags, start)

    def own_symbol(self, name: str) -> Sym:
        """The table entry of ``name``, made the program's own (copied if predefined)."""
        sym = self.symbols.get(name)
        if sym is None:
            sym = Sym(VALUE)
            self.symbols[name] = sym
        elif sym.flags & F_PREDEF:  # shadow the initial definition
            sym = sym.copy()
            self.symbols[name] = sym
        return sym

    def define(self, name: str, value: int, flags: int, start: int | None) -> None:
        """Give ``name`` a numeric value, checking labels for multiple definition and phase."""
        sym = self.symbols.get(name)
        if sym is None or sym.flags & F_PREDEF or sym.kind != VALUE or not sym.defpass:
            old_flags = sym.flags & (F_GLOBAL | F_VARIABLE) if sym is not None else 0
            old_order = sym.order if sym is not None and sym.kind == VALUE else 0
            sym = Sym(VALUE, value, flags | old_flags)
            self.order += 1
            sym.order = old_order or self.order
            sym.defpass = self.pass_no
            self.symbols[name] = sym
            return
        if sym.flags & F_FIXED or flags & F_FIXED:
            if value != sym.value:
                if sym.defpass == self.pass_no:
                    self.multiply_defined.add(name)
                    self.error(
                        f"{name} multiply defined: {value:o} here, {sym.value:o} before",
                        start,
                    )
                    return
                if sym.flags & F_FIXED and name not in self.multiply_defined:
                    self.phase_error(name, value, sym.value, start)
        sym.value = value
        sym.flags |= flags
        sym.defpass = self.pass_no
