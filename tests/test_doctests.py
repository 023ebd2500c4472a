"""The examples in the packages' docstrings (``>>>``) run as written: every module of
pdp6, midas and machack that has one is found here, so a new example is tested too."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("pdp6", "midas", "machack")


def modules_with_examples() -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if ">>> " in path.read_text(encoding="utf-8"):
                parts = path.relative_to(ROOT).with_suffix("").parts
                found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def test_the_examples_are_found() -> None:
    assert {"pdp6.machine", "midas", "machack.session"} <= set(modules_with_examples())


@pytest.mark.parametrize("name", modules_with_examples())
def test_examples_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of the examples in {name} failed (above)"
