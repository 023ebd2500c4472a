"""The ``pdp6.Machine`` API: construction, memory access and its errors, registers,
run/step/breakpoints, stop reasons, devices."""

from __future__ import annotations

import pytest

from pdp6 import Device, Machine
from pdp6.cpu.engines import ALL_ENGINES, ENGINES

from .conftest import FlagDevice, halt, ins, io

CORE = 1 << 18


class TestConstruction:
    def test_default_machine(self, machine) -> None:
        m = machine
        assert len(m.memory) == CORE
        assert m.core_words == CORE
        assert m.memory[0:0o20] == [0] * 0o20
        assert m.memory[CORE - 0o20 : CORE] == [0] * 0o20
        assert not any(m.memory[0o100:0o2000])
        assert m.flags == 0 and not m.user_mode  # executive mode
        assert not m.pi.active and m.pi.on == 0 and m.pi.requests == 0 and m.pi.held == 0
        assert not (m.apr.nxm or m.apr.illegal_op or m.apr.pushdown_overflow)
        assert m.apr.pia == 0
        assert m.instructions == 0
        assert m.elapsed_us == 0

    @pytest.mark.parametrize("engine", ALL_ENGINES)
    def test_engine_choice(self, engine: str) -> None:
        assert Machine(engine=engine).engine == engine

    def test_default_engine_is_the_first_available(self) -> None:
        assert Machine().engine == ENGINES[0]

    def test_unknown_engine(self) -> None:
        with pytest.raises(ValueError):
            Machine(engine="turbo")

    @pytest.mark.parametrize("size", [0, 16, CORE + 1])
    def test_bad_core_size(self, size: int) -> None:
        with pytest.raises(ValueError):
            Machine(core_words=size)

    def test_smaller_core(self, engine: str) -> None:
        m = Machine(core_words=0o10000, engine=engine)
        assert len(m.memory) == 0o10000
        m.memory[0o7777] = 5
        with pytest.raises(IndexError):
            m.memory[0o10000] = 5
        with pytest.raises(IndexError):
            m.memory[0o10000]


class TestMemoryErrors:
    def test_word_over_36_bits(self, machine) -> None:
        with pytest.raises(ValueError):
            machine.memory[0o100] = 1 << 36

    def test_negative_word(self, machine) -> None:
        with pytest.raises(ValueError):
            machine.memory[0o100] = -1

    def test_largest_word_is_fine(self, machine) -> None:
        machine.memory[0o100] = (1 << 36) - 1
        assert machine.memory[0o100] == 0o777777_777777

    @pytest.mark.parametrize("addr", [CORE, -1, 1 << 20])
    def test_address_out_of_range(self, machine, addr: int) -> None:
        with pytest.raises(IndexError):
            machine.memory[addr] = 0
        with pytest.raises(IndexError):
            machine.memory[addr]

    @pytest.mark.parametrize("value", [1.0, "5", None, True])
    def test_word_of_wrong_type(self, machine, value) -> None:
        with pytest.raises(TypeError):
            machine.memory[0o100] = value

    @pytest.mark.parametrize("addr", [1.0, "5", None])
    def test_address_of_wrong_type(self, machine, addr) -> None:
        with pytest.raises(TypeError):
            machine.memory[addr] = 0

    def test_failed_store_changes_nothing(self, machine) -> None:
        machine.memory[0o100] = 7
        with pytest.raises(ValueError):
            machine.memory[0o100] = 1 << 40
        assert machine.memory[0o100] == 7

    def test_acs_are_addresses_0_to_17(self, machine) -> None:
        machine.memory[0o17] = 0o42
        m = machine
        m.memory[0o100] = ins("MOVE", 1, 0o17)
        m.pc = 0o100
        m.step()
        assert m.memory[1] == 0o42


class TestNonExistentMemory:
    def test_read_sets_nxm_and_reads_zero(self, engine: str, exec1) -> None:
        m = Machine(core_words=0o10000, engine=engine)
        exec1(ins("MOVE", 1, 0o10000), acs={1: 0o777}, machine=m)
        assert m.apr.nxm
        assert m.memory[1] == 0

    def test_write_sets_nxm(self, engine: str, exec1) -> None:
        m = Machine(core_words=0o10000, engine=engine)
        exec1(ins("MOVEM", 1, 0o777777), acs={1: 0o777}, machine=m)
        assert m.apr.nxm

    def test_existing_memory_does_not(self, engine: str, exec1) -> None:
        m = Machine(core_words=0o10000, engine=engine)
        exec1(ins("MOVE", 1, 0o7777), machine=m)
        assert not m.apr.nxm


