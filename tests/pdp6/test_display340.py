"""The Type 340 display on its 344 interface, device 130, driven word by word.

Expected values are worked out from pdp6-reference.md 2.5 (word formats, the BRM
rule, edges, the timing list); see ``dis340_helpers`` for the builders and the
independent BRM model.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pdp6.cpu import state as S
from pdp6.devices import chargen342 as cg
from pdp6.iobus import NEVER

from .dis340_helpers import (
    COUNT,
    ID,
    IDP,
    IL,
    IR,
    IU,
    NCHR,
    NPAR,
    NPNT,
    NVEC,
    POSITION,
    SETTLE,
    STEP,
    SYNC,
    Y_LOAD,
    Rig,
    brm_moves,
    chars,
    inc,
    param,
    px,
    py,
    vec,
)

# CONI bits (2.5)
VEDGE, LPEN, HEDGE, STOPB, DATA = 0o4000, 0o2000, 0o1000, 0o400, 0o200


def rig_at(x: int, y: int, mode: int, *, scale: int = 0, intensity: int = 7) -> Rig:
    """A 340, initialized (data PIA 7, special 6), beam at (x, y), about to take words
    in ``mode``; its clock is where the positioning left it."""
    r = Rig()
    r.cono(0o100 | 0o60 | 7)
    r.feed([param(mode=NPNT, scale=scale, intensity=intensity), py(y), px(x, mode=NPAR),
            param(mode=mode << 13)])  # fmt: skip
    r.settle()
    assert (r.d.x, r.d.y, r.d.mode) == (x, y, mode)
    return r


# --- the interface ------------------------------------------------------------------


def test_initialize_requests_data_on_the_data_pia() -> None:
    r = Rig()
    r.cono(0o100 | (6 << 3) | 7)
    # data flag 000200, special PIA 6 in 000070, data PIA 7; mode 0 (parameter)
    assert r.coni() == 0o200 | 0o60 | 7
    assert r.d.request() == 7


def test_cono_replaces_both_pias() -> None:
    r = Rig()
    r.cono(0o100 | 0o35)
    assert r.coni() & 0o77 == 0o35
    r.cono(0o100 | 0o02)
    assert r.coni() & 0o77 == 0o02


def test_datao_drops_the_flag_and_two_parameter_words_take_6_6_us() -> None:
    r = Rig()
    r.cono(0o100 | 7, at=1000)
    r.datao((param(intensity=5) << 18) | param(scale=2), at=1000)
    assert r.coni() & DATA == 0 and r.d.request() == 0
    # each 18-bit word: data sync 2.8 us + 0.5 us settle; the flag rises after both
    r.run_to(1000 + 2 * IDP - 1)
    assert r.coni() & DATA == 0
    r.run_to(1000 + 2 * IDP)
    assert r.coni() & DATA
    assert r.d.request() == 7
    assert (r.d.intensity, r.d.scale) == (5, 2)


def test_data_flag_waits_for_both_halves() -> None:
    r = Rig()
    r.cono(0o100 | 7)
    r.datao((param() << 18) | param())
    r.run_to(IDP)  # left half done, right half starts
    assert not r.d.data_flag
    assert r.d.words == 2


def test_coni_shows_the_mode() -> None:
    r = Rig()
    r.cono(0o100)
    r.feed([param(), param(mode=NCHR)])
    r.settle()
    assert r.coni() >> 15 & 7 == 3  # bits 18-20: character mode


def test_datao_replaces_what_the_buffer_still_held() -> None:
    r = Rig()
    r.cono(0o100)
    r.datao((param(intensity=1) << 18) | param(intensity=2))
    r.run_to(100)  # the left half is being worked on; the right one waits
    r.datao((param(intensity=3) << 18) | param(intensity=4))
    r.settle()
    assert r.d.words == 3  # 1's left half, then the new word's two halves
    assert r.d.intensity == 4


def test_io_reset_clears_pias_and_buffer() -> None:
    r = Rig()
    r.cono(0o100 | 0o67)
    r.datao((param(intensity=3) << 18) | param(intensity=4))
    r.d.reset()
    assert r.coni() == DATA  # initialized: ready for data, PIAs 0
    r.settle()
    assert r.d.words == 1  # the right half was dropped with the buffer


# --- parameter and point modes --------------------------------------------------------


def test_parameter_word_fields() -> None:
    r = Rig()
    r.cono(0o100)
    r.feed([param(), param(scale=3, intensity=2, mode=NVEC)])
    r.settle()
    assert (r.d.scale, r.d.intensity, r.d.mode) == (3, 2, 4)
    # without the change bits nothing changes
    r.cono(0o100)
    r.feed([NPAR | 0o67, NPAR | 0o1067])
    r.settle()
    assert (r.d.scale, r.d.intensity) == (3, 2)


def test_point_mode_positions_and_timing() -> None:
    r = Rig()
    r.cono(0o100 | 7)
    t0 = r.t
    r.feed([param(mode=NPNT, intensity=4), py(321)])
    # parameter 3.3 us; Y without intensify: 3.3 + 0.2 + 0.5 us
    r.run_to(t0 + IDP + IDP + Y_LOAD + SETTLE - 1)
    assert not r.d.data_flag
    r.run_to(t0 + IDP + IDP + Y_LOAD + SETTLE)
    assert r.d.data_flag
    t1 = r.t
    r.feed([px(123, intensify=True), py(400, intensify=True, mode=NPAR)])
    r.settle()
    # X: 35 us positioning, intensify, 0.5 us; Y with intensify: 0.2 + 35 us
    tx = t1 + IDP + POSITION
    ty = tx + SETTLE + IDP + Y_LOAD + POSITION
    assert r.points() == [(123, 321, 4, tx), (123, 400, 4, ty)]
    assert r.d.data_in() == (400 << 18) | 123  # DATAI: Y,,X
    assert r.d.mode == 0


# --- vectors ---------------------------------------------------------------------------


def test_short_vector_one_step_at_brm_count_32() -> None:
    r = rig_at(100, 100, 4)
    t0 = r.t
    r.feed([vec(1, 1), vec(0, 0, intensify=False)])
    r.settle()
    # 64 counts (counting by 2): magnitude bit 0 pairs with BRM bit 6, which goes
    # 0->1 at the 32nd count; intensified 1 us after the count
    assert r.points() == [(101, 101, 7, t0 + IDP + 31 * STEP + COUNT)]
    # each vector 64 counts of 1.5 us after its 3.3 us: 99.3 us
    assert r.d.data_flag and r.t == t0 + 2 * (IDP + 64 * STEP)


def test_long_vector_runs_128_counts() -> None:
    r = rig_at(100, 200, 4)
    t0 = r.t
    r.feed([vec(64, 0), vec(0, 0, intensify=False)])
    r.settle()
    pts = r.points()
    # bit 6 of the magnitude pairs with BRM bit 0: a step at every odd count
    assert [p[:2] for p in pts] == [(101 + i, 200) for i in range(64)]
    assert [p[3] for p in pts] == [t0 + IDP + 2 * i * STEP + COUNT for i in range(64)]
    assert r.t == t0 + IDP + 128 * STEP + IDP + 64 * STEP


def test_vector_signs_scale_and_dark_vectors() -> None:
    r = rig_at(500, 500, 4, scale=2)
    r.feed([vec(-3, 5), vec(7, -2, intensify=False)])
    r.settle()
    # each unit step is 2^2 raster units; the dark vector moves without points
    assert (r.d.x, r.d.y) == (500 + 4 * (-3 + 7), 500 + 4 * (5 - 2))
    # 64 counts (both magnitudes < 64), counting by 2: the BRM bit that rises at count
    # i is bit TZ(i)+1, paired with magnitude bit 5-TZ(i).  X (3 = bits 0, 1) steps at
    # counts 32, 16, 48; Y (5 = bits 0, 2) at 32, 8, 24, 40, 56: 7 counts move.
    assert len(r.points()) == 7
    assert [p[:2] for p in r.points()][:3] == [(500, 504), (496, 504), (496, 508)]  # 8, 16, 24


@settings(max_examples=60, deadline=None)
@given(
    mx=st.integers(0, 127),
    my=st.integers(0, 127),
    negx=st.booleans(),
    negy=st.booleans(),
    scale=st.integers(0, 1),
)
def test_vector_steps_follow_the_brm(mx: int, my: int, negx: bool, negy: bool, scale: int) -> None:
    r = rig_at(400, 400, 4, scale=scale)
    t0 = r.t
    dx, dy = (-mx if negx else mx), (-my if negy else my)
    r.feed([vec(dx, dy, escape=True), param()])
    r.settle()
    s = 1 << scale
    x, y = 400, 400
    expected = []
    for i, (sx, sy) in enumerate(brm_moves(mx, my)):
        x += sx * s * (-1 if negx else 1)
        y += sy * s * (-1 if negy else 1)
        if sx or sy:
            expected.append((x, y, 7, t0 + IDP + i * STEP + COUNT))
    assert r.points() == expected
    # over the whole count each axis steps exactly its magnitude
    assert (r.d.x, r.d.y) == (400 + dx * s, 400 + dy * s)
    assert r.d.mode == 0  # the escape bit


# --- increment mode ------------------------------------------------------------------


def test_increment_word_four_steps_first_nibble_first() -> None:
    r = rig_at(200, 200, 6, scale=1)
    t0 = r.t
    r.feed([inc(IR, IR | IU, IU, IL | ID), inc(0, 0, 0, 0, escape=True)])
    r.settle()
    pos = [(202, 200), (204, 202), (204, 204), (202, 202)]
    assert r.points() == [(x, y, 7, t0 + IDP + i * STEP + COUNT) for i, (x, y) in
                          enumerate(pos)]  # fmt: skip
    assert r.d.mode == 0  # second word escaped; the first did not
    # 3.3 us + four 1.5 us steps a word
    assert r.t == t0 + 2 * (IDP + 4 * STEP)


def test_increment_without_escape_stays_in_increment_mode() -> None:
    r = rig_at(10, 10, 6)
    r.feed([inc(IR, IR, IR, IR), inc(IU, IU, IU, IU, intensify=False)])
    r.settle()
    assert (r.d.x, r.d.y, r.d.mode) == (14, 14, 6)
    assert len(r.points()) == 4
    assert r.coni() >> 15 & 7 == 6


def test_increment_codes_00_and_01_do_not_move() -> None:
    r = rig_at(50, 50, 6)
    r.feed([inc(0o0, 0o1, 0o4, 0o5), inc(0, 0, 0, 0, escape=True)])
    r.settle()
    assert (r.d.x, r.d.y) == (50, 50)
    assert r.points() == []


# --- character mode -----------------------------------------------------------------


def _glyph(code: int, case: int, x0: int, y0: int, s: int) -> set[tuple[int, int]]:
    return {(x0 + s * x, y0 + s * y) for x, y in cg.PATTERNS[case][code]}


def test_characters_draw_their_dots_and_advance_six_steps() -> None:
    r = rig_at(100, 500, 3, intensity=5)
    t0 = r.t
    r.feed([chars(0o01, 0o40, 0o02), chars(0o37, 0o01, 0o01)])  # A space B, escape
    r.settle()
    pts = r.points()
    a_steps = len(cg.PROGRAMS[0o01])
    b_steps = len(cg.PROGRAMS[0o02])
    assert {p[:2] for p in pts} == _glyph(1, 0, 100, 500, 1) | _glyph(2, 0, 112, 500, 1)
    assert all(p[2] == 5 for p in pts)
    assert r.d.x == 118 and r.d.y == 500 and r.d.mode == 0
    # 1.5 us a stroke step, 0.5 us between the characters of a word; the escape
    # ends the second word at once, the two A's after it are never drawn
    end_first = t0 + IDP + a_steps * STEP + SETTLE + 6 * STEP + SETTLE + b_steps * STEP
    first = next(i for i, op in enumerate(cg.PROGRAMS[0o01]) if op & cg.INTENSIFY)
    assert min(p[3] for p in pts) == t0 + IDP + first * STEP + COUNT
    assert r.t == end_first + IDP


def test_character_scale_multiplies_the_grid() -> None:
    r = rig_at(0, 300, 3, scale=2)
    r.feed([chars(0o60, 0o61, 0o37), param()])  # 0 1 escape
    r.settle()
    assert {p[:2] for p in r.points()} == _glyph(0o60, 0, 0, 300, 4) | _glyph(0o61, 0, 24, 300, 4)


def test_cr_lf_and_the_two_cases() -> None:
    r = rig_at(500, 600, 3)
    r.feed([chars(0o01, 0o34, 0o33), chars(0o36, 0o01, 0o35),  # A CR LF, SO a SI
            chars(0o01, 0o40, 0o37), param()])  # A space escape  # fmt: skip
    r.settle()
    got = {p[:2] for p in r.points()}
    # A at (500,600); CR: X <- 0; LF: 11 steps down; lower-case a at (0,589); then A
    assert got == _glyph(1, 0, 500, 600, 1) | _glyph(1, 1, 0, 589, 1) | _glyph(1, 0, 6, 589, 1)
    assert (r.d.x, r.d.y) == (18, 589)


def test_shift_out_lasts_until_initialize() -> None:
    r = rig_at(0, 400, 3)
    r.feed([chars(0o36, 0o40, 0o40), chars(0o40, 0o40, 0o37)])
    r.settle()
    assert r.d.shift == 1
    r.cono(0o100)
    assert r.d.shift == 0


def test_character_mode_wraps_without_a_flag() -> None:
    r = rig_at(1020, 100, 3)
    r.feed([chars(0o01, 0o40, 0o40), chars(0o37, 0o37, 0o37)])
    r.settle()
    assert r.coni() & (HEDGE | VEDGE) == 0
    assert r.d.data_flag
    assert r.d.x == (1020 + 18) % 1024
    assert {p[:2] for p in r.points()} == {((1020 + x) % 1024, 100 + y) for x, y in
                                          cg.PATTERNS[0][1]}  # fmt: skip


# --- edges, stop, hung modes ---------------------------------------------------------


def test_vector_off_the_right_edge_stops_with_a_special_interrupt() -> None:
    r = rig_at(1000, 50, 4)
    r.cono(0o60 | 7)  # PIAs (a resume: nothing else happens)
    t0 = r.t
    words = r.d.words
    r.feed([vec(64, 0), vec(1, 0)])
    # steps at odd counts: the 24th step (count 47) reaches X = 1024
    t_edge = t0 + IDP + 46 * STEP
    r.run_to(t_edge - 1)
    assert r.coni() & HEDGE == 0
    r.run_to(t_edge)
    assert r.coni() & HEDGE and r.d.request() == 6
    r.run_to(t_edge + COUNT)
    assert r.coni() >> 15 & 7 == 0  # escaped to parameter mode
    r.settle()
    assert [p[0] for p in r.points()] == list(range(1001, 1024))  # the wrapped X is dark
    assert r.d.data_in() == (50 << 18) | 0  # X wrapped to 0
    assert not r.d.data_flag and r.d.words == words + 1  # stopped: the right half waits
    # a resume re-escapes and stays stopped; DATAO does not restart it
    r.cono(0o60 | 7)
    r.datao(0)
    r.settle()
    assert r.coni() & HEDGE and not r.d.data_flag
    # initialize clears the flag and asks for data (the buffered word first)
    r.cono(0o100 | 0o60 | 7)
    assert r.coni() & HEDGE == 0
    r.settle()
    assert r.d.data_flag


def test_vector_below_the_bottom_sets_the_vertical_edge_flag() -> None:
    r = rig_at(300, 3, 4)
    r.feed([vec(0, -10), param()])
    r.settle()
    assert r.coni() & (VEDGE | HEDGE) == VEDGE
    assert r.d.y == 1023 and r.d.state_name == "stopped"


def test_increment_edge_on_the_last_step_gives_no_flag() -> None:
    r = rig_at(1020, 10, 6)
    r.feed([inc(IR, IR, IR, IR), inc(IU, IU, IU, IU, escape=True)])
    r.settle()
    # the 4th step wraps X to 0: no flag, the wrapped point dark, the list goes on
    assert r.coni() & (HEDGE | VEDGE) == 0
    assert [p[:2] for p in r.points()] == [(1021, 10), (1022, 10), (1023, 10), (0, 11),
                                           (0, 12), (0, 13), (0, 14)]  # fmt: skip
    assert r.d.data_flag and r.d.mode == 0


def test_increment_edge_before_the_last_step_stops() -> None:
    r = rig_at(1022, 10, 6)
    r.feed([inc(IR, IR, IR, IR), param()])
    r.settle()
    assert r.coni() & HEDGE and r.d.state_name == "stopped"
    assert [p[:2] for p in r.points()] == [(1023, 10)]


def test_vector_continue_runs_to_the_edge_and_escapes() -> None:
    r = rig_at(1000, 100, 5)
    r.feed([vec(8, 1), param(intensity=3)])
    r.settle()
    pts = r.points()
    assert [p[0] for p in pts if p[1] == 100][0] == 1001
    assert max(p[0] for p in pts) == 1023
    assert r.coni() & (HEDGE | VEDGE) == 0  # no lasting flag
    assert r.d.data_flag and r.d.mode == 0 and r.d.intensity == 3  # next word: parameter
    assert r.d.x == 0


def test_vector_continue_of_length_zero_hangs_without_a_loop() -> None:
    r = rig_at(10, 10, 5)
    r.feed([vec(0, 0), param()])
    r.settle()
    assert not r.d.data_flag and r.d.next_event() == NEVER
    r.cono(0o100)  # the buffered right half runs first, then the 340 asks for data
    assert not r.d.data_flag
    r.settle()
    assert r.d.data_flag


def test_stop_without_interrupt_is_silent() -> None:
    r = Rig()
    r.cono(0o100 | 0o67)
    r.feed([param(stop=True), param()])
    r.settle()
    assert r.coni() == 0o67 and r.d.request() == 0
    assert r.d.state_name == "stopped"


def test_stop_with_interrupt_until_initialize() -> None:
    r = Rig()
    r.cono(0o100 | 0o67)
    t0 = r.t
    r.feed([param(stop=True, stop_int=True), param()])
    r.run_to(t0 + IDP)
    assert r.coni() == STOPB | 0o67 and r.d.request() == 6
    r.cono(0o67)  # a resume does not restart a STOP
    r.settle()
    assert r.coni() == STOPB | 0o67
    r.cono(0o100 | 0o67)
    assert r.coni() & STOPB == 0
    r.settle()
    assert r.d.words == 2 and r.d.data_flag  # the right half ran after the restart


@pytest.mark.parametrize("mode", [2, 7])
def test_slave_and_subroutine_modes_hang_until_initialize(mode: int) -> None:
    r = Rig()
    r.cono(0o100 | 0o67)
    r.feed([param(mode=mode << 13), vec(5, 5)])
    r.settle()
    assert r.coni() == (mode << 15) | 0o67  # mode shown; no data, no flags
    assert r.d.next_event() == NEVER and r.points() == []
    r.cono(0o100 | 0o67)
    assert r.coni() == DATA | 0o67


# --- CONO in the middle of a word ----------------------------------------------------


def test_initialize_mid_vector_leaves_the_beam_where_it_was() -> None:
    r = rig_at(100, 100, 4)
    t0 = r.t
    r.feed([vec(64, 0), vec(64, 0)])
    # counts 1, 3, ..., 11 have moved (6 steps); count 11's point is due 1 us later
    t = t0 + IDP + 10 * STEP + 200
    r.cono(0o100 | 7, at=t)
    assert (r.d.x, r.d.y, r.d.mode) == (106, 100, 0)
    assert [p[0] for p in r.points()] == [101, 102, 103, 104, 105]
    assert r.d.data_in() == (100 << 18) | 106
    r.settle()
    # the right half was still in the buffer: it runs in parameter mode (a no-op)
    assert [p[0] for p in r.points()] == [101, 102, 103, 104, 105]
    assert r.d.data_flag


def test_initialize_mid_character_drops_later_strokes() -> None:
    r = rig_at(0, 200, 3)
    t0 = r.t
    r.feed([chars(0o01, 0o01, 0o01), param()])
    r.cono(0o100, at=t0 + IDP + 5 * STEP)
    assert all(p[3] <= t0 + IDP + 5 * STEP for p in r.points())
    assert len(r.points()) == sum(1 for op in cg.PROGRAMS[1][:5] if op & cg.INTENSIFY)


# --- light pen ------------------------------------------------------------------------


def test_light_pen_hit_in_point_mode_holds_the_next_word() -> None:
    r = Rig()
    r.cono(0o100 | 0o67)
    r.d.pen = (106, 99)  # within 2 raster units of (105, 100)
    r.feed([param(mode=NPNT, lp=True), py(100), px(105, intensify=True), py(300)])
    r.settle()
    # found at the intensify; the flag rises as the next word is read and holds it
    assert r.coni() & LPEN and r.d.request() == 6
    assert r.d.data_in() == (100 << 18) | 105
    assert r.d.state_name == "paused" and r.d.y == 100
    t_resume = r.t
    r.cono(0o67)  # resume: the held word goes on; the light pen is disabled
    assert r.coni() & LPEN == 0
    r.settle()
    assert r.d.y == 300 and r.d.data_flag and r.d.lp_enable == 0
    # aap: a resume goes on to SEQ DLY after 1 us, then 0.5 us to the word's IDP; a
    # dark Y position takes 0.2 + 0.5 us more
    assert r.t == t_resume + COUNT + SETTLE + Y_LOAD + SETTLE


def test_light_pen_without_enable_does_nothing() -> None:
    r = Rig()
    r.cono(0o100 | 0o67)
    r.d.pen = (105, 100)
    r.feed([param(mode=NPNT), py(100), px(105, intensify=True), py(300)])
    r.settle()
    assert r.coni() & LPEN == 0 and r.d.y == 300


def test_light_pen_pauses_a_vector_and_resume_finishes_it() -> None:
    plain = rig_at(100, 100, 4)
    plain.feed([vec(20, 0), param()])
    plain.settle()
    r = Rig()
    r.cono(0o100 | 0o67)
    r.d.pen = (110, 100)
    r.feed([param(mode=NPNT, lp=True, intensity=7), py(100), px(100, mode=NPAR),
            param(mode=NVEC), vec(20, 0), param()])  # fmt: skip
    r.settle()
    assert r.d.state_name == "paused" and r.coni() & LPEN
    x_paused = r.d.data_in() & 0o1777
    assert 108 <= x_paused <= 112
    r.cono(0o67)
    r.settle()
    assert [p[:2] for p in r.points()] == [p[:2] for p in plain.points()]
    assert r.d.x == 120 and r.d.data_flag


def test_both_flags_report_the_higher_priority_channel() -> None:
    r = Rig()
    r.cono(0o100 | (3 << 3) | 5)
    r.d.pen = (2, 500)
    r.feed([param(mode=NPNT, lp=True), py(500), px(0, mode=NCHR), chars(0o01, 0o40, 0o40)])
    r.settle()
    assert r.coni() & LPEN and r.d.data_flag  # character mode goes on after a hit
    assert r.d.request() == 3
    r.cono((3 << 3) | 5)  # resume clears the light-pen flag
    assert r.d.request() == 5


@settings(max_examples=120, deadline=None)
@given(
    mode=st.sampled_from([3, 4, 5, 6]),
    x=st.sampled_from([0, 7, 500, 1000, 1023]),
    y=st.sampled_from([0, 9, 500, 1010, 1023]),
    scale=st.integers(0, 3),
    halves=st.lists(st.integers(0, 0o777777), min_size=2, max_size=12),
)
@example(mode=3, x=1000, y=500, scale=2, halves=[chars(1, 2, 3), chars(4, 5, 6)])  # 1000+24
@example(mode=3, x=1006, y=500, scale=0, halves=[chars(1, 2, 3), chars(0o37, 0, 0)])  # 1024
@example(mode=3, x=1018, y=1016, scale=0, halves=[chars(1, 0o33, 3), chars(4, 5, 6)])
@example(mode=4, x=1000, y=500, scale=0, halves=[vec(24, 0), vec(-24, 0)])  # reaches 1024
@example(mode=4, x=999, y=23, scale=0, halves=[vec(24, -23), vec(-24, -1)])
def test_fast_paths_match_the_step_loops(mode: int, x: int, y: int, scale: int,
                                         halves: list[int]) -> None:  # fmt: skip
    """Whole vectors/characters at once (``Display340.fast``) give exactly what the
    step-by-step loops give, edges and all, for any words."""
    halves = halves[: len(halves) // 2 * 2]
    outcomes = []
    for fast in (True, False):
        r = rig_at(x, y, mode, scale=scale)
        r.d.fast = fast
        for i in range(0, len(halves), 2):
            while not r.d.data_flag and (e := r.d.next_event()) < r.t + 10**9:
                r.run_to(e)
            if not r.d.data_flag:
                break  # stopped, hung or running a long vector continue
            r.datao((halves[i] << 18) | halves[i + 1])
        r.run_to(r.t + 10**9)
        outcomes.append((r.points(), r.coni(), r.d.data_in(), r.d.mode, r.d.shift, r.t))
    assert outcomes[0] == outcomes[1]


_WORDS = st.one_of(
    st.integers(0, 0o777777),
    st.builds(
        lambda m, v: m | v,
        st.sampled_from([NPNT, NCHR, NVEC, 0o120000, 0o140000]),
        st.integers(0, 0o7777),
    ),  # fmt: skip
    st.builds(vec, st.integers(-127, 127), st.integers(-127, 127), escape=st.booleans()),
)
_ACTIONS = st.lists(
    st.tuples(
        st.integers(0, 250_000),  # ns to wait first
        st.sampled_from(["datao", "datao", "datao", "cono", "service"]),
        _WORDS,
        _WORDS,
        st.sampled_from([0o67, 0o167, 0o100, 0o12]),
    ),
    min_size=1,
    max_size=25,
)


@settings(max_examples=150, deadline=None)
@given(actions=_ACTIONS, pen=st.one_of(st.none(), st.tuples(st.integers(0, 1023),
                                                             st.integers(0, 1023))))  # fmt: skip
def test_fast_paths_change_nothing_visible(actions, pen) -> None:
    """The whole-vector/character fast paths give, at every moment, the same CONI,
    requests, DATAI and points as the plain step loops, whatever DATAOs and CONOs
    (initialize, resume) land in the middle of words, with or without a light pen."""
    runs = []
    for fast in (True, False):
        r = Rig()
        r.d.fast = fast
        r.d.pen = pen
        seen = []
        for wait, kind, a, b, cono in actions:
            r.run_to(r.t + wait)
            if kind == "datao":
                r.d.datao((a << 18) | b)
            elif kind == "cono":
                r.d.cono(cono)
            seen.append((r.t, r.coni(), r.d.request(), r.d.data_in(), r.d.next_event()))
        r.run_to(r.t + 3_000_000)
        seen.append((r.coni(), r.d.data_in(), r.d.words, r.points()))
        runs.append(seen)
    assert runs[0] == runs[1]


def _lp_run(words: list[int], pen, conos: list[tuple[int, int]], until: int = 10**7) -> Rig:
    """Light pen on, beam at (500, 500) in vector mode, then ``words`` fed at once (one
    pair) and the CONOs at their times (ns after the feed), up to ``until`` after it."""
    r = Rig()
    r.cono(0o100 | 0o67)
    r.d.pen = pen
    r.feed([param(mode=NPNT, lp=True), py(500), px(500, mode=NPAR), param(mode=NVEC)])
    r.settle()
    t0 = r.t
    r.d.datao((words[0] << 18) | words[1])
    for at, value in conos:
        r.run_to(t0 + at)
        r.d.cono(value)
    r.run_to(t0 + until)
    return r


# A vector pair with the light pen somewhere on the first vector and a resume after the
# feed (ns), for the tests of CONOs in mid-word.
LP_CASE = {
    "dx": st.integers(-60, 60),
    "dy": st.integers(-60, 60),
    "hit": st.integers(0, 60),
    "resume": st.integers(0, 400_000),
}


@settings(max_examples=80, deadline=None)
@given(**LP_CASE, init=st.integers(0, 400_000))
def test_cono_mid_word_changes_nothing_before_it(dx, dy, hit, resume, init) -> None:
    """A resume in the middle of a word drops nothing drawn; an initialize at T leaves
    everything before T as it was, even after an earlier resume in the same word."""
    words = [vec(dx, dy), vec(-dx, -dy)]
    pen = (500 + dx * hit // 60, 500 + dy * hit // 60)  # somewhere on the first vector
    init = max(init, resume + 1)
    far = _lp_run(words, (0, 1023), [])
    far_resumed = _lp_run(words, (0, 1023), [(resume, 0o67)])
    assert far_resumed.points() == far.points()  # no hit: a resume changes nothing
    resumed = _lp_run(words, pen, [(resume, 0o67)])
    both = _lp_run(words, pen, [(resume, 0o67), (init, 0o167)])
    t_init = both.t - 10**7 + init
    assert [p for p in both.points() if p[3] <= t_init] == [
        p for p in resumed.points() if p[3] <= t_init
    ]
    assert all(p[3] <= t_init for p in both.points())


# --- the register table and snapshots -------------------------------------------------


def _copy(r: Rig) -> Rig:
    """A second 340 at ``r``'s time given ``r``'s registers as a snapshot restores
    them: every one of the table set in order (the word in progress last), then told."""
    r.d.service(r.t)  # what is due, as a snapshot serves the devices first
    c = Rig()
    c.st[S.TIME] = r.t
    c.d.pen = r.d.pen
    for reg in r.d.registers:
        setattr(c.d, reg.attr, getattr(r.d, reg.attr))
    c.d.registers_changed()
    return c


def _visible(r: Rig, until: int) -> list[tuple[int, ...]]:
    """What the processor sees at each of the 340's events up to ``until``."""
    seen = []
    while (e := r.d.next_event()) <= until:
        r.run_to(e)
        seen.append((r.t, r.coni(), r.d.data_in(), r.d.requests()))
    r.run_to(until)
    return seen


