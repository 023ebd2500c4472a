"""A command's start costs only what it uses: ``--help`` of ``midas``, ``pdp6`` and
``machack`` imports neither numba (about half a second) nor the emulator's engines, and
``midas`` never imports numba, even to assemble.  Checked in fresh interpreters by what
they import, not by timing (the figures are in docs/machine.md)."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("numba", "llvmlite", "pdp6.cpu.translate", "pdp6.machine")


def _modules_after(script: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", f"{script}\nimport sys\nprint(*sorted(sys.modules))"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return set(out.split())


@pytest.mark.parametrize("cli", ["midas.cli", "pdp6.host.cli", "machack.cli"])
def test_help_imports_no_numba_and_no_engine(cli: str) -> None:
    script = (
        f"import contextlib, io\nfrom {cli} import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main(['--help'])"
    )
    loaded = _modules_after(script)
    assert not loaded & set(HEAVY)


def test_assembling_imports_no_numba() -> None:
    loaded = _modules_after("import midas\nassert midas.assemble('MOVEI 1,5\\nEND').ok")
    assert "numba" not in loaded
