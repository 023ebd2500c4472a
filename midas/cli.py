"""The ``midas`` command.

``midas SOURCE.mid [options]`` assembles (the ``assemble`` subcommand is implied);
``midas bench`` measures the assembler's speed.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import click

from pdp6.formats.hostfiles import standard_output
from pdp6.formats.wordfile import encode_words

from . import assemble_file
from .bench import run_benchmark
from .linemap import line_map_json
from .listing import dump_text, listing_text
from .program import Program
from .rim import rim10_words, rim_words
from .sblk import PTR, assembly_info, sblk_words

_SUFFIXES = {"sblk": ".bin", "rim": ".rim", "rim10": ".rim10"}


class _DefaultToAssemble(click.Group):
    """A group whose first argument, unless it names a subcommand, is a source file."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands
                        and args[0] not in ("--help", "-h", "--version")):  # fmt: skip
            args = ["assemble", *args]
        return super().parse_args(ctx, args)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        # Standard output (--dump, --help) flushed and guarded: a full device is one line.
        with standard_output("midas"):
            return super().main(*args, **kwargs)


@click.group(cls=_DefaultToAssemble, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pdp6-machack")
def main() -> None:
    """MIDAS assembler for the PDP-6.

    \b
      midas SOURCE.mid -o OUT.bin            SBLK binary (the default format)
      midas SOURCE.mid --format rim -o OUT.rim
      midas SOURCE.mid --listing OUT.lst
      midas SOURCE.mid --dump                words on stdout: AAAAAA/ WWWWWWWWWWWW
      midas bench                            assembler speed in lines per second

    See `midas assemble --help` for all options.
    """


_SYMBOL = re.compile(r"[A-Z0-9.$%]*[A-Z.$%][A-Z0-9.$%]*")


def _defines(
    _ctx: click.Context, _param: click.Parameter, values: tuple[str, ...]
) -> dict[str, int]:
    """Each ``SYM=VALUE`` of --define, read (a usage error naming the one that is wrong)."""
    from pdp6.host.typein import TypeinError, parse_word

    defines = {}
    for value in values:
        name, equals, text = value.partition("=")
        name = name.strip().upper()
        if not equals or not _SYMBOL.fullmatch(name):
            raise click.BadParameter(f"{value!r}: SYM=VALUE, SYM a MIDAS symbol (letters, "
                                     "digits, '.', '$' and '%'; e.g. BKBEG=20000)")  # fmt: skip
        try:
            defines[name[:6]] = parse_word(text)  # (MIDAS reads six characters of a name)
        except TypeinError as exc:
            raise click.BadParameter(f"{value!r}: {exc}") from None
    return defines


@main.command()
@click.argument("source", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Binary file to write (default: SOURCE with .bin, .rim or .rim10; without -o, "
    "--listing, --map and --dump write no binary).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["sblk", "rim", "rim10"]),
    help="Binary format (default: as the source selects with SBLK/RIM/RIM10, else sblk).",
)
@click.option(
    "--listing",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write a listing: location, word, source line; then the symbols.",
)
@click.option("--dump", is_flag=True, help="Print every word, by address, on stdout.")
@click.option(
    "--map",
    "map_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the source-line map here (default: beside the binary, .map).",
)
@click.option("--no-map", is_flag=True, help="Do not write a line map beside the binary.")
@click.option(
    "--old",
    "old",
    is_flag=True,
    help="1960s dialect: a '[' left open closes at the end of its line; 8 and 9 pass "
    "in octal numbers; constants areas are sized as MIDAS 73 sized them.",
)
@click.option(
    "--define",
    "defines",
    multiple=True,
    metavar="SYM=VALUE",
    callback=_defines,
    help="Define SYM as SYM=VALUE would before the first line (repeatable): the symbols a "
    "linker supplied to a program that uses other programs' globals (WAR 44's BKBEG, "
    "BKEND, SIN, COS, SQRT).  VALUE is octal, or decimal with a point (10.), or L,,R.",
)
@click.option(
    "--loader-device",
    default=f"{PTR:o}",
    show_default=True,
    metavar="OCTAL",
    help="Device code of the SBLK loader and RIM pairs (MIDAS 324 used 100).",
)
@click.option(
    "--info",
    is_flag=True,
    help="Add the assembly-information block (user, date, file names) to SBLK.",
)
def assemble(
    source: Path,
    output: Path | None,
    fmt: str | None,
    listing: Path | None,
    dump: bool,
    map_path: Path | None,
    no_map: bool,
    old: bool,
    defines: dict[str, int],
    loader_device: str,
    info: bool,
) -> None:
    """Assemble SOURCE (MIDAS source) into a PDP-6 binary.

    \b
    Examples:
      midas echo.mid                      writes echo.bin and echo.map
      midas echo.mid --format rim -o echo.rim
      midas --old its138.mid -o its.bin   a 1960s source
      midas --old war.44 --define BKBEG=20000 --define BKEND=20777 ...
    """
    try:
        device = int(loader_device, 8)
    except ValueError:
        device = -1
    if not (0 <= device <= 0o774 and device % 4 == 0):
        raise click.BadParameter(
            f"{loader_device!r}: an octal device code from 0 to 774, a multiple of 4 (e.g. 104)",
            param_hint="'--loader-device'",
        )
    try:
        program = assemble_file(source, old=old, defines=defines)
    except OSError as exc:
        click.echo(f"midas: cannot read {source}: {exc.strerror}", err=True)
        sys.exit(1)
    for text in program.printed:
        click.echo(text, err=True)
    for problem in program.errors + program.warnings:
        click.echo(str(problem), err=True)
    if program.errors:
        n = len(program.errors)
        click.echo(f"midas: {n} error{'s' * (n != 1)}; no output written", err=True)
        sys.exit(1)
    outputs = _outputs(
        program, source, output, fmt, listing, dump, map_path, no_map, device,
        assembly_info(source) if info else None,
    )  # fmt: skip
    _refuse_sources(outputs, program)
    _write_all(outputs)
    if dump:
        click.echo(dump_text(program), nl=False)


def _outputs(
    program: Program,
    source: Path,
    output: Path | None,
    fmt: str | None,
    listing: Path | None,
    dump: bool,
    map_path: Path | None,
    no_map: bool,
    device: int,
    info: list[int] | None,
) -> dict[Path, bytes]:
    """Every file to write, with its contents."""
    fmt = fmt or program.output_format
    files: dict[Path, bytes] = {}
    if output is None and not (dump or listing or map_path):
        output = source.with_suffix(_SUFFIXES[fmt])
    if output is not None:
        if fmt == "rim":
            words = rim_words(program, device)
        elif fmt == "rim10":
            words = rim10_words(program, device)
        else:
            words = sblk_words(program, device, info=info)
        files[output] = encode_words(words)
        if not no_map and map_path is None:
            map_path = output.with_suffix(".map")
    if map_path is not None:
        files[map_path] = line_map_json(program).encode()
    if listing is not None:
        files[listing] = listing_text(program).encode()
    return files


def _refuse_sources(files: dict[Path, bytes], program: Program) -> None:
    """An output that is one of the assembly's own source files is refused (a slip of
    -o or --map would replace the program with its binary)."""
    sources = [Path(name) for name in program.sources]
    for path in files:
        if path.exists() and any(s.exists() and path.samefile(s) for s in sources):
            click.echo(f"midas: will not write {path}: it is a source file of this assembly; "
                       "name another file (no output written)", err=True)  # fmt: skip
            sys.exit(1)


def _write_all(files: dict[Path, bytes]) -> None:
    """Write every file, or none: each goes to a temporary file renamed at the end.  A
    link is written through (the file it names is replaced), and a device or a pipe is
    written into directly, last."""
    temps: list[tuple[str, Path]] = []
    direct: list[tuple[Path, bytes]] = []
    umask = os.umask(0)
    os.umask(umask)
    path = Path()
    try:
        for path, data in files.items():
            target = Path(os.path.realpath(path))
            if target.exists() and not target.is_file():
                direct.append((path, data))
                continue
            fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
            temps.append((temp, target))
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.chmod(temp, 0o666 & ~umask)
        for temp, target in temps:
            os.replace(temp, target)
        for path, data in direct:
            with path.open("wb") as f:
                f.write(data)
    except OSError as exc:
        for temp, _target in temps:
            if os.path.exists(temp):
                os.unlink(temp)
        click.echo(f"midas: cannot write {path}: {exc.strerror}", err=True)
        sys.exit(1)


@main.command()
@click.option("--lines", default=20000, show_default=True, type=click.IntRange(1, 1_000_000),
              help="Approximate source lines.")  # fmt: skip
@click.option("--repeat", default=3, show_default=True, type=click.IntRange(1, 100),
              help="Timed runs (the best counts).")  # fmt: skip
def bench(lines: int, repeat: int) -> None:
    """Assemble a generated source with macros and literals; print lines per second."""
    click.echo(run_benchmark(lines, repeat))
