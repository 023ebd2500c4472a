"""``machack web`` as a person uses it: a real browser (headless Chromium) on the page.

The server runs in this process (pdp6.host.web.server.serving), so a test can look at the
machine behind a tab: the canvas is compared pixel for pixel with what pdp6.host.render's
PNG renderer draws of the same points of the same 340, at the same emulated time.  The
websocket is also fed what no page sends, and closed while the machine thinks.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import (
    assert_same_picture,
    canvas_against_renderer,
    canvas_pixels,
    chromium,
    need_browser,
    printed,
    unfreeze,
    wait_for,
)

pytest.importorskip("aiohttp", reason="the web extra is not installed: pip install -e '.[web]'")

from machack.web import MacHackConsole, console_maker  # noqa: E402
from pdp6.host.web.server import MAX_MESSAGE, Server, serving  # noqa: E402

BOARD_ROWS = slice(190, 610)  # the canvas rows of the board (the clocks are above, below)
REPLY = re.compile(r"P-K4\s*\n_\s*\n1\. \.\.\. (\S+)")


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[Server, str]]:
    need_browser()
    server = Server(console_maker("black", 4, None), MacHackConsole.title)
    with serving(server) as url:
        yield server, url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as driver:
        yield driver


def only_console(server: Server) -> MacHackConsole:
    console = wait_for(lambda: len(server.consoles) == 1 and next(iter(server.consoles)),
                       why="one machine for the one tab")  # fmt: skip
    assert isinstance(console, MacHackConsole)
    return console


def console_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "pdp6-web-console"]


def others(server: Server) -> tuple[set[MacHackConsole], int]:
    """The machines (and their threads) there before a test opens its own socket."""
    return set(server.consoles), len(console_threads())  # type: ignore[arg-type]


def ended_with_its_socket(server: Server, before: tuple[set[MacHackConsole], int]) -> None:
    """The machine of the test's socket, and its thread, are gone."""
    consoles, threads = before
    wait_for(lambda: server.consoles <= consoles and len(console_threads()) <= threads,
             seconds=10, why="the machine ended with its socket")  # fmt: skip


def new_tab(driver: Any, server: Server, url: str) -> MacHackConsole:
    """The page loaded afresh (a new machine: the last one ends) and at its prompt."""
    driver.get("about:blank")
    wait_for(lambda: not server.consoles, why="the last page's machine ends")
    driver.get(url)
    wait_for(lambda: printed(driver).endswith("*"), why="the program's prompt")
    return only_console(server)


def type_on_paper(driver: Any, text: str) -> None:
    from selenium.webdriver.common.by import By

    driver.find_element(By.ID, "paper").send_keys(text)


def test_the_page_plays_and_its_canvas_is_the_png_renderers_picture(server, browser) -> None:
    """Type P-K4 on the paper: the program echoes it, acknowledges with `_` and answers;
    the board on the canvas changes, and the canvas is render()'s picture of the 340's
    points exactly."""
    srv, url = server
    console = new_tab(browser, srv, url)
    wait_for(lambda: browser.execute_script("return window.pdp6web.firstPictureMs"),
             why="a first picture on the canvas")  # fmt: skip
    time.sleep(0.3)  # (a whole refresh of the first position)
    before, _ = canvas_pixels(browser)
    unfreeze(browser)
    type_on_paper(browser, "p-k4\n")  # (lower case is typed as upper case, as at the tty)
    reply = wait_for(lambda: REPLY.search(printed(browser)), why="`_` and the machine's reply")
    assert reply.group(1) in ("P-K4", "P-QB4", "P-K3", "N-KB3")

    def moved() -> tuple[Any, Any] | None:
        after, expected = canvas_against_renderer(browser, console)
        changed = (before[BOARD_ROWS] != after[BOARD_ROWS]).any(axis=2).sum()
        return (after, expected) if changed > 200 else None

    # (the new position's lists drawn for a while: under load the page's frames come
    # a few a second)
    after, expected = wait_for(moved, why="the board changed on the canvas")
    assert_same_picture(after, expected)


