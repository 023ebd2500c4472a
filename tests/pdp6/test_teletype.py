"""The console teletype, device 120 (reference 2.3): registers bit for bit, timing in
emulated time against 110 baud, the host adapters, and the two MIDAS echo programs run
end to end with the scripted adapter."""

from __future__ import annotations

import io as iolib
from pathlib import Path
from typing import Any

import pytest

import midas
from pdp6 import Machine
from pdp6.cpu.engines import ALL_ENGINES, ENGINES
from pdp6.devices import ScriptedHost, Teletype, TeletypeHost
from pdp6.formats.loader import load_file, load_into
from pdp6.host import runner as runner_module
from pdp6.host.runner import Runner
from pdp6.host.terminal import StreamHost, model35_key

from .conftest import halt, ins, io
from .console_helpers import (
    Programs,
    programs_fixture,  # noqa: F401  (the programs fixture)
)

CHAR_110_NS = 100_000_000  # 11 bits at 110 baud
RESULT = 0o200


class ClockedHost(TeletypeHost):
    """Records the emulated time of every printed character."""

    def __init__(self, machine: Machine, keys: bytes = b"") -> None:
        self.m = machine
        self.times: list[int] = []
        self.chars = bytearray()
        self.keys = bytearray(keys)

    def print_char(self, code: int) -> None:
        self.times.append(self.m.elapsed_ns)
        self.chars.append(code)

    def key_ready(self) -> bool:
        return bool(self.keys)

    def read_key(self) -> int | None:
        return self.keys.pop(0) if self.keys else None


def machine_with(words: list[int], host: TeletypeHost | None = None, baud: int | None = 110,
                 engine: str = "python") -> tuple[Machine, Teletype]:  # fmt: skip
    m = Machine(engine=engine)
    tty = m.attach(Teletype(host or ScriptedHost(eof=False), baud=baud))
    m.memory.load(0o100, words)
    m.pc = 0o100
    return m, tty


def coni_after(cono: int, preset: int | None = None) -> int:
    """CONI TTY after ``CONO TTY,preset`` (if given) and ``CONO TTY,cono``."""
    words = [io("CONO", "TTY", preset)] if preset is not None else []
    words += [io("CONO", "TTY", cono), io("CONI", "TTY", RESULT), halt(0o110)]
    m, _ = machine_with(words)
    assert m.run(max_instructions=10).reason == "halt"
    return m.memory[RESULT]


# --- registers ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "cono, coni",
    [
        (0o100, 0o100),  # set input busy
        (0o040, 0o040),  # set input flag
        (0o020, 0o020),  # set output busy
        (0o010, 0o010),  # set output flag
        (0o005, 0o005),  # PIA
        (0o175, 0o175),  # everything at once
        (0, 0),
    ],
)
def test_cono_sets_coni_bits(cono: int, coni: int) -> None:
    assert coni_after(cono) == coni


@pytest.mark.parametrize(
    "clear, remaining", [(0o2000, 0o070), (0o1000, 0o130), (0o400, 0o150), (0o200, 0o160)]
)
def test_cono_clear_bits_clear_one_flip_flop_each(clear: int, remaining: int) -> None:
    # Preset all four flags (and PIA 7); the clear bit takes away exactly one; the PIA is
    # replaced by the new CONO's (0).
    assert coni_after(clear, preset=0o177) == remaining


def test_set_and_clear_in_one_cono_leaves_the_flip_flop_clear() -> None:
    assert coni_after(0o2100) == 0  # aap applies set before clear
    assert coni_after(0o0210) == 0


def test_every_cono_replaces_the_pia() -> None:
    assert coni_after(0o003, preset=0o007) == 0o003
    assert coni_after(0o010, preset=0o007) == 0o010


def test_io_reset_clears_the_teletype() -> None:
    words = [io("CONO", "TTY", 0o177), io("CONO", "APR", 0o200000),
             io("CONI", "TTY", RESULT), halt(0o103)]  # fmt: skip
    m, _ = machine_with(words)
    m.run(max_instructions=10)
    assert m.memory[RESULT] == 0


def test_request_follows_either_flag_on_the_pia() -> None:
    tty = Teletype(ScriptedHost())
    tty.cono(0o3)
    assert tty.request() == 0
    tty.cono(0o13)  # output flag
    assert tty.request() == 3
    tty.cono(0o43)  # input flag only
    assert tty.request() == 3
    tty.cono(0o40)  # flag, but no PIA
    assert tty.request() == 0


