"""The Python examples in README.md and docs/ run as written."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "docs" / "machine.md", ROOT / "docs" / "plausibility.md"]
SLOW_PAGES = [ROOT / "docs" / "machack.md"]  # (its example searches 300 positions: a minute)
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


def run_example(where: str, code: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Run the example; where it prints, the comment beside the print names what it
    shows, and every word of that comment must be in the output."""
    exec(compile(code, where, "exec"), {})
    out = capsys.readouterr().out
    for line in code.splitlines():
        m = re.match(r"\s*print\(.*\)\s*#\s*(.+)$", line)
        if m:
            for token in m.group(1).split():
                if token != "...)":
                    assert token.rstrip(",") in out, f"{where}: {token!r} not in {out!r}"
