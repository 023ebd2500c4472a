"""The PDP-6 read-in procedure: toggle the RIM loader in at 20 and read a tape.

The PDP-6 has no hardware loader: the operator deposits eight words at 20-27 and starts
at 20 (reference 2.4, [AAP code/bootstrap.txt]).  The loader reads word pairs from the
paper tape reader in binary mode.  The first word of a pair lands in 26 and is executed:
a ``DATAI PTR,addr`` reads the second word into ``addr``; the tape ends with
``JRST 4,start``, which halts with the PC at the program's start (press CONTINUE, i.e.
run again).  A tape is frames; :func:`tape_frames` makes them of a word file on the host.
"""

from __future__ import annotations

from ..isa import DEVICES, IO_WORDS, OPCODES
from ..machine import Machine
from .loader import LoaderError, binary_file_words, read_words

LOADER_ORIGIN = 0o20


def _io(func: str, y: int) -> int:
    return IO_WORDS[func] | (DEVICES["PTR"] << 24) | y


def _jrst(y: int) -> int:
    return OPCODES[0o254].word | y


RIM_LOADER: tuple[int, ...] = (
    _io("CONO", 0o60),  # 20: binary mode, busy: start the reader
    _io("CONSO", 0o10),  # 21: A: wait for a word
    _jrst(0o21),  # 22
    _io("DATAI", 0o26),  # 23: the next word into B
    _io("CONSO", 0o10),  # 24: wait again
    _jrst(0o24),  # 25
    0,  # 26: B: the word just read is executed here
    _jrst(0o21),  # 27: back to A
)


def rim_pairs(words: dict[int, int], start: int) -> list[int]:
    """The words of a RIM tape: ``DATAI PTR,addr``/data pairs, then ``JRST 4,start``."""
    out: list[int] = []
    for addr in sorted(words):
        out += [_io("DATAI", addr), words[addr]]
    out += [OPCODES[0o254].word | (4 << 23) | start, 0]
    return out


def toggle_rim_loader(machine: Machine) -> None:
    """Deposit the loader at 20-27 and set the PC to 20, as the operator would."""
    for i, word in enumerate(RIM_LOADER):
        machine.memory[LOADER_ORIGIN + i] = word
    machine.pc = LOADER_ORIGIN


def binary_words(frames: bytes) -> list[int]:
    """The words the reader delivers in binary mode: six frames with hole 8 make a word,
    first frame highest; frames without hole 8 are skipped (a partial word is lost)."""
    holes = [f & 0o77 for f in frames if f & 0o200]
    words = []
    for i in range(0, len(holes) - 5, 6):
        word = 0
        for hole in holes[i : i + 6]:
            word = (word << 6) | hole
        words.append(word)
    return words


def read_in_problem(frames: bytes) -> str | None:
    """Why the RIM loader cannot read ``frames`` in, or None if they make a RIM or SBLK
    tape.  Read in, anything else is executed word by word as garbage, or waits for ever."""
    words = binary_words(frames)
    if not words:
        return "it has no binary frames (hole 8 punched): the read-in loader would read nothing"
    try:
        read_words(words)
    except LoaderError:
        return "its binary frames do not make a RIM or SBLK tape"
    return None


def words_to_frames(words: list[int]) -> bytes:
    """Binary paper tape for 36-bit words: six frames each, hole 8 punched, high first."""
    out = bytearray()
    for w in words:
        for shift in (30, 24, 18, 12, 6, 0):
            out.append(0o200 | ((w >> shift) & 0o77))
    return bytes(out)


def tape_frames(data: bytes) -> bytes:
    """The frames of a tape held in a host file.  A word file (``bin``, as ``midas``
    writes, or the ITS archives' 7-bit encoding) that loads words as RIM or SBLK is
    punched as binary frames, six per word, so that the read-in loader can read it; any
    other file is taken to be frames already."""
    try:
        words = binary_file_words(data)
    except LoaderError:
        return data
    return words_to_frames(words)
