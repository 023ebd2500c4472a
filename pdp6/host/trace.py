"""The instruction trace of ``pdp6 run --trace FILE``: one line per instruction.

Each line gives the PC (octal and symbolic), the instruction as MIDAS text with the
program's symbols, what it wrote (accumulators and memory, new values) and the flags
afterwards::

    000103 GREET       ILDB 1,2                  1=000000,,000105 2=350700,,000127  flags 000000

An interrupt instruction is marked with its channel (``PI1``) in place of the symbol.
The trace single-steps the machine, so a traced run is about a thousand times slower.
"""

from __future__ import annotations

from typing import TextIO

from ..disasm import SymbolTable, disassemble
from ..formats.hostfiles import OutputFileError, write_failed
from ..machine import Machine, Stop
from ..word import MASK18
from .memrefs import References, next_references


class TraceHook:
    """A :class:`pdp6.host.runner.StepHook` that writes the trace to ``out``.  A write that
    fails (a full disk) stops the run; :meth:`close` then reports it."""

    def __init__(self, machine: Machine, out: TextIO, table: SymbolTable) -> None:
        self.m = machine
        self.out = out
        self.table = table
        self.refs: References | None = None
        self.failure: OutputFileError | None = None

    def close(self) -> None:
        """Close the trace file; raise :class:`OutputFileError` if writing it failed."""
        try:
            self.out.close()
        except OSError as exc:
            self.failure = self.failure or write_failed(self.out.name, exc)
        if self.failure is not None:
            raise self.failure

    def _name(self, addr: int) -> str:
        if addr <= 0o17:
            return f"{addr:o}"
        return self.table.symbolic(addr) or f"{addr:06o}"

    def before(self) -> None:
        self.refs = next_references(self.m)

    def after(self, stop: Stop) -> str | None:
        refs = self.refs
        assert refs is not None
        label = self.table.symbolic(refs.address) or ""
        if refs.interrupt:
            label = f"PI{refs.interrupt}"
        text = disassemble(refs.word, self.table)
        results = " ".join(
            f"{self._name(a)}={self.m.memory[a] >> 18:06o},,{self.m.memory[a] & MASK18:06o}"
            for a in refs.written()
            if a < self.m.core_words
        )
        line = f"{refs.address:06o} {label:<11} {text:<25} {results}"
        try:
            self.out.write(f"{line.rstrip():<70}  flags {self.m.flags:06o}\n")
        except OSError as exc:
            self.failure = write_failed(self.out.name, exc)
            return str(self.failure)
        return None
