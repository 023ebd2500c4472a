"""The options the ``pdp6`` commands share, each group reaching a command as one object.

Every command that builds a machine (run, console, debug) takes the machine options:
teletype speed and printing, the execute loop, core size, the data switches.  Run and
console, which take a binary, also take the program options: where to start, how many
halts to go on past, whether to load blocks whose checksum disagrees.  All three take the
display options (the Type 340 in a window or as pictures).  These are what
running DEC's diagnostics and the binaries from the ITS archives needs (see
``docs/period-software.md``).  Collected into :class:`MachineSettings` and
:class:`ProgramSettings`, a new option is one field, not another argument threaded
through every helper.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from ..memory import ADDRESS_SPACE

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


@dataclass(frozen=True)
class MachineSettings:
    """The machine a command builds: ``baud`` None is the fast teletype; ``core`` in words."""

    baud: int | None
    pace: bool
    lowercase: bool
    engine: str | None
    core: int
    switches: int

    @property
    def pace_cps(self) -> float | None:
        """Characters a second to print at on the host (--pace), or None: flat out."""
        return self.baud / 11 if self.pace and self.baud else None


@dataclass(frozen=True)
class ProgramSettings:
    """How the binary a command loads is loaded and run."""

    start: str | None  # an address expression, read once the program's symbols are known
    continue_halts: int
    ignore_checksum: bool
    repair_checksums: bool
    deposits: tuple[tuple[int, int], ...]  # (address, word), stored after loading


@dataclass(frozen=True)
class DisplaySettings:
    """Whether to attach the Type 340, and where its picture goes."""

    display: bool  # a live window
    display_png: Path | None
    display_gif: Path | None

    @property
    def wanted(self) -> bool:
        return self.display or self.display_png is not None or self.display_gif is not None


class Seconds(click.FloatRange):
    """A number of seconds in a range, as ``click.FloatRange``, that also refuses ``nan``
    (which no comparison with the bounds excludes).  ``inf`` passes where the range lets
    it: no limit."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        seconds = super().convert(value, param, ctx)
        if math.isnan(seconds):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        return seconds


def _baud(_ctx: click.Context, _param: click.Parameter, value: str) -> int | None:
    if value.lower() == "fast":
        return None
    if value.isascii() and value.isdigit() and int(value) > 0:
        return int(value)
    raise click.BadParameter(f"{value!r}: a line speed such as 110, or 'fast'")


def _core(_ctx: click.Context, _param: click.Parameter, value: str) -> int:
    m = re.fullmatch(r"([0-9]+)[kK]", value)
    if m and 1 <= int(m.group(1)) <= ADDRESS_SPACE // 1024:
        return int(m.group(1)) * 1024
    raise click.BadParameter(f"{value!r}: a core size from 1K to 256K words, such as 32K")


def _switches(_ctx: click.Context, _param: click.Parameter, value: str) -> int:
    from .typein import TypeinError, parse_word

    try:
        return parse_word(value)
    except TypeinError as exc:
        raise click.BadParameter(f"{value!r}: {exc}") from None


def _deposits(
    _ctx: click.Context, _param: click.Parameter, values: tuple[str, ...]
) -> tuple[tuple[int, int], ...]:
    """Each ``ADDR=WORD``: an octal address below 256K and a word (octal, or L,,R)."""
    from .typein import TypeinError, parse_word

    deposits = []
    for value in values:
        addr, equals, word = value.partition("=")
        addr = addr.strip()
        if not equals or not addr or any(c not in "01234567" for c in addr):
            raise click.BadParameter(f"{value!r}: ADDR=WORD, the address octal (e.g. "
                                     "11475=200140011666)")  # fmt: skip
        if int(addr, 8) >= ADDRESS_SPACE:
            raise click.BadParameter(f"{value!r}: {addr} is beyond the 256K address space")
        try:
            deposits.append((int(addr, 8), parse_word(word)))
        except TypeinError as exc:
            raise click.BadParameter(f"{value!r}: {exc}") from None
    return tuple(deposits)