# --- output timing ------------------------------------------------------------------------------
def type_out(text: bytes, baud: int | None) -> ClockedHost:
    """Run a polling program that types ``text``; return the clocked host."""
    words = [io("CONO", "TTY", 0o10), ins("MOVSI", 2, -len(text) & 0o777777)]
    loop = 0o102
    words += [
        io("CONSO", "TTY", 0o10),  # 102: wait for the printer
        ins("JRST", 0, loop),
        io("DATAO", "TTY", 0o200, x=2),  # 104: DATAO TTY,200(2)
        ins("AOBJN", 2, loop),
        io("CONSO", "TTY", 0o10),  # 106: wait for the last character
        ins("JRST", 0, 0o106),
        halt(0o110),
    ]
    m = Machine(engine="python")
    host = ClockedHost(m)
    m.attach(Teletype(host, baud=baud))
    m.memory.load(0o100, words)
    m.memory.load(0o200, list(text))
    m.pc = 0o100
    assert m.run(max_instructions=10_000_000).reason == "halt"
    host.end = m.elapsed_ns  # type: ignore[attr-defined]
    return host


def test_output_at_110_baud_is_ten_characters_a_second() -> None:
    host = type_out(b"0123456789", 110)
    assert bytes(host.chars) == b"0123456789"
    gaps = [b - a for a, b in zip(host.times, host.times[1:], strict=False)]
    # Each character waits for the previous one's 11 bits (100 ms) plus a few
    # instructions of polling (well under 40 us).
    assert all(CHAR_110_NS <= g < CHAR_110_NS + 40_000 for g in gaps), gaps
    total = host.end - host.times[0]  # type: ignore[attr-defined]
    assert 10 * CHAR_110_NS <= total < 10 * CHAR_110_NS + 400_000  # 1.0 s for 10 chars


def test_output_at_300_baud_and_in_fast_mode() -> None:
    host = type_out(b"ABC", 300)
    gaps = [b - a for a, b in zip(host.times, host.times[1:], strict=False)]
    assert all(36_666_667 <= g < 36_666_667 + 40_000 for g in gaps), gaps
    host = type_out(b"ABC", None)
    gaps = [b - a for a, b in zip(host.times, host.times[1:], strict=False)]
    assert all(10_000 <= g < 50_000 for g in gaps), gaps


def test_datao_clears_the_flag_and_sets_busy_until_the_character_has_gone() -> None:
    words = [io("CONO", "TTY", 0o10), io("DATAO", "TTY", 0o200), io("CONI", "TTY", 0o201),
             ins("JRST", 0, 0o103)]  # fmt: skip
    m, tty = machine_with(words)
    m.memory[0o200] = ord("X")
    m.run(max_instructions=3)
    assert m.memory[0o201] == 0o020  # busy, no flag
    assert tty.host.output == "X"  # type: ignore[attr-defined]
    m.run(until_us=m.elapsed_us + 99_000)
    assert tty.coni() == 0o020  # still sending at 99 ms
    m.run(until_us=m.elapsed_us + 2_000)
    assert tty.coni() == 0o010  # done: flag, not busy


# --- input ---------------------------------------------------------------------------------------
def test_input_flag_rises_nine_bit_times_after_the_key() -> None:
    words = [io("CONSO", "TTY", 0o40), ins("JRST", 0, 0o100), io("DATAI", "TTY", RESULT),
             halt(0o103)]  # fmt: skip
    m, tty = machine_with(words, ScriptedHost("K"))
    assert m.run(max_instructions=1_000_000).reason == "halt"
    assert m.memory[RESULT] == ord("K")
    assert 9 * CHAR_110_NS // 11 <= m.elapsed_ns < 9 * CHAR_110_NS // 11 + 20_000
    assert tty.coni() & 0o40 == 0  # DATAI cleared the flag


def test_next_key_waits_until_the_program_has_read_the_last() -> None:
    # The program dawdles ~0.5 s (emulated) before each DATAI; a second key arriving at
    # line speed would overrun a real interface, the scripted typist waits instead.
    words = [
        io("CONSO", "TTY", 0o40), ins("JRST", 0, 0o100),  # 100: wait for a key
        ins("MOVEI", 3, 60_000), ins("SOJG", 3, 0o103),   # 102: dawdle
        io("DATAI", "TTY", RESULT, x=4),                  # 104: DATAI TTY,200(4)
        ins("AOJ", 4, 0), ins("CAIGE", 4, 2), ins("JRST", 0, 0o100),
        halt(0o110),
    ]  # fmt: skip
    m, _ = machine_with(words, ScriptedHost("XY"))
    assert m.run(max_instructions=10_000_000).reason == "halt"
    assert [m.memory[RESULT], m.memory[RESULT + 1]] == [ord("X"), ord("Y")]


def test_scripted_newline_is_the_return_key() -> None:
    host = ScriptedHost("A\nB")
    assert [host.read_key() for _ in range(3)] == [ord("A"), 0o15, ord("B")]
    assert host.at_end()


