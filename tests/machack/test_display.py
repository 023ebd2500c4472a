"""Mac Hack's Type 340 display: what the MIDAS program draws, its clocks, its cost.

The program builds its display lists in core and feeds them to the emulated 340 from
its interrupt routines (machack/src/display.mid); the host only renders.  These tests
take whole refreshes (machack.display.Screen.refresh) and compare them with committed
references, watch the clocks while the machine thinks, and check that the refresh
leaves the search alone and takes little of its time.

To re-make the reference files after a deliberate change to the picture:
``MACHACK_REGEN_DISPLAY=1 pytest tests/machack/test_display.py``.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import numpy as np
import pytest

from machack.display import DisplayError, Screen
from machack.session import Session
from pdp6.host.render import load_png, save_png

DATA = Path(__file__).parent / "data"
REGEN = os.environ.get("MACHACK_REGEN_DISPLAY", "") not in ("", "0")

# 1967 game 3 (Mac Hack VI - Landey) to 12... B-Q2, typed as the paper prints it: a
# middlegame with a game score to show.  Mac Hack, White, is to play 13. B-KR4.
GAME3_TO_13 = ("P-K4 P-QB4 P-Q4 PXP QXP N-QB3 Q-Q3 N-B3 N-QB3 P-KN3 N-KB3 P-Q3 B-KB4 P-K4 "
               "B-KN3 P-QR3 O-O-O P-QN4 P-QR4 B-R3 K-QN1 P-N5 QXP/Q6 B-Q2").split()  # fmt: skip


def game3(screen: bool = True) -> tuple[Session, Screen | None]:
    """A fresh program (with a 340) at game 3 before White's 13th move, neither side
    played by the machine (PN): no clock runs at the prompt."""
    session = Session()
    shown = Screen(session) if screen else None
    for move in GAME3_TO_13:
        session.command(move)
    return session, shown


def points_text(points: list[tuple[int, int, int]]) -> list[list[int]]:
    return [list(p) for p in points]


def list_texts(session: Session) -> list[str]:
    """The texts of the main display list in core, read as the 340 would: its 18-bit
    words from the BLKO pointer DSMNP, the mode each word leaves the 340 in, and the
    342 codes of character mode (line feed as a new line, carriage return dropped)."""
    pointer = session.peek("DSMNP")
    count = (1 << 18) - (pointer >> 18)
    base = (pointer & 0o777777) + 1
    halves = []
    for word in (session.machine.memory[base + i] for i in range(count - 1)):
        halves += [word >> 18, word & 0o777777]
    texts, text, mode = [], "", 0
    for half in halves:
        if mode in (0, 1):  # parameter, point: the next mode in 160000
            if mode == 0 and half & 0o2000:  # STOP: the end of the list
                break
            mode = (half >> 13) & 7
        elif mode == 3:  # three 342 codes
            for code in (half >> 12, (half >> 6) & 0o77, half & 0o77):
                if code == 0o37:  # escape: back to parameter mode
                    texts.append(text)
                    text, mode = "", 0
                    break
                if code != 0o34:
                    text += "\n" if code == 0o33 else chr(((code ^ 0o40) & 0o77) + 0o40)
        elif half & 0o400000:  # vector or increment with its escape
            mode = 0
    return texts


# --- the pictures ---------------------------------------------------------------------


@pytest.mark.parametrize("setting", ["FANCY 0", "FANCY 1", "FANCY 2", "FANCY -1"])
def test_a_refresh_matches_its_reference(setting: str) -> None:
    """After the position is set up, one whole refresh -- the main list and the clock
    list -- is exactly the committed point list, and its picture the committed one."""
    session, screen = game3()
    assert screen is not None
    session.command(setting)
    refresh = screen.refresh(4)
    name = setting.lower().replace(" ", "").replace("-", "m")
    ref_points, ref_image = DATA / f"display_{name}.json", DATA / f"display_{name}.png"
    got = {"main": points_text(refresh.main), "clocks": points_text(refresh.clocks)}
    image = screen.picture(refresh)
    if REGEN:
        ref_points.write_text(json.dumps(got, separators=(",", ":")) + "\n")
        save_png(ref_image, image)
    ref = json.loads(ref_points.read_text())
    assert got["clocks"] == ref["clocks"]
    assert got["main"] == ref["main"]
    diff = np.abs(image.astype(np.int16) - load_png(ref_image).astype(np.int16))
    assert diff.mean() < 0.5 and np.percentile(diff, 99.9) < 24


def test_the_modes_draw_what_they_say() -> None:
    """FANCY 1 draws the grid (long vectors) and 32 glyphs; FANCY 0 is text only at
    the same place; FANCY 2 adds the score at the left edge (the 342's carriage return
    goes to X 0); a negative FANCY draws only the status line."""
    session, screen = game3()
    assert screen is not None
    main = {}
    for fancy in (1, 0, 2, -1):
        session.command(f"FANCY {fancy}")
        main[fancy] = screen.refresh().main
    xs = {f: {x for x, _, _ in pts} for f, pts in main.items()}
    # the grid's lines: every X of the board's width lit along its lower edge (y 200)
    bottom = {x for x, y, _ in main[1] if y == 200}
    assert set(range(228, 800, 4)) <= bottom
    assert not any(y == 200 for _, y, _ in main[0])
    assert min(xs[2]) < 100 <= min(xs[1])  # the score panel, left of the board
    assert len(main[-1]) < len(main[0]) < len(main[1]) < len(main[2])
    assert max(y for _, y, _ in main[-1]) > 950  # the status line at the top


def test_the_texts_are_the_programs_own() -> None:
    """Read from the display list in core: the status line, the game score exactly as
    PG types it (FANCY 2), the board as BD writes squares (FANCY 0), and the end of the
    game."""
    session, _ = game3()
    session.command("FANCY 2")
    texts = list_texts(session)
    assert texts[0] == "13. WHITE TO MOVE"
    pg = [line for line in session.command("PG").lines if line != "_"]
    assert texts[1].splitlines() == pg
    session.command("FANCY 0")
    texts = list_texts(session)
    assert texts[1:9] == [  # rank 8 first, the QR file at the left
        "BR ** -- BQ BK ** -- BR",
        "** -- ** BB ** BP ** BP",
        "BP ** BN WQ -- BN BP BB",
        "** -- ** -- BP -- ** --",
        "WP BP -- ** WP ** -- **",
        "** -- WN -- ** WN WB --",
        "-- WP WP ** -- WP WP WP",
        "** WK ** WR ** WB ** WR",
    ]
    # the ghost: Black's pawn skipped f6 and White's e-pawn may take it e.p.
    session.command("SETUP rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
    assert list_texts(session)[3] == "-- ** -- ** -- BG -- **"
    session.command("SETUP 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    session.command("R-R8")
    assert list_texts(session)[0] == "CHECKMATE"


def test_the_score_keeps_long_moves_apart() -> None:
    """A move of 12 characters or more (BOOK marks make them: QR-K4CH BOOK) fills
    White's column; the score still puts a space before Black's move, as PG does."""
    session = Session()
    Screen(session)
    session.command("P-K4")
    session.command("P-K4")
    text = "QR-K4CH BOOK"  # written over the record of White's move (ply 0)
    codes = [ord(c) for c in text] + [0] * (15 - len(text))
    base = session.image.symbol("HTEXT")
    for i in range(3):  # five 7-bit characters a word, left-justified
        word = 0
        for code in codes[5 * i : 5 * i + 5]:
            word = (word << 7) | code
        session.machine.memory[base + i] = word << 1
    session.command("FANCY 2")
    pg = [line for line in session.command("PG").lines if line != "_"]
    assert pg[0] == "  1 QR-K4CH BOOK P-K4"
    assert list_texts(session)[1].splitlines() == pg


def square_points(main: list[tuple[int, int, int]], file: int, rank: int, level: int
                  ) -> list[tuple[int, int]]:  # fmt: skip
    """The points of intensity ``level`` inside a square (file, rank 0-7) of FANCY 1."""
    x0, y0 = 224 + 72 * file, 200 + 72 * rank
    return [(x, y) for x, y, i in main if i == level and x0 < x < x0 + 72 and y0 < y < y0 + 72]


def test_the_pieces_are_glyphs_on_their_squares() -> None:
    """A lone king on each side: the glyphs are drawn in the squares where the kings
    stand (KR1 = h1 lower right, K8 = e8), Black's filled with more strokes; the ghost
    (e.p. square) is a dimmer diamond on its square."""
    session = Session()
    screen = Screen(session)
    session.command("SETUP 4k3/8/8/8/8/8/8/7K w - - 0 1")
    main = screen.refresh().main
    pieces = [(x, y) for x, y, level in main if level == 6]  # pieces are at intensity 6
    h1, e8 = square_points(main, 7, 0, 6), square_points(main, 4, 7, 6)
    assert h1 and e8 and len(h1) + len(e8) == len(pieces)
    assert len(e8) > 1.4 * len(h1)
    session.command("SETUP 4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2")
    main = screen.refresh().main
    ghost = square_points(main, 3, 5, 4)  # d6, at intensity 4
    assert len(ghost) == 8 and not square_points(main, 3, 5, 6)


# --- the clocks -----------------------------------------------------------------------


@pytest.mark.parametrize("search", ["DEPTH 3", "FULLW 1"])
def test_the_clocks_run_while_the_machine_thinks(search: str) -> None:
    """Two snapshots of the screen a second of emulated time apart while the machine
    thinks for White (the Greenblatt search, and part 1's full-width search, which has
    no PMG at its root): White's clock has moved, in core and on the screen, by that
    second; Black's stands; the board is the same and says who thinks."""
    session, screen = game3()
    assert screen is not None
    session.command(search)
    clock = session.image.symbol("DSCLK")
    m = session.machine
    snaps: list[tuple[float, int, int, object]] = []
    thinking: list[str] = []

    def at_alarm() -> None:
        if len(snaps) < 2 and m.elapsed_us >= next_at[0]:
            refresh = screen.refresh()
            snaps.append((m.elapsed_us, m.memory[clock], m.memory[clock + 1], refresh))
            thinking.append(list_texts(session)[0])
            next_at[0] = m.elapsed_us + 1e6
            if len(snaps) == 2:
                session.type(b"\x07")  # BELL: enough thinking
        session.alarm_us = next_at[0]

    next_at = [m.elapsed_us + 1e6]
    session.alarm_us = next_at[0]
    session.on_slice = at_alarm
    reply = session.send("GO")
    assert "QUIT" in reply.lines, "the search ended before the second snapshot"
    (t1, white1, black1, r1), (t2, white2, black2, r2) = snaps
    assert black1 == black2 == 0
    tenths = (t2 - t1) / 1e5
    assert white1 > 0 and tenths - 2 <= white2 - white1 <= tenths + 2
    assert r1.clocks != r2.clocks  # type: ignore[attr-defined]
    assert r1.main == r2.main  # type: ignore[attr-defined]
    assert thinking == ["13. WHITE THINKS"] * 2


