"""``machack bench``'s figures for ``machack web``: the first picture, and what drawing
the 340 in a browser costs the emulation.

* **first picture**: a page loaded in headless Chromium (Debian's, through Selenium),
  on a warm machine (the compiled engine cached, the program assembled), until its
  canvas first shows the 340's points: the time from the start of the page's load
  (``performance.now()``), over several tabs opened one after another.
* **emulation speed**: the display-cost table's search (1967 game 3 before 13. B-KR4,
  depth 4), as PDP-6 instructions a wall second while the machine thinks: with no 340,
  with a 340 that nobody watches (``machack play``), and in ``machack web`` with the
  page open, its canvas drawn as the page draws it (the frames while the machine thinks
  kept within :data:`pdp6.host.web.console.FRAME_SHARE` of the wall time).  Instructions a
  second rather than the search's wall time, since the web machine has waited at its
  prompts in real time and so holds other clock values.  The three are measured in
  turn, :data:`ROUNDS` times (a new tab each time), and the table gives their medians
  and the median of each round's ratios: on a machine shared with other work, one
  round says little.  The web search is timed at the machine (from the key that starts
  it to the program back at its prompt), not through the browser.  With each, the host
  CPU it took a million instructions: the process's, and in ``machack web`` Chromium's
  too (its processes under this benchmark's chromedriver).

These need the web extra and a Chromium; without them the table says why.
"""

from __future__ import annotations

import os
import shutil
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from .display import GAME3_TO_13
from .session import Session

TABS = 5  # pages opened for the first-picture figure
DEPTH = 4  # (the display-cost table's)
ROUNDS = 5  # each search measured this many times, in turn


def _position(session: Session) -> None:
    session.command(f"DEPTH {DEPTH}")
    session.command("PN")
    for move in GAME3_TO_13:
        session.command(move)


def _search(with_340: bool) -> tuple[float, float]:
    """Instructions a wall second of GO in game 3 before 13. B-KR4 (a booted program),
    and the host CPU seconds a million instructions."""
    from .display import Screen

    session = Session()
    if with_340:
        Screen(session)
    _position(session)
    cpu = time.process_time()
    reply = session.command("GO")
    cpu = time.process_time() - cpu
    return reply.instructions / reply.wall_s, cpu / reply.instructions * 1e6


def _chromium() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                "--window-size=1600,1000"):  # fmt: skip
        options.add_argument(arg)
    options.binary_location = str(shutil.which("chromium") or shutil.which("chromium-browser"))
    return webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))


def _cpu_s(root: int) -> float:
    """The CPU seconds (user and system) of ``root``'s descendants now alive (Linux's
    /proc; 0 elsewhere)."""
    proc = Path("/proc")
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for entry in proc.glob("[0-9]*/stat"):
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        pid = int(entry.parent.name)
        parents[pid] = int(fields[1])
        times[pid] = (int(fields[11]) + int(fields[12])) / tick
    total, below = 0.0, {root}
    for _ in range(8):  # (the browser's processes are a few generations below the driver)
        below |= {pid for pid, parent in parents.items() if parent in below}
    for pid in below - {root}:
        total += times.get(pid, 0.0)
    return total


_T = TypeVar("_T")


def _wait(what: Callable[[], _T], seconds: float = 120.0, step_s: float = 0.005) -> _T:
    end = time.monotonic() + seconds
    while not (value := what()):
        if time.monotonic() > end:
            raise TimeoutError("the page did not answer")
        time.sleep(step_s)
    return value


