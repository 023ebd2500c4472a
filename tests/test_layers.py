"""The floors of docs/architecture.md, held: who may import whom.

Every import counts, at the top of a module, inside a function or under
``TYPE_CHECKING``: a lazy import is still a dependency a reader has to follow, and an
import circle, lazy or not, leaves two modules that can only be understood together.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("pdp6", "midas", "machack")
HOST = "pdp6.host"
FORMATS = "pdp6.formats"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def _imports(name: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """The modules ``name`` imports; ``from X import y`` names ``X.y`` when that is a
    module, else ``X``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                child = f"{module}.{alias.name}"
                yield child if child in known else module


def graph() -> dict[str, set[str]]:
    """Each module of the three packages and the modules it imports, outside ones
    included."""
    known = _modules()
    return {name: set(_imports(name, path, known)) - {name} for name, path in known.items()}


def _under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _crossings(
    edges: dict[str, set[str]],
    source: str,
    forbidden: tuple[str, ...],
    exempt: tuple[str, ...] = (),
) -> list[str]:
    return sorted(
        f"{m} imports {d}"
        for m, deps in edges.items()
        if _under(m, source) and not any(_under(m, e) for e in exempt)
        for d in deps
        if any(_under(d, f) for f in forbidden)
    )


def test_the_machine_knows_neither_the_assembler_nor_the_chess_program() -> None:
    assert _crossings(graph(), "pdp6", ("midas", "machack")) == []


def test_the_assembler_knows_nothing_of_the_chess_program() -> None:
    assert _crossings(graph(), "midas", ("machack",)) == []


def test_the_core_imports_neither_formats_nor_host() -> None:
    assert _crossings(graph(), "pdp6", (FORMATS, HOST), exempt=(FORMATS, HOST)) == []


def test_the_file_formats_import_no_host_module() -> None:
    assert _crossings(graph(), FORMATS, (HOST,)) == []


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in edges:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle() -> None:
    assert _circles(graph()) == []


@pytest.mark.parametrize("package", ["pdp6", FORMATS, HOST, "pdp6.cpu", "pdp6.devices"])
def test_each_floor_says_what_belongs_there(package: str) -> None:
    init = ROOT / package.replace(".", "/") / "__init__.py"
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
    assert doc and "belongs" in doc
