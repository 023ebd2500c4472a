"""Paper-tape read-in formats (reference 2.5).

**RIM** (PDP-6): ``DATAI PTR,addr`` / ``word`` pairs in assembly order, then the transfer
pair: the start instruction, executed by the RIM loader, and a dummy.

**RIM10** (PDP-10 hardware read-in): MIDAS's 15-word loader ``LDR10`` as the read-in
block (``-17,,0`` and the words for 1-17), then SBLK data blocks, then the start
instruction; no symbols.  The PDP-6 has no read-in hardware: deposit the loader at 1-17
and start it at 1 (which starts the reader, as the read-in hardware had), and it reads
the rest of the tape.
"""

from __future__ import annotations

from pdp6.formats.loader import HALT

from .expressions import INDIRECT
from .program import Program
from .sblk import PTR, data_blocks, instruction


def rim_words(program: Program, device: int = PTR) -> list[int]:
    """The words of a RIM tape.  Without a start address the transfer word is ``JRST 4,``
    (a halt), so that the machine stops instead of executing a zero word (a UUO).  A
    WORD's raw word goes on the tape as it is (the loader executes it)."""
    words: list[int] = []
    for addr, word in program.output_order():
        words += [word] if addr is None else [instruction("DATAI", device, addr), word]
    words += [program.start_word or HALT, 0]
    return words


def rim10_loader(device: int = PTR) -> list[int]:
    """MIDAS's ``LDR10``, for locations 1-17 (the accumulators).  AC 11 is its own index:
    the right half of the SOJA at 11 counts 4, 3, 2 through header, data words and
    checksum, selecting the rotation of the checksum in 0 and the entries of the two
    tables at 12-14 and 15-17.  A non-negative header is executed: the start jump."""
    return [
        instruction("CONO", device, 0o60),  # 1: start the reader (restart point)
        instruction("HRRI", 0o11, 0o4),  # 2: the SOJA at 11 counts from 4
        instruction("CONSO", device, 0o10),  # 3: wait for a word
        instruction("JRST", 0, 0o3),  # 4
        instruction("ROT", 0, 0o777776, index=0o11),  # 5: rotate the checksum 2, 1, 0
        instruction("DATAI", device, 0o10, index=0o11) | INDIRECT,  # 6: through 12-14
        instruction("XCT", 0, 0o10, index=0o11),  # 7: 12-14: what to do with it
        instruction("XCT", 0, 0o13, index=0o11),  # 10: 15-17 unless that skipped
        instruction("SOJA", 0o11, 0),  # 11: count down, loop (address set at 2)
        instruction("CAME", 0, 0o17),  # 12: checksum right?
        instruction("ADD", 0, 0, index=0o17),  # 13: add a data word to the checksum
        instruction("SKIPL", 0o17, 0),  # 14: header: data block (skip) or start word
        instruction("HALT", 0, 0o1),  # 15: checksum error
        instruction("AOBJN", 0o17, 0o3),  # 16: next data word
        instruction("JRST", 0, 0o2),  # 17: read-in ends here: go read a block
    ]


def rim10_words(program: Program, device: int = PTR) -> list[int]:
    """The words of a RIM10 tape (without a start address it ends with ``JRST 4,``)."""
    loader = rim10_loader(device)
    read_in = [((-len(loader)) & 0o777777) << 18, *loader]
    return read_in + data_blocks(program) + [program.start_word or HALT]
