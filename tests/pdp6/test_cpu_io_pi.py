"""APR and PI devices, I/O instructions, priority interrupts (reference 1.8, 2.1, 2.2).

A ``FlagDevice`` (conftest) stands in for real devices: CONO bits 33-35 PIA, 010 set
its flag, 020 clear it; it requests its PIA while the flag is set.
"""

from __future__ import annotations

import pytest

from .conftest import OV, PCCH, UIOT, FlagDevice, halt, ins, io, word

DEV = 0o770


def chan_bit(n: int) -> int:
    return 0o100 >> (n - 1)


class TestAprConoConi:
    def test_enables_and_pia_bit_for_bit(self, run_program) -> None:
        m = run_program(
            [
                io("CONO", "APR", 0o002227),  # clock, PC-change, overflow enables; PIA 7
                io("CONI", "APR", 0o300),
                io("CONO", "APR", 0o004440),  # all three disabled; PIA 0
                io("CONI", "APR", 0o301),
                io("CONO", "APR", 0o000025),  # overflow enable only; PIA 5
                io("CONI", "APR", 0o302),
            ]
        )
        assert m.memory[0o300] == 0o002227
        assert m.memory[0o301] == 0
        assert m.memory[0o302] == 0o000025
        assert m.apr.overflow_enabled and not m.apr.clock_enabled
        assert m.apr.pia == 5

    @pytest.mark.parametrize(
        "attr, coni_bit, clear_bit",
        [
            ("pushdown_overflow", 0o200000, 0o400000),
            ("illegal_op", 0o020000, 0o020000),
            ("nxm", 0o010000, 0o010000),
            ("clock_flag", 0o001000, 0o001000),
        ],
    )
    def test_apr_flags_read_and_clear(
        self, machine, run_program, attr: str, coni_bit: int, clear_bit: int
    ) -> None:
        setattr(machine.apr, attr, True)
        m = run_program(
            [
                io("CONI", "APR", 0o300),
                io("CONO", "APR", clear_bit),
                io("CONI", "APR", 0o301),
            ],
            machine=machine,
        )
        assert m.memory[0o300] == coni_bit
        assert m.memory[0o301] == 0
        assert not getattr(m.apr, attr)

    def test_ar_ov_flag_in_coni_and_cleared_by_cono(self, run_program) -> None:
        m = run_program(
            [io("CONI", "APR", 0o300), io("CONO", "APR", 0o10), io("CONI", "APR", 0o301)],
            flags=OV,
        )
        assert m.memory[0o300] == 0o000010
        assert m.memory[0o301] == 0
        assert not m.flags & OV

    def test_pc_change_flag_in_coni_and_cleared_by_cono(self, run_program) -> None:
        m = run_program(
            [
                ins("JRST", 0, 0o101),
                io("CONI", "APR", 0o300),
                io("CONO", "APR", 0o100),
                io("CONI", "APR", 0o301),
            ]
        )
        assert m.memory[0o300] == 0o000100
        assert m.memory[0o301] == 0

    def test_user_iot_set_by_bit_21_cleared_by_bit_20(self, run_program) -> None:
        # reference 2.1 (aap FIX_USER_IOT): 040000 sets USER IOT, 100000 clears it
        m = run_program(
            [
                io("CONO", "APR", 0o040000),
                io("CONI", "APR", 0o300),
                io("CONO", "APR", 0o100000),
                io("CONI", "APR", 0o301),
            ]
        )
        assert m.memory[0o300] == 0o100000
        assert m.memory[0o301] == 0
        assert not m.flags & UIOT

    def test_user_iot_shows_in_the_flags(self, exec1) -> None:
        m = exec1(io("CONO", "APR", 0o040000))
        assert m.flags == UIOT
        assert m.apr.user_iot

    def test_io_reset(self, machine, run_program) -> None:
        # reference 2.1: I/O reset clears the devices and USER IOT.  Only SIMH also clears
        # the illegal-op flag; aap (the authority) does not: wake_cpa only acts on its
        # own device code, and the reset pulse carries none.
        dev = machine.attach(FlagDevice(DEV))
        machine.apr.illegal_op = True
        m = run_program(
            [
                io("CONO", DEV, 0o13),
                io("CONO", "APR", 0o040000),
                io("CONO", "APR", 0o200000),
                io("CONI", "APR", 0o300),
                io("CONI", DEV, 0o301),
            ],
            machine=machine,
        )
        assert dev.resets == 1
        assert m.memory[0o301] == 0  # flag and PIA cleared
        assert not m.flags & UIOT
        assert m.memory[0o300] == 0o020000  # illegal op still set
        assert m.apr.illegal_op

    def test_consz_conso_apr(self, exec1) -> None:
        assert exec1(io("CONSO", "APR", 0o10), flags=OV).pc == 0o102
        assert exec1(io("CONSO", "APR", 0o10)).pc == 0o101
        assert exec1(io("CONSZ", "APR", 0o10)).pc == 0o102
        assert exec1(io("CONSZ", "APR", 0o10), flags=OV).pc == 0o101

    def test_datai_apr_reads_the_switches(self, machine, exec1) -> None:
        machine.apr.switches = 0o123456_654321
        m = exec1(io("DATAI", "APR", 0o300), machine=machine)
        assert m.memory[0o300] == 0o123456_654321

    def test_datao_apr_loads_protection_and_relocation(self, exec1) -> None:
        # reference 1.10: bits 0-7 protection, bits 18-25 relocation.  005000,,013000 is
        # PR = 00000010, bit 8 (ignored) set; RLR = 00000101, bit 26 (ignored) set.
        m = exec1(io("DATAO", "APR", 0o300), mem={0o300: 0o005000_013000})
        assert m.apr.protection == 2
        assert m.apr.relocation == 5