def test_at_the_prompt_only_the_persons_clock_runs() -> None:
    """In PB (the machine plays Black) with White to move, White's clock runs while the
    program waits for the person; in PN no clock runs."""
    session, screen = game3()
    assert screen is not None
    clock = session.image.symbol("DSCLK")
    m = session.machine
    for _ in range(12):  # some 0.6 s of emulated time at the prompt
        screen.refresh()
    assert (m.memory[clock], m.memory[clock + 1]) == (0, 0)
    session.command("PB")
    for _ in range(12):
        screen.refresh()
    assert m.memory[clock] >= 4 and m.memory[clock + 1] == 0


def test_a_new_game_sets_the_clocks_to_zero() -> None:
    """NEW (a SETUP) zeroes both clocks, in core and on the screen (the clock list is
    then the reference's, both at 0:00:00.0)."""
    session, screen = game3()
    assert screen is not None
    clock = session.image.symbol("DSCLK")
    session.command("PB")
    for _ in range(6):
        screen.refresh()
    assert session.machine.memory[clock] > 0
    session.command("PN")
    session.command("NEW")
    clocks = screen.refresh().clocks
    assert session.machine.memory[clock] == 0
    assert points_text(clocks) == json.loads((DATA / "display_fancy1.json").read_text())["clocks"]


