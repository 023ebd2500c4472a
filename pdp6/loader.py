"""Reading SBLK and RIM binaries into memory, and the format details they share with MIDAS.

Both formats are described in ``shared/docs/midas-reference.md`` section 2:

* **RIM** (PDP-6 read-in): pairs ``DATAI PTR,addr`` / ``data``; the first word that is not
  a ``DATAI`` is the transfer word, executed by the RIM loader (normally ``JRST start``),
  followed by a dummy word.
* **SBLK** (ITS simple blocks): a RIM-format prologue loading the SBLK loader, ended by the
  transfer word ``JRST 1``; data blocks ``-n,,addr`` + n words + checksum; the start
  instruction (the first non-negative header); optional information blocks (type 0 is the
  DDT symbol table); a duplicate start instruction.

The assembler (``midas``) writes these files and imports the primitives below (SQUOZE,
checksum, symbol flags) so that reader and writer cannot drift apart.  Files on the host
use the ``bin`` encoding of :mod:`pdp6.wordfile`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from .hostfiles import read_input
from .isa import IO_FUNCTIONS
from .word import MASK18, MASK36, SIGN36
from .wordfile import WordFileError, decode_words

JRST_1 = 0o254000_000001  # transfer word ending the SBLK prologue
JRST = 0o254000_000000
HALT = 0o254200_000000  # JRST 4,
_DATAI = IO_FUNCTIONS.index("DATAI")

# --- SQUOZE (DDT's radix-50 code) ----------------------------------------------------------
SQUOZE_CHARS = " 0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ.$%"
SQUOZE_CODE = {c: i for i, c in enumerate(SQUOZE_CHARS)}
SQUOZE_MASK = 0o037777_777777  # the 32 bits below the four flag bits

# Flag bits (the top four) in a symbol table name word.
SYM_HALFKILLED = 0o400000_000000  # 4.9: DDT never types the symbol out
SYM_KILLED = 0o200000_000000  # 4.8
SYM_LOCAL = 0o100000_000000  # 4.7
SYM_GLOBAL = 0o040000_000000  # 4.6
SYM_FLAGS = 0o740000_000000


def squoze(name: str) -> int:
    """SQUOZE of the first six characters of ``name`` (case folded, space padded)."""
    value = 0
    padded = name[:6].upper().ljust(6)
    for c in padded:
        code = SQUOZE_CODE.get(c)
        if code is None:
            raise ValueError(f"{c!r} is not a SQUOZE character (in {name!r})")
        value = value * 40 + code
    return value


def unsquoze(word: int) -> str:
    """The symbol name held in the low 32 bits of ``word`` (trailing spaces removed)."""
    value = word & SQUOZE_MASK
    chars = []
    for _ in range(6):
        value, code = divmod(value, 40)
        chars.append(SQUOZE_CHARS[code])
    return "".join(reversed(chars)).strip()


# --- SBLK framing -----------------------------------------------------------------------------
def block_checksum(words: Sequence[int]) -> int:
    """SBLK checksum of a block (header included): rotate left one bit, then add."""
    acc = 0
    for w in words:
        acc = ((acc << 1) | (acc >> 35)) & MASK36
        acc = (acc + w) & MASK36
    return acc


def block_header(count: int, addr: int) -> int:
    """The AOBJN-style header ``-count,,addr`` of a block."""
    return (((-count) & MASK18) << 18) | (addr & MASK18)


def is_datai(word: int) -> bool:
    """True for a ``DATAI dev,addr`` word (the first word of a RIM pair)."""
    return (word >> 33) == 7 and ((word >> 23) & 7) == _DATAI


def start_address(start_word: int | None) -> int | None:
    """The address a start instruction transfers to (``JRST x`` or ``JRST 4,x``), if any."""
    if not start_word:
        return None
    if (start_word >> 27) == 0o254 and not (start_word >> 18) & 0o37:
        return start_word & MASK18
    return None


class LoaderError(ValueError):
    """A binary file that cannot be loaded; the message says where it goes wrong."""


@dataclass
class LoadedImage:
    """What a binary file puts into memory, and where to start it."""

    words: dict[int, int] = field(default_factory=dict)
    start_word: int | None = None  # the start (transfer) instruction, if the file has one
    symbols: dict[str, int] = field(default_factory=dict)
    symbol_flags: dict[str, int] = field(default_factory=dict)  # SYM_* bits per symbol
    format: str = "sblk"

    @property
    def start(self) -> int | None:
        """The start address (from ``JRST start``), or None."""
        return start_address(self.start_word)


def _where(i: int) -> str:
    return f"word {i} (byte offset {i // 2 * 9}{'+4.5' if i % 2 else ''})"


def _read_rim_pairs(words: Sequence[int], image: LoadedImage) -> int:
    """Load RIM pairs from the start of ``words``; return the index of the transfer word."""
    i = 0
    n = len(words)
    while i < n and is_datai(words[i]):
        if i + 1 >= n:
            raise LoaderError(f"RIM pair at {_where(i)} has no data word")
        pointer = words[i]
        if (pointer >> 18) & 0o37:
            raise LoaderError(f"RIM pair at {_where(i)} uses indexing or indirection")
        image.words[pointer & MASK18] = words[i + 1]
        i += 2
    return i


def read_rim(data: bytes | Sequence[int]) -> LoadedImage:
    """Read a PDP-6 RIM file (``bin`` bytes or a word list)."""
    words = _as_words(data)
    image = LoadedImage(format="rim")
    i = _read_rim_pairs(words, image)
    if i >= len(words):
        raise LoaderError(f"RIM file has no transfer word (ends at {_where(len(words))})")
    image.start_word = words[i]
    return image


def read_sblk(data: bytes | Sequence[int]) -> LoadedImage:
    """Read an ITS SBLK file (``bin`` bytes or a word list), checking every checksum."""
    words = _as_words(data)
    n = len(words)
    prologue = LoadedImage()
    i = _read_rim_pairs(words, prologue)
    if i >= n or words[i] != JRST_1:
        found = "the end of the file" if i >= n else f"{words[i]:012o}"
        raise LoaderError(f"SBLK prologue not ended by JRST 1 at {_where(i)}: found {found}")
    i += 1
    image = LoadedImage(format="sblk")
    blockno = 0
    while True:
        if i >= n:
            raise LoaderError(f"SBLK file ends before the start instruction ({_where(i)})")
        header = words[i]
        if not header & SIGN36:
            image.start_word = header
            i += 1
            break
        blockno += 1
        body = _block(words, i, f"data block {blockno}")
        addr = header & MASK18
        for k, w in enumerate(body):
            image.words[(addr + k) & MASK18] = w
        i += len(body) + 2
    infono = 0
    while i < n:
        header = words[i]
        if not header & SIGN36:
            break  # the duplicate start instruction ends the file
        if header == MASK36 and i == n - 1:
            break  # old MIDAS ended files with a lone 777777,,777777
        infono += 1
        body = _block(words, i, f"information block {infono}")
        if header & MASK18 == 0:
            _read_symbols(body, image)
        i += len(body) + 2
    return image


def _block(words: Sequence[int], i: int, what: str) -> Sequence[int]:
    """The data words of the block whose header is at ``i``, after checking its checksum."""
    header = words[i]
    count = (1 << 18) - (header >> 18)
    end = i + 1 + count
    if end >= len(words):
        raise LoaderError(
            f"{what} (header {header >> 18:06o},,{header & MASK18:06o} at {_where(i)}) "
            f"needs {count} words and a checksum, but the file ends first"
        )
    body = words[i + 1 : end]
    expected = block_checksum([header, *body])
    if words[end] != expected:
        raise LoaderError(
            f"{what} (header {header >> 18:06o},,{header & MASK18:06o} at {_where(i)}): "
            f"checksum {words[end]:012o} at {_where(end)} should be {expected:012o}"
        )
    return body


def _read_symbols(body: Sequence[int], image: LoadedImage) -> None:
    for k in range(0, len(body) - 1, 2):
        name_word, value = body[k], body[k + 1]
        flags = name_word & SYM_FLAGS
        if not flags:
            continue  # a group header: program or block name, then -length,,level
        name = unsquoze(name_word)
        if name not in image.symbols or image.symbol_flags[name] & SYM_KILLED:
            image.symbols[name] = value
            image.symbol_flags[name] = flags


def _as_words(data: bytes | Sequence[int]) -> Sequence[int]:
    if isinstance(data, bytes | bytearray):
        try:
            return decode_words(bytes(data))
        except WordFileError as exc:
            raise LoaderError(str(exc)) from None
    return data


def read_words(data: bytes | Sequence[int]) -> LoadedImage:
    """Read a binary of either format, telling SBLK from RIM by the ``JRST 1`` transfer.

    A file that loads no word at all is refused: any nine bytes decode as two words, and
    a text file read that way is a RIM file of nothing but a transfer word.
    """
    words = _as_words(data)
    if not words:
        raise LoaderError("empty file")
    probe = LoadedImage()
    i = _read_rim_pairs(words, probe)
    if i < len(words) - 1 and words[i] == JRST_1:
        image = read_sblk(words)
    else:
        image = read_rim(words)
    if not image.words:
        raise LoaderError("it loads no words: not an SBLK or RIM binary")
    return image


def load_file(path: str | Path) -> LoadedImage:
    """Read an SBLK or RIM file written in the ``bin`` encoding.  A file that is not one
    is refused with a message that names what it seems to be (a MIDAS source, text, a
    snapshot) when it can tell."""
    try:
        data = read_input(path)
    except OSError as exc:
        raise LoaderError(f"{path}: {exc.strerror}") from None
    try:
        return read_words(data)
    except LoaderError as exc:
        raise LoaderError(not_a_binary(path, data) or f"{path}: {exc}") from None


# --- files that are something else ---------------------------------------------------------
SNAPSHOT_MAGIC = b"PDP6SNAP"  # how a pdp6.snapshot file starts
_MIDAS_STATEMENT = re.compile(rb"^[ \t]*(?:TITLE|END)\b", re.IGNORECASE | re.MULTILINE)
MIDAS_SUFFIXES = (".mid", ".midas", ".mac")


def not_a_binary(path: str | Path, data: bytes) -> str | None:
    """What to tell a person who gave ``path`` (holding ``data``) where a PDP-6 binary
    belongs, when it is recognisably something else: a MIDAS source, other text, a
    snapshot.  None when it is not recognised (the loader's own message then says why)."""
    path = Path(path)
    if data.startswith(SNAPSHOT_MAGIC + b" "):
        return (
            f"{path} is a machine snapshot, not a binary: restore it in the console "
            f"(pdp6 console -c 'restore {path}')"
        )
    if not _is_text(data):
        return None
    if path.suffix.lower() in MIDAS_SUFFIXES or _MIDAS_STATEMENT.search(data):
        return (
            f"{path} looks like a MIDAS source: assemble it with "
            f"`midas {path} -o {path.with_suffix('.bin')}`"
        )
    return f"{path} is a text file, not a PDP-6 binary (SBLK or RIM, as midas writes)"


def _is_text(data: bytes) -> bool:
    """UTF-8 with no control characters but white space: no binary looks like that (a
    binary starts with a DATAI word, whose first byte is 340 octal or more)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return bool(text) and all(c.isprintable() or c in "\t\n\r\f\v" for c in text)


class WordStore(Protocol):
    """Anything words can be stored into by address: ``Machine.memory``, a dict."""

    def __setitem__(self, addr: int, word: int) -> None: ...


def load_into(memory: WordStore, image: LoadedImage) -> int | None:
    """Store the image's words with ``memory[addr] = word``; return the start address."""
    for addr, word in image.words.items():
        memory[addr] = word
    return image.start


# --- the assembler's source-line map ---------------------------------------------------------
@dataclass
class LineMap:
    """What ``midas`` writes beside a binary (``OUT.map``): address -> source line, symbols."""

    lines: dict[int, tuple[str, int]] = field(default_factory=dict)
    symbols: dict[str, int] = field(default_factory=dict)
    symbol_flags: dict[str, str] = field(default_factory=dict)  # "h" half-killed, "g" global
    start: int | None = None
    files: list[str] = field(default_factory=list)


def read_line_map(path: str | Path) -> LineMap:
    """Read a ``midas-line-map`` JSON file (format described in ``docs/midas.md``)."""
    import json

    try:
        data = json.loads(read_input(path).decode("utf-8"))
        if data.get("format") != "midas-line-map":
            raise LoaderError(f"{path}: not a midas line map")
        files = list(data["files"])
        result = LineMap(start=data.get("start"), files=files)
        for addr, file_index, line in data["lines"]:
            result.lines[int(addr)] = (files[file_index], int(line))
        for name, value, flags in data["symbols"]:
            result.symbols[name] = int(value)
            result.symbol_flags[name] = flags
        return result
    except OSError as exc:
        raise LoaderError(f"{path}: {exc.strerror}") from None
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        raise LoaderError(f"{path}: malformed line map ({exc})") from None