def test_bell_stops_the_machine_thinking(server, browser) -> None:
    """BELL (the button, then Ctrl-C on the paper) while the machine thinks: QUIT."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    srv, url = server
    new_tab(browser, srv, url)
    type_on_paper(browser, "BOOK OFF\nDEPTH 9\nP-Q4\n")
    wait_for(lambda: printed(browser).rstrip().endswith("P-Q4\n_"), why="P-Q4 taken")
    time.sleep(0.3)
    assert "QUIT" not in printed(browser)
    browser.find_element(By.ID, "bell").click()
    wait_for(lambda: "QUIT" in printed(browser), why="QUIT after BELL")
    wait_for(lambda: printed(browser).endswith("*"), why="the prompt after QUIT")
    assert "MACHINE STOPPED PLAYING" in printed(browser)
    type_on_paper(browser, "PB\n")  # it plays again: thinks about its move
    time.sleep(0.5)
    type_on_paper(browser, Keys.CONTROL + "c")
    wait_for(lambda: printed(browser).count("QUIT") == 2, why="QUIT after Ctrl-C")


async def _talk(url: str, sends: list[Any], wait_s: float = 3.0) -> list[Any]:
    """Open the websocket, send each of ``sends`` (str, bytes or a close), and gather
    what comes back for ``wait_s``."""
    import aiohttp

    got: list[Any] = []
    async with aiohttp.ClientSession() as http, http.ws_connect(url + "ws") as ws:
        for item in sends:
            if isinstance(item, bytes):
                await ws.send_bytes(item)
            else:
                await ws.send_str(item)
        end = time.monotonic() + wait_s
        while time.monotonic() < end:
            try:
                message = await ws.receive(timeout=end - time.monotonic())
            except TimeoutError:
                break
            if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                got.append(("closed", ws.close_code))
                break
            if message.type == aiohttp.WSMsgType.TEXT:
                got.append(message.json())
    return got


def test_bad_input_gets_a_message_and_the_machine_goes_on(server, capfd) -> None:
    """Garbage, binary frames, messages no page sends and too many keys each get an
    `error` message; the machine still answers a move after them; nothing is logged."""
    srv, url = server
    too_many = '{"type": "keys", "text": "' + "A" * 9000 + '"}'
    bad = ["not json", '"a string"', "[1, 2]", '{"type": "keys", "text": 7}',
           '{"type": "launch"}', b"\x00\xff binary", too_many, '{"type": "took", "ms": -1}',
           '{"type": "took", "ms": "fast"}', '{"type": "took", "ms": 1e99}']  # fmt: skip
    before = others(srv)
    got = asyncio.run(_talk(url, [*bad, '{"type": "keys", "text": "P-K4\\r"}'], wait_s=4.0))
    errors = [m["message"] for m in got if isinstance(m, dict) and m["type"] == "error"]
    assert len(errors) == len(bad), errors
    assert any("keys refused" in e for e in errors)
    text = "".join(m["text"] for m in got if isinstance(m, dict) and m["type"] == "print")
    assert REPLY.search(text), text
    ended_with_its_socket(srv, before)
    assert "Traceback" not in capfd.readouterr().err


def test_a_huge_message_closes_the_socket_cleanly(server, capfd) -> None:
    srv, url = server
    before = others(srv)
    got = asyncio.run(_talk(url, ['{"type": "keys", "text": "' + "A" * MAX_MESSAGE + '"}']))
    assert ("closed", 1009) in got, got
    ended_with_its_socket(srv, before)
    assert "Traceback" not in capfd.readouterr().err


def test_closing_the_socket_mid_move_ends_the_machine(server, capfd) -> None:
    srv, url = server
    before = others(srv)
    keys = '{"type": "keys", "text": "BOOK OFF\\rDEPTH 9\\rP-K4\\r"}'
    asyncio.run(_talk(url, [keys], wait_s=2.0))  # (closed while it thinks)
    ended_with_its_socket(srv, before)
    assert "Traceback" not in capfd.readouterr().err


def rss_mb() -> float:
    """This process's resident memory (the server and its machines are in it)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def own_threads() -> int:
    """Threads but the event loop's executor's (a pool of at most a few, which ends a
    closed page's machine: they wait there for the next)."""
    return sum(not t.name.startswith("ThreadPoolExecutor") for t in threading.enumerate())


def children() -> list[int]:
    """The processes this one has started (and not yet reaped)."""
    me = str(os.getpid())
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            if stat.read_text().rsplit(")", 1)[1].split()[1] == me:
                found.append(int(stat.parent.name))
    return found


@pytest.mark.slow
def test_fifty_tabs_opened_and_closed_leave_nothing_behind(server, browser) -> None:
    """Fifty tabs in a row, each a new machine playing a move, each closed: afterwards
    no machine, no thread, no process and (within a few machines' worth) no memory is
    left of them."""
    srv, url = server
    new_tab(browser, srv, url)
    browser.get("about:blank")
    wait_for(lambda: not srv.consoles and not console_threads(), why="a clean start")
    gc.collect()
    rss0, threads0, children0 = rss_mb(), own_threads(), children()
    first = browser.current_window_handle
    for _ in range(50):
        browser.switch_to.new_window("tab")
        browser.get(url)
        wait_for(lambda: printed(browser).endswith("*"), why="the program's prompt")
        type_on_paper(browser, "P-K4\n")
        wait_for(lambda: REPLY.search(printed(browser)), why="the machine's reply")
        browser.close()
        browser.switch_to.window(first)
    wait_for(lambda: not srv.consoles and not console_threads(), why="every machine ended")
    gc.collect()
    grown = rss_mb() - rss0
    print(f"50 tabs: memory {rss0:.0f} MB before, {rss0 + grown:.0f} MB after")
    assert own_threads() <= threads0, threading.enumerate()
    assert children() == children0
    assert grown < 100, f"{grown:.0f} MB more after 50 tabs"


def test_the_command_prints_its_address_serves_the_page_and_ends_on_ctrl_c() -> None:
    """``machack web --port 0``: the address on its first line, the page there, only
    127.0.0.1; SIGINT ends it at once with status 0 and no traceback."""
    import subprocess
    import sys
    import urllib.request

    command = [str(Path(sys.executable).parent / "machack"), "web", "--port", "0"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert url, line
        with urllib.request.urlopen(url.group(0), timeout=10) as page:
            assert b"<canvas" in page.read()
        server.send_signal(2)
        _, err = server.communicate(timeout=30)
        assert server.returncode == 0 and "Traceback" not in err, err
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
