"""Every numeric option of ``pdp6``, ``midas`` and ``machack``, given nan, inf, -inf, a
negative and a huge value through the real command (click's runner): each value either
works or is refused with a usage error naming the option (exit status 2), never a
traceback.  And a standard output that cannot be written (``> /dev/full``) is one line on
stderr and exit status 1.

The options are found by walking the commands, so a new numeric option is swept too (and
fails here until it has a place to run in ``BASES``).  ``machack``'s commands boot the
chess program, so for them only refusals are tried: each value must stop the command
before anything boots.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from machack.cli import main as machack_main
from midas.cli import main as midas_main
from pdp6.host.cli import main as pdp6_main

ROOT = Path(__file__).resolve().parents[1]
HUGE = "1" + "0" * 30
VALUES = ["nan", "inf", "-inf", "-1", HUGE, "1e308"]
# Options whose values are text that a command reads as a number (a speed, a size, a
# word, an address, a device code): swept like the typed ones.
TEXT_NUMBERS = {"--baud", "--core", "--switches", "--start", "--loader-device"}
# What each command needs besides the option to run at all: {HALT}, {SOURCE} and {OUT}
# are the files of the test's fixture.
BASES: dict[str, list[str]] = {
    "pdp6 run": ["run", "{HALT}", "--engine", "python", "--grace", "0"],
    "pdp6 console": ["console", "{HALT}", "--engine", "python"],
    "pdp6 debug": ["debug", "{SOURCE}", "--engine", "python"],
    "pdp6 bench": ["bench", "--engine", "python"],
    "pdp6 web": ["web", "{HALT}"],  # (every value of the sweep is refused: none serves)
    "midas assemble": ["{SOURCE}", "-o", "{OUT}"],
    "midas bench": ["bench"],
    "machack play": ["play"],
    "machack match": ["match", "--opponent", "none"],
    "machack compare": ["compare", "--original", "none", "--1967"],
    "machack perft": ["perft", "startpos", "--"],
    "machack move": ["move", "startpos"],
    "machack replay": ["replay"],
    "machack bench": ["bench"],
    "machack bench-engines": ["bench-engines", "--engine", "python"],
    "machack web": ["web"],
}
# The values that work (a limit that is no limit, a word of all ones, a fast line); every
# other value of the sweep is refused.  machack's commands are tried only with refusals:
# a step larger than the games (--every, --agreement-every) is taken and would boot.
WORKS = {
    ("--max-seconds", "inf"), ("--max-seconds", HUGE), ("--max-seconds", "1e308"),
    ("--grace", "inf"), ("--grace", HUGE), ("--grace", "1e308"),
    ("--continue-halts", HUGE), ("--baud", HUGE), ("--switches", "-1"),
}  # fmt: skip
BOOTING = {"--every": HUGE, "--agreement-every": HUGE}


def _is_numeric(param: click.Parameter) -> bool:
    if isinstance(param.type, (click.types.IntParamType, click.types.FloatParamType)):
        return True
    return isinstance(param, click.Option) and bool(set(param.opts) & TEXT_NUMBERS)


def _numeric_params() -> list[tuple[str, click.Command, click.Parameter]]:
    found = []

    def walk(command: click.Command, path: str) -> None:
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                walk(sub, f"{path} {name}")
            return
        for param in command.params:
            if not getattr(param, "is_flag", False) and _is_numeric(param):
                found.append((path, command, param))

    for name, group in (("pdp6", pdp6_main), ("midas", midas_main), ("machack", machack_main)):
        walk(group, name)
    return found


def _cases() -> list:
    cases = []
    for path, _command, param in _numeric_params():
        name = max(param.opts, key=len) if isinstance(param, click.Option) else param.name
        for value in VALUES:
            machack = path.startswith("machack")
            works = (name, value) in WORKS
            if machack and (works or BOOTING.get(name) == value):
                continue
            cases.append(pytest.param(path, param, name, value, works, id=f"{path} {name}={value}"))
    return cases


def test_the_sweep_finds_the_options() -> None:
    names = {(path, max(p.opts, key=len)) for path, _c, p in _numeric_params()}
    for expected in [
        ("pdp6 run", "--max-seconds"), ("pdp6 run", "--grace"), ("pdp6 run", "--core"),
        ("pdp6 console", "--start"), ("pdp6 bench", "--rounds"),
        ("midas assemble", "--loader-device"), ("midas bench", "--lines"),
        ("machack play", "--depth"), ("machack match", "--movetime"),
        ("machack perft", "depth"),
    ]:  # fmt: skip
        assert expected in names


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A program that halts at once, its source, and a binary to write."""
    d = tmp_path_factory.mktemp("numbers")
    source = d / "halt.mid"
    source.write_text("START:\tJRST 4,.+1\n\tJRST .\nEND START\n")
    result = CliRunner().invoke(midas_main, [str(source), "-o", str(d / "halt.bin")])
    assert result.exit_code == 0, result.output
    return {"HALT": str(d / "halt.bin"), "SOURCE": str(source), "OUT": str(d / "out.bin")}


