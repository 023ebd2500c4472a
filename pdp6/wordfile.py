"""36-bit words in host files: the ``bin`` encoding shared by the assembler and the loader.

A PDP-6 word does not fit a byte stream evenly, so host files pack **two words into nine
bytes**, big-endian: the 72 bits of the pair, first word first (the ``bin`` encoding of
``pdp10-its-disassembler``'s word library).  A file holding an odd number of words ends
with a zero pad word, so the decoder can return one word more than was written.  SBLK and
RIM images are self-delimiting, which is why their readers simply ignore that pad.
"""

from __future__ import annotations

from collections.abc import Iterable

from .word import MASK36

PAIR_BYTES = 9


class WordFileError(ValueError):
    """Bytes that are not a valid ``bin`` word file."""


def encode_words(words: Iterable[int]) -> bytes:
    """The ``bin`` bytes of ``words`` (padded with a zero word to an even count)."""
    seq = list(words)
    if len(seq) % 2:
        seq.append(0)
    out = bytearray()
    for i in range(0, len(seq), 2):
        a, b = seq[i], seq[i + 1]
        if not (0 <= a <= MASK36 and 0 <= b <= MASK36):
            raise ValueError(f"word {i if not 0 <= a <= MASK36 else i + 1} is not 36 bits")
        out += ((a << 36) | b).to_bytes(PAIR_BYTES, "big")
    return bytes(out)


def decode_words(data: bytes) -> list[int]:
    """The words held by ``bin`` bytes; the length must be a multiple of nine."""
    if len(data) % PAIR_BYTES:
        raise WordFileError(
            f"{len(data)} bytes is not a whole number of 9-byte word pairs "
            f"({len(data) % PAIR_BYTES} bytes left over at offset "
            f"{len(data) - len(data) % PAIR_BYTES})"
        )
    words: list[int] = []
    for i in range(0, len(data), PAIR_BYTES):
        pair = int.from_bytes(data[i : i + PAIR_BYTES], "big")
        words.append(pair >> 36)
        words.append(pair & MASK36)
    return words
