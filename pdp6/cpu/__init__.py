"""The Type 166 processor: state layout, execute loop, and one module per family.

The one list of the modules whose functions make up the execute loop: numba compiles
them, the interpreter runs them as plain Python, the translator specializes their source
(``engines``, ``translate``), and their text keys the compiled loop's cache (``pdp6.jit``,
with the tables the loop reads).

What belongs here: the processor (state, the execute loop and its instruction
families) and the engines that run it (compiled, native, translated, interpreted).  A new
instruction's semantics go in its family's module, its timing in :mod:`pdp6.timing`.
"""

from __future__ import annotations

import importlib
from types import ModuleType

ROUTINE_MODULES = (
    "access", "arith", "fp", "fixed", "compare", "logic", "floatbyte", "io", "dis340", "loop",
)  # fmt: skip
LOOP_SOURCES = (*ROUTINE_MODULES, "optable", "state")  # all the compiled loop is built from


def routine_modules() -> tuple[ModuleType, ...]:
    """The modules of ``ROUTINE_MODULES``, imported."""
    return tuple(importlib.import_module(f"{__name__}.{n}") for n in ROUTINE_MODULES)
