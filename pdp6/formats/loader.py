"""Reading SBLK and RIM binaries into memory, and the format details they share with MIDAS.

Both formats are described in ``docs/sources/midas-reference.md`` section 2:

* **RIM** (PDP-6 read-in): pairs ``DATAI PTR,addr`` / ``data``; the first word that is not
  a ``DATAI`` is the transfer word, executed by the RIM loader (normally ``JRST start``),
  followed by a dummy word.
* **SBLK** (ITS simple blocks): a RIM-format prologue loading the SBLK loader, ended by the
  transfer word ``JRST 1``; data blocks ``-n,,addr`` + n words + checksum; the start
  instruction (the first non-negative header); optional information blocks (type 0 is the
  DDT symbol table); a duplicate start instruction.
* **RIM10** (PDP-10 read-in, as MIDAS punches it): the read-in block ``-17,,0`` and the
  15 words of MIDAS's loader ``LDR10`` for locations 1-17, then SBLK data blocks and the
  start instruction; no symbols.  Loaded as an SBLK file is: the blocks' words, checked,
  and the start, without the loader (which the PDP-6, having no read-in hardware for it,
  would run from 1).

The assembler (``midas``) writes these files and imports the primitives below (SQUOZE,
block framing, symbol flags; the checksum is in :mod:`pdp6.formats.checksum`) so that reader and
writer cannot drift apart.  Files on the host hold the words in one of the two encodings of
:mod:`pdp6.formats.wordfile`: ``bin``, which ``midas`` writes, or the 7-bit encoding of the ITS
archives, where the period's own binaries survive.  Nothing in a file names its encoding,
but every SBLK and RIM file starts with a RIM pair or ``JRST 1``, and a RIM10 file with
``-17,,0``, and only one encoding will usually read it so: that is the one used.  A block
whose checksum disagrees refuses the file, or with ``ignore_checksum`` is loaded and listed
in ``bad_blocks`` (the user may then repair it: :mod:`pdp6.formats.checksum`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ..isa import IO_FUNCTIONS
from ..word import MASK18, MASK36, SIGN36, halves
from .checksum import BadBlock, block_checksum
from .hostfiles import read_input
from .wordfile import WordFileError, archive_words, decode_words

JRST_1 = 0o254000_000001  # transfer word ending the SBLK prologue
JRST = 0o254000_000000
HALT = 0o254200_000000  # JRST 4,
JUMPA = 0o324000_000000  # DEC's diagnostic tapes start with JUMPA 100
RIM10_READ_IN = 0o777761_000000  # -17,,0: a RIM10 file's read-in block (LDR10 at 1-17)
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
def block_header(count: int, addr: int) -> int:
    """The AOBJN-style header ``-count,,addr`` of a block."""
    return (((-count) & MASK18) << 18) | (addr & MASK18)


def is_datai(word: int) -> bool:
    """True for a ``DATAI dev,addr`` word (the first word of a RIM pair)."""
    return (word >> 33) == 7 and ((word >> 23) & 7) == _DATAI


def start_address(start_word: int | None) -> int | None:
    """The address a start instruction transfers to, if any: ``JRST x`` (MIDAS's END),
    ``JRST 4,x`` (a RIM tape's), or ``JUMPA x`` (DEC's diagnostic tapes: a jump whatever
    its AC holds).  Not one through an index register or an @ word, which loading alone
    cannot follow."""
    if not start_word:
        return None
    if (start_word >> 27) in (JRST >> 27, JUMPA >> 27) and not (start_word >> 18) & 0o37:
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
    encoding: str = ""  # the host file's encoding ('bin' or 'its'), when read from bytes
    bad_blocks: list[BadBlock] = field(default_factory=list)  # loaded despite their checksum

    @property
    def start(self) -> int | None:
        """The start address (from ``JRST start``), or None."""
        return start_address(self.start_word)

    @property
    def kind(self) -> str:
        """``sblk``, ``rim`` or ``rim10``, with the encoding when it is the archives': for
        messages."""
        return self.format + (", ITS archive encoding" if self.encoding == "its" else "")


ENCODINGS = ("bin", "its")  # the host encodings read, in the order they are tried


@dataclass(frozen=True)
class _FileWords:
    """A binary's words, with the byte offset each starts at in its host file (for
    messages that point into the file); none when the words were given as a list."""

    words: Sequence[int]
    offset_of: Callable[[int], str] | None = None

    def where(self, i: int) -> str:
        return f"word {i}" + (f" (byte offset {self.offset_of(i)})" if self.offset_of else "")


_Reader = Callable[[_FileWords], LoadedImage]


def _read_rim_pairs(file: _FileWords, image: LoadedImage) -> int:
    """Load RIM pairs from the start of the file; return the index of the transfer word."""
    words = file.words
    i = 0
    n = len(words)
    while i < n and is_datai(words[i]):
        if i + 1 >= n:
            raise LoaderError(f"RIM pair at {file.where(i)} has no data word")
        pointer = words[i]
        if (pointer >> 18) & 0o37:
            raise LoaderError(f"RIM pair at {file.where(i)} uses indexing or indirection")
        image.words[pointer & MASK18] = words[i + 1]
        i += 2
    return i


def _rim(file: _FileWords) -> LoadedImage:
    image = LoadedImage(format="rim")
    i = _read_rim_pairs(file, image)
    if i >= len(file.words):
        raise LoaderError(f"RIM file has no transfer word (ends at {file.where(i)})")
    image.start_word = file.words[i]
    return image


def _sblk(file: _FileWords, ignore_checksum: bool) -> LoadedImage:
    words = file.words
    n = len(words)
    i = _read_rim_pairs(file, LoadedImage())
    if i >= n or words[i] != JRST_1:
        found = "the end of the file" if i >= n else f"{words[i]:012o}"
        raise LoaderError(f"SBLK prologue not ended by JRST 1 at {file.where(i)}: found {found}")
    image = LoadedImage(format="sblk")
    i = _data_blocks(file, i + 1, image, ignore_checksum)
    infono = 0
    while i < n:
        header = words[i]
        if not header & SIGN36:
            break  # the duplicate start instruction ends the file
        if header == MASK36 and i == n - 1:
            break  # old MIDAS ended files with a lone 777777,,777777
        infono += 1
        body = _block(file, i, "information", infono, image, ignore_checksum)
        if header & MASK18 == 0:
            _read_symbols(body, image)
        i += len(body) + 2
    return image


def _rim10(file: _FileWords, ignore_checksum: bool) -> LoadedImage:
    """A RIM10 file: past the read-in block (the loader), data blocks and the start."""
    words = file.words
    count = (1 << 18) - (words[0] >> 18)
    image = LoadedImage(format="rim10")
    _data_blocks(file, 1 + count, image, ignore_checksum)
    return image


def _data_blocks(file: _FileWords, i: int, image: LoadedImage, ignore_checksum: bool) -> int:
    """Load the data blocks from ``i`` on, up to and including the start instruction (the
    first non-negative header); return the index after it."""
    words = file.words
    blockno = 0
    while True:
        if i >= len(words):
            raise LoaderError(
                f"{image.format.upper()} file ends before the start instruction ({file.where(i)})"
            )
        header = words[i]
        if not header & SIGN36:
            image.start_word = header
            return i + 1
        blockno += 1
        body = _block(file, i, "data", blockno, image, ignore_checksum)
        addr = header & MASK18
        for k, w in enumerate(body):
            image.words[(addr + k) & MASK18] = w
        i += len(body) + 2


def _block(
    file: _FileWords, i: int, kind: str, number: int, image: LoadedImage, ignore: bool
) -> Sequence[int]:
    """The data words of the block whose header is at ``i`` (``kind`` 'data' or
    'information', ``number`` counting from 1).  A bad checksum is refused, or with
    ``ignore`` noted in the image's ``bad_blocks``."""
    words = file.words
    header = words[i]
    count = (1 << 18) - (header >> 18)
    end = i + 1 + count
    if end >= len(words):
        raise LoaderError(
            f"{kind} block {number} (header {halves(header)} at {file.where(i)}) "
            f"needs {count} words and a checksum, but the file ends first"
        )
    body = tuple(words[i + 1 : end])
    if words[end] == block_checksum([header, *body]):
        return body
    place = f"header at {file.where(i)}, checksum at {file.where(end)}"
    bad = BadBlock(kind, number, header, body, words[end], place)
    if not ignore:
        raise LoaderError(f"{bad.describe()} (--ignore-checksum loads it anyway)")
    image.bad_blocks.append(bad)
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


