"""The ``pdp6`` command."""

from __future__ import annotations

import click

from . import jit as jitmod
from .cpu import engines


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pdp6-machack")
def main() -> None:
    """A faithful DEC PDP-6 emulator.

    \b
    Examples:
      pdp6 bench                 time the instruction mix on every engine
      pdp6 bench --engine python time only the plain-Python engine
    """


@main.command()
@click.option(
    "--engine",
    type=click.Choice(["all", "compiled", "python"]),
    default="all",
    show_default=True,
    help="Which execute loop to time.",
)
@click.option(
    "--rounds",
    type=click.IntRange(1, 100_000),
    default=None,
    help="Rounds of the mix (default: 2000 compiled, 40 plain Python; ~10,700 "
    "instructions a round).",
)
def bench(engine: str, rounds: int | None) -> None:
    """Time a fixed program mix: arithmetic, bytes, stack calls, indirection, a sort.

    Prints, for each engine: instructions per wall second, emulated PDP-6 seconds per
    wall second, and the time of the first call: the numba compile "(compiled)", or
    loading the compiled code from its on-disk cache "(cached)".  To time a fresh
    compile, delete the cache first: find pdp6 -name '*.nb[ic]' -delete
    """
    from .bench import run_mix

    wanted = engines.ENGINES if engine == "all" else (engine,)
    if "compiled" in wanted and not jitmod.ENABLED:
        raise click.UsageError(
            "the compiled engine needs numba (pip install numba) and PDP6_NOJIT unset"
        )
    click.echo(f"{'engine':<10} {'instr/s':>14} {'PDP-6 s per wall s':>19} {'first call':>11}")
    for name in wanted:
        n = rounds or (2000 if name == "compiled" else 40)
        click.echo(f"running {name} engine, {n} rounds ...", err=True)
        r = run_mix(name, n)
        how = "" if name == "python" else (" (compiled)" if r.compiled_now else " (cached)")
        click.echo(
            f"{name:<10} {r.ips:>14,.0f} {r.speed_ratio:>19.1f} {r.first_call_s:>10.2f}s{how}"
        )
    click.echo("(a real PDP-6 ran about 200,000 instructions a second)")


if __name__ == "__main__":  # pragma: no cover
    main()
