"""Paper tape reader 104 and punch 100 (reference 2.4): modes, flags, timing, host
files, and the PDP-6 read-in procedure booting tapes that ``midas`` wrote."""

from __future__ import annotations

import pytest

from pdp6 import Machine
from pdp6.devices import PaperTapePunch, PaperTapeReader, ScriptedHost, Teletype
from pdp6.devices.papertape import (
    PUNCH_FRAME_NS,
    PUNCH_MOTOR_START_NS,
    READER_FRAME_NS,
)
from pdp6.formats.readin import (
    RIM_LOADER,
    rim_pairs,
    tape_frames,
    toggle_rim_loader,
    words_to_frames,
)
from pdp6.formats.wordfile import encode_words
from pdp6.host.runner import Runner

from .conftest import halt, ins, io
from .console_helpers import (
    Programs,
    programs_fixture,  # noqa: F401  (the programs fixture)
)

BUF = 0o200


def reader_machine(tape: bytes, words: list[int]) -> tuple[Machine, PaperTapeReader]:
    m = Machine(engine="python")
    ptr = m.attach(PaperTapeReader())
    ptr.attach(tape)
    m.memory.load(0o100, words)
    m.pc = 0o100
    return m, ptr


def read_loop(cono: int, count: int) -> list[int]:
    """Start the reader with ``cono`` and DATAI ``count`` times into BUF, BUF+1, ..."""
    return [
        io("CONO", "PTR", cono),                      # 100
        ins("MOVSI", 2, -count & 0o777777),           # 101
        io("CONSO", "PTR", 0o10), ins("JRST", 0, 0o102),  # 102: wait for the flag
        io("DATAI", "PTR", BUF, x=2),                 # 104
        ins("AOBJN", 2, 0o102),                       # 105
        halt(0o106),
    ]  # fmt: skip


def test_reader_ascii_mode_reads_every_frame_including_leader() -> None:
    tape = b"\0\0AB\x8aC"
    m, ptr = reader_machine(tape, read_loop(0o20, len(tape)))
    assert m.run(max_instructions=100_000).reason == "halt"
    assert m.memory[BUF : BUF + len(tape)] == list(tape)
    assert ptr.remaining == 0
    # 400 frames a second: six frames take 15 ms (plus a few instructions per frame:
    # the reader starts the next frame when the program has read the last).
    assert 6 * READER_FRAME_NS <= m.elapsed_ns < 6 * READER_FRAME_NS + 300_000


def test_reader_binary_mode_packs_six_hole_8_frames_and_skips_the_rest() -> None:
    words = [0o123456_765432, 0o777777_000001]
    frames = bytearray(words_to_frames(words))
    frames[6:6] = b"\x00\x3f"  # frames without hole 8 between the words are skipped
    m, _ = reader_machine(b"\0\0" + bytes(frames), read_loop(0o60, 2))
    assert m.run(max_instructions=100_000).reason == "halt"
    assert m.memory[BUF : BUF + 2] == words


def test_reader_cono_coni_and_end_of_tape() -> None:
    m, ptr = reader_machine(b"A", [ins("JRST", 0, 0o100)])
    ptr.cono(0o77)  # binary, busy, flag, PIA 7
    assert ptr.coni() == 0o477  # motor on while busy
    assert ptr.request() == 7
    ptr.cono(0o20)  # CONO clears everything it does not set
    assert ptr.coni() == 0o420
    m.run(until_us=10_000)
    assert ptr.coni() == 0o010  # the frame is in: flag, motor off
    ptr.on_datai()  # reading restarts the reader, but the tape is out
    m.run(until_us=20_000)
    assert ptr.coni() == 0o420  # busy forever, no flag


def test_punch_one_frame_per_datao_in_both_modes() -> None:
    m = Machine(engine="python")
    ptp = m.attach(PaperTapePunch())
    words = [
        io("CONO", "PTP", 0o10),                                 # 100: flag: ready
        io("DATAO", "PTP", BUF),                                 # 101: ASCII frame
        io("CONSO", "PTP", 0o10), ins("JRST", 0, 0o102),         # 102
        io("CONO", "PTP", 0o50),                                 # 104: binary mode
        io("DATAO", "PTP", BUF + 1),                             # 105: binary frame
        io("CONSO", "PTP", 0o10), ins("JRST", 0, 0o106),         # 106
        halt(0o110),
    ]  # fmt: skip
    m.memory.load(0o100, words)
    m.memory[BUF] = 0o777  # low 8 bits: 377
    m.memory[BUF + 1] = 0o1234  # low 6 bits + hole 8: 234
    m.pc = 0o100
    assert m.run(max_instructions=1_000_000).reason == "halt"
    assert bytes(ptp.punched) == bytes([0o377, 0o234])
    # The motor's second to start, then 63.3 frames a second: two frames, about 31.6 ms.
    up = PUNCH_MOTOR_START_NS
    assert up + 2 * PUNCH_FRAME_NS <= m.elapsed_ns < up + 2 * PUNCH_FRAME_NS + 100_000