def _any(file: _FileWords, ignore_checksum: bool) -> LoadedImage:
    """SBLK or RIM, told apart by the ``JRST 1`` that ends an SBLK file's RIM prologue,
    or RIM10, which starts with its read-in block's ``-17,,0``.

    A file that loads no word at all is refused: any nine bytes decode as two words, and
    a text file read that way is a RIM file of nothing but a transfer word.
    """
    words = file.words
    if not words:
        raise LoaderError("empty file")
    i = _read_rim_pairs(file, LoadedImage())
    if words[0] == RIM10_READ_IN:
        image = _rim10(file, ignore_checksum)
    elif i < len(words) - 1 and words[i] == JRST_1:
        image = _sblk(file, ignore_checksum)
    else:
        image = _rim(file)
    if not image.words:
        raise LoaderError("it loads no words: not an SBLK or RIM binary")
    return image


# --- host files: which encoding holds the words ----------------------------------------------
def _starts_a_binary(word: int | None) -> bool:
    """Every SBLK and RIM file starts with a RIM pair's DATAI, or with JRST 1; a RIM10
    file with its read-in block's header."""
    return word is not None and (is_datai(word) or word == JRST_1 or word == RIM10_READ_IN)


def _first_word(data: bytes, encoding: str) -> int | None:
    if encoding == "bin":
        return int.from_bytes(data[:5], "big") >> 4 if len(data) >= 5 else None
    try:
        return next(archive_words(data[:12]), (0, None))[1]
    except WordFileError:
        return None


