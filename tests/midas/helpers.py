"""Small helpers shared by the MIDAS tests."""

from __future__ import annotations

from midas import Program, assemble


def asm(source: str, **kwargs) -> Program:
    """Assemble ``source`` (an END is added if missing) and insist on no errors."""
    if "END" not in source.upper():
        source += "\nEND\n"
    program = assemble(source, **kwargs)
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
    if "END" not in source.upper():
        source += "\nEND\n"
    program = assemble(source, **kwargs)
    assert program.errors, "expected errors"
    return [str(e) for e in program.errors]


def xwd(left: int, right: int) -> int:
    return (left << 18) | right
