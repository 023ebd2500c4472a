"""What ``pdp6 web`` and ``machack web`` share on the command line: start the server,
say where it is, and say why not in one line when it cannot start."""

from __future__ import annotations

from collections.abc import Callable

import click

from .console import Console, Send


def serve_consoles(make: Callable[[Send], Console], title: str, host: str, port: int) -> None:
    """Serve the page, a machine from ``make`` in each tab, until Ctrl-C."""
    try:
        from .server import Server, serve
    except ImportError as exc:
        raise click.ClickException(
            f"the web page needs aiohttp ({exc}): pip install 'pdp6-machack[web]'"
        ) from None

    def listening(url: str) -> None:
        click.echo(f"{title}: {url}  (open it in a browser: each tab is a machine of its "
                   "own; Ctrl-C here ends the server)")  # fmt: skip

    try:
        serve(Server(make, title), host, port, listening)
    except OSError as exc:
        why = exc.strerror or exc
        raise click.ClickException(f"cannot listen on {host}:{port}: {why}") from None