@settings(max_examples=80, deadline=None)
@given(**LP_CASE, cut=st.integers(0, 400_000), init=st.integers(0, 400_000))
def test_a_snapshot_in_mid_word_goes_on_as_the_340_would(dx, dy, hit, resume, cut,
                                                         init) -> None:  # fmt: skip
    """Copied at any moment (in a vector, paused on a light-pen hit, after a resume),
    a 340 given the registers goes on exactly as the one it was copied from: the same
    points after that moment, the same CONI, DATAI and requests at every event, through
    a later resume or initialize."""
    words = [vec(dx, dy), vec(-dx, -dy)]
    pen = (500 + dx * hit // 60, 500 + dy * hit // 60)
    conos = sorted([(resume, 0o67), (max(init, resume + 1), 0o167)])
    r = _lp_run(words, pen, [c for c in conos if c[0] <= cut], until=cut)
    c = _copy(r)
    t0 = r.t - cut
    runs = []
    for rig in (r, c):
        seen = []
        for at, value in conos:
            if at > cut:
                seen += _visible(rig, t0 + at)
                rig.d.cono(value)
        seen += _visible(rig, t0 + 10**7)
        runs.append((seen, [p for p in rig.points() if p[3] > t0 + cut]))
    assert runs[1] == runs[0]
    assert [getattr(c.d, reg.attr) for reg in c.d.registers[:-3]] == [
        getattr(r.d, reg.attr) for reg in r.d.registers[:-3]
    ]


def test_the_word_in_progress_is_refused_when_malformed() -> None:
    r = rig_at(100, 100, 4)
    r.d.datao((vec(50, 0) << 18) | vec(-50, 0))
    r.run_to(r.t + 20_000)
    check = r.d.register("plan").check
    good = r.d.plan
    check(good)  # a busy 340: the word, its start and the state it started from
    for bad, why in [
        (good[:-3], "not a list of numbers"),
        (b"", "no state"),
        ((9).to_bytes(8, "little") + good[8:], "no state"),
        (good[:72], "no word in progress"),
        ((0).to_bytes(8, "little") + good[8:], "not busy"),
        (good[:72] + (1 << 18).to_bytes(8, "little") + good[80:], "out of range"),  # the word
    ]:
        with pytest.raises(ValueError, match=why):
            check(bad)


def test_a_deposit_between_words_shows_in_coni_at_once() -> None:
    r = rig_at(100, 100, 4)
    r.settle()
    assert (r.coni() >> 15) & 7 == 4
    r.d.mode = 1
    r.d.registers_changed()
    assert (r.coni() >> 15) & 7 == 1


def test_keep_ns_bounds_the_point_list_and_keeps_the_recent_points() -> None:
    words = [vec(20, 20), vec(-20, -20)] * 300
    full = rig_at(100, 100, 4)
    full.feed(words)
    full.settle()
    r = rig_at(100, 100, 4)
    r.d.keep_ns, r.d.trim_at = 1_000_000, 2000
    r.feed(words)
    r.settle()
    kept = r.points()
    assert len(kept) < 2000 + 100 < len(full.points())
    assert kept == full.points()[-len(kept) :]


def test_timing_of_a_vector_word_pair_is_consumed_in_emulated_time() -> None:
    r = rig_at(0, 0, 4)
    t0 = r.t
    r.feed([vec(10, 10), vec(100, 0, escape=True)])
    r.settle()
    assert r.t - t0 == (IDP + 64 * STEP) + (IDP + 128 * STEP)
    assert SYNC == 2800 and r.d.words == 6


# --- the packed event: one layout for the loop and the device ----------------------------------
@given(st.tuples(st.integers(0, 7), *[st.integers(0, 1)] * 5, st.integers(0, 0o1777),
                 st.integers(0, 0o1777)))  # fmt: skip
def test_an_event_packs_and_unpacks_alike_in_the_loop_and_the_device(
    vis: tuple[int, ...],
) -> None:
    """The visible state an event keeps (mode hef vef lp stop_int rfd x y) is packed in
    one word by the loop (``dis_pack``, ``dis_unpack``) and read and written by the
    device's Python through the same table, ``dis340.VIS_FIELDS``: each side reads what
    the other wrote."""
    from pdp6.cpu import dis340 as L
    from pdp6.devices.display340 import Display340
    from pdp6.machine import Machine

    fields = L.VIS_FIELDS
    assert [s for s, _ in fields] == sorted(s for s, _ in fields)
    for (shift, mask), (after, _) in zip(fields, fields[1:], strict=False):
        assert shift + mask.bit_length() == after  # next to each other, none overlapping
    assert L.EV_RFD == 1 << fields[5][0]
    pack = getattr(L.dis_pack, "py_func", L.dis_pack)  # (the Python, compiled or not)
    unpack = getattr(L.dis_unpack, "py_func", L.dis_unpack)
    packed = pack(*vis)
    io = [0] * L.IO_SIZE
    unpack(io, packed)
    assert tuple(io[L.D_VIS : L.D_VIS + 8]) == vis
    m = Machine(engine="interpreter")
    d = m.attach(Display340())
    d._events.append((123, *vis))
    k = L.D_EV + L.EV_WIDTH * int(m._io[L.D_EV_HEAD])
    assert m._io[k + 1] == packed  # the device wrote what the loop packs
    moved = (*vis[:6], 0o1777 - vis[6], vis[7])
    m._io[k + 1] = pack(*moved)  # the loop writes
    assert d._events[0] == (123, *moved)  # the device reads it
