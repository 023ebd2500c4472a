"""Shared by the teletype, paper tape, console, debugger and ``pdp6 run`` tests.

The example programs (``examples/*.mid``) are assembled once per session with the real
``midas`` command (through click's runner) into a temporary directory, together with
their line maps; the sources are copied there so the maps point at them.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pexpect
import pytest
from click.testing import CliRunner, Result

from midas.cli import main as midas_main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def assemble(source: Path, output: Path, *options: str) -> Path:
    """Run ``midas SOURCE -o OUTPUT [options]``; fail the test with midas's messages."""
    result = CliRunner().invoke(midas_main, [str(source), "-o", str(output), *options])
    assert result.exit_code == 0, result.output
    return output


@dataclass(frozen=True)
class Programs:
    """The assembled examples: SBLK binaries with maps, and a RIM tape."""

    dir: Path
    echo: Path  # polling echo, SBLK (+ echo.map)
    echo_rim: Path  # the same, RIM
    echoint: Path  # interrupt-driven echo, SBLK


@pytest.fixture(scope="session", name="programs")
def programs_fixture(tmp_path_factory: pytest.TempPathFactory) -> Programs:
    """``programs``: import ``programs_fixture`` into a test module to use it."""
    d = tmp_path_factory.mktemp("programs")
    for name in ("echo.mid", "echoint.mid"):
        shutil.copy(EXAMPLES / name, d / name)
    return Programs(
        dir=d,
        echo=assemble(d / "echo.mid", d / "echo.bin"),
        echo_rim=assemble(d / "echo.mid", d / "echo.rim", "--format", "rim", "--no-map"),
        echoint=assemble(d / "echoint.mid", d / "echoint.bin"),
    )


def replies(result: Result) -> dict[str, str]:
    """Each console command echoed after the prompt, mapped to the output that followed it."""
    out: dict[str, str] = {}
    for chunk in result.stdout.split("pdp6> ")[1:]:
        command, _, text = chunk.partition("\n")
        out[command] = text.rstrip("\n")
    return out


def pdp6_command() -> list[str]:
    """The ``pdp6`` command as a subprocess, from this checkout."""
    return [sys.executable, "-m", "pdp6.host.cli"]


def subprocess_env() -> dict[str, str]:
    """Environment for ``pdp6`` subprocesses: this checkout first on the path, and the
    plain-Python engine (starts at once, never waits for a numba compile)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["PDP6_NOJIT"] = "1"
    env["TERM"] = "dumb"
    return env


def spawn(*args: str, cwd: Path | None = None) -> pexpect.spawn:
    """``pdp6 ARGS...`` on a pseudo-terminal (directly: no shell to catch Ctrl-C).  Its
    Ctrl-C is the default one even when the tests run as a shell's background job, which
    starts with SIGINT ignored and passes that on."""
    program, *rest = pdp6_command()
    return pexpect.spawn(
        program, [*rest, *args], env=subprocess_env(), cwd=cwd, encoding="ascii",
        timeout=60, dimensions=(40, 200),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip


def expect_reply(child: pexpect.spawn, command: str, reply: str, prompt: str) -> None:
    """Type ``command``; expect ``reply`` (literal text) and then the prompt."""
    child.sendline(command)
    child.expect_exact(reply)
    child.expect_exact(prompt)


def rewrite(path: Path, change: Callable[[dict], None]) -> None:
    """Change the JSON inside a snapshot and give it a valid checksum again."""
    head, digest, payload = path.read_bytes().split(b"\n", 2)
    doc = json.loads(zlib.decompress(payload))
    change(doc)
    payload = zlib.compress(json.dumps(doc).encode())
    path.write_bytes(head + b"\n" + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)
