"""PDP-6 RIM output (reference 2.5): ``DATAI PTR,addr`` / ``word`` pairs in assembly order,
then the transfer pair: the start instruction, executed by the RIM loader, and a dummy."""

from __future__ import annotations

from pdp6.loader import HALT

from .program import Program
from .sblk import PTR, instruction


def rim_words(program: Program, device: int = PTR) -> list[int]:
    """The words of a RIM tape.  Without a start address the transfer word is ``JRST 4,``
    (a halt), so that the machine stops instead of executing a zero word (a UUO)."""
    words: list[int] = []
    for addr, word, _source in program.emitted:
        words += [instruction("DATAI", device, addr), word]
    words += [program.start_word or HALT, 0]
    return words
