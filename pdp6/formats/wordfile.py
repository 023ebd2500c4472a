"""36-bit words in host files: the ``bin`` encoding and the ITS archives' 7-bit encoding.

A PDP-6 word does not fit a byte stream evenly, so host files pack **two words into nine
bytes**, big-endian: the 72 bits of the pair, first word first (the ``bin`` encoding of
``pdp10-its-disassembler``'s word library).  A file holding an odd number of words ends
with a zero pad word, so the decoder can return one word more than was written.  SBLK and
RIM images are self-delimiting, which is why their readers simply ignore that pad.  The
assembler writes ``bin``; the loader reads both (:func:`pdp6.formats.loader.read_words` tells
them apart by content).

The public ITS archives, where the period's binaries survive, keep 36-bit files in a
**7-bit encoding** instead (the ``its`` encoding of that library): a word is five 7-bit
characters and a low bit, one character to a byte, with CR, LF and RUBOUT (177) escaped
so that the file reads as ASCII text on a host:

======  ===========================================
byte    stands for
======  ===========================================
012     CR LF
015     LF
177     177 007
200-355 177 and the byte minus 200, except:
207     177 177
212     177 015
215     177 012
356     CR
357     177
360-377 a binary word: the byte's low 4 bits, then four more bytes (36 bits)
other   itself
======  ===========================================

A word whose low bit is 1 cannot be five characters and is written as a binary word.
The escapes of a pair may straddle two words.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..word import MASK36

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


# --- the ITS archives' 7-bit encoding ----------------------------------------------------------
CR, LF, RUBOUT = 0o15, 0o12, 0o177
BINARY_WORD = 0o360  # a byte from 360 up starts a binary word
_BINARY_BYTES = 5
_WITH_RUBOUT = {0o207: RUBOUT, 0o212: CR, 0o215: LF}  # escapes that are not 200 + char
_RUBOUT_PAIRS = {0o7: RUBOUT, RUBOUT: 0o207, CR: 0o212, LF: 0o215}  # char after 177 -> byte


def _characters_of(byte: int) -> tuple[int, ...]:
    """The characters a byte below 360 stands for (the table in the module docstring)."""
    if byte == LF:
        return (CR, LF)
    if byte == CR:
        return (LF,)
    if byte == RUBOUT:
        return (RUBOUT, 0o7)
    if byte in _WITH_RUBOUT:
        return (RUBOUT, _WITH_RUBOUT[byte])
    if 0o200 <= byte <= 0o355:
        return (RUBOUT, byte - 0o200)
    if byte == 0o356:
        return (CR,)
    if byte == 0o357:
        return (RUBOUT,)
    return (byte,)


_CHARACTERS = tuple(_characters_of(b) for b in range(BINARY_WORD))


def archive_words(data: bytes) -> Iterator[tuple[int, int]]:
    """Each word held by ``data`` in the archive encoding, with the byte offset where it
    starts (for messages that point into the file).

    The archives' writer leaves off the zero characters that end a file's last word, so
    a file may end inside a word of characters: zeros complete it.  A binary word must
    be whole, and must start where a word starts.
    """
    chars: list[int] = []
    start = i = 0  # start: the offset of the byte that began the word being assembled
    while i < len(data):
        byte = data[i]
        if byte >= BINARY_WORD:
            if chars:
                raise WordFileError(
                    f"byte {byte:03o} at offset {i} starts a binary word inside a word "
                    f"of characters (begun at offset {start}): not the 7-bit archive encoding"
                )
            if i + _BINARY_BYTES > len(data):
                raise WordFileError(
                    f"the file ends inside the binary word at byte offset {i} "
                    f"({len(data) - i} of its {_BINARY_BYTES} bytes)"
                )
            yield i, int.from_bytes(data[i : i + _BINARY_BYTES], "big") & MASK36
            i += _BINARY_BYTES
            continue
        if not chars:
            start = i
        chars += _CHARACTERS[byte]
        if len(chars) >= 5:
            yield start, _pack(chars[:5])
            del chars[:5]
            start = i  # a character left over is the second of this byte's pair
        i += 1
    if chars:
        yield start, _pack(chars + [0] * (5 - len(chars)))


def decode_archive(data: bytes) -> list[int]:
    """The words held by ``data`` in the archive encoding."""
    return [word for _, word in archive_words(data)]


def encode_archive(words: Iterable[int]) -> bytes:
    """``words`` in the archive encoding (each word whole: the archives' writer leaves
    off the zero characters ending the last word, which only a reader can take back)."""
    out = bytearray()
    chars: list[int] = []  # the characters of the words since the last binary word
    for i, word in enumerate(words):
        if not 0 <= word <= MASK36:
            raise ValueError(f"word {i} is not 36 bits")
        if word & 1:
            out += _escaped(chars)
            chars = []
            out += ((BINARY_WORD << 32) | word).to_bytes(_BINARY_BYTES, "big")
        else:
            chars += [(word >> shift) & 0o177 for shift in (29, 22, 15, 8, 1)]
    return bytes(out + _escaped(chars))


def _escaped(chars: list[int]) -> bytes:
    """The bytes for a run of characters: CR LF, LF, CR and 177 pairs escaped."""
    out = bytearray()
    i = 0
    while i < len(chars):
        c = chars[i]
        after = chars[i + 1] if i + 1 < len(chars) else None
        i += 1
        if c == CR and after == LF:
            out.append(LF)
            i += 1
        elif c == CR:
            out.append(0o356)
        elif c == LF:
            out.append(CR)
        elif c == RUBOUT and after in _RUBOUT_PAIRS:
            out.append(_RUBOUT_PAIRS[after])
            i += 1
        elif c == RUBOUT and after is not None and after + 0o200 <= 0o355:
            out.append(after + 0o200)
            i += 1
        elif c == RUBOUT:
            out.append(0o357)  # 177 alone: the end of the run, or a character past 155
        else:
            out.append(c)
    return bytes(out)


def _pack(chars: list[int]) -> int:
    """The word of five characters, its low bit 0."""
    word = 0
    for c in chars:
        word = (word << 7) | c
    return word << 1