class TestPiConoConi:
    def test_channels_on_off_active(self, run_program) -> None:
        m = run_program(
            [
                io("CONO", "PI", 0o2177),
                io("CONI", "PI", 0o300),
                io("CONO", "PI", 0o200),
                io("CONI", "PI", 0o301),
                io("CONO", "PI", 0o1100),
                io("CONI", "PI", 0o302),
                io("CONO", "PI", 0o400),
                io("CONI", "PI", 0o303),
                io("CONO", "PI", 0o10000),
                io("CONI", "PI", 0o304),
            ]
        )
        assert m.memory[0o300:0o305] == [0o177, 0o377, 0o277, 0o077, 0]
        assert not m.pi.active and m.pi.on == 0

    def test_cono_4000_requests_even_an_off_channel(self, exec1) -> None:
        m = exec1(io("CONO", "PI", 0o4020))
        assert m.pi.requests == 0o020
        assert m.pi.on == 0

    def test_cono_4000_does_not_request_a_held_channel(self, machine, exec1) -> None:
        # aap set_pir: pir |= request; pir &= ~pih ("held breaks aren't retriggered")
        machine.pi.held = 0o020
        m = exec1(io("CONO", "PI", 0o4030), machine=machine)
        assert m.pi.requests == 0o010

    def test_software_request_is_taken_when_pi_is_activated(self, run_program) -> None:
        # reference 2.2: a pending channel is taken when PI is active and nothing of equal
        # or higher priority is held; CONO PI,4000 sets PIR even for channels that are off.
        m = run_program(
            [io("CONO", "PI", 0o4020), io("CONO", "PI", 0o200)],
            mem={0o46: ins("JSR", 0, 0o600), 0o601: halt(0o601)},
        )
        assert m.pc == 0o601
        assert m.memory[0o600] == 0o102
        assert m.pi.held == 0o020
        assert m.pi.requests == 0

    def test_reset_clears_requests_and_held(self, machine, exec1) -> None:
        # (PI left inactive so that nothing is taken before the CONO runs)
        machine.pi.requests = 0o050
        machine.pi.held = 0o002
        machine.pi.on = 0o177
        m = exec1(io("CONO", "PI", 0o10000), machine=machine)
        assert (m.pi.requests, m.pi.held, m.pi.on, m.pi.active) == (0, 0, 0, False)

    def test_reset_comes_before_the_set_bits(self, machine, exec1) -> None:
        # aap: the CONO CLEAR pulse (reset, bit 23) precedes CONO SET (activate, on)
        machine.pi.held = 0o002
        m = exec1(io("CONO", "PI", 0o12210), machine=machine)
        assert (m.pi.held, m.pi.on, m.pi.active) == (0, 0o010, True)


