"""MIDAS: an assembler for the PDP-6, compatible with the MIT AI Lab's MIDAS.

``assemble(text, filename=...)`` and ``assemble_file(path)`` return a
:class:`~midas.program.Program`; the writers in :mod:`midas.sblk`, :mod:`midas.rim`,
:mod:`midas.listing` and :mod:`midas.linemap` turn it into files.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Mapping
from pathlib import Path

from pdp6.formats.hostfiles import read_input

from .errors import AsmError
from .program import Program, SourceLine
from .source import SourceFile

__all__ = ["AsmError", "Program", "SourceLine", "assemble", "assemble_file"]

_RECURSION_LIMIT = 20000


def assemble(
    source_text: str,
    filename: str = "<source>",
    *,
    old: bool = False,
    defines: Mapping[str, int] | None = None,
) -> Program:
    """Assemble MIDAS source text.  ``filename`` names it in messages and is the place
    that ``.INSRT`` names are relative to.  ``old`` selects the 1960s dialect: a ``[``
    left open closes at the end of its line (``.MLLIT`` = 0), the digits 8 and 9 in an
    octal number pass without a warning, and constants areas are sized as MIDAS 73 sized
    them (docs/midas.md).  ``defines`` gives symbols values before
    each pass, as ``SYM=VALUE`` would: the symbols a linker supplied to a program that
    refers to other programs' globals (``midas --define``).

    >>> program = assemble("START: MOVEI 1,5\\n JRST 4,.\\nEND START")
    >>> program.ok
    True
    >>> {oct(address): oct(word) for address, word in program.words.items()}
    {'0o100': '0o201040000005', '0o101': '0o254200000101'}
    >>> oct(program.start), program.line_map[program.start]
    ('0o100', SourceLine(file='<source>', line=1))
    >>> [str(error) for error in assemble("MOVEI 1,FOO\\nEND", filename="bad.mid").errors]
    ['bad.mid:1:9: undefined symbol FOO']
    """
    path = None if filename.startswith("<") else Path(filename)
    return _run(SourceFile(filename, source_text, path), old, defines or {})


def assemble_file(
    path: str | Path, *, old: bool = False, defines: Mapping[str, int] | None = None
) -> Program:
    """Assemble a MIDAS source file (read as 8-bit text); ``old`` and ``defines`` as
    for :func:`assemble`."""
    path = Path(path)
    raw = read_input(path).decode("latin-1")
    return _run(SourceFile(str(path), raw, path), old, defines or {})


def _run(main: SourceFile, old: bool, defines: Mapping[str, int]) -> Program:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, _RECURSION_LIMIT))
    # An assembly makes a great many small objects and almost no cyclic garbage; the
    # collector's passes over them took up to a third of the time.  It runs afterwards.
    collecting = gc.isenabled()
    gc.disable()
    from .assembler import Assembler  # the assembler proper, not imported by ``midas --help``

    assembler = Assembler(main, old, defines)
    try:
        return assembler.assemble()
    except Exception as exc:  # a bug in the assembler must not become a traceback
        assembler.error(f"internal assembler error: {type(exc).__name__}: {exc}")
        return assembler.program()
    finally:
        sys.setrecursionlimit(limit)
        if collecting:
            gc.enable()
