"""Symbols: their kinds and flags, and the initial table (instructions, devices, pseudo-ops).

Names are significant to six characters and case folded, so every table is keyed by
``name[:6].upper()``.  The instruction and device names come from :mod:`pdp6.isa`, the one
source of truth for opcodes; the pseudo-op names are registered by the modules that
implement them, with :func:`pseudo` and :func:`special`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pdp6.isa import predefined_symbols

# Symbol kinds.
VALUE, PSEUDO, MACRO, SPECIAL = range(4)

# Symbol flags.
F_PREDEF = 1  # from the initial table (never written to the output symbol table)
F_FIXED = 2  # a label (or =:, or a variable): redefining it to another value is an error
F_HALFKILL = 4  # DDT will not type it out (==, ::, .HKILL)
F_KILL = 8  # left out of the output symbol table (.KILL)
F_GLOBAL = 16  # FOO" or .GLOBAL
F_VARIABLE = 32  # FOO' or .SCALAR/.VECTOR: storage allocated by VARIABLES
F_IO = 64  # an I/O instruction: its AC field is a device code

# Pseudo-op categories.
P_VALUE = 0  # a syllable with a value (ASCII, .LENGTH, XWD ...)
P_INLINE = 1  # side effects only; reading goes on (DEFINE, REPEAT, IFE, RADIX ...)
P_STMT = 2  # must begin a statement outside literals and groupings (LOC, BLOCK, END ...)
P_START = 3  # like P_INLINE but must begin a statement (.INSRT)


def key(name: str) -> str:
    """The table key of a symbol name: six significant characters, upper case."""
    return name[:6].upper()


class Sym:
    """A symbol's definition."""

    __slots__ = ("kind", "value", "flags", "defpass", "order", "handler", "macro")

    def __init__(
        self,
        kind: int,
        value: int = 0,
        flags: int = 0,
        handler: Any = None,
        macro: Any = None,
    ) -> None:
        self.kind = kind
        self.value = value
        self.flags = flags
        self.defpass = 0  # pass of the latest definition (0: none yet, -1: initial table)
        self.order = 0  # definition order, for the output symbol table
        self.handler = handler  # PSEUDO: (method name, category); SPECIAL: (getter, setter)
        self.macro = macro  # MACRO: the Macro

    def copy(self) -> Sym:
        new = Sym(self.kind, self.value, self.flags & ~F_PREDEF, self.handler, self.macro)
        new.defpass = self.defpass
        new.order = self.order
        return new


PSEUDO_TABLE: dict[str, tuple[str, int]] = {}
SPECIAL_TABLE: dict[str, tuple[str, str | None]] = {}

F = Callable[..., Any]


def pseudo(*names: str, kind: int = P_INLINE) -> Callable[[F], F]:
    """Register the decorated assembler method as the pseudo-op(s) ``names``."""

    def register(fn: F) -> F:
        for name in names:
            PSEUDO_TABLE[key(name)] = (fn.__name__, kind)
        return fn

    return register


def special(name: str, setter: str | None = None) -> Callable[[F], F]:
    """Register the decorated method as the getter of the value symbol ``name``."""

    def register(fn: F) -> F:
        SPECIAL_TABLE[key(name)] = (fn.__name__, setter)
        return fn

    return register


_INITIAL: dict[str, Sym] = {}


def initial_table() -> dict[str, Sym]:
    """A fresh symbol table holding the predefined symbols (shared, never mutated)."""
    if not _INITIAL:
        for name, (value, is_io) in predefined_symbols().items():
            _INITIAL[key(name)] = Sym(VALUE, value, F_PREDEF | (F_IO if is_io else 0))
        for name, handler in PSEUDO_TABLE.items():
            _INITIAL[name] = Sym(PSEUDO, 0, F_PREDEF, handler)
        for name, accessors in SPECIAL_TABLE.items():
            _INITIAL[name] = Sym(SPECIAL, 0, F_PREDEF, accessors)
        for sym in _INITIAL.values():
            sym.defpass = -1
    return dict(_INITIAL)
