"""Addresses to source lines and back, from the line map ``midas`` writes beside a binary.

The map (``pdp6.formats.loader.read_line_map``) names files as the assembler saw them; a
relative name is looked up beside the map file and then in the current directory.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from .loader import LineMap


@dataclass
class SourceMap:
    """Both directions of the line map, and the text of the source files."""

    line_map: LineMap
    base: Path = Path(".")  # where the map file lives
    _texts: dict[str, list[str] | None] = field(default_factory=dict)
    _by_line: dict[tuple[str, int], list[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for addr, where in sorted(self.line_map.lines.items()):
            self._by_line.setdefault(where, []).append(addr)

    @property
    def files(self) -> list[str]:
        return self.line_map.files

    def line_of(self, addr: int) -> tuple[str, int] | None:
        """(file, line) of the statement that assembled the word at ``addr``."""
        return self.line_map.lines.get(addr)

    def display_name(self, name: str) -> str:
        return Path(name).name

    def text(self, name: str) -> list[str] | None:
        """The lines of source file ``name``, or None if it cannot be found."""
        if name not in self._texts:
            self._texts[name] = None
            path = Path(name)
            for candidate in (path, self.base / path, self.base / path.name):
                try:
                    raw = candidate.read_text(encoding="utf-8", errors="replace")
                except OSError:
                    continue
                self._texts[name] = raw.splitlines()
                break
        return self._texts[name]

    def source_text(self, name: str, line: int) -> str | None:
        lines = self.text(name)
        if lines is None or not 1 <= line <= len(lines):
            return None
        return lines[line - 1]

    def find_file(self, spec: str) -> str | None:
        """The map's file name matching ``spec`` (a full name, a path suffix or a basename;
        ``./`` and the like are read as the path they name)."""
        spec = os.path.normpath(spec) if spec else spec
        for name in self.files:
            if name == spec or Path(name).name == spec or name.endswith("/" + spec):
                return name
        return None

    def addresses_at(self, name: str, line: int) -> tuple[int, list[int]] | None:
        """(line, addresses) of ``line`` or, if it assembled nothing, the next line that did
        (as a debugger puts a breakpoint on a comment line at the next statement)."""
        candidates = [ln for (f, ln) in self._by_line if f == name and ln >= line]
        if not candidates:
            return None
        best = min(candidates)
        return best, self._by_line[(name, best)]
