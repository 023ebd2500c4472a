"""User mode: protection and relocation, user IOT, UUOs from user mode (reference 1.3,
1.4, 1.9 items 6-7, 1.10, 2.1).

``DATAO APR,`` loads protection PR (bits 0-7) and relocation RLR (bits 18-25): user
addresses above PR*2000+1777 are illegal, the rest map to virtual + RLR*2000; ACs are
never relocated; PI cycles and UUOs (until the JSR in 41) run unrelocated.  Here
PR = 1 (virtual 0-3777 legal) and RLR = 4 (physical = virtual + 10000).
"""

from __future__ import annotations

import pytest

from pdp6.iobus import NEVER

from .conftest import PCCH, UIOT, USER, FlagDevice, halt, ins, io, word

EXEC = 0o1000  # exec-mode set-up code lives here
PROT_WORD = 0o1200
OFFSET = 0o10000  # RLR = 4 blocks of 2000
UUO_SAVE = 0o500
DEV = 0o770


def setup_mem(user_code: list[int], extra_exec: list[int] = ()) -> tuple[list[int], dict]:
    """Exec code that enters user mode at virtual 100, and the physical memory map."""
    exec_code = [
        *extra_exec,
        io("DATAO", "APR", PROT_WORD),
        ins("JRST", 1, 0o100),
    ]
    mem = {
        PROT_WORD: (1 << 28) | (4 << 10),  # PR = 1, RLR = 4
        0o41: ins("JSR", 0, UUO_SAVE),
        UUO_SAVE + 1: halt(UUO_SAVE + 1),
    }
    for k, w in enumerate(user_code):
        mem[OFFSET + 0o100 + k] = w
    return exec_code, mem


def exit_uuo() -> int:
    return ins(0o040, 0, 0)


class TestRelocation:
    def test_datao_apr_loads_the_registers(self, exec1) -> None:
        m = exec1(io("DATAO", "APR", PROT_WORD), mem={PROT_WORD: (1 << 28) | (4 << 10)})
        assert (m.apr.protection, m.apr.relocation) == (1, 4)

    def test_user_program_runs_relocated(self, run_program) -> None:
        code, mem = setup_mem([ins("MOVE", 1, 0o200), ins("MOVEM", 1, 0o201), ins(0o040, 3, 0o123)])
        mem |= {OFFSET + 0o200: 0o4242, 0o200: 0o1111}
        m = run_program(code, start=EXEC, mem=mem)
        assert m.memory[1] == 0o4242
        assert m.memory[OFFSET + 0o201] == 0o4242
        assert m.memory[0o201] == 0
        # the UUO went to absolute 40/41; the JSR saved the virtual PC and USER
        assert m.memory[0o40] == 0o040140_000123
        assert m.memory[OFFSET + 0o40] == 0
        assert m.memory[UUO_SAVE] == word(USER | PCCH, 0o103)
        # JSR from a UUO leaves user mode
        assert m.pc == UUO_SAVE + 1
        assert not m.user_mode

    def test_acs_are_not_relocated(self, run_program) -> None:
        code, mem = setup_mem([ins("MOVEI", 5, 7), ins("MOVEM", 5, 6), exit_uuo()])
        m = run_program(code, start=EXEC, mem=mem)
        assert m.memory[6] == 7
        assert m.memory[OFFSET + 6] == 0

    def test_highest_legal_address(self, run_program) -> None:
        code, mem = setup_mem([ins("MOVE", 1, 0o3777), exit_uuo()])
        mem[OFFSET + 0o3777] = 0o77
        m = run_program(code, start=EXEC, mem=mem)
        assert m.memory[1] == 0o77
        assert not m.apr.illegal_op