def _grouped(settings: type, name: str, options: list[Decorator]) -> Decorator:
    """A decorator adding ``options`` to a command, whose function then receives them as
    one ``settings`` object in the argument ``name`` (the fields are the option names)."""

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(func)
        def command(**kwargs: Any) -> Any:
            values = {f.name: kwargs.pop(f.name) for f in dataclasses.fields(settings)}
            return func(**kwargs, **{name: settings(**values)})

        decorated: Callable[..., Any] = command
        for option in reversed(options):
            decorated = option(decorated)
        return decorated

    return decorate


machine_options = _grouped(MachineSettings, "machine", [
    click.option("--baud", default="110", show_default=True, metavar="BAUD|fast",
                 callback=_baud,
                 help="Teletype line speed in emulated time (110 = 10 characters a "
                 "second); 'fast' sends a character in 10 us."),
    click.option("--pace", is_flag=True,
                 help="Print teletype output at the real speed of a Model 35 on the host."),
    click.option("--lowercase", is_flag=True,
                 help="Pass lower-case keys through (a Model 35 types only upper case)."),
    click.option("--engine", type=click.Choice(["compiled", "native", "python", "interpreter"]),
                 default=None,
                 help="Execute loop: compiled (numba, the default when installed), native "
                 "(hot PDP-6 code as machine code through LLVM), python (PDP-6 code "
                 "translated to Python), interpreter (plain Python, one instruction at a "
                 "time)."),
    click.option("--core", default="256K", show_default=True, metavar="SIZE", callback=_core,
                 help="Core memory, 1K to 256K words (DEC's diagnostics were run with 32K); "
                 "references beyond it are to non-existent memory (they read 0 and set the "
                 "NXM flag), which several diagnostics provoke to size core."),
    click.option("--switches", default="0", metavar="WORD", callback=_switches,
                 help="The console data switches, which DATAI APR, reads: octal, or L,,R "
                 "halves (e.g. 777777000000).  The console's 'set switches' changes them."),
])  # fmt: skip

program_options = _grouped(ProgramSettings, "program", [
    click.option("--start", metavar="ADDRESS",
                 help="Start here instead of at the binary's start address: octal, or a "
                 "symbol expression (e.g. 100, GO+2)."),
    click.option("--continue-halts", default=0, type=click.IntRange(0), metavar="N",
                 help="Go on past the first N halts, as the operator pressing CONTINUE, "
                 "printing the address of each (each part of a DEC diagnostic halts once a pass)."),
    click.option("--ignore-checksum", is_flag=True,
                 help="Load SBLK blocks whose checksum disagrees, with a warning for each, "
                 "instead of refusing the file (to repair a word in the console)."),
    click.option("--repair-checksums", is_flag=True,
                 help="Repair each data block whose checksum disagrees when one word of it "
                 "explains the checksum best: the word whose implied value (the one that "
                 "makes the checksum agree) is fewest bits from the file's, if no other "
                 "ties with it; each repair is told.  A block no one word explains is "
                 "refused (or, with --ignore-checksum, loaded as it is)."),
    click.option("--deposit", "deposits", multiple=True, metavar="ADDR=WORD",
                 callback=_deposits,
                 help="Store WORD at ADDR after loading, before the start (repeatable): "
                 "both octal, the word as L,,R halves too, e.g. 11475=200140,,011666."),
])  # fmt: skip

display_options = _grouped(DisplaySettings, "display", [
    click.option("--display", is_flag=True, help="Show the Type 340 display in a window."),
    click.option("--display-png", type=click.Path(dir_okay=False, path_type=Path),
                 help="Attach the 340 and save its screen at the end as this PNG."),
    click.option("--display-gif", type=click.Path(dir_okay=False, path_type=Path),
                 help="Attach the 340 and save what it drew as this animated GIF."),
])  # fmt: skip