def _decode(data: bytes, encoding: str) -> _FileWords:
    try:
        if encoding == "bin":
            return _FileWords(decode_words(data), lambda i: f"{i // 2 * 9}{'+4.5' * (i % 2)}")
        places = list(archive_words(data))
    except WordFileError as exc:
        raise LoaderError(str(exc)) from None
    offsets = [offset for offset, _ in places] + [len(data)]
    return _FileWords([word for _, word in places], lambda i: str(offsets[min(i, len(places))]))


def _read_file(data: bytes, read: _Reader) -> tuple[_FileWords, LoadedImage]:
    """Read ``data`` in the encoding whose first word can start a binary: ``bin`` (what
    midas writes) or the ITS archives' 7-bit encoding.  Should both look like one, the
    first that reads wins; should neither, ``bin`` is read, to say what is wrong."""
    encodings = [e for e in ENCODINGS if _starts_a_binary(_first_word(data, e))]
    first_error = None
    for encoding in encodings or ["bin"]:
        try:
            file = _decode(data, encoding)
            image = read(file)
        except LoaderError as exc:
            first_error = first_error or exc
            continue
        image.encoding = encoding
        return file, image
    assert first_error is not None
    raise first_error


def _read(data: bytes | Sequence[int], read: _Reader) -> LoadedImage:
    if isinstance(data, bytes | bytearray):
        return _read_file(bytes(data), read)[1]
    return read(_FileWords(data))


def read_rim(data: bytes | Sequence[int]) -> LoadedImage:
    """Read a PDP-6 RIM file (the bytes of a file in either encoding, or a word list)."""
    return _read(data, _rim)


def read_sblk(data: bytes | Sequence[int], ignore_checksum: bool = False) -> LoadedImage:
    """Read an ITS SBLK file (bytes in either encoding, or a word list), checking every
    checksum: a bad one is refused, or with ``ignore_checksum`` loaded with a warning."""
    return _read(data, lambda file: _sblk(file, ignore_checksum))


def read_words(data: bytes | Sequence[int], ignore_checksum: bool = False) -> LoadedImage:
    """Read a binary of any format (SBLK, RIM or RIM10) in either encoding."""
    return _read(data, lambda file: _any(file, ignore_checksum))


def binary_file_words(data: bytes) -> list[int]:
    """The words of a host file that holds an SBLK or RIM binary, decoded from whichever
    encoding holds them (for punching it as a paper tape); LoaderError if none does."""
    return list(_read_file(data, lambda file: _any(file, False))[0].words)


def load_file(path: str | Path, ignore_checksum: bool = False) -> LoadedImage:
    """Read an SBLK or RIM file in either encoding.  A file that is not one is refused
    with a message that names what it seems to be (a MIDAS source, text, a snapshot)
    when it can tell."""
    try:
        data = read_input(path)
    except OSError as exc:
        raise LoaderError(f"{path}: {exc.strerror}") from None
    try:
        return read_words(data, ignore_checksum)
    except LoaderError as exc:
        raise LoaderError(not_a_binary(path, data) or f"{path}: {exc}") from None


# --- files that are something else ---------------------------------------------------------
SNAPSHOT_MAGIC = b"PDP6SNAP"  # how a pdp6.formats.snapshot file starts
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