# --- the debug display ----------------------------------------------------------------


def coordinates(move: int) -> str:
    """A move word (docs/machack.md) in coordinates, as the program writes squares."""
    text = ""
    for square in ((move >> 18) & 0o177, move & 0o177):
        text += "IHGFEDCBA"[square % 10] + str(square // 10 - 1)
    special = (move >> 31) & 7
    return text + ("QRBN"[special - 4] if special >= 4 else "")


def kept_list(session: Session) -> tuple[int, list[int], list[int]]:
    """The PMG's list the display keeps: how many moves the PMG gave, the moves kept
    and their plausibility,,flags."""
    kept = session.peek("DSNM")
    moves = [session.peek("DSMV", i) for i in range(kept)]
    return session.peek("DSNMT"), moves, [session.peek("DSMS", i) for i in range(kept)]


def test_sds_shows_the_plausible_move_generators_list() -> None:
    """SDS 2 keeps the PMG's list of the position -- every legal move counted, the most
    plausible first in the order PLAUS types them, the poor ones flagged -- and draws
    it two a line with the squares' importance on the board (read from the list)."""
    session, screen = game3()
    assert screen is not None
    session.command("SDS 2")
    screen.refresh()
    count, moves, scores = kept_list(session)
    kept = len(moves)
    assert count == len(session.moves()) and kept == min(count, 48)
    assert {coordinates(m) for m in moves} <= set(session.moves())
    texts = list_texts(session)
    plaus = session.command("PLAUS").lines
    listed = [line for line in plaus if re.match(r"^[ -] *\d+ ", line)]
    assert len(listed) == count
    assert [s >> 18 for s in scores] == [int(line[1:7]) for line in listed[:kept]]
    poor = 0o200000
    assert [bool(s & poor) for s in scores] == [line[0] == "-" for line in listed[:kept]]
    entries = [("-" if s & poor else " ") + f"{s >> 18:4} " + f"{coordinates(m):<5}"
               for m, s in zip(moves, scores, strict=True)]  # fmt: skip
    panel = ["  ".join(entries[i : i + 2]) for i in range(0, kept, 2)]
    if kept % 2:
        panel[-1] += "  "  # two spaces, then the text ends: no new line
    else:
        panel.append("")  # a new line after the last pair
    assert texts[1].split("\n") == [f" PMG {count} MOVES", "", *panel]
    squares = [10 * row + col for row in range(9, 1, -1) for col in range(8, 0, -1)]
    sqval = [session.peek("SQVAL", square) for square in squares]
    drawn = [int(n) for row in texts[2:10] for n in row.split()]
    assert drawn == sqval


def test_sds_1_shows_the_roots_list_while_thinking() -> None:
    """SDS 1: at the prompt the board; while the machine thinks the root's PMG list
    (the same the prompt shows with SDS 2 for this position) and the squares; at the
    prompt after it the board again."""
    session, screen = game3()
    assert screen is not None
    session.command("SDS 1")
    assert session.peek("DSDBG") == 0  # at the prompt: the board
    seen: list[tuple[int, list[str], tuple[int, list[int], list[int]]]] = []
    m = session.machine

    def at_alarm() -> None:  # (slices also end between the keys of GO)
        if not seen and m.elapsed_us >= alarm:
            screen.refresh()
            seen.append((session.peek("DSDBG"), list_texts(session), kept_list(session)))
            session.type(b"\x07")

    legal = len(session.moves())
    alarm = session.alarm_us = m.elapsed_us + 500_000  # half a PDP-6 second into the search
    session.on_slice = at_alarm
    session.send("GO")
    assert session.peek("DSDBG") == 0  # back at the prompt: the board again
    ((debug, texts, thinking),) = seen
    assert debug == -1 & 0o777777777777
    assert texts[0] == "13. WHITE THINKS"
    assert texts[1].startswith(f" PMG {legal} MOVES\n")
    assert len(texts) == 10  # the status, the list, eight ranks of square values
    session.command("SDS 2")
    assert kept_list(session) == thinking


# --- the program with and without a 340 -----------------------------------------------


def test_without_a_340_the_program_draws_nothing() -> None:
    session, _ = game3(screen=False)
    session.command("FANCY 2")
    assert session.peek("DSON") == 0 and session.peek("DSNBL") == 0
    Screen(session)  # a 340 attached now is found at the next prompt
    session.command("FANCY 1")
    assert session.peek("DSON") != 0 and session.peek("DSNBL") == 1


def test_the_refresh_leaves_the_search_alone_and_takes_at_most_a_tenth() -> None:
    """The same search with and without the 340 (FANCY 2, the longest list): the same
    move and nodes; the emulated time the refresh takes (interrupts, BLKO, building the
    lists) is at most 10%.  The refresh is rationed by the clock tick: at most one list
    started a tick (each start ends with the clock list), the main list at most every
    DSRATE = 3 ticks, and still drawn more than ten times a second."""
    results = []
    for screen in (False, True):
        session, _ = game3(screen)
        session.command("FANCY 2")
        session.command("DEPTH 2")
        before = session.peek("DSNRF"), session.peek("DSNCK")
        reply = session.command("GO")
        mains, clocks = session.peek("DSNRF") - before[0], session.peek("DSNCK") - before[1]
        stats = session.command("STATS").first("TIME ")
        assert stats is not None
        results.append((reply.after_ack[0], stats.split()[4], reply.emulated_us))
    (move, nodes, bare), (move2, nodes2, shown) = results
    assert (move, nodes) == (move2, nodes2)
    assert 0 < (shown - bare) / shown <= 0.10
    ticks = shown * 60 / 1e6
    assert clocks <= ticks + 1 and mains <= ticks / 3 + 1
    assert mains > 10 * shown / 1e6


def test_fancy_and_sds_refuse_bad_arguments() -> None:
    session = Session()
    for line in ["FANCY 3", "FANCY -2", "FANCY", "FANCY X", "FANCY 1 2", "SDS 3", "SDS -1",
                 "SDS", "FANCY 99999999999"]:  # fmt: skip
        assert session.send(line).lines == ["??"], line
    assert session.command("FANCY=").lines == ["1", "_"]
    session.command("FANCY -1")
    assert session.command("FANCY ?").lines == ["-1", "_"]
    session.command("SDS 1")
    assert session.command("SDS=").lines == ["1", "_"]
    assert "FANCY n  SDS n  (WHAT THE TYPE 340 DISPLAY SHOWS)" in session.command("HELP").lines


def test_refresh_without_a_340_seen_is_an_error_not_a_hang() -> None:
    """A 340 attached but never seen by the program (no prompt since): the host's wait
    for a refresh ends with DisplayError after its emulated-time limit."""
    session = Session()
    screen = Screen(session)
    with pytest.raises(DisplayError):
        screen.refresh(limit_us=200_000)


# --- the host: machack play and machack bench -----------------------------------------


def test_play_writes_the_screen_after_every_move(tmp_path: Path) -> None:
    """--display-png is rewritten after every move, --display-gif gets a frame for the
    starting position and for each move (while the machine thinks, and after its move)."""
    from click.testing import CliRunner
    from PIL import Image

    from machack.cli import main

    png, gif = tmp_path / "screen.png", tmp_path / "game.gif"
    result = CliRunner().invoke(
        main,
        ["play", "--depth", "1", "--display-png", str(png), "--display-gif", str(gif)],
        input="BOOK OFF\nP-K4\nFANCY 2\nP-Q4\n",  # (the machine thinks: no book moves)
    )
    assert result.exit_code == 0, result.output
    assert f"[the Type 340's screen goes to {png}, {gif} after every move]" in result.output
    image = load_png(png)
    assert image.shape == (768, 768, 3) and image.max() > 150
    assert image[:, :150].max() > 150  # FANCY 2: the game score at the left
    with Image.open(gif) as animation:
        # the start, 1. P-K4 (thinking), 1... (its move), 2. P-Q4, 2... : 5 positions
        assert animation.n_frames == 5


def test_play_display_without_a_display_says_so_and_plays_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from click.testing import CliRunner

    from machack.cli import main

    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    result = CliRunner().invoke(main, ["play", "--depth", "1", "--display"], input="P-K4\n")
    assert result.exit_code == 0, result.output
    assert "no display for the Type 340 window" in result.output
    assert "playing on the teletype only" in result.output
    assert "1. ... " in result.output


def test_play_display_with_a_display_that_does_not_answer_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """DISPLAY names a display with no server behind it (a stale one): the same one-line
    note, with the reason, and the game on the teletype."""
    from click.testing import CliRunner

    from machack.cli import main

    monkeypatch.setenv("DISPLAY", ":65432")
    result = CliRunner().invoke(main, ["play", "--depth", "1", "--display"], input="P-K4\n")
    assert result.exit_code == 0, result.output
    notes = [line for line in result.output.splitlines() if "Type 340" in line]
    assert len(notes) == 1 and "no display for the Type 340 window (" in notes[0]
    assert "playing on the teletype only" in notes[0]
    assert "Warning" not in result.output and "1. ... " in result.output


def test_play_refuses_a_picture_it_cannot_write(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from machack.cli import main

    bad = tmp_path / "no such directory" / "screen.png"
    result = CliRunner().invoke(main, ["play", "--display-png", str(bad)], input="")
    assert result.exit_code == 1
    assert "cannot write" in result.output and "Traceback" not in result.output


@pytest.mark.slow
def test_bench_prints_the_refresh_cost_by_mode() -> None:
    from machack.bench import DISPLAY_MODES, display_cost_lines

    lines = display_cost_lines(depth=1, rounds=1)
    assert lines[1].startswith("no 340")
    rows = lines[2:-1]
    assert lines[-1].startswith("(x bare: the median over 1 rounds")
    assert [row[:30].strip() for row in rows] == [name for name, _ in DISPLAY_MODES]
    for row in rows:
        share = float(re.findall(r"(\d+\.\d)%", row)[0])
        assert 0 < share <= 10, row
        assert "different search" not in row


def test_a_picture_that_cannot_be_written_is_said_once_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    png = tmp_path / "screen.png"
    notes: list[str] = []
    session = Session()
    screen = Screen(session, png=png, say=notes.append)
    session.on_slice = screen.poll
    session.command("NEW")  # the start is pictured
    assert load_png(png).max() > 150
    png.unlink()
    png.mkdir()  # from now on it cannot be written
    session.command("P-K4")
    session.command("P-K4")
    assert len(notes) == 1 and "cannot write" in notes[0] and screen.png is None
