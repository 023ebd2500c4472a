"""A headless Chromium driving the web console, for the tests of ``pdp6 web`` and
``machack web``: Debian's ``chromium`` and ``chromium-driver`` through Selenium.

Without them (or without aiohttp or selenium) the tests are skipped, saying which is
missing; under CI (``CI`` set: ``.ci/run`` installs them) a missing one fails instead,
so the page is never left untested there.  Nothing is downloaded: Selenium is given the
browser and its driver by path.
"""

from __future__ import annotations

import base64
import contextlib
import io
import os
import shutil
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
DRIVER = "chromedriver"
WINDOW = (1600, 900)


def missing() -> str | None:
    """What the browser tests lack here, or None."""
    for module in ("aiohttp", "selenium"):
        try:
            __import__(module)
        except ImportError:
            return f"the Python package {module} is not installed (pip install -e '.[test,web]')"
    if not any(shutil.which(name) for name in CHROMIUM):
        return "no Chromium here (Debian: apt-get install chromium chromium-driver)"
    if shutil.which(DRIVER) is None:
        return "no chromedriver here (Debian: apt-get install chromium-driver)"
    return None


def need_browser() -> None:
    """Skip the test without a browser; fail under CI, where there must be one."""
    why = missing()
    if why is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser tests: {why}")
    pytest.skip(why)


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium under Selenium; quit on the way out."""
    need_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                "--disable-gpu", f"--window-size={WINDOW[0]},{WINDOW[1]}"):  # fmt: skip
        options.add_argument(arg)
    options.binary_location = next(p for p in map(shutil.which, CHROMIUM) if p)
    driver = webdriver.Chrome(options=options, service=Service(shutil.which(DRIVER)))
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(what: Callable[[], Any], seconds: float = 30.0, why: str = "") -> Any:
    """Poll ``what()`` until it is true; its value, or fail saying ``why``."""
    end = time.monotonic() + seconds
    while True:
        value = what()
        if value:
            return value
        if time.monotonic() > end:
            pytest.fail(f"not within {seconds} s: {why}")
        time.sleep(0.05)


def printed(driver: Any) -> str:
    """What the program has printed on the page's teletype paper."""
    return str(driver.execute_script("return window.pdp6web.printed"))


def canvas_pixels(driver: Any) -> tuple[np.ndarray, int]:
    """The canvas as an RGB array, drawn afresh and then frozen, and the emulated time
    (ns) it shows.  The page stays frozen until :func:`unfreeze`."""
    from PIL import Image

    at = driver.execute_script(
        "const s = window.pdp6web; s.frozen = true; s.phosphor.draw(); return s.phosphor.drawnAt;"
    )
    url = driver.execute_script("return document.getElementById('screen').toDataURL('image/png')")
    data = base64.b64decode(url.split(",", 1)[1])
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB")), int(at)


def unfreeze(driver: Any) -> None:
    driver.execute_script("window.pdp6web.frozen = false")


def canvas_against_renderer(driver: Any, console: Any) -> tuple[np.ndarray, np.ndarray]:
    """The canvas now, and what pdp6.host.render draws (its PNG pictures' renderer) of the
    console's 340 at the same emulated time with the page's exposure: the points of the
    display itself, read while the machine is held between two chunks."""
    from pdp6.host.render import render
    from pdp6.host.web.console import CANVAS, EXPOSURE_NS

    shown, at = canvas_pixels(driver)
    with console.held():
        expected = render(console.display.points, at, size=CANVAS, exposure_ns=EXPOSURE_NS,
                          method="splat")  # fmt: skip
    unfreeze(driver)
    return shown, expected


def assert_same_picture(shown: np.ndarray, expected: np.ndarray) -> None:
    """Equal but for a rounding here and there (JavaScript's and numpy's last bits)."""
    diff = np.abs(shown.astype(int) - expected.astype(int))
    assert expected.any(), "nothing drawn"
    assert diff.max() <= 2 and (diff > 0).mean() < 0.001, (diff.max(), (diff > 0).mean())