# --- host adapters --------------------------------------------------------------------------
def test_model35_keyboard_types_upper_case_and_return() -> None:
    assert model35_key(ord("a")) == ord("A")
    assert model35_key(ord("z")) == ord("Z")
    assert model35_key(ord("{")) == ord("{")
    assert model35_key(0o12) == 0o15
    assert model35_key(ord("a"), upcase=False) == ord("a")


def test_stream_host_prints_text_lines_without_padding_or_parity() -> None:
    out = iolib.BytesIO()
    host = StreamHost(out, iolib.BytesIO(b"hi\n"))
    for code in (0o310, 0o211 | 0o200, 0, 0o177, 0o15, 0o12, ord("A"), 0o15, ord("B")):
        host.print_char(code)
    host.finish_output()
    # H with parity, I, NUL and RUBOUT dropped, CR LF -> newline, a lone CR kept.
    assert out.getvalue() == b"H\t\nA\rB"
    keys = [host.read_key() for _ in range(3)]
    assert keys == [ord("H"), ord("I"), 0o15]
    assert host.at_end()


def test_stream_host_without_input_ends_when_typed_keys_are_used_up() -> None:
    host = StreamHost(iolib.BytesIO())
    assert host.at_end()
    host.type("go")
    assert not host.at_end()
    assert [host.read_key(), host.read_key()] == [ord("G"), ord("O")]
    assert host.at_end()


# --- the echo programs, end to end -------------------------------------------------------------
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", ["echo", "echoint"])
def test_echo_program_over_the_teletype(programs: Programs, name: str, engine: str) -> None:
    m = Machine(engine=engine)
    m.pc = load_into(m.memory, load_file(getattr(programs, name)))
    host = ScriptedHost("HELLO THERE\nP-K4\n")
    tty = m.attach(Teletype(host))
    outcome = Runner(m, tty).run(until_us=30e6)
    assert outcome.reason == "end of input"
    greeting = "ECHO READY\n" if name == "echo" else ""
    assert host.output == greeting + "HELLO THERE\nP-K4\n"
    # 17 keys in, each taking 100 ms at 110 baud: the run took at least that long in
    # emulated time, plus the 2 s grace after the last character.
    assert m.elapsed_us >= 17 * 100_000 + 2_000_000
    assert tty.characters_in == 17


def test_interrupt_echo_takes_keys_at_interrupt_level(programs: Programs) -> None:
    m = Machine(engine="python")
    m.pc = load_into(m.memory, load_file(programs.echoint))
    host = ScriptedHost("AB", eof=False)
    tty = m.attach(Teletype(host))
    m.run(until_us=1e6)
    assert host.output == "AB"
    assert m.pi.active and m.pi.on == 0o100  # channel 1 on
    assert tty.pia == 1
    assert m.pc == load_file(programs.echoint).start + 3  # the main program's JRST .


# --- fast mode and a program that takes keys through a one-word mailbox ------------------------
def mailbox_run(baud: int | None, engine: str) -> tuple[int, int]:
    """Type three lines of PLAY into tests/pdp6/programs/mailbox.mid; (good, bad) lines."""
    program = midas.assemble_file(Path(__file__).parent / "programs" / "mailbox.mid")
    assert not program.errors and program.start is not None
    m = Machine(engine=engine)
    for address, word in program.words.items():
        m.memory[address] = word
    m.pc = program.start
    host = ScriptedHost("PLAY\nPLAY\nPLAY\n")
    m.attach(Teletype(host, baud=baud))
    m.run(until_us=3e6)
    assert host.at_end()
    return m.memory[program.symbols["GOOD"]], m.memory[program.symbols["BAD"]]


@pytest.mark.parametrize("engine", ALL_ENGINES)
def test_fast_mode_gives_a_mailbox_program_time_to_take_each_key(engine: str) -> None:
    # It works at 110 baud; in fast mode the next key must not arrive before the main
    # program has emptied the mailbox (it would overwrite the last, and every line be bad).
    assert mailbox_run(110, engine) == (3, 0)
    assert mailbox_run(None, engine) == (3, 0)


