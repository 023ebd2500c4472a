"""Assemble the chess program in ``machack/src/`` with our MIDAS, cached by source hash.

The program is the MIDAS source; Python only turns it into a core image.  Assembling
takes a few seconds, so the result is kept twice: in this process (a dict), and on disk
under the user's cache directory, keyed by a hash of every ``.mid`` file in ``src/`` and
of the assembler's own source (the ``midas`` package and the ``pdp6`` modules it is built
on).  Any change to either gives a new key, so a stale image is never used.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from dataclasses import dataclass
from pathlib import Path

import platformdirs

import pdp6

SRC_DIR = Path(__file__).resolve().parent / "src"
MAIN = "machack.mid"
FORMAT = 1  # bump when the cache layout changes
# found without importing the assembler, which only a build needs
_MIDAS = importlib.util.find_spec("midas")
assert _MIDAS is not None and _MIDAS.origin is not None
MIDAS_DIR = Path(_MIDAS.origin).resolve().parent
PDP6_DIR = Path(pdp6.__file__).resolve().parent
# The pdp6 modules that an assembly loads (the opcode table, the loader's formats); a
# test checks the list against a fresh import.
PDP6_MODULES = (
    "__init__", "formats", "formats.checksum", "formats.hostfiles", "formats.loader",
    "formats.wordfile", "isa", "word",
)  # fmt: skip


class BuildError(RuntimeError):
    """The MIDAS source did not assemble; the message lists the assembler's errors."""


@dataclass(frozen=True)
class Image:
    """An assembled program: core words, start address and symbol table."""

    words: dict[int, int]
    start: int
    symbols: dict[str, int]
    source_hash: str

    def symbol(self, name: str) -> int:
        """The value of a MIDAS symbol (MIDAS keeps the first six characters)."""
        key = name.upper()[:6]
        if key not in self.symbols:
            raise KeyError(f"symbol {name} is not defined in the chess program")
        return self.symbols[key]

    def label_of(self, address: int) -> str:
        """``address`` as the nearest label at or below it, ``CHELP+3`` (octal), for
        messages about a place in the program."""
        best = max(
            ((v, k) for k, v in self.symbols.items() if v <= address and "." not in k),
            default=None,
        )
        if best is None:
            return f"{address:06o}"
        offset = address - best[0]
        return best[1] + (f"+{offset:o}" if offset else "")


_MEMO: dict[str, Image] = {}


def assembler_files() -> list[Path]:
    """The assembler's source files: what the image depends on besides the program."""
    files = sorted(MIDAS_DIR.rglob("*.py"))
    return files + [_module_file(PDP6_DIR.joinpath(*name.split("."))) for name in PDP6_MODULES]


def _module_file(stem: Path) -> Path:
    """A module's file: stem.py, or stem/__init__.py for a package (pdp6.cpu)."""
    return stem.with_suffix(".py") if stem.with_suffix(".py").exists() else stem / "__init__.py"


def source_hash(src_dir: Path = SRC_DIR, assembler: list[Path] | None = None) -> str:
    """A hash of every MIDAS file of the program and of the assembler's source files
    (``assembler``, by default :func:`assembler_files`): names and contents."""
    h = hashlib.sha256(f"format {FORMAT}".encode())
    sources = sorted(src_dir.glob("*.mid"))
    for path in sources + (assembler_files() if assembler is None else assembler):
        h.update(f"{path.parent.name}/{path.name}".encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:24]


def _cache_dir() -> Path:
    """The user's cache folder for the program (``$XDG_CACHE_HOME/machack``, by default
    ``~/.cache/machack``, on Linux; the platform's own elsewhere)."""
    return Path(platformdirs.user_cache_dir("machack"))


def assemble(src_dir: Path = SRC_DIR) -> Image:
    """Assemble the program now (no cache); raise :class:`BuildError` on any error."""
    import midas

    program = midas.assemble_file(src_dir / MAIN)
    if program.errors:
        lines = "\n".join(str(e) for e in program.errors[:40])
        raise BuildError(f"MIDAS errors in {src_dir / MAIN}:\n{lines}")
    if program.start is None:
        raise BuildError("the chess program has no start address (END GO)")
    return Image(dict(program.words), program.start, dict(program.symbols), source_hash(src_dir))


def build(src_dir: Path = SRC_DIR, use_disk_cache: bool = True) -> Image:
    """The assembled program, from the in-process or on-disk cache when the sources
    are unchanged."""
    key = source_hash(src_dir)
    if key in _MEMO:
        return _MEMO[key]
    path = _cache_dir() / f"machack-{key}.json"
    image: Image | None = None
    if use_disk_cache and path.exists():
        try:
            data = json.loads(path.read_text())
            image = Image(
                {int(a): int(w) for a, w in data["words"].items()},
                int(data["start"]),
                {str(k): int(v) for k, v in data["symbols"].items()},
                key,
            )
        except (OSError, ValueError, KeyError):
            image = None
    if image is None:
        image = assemble(src_dir)
        if use_disk_cache:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(".tmp")
                tmp.write_text(
                    json.dumps(
                        {"words": image.words, "start": image.start, "symbols": image.symbols}
                    )
                )
                tmp.replace(path)
            except OSError:
                pass  # a read-only home still works, just slower
    _MEMO[key] = image
    return image