class TestProtection:
    def test_read_beyond_protection_sets_illegal_op(self, run_program) -> None:
        code, mem = setup_mem([ins("MOVE", 1, 0o4000), exit_uuo()])
        mem[OFFSET + 0o4000] = 0o55
        m = run_program(code, start=EXEC, acs={1: 0o777}, mem=mem)
        assert m.apr.illegal_op
        assert m.memory[1] == 0o777  # the instruction was aborted

    def test_write_beyond_protection_is_suppressed(self, run_program) -> None:
        code, mem = setup_mem([ins("MOVEM", 1, 0o4000), exit_uuo()])
        m = run_program(code, start=EXEC, acs={1: 0o777}, mem=mem)
        assert m.apr.illegal_op
        assert m.memory[OFFSET + 0o4000] == 0
        assert m.memory[0o4000] == 0

    def test_violation_interrupts_and_jsr_leaves_user_mode(self, run_program) -> None:
        code, mem = setup_mem(
            [ins("MOVE", 1, 0o4000), ins("MOVEI", 2, 2)],
            extra_exec=[io("CONO", "PI", 0o2300), io("CONO", "APR", 1)],
        )
        mem |= {0o42: ins("JSR", 0, 0o600), 0o601: halt(0o601)}
        m = run_program(code, start=EXEC, mem=mem)
        assert m.pc == 0o601
        assert m.memory[0o600] == word(USER | PCCH, 0o101)  # interrupted user PC
        assert not m.user_mode
        assert m.memory[2] == 0

    def test_cono_pi_clearing_the_request_keeps_the_interrupt_cycle(self, run_program) -> None:
        # DEC's diagnostic: a PUSH overflows in user mode; the APR cell holds CONO PI,10000,
        # which clears the request being served.  The interrupt cycle is not over (aap:
        # no PI_HOLD for a CONO, so no pi_exit), and with no request left the next fetch
        # is from 40, still in the cycle: the JSR there leaves user mode.
        code, mem = setup_mem(
            [ins("PUSH", 1, 2), ins("JRST", 0, 0o101)],
            extra_exec=[io("CONO", "PI", 0o2300), io("CONO", "APR", 1)],
        )
        mem |= {0o42: io("CONO", "PI", 0o10000), 0o40: ins("JSR", 0, 0o600), 0o601: halt(0o601)}
        m = run_program(code, start=EXEC, acs={1: word(0o777777, 0o200)}, mem=mem)
        assert m.pc == 0o601
        assert m.memory[0o600] == word(USER | PCCH, 0o101)  # the user PC after the PUSH
        assert not m.user_mode
        assert m.memory[1] == word(0, 0o201) and m.apr.pushdown_overflow
        assert not m.pi.active and m.pi.held == 0


class TestUserIot:
    def test_iot_without_user_iot_is_a_uuo(self, run_program) -> None:
        code, mem = setup_mem([io("CONO", "PI", 0o1234)])
        m = run_program(code, start=EXEC, mem=mem)
        assert m.memory[0o40] == 0o700600_001234
        assert m.pi.on == 0 and not m.pi.active
        assert m.memory[UUO_SAVE] == word(USER | PCCH, 0o101)

    def test_iot_with_user_iot(self, run_program) -> None:
        code, mem = setup_mem(
            [io("CONI", "APR", 0o200), exit_uuo()], extra_exec=[io("CONO", "APR", 0o040000)]
        )
        m = run_program(code, start=EXEC, mem=mem)
        # CONI APR: USER IOT (100000), USER (040000), PC CHANGE flag (000100, from JRST 1)
        assert m.memory[OFFSET + 0o200] == 0o140100
        assert m.memory[0o40] == 0o040000_000000

    def test_io_in_a_pi_cycle_is_allowed_and_unrelocated(self, machine) -> None:
        class Timed(FlagDevice):
            fired = False

            def next_event(self) -> int:
                return NEVER if self.fired else 100_000

            def service(self, now: int) -> None:
                self.flag = self.fired = True

        dev = machine.attach(Timed(DEV))
        dev.pia = 3
        code, mem = setup_mem([ins("JRST", 0, 0o100)], extra_exec=[io("CONO", "PI", 0o2377)])
        mem |= {0o46: io("DATAO", DEV, 0o700), 0o700: 0o1234, OFFSET + 0o700: 0o4321}
        for a, v in mem.items():
            machine.memory[a] = v
        for k, w in enumerate(code):
            machine.memory[EXEC + k] = w
        machine.pc = EXEC
        machine.run(until_us=200)
        assert dev.received == [0o1234]
        assert machine.memory[0o40] == 0  # no UUO
        assert machine.user_mode
        assert machine.pc == 0o100


class TestIllegalInUserMode:
    @pytest.mark.parametrize("ac", [4, 0o10, 0o14])
    def test_jrst_4_and_10_are_uuos(self, run_program, ac: int) -> None:
        code, mem = setup_mem([ins("JRST", ac, 0o300)])
        m = run_program(code, start=EXEC, mem=mem)
        assert m.memory[0o40] == ins("JRST", ac, 0o300)
        assert m.pc == UUO_SAVE + 1  # stopped by the exec-mode halt, not the JRST 4

    def test_jrst_2_cannot_leave_user_mode_or_load_user_iot(self, run_program) -> None:
        # reference 1.4: bit 5 set -> user mode begins; USER IOT only loaded when not in
        # user mode.  aap ar_flag_set only ever sets EX USER, so clearing bit 5 in the
        # restored word does not return to exec mode.
        code, mem = setup_mem([ins("JRST", 2, 0o210, i=1)])
        mem |= {OFFSET + 0o210: word(UIOT, 0o105), OFFSET + 0o105: exit_uuo()}
        m = run_program(code, start=EXEC, mem=mem)
        assert m.memory[0o40] == 0o040000_000000  # the UUO at 105 ran in user mode
        assert m.memory[UUO_SAVE] == word(USER, 0o106)

    def test_jrst_2_keeps_user_iot_in_user_mode(self, run_program) -> None:
        code, mem = setup_mem(
            [ins("JRST", 2, 0o210, i=1)], extra_exec=[io("CONO", "APR", 0o040000)]
        )
        mem |= {
            OFFSET + 0o210: word(0, 0o105),
            OFFSET + 0o105: io("CONI", "APR", 0o201),
            OFFSET + 0o106: exit_uuo(),
        }
        m = run_program(code, start=EXEC, mem=mem)
        assert m.memory[OFFSET + 0o201] == 0o140000
        assert m.memory[UUO_SAVE] == word(USER | UIOT, 0o107)


