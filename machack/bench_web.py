"""``machack bench``'s figures for ``machack web``: the first picture, and what drawing
the 340 in a browser costs the emulation.

* **first picture**: a page loaded in headless Chromium (Debian's, through Selenium),
  on a warm machine (the compiled engine cached, the program assembled), until its
  canvas first shows the 340's points: the time from the start of the page's load
  (``performance.now()``), over several tabs opened one after another.
* **emulation speed**: the same search as the display-cost table (1967 game 3 before
  13. B-KR4, depth 3), as PDP-6 instructions a wall second while the machine thinks:
  with no 340, with a 340 that nobody watches (``machack play``), and in ``machack
  web`` with the page open, its canvas drawn at 60 frames a second.  Instructions a
  second rather than the search's wall time, since the web machine has waited at its
  prompts in real time and so holds other clock values.

These need the web extra and a Chromium; without them the table says why.
"""

from __future__ import annotations

import shutil
import statistics
import time
from collections.abc import Callable
from typing import TypeVar

from .display import GAME3_TO_13
from .session import Session

TABS = 5  # pages opened for the first-picture figure
DEPTH = 3


def _rate(session: Session, with_340: bool) -> float:
    """Instructions a wall second of GO in game 3 before 13. B-KR4 (a booted program)."""
    from .display import Screen

    if with_340:
        Screen(session)
    session.command(f"DEPTH {DEPTH}")
    session.command("PN")
    for move in GAME3_TO_13:
        session.command(move)
    reply = session.command("GO")
    return reply.instructions / reply.wall_s


def _chromium() -> object:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                "--window-size=1600,1000"):  # fmt: skip
        options.add_argument(arg)
    options.binary_location = str(shutil.which("chromium") or shutil.which("chromium-browser"))
    return webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))


_T = TypeVar("_T")


def _wait(what: Callable[[], _T], seconds: float = 120.0) -> _T:
    end = time.monotonic() + seconds
    while not (value := what()):
        if time.monotonic() > end:
            raise TimeoutError("the page did not answer")
        time.sleep(0.005)
    return value


def web_lines() -> list[str]:
    """The table (or one line saying why there is none)."""
    try:
        from pdp6.host.web.server import Server, serving

        from .web import MacHackConsole, console_maker
    except ImportError as exc:
        return [f"(no web figures: {exc}; pip install -e '.[web]')"]
    if not shutil.which("chromedriver"):
        return ["(no web figures: no chromedriver; Debian: apt-get install chromium-driver)"]
    server = Server(console_maker("none", DEPTH, None), MacHackConsole.title)
    bare, unwatched = _rate(Session(), False), _rate(Session(), True)
    driver = _chromium()
    try:
        with serving(server) as url:
            firsts = []
            for _ in range(TABS):
                driver.get(url)  # type: ignore[attr-defined]
                firsts.append(float(_wait(lambda: driver.execute_script(  # type: ignore[attr-defined]
                    "return window.pdp6web.firstPictureMs"))))  # fmt: skip
            console = _wait(lambda: len(server.consoles) == 1 and next(iter(server.consoles)))
            assert isinstance(console, MacHackConsole)
            session = _wait(lambda: console.at_prompt and console.session)
            assert isinstance(session, Session)
            for move in GAME3_TO_13:
                console.keys(move + "\r")
                time.sleep(0.05)
                _wait(lambda: console.at_prompt and not console.host.keys)
            i0, t0 = session.machine.instructions, time.perf_counter()
            console.keys("GO\r")
            _wait(lambda: "\n13. " in driver.execute_script(  # type: ignore[attr-defined]
                "return window.pdp6web.printed"))  # fmt: skip
            _wait(lambda: console.at_prompt)
            watched = (session.machine.instructions - i0) / (time.perf_counter() - t0)
            frames = driver.execute_script("return window.pdp6web.frames")  # type: ignore[attr-defined]
    finally:
        driver.quit()  # type: ignore[attr-defined]
    return [
        f"first picture of a page (headless Chromium, {TABS} tabs one after another): "
        f"median {statistics.median(firsts):.0f} ms, longest {max(firsts):.0f} ms "
        "from the start of the page's load",
        f"{'search, depth ' + str(DEPTH) + ' (game 3 before 13. B-KR4)':<44} "
        f"{'instructions/wall s':>20} {'slower':>7}",
        f"{'no 340':<44} {bare:>20,.0f}",
        f"{'a 340, nobody watching (machack play)':<44} {unwatched:>20,.0f} "
        f"{bare / unwatched:>6.2f}x",
        f"{'machack web, the page drawing (' + str(frames) + ' frames)':<44} {watched:>20,.0f} "
        f"{bare / watched:>6.2f}x",
    ]
