"""Diagnostics: where a problem is, what it is, and the control-flow signals of a pass."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AsmError:
    """One problem found in the source, reported as ``FILE:LINE:COL: message``."""

    file: str
    line: int
    col: int
    message: str
    warning: bool = False

    def __str__(self) -> str:
        kind = "warning: " if self.warning else ""
        return f"{self.file}:{self.line}:{self.col}: {kind}{self.message}"


class AssemblyAbort(Exception):
    """A problem after which the current pass cannot usefully go on (already reported)."""


class EndOfPass(Exception):
    """Raised by END (or the end of the input) to unwind the reader to the pass driver."""


class Diagnostics:
    """The problems found in an assembly, each reported once (by file, line, column and
    message)."""

    def __init__(self) -> None:
        self.errors: dict[tuple, AsmError] = {}
        self.warnings: dict[tuple, AsmError] = {}

    def report(self, err: AsmError) -> None:
        table = self.warnings if err.warning else self.errors
        table.setdefault((err.file, err.line, err.col, err.message), err)
