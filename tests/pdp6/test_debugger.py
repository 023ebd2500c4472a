"""The debugger engine (``pdp6.host.debugger``) on the example programs: locations, examine
and deposit, breakpoints of all kinds, step/next/finish, the stack, source lines, tapes
and read-in."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pdp6 import Machine
from pdp6.devices import ScriptedHost
from pdp6.host.debugger import DebugError, Debugger

from .console_helpers import (
    Programs,
    programs_fixture,  # noqa: F401  (the programs fixture)
)


def debugger(path: Path, keys: str = "") -> Debugger:
    dbg = Debugger(Machine(engine="python"), ScriptedHost(keys), baud=None, grace_us=50_000)
    dbg.load(path)
    return dbg


@pytest.fixture
def echo(programs: Programs) -> Debugger:
    return debugger(programs.echo)


def sym(dbg: Debugger, name: str) -> int:
    return dbg.symbols[name]


# --- loading, names, locations --------------------------------------------------------------
def test_load_sets_symbols_pc_and_source(echo: Debugger) -> None:
    assert echo.m.pc == sym(echo, "GO") == 0o100
    assert echo.source is not None
    assert echo.where(0o100) == "echo.mid:11"
    assert echo.stack_ac == 0o17  # the program's P
    assert "PDLEN" in echo.symbols  # half-killed: usable in type-in ...
    assert "PDLEN" not in echo.examine(0o20)  # ... never typed out


def test_addresses_by_expression_and_source_line(echo: Debugger) -> None:
    assert echo.address("TYO+2") == 0o125
    assert echo.address("125") == 0o125
    assert echo.address("echo.mid:35") == sym(echo, "TYO")
    assert echo.address(":35") == sym(echo, "TYO")  # the main file
    assert echo.address("echo.mid:34") == sym(echo, "TYO")  # a comment: the next code line
    assert echo.address(".+1") == 0o101  # . is the PC


@pytest.mark.parametrize(
    "text, message",
    [
        ("ZORK", "unknown symbol ZORK"),
        ("echo.mid:999", "echo.mid:999: no code at or after line 999"),
        ("other.mid:3", "no source file 'other.mid' in this program (echo.mid)"),
        ("echo.mid:x", "the line after ':' must be a decimal number"),
        ("GO+", "ends where a value should follow"),
        ("1000000", "address 1000000 is outside 0-777777"),
    ],
)
def test_bad_locations_say_what_is_wrong(echo: Debugger, text: str, message: str) -> None:
    with pytest.raises(DebugError, match=re.escape(message)):
        echo.address(text)


def test_source_lines_need_a_map(programs: Programs, tmp_path: Path) -> None:
    rim = tmp_path / "echo.rim"  # no echo.map beside it here
    rim.write_bytes(programs.echo_rim.read_bytes())
    dbg = debugger(rim)
    assert dbg.source is None and dbg.symbols == {}
    with pytest.raises(DebugError, match="no source-line map is loaded"):
        dbg.address("echo.mid:12")
    with pytest.raises(DebugError, match="no source-line map is loaded"):
        dbg.listing()


def test_examine_and_deposit_are_symbolic(echo: Debugger) -> None:
    assert echo.examine(0o100) == "000100 GO/         200740,,000152   MOVE 17,PDL+20"
    assert echo.examine(0o153).endswith("ANDCB 16,HELLO")  # a byte pointer, as DDT types it
    word = echo.deposit(0o101, "MOVE 1,@TYO+3(2)")
    assert word == 0o200062_000126
    assert echo.examine(0o101).endswith("MOVE 1,@TYO+3(2)")
    assert echo.deposit(0o102, "-1,,LOOP") == 0o777777_000107
    with pytest.raises(DebugError, match="accumulator 20 is not 0-17"):
        echo.deposit(0o100, "MOVE 20,GO")
    assert echo.m.memory[0o100] == 0o200740_000152  # unchanged by the failed deposit


# --- execute breakpoints, step, next, finish ------------------------------------------------------
def test_break_at_a_label_stops_before_it_and_continue_goes_on(echo: Debugger) -> None:
    echo.add_break(sym(echo, "TYO"))
    report = echo.go()
    assert report.outcome.reason == "breakpoint"
    assert report.text.splitlines() == [
        "breakpoint at TYO (000123)  CONSO TTY,10",
        "echo.mid:35  TYO:    CONSO TTY,10            ; output flag: the last character has gone",
    ]
    assert echo.host.output == ""  # type: ignore[attr-defined]
    assert echo.resume().outcome.reason == "breakpoint"
    assert echo.host.output == "E"  # type: ignore[attr-defined]  # one character per stop


def test_break_at_file_line(echo: Debugger) -> None:
    echo.add_break(echo.address("echo.mid:20"))  # PUSHJ P,TYO after reading a key
    assert echo.address("./echo.mid:20") == echo.address("echo.mid:20")  # (as a shell names it)
    echo.type_keys("K")
    report = echo.go()
    assert report.outcome.reason == "breakpoint" and echo.m.pc == 0o110
    assert echo.m.memory[1] == ord("K")


def test_step_goes_into_calls_and_next_over_them(echo: Debugger) -> None:
    echo.add_break(sym(echo, "LOOP"))
    echo.go()
    echo.remove_break(sym(echo, "LOOP"))
    assert echo.step().outcome.reason == "step" and echo.m.pc == sym(echo, "TYI")
    echo.finish()
    echo.m.pc = sym(echo, "LOOP")
    echo.type_keys("Q")
    report = echo.next()  # the whole of TYI, waiting for the key included
    assert report.outcome.reason == "step"
    assert echo.m.pc == sym(echo, "LOOP") + 1
    assert echo.m.memory[1] == ord("Q")
    assert report.text.startswith("LOOP+1 (000110)  PUSHJ 17,TYO\necho.mid:20")


def test_next_stops_at_a_breakpoint_inside_the_call(echo: Debugger) -> None:
    echo.add_break(sym(echo, "LOOP"))
    echo.go()
    echo.add_break(sym(echo, "TYI") + 2)
    echo.type_keys("X")
    report = echo.next()
    assert report.outcome.reason == "breakpoint" and echo.m.pc == sym(echo, "TYI") + 2


def test_finish_returns_to_the_caller_and_pops_the_frame(echo: Debugger) -> None:
    echo.add_break(sym(echo, "TYO"))
    echo.go()  # called from GREET+2
    before = echo.m.memory[0o17]
    report = echo.finish()
    assert report.outcome.reason == "finish"
    assert echo.m.pc == sym(echo, "GREET") + 3
    assert echo.m.memory[0o17] == before - 0o1_000001  # one word popped
    assert report.text.startswith("returned at GREET+3 (000106)  JRST GREET")


def test_finish_without_a_frame_is_refused(echo: Debugger) -> None:
    with pytest.raises(DebugError, match=r"stack pointer \(AC 17\) is 000000,,000000"):
        echo.finish()


def test_stack_and_backtrace(echo: Debugger) -> None:
    echo.add_break(sym(echo, "TYO"))
    echo.go()
    assert echo.backtrace() == [
        "#0  TYO (000123), echo.mid:35",
        "#1  GREET+2 (000105), echo.mid:16",
    ]
    lines = echo.stack(2)
    assert lines[0] == "stack pointer AC 17 = 777761,,000132"
    assert lines[1].startswith("  000132 PDL/")
    assert lines[1].endswith("<- return to GREET+3 (000106), echo.mid:16")


def test_a_stack_not_yet_set_up_is_said_to_be_so(echo: Debugger) -> None:
    assert echo.stack() == [
        "stack pointer AC 17 = 000000,,000000",
        "  (it points into the accumulators: no stack set up yet, or set stack names another "
        "accumulator)",
    ]


def test_listing_marks_the_current_line(echo: Debugger) -> None:
    lines = echo.listing(sym(echo, "TYO"), context=1)
    assert lines == [
        "     34  ;;; TYO: wait until the printer is free, then type the character in A.",
        "=>   35  TYO:    CONSO TTY,10            ; output flag: the last character has gone",
        "     36          JRST .-1",
    ]


# --- watchpoints, read and write breakpoints (single-stepped) -----------------------------------
def test_watch_stops_when_the_word_changes(echo: Debugger) -> None:
    pdl = sym(echo, "PDL")
    assert echo.add_break(pdl, "change") == "watching PDL (000132), now 000000,,000000"
    report = echo.go()
    assert report.outcome.reason == "watch"
    assert report.outcome.message == "PDL (000132) changed: 000000,,000000 -> 000000,,000106"
    assert echo.m.pc == sym(echo, "TYO")  # stopped after the PUSHJ that pushed


def test_write_breakpoint_names_the_instruction(echo: Debugger) -> None:
    echo.add_break(1, "write")
    report = echo.go()
    assert report.outcome.message == (
        "write to 000001 by GREET (000103) ILDB 1,2: 000000,,000000 -> 000000,,000105"
    )
    assert echo.m.pc == sym(echo, "GREET") + 1


def test_write_breakpoint_catches_a_store_of_the_same_value(echo: Debugger) -> None:
    echo.m.memory[0o17] = 0o777760_000131  # what MOVE P,[...] is about to store
    echo.add_break(0o17, "write")
    report = echo.go()
    assert report.outcome.reason == "watch" and echo.m.pc == 0o101


def test_read_breakpoint(echo: Debugger) -> None:
    echo.add_break(sym(echo, "HELLO") + 1, "read")
    report = echo.go()
    assert report.outcome.message == "read of HELLO+1 (000130) by GREET (000103) ILDB 1,2"
    assert echo.host.output == "ECHO "  # type: ignore[attr-defined]  # the first word's five


def test_write_by_an_interrupt_instruction(programs: Programs) -> None:
    dbg = debugger(programs.echoint, "A")
    dbg.add_break(sym(dbg, "TTYINT"), "write")
    report = dbg.go()
    assert report.outcome.message.startswith(
        "write to TTYINT (000104) by PI channel 1 000042 JSR TTYINT: 000000,,000000 ->"
    )
    assert dbg.m.pc == sym(dbg, "TTYINT") + 1


def test_breakpoints_listed_and_removed(echo: Debugger) -> None:
    echo.add_break(sym(echo, "TYO"))
    echo.add_break(sym(echo, "PDL"), "write")
    assert echo.break_list() == ["execute  TYO (000123), echo.mid:35", "write    PDL (000132)"]
    assert echo.remove_break(sym(echo, "TYO")) == "removed execute breakpoint at TYO (000123)"
    with pytest.raises(DebugError, match="no breakpoint or watch at TYO"):
        echo.remove_break(sym(echo, "TYO"))
    echo.clear_breaks()
    assert echo.break_list() == [] and echo.m.breakpoints == set()


# --- state, tapes, read-in ----------------------------------------------------------------
def test_registers_and_devices(echo: Debugger) -> None:
    regs = echo.registers()
    assert regs[0] == "PC 000100 GO (000100)   flags 000000 (-)"
    assert regs[1].startswith(" 0 000000,,000000")
    assert "PI off" in regs[6]
    devices = echo.devices()
    tty = next(i for i, line in enumerate(devices) if line.startswith("TTY  120"))
    assert devices[tty] == "TTY  120  CONI 000000  fast"
    under = " ".join(devices[tty + 1 : tty + 4])  # its registers, from its table
    assert "PIA 0  INPUT_BUSY 0  INPUT_FLAG 0" in under and "INPUT_CHAR 000" in under
    assert "OUTPUT_DONE_AT never" in under


def test_every_device_shows_each_register_of_its_table(echo: Debugger) -> None:
    text = "\n".join(echo.devices())
    for dev in echo.m.bus.devices.values():
        for reg in dev.registers:
            assert (f" {reg.name} " in text) == reg.shown, (dev.name, reg.name)


def test_tapes_and_boot(programs: Programs, tmp_path: Path) -> None:
    dbg = Debugger(Machine(engine="python"), ScriptedHost("HI\n"), baud=None, grace_us=50_000)
    with pytest.raises(DebugError, match="no tape in the reader"):
        dbg.boot()
    assert dbg.attach_tape("ptr", programs.echo_rim).endswith("(binary words)")
    report = dbg.boot()
    assert report.outcome.reason == "end of input"
    assert dbg.host.output == "ECHO READY\nHI\n"  # type: ignore[attr-defined]
    text = tmp_path / "text.tape"
    text.write_bytes(b"ABC")
    assert dbg.attach_tape("ptr", text) == f"ptr: {text} mounted, 3 frames (frames)"
    assert dbg.detach("ptr") == f"ptr: {text} removed"
    punch = tmp_path / "punch.tape"
    dbg.attach_tape("ptp", punch)
    dbg.ptp.punched += b"XY"
    assert dbg.detach("ptp") == f"ptp: 2 frames written to {punch}"
    assert punch.read_bytes() == b"XY"
    with pytest.raises(DebugError, match="no device 'lpt'"):
        dbg.attach_tape("lpt", text)
    with pytest.raises(DebugError, match="cannot read /no/such/tape"):
        dbg.attach_tape("ptr", "/no/such/tape")


def test_reset_clears_devices_and_pi(programs: Programs) -> None:
    dbg = debugger(programs.echoint)
    dbg.resume(until_us=100_000)
    assert dbg.m.pi.active and dbg.tty.pia == 1
    dbg.reset()
    assert not dbg.m.pi.active and dbg.m.pi.on == 0 and dbg.tty.pia == 0


def test_a_trap_that_would_never_end_is_refused() -> None:
    dbg = Debugger(Machine(engine="python"), ScriptedHost(), baud=None)
    with pytest.raises(DebugError, match="would trap forever"):
        dbg.step()
    report = dbg.go(0)
    assert report.outcome.reason == "stuck" and "would trap forever" in report.text


@pytest.mark.parametrize("watching", [False, True])
def test_continuing_with_a_data_interrupt_waiting_runs_the_instruction(watching: bool) -> None:
    """At a breakpoint with a BLKO interrupt waiting (it leaves the PC where it is),
    continue runs the instruction at the breakpoint, watches set or not (the runner used
    to report the same breakpoint again after the interrupt alone)."""
    from .conftest import FlagDevice, halt, ins, io

    dbg = Debugger(Machine(engine="python"), ScriptedHost(""), baud=None, grace_us=50_000)
    m = dbg.m
    dev = m.attach(FlagDevice(0o770))
    program = {0o100: io("CONO", "PI", 0o2377), 0o101: io("CONO", 0o770, 3),
               0o102: ins("AOS", 0, 0o700), 0o103: halt(0o103),
               0o46: io("BLKO", 0o770, 0o650), 0o650: (-10 & 0o777777) << 18 | 0o1000}  # fmt: skip
    for addr, word in program.items():
        m.memory[addr] = word
    m.pc = 0o100
    dbg.add_break(0o102)
    if watching:
        dbg.add_break(0o700, "change")
    assert dbg.resume().outcome.reason == "breakpoint" and m.pc == 0o102
    dev.cono(0o13)  # the flag rises while the machine is stopped
    m.bus.publish(dev)
    outcome = dbg.resume().outcome
    assert m.memory[0o700] == 1 and len(dev.received) == 1
    assert outcome.reason == ("watch" if watching else "halt")


def test_a_write_breakpoint_and_a_watch_on_one_word_are_both_kept(echo: Debugger) -> None:
    """The second used to replace the first, silently."""
    pdl = sym(echo, "PDL")
    echo.add_break(pdl, "write")
    echo.add_break(pdl, "change")
    assert echo.break_list() == ["change   PDL (000132)", "write    PDL (000132)"]
    report = echo.resume()
    assert report.outcome.reason == "watch"
    assert "PDL (000132) changed" in report.text and "write to PDL (000132) by" in report.text
    assert echo.remove_break(pdl) == "removed change and write breakpoint at PDL (000132)"
    assert echo.watches == {}


def test_the_stack_is_read_down_to_its_block_only(tmp_path: Path) -> None:
    """A HALT after a PUSHJ in the code below the stack's block looks like a return
    address: where and stack used to show it as a call that never happened."""
    from .console_helpers import assemble

    source = tmp_path / "calls.mid"
    source.write_text("A=1\nP=17\nGO:\tMOVE P,[-20,,PDL-1]\n\tPUSHJ P,SUB\n\tHALT .\n"
                      "SUB:\tMOVEI A,5\n\tPUSHJ P,SUB2\n\tPOPJ P,\nSUB2:\tADDI A,1\n"
                      "\tPOPJ P,\nPDL:\tBLOCK 20\nEND GO\n")  # fmt: skip
    dbg = debugger(assemble(source, tmp_path / "calls.bin"))
    dbg.add_break(sym(dbg, "SUB2"))
    dbg.resume()
    assert dbg.backtrace() == [
        "#0  SUB2 (000106), calls.mid:9", "#1  SUB+1 (000104), calls.mid:7",
        "#2  GO+1 (000101), calls.mid:4",
    ]  # fmt: skip
    assert sum("<- return to" in line for line in dbg.stack(12)) == 2


def test_an_endless_at_chain_is_refused_unless_an_interrupt_could_end_it() -> None:
    """MOVE A,@X with X: @X never finishes; step used to report it done, again and
    again.  With the PI system on, an interrupt may end the chain, so it is let run."""
    from pdp6.host.runner import endless_trap

    from .conftest import halt, ins, io

    dbg = Debugger(Machine(engine="python"), ScriptedHost(""), baud=None, grace_us=50_000)
    m = dbg.m
    m.memory[0o100] = ins("MOVE", 1, 0o102, i=1)
    m.memory[0o101] = halt(0o101)
    m.memory[0o102] = ins(0, 0, 0o102, i=1)
    m.pc = 0o100
    with pytest.raises(DebugError, match="indirect through 000102 for ever"):
        dbg.step()
    assert m.instructions == 0
    m.memory[0o102] = ins(0, 0, 0o103, i=1)  # a chain that ends is followed
    assert endless_trap(m) is None
    m.memory[0o102] = ins(0, 0, 0o102, i=1)
    m.memory[0o40] = io("CONO", "PI", 0o2377)  # (PI on, every channel)
    m.pc = 0o40
    m.step()
    m.pc = 0o100
    assert endless_trap(m) is None