class TestUuoRelocationInhibit:
    def test_relocation_stays_off_when_41_is_not_a_jsr(self, machine) -> None:
        # reference 1.3: relocation is inhibited from the UUO until a JSR; if 41 is not a
        # JSR it stays off, so the next user instruction comes from physical 101.
        code, mem = setup_mem([exit_uuo(), ins("MOVEI", 2, 2)])
        mem |= {
            0o41: ins("AOS", 0, 0o300),
            0o101: ins("MOVEI", 2, 1),
            0o102: ins("JRST", 0, 0o102),
        }
        for a, v in mem.items():
            machine.memory[a] = v
        for k, w in enumerate(code):
            machine.memory[EXEC + k] = w
        machine.pc = EXEC
        machine.run(max_instructions=20)
        assert machine.memory[0o300] == 1
        assert machine.memory[2] == 1
        assert machine.pc == 0o102
        assert machine.user_mode

    def test_iot_during_the_uuo_inhibit_is_still_a_user_uuo(self, machine) -> None:
        code, mem = setup_mem([exit_uuo()])
        mem |= {
            0o41: ins("AOS", 0, 0o300),
            0o101: io("CONO", "PI", 0o2300),
            0o102: ins("JRST", 0, 0o102),
        }
        for a, v in mem.items():
            machine.memory[a] = v
        for k, w in enumerate(code):
            machine.memory[EXEC + k] = w
        machine.pc = EXEC
        machine.run(max_instructions=20)
        assert machine.memory[0o300] == 2  # the CONO trapped as a second UUO
        assert machine.pi.on == 0


class TestOnlyJsrLeavesUserMode:
    """reference 1.9 item 7: only JSR executed as a UUO or interrupt instruction leaves
    user mode (on the KA10 JSP, PUSHJ and JSA do too)."""

    def test_jsp_in_41(self, machine) -> None:
        code, mem = setup_mem([exit_uuo()])
        mem |= {0o41: ins("JSP", 1, 0o600), 0o600: ins("JRST", 0, 0o600)}
        for a, v in mem.items():
            machine.memory[a] = v
        for k, w in enumerate(code):
            machine.memory[EXEC + k] = w
        machine.pc = EXEC
        machine.run(max_instructions=10)
        assert machine.user_mode
        assert machine.memory[1] == word(USER | PCCH, 0o101)
        assert machine.pc == 0o600  # still unrelocated: no JSR cleared the UUO inhibit

    def test_pushj_in_an_interrupt_location(self, machine) -> None:
        class Timed(FlagDevice):
            fired = False

            def next_event(self) -> int:
                return NEVER if self.fired else 100_000

            def service(self, now: int) -> None:
                self.flag = self.fired = True

        dev = machine.attach(Timed(DEV))
        dev.pia = 3
        code, mem = setup_mem([ins("JRST", 0, 0o100)], extra_exec=[io("CONO", "PI", 0o2377)])
        mem |= {
            0o46: ins("PUSHJ", 0o17, 0o200),
            OFFSET + 0o200: io("CONO", DEV, 0o20),  # user code: needs USER IOT -> UUO
        }
        for a, v in mem.items():
            machine.memory[a] = v
        for k, w in enumerate(code):
            machine.memory[EXEC + k] = w
        machine.memory[0o17] = 0o700
        machine.pc = EXEC
        machine.run(until_us=200)
        # The PUSHJ ran in the PI cycle (unrelocated stack) and left user mode alone, so
        # the CONO at (relocated) 200 ran in user mode and trapped as a UUO.
        assert machine.memory[0o701] == word(USER | PCCH, 0o100)
        assert machine.memory[0o40] == io("CONO", DEV, 0o20)
        assert dev.conos == []