def _watched(driver: Any, server: Any, url: str) -> tuple[float, float, int]:
    """A new tab's machine at 13. B-KR4, its GO timed with the page drawing: instructions
    a wall second, host CPU seconds (this process's and Chromium's) a million
    instructions, frames the page drew a wall second."""
    from .web import MacHackConsole

    driver.get(url)
    console = _wait(lambda: len(server.consoles) == 1 and next(iter(server.consoles)))
    assert isinstance(console, MacHackConsole)
    session = _wait(lambda: console.at_prompt and console.session)
    assert isinstance(session, Session)
    for move in GAME3_TO_13:
        console.keys(move + "\r")
        time.sleep(0.05)
        _wait(lambda: console.at_prompt and not console.host.keys)
    time.sleep(0.5)  # (the page drawing the position at the prompt)
    frames = driver.execute_script("return window.pdp6web.frames")
    browser = driver.service.process.pid
    cpu = time.process_time() + _cpu_s(browser)
    i0, t0 = session.machine.instructions, time.perf_counter()
    console.keys("GO\r")
    _wait(lambda: not console.at_prompt, 10.0, 0.001)
    _wait(lambda: console.at_prompt, 600.0, 0.002)
    wall = time.perf_counter() - t0
    done = session.machine.instructions - i0
    cpu = time.process_time() + _cpu_s(browser) - cpu
    frames = driver.execute_script("return window.pdp6web.frames") - frames
    driver.get("about:blank")  # (its machine ends: it must not run beside the next search)
    _wait(lambda: not server.consoles)
    return done / wall, cpu / done * 1e6, frames / wall


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
    rates: dict[str, list[float]] = {"bare": [], "unwatched": [], "watched": []}
    cpus: dict[str, list[float]] = {"bare": [], "unwatched": [], "watched": []}
    frames: list[float] = []
    driver = _chromium()
    try:
        with serving(server) as url:
            firsts = []
            for _ in range(TABS):
                driver.get(url)
                firsts.append(float(_wait(lambda: driver.execute_script(
                    "return window.pdp6web.firstPictureMs"))))  # fmt: skip
            driver.get("about:blank")
            _wait(lambda: not server.consoles)
            for _ in range(ROUNDS):
                for kind in rates:
                    if kind == "watched":
                        rate, cpu, per_s = _watched(driver, server, url)
                        frames.append(per_s)
                    else:
                        rate, cpu = _search(kind == "unwatched")
                    rates[kind].append(rate)
                    cpus[kind].append(cpu)
    finally:
        driver.quit()
    return _table(firsts, rates, cpus, frames)


def _table(firsts: list[float], rates: dict[str, list[float]], cpus: dict[str, list[float]],
           frames: list[float]) -> list[str]:  # fmt: skip
    med = {kind: statistics.median(values) for kind, values in rates.items()}
    cpu = {kind: statistics.median(values) for kind, values in cpus.items()}

    def slower(kind: str, than: str) -> float:
        return statistics.median(b / a for a, b in zip(rates[kind], rates[than], strict=True))

    return [
        f"first picture of a page (headless Chromium, {TABS} tabs one after another): "
        f"median {statistics.median(firsts):.0f} ms, longest {max(firsts):.0f} ms "
        "from the start of the page's load",
        f"search, depth {DEPTH} (game 3 before 13. B-KR4), {ROUNDS} rounds in turn, medians:",
        f"{'':<40} {'instructions/wall s':>20} {'slower':>7} {'than 340':>9} "
        f"{'host CPU s/M instr':>19}",
        f"{'no 340':<40} {med['bare']:>20,.0f} {'':>7} {'':>9} {cpu['bare']:>19.4f}",
        f"{'a 340, nobody watching (machack play)':<40} {med['unwatched']:>20,.0f} "
        f"{slower('unwatched', 'bare'):>6.2f}x {'':>9} {cpu['unwatched']:>19.4f}",
        f"{'machack web, the page drawing':<40} {med['watched']:>20,.0f} "
        f"{slower('watched', 'bare'):>6.2f}x {slower('watched', 'unwatched'):>8.2f}x "
        f"{cpu['watched']:>19.4f}",
        f"(host CPU: the process's; with the page, Chromium's too; the page drew "
        f"{statistics.median(frames):.1f} frames a second while the machine thought)",
    ]
