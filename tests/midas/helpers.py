"""Small helpers shared by the MIDAS tests."""

from __future__ import annotations

import re

from midas import Program, assemble

_HAS_END = re.compile(r"^[ \t]*END\b", re.IGNORECASE | re.MULTILINE)


def with_end(source: str) -> str:
    """``source`` with an END statement added if it has none."""
    return source if _HAS_END.search(source) else source + "\nEND\n"


def asm(source: str, **kwargs) -> Program:
    """Assemble ``source`` (an END is added if missing) and insist on no errors."""
    program = assemble(with_end(source), **kwargs)
    assert not program.errors, "\n".join(map(str, program.errors))
    return program


def words(source: str, **kwargs) -> list[int]:
    """The assembled words in address order."""
    program = asm(source, **kwargs)
    return [w for _a, w in sorted(program.words.items())]


def word(source: str, **kwargs) -> int:
    """The single word a one-statement source assembles to."""
    out = words(source, **kwargs)
    assert len(out) == 1, out
    return out[0]


def errors(source: str, **kwargs) -> list[str]:
    """The error messages (``FILE:LINE:COL: message``) of a source that must fail."""
    program = assemble(with_end(source), **kwargs)
    assert program.errors, "expected errors"
    return [str(e) for e in program.errors]


def xwd(left: int, right: int) -> int:
    return (left << 18) | right