class TestInterrupts:
    @pytest.mark.parametrize("n", range(1, 8))
    def test_each_channel_goes_to_40_plus_2n(self, machine, run_program, n: int) -> None:
        dev = machine.attach(FlagDevice(DEV))
        loc = 0o40 + 2 * n
        m = run_program(
            [io("CONO", "PI", 0o2377), io("CONO", DEV, 0o10 | n), ins("MOVEI", 1, 1)],
            mem={loc: ins("JSR", 0, 0o600), 0o601: io("CONO", DEV, 0o20 | n), 0o602: halt(0o602)},
            machine=machine,
        )
        assert m.pc == 0o602
        assert m.memory[0o600] == 0o102  # PC not advanced past the next instruction
        assert m.memory[1] == 0
        assert m.pi.held == chan_bit(n)
        assert dev.conos == [0o10 | n, 0o20 | n]
        for other in range(0o42, 0o60):
            if other != loc:
                assert m.memory[other] == 0

    def test_priorities(self, machine, run_program) -> None:
        # Channel 5 is being served; a channel-6 request waits, a channel-2 request
        # preempts at once; after both dismiss, channel 6 runs.
        d2 = machine.attach(FlagDevice(0o740))
        d5 = machine.attach(FlagDevice(0o744))
        d6 = machine.attach(FlagDevice(0o750))
        mem = {
            0o44: ins("JSR", 0, 0o400),
            0o52: ins("JSR", 0, 0o300),
            0o54: ins("JSR", 0, 0o500),
            0o301: io("CONO", d5.code, 0o25),
            0o302: io("CONO", d6.code, 0o16),
            0o303: io("CONO", d2.code, 0o12),
            0o304: ins("PUSH", 0o17, 0o705),
            0o305: ins("JRST", 0o12, 0o300, i=1),
            0o401: io("CONO", d2.code, 0o22),
            0o402: ins("PUSH", 0o17, 0o702),
            0o403: ins("JRST", 0o12, 0o400, i=1),
            0o501: io("CONO", d6.code, 0o26),
            0o502: ins("PUSH", 0o17, 0o706),
            0o503: ins("JRST", 0o12, 0o500, i=1),
            0o702: 2,
            0o705: 5,
            0o706: 6,
        }
        m = run_program(
            [io("CONO", "PI", 0o2377), io("CONO", d5.code, 0o15)],
            acs={0o17: 0o777},
            mem=mem,
            machine=machine,
        )
        assert m.memory[0o1000:0o1003] == [2, 5, 6]
        assert m.memory[0o300] & 0o777777 == 0o102
        assert m.memory[0o400] & 0o777777 == 0o304  # channel 2 interrupted channel 5
        assert m.memory[0o500] & 0o777777 == 0o102
        assert m.pi.held == 0
        assert m.pc == 0o102

    def test_coni_pi_shows_no_held_channels(self, machine, run_program) -> None:
        # reference 1.9 item 9 / 2.2: aap's CONI PI has only bit 28 and the channels on
        machine.attach(FlagDevice(DEV))
        m = run_program(
            [io("CONO", "PI", 0o2377), io("CONO", DEV, 0o13)],
            mem={0o46: ins("JSR", 0, 0o600), 0o601: io("CONI", "PI", 0o300), 0o602: halt(0o602)},
            machine=machine,
        )
        assert m.pi.held == chan_bit(3)
        assert m.memory[0o300] == 0o377

    def test_cono_in_an_interrupt_location_is_fetched_again(self, machine) -> None:
        # reference 1.8: CONO/CONI/CONSZ/CONSO neither hold nor dismiss, so the same
        # location runs again and again while the request stays.
        dev = machine.attach(FlagDevice(DEV))
        m = machine
        m.memory[0o100] = io("CONO", "PI", 0o2377)
        m.memory[0o101] = io("CONO", DEV, 0o13)
        m.memory[0o102] = ins("AOS", 0, 0o700)
        m.memory[0o46] = io("CONO", DEV, 0o3)  # keeps PIA 3, flag stays set
        m.pc = 0o100
        stop = m.run(max_instructions=12)
        assert stop.reason == "limit"
        assert dev.conos == [0o13] + [0o3] * 10
        assert m.memory[0o700] == 0
        assert m.pc == 0o102
        assert m.pi.held == 0

    def test_held_channel_does_not_interrupt_itself(self, machine, run_program) -> None:
        machine.attach(FlagDevice(DEV))
        m = run_program(
            [io("CONO", "PI", 0o2377), io("CONO", DEV, 0o13)],
            mem={
                0o46: ins("JSR", 0, 0o600),
                0o601: ins("AOS", 0, 0o700),
                0o602: ins("AOS", 0, 0o700),
                0o603: halt(0o603),
            },
            machine=machine,
        )
        assert m.memory[0o700] == 2  # the handler ran through once, uninterrupted
        assert m.pi.held == chan_bit(3)

    def test_dismiss_with_device_still_requesting_reenters(self, machine) -> None:
        machine.attach(FlagDevice(DEV))
        m = machine
        m.memory[0o100] = io("CONO", "PI", 0o2377)
        m.memory[0o101] = io("CONO", DEV, 0o13)
        m.memory[0o102] = ins("AOS", 0, 0o701)
        m.memory[0o103] = ins("JRST", 0, 0o102)
        m.memory[0o46] = ins("JSR", 0, 0o600)
        m.memory[0o601] = ins("AOS", 0, 0o700)
        m.memory[0o602] = ins("JRST", 0o10, 0o600, i=1)
        m.pc = 0o100
        m.run(max_instructions=32)
        assert m.memory[0o700] == 10  # (32 - 2) / 3 passes of JSR, AOS, JRST 10
        assert m.memory[0o701] == 0  # the main program never gets an instruction in

    def test_latched_request_stays_after_the_device_drops_it(self, machine, run_program) -> None:
        # reference 2.2: a request latched into PIR stays pending until taken.  Channel 5
        # is requested and withdrawn while channel 2 is held; it is still taken later.
        d2 = machine.attach(FlagDevice(0o740))
        d5 = machine.attach(FlagDevice(0o744))
        m = run_program(
            [io("CONO", "PI", 0o2377), io("CONO", d2.code, 0o12)],
            mem={
                0o44: ins("JSR", 0, 0o400),
                0o401: io("CONO", d5.code, 0o15),
                0o402: io("CONO", d5.code, 0o25),
                0o403: io("CONO", d2.code, 0o22),
                0o404: ins("JRST", 0o12, 0o400, i=1),
                0o52: ins("JSR", 0, 0o500),
                0o501: ins("AOS", 0, 0o700),
                0o502: ins("JRST", 0o12, 0o500, i=1),
            },
            machine=machine,
        )
        assert m.memory[0o700] == 1
        assert m.pc == 0o102

    def test_pir_does_not_hold_a_request_of_a_held_channel(self, machine, run_program) -> None:
        machine.attach(FlagDevice(DEV))
        m = run_program(
            [io("CONO", "PI", 0o2377), io("CONO", DEV, 0o13)],
            mem={0o46: ins("JSR", 0, 0o600), 0o601: ins("MOVEI", 1, 1), 0o602: halt(0o602)},
            machine=machine,
        )
        assert m.pi.held == chan_bit(3)
        assert m.pi.requests == 0

    def test_request_on_a_held_channel_is_not_latched(self, machine, run_program) -> None:
        # aap set_pir: "held breaks aren't retriggered" -- a request that comes and goes
        # while its own channel is held leaves nothing behind after the dismiss.
        machine.attach(FlagDevice(DEV))
        m = run_program(
            [io("CONO", "PI", 0o2377), io("CONO", DEV, 0o13)],
            mem={
                0o46: ins("JSR", 0, 0o600),
                0o601: ins("AOS", 0, 0o700),
                0o602: ins("MOVEI", 1, 0),  # the device is still requesting here
                0o603: io("CONO", DEV, 0o23),  # ... and stops
                0o604: ins("JRST", 0o12, 0o600, i=1),
            },
            machine=machine,
        )
        assert m.memory[0o700] == 1
        assert m.pc == 0o102

    def test_datao_in_the_interrupt_location_dismisses_itself(self, machine, run_program) -> None:
        dev = machine.attach(FlagDevice(DEV))
        m = run_program(
            [io("CONO", "PI", 0o2377), io("CONO", DEV, 0o13), ins("MOVEI", 1, 1)],
            mem={0o46: io("DATAO", DEV, 0o200), 0o200: 0o123},
            machine=machine,
        )
        assert dev.received == [0o123]
        assert m.memory[1] == 1
        assert m.pc == 0o103
        assert m.pi.held == 0
        assert m.pi.requests == 0

    def test_datai_in_the_interrupt_location(self, machine, run_program) -> None:
        dev = machine.attach(FlagDevice(DEV))
        dev.value = 0o555
        m = run_program(
            [io("CONO", "PI", 0o2377), io("CONO", DEV, 0o13), ins("MOVEI", 1, 1)],
            mem={0o46: io("DATAI", DEV, 0o201)},
            machine=machine,
        )
        assert m.memory[0o201] == 0o555
        assert dev.datai_count == 1
        assert m.memory[1] == 1
        assert m.pi.held == 0

    def test_blko_counts_out_to_41_plus_2n(self, machine, run_program) -> None:
        # reference 1.8: BLKO that does not count out transfers and dismisses; the one
        # that counts out still transfers, then 41+2n runs in the same interrupt.
        dev = machine.attach(FlagDevice(DEV, clear_on_data=False))
        m = run_program(
            [io("CONO", "PI", 0o2377), io("CONO", DEV, 0o13), ins("MOVEI", 1, 1)],
            mem={
                0o46: io("BLKO", DEV, 0o300),
                0o47: ins("JSR", 0, 0o600),
                0o300: word(0o777776, 0o500),  # IOWD 2,501
                0o501: 0o11,
                0o502: 0o22,
                0o601: io("CONO", DEV, 0o20),
                0o602: ins("JRST", 0o12, 0o600, i=1),
            },
            machine=machine,
        )
        assert dev.received == [0o11, 0o22]
        assert m.memory[0o300] == 0o502
        assert m.memory[0o600] & 0o777777 == 0o102
        assert m.memory[1] == 1
        assert m.pi.held == 0

    def test_blko_outside_interrupts_skips_until_it_counts_out(self, machine, exec1) -> None:
        # aap iot_t0a: outside a PI cycle a BLKx that does not count out skips.
        dev = machine.attach(FlagDevice(DEV))
        m = exec1(io("BLKO", DEV, 0o300), mem={0o300: word(0o777776, 0o500), 0o501: 7},
                  machine=machine)  # fmt: skip
        assert m.pc == 0o102
        assert dev.received == [7]
        m = exec1(io("BLKO", DEV, 0o300), mem={0o300: word(0o777777, 0o500), 0o501: 8},
                  machine=machine)  # fmt: skip
        assert m.pc == 0o101
        assert dev.received == [7, 8]

    def test_blko_counts_out_on_the_carry_out_of_bit_0(self, machine, run_program) -> None:
        # aap IOT_T0A: the count-out is AR CRY0 of the 36-bit add of 1,,1.  With the
        # pointer 777777,,777777 the result is 1,,0: counted out, so 41+2n runs.
        dev = machine.attach(FlagDevice(DEV, clear_on_data=False))
        m = run_program(
            [io("CONO", "PI", 0o2377), io("CONO", DEV, 0o13), ins("MOVEI", 1, 1)],
            mem={
                0o46: io("BLKO", DEV, 0o300),
                0o47: ins("JSR", 0, 0o600),
                0o300: word(0o777777, 0o777777),
                0o601: io("CONO", DEV, 0o20),
                0o602: ins("JRST", 0o12, 0o600, i=1),
            },
            machine=machine,
        )
        assert m.memory[0o300] == word(1, 0)
        assert dev.received == [m.memory[0]]  # the word at 0 (the pointer's new RH)
        assert m.memory[0o600] & 0o777777 == 0o102  # the JSR at 47 ran
        assert m.pi.held == 0

    def test_blki_outside_interrupts_does_not_skip_on_the_carry(self, machine, exec1) -> None:
        # The same carry decides the skip outside interrupts: 777777,,777777 -> 1,,0 has
        # counted out, so BLKI does not skip.
        machine.attach(FlagDevice(DEV))
        m = exec1(io("BLKI", DEV, 0o300), mem={0o300: word(0o777777, 0o777777)}, machine=machine)
        assert m.memory[0o300] == word(1, 0)
        assert m.pc == 0o101

    def test_blki_stores_device_words(self, machine, exec1) -> None:
        dev = machine.attach(FlagDevice(DEV))
        dev.value = 0o4444
        machine.bus.publish(dev)
        m = exec1(io("BLKI", DEV, 0o300), mem={0o300: word(0o777775, 0o500)}, machine=machine)
        assert m.memory[0o300] == word(0o777776, 0o501)
        assert m.memory[0o501] == 0o4444