@pytest.mark.parametrize(("path", "param", "name", "value", "works"), _cases())
def test_a_numeric_option_works_or_is_refused(
    files: dict[str, str], path: str, param: click.Parameter, name: str, value: str,
    works: bool,
) -> None:  # fmt: skip
    program, _sub = path.split(" ", 1)
    group = {"pdp6": pdp6_main, "midas": midas_main, "machack": machack_main}[program]
    base = [arg.format(**files) for arg in BASES[path]]
    given = [value] if isinstance(param, click.Argument) else [f"{name}={value}"]
    result = CliRunner().invoke(group, [*base, *given], input="")
    output = result.output  # (standard output and error, as a terminal shows them)
    assert "Traceback" not in output
    assert result.exception is None or isinstance(result.exception, SystemExit), output
    if works:
        assert result.exit_code == 0, output
    else:
        label = name.upper() if isinstance(param, click.Argument) else name
        assert result.exit_code == 2, output
        assert "Error: Invalid value for " in output and f"'{label}'" in output, output


# --- standard output that cannot be written ------------------------------------------------
def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["PDP6_NOJIT"] = "1"
    return env


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    ("program", "args", "stdin"),
    [
        ("midas", ["{SOURCE}", "--dump"], ""),
        ("midas", ["--help"], ""),
        ("pdp6", ["disasm", "{HALT}"], ""),
        ("pdp6", ["run", "{ECHO}", "--baud", "fast"], "HELLO\n"),
        ("pdp6", ["console", "{HALT}"], "examine 100\n"),
        ("machack", ["--help"], ""),
        ("machack", ["perft", "startpos", "1"], ""),
    ],
    ids=[
        "midas --dump",
        "midas --help",
        "pdp6 disasm",
        "pdp6 run",
        "pdp6 console",
        "machack --help",
        "machack perft",
    ],  # fmt: skip
)
def test_a_full_standard_output_is_one_line(
    files: dict[str, str], tmp_path: Path, program: str, args: list[str], stdin: str
) -> None:
    echo = tmp_path / "echo.bin"
    done = subprocess.run(
        [sys.executable, "-m", "midas", str(ROOT / "examples" / "echo.mid"), "-o", str(echo)],
        env=_env(), capture_output=True, timeout=60, check=True,
    )  # fmt: skip
    module = {"pdp6": "pdp6.host.cli", "midas": "midas", "machack": "machack"}[program]
    argv = [arg.format(ECHO=str(echo), **files) for arg in args]
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", module, *argv], input=stdin.encode(), stdout=full,
            stderr=subprocess.PIPE, env=_env(), timeout=60, check=False,
        )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.decode() == (
        f"{program}: cannot write standard output: No space left on device\n"
    )