class TestRegisters:
    def test_pc(self, machine) -> None:
        machine.pc = 0o777777
        assert machine.pc == 0o777777
        for bad in (1 << 18, -1, 1.5):
            with pytest.raises(ValueError):
                machine.pc = bad

    def test_flags(self, machine) -> None:
        machine.flags = 0o774000
        assert machine.flags == 0o774000
        assert machine.apr.overflow and machine.apr.pc_change and machine.apr.user_iot
        for bad in (0o000001, 0o1000000, -1):
            with pytest.raises(ValueError):
                machine.flags = bad

    def test_pc_word(self, machine) -> None:
        machine.flags = 0o400000
        machine.pc = 0o1234
        assert machine.pc_word == 0o400000_001234

    def test_apr_and_pi_fields_are_writable(self, machine) -> None:
        machine.apr.clock_enabled = True
        machine.apr.pia = 5
        machine.pi.on = 0o123
        assert machine.apr.clock_enabled and machine.apr.pia == 5 and machine.pi.on == 0o123


class TestRun:
    def test_halt(self, machine) -> None:
        machine.memory[0o100] = ins("MOVEI", 1, 1)
        machine.memory[0o101] = halt(0o4321)
        machine.pc = 0o100
        stop = machine.run()
        assert (stop.reason, stop.pc, stop.instructions) == ("halt", 0o4321, 2)
        assert machine.pc == 0o4321
        assert machine.instructions == 2

    def test_limit(self, machine) -> None:
        machine.memory[0o100] = ins("AOJA", 1, 0o100)
        machine.pc = 0o100
        stop = machine.run(max_instructions=25)
        assert (stop.reason, stop.instructions) == ("limit", 25)
        assert machine.memory[1] == 25
        stop = machine.run(max_instructions=5)
        assert machine.memory[1] == 30
        assert machine.instructions == 30
        assert machine.run(max_instructions=0).instructions == 0

    def test_negative_limit(self, machine) -> None:
        with pytest.raises(ValueError):
            machine.run(max_instructions=-1)

    def test_until_us(self, machine) -> None:
        machine.memory[0o100] = ins("AOJA", 1, 0o100)
        machine.pc = 0o100
        stop = machine.run(until_us=1000)
        assert stop.reason == "time"
        assert 1000 <= machine.elapsed_us < 1010
        assert stop.instructions == machine.memory[1]

    def test_step_is_exactly_one_instruction(self, machine) -> None:
        for k in range(3):
            machine.memory[0o100 + k] = ins("MOVEI", k + 1, k + 1)
        machine.pc = 0o100
        stop = machine.step()
        assert stop.instructions == 1
        assert machine.pc == 0o101
        assert machine.memory[1:4] == [1, 0, 0]
        machine.step()
        assert machine.pc == 0o102
        assert machine.instructions == 2

    def test_elapsed_time_only_grows(self, machine) -> None:
        machine.memory[0o100] = ins("AOJA", 1, 0o100)
        machine.pc = 0o100
        last = machine.elapsed_us
        for _ in range(5):
            machine.step()
            assert machine.elapsed_us > last
            last = machine.elapsed_us