# --- the keyboard of a live terminal: looked at between the runner's chunks (issue 28) ----------
def test_under_the_runner_the_keyboard_is_not_looked_at_within_a_run() -> None:
    """A keyboard that may yet type (a terminal's) is looked at on a grid of 20 ms of
    emulated time by a bare ``run``, and each look leaves the execute loop.  The runner
    looks between its chunks instead, so while a program computes and nobody types the
    loop runs a chunk at a time; after the run the grid is back for the bare ``run``."""
    m, tty = machine_with([ins("AOJA", 1, 0o100)], ScriptedHost(eof=False), baud=None)
    calls = 0
    loop = m._run

    def counted(*args: Any) -> int:
        nonlocal calls
        calls += args[-1] > 1  # (not the runner's single steps, that look at the PCs)
        return loop(*args)

    m._run = counted
    m.run(until_us=1e6)
    assert calls == 1_000_000_000 // 20_000_000  # the bare run: a look every 20 ms
    calls = 0
    runner = Runner(m, tty, chunk_wall_s=10.0)  # (chunks as long as the runner takes)
    runner.chunk_us = runner_module.MAX_CHUNK_US
    assert runner.run(until_us=6e6).reason == "time limit"
    assert calls == 1  # one chunk of 5 s: the loop left once
    assert tty.poll_ns == 20_000_000
    calls = 0
    m.run(until_us=6.1e6)
    assert calls == 5


def test_a_key_typed_during_a_runners_chunk_arrives_when_the_next_begins() -> None:
    """The runner looks at the host between chunks: keys that came meanwhile start to
    arrive as the next chunk begins, in order, none lost."""
    host = ScriptedHost(eof=False)
    reader = [io("CONSO", "TTY", 0o40), ins("JRST", 0, 0o100), io("DATAI", "TTY", 1),
              ins("MOVEM", 1, 0o200, x=2), ins("AOJA", 2, 0o100)]  # fmt: skip
    m, tty = machine_with(reader, host, baud=None)
    typed = {3: "A", 4: "BC", 9: "DEF"}  # at the chunks so numbered
    chunks = 0

    def between() -> None:
        nonlocal chunks
        chunks += 1
        if chunks in typed:
            host.type(typed[chunks])

    Runner(m, tty, between=between).run(until_us=1e6)
    assert [chr(m.memory[0o200 + i]) for i in range(m.memory[2])] == list("ABCDEF")
    assert tty.characters_in == 6


class StoppingHost(ScriptedHost):
    """Asks to stop (Ctrl-C at a terminal) as it prints its ``after``-th character."""

    def __init__(self, after: int) -> None:
        super().__init__(eof=False)
        self.after = after

    def print_char(self, code: int) -> None:
        super().print_char(code)
        self.stop_requested = len(self.printed) == self.after


PRINT_FOREVER = [io("DATAO", "TTY", 0o200), io("CONSO", "TTY", 0o10), ins("JRST", 0, 0o101),
                 ins("AOS", 0, 0o200), ins("JRST", 0, 0o100)]  # fmt: skip


@pytest.mark.parametrize("engine", ALL_ENGINES)
def test_a_stop_request_ends_the_run_after_the_character_printed(engine: str) -> None:
    """A host asked to stop ends the run at once, after the character it printed (its
    printer may be paced to the wall clock, a tenth of a second a character, and the run
    long): the run stops as if its time had come, and the machine goes on from there as
    if it had not been cut."""
    m, tty = machine_with(PRINT_FOREVER, StoppingHost(after=3), baud=110, engine=engine)
    m.memory[0o200] = 0o101
    stop = m.run(until_us=5e6)
    assert stop.reason == "time" and bytes(tty.host.printed) == b"ABC"  # type: ignore[attr-defined]
    tty.host.stop_requested = False
    m.run(until_us=1e6)
    whole, _tty = machine_with(PRINT_FOREVER, ScriptedHost(eof=False), baud=110, engine=engine)
    whole.memory[0o200] = 0o101
    whole.run(until_us=1e6)
    assert (m.pc, m.elapsed_ns, m.memory[0o200]) == (whole.pc, whole.elapsed_ns,
                                                      whole.memory[0o200])  # fmt: skip
    assert bytes(tty.host.printed) == bytes(_tty.host.printed) == b"ABCDEFGHIJ"  # type: ignore[attr-defined]


def test_a_paced_printer_reads_the_keyboard_while_it_waits() -> None:
    """At 110 baud the terminal host waits a tenth of a second a character before the
    next; it reads the keyboard meanwhile, so that Ctrl-C is seen within a character
    (the run then ends after it) and keys typed meanwhile keep their order."""
    import os
    import pty

    from pdp6.host.terminal import TerminalHost

    master, slave = pty.openpty()
    try:
        host = TerminalHost(slave, iolib.BytesIO(), pace_cps=10.0)
        with host.raw():
            host.print_char(ord("X"))  # the paper moves: the next character waits
            os.write(master, b"ab\x03c")
            host.print_char(ord("Y"))
        assert host.stop_requested
        assert list(host.keys) == [ord("A"), ord("B"), ord("C")]
    finally:
        os.close(master)
        os.close(slave)