class TestAprInterrupts:
    def test_clock_flag_sets_after_one_sixtieth_of_a_second(self, machine) -> None:
        m = machine
        m.memory[0o100] = ins("JRST", 0, 0o100)
        m.pc = 0o100
        stop = m.run(until_us=16_600)
        assert stop.reason == "time"
        assert not m.apr.clock_flag
        m.run(until_us=16_700)
        assert m.apr.clock_flag  # 16666.67 us

    def test_clock_interrupt(self, run_program) -> None:
        m = run_program(
            [io("CONO", "PI", 0o2220), io("CONO", "APR", 0o002003), ins("JRST", 0, 0o102)],
            mem={0o46: ins("JSR", 0, 0o600), 0o601: halt(0o601)},
            max_instructions=100_000,
        )
        assert m.pc == 0o601
        assert m.memory[0o600] & 0o777777 == 0o102
        assert 16_666 <= m.elapsed_us <= 16_666.7 + 20

    def test_clock_without_enable_does_not_interrupt(self, machine) -> None:
        m = machine
        m.memory[0o100] = io("CONO", "PI", 0o2220)
        m.memory[0o101] = io("CONO", "APR", 0o000003)  # PIA 3, clock not enabled
        m.memory[0o102] = ins("JRST", 0, 0o102)
        m.memory[0o46] = ins("JSR", 0, 0o600)
        m.pc = 0o100
        m.run(until_us=40_000)
        assert m.apr.clock_flag
        assert m.memory[0o600] == 0
        assert m.pc == 0o102

    def test_overflow_interrupt(self, run_program) -> None:
        m = run_program(
            [
                io("CONO", "PI", 0o2220),
                io("CONO", "APR", 0o000023),  # overflow interrupt enable, PIA 3
                ins("ADDI", 1, 1),
                ins("MOVEI", 2, 2),
            ],
            acs={1: 0o377777_777777},
            mem={0o46: ins("JSR", 0, 0o600), 0o601: halt(0o601)},
        )
        assert m.pc == 0o601
        assert m.memory[0o600] == word(0o500000, 0o103)  # OV CRY1 ,, next instruction
        assert m.memory[2] == 0

    def test_overflow_without_enable_does_not_interrupt(self, run_program) -> None:
        m = run_program(
            [io("CONO", "PI", 0o2220), io("CONO", "APR", 0o000003), ins("ADDI", 1, 1)],
            acs={1: 0o377777_777777},
            mem={0o46: ins("JSR", 0, 0o600)},
        )
        assert m.memory[0o600] == 0
        assert m.pc == 0o103

    def test_pc_change_interrupt(self, run_program) -> None:
        m = run_program(
            [
                io("CONO", "PI", 0o2220),
                io("CONO", "APR", 0o000203),  # PC-change interrupt enable, PIA 3
                ins("JRST", 0, 0o104),
                halt(0o103),
                ins("MOVEI", 1, 1),
            ],
            mem={0o46: ins("JSR", 0, 0o600), 0o601: halt(0o601)},
        )
        assert m.pc == 0o601
        assert m.memory[0o600] == word(PCCH, 0o104)
        assert m.memory[1] == 0

    def test_pushdown_overflow_interrupt(self, run_program) -> None:
        m = run_program(
            [io("CONO", "PI", 0o2300), io("CONO", "APR", 1), ins("PUSH", 0o17, 0)],
            acs={0o17: 0o777777_000777},
            mem={0o42: ins("JSR", 0, 0o600), 0o601: halt(0o601)},
        )
        assert m.pc == 0o601
        assert m.memory[0o600] & 0o777777 == 0o103
        assert m.apr.pushdown_overflow


class TestUnknownDevice:
    def test_unknown_device_reads_zero(self, run_program) -> None:
        m = run_program(
            [
                io("CONI", 0o774, 0o300),
                io("DATAI", 0o770, 0o301),
                io("CONO", 0o774, 0o777777),
                io("DATAO", 0o770, 0o302),
                io("CONSZ", 0o774, 0o777777),
                halt(0o105),
                io("CONSO", 0o774, 0o777777),
            ],
            mem={0o300: 0o111, 0o301: 0o222, 0o302: 0o333},
        )
        assert m.memory[0o300] == 0
        assert m.memory[0o301] == 0
        assert m.memory[0o302] == 0o333
        assert m.pc == 0o107  # CONSZ skipped, CONSO did not

    def test_device_conso_consz(self, machine, exec1) -> None:
        dev = machine.attach(FlagDevice(DEV))
        dev.flag = True
        machine.bus.publish(dev)
        assert exec1(io("CONSO", DEV, 0o10), machine=machine).pc == 0o102
        assert exec1(io("CONSZ", DEV, 0o10), machine=machine).pc == 0o101