class TestBreakpoints:
    def program(self, m: Machine) -> None:
        for k in range(3):
            m.memory[0o100 + k] = ins("MOVEI", k + 1, k + 1)
        m.memory[0o103] = halt(0o103)
        m.pc = 0o100

    def test_stops_before_the_instruction(self, machine) -> None:
        self.program(machine)
        machine.breakpoints.add(0o102)
        stop = machine.run()
        assert (stop.reason, stop.pc, stop.instructions) == ("breakpoint", 0o102, 2)
        assert machine.memory[1:4] == [1, 2, 0]

    def test_continuing_does_not_stop_at_the_same_breakpoint(self, machine) -> None:
        self.program(machine)
        machine.breakpoints.add(0o102)
        machine.run()
        stop = machine.run()
        assert stop.reason == "halt"
        assert machine.memory[3] == 3

    def test_never_before_the_first_instruction_of_a_run(self, machine) -> None:
        m = machine
        m.memory[0o100] = ins("AOS", 0, 0o200)
        m.memory[0o101] = ins("JRST", 0, 0o100)
        m.pc = 0o100
        m.breakpoints.add(0o100)
        stop = m.run(max_instructions=100)
        assert (stop.reason, stop.pc, stop.instructions) == ("breakpoint", 0o100, 2)
        assert m.memory[0o200] == 1
        m.run(max_instructions=100)
        assert m.memory[0o200] == 2

    def stopped_as_a_request_rises(self, m: Machine, routine: dict[int, int]) -> FlagDevice:
        """Channel 3's instruction (at 46) and its routine in core; the main program
        (AOS 700, then a halt) stopped at a breakpoint at 102 just as a device on
        channel 3 raises its flag."""
        dev = m.attach(FlagDevice(0o770))
        m.memory[0o100] = io("CONO", "PI", 0o2377)
        m.memory[0o101] = io("CONO", 0o770, 3)  # PIA 3
        m.memory[0o102] = ins("AOS", 0, 0o700)
        m.memory[0o103] = halt(0o103)
        for addr, word in routine.items():
            m.memory[addr] = word
        m.pc = 0o100
        m.breakpoints.add(0o102)
        assert m.run(max_instructions=100).pc == 0o102
        dev.cono(0o13)  # the flag rises while the machine is stopped
        m.bus.publish(dev)
        return dev

    def test_a_breakpoint_in_an_interrupt_routine_entered_at_once(self, machine) -> None:
        """An interrupt waiting when a run starts (here: continuing from a breakpoint) goes
        to its routine before the first instruction: the routine's breakpoint stops the
        run (it used to be passed, as the exemption of a run's first instruction)."""
        m = machine
        dev = self.stopped_as_a_request_rises(m, {
            0o46: ins("JSR", 0, 0o600),
            0o601: io("CONO", 0o770, 0o23),  # flag cleared
            0o602: ins("JRST", 0o10, 0o600, i=1),
        })  # fmt: skip
        m.breakpoints.add(0o601)
        stop = m.run(max_instructions=100)
        assert (stop.reason, stop.pc, m.memory[0o600] & 0o777777) == ("breakpoint", 0o601, 0o102)
        assert m.run(max_instructions=100).reason == "breakpoint"  # back at 102
        assert m.run(max_instructions=100).reason == "halt" and m.memory[0o700] == 1
        assert dev.conos == [3, 0o13, 0o23]

    def test_a_data_interrupt_does_not_hold_a_run_at_its_breakpoint(self, machine) -> None:
        """A BLKO interrupt leaves the PC where it was: continuing from a breakpoint with
        one waiting still runs the instruction at the breakpoint."""
        m = machine
        dev = self.stopped_as_a_request_rises(m, {
            0o46: io("BLKO", 0o770, 0o650),
            0o650: (-10 & 0o777777) << 18 | 0o1000,
            0o1001: 0o1234,
        })  # fmt: skip
        assert m.run(max_instructions=100).reason == "halt"
        assert dev.received == [0o1234] and m.memory[0o700] == 1

    @pytest.mark.parametrize("breakpoint", [None, 0o602])
    def test_a_run_that_lists_its_pcs_is_a_run_of_steps(
        self, engine: str, breakpoint: int | None
    ) -> None:
        """``run(pcs=)`` lists the PC of every instruction it runs, an interrupt's
        included (where the machine was when it came), as ``step()`` after ``step()``
        sees them, and stops where they stop (a breakpoint, a halt)."""
        routine = {0o46: ins("JSR", 0, 0o600), 0o601: io("CONO", 0o770, 0o23),
                   0o602: ins("JRST", 0o10, 0o600, i=1)}  # fmt: skip
        runs = []
        for trace in (True, False):
            m = Machine(engine=engine)
            self.stopped_as_a_request_rises(m, routine)
            m.breakpoints.discard(0o102)
            if breakpoint is not None:
                m.breakpoints.add(breakpoint)
            pcs: list[int] = []
            if trace:
                reason = m.run(max_instructions=10, pcs=pcs).reason
            else:
                for _ in range(10):
                    pcs.append(m.pc)
                    reason = m.step().reason
                    if reason != "halt" and m.pc in m.breakpoints:
                        reason = "breakpoint"
                    if reason != "limit":
                        break
            runs.append((pcs, reason, m.pc, m.instructions, m.memory[0o700]))
        assert runs[0] == runs[1]
        assert runs[0][0][:2] == [0o102, 0o601]  # the interrupt's JSR came first, at 102
        assert runs[0][1] == ("breakpoint" if breakpoint else "halt")

    def test_step_ignores_a_breakpoint_at_pc(self, machine) -> None:
        self.program(machine)
        machine.breakpoints.add(0o100)
        assert machine.step().instructions == 1
        assert machine.memory[1] == 1

    def test_removed_breakpoint(self, machine) -> None:
        self.program(machine)
        machine.breakpoints.add(0o102)
        machine.breakpoints.discard(0o102)
        assert machine.run().reason == "halt"

    def test_bad_breakpoint(self, machine) -> None:
        self.program(machine)
        machine.breakpoints.add(1 << 18)
        with pytest.raises(ValueError):
            machine.run()


class TestDevices:
    def test_attach_returns_the_device_and_cono_reaches_it(self, machine, exec1) -> None:
        from .conftest import io

        dev = machine.attach(FlagDevice(0o770))
        assert isinstance(dev, Device)
        exec1(io("CONO", 0o770, 0o13), machine=machine)
        assert dev.conos == [0o13]
        assert dev.pia == 3 and dev.flag

    @pytest.mark.parametrize("code", [0o000, 0o004, 0o771, 0o1000])
    def test_bad_device_codes(self, machine, code: int) -> None:
        with pytest.raises(ValueError):
            machine.attach(FlagDevice(code))

    def test_duplicate_device_code(self, machine) -> None:
        machine.attach(FlagDevice(0o770))
        with pytest.raises(ValueError):
            machine.attach(FlagDevice(0o770))
