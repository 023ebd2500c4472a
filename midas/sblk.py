"""SBLK output (reference 2.2-2.4): the RIM-format loader prologue, data blocks of at most
thirty words in assembly order, the start instruction, the DDT symbol table, and the
duplicate start instruction(s) that end the file."""

from __future__ import annotations

import datetime
import getpass
from pathlib import Path

from pdp6.formats.checksum import block_checksum
from pdp6.formats.loader import JRST_1, block_header, squoze
from pdp6.isa import ALIASES, BY_NAME, IO_WORDS

from .program import Program
from .textcodes import sixbit_code, sixbit_words

PTR = 0o104  # paper tape reader: the device of the loader (MIDAS 324 and older used 100)
BLOCK_WORDS = 30  # MIDAS writes at most 30. data words per block
SYMBOL_BLOCK = 0  # information block type 0: DDT symbols


def instruction(name: str, ac: int = 0, addr: int = 0, index: int = 0) -> int:
    """An instruction word from the ISA table (``ac`` is a device code for I/O)."""
    if name in IO_WORDS:
        return IO_WORDS[name] | (ac << 24) | (index << 18) | addr
    base = BY_NAME[name].word if name in BY_NAME else ALIASES[name]
    return base | (ac << 23) | (index << 18) | addr


def sblk_loader(device: int = PTR) -> dict[int, int]:
    """MIDAS's SBLK loader (``SLOAD``): address -> word.  It reads each block, checks its
    checksum (halting on a mismatch) and jumps to the start instruction, which it keeps
    in location 16."""
    return {
        0o00: instruction("CONO", device, 0o60),
        0o01: instruction("JSP", 0o14, 0o30),
        0o02: instruction("DATAI", device, 0o16),
        0o03: instruction("MOVE", 0o15, 0o16),
        0o04: instruction("JUMPGE", 0o16, 0o16),
        0o05: instruction("JSP", 0o14, 0o30),
        0o06: instruction("DATAI", device, 0, index=0o16),
        0o07: instruction("ROT", 0o15, 1),
        0o10: instruction("ADD", 0o15, 0, index=0o16),
        0o11: instruction("AOBJN", 0o16, 0o5),
        0o12: instruction("MOVEI", 0o14, 0o33),
        0o13: instruction("JRST", 0, 0o30),
        0o30: instruction("CONSO", device, 0o10),
        0o31: instruction("JRST", 0, 0o30),
        0o32: instruction("JRST", 0, 0, index=0o14),
        0o33: instruction("DATAI", device, 0o16),
        0o34: instruction("CAMN", 0o15, 0o16),
        0o35: instruction("JUMPA", 0, 0o1),
        0o36: instruction("HALT"),
    }


def data_runs(program: Program) -> list[tuple[int | None, list[int]]]:
    """The stored words in assembly order, cut into runs of consecutive addresses (at
    most a block each); a run whose address is None holds WORD's raw words."""
    runs: list[tuple[int | None, list[int]]] = []
    for addr, word in program.output_order():
        if runs:
            start, data = runs[-1]
            if addr is None and start is None:
                data.append(word)
                continue
            if (
                addr is not None
                and start is not None
                and start + len(data) == addr
                and len(data) < BLOCK_WORDS
            ):
                data.append(word)
                continue
        runs.append((addr, [word]))
    return runs


def data_blocks(program: Program) -> list[int]:
    """The data blocks (and WORD's raw words between them) of SBLK and RIM10 files."""
    words: list[int] = []
    for addr, data in data_runs(program):
        words += data if addr is None else block(block_header(len(data), addr), data)
    return words


def symbol_words(program: Program) -> list[int]:
    """The DDT symbol table: one GLOBAL group, sorted by value (reference 2.3)."""
    words = [squoze("GLOBAL"), block_header(2 + 2 * len(program.symbol_table), 0)]
    for entry in program.symbol_table:
        words += [entry.flags | squoze(entry.name), entry.value]
    return words


def _sixbit(text: str) -> int:
    codes = [c for c in (sixbit_code(ch) for ch in text[:6]) if c is not None]
    return sixbit_words(codes)[0] if codes else 0


def assembly_info(source: Path, when: datetime.datetime | None = None) -> list[int]:
    """The body of an information block of type 3 as MIDAS 402 and later write it:
    sub-block ``-6,,1``, then SIXBIT user name, date and time, device, file names and
    directory (the ITS conventions; the host path gives names and directory)."""
    when = when or datetime.datetime.now()
    date = ((when.year - 1900) << 9) | (when.month << 5) | when.day
    half_seconds = (when.hour * 3600 + when.minute * 60 + when.second) * 2
    return [
        block_header(6, 1),
        _sixbit(getpass.getuser().upper()),
        (date << 18) | half_seconds,
        _sixbit("DSK"),
        _sixbit(source.stem.upper()),
        _sixbit(source.suffix.lstrip(".").upper()),
        _sixbit(source.resolve().parent.name.upper()),
    ]


def block(header: int, data: list[int]) -> list[int]:
    return [header, *data, block_checksum([header, *data])]


def sblk_words(
    program: Program,
    device: int = PTR,
    trailer: int = 2,
    info: list[int] | None = None,
) -> list[int]:
    """The words of an SBLK file.  ``trailer`` copies of the start instruction end it
    (MIDAS 4xx writes two); ``info`` is an optional type-3 information block body."""
    words: list[int] = []
    for addr, word in sblk_loader(device).items():
        words += [instruction("DATAI", device, addr), word]
    words.append(JRST_1)
    words += data_blocks(program)
    start = program.start_word
    words.append(start)
    if info:
        words += block(block_header(len(info), 3), info)
    if not program.nosyms:
        symbols = symbol_words(program)
        words += block(block_header(len(symbols), SYMBOL_BLOCK), symbols)
    words += [start] * trailer
    return words
