"""Instruction words back to MIDAS text: ``MOVE 1,@FOO+3(2)``, ``DATAO TTY,BUF``.

The text assembles (with the same symbols defined) to the same word.  Names come from
:mod:`pdp6.isa`: mnemonics, the ``JRST``/``JFCL`` aliases (``HALT``, ``JRSTF``, ``JOV``
...) and device names.  Opcodes without a mnemonic (UUOs, PDP-6 no-ops) are written as a
number times 8^9 (``40^11 1,2``), which MIDAS reads as the opcode field.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping

from .isa import ALIASES, DEVICE_NAMES, IO_FUNCTIONS, IOT, NOOP, OPCODES, UUO, decode, decode_io

# AC-field aliases of JRST and JFCL (HALT = JRST 4, ...), keyed by the word's top 13 bits.
_AC_ALIASES: dict[int, str] = {}
for _name, _value in ALIASES.items():
    if _value >> 27 in (0o254, 0o255) and (_value >> 23) & 0o17:
        _AC_ALIASES.setdefault(_value >> 23, _name)


class SymbolTable:
    """Symbols for type-out: the nearest symbol at or below an address."""

    def __init__(
        self, symbols: Mapping[str, int], min_value: int = 0o20, max_offset: int = 0o100
    ) -> None:
        self.max_offset = max_offset
        by_value: dict[int, str] = {}
        for name, value in sorted(symbols.items()):
            value &= 0o777777
            if value >= min_value and (value not in by_value or len(name) < len(by_value[value])):
                by_value[value] = name
        self.values = sorted(by_value)
        self.names = by_value

    def symbolic(self, addr: int) -> str | None:
        """``NAME`` or ``NAME+n`` for ``addr``, or None if no symbol is close enough."""
        i = bisect.bisect_right(self.values, addr) - 1
        if i < 0:
            return None
        value = self.values[i]
        offset = addr - value
        if offset > self.max_offset:
            return None
        name = self.names[value]
        return name if offset == 0 else f"{name}+{offset:o}"


def _address(addr: int, table: SymbolTable | None) -> str:
    if table is not None:
        text = table.symbolic(addr)
        if text is not None:
            return text
    return f"{addr:o}"


def _operand(indirect: int, index: int, addr: int, table: SymbolTable | None) -> str:
    """``@Y(X)``, leaving out what is zero (an empty string if everything is)."""
    text = "@" if indirect else ""
    if addr or not index:
        text += _address(addr, table) if addr else ("0" if indirect else "")
    if index:
        text += f"({index:o})"
    return text


def disassemble(word: int, symbols: Mapping[str, int] | SymbolTable | None = None) -> str:
    """MIDAS text for an instruction word; ``symbols`` (name -> value) name addresses."""
    table = SymbolTable(symbols) if isinstance(symbols, Mapping) else symbols
    op, ac, indirect, index, addr = decode(word)
    info = OPCODES[op]
    operand = _operand(indirect, index, addr, table)
    if info.family == IOT:
        device, function = decode_io(word)
        dev = DEVICE_NAMES.get(device, f"{device:o}")
        return f"{IO_FUNCTIONS[function]} {dev},{operand}"
    if info.family in (UUO, NOOP):
        name = f"{op:o}^11" if op else "0"
    else:
        name = info.name
        alias = _AC_ALIASES.get(word >> 23)
        if alias is not None:
            name, ac = alias, 0
    if ac:
        return f"{name} {ac:o},{operand}"
    return f"{name} {operand}" if operand else name
