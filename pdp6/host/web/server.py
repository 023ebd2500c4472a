"""The web server of ``pdp6 web`` and ``machack web``: one page, one websocket per tab.

aiohttp serves it: one well-kept library that is both the HTTP server and the websocket,
with no ASGI server beside it (see docs/web.md for the choice).  The server binds to
127.0.0.1 unless told otherwise and opens that one port.  The page is plain files
(``static/``): no build step, nothing fetched from elsewhere.

Each websocket gets its own :class:`pdp6.host.web.console.Console` (its own machine, in its
own thread); closing the tab closes the socket, which ends the console and its thread.
What the page sends is checked here: a message that is not what the page sends gets an
``error`` message back and changes nothing; one larger than :data:`MAX_MESSAGE` closes
the socket (1009, message too big).  A page from another origin may not open a socket
(any web site could otherwise play on a local server through its visitor's browser).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import threading
from collections.abc import Callable, Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSCloseCode, WSMsgType, web

from .console import Console, Send, phosphor_settings

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8340
MAX_MESSAGE = 64 * 1024  # bytes in one message from the page: a few thousand keys at most
HEARTBEAT_S = 10.0  # a page that answers no ping for this long is gone: its machine ends
MAX_CONSOLES = 32  # machines at once; a tab past that is told so and closed
STATIC = Path(str(files("pdp6.host.web") / "static"))

MakeConsole = Callable[[Send], Console]


class Server:
    """The page and the websocket; ``make_console`` gives each new tab its machine."""

    def __init__(self, make_console: MakeConsole, title: str) -> None:
        self.make_console = make_console
        self.title = title
        self.consoles: set[Console] = set()
        self.sockets: set[web.WebSocketResponse] = set()

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self.index)
        app.router.add_get("/ws", self.websocket)
        app.router.add_static("/static/", STATIC)
        app.on_shutdown.append(self._shutdown)
        return app

    async def index(self, _request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html")

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc != request.host:
            raise web.HTTPForbidden(text=f"websocket from another origin ({origin}) refused")
        # (no permessage-deflate: the points are most of what goes, and compressing them
        # took the server some 10 ms a frame, the page as long again to inflate them)
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=HEARTBEAT_S,
                                   compress=False)  # fmt: skip
        await ws.prepare(request)
        if len(self.consoles) >= MAX_CONSOLES:
            await ws.send_json({"type": "error", "message": f"{MAX_CONSOLES} machines are "
                                "running already: close a tab and reload this one"})  # fmt: skip
            await ws.close()
            return ws
        loop = asyncio.get_running_loop()
        outbox: asyncio.Queue[str | bytes | dict[str, Any] | None] = asyncio.Queue()

        def send(message: str | bytes | dict[str, Any]) -> None:
            with contextlib.suppress(RuntimeError):  # (the loop is closing: nobody listens)
                loop.call_soon_threadsafe(outbox.put_nowait, message)

        console = self.make_console(send)
        self.consoles.add(console)
        self.sockets.add(ws)
        await ws.send_json({"type": "hello", "title": self.title, "phosphor": phosphor_settings()})
        pump = asyncio.create_task(_pump(ws, outbox))
        console.start()
        try:
            async for message in ws:
                if message.type == WSMsgType.TEXT:
                    problem = take(console, message.data)
                else:
                    problem = "binary messages mean nothing to the server: send JSON text"
                if problem is not None:
                    await ws.send_json({"type": "error", "message": problem})
        finally:
            outbox.put_nowait(None)
            await loop.run_in_executor(None, console.close)
            self.consoles.discard(console)
            self.sockets.discard(ws)
            with contextlib.suppress(asyncio.CancelledError):
                await pump
        return ws

    async def _shutdown(self, _app: web.Application) -> None:
        """The server is stopping: close every page's socket, end every machine."""
        loop = asyncio.get_running_loop()
        for ws in list(self.sockets):
            await ws.close(code=WSCloseCode.GOING_AWAY, message=b"the server is stopping")
        await asyncio.gather(*(loop.run_in_executor(None, c.close) for c in list(self.consoles)))


async def _pump(ws: web.WebSocketResponse, outbox: asyncio.Queue[Any]) -> None:
    """Hand the console's messages to the page, in order, until None."""
    while (message := await outbox.get()) is not None:
        if ws.closed:
            continue
        try:
            if isinstance(message, bytes):
                await ws.send_bytes(message)
            elif isinstance(message, dict):
                await ws.send_json(message)
            else:
                await ws.send_str(message)
        except ConnectionError:
            pass  # (the page went away: the handler ends the console)


def take(console: Console, data: str) -> str | None:
    """Do what one message from the page asks; what is wrong with it, or None.

    The page sends ``{"type": "keys", "text": "..."}``, ``{"type": "bell"}`` and
    ``{"type": "took", "ms": ...}`` (it has drawn the last points, which took it ``ms``
    milliseconds: send the next)."""
    try:
        message = json.loads(data)
    except ValueError:
        return f"not JSON: {data[:40]!r}"
    kind = message.get("type") if isinstance(message, dict) else None
    if kind == "keys" and isinstance(message.get("text"), str):
        console.keys(message["text"])
    elif kind == "bell":
        console.bell()
    elif kind == "took" and _milliseconds(message.get("ms", 0)):
        console.took(float(message.get("ms", 0)))
    else:
        return f"not a message the page sends: {data[:60]!r}"
    return None


def _milliseconds(value: object) -> bool:
    """A time the page may report: a number of milliseconds, 0 to a minute."""
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 60_000


async def _start(server: Server, host: str, port: int) -> tuple[web.AppRunner, str]:
    runner = web.AppRunner(server.app(), access_log=None, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    address = runner.addresses[0]
    return runner, f"http://{address[0]}:{address[1]}/"


def serve(server: Server, host: str, port: int, say: Callable[[str], None]) -> None:
    """Serve until Ctrl-C, SIGTERM or SIGHUP, then close every page and end every
    machine; ``say`` gets the address once it is listening.  A port that cannot be had
    raises OSError before anything is said."""

    async def main() -> None:
        runner, url = await _start(server, host, port)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(sig, stop.set)
        say(url)
        try:
            await stop.wait()
        finally:
            await runner.cleanup()

    asyncio.run(main())


@contextlib.contextmanager
def serving(server: Server, host: str = DEFAULT_HOST, port: int = 0) -> Iterator[str]:
    """The server in a thread of this process, for tests and the benchmark: yields its
    address; stops it (and every machine) on the way out."""
    loop = asyncio.new_event_loop()
    started: dict[str, Any] = {}
    ready = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)
        try:
            started["runner"], started["url"] = loop.run_until_complete(_start(server, host, port))
        except OSError as exc:
            started["error"] = exc
        ready.set()
        if "error" not in started:
            loop.run_forever()

    thread = threading.Thread(target=run, name="pdp6-web-server", daemon=True)
    thread.start()
    ready.wait()
    if "error" in started:
        raise started["error"]
    try:
        yield started["url"]
    finally:
        asyncio.run_coroutine_threadsafe(started["runner"].cleanup(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(30)
        loop.close()