def count_ticks_while_busy(device: str, start: list[int], tape: bytes = b"") -> int:
    """Run ``start`` (which makes ``device`` busy), then count 60 Hz clock flags until
    its done flag rises; returns the count."""
    m = Machine(engine="python")
    m.attach(PaperTapePunch())
    m.attach(PaperTapeReader()).attach(tape)
    wait = 0o100 + len(start)
    words = [
        *start,
        io("CONSZ", device, 0o10), ins("JRST", 0, wait + 7),    # done: halt
        io("CONSO", "APR", 0o1000), ins("JRST", 0, wait),       # no tick yet
        ins("AOS", 0, 0o300), io("CONO", "APR", 0o1000),        # count it, clear it
        ins("JRST", 0, wait),
        halt(wait + 7),
    ]  # fmt: skip
    m.memory.load(0o100, words)
    m.memory[BUF] = 0o101
    m.pc = 0o100
    assert m.run(max_instructions=10_000_000).reason == "halt"
    return m.memory[0o300]


def test_the_punch_motor_takes_a_second_to_start() -> None:
    # Reference 2.4 (aap): the first frame waits for the motor, about a second: a program
    # counting clock ticks meanwhile sees about 60 (DEC's diagnostic accepts 49-64).
    first = [io("CONO", "PTP", 0), io("DATAO", "PTP", BUF)]
    assert 49 <= count_ticks_while_busy("PTP", first) <= 64
    # With the motor running, a frame takes at most 15.8 ms: a tick, or none.
    wait = [io("CONSO", "PTP", 0o10), ins("JRST", 0, 0o102), io("CONO", "APR", 0o1000)]
    second = [*first, *wait, io("DATAO", "PTP", BUF)]
    assert count_ticks_while_busy("PTP", second) <= 1


def test_the_reader_reads_400_frames_a_second() -> None:
    # Binary mode skips frames without hole 8: a word behind 100 blank frames comes after
    # 106 frames of 2.5 ms, 265 ms, in which the 60 Hz clock ticks 15 or 16 times.
    tape = bytes(100) + bytes([0o201] * 6)
    assert 15 <= count_ticks_while_busy("PTR", [io("CONO", "PTR", 0o60)], tape) <= 16


def test_tape_frames_turns_a_midas_word_file_into_binary_frames(programs: Programs) -> None:
    data = programs.echo_rim.read_bytes()
    frames = tape_frames(data)
    assert len(frames) == len(data) // 9 * 2 * 6  # six frames a word
    assert all(f & 0o200 for f in frames)
    assert tape_frames(b"HELLO\r\n") == b"HELLO\r\n"  # not a word file: frames as they are
    bogus = encode_words([0o123, 0o456])  # a word file, but not a loadable binary
    assert tape_frames(bogus) == bogus


def test_rim_loader_is_the_eight_words_of_the_bootstrap() -> None:
    assert len(RIM_LOADER) == 8
    m = Machine(engine="python")
    toggle_rim_loader(m)
    assert m.pc == 0o20
    assert m.memory[0o20:0o30] == list(RIM_LOADER)
    assert m.memory[0o20] == io("CONO", "PTR", 0o60)
    assert m.memory[0o23] == io("DATAI", "PTR", 0o26)


def test_read_in_of_hand_made_rim_pairs_halts_at_the_start() -> None:
    pairs = rim_pairs({0o1000: ins("MOVEI", 1, 42), 0o1001: halt(0o1001)}, 0o1000)
    m, _ = reader_machine(words_to_frames(pairs), [])
    toggle_rim_loader(m)
    stop = m.run(max_instructions=100_000)
    assert (stop.reason, m.pc) == ("halt", 0o1000)  # JRST 4,start: press CONTINUE
    assert m.run(max_instructions=10).reason == "halt"
    assert m.memory[1] == 42


@pytest.mark.parametrize("which", ["echo_rim", "echo"])
def test_midas_tape_boots_through_the_read_in_loader_and_runs(
    programs: Programs, which: str
) -> None:
    """A RIM tape (and an SBLK one, whose RIM prologue loads its own loader) from midas."""
    m = Machine(engine="python")
    host = ScriptedHost("OK\n")
    tty = m.attach(Teletype(host, baud=None))
    ptr = m.attach(PaperTapeReader(fast=True))
    ptr.attach(tape_frames(getattr(programs, which).read_bytes()))
    toggle_rim_loader(m)
    outcome = Runner(m, tty, grace_us=100_000).run(until_us=20e6)
    assert outcome.reason == "end of input"
    assert host.output == "ECHO READY\nOK\n"
