"""The result of an assembly: memory image, start, symbols, line map and diagnostics."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from .errors import AsmError


class SourceLine(NamedTuple):
    """A place in the source: file name and 1-based line."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


class SymbolEntry(NamedTuple):
    """A user symbol as DDT will see it: SQUOZE flag bits (``pdp6.formats.loader.SYM_*``)."""

    name: str
    value: int
    flags: int
    order: int  # definition order, the tie-break among equal values


#: One storage word in assembly order: (address, word, the source line that produced it).
Emitted = tuple[int, int, SourceLine]


@dataclass
class Program:
    """What :func:`midas.assemble` returns.

    ``words`` maps address to word (the last store wins), ``emitted`` keeps every store in
    assembly order (what SBLK and RIM write), ``start`` is the END address if any.
    """

    words: dict[int, int] = field(default_factory=dict)
    start: int | None = None
    start_word: int = 0
    symbols: dict[str, int] = field(default_factory=dict)
    line_map: dict[int, SourceLine] = field(default_factory=dict)
    errors: list[AsmError] = field(default_factory=list)
    warnings: list[AsmError] = field(default_factory=list)
    emitted: list[Emitted] = field(default_factory=list)
    symbol_table: list[SymbolEntry] = field(default_factory=list)
    output_format: str = "sblk"  # "sblk", "rim" or "rim10"
    nosyms: bool = False
    relocatable: bool = False  # the source asked for RELOCATABLE (assembled absolute)
    # WORD: (number of stored words before it, word), written into the file as it is
    raw_words: list[tuple[int, int]] = field(default_factory=list)
    title: str = ""
    printed: list[str] = field(default_factory=list)
    sources: dict[str, list[str]] = field(default_factory=dict)  # file -> its lines
    lines: int = 0  # source lines read on one pass (for speed figures)

    @property
    def ok(self) -> bool:
        return not self.errors

    def output_order(self) -> Iterator[tuple[int | None, int]]:
        """What a binary file holds, in assembly order: ``(address, word)`` for each
        stored word, ``(None, word)`` for each WORD where it was assembled."""
        raw = iter(self.raw_words)
        pending = next(raw, None)
        for i, (addr, word, _source) in enumerate(self.emitted):
            while pending is not None and pending[0] <= i:
                yield None, pending[1]
                pending = next(raw, None)
            yield addr, word
        while pending is not None:
            yield None, pending[1]
            pending = next(raw, None)
