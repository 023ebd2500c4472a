"""The Python examples in README.md and docs/ run as written."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", DOCS / "machine.md", DOCS / "midas.md", DOCS / "plausibility.md"]
SLOW_PAGES = [DOCS / "machack.md"]  # (its example searches 300 positions: a minute)
BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def examples() -> list[object]:
    found = []
    for page in PAGES + SLOW_PAGES:
        marks = [pytest.mark.slow] if page in SLOW_PAGES else []
        for i, code in enumerate(BLOCK.findall(page.read_text())):
            found.append(pytest.param(f"{page.name}#{i}", code, id=f"{page.name}#{i}", marks=marks))
    return found


@pytest.mark.parametrize(("where", "code"), examples())
def test_example_runs(where: str, code: str, capsys: pytest.CaptureFixture[str]) -> None:
    run_example(where, code, capsys)


def test_the_debugger_example_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/debugging.md drives the debugger from Python on the echo program, assembled
    as the page's walk-through does (`echo.bin`, and `echo.map` beside it)."""
    (code,) = BLOCK.findall((ROOT / "docs" / "debugging.md").read_text())
    made = subprocess.run(
        [sys.executable, "-m", "midas", str(ROOT / "examples" / "echo.mid"), "-o", "echo.bin"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    monkeypatch.chdir(tmp_path)
    run_example("debugging.md#0", code, capsys)


def run_example(where: str, code: str, capsys: pytest.CaptureFixture[str]) -> str:
    """Run the example; where it prints, the comment beside the print names what it
    shows, and every word of that comment must be in the output (returned)."""
    exec(compile(code, where, "exec"), {})
    out = capsys.readouterr().out
    for line in code.splitlines():
        m = re.match(r"\s*print\(.*\)\s*#\s*(.+)$", line)
        if m:
            for token in m.group(1).split():
                if token != "...)":
                    assert token.rstrip(",") in out, f"{where}: {token!r} not in {out!r}"
    return out


def test_the_uci_example_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/uci.md plays one move through python-chess's engine module, with `machack`
    found on the PATH as an installed command is."""
    import chess

    (code,) = BLOCK.findall((ROOT / "docs" / "uci.md").read_text())
    bin_dir = str(Path(sys.executable).parent)
    monkeypatch.setenv("PATH", bin_dir + os.pathsep + os.environ.get("PATH", ""))
    if shutil.which("machack") is None:
        pytest.skip("the machack command is not installed beside this Python")
    (move,) = run_example("uci.md#0", code, capsys).split() or [""]
    assert chess.Move.from_uci(move) in chess.Board().legal_moves


def test_relative_links_resolve() -> None:
    """Every link from README.md and docs/ to a file of the repository names one that is
    there (the pages cite docs/sources/ for the reference notes)."""
    pages = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
    broken = []
    for page in pages:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
            path = target.split("#", 1)[0]
            if not path or re.match(r"[a-z]+:", path):
                continue  # an anchor on the same page, or a web address
            if not (page.parent / path).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, broken
