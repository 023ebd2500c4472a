"""``pdp6 web FILE``: a program of one's own, with its teletype and 340, in headless
Chromium.  The 340 test program (tests/pdp6/programs/dis340_refresh.mid: a board,
pieces and a title refreshed from the data channel's interrupts) on the canvas, equal to
pdp6.host.render's picture of the same points; the echo example typed at on the paper; a
program that halts says so on the page.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import midas
from midas.sblk import sblk_words
from pdp6.formats.wordfile import encode_words
from tests.browser import (
    assert_same_picture,
    canvas_against_renderer,
    chromium,
    need_browser,
    printed,
    wait_for,
)

pytest.importorskip("aiohttp", reason="the web extra is not installed: pip install -e '.[web]'")

from pdp6.host.web.program import ProgramConsole  # noqa: E402
from pdp6.host.web.server import Server, serving  # noqa: E402

ROOT = Path(__file__).parents[2]
PROGRAMS = Path(__file__).parent / "programs"


def binary(source: Path, out: Path, *patches: tuple[str, str]) -> Path:
    """``source`` assembled (with texts replaced) into an SBLK file ``out``."""
    text = source.read_text()
    for patch in patches:
        assert patch[0] in text
        text = text.replace(*patch)
    program = midas.assemble(text, filename=str(source))
    assert not program.errors, program.errors
    out.write_bytes(encode_words(sblk_words(program)))
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    need_browser()
    with chromium() as driver:
        yield driver


def test_a_340_program_draws_on_the_canvas_as_the_renderer_does(tmp_path, browser) -> None:
    file = binary(PROGRAMS / "dis340_refresh.mid", tmp_path / "refresh.bin",
                  ("NWANT==5", "NWANT==100000"))  # fmt: skip
    server = Server(lambda send: ProgramConsole(send, file, None, None), "refresh")
    with serving(server) as url:
        browser.get(url)
        console = wait_for(lambda: next(iter(server.consoles), None), why="a machine")
        wait_for(lambda: browser.execute_script("return window.pdp6web.firstPictureMs"),
                 why="a first picture")  # fmt: skip
        wait_for(lambda: console.machine is not None and console.machine.elapsed_us > 300_000,
                 why="some refreshes")  # fmt: skip
        assert_same_picture(*canvas_against_renderer(browser, console))
        browser.get("about:blank")


def test_the_echo_example_answers_on_the_paper(tmp_path, browser) -> None:
    file = binary(ROOT / "examples" / "echo.mid", tmp_path / "echo.bin")
    server = Server(lambda send: ProgramConsole(send, file, None, None), "echo")
    with serving(server) as url:
        browser.get(url)
        wait_for(lambda: "running from" in browser.page_source, why="the program started")
        from selenium.webdriver.common.by import By

        browser.find_element(By.ID, "paper").send_keys("hello pdp-6\n")
        wait_for(lambda: "HELLO PDP-6" in printed(browser), why="the echo")
        browser.get("about:blank")
        wait_for(lambda: not server.consoles, why="the machine ended with its page")


def test_a_program_that_halts_is_said_and_its_picture_stays(tmp_path, browser) -> None:
    file = binary(PROGRAMS / "dis340_refresh.mid", tmp_path / "five.bin")  # 5 refreshes
    server = Server(lambda send: ProgramConsole(send, file, None, None), "five")
    with serving(server) as url:
        browser.get(url)
        wait_for(lambda: "the machine stopped: halt at" in browser.page_source, why="the halt")
        assert browser.execute_script("return window.pdp6web.phosphor.count") > 0
        browser.get("about:blank")


@pytest.mark.parametrize("computing", [True, False])
def test_frames_keep_within_their_share_of_the_wall_time_while_the_machine_computes(
    tmp_path, computing: bool
) -> None:
    """A page that says each frame took it 100 ms to draw gets a frame every second or
    more while the machine computes (FRAME_SHARE: a tenth of the wall time), but every
    1/60 s while the program waits, paced to the wall clock."""
    import time

    from pdp6.host.web.console import FRAME_SHARE

    patches = [("CAIL A,NWANT", "CAIA")]  # (it refreshes for ever: never done)
    if computing:  # (a count in AC 2 while it waits for the refreshes: never idle)
        patches.append(("WAIT:\tSKIPN DONE", "WAIT:\tAOJ 2,\n\tSKIPN DONE"))
    file = binary(PROGRAMS / "dis340_refresh.mid", tmp_path / "refresh.bin", *patches)
    sent: list[float] = []

    def send(message: object) -> None:
        if isinstance(message, dict) and message["type"] == "ended":
            sent.append(-1.0)  # (the run ended: a last frame comes at once)
        elif isinstance(message, bytes):
            sent.append(time.monotonic())
            console.took(100.0)  # (the page's answer: drawn, in 100 ms)

    console = ProgramConsole(send, file, None, None)
    console.start()
    try:
        assert wait_for(lambda: len(sent) >= 2, seconds=60, why="frames")
        time.sleep(3.5)
        gaps = [b - a for a, b in zip(sent[1:], sent[2:], strict=False)]
        assert -1.0 not in sent, "the program ended"
    finally:
        assert console.close()
    assert gaps
    if computing:
        assert min(gaps) >= 0.1 / FRAME_SHARE * 0.99, gaps
    else:
        assert len(gaps) > 20, gaps
