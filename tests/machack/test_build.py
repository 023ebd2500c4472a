"""The cache of the assembled chess program: its key covers the program's sources and
the assembler's, so neither a changed program nor a changed assembler is served a stale
image."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import midas
from machack import build


def _copies(files: list[Path], into: Path) -> list[Path]:
    """Copies of ``files`` under ``into``, each in a folder named as its own."""
    copies = []
    for path in files:
        copy = into / path.parent.name / path.name
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, copy)
        copies.append(copy)
    return copies


def test_the_key_covers_the_assembler(tmp_path: Path) -> None:
    assembler = _copies(build.assembler_files(), tmp_path)
    key = build.source_hash(build.SRC_DIR, assembler)
    assert key == build.source_hash()
    for name in ("midas/fastlines.py", "pdp6/isa.py"):
        changed = next(path for path in assembler if path.as_posix().endswith(name))
        original = changed.read_text()
        changed.write_text(original + "# changed\n")
        assert build.source_hash(build.SRC_DIR, assembler) != key, name
        changed.write_text(original)
    assert build.source_hash(build.SRC_DIR, assembler) == key


def test_the_key_covers_the_program(tmp_path: Path) -> None:
    src = tmp_path / "src"
    _copies(sorted(build.SRC_DIR.glob("*.mid")), tmp_path)
    key = build.source_hash(src)
    assert key == build.source_hash()
    (src / "eval.mid").write_text((src / "eval.mid").read_text() + "\n")
    assert build.source_hash(src) != key


def test_every_module_of_the_assembler_is_in_the_key() -> None:
    """The pdp6 modules that an assembly loads, in a fresh interpreter, are those the
    key reads (a new import in midas must be added to PDP6_MODULES)."""
    script = "import sys, midas; midas.assemble('END'); print(*sorted(sys.modules))"
    loaded = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    pdp6 = {name.partition(".")[2] or "__init__" for name in loaded if name.split(".")[0] == "pdp6"}
    assert pdp6 == set(build.PDP6_MODULES)
    midas = {name.partition(".")[2] for name in loaded if name.startswith("midas.")}
    assert midas <= {path.stem for path in build.assembler_files()}


def test_a_changed_assembler_is_not_served_the_cached_image(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(build, "_MEMO", {})
    assembler = _copies(build.assembler_files(), tmp_path / "asm")
    monkeypatch.setattr(build, "assembler_files", lambda: assembler)
    # An image on disk under today's key is served as it is, even a made-up one ...
    key = build.source_hash()
    stale = {"words": {"64": 1}, "start": 0o1234, "symbols": {"GO": 0o1234}}
    path = tmp_path / "cache" / "machack" / f"machack-{key}.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(stale))
    assert build.build().start == 0o1234
    # ... but not once the assembler has changed: the program is assembled again.
    monkeypatch.setattr(build, "_MEMO", {})
    fastlines = next(p for p in assembler if p.as_posix().endswith("midas/fastlines.py"))
    fastlines.write_text(fastlines.read_text() + "# changed\n")
    image = build.build()
    assert image.start != 0o1234
    assert image.start == image.symbol("GO") & 0o777777


def test_the_program_assembles_without_warnings() -> None:
    """A warning in the program's own source is a mistake waiting (a comma after a
    bracketed macro argument shifts the ones after it; a digit 8 in an octal number)."""
    program = midas.assemble_file(build.SRC_DIR / build.MAIN)
    assert [str(w) for w in program.warnings] == []
