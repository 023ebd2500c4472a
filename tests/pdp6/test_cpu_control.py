"""Control: JRST JFCL XCT JSR JSP JSA JRA PUSH POP PUSHJ POPJ EXCH BLT, UUOs, no-ops.

Rules from reference 1.3 (opcode table) and 1.4 (flags); each test cites its rule.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pdp6 import Machine

from .conftest import CRY0, CRY1, OV, PCCH, SIGN, UIOT, USER, halt, ins, io, word

E = 0o200
ROOT = Path(__file__).resolve().parents[2]


class TestJrst:
    def test_jrst_jumps_and_sets_pc_change(self, exec1) -> None:
        m = exec1(ins("JRST", 0, 0o300))
        assert m.pc == 0o300
        assert m.flags == PCCH

    def test_jrst_1_enters_user_mode(self, exec1) -> None:
        m = exec1(ins("JRST", 1, 0o300))
        assert m.pc == 0o300
        assert m.flags == USER | PCCH
        assert m.user_mode

    def test_jrst_2_restores_flags_from_the_indirect_word(self, exec1) -> None:
        # The flags are replaced (CRY0 goes), and JRST 2 does not set PC CHANGE.
        m = exec1(ins("JRST", 2, E, i=1), mem={E: word(OV | CRY1, 0o300)}, flags=CRY0)
        assert m.pc == 0o300
        assert m.flags == OV | CRY1

    def test_jrst_2_can_restore_pc_change(self, exec1) -> None:
        m = exec1(ins("JRST", 2, E, i=1), mem={E: word(PCCH, 0o300)})
        assert m.flags == PCCH

    def test_jrst_2_from_zero_flags_clears_everything(self, exec1) -> None:
        m = exec1(ins("JRST", 2, E, i=1), mem={E: 0o300}, flags=OV | CRY0 | CRY1 | PCCH)
        assert m.flags == 0
        assert m.pc == 0o300

    def test_direct_jrst_2_loads_the_instruction_left_half(self, exec1) -> None:
        # reference 1.3: a direct JRST 2,X loads the flags from its own left half 254100:
        # 200000 CRY0, 040000 PC CHANGE, 010000 USER -- and 004000 USER IOT, which (1.4)
        # is loaded because the processor is not yet in user mode.
        m = exec1(ins("JRST", 2, 0o300))
        assert m.flags == CRY0 | PCCH | USER | UIOT
        assert m.pc == 0o300

    def test_jrst_4_halts_with_pc_at_e(self, machine) -> None:
        machine.memory[0o100] = halt(0o345)
        machine.memory[0o345] = ins("MOVEI", 1, 1)
        machine.pc = 0o100
        stop = machine.run(max_instructions=100)
        assert stop.reason == "halt"
        assert stop.pc == 0o345
        assert machine.pc == 0o345
        assert stop.instructions == 1
        assert machine.memory[1] == 0  # the instruction at E has not run

    def test_jrst_10_dismisses_highest_held_channel(self, machine, exec1) -> None:
        machine.pi.active = True
        machine.pi.held = 0o030  # channels 3 and 4
        m = exec1(ins("JRST", 0o10, 0o300), machine=machine)
        assert m.pi.held == 0o010
        assert m.pc == 0o300

    def test_jrst_10_does_nothing_when_pi_is_not_active(self, machine, exec1) -> None:
        # reference 1.3: "dismiss the highest held PI level (does nothing if PI is not
        # active)"; aap pih0_fm_pi_ok1 only acts when PI is active.
        machine.pi.active = False
        machine.pi.held = 0o030
        m = exec1(ins("JRST", 0o10, 0o300), machine=machine)
        assert m.pi.held == 0o030
        assert m.pc == 0o300

    def test_jrst_12_restores_flags_and_dismisses(self, machine, exec1) -> None:
        machine.pi.active = True
        machine.pi.held = 0o100
        m = exec1(ins("JRST", 0o12, E, i=1), mem={E: word(OV, 0o300)}, machine=machine)
        assert m.pi.held == 0
        assert m.flags == OV
        assert m.pc == 0o300


class TestJfcl:
    @pytest.mark.parametrize(
        "ac, before, jumps, after",
        [
            (0o10, OV, True, PCCH),  # a jumping JFCL 10, leaves PC CHANGE set
            (0o10, CRY0, False, CRY0),
            (0o04, CRY0, True, PCCH),
            (0o02, CRY1, True, PCCH),
            (0o01, PCCH, True, 0),  # JFCL 1, ends with PC CHANGE clear
            (0o01, OV, False, OV),
            (0o17, OV | CRY0 | CRY1 | PCCH, True, 0),
            (0o10, OV | CRY0, True, CRY0 | PCCH),  # only tested flags are cleared
            (0o14, CRY0, True, PCCH),
            (0o16, 0, False, 0),
            (0o00, OV | CRY0 | CRY1 | PCCH, False, OV | CRY0 | CRY1 | PCCH),  # no-op
        ],
    )
    def test_jfcl(self, exec1, ac: int, before: int, jumps: bool, after: int) -> None:
        m = exec1(ins("JFCL", ac, 0o300), flags=before)
        assert m.pc == (0o300 if jumps else 0o101)
        assert m.flags == after

    def test_pdp6_identification(self, run_program) -> None:
        # reference 1.4 / rcornwell #63: JFCL 1,.+1 ; JRST .+1 ; JFCL 1,IS_PDP6
        # On a KA10 JFCL 1 tests floating overflow and does not jump here.
        m = run_program(
            [
                ins("JFCL", 1, 0o101),
                ins("JRST", 0, 0o102),
                ins("JFCL", 1, 0o110),
                halt(0o103),  # not a PDP-6
            ],
            mem={0o110: halt(0o110)},
            flags=PCCH,
        )
        assert m.pc == 0o110


class TestPcChange:
    """reference 1.4: any taken jump or skip sets PC CHANGE (except JRST 2,)."""

    @pytest.mark.parametrize(
        "inst, acs, mem",
        [
            (ins("JUMPA", 1, 0o300), {}, {}),
            (ins("AOJA", 1, 0o300), {}, {}),
            (ins("SOJA", 1, 0o300), {1: 5}, {}),
            (ins("AOBJN", 1, 0o300), {1: 0o777776_000000}, {}),
            (ins("JSR", 0, E), {}, {}),
            (ins("JSP", 1, 0o300), {}, {}),
            (ins("JSA", 1, E), {}, {}),
            (ins("JRA", 1, 0o300), {1: E << 18}, {}),
            (ins("PUSHJ", 0o17, 0o300), {0o17: 0o1000}, {}),
            (ins("POPJ", 0o17, 0), {0o17: 0o1_001000}, {0o1000: 0o300}),
            (ins("CAIA", 1, 0), {}, {}),
            (ins("CAMN", 1, E), {1: 1}, {E: 2}),
            (ins("SKIPA", 1, E), {}, {}),
            (ins("AOSA", 0, E), {}, {}),
            (ins("SOSGE", 0, E), {}, {E: 5}),
            (ins("TRNA", 1, 0), {}, {}),
            (ins("TDNN", 1, E), {1: 1}, {E: 1}),
            (io("CONSZ", "APR", 0o777777), {}, {}),
        ],
    )
    def test_taken_jump_or_skip_sets_pc_change(self, exec1, inst, acs, mem) -> None:
        m = exec1(inst, acs=acs, mem=mem)
        assert m.pc != 0o101
        assert m.flags & PCCH

    @pytest.mark.parametrize(
        "inst, acs, mem",
        [
            (ins("JUMP", 1, 0o300), {}, {}),
            (ins("JUMPN", 1, 0o300), {1: 0}, {}),
            (ins("AOJE", 1, 0o300), {1: 5}, {}),
            (ins("AOBJN", 1, 0o300), {1: 0o777777_000000}, {}),
            (ins("CAI", 1, 0), {}, {}),
            (ins("CAMN", 1, E), {1: 2}, {E: 2}),
            (ins("SKIPE", 1, E), {}, {E: 1}),
            (ins("TRN", 1, 0), {}, {}),
            (ins("JFCL", 0, 0o300), {}, {}),
            (ins("JRST", 2, E, i=1), {}, {E: 0o300}),
            (io("CONSO", "APR", 0), {}, {}),
        ],
    )
    def test_no_jump_no_pc_change(self, exec1, inst, acs, mem) -> None:
        m = exec1(inst, acs=acs, mem=mem)
        assert not m.flags & PCCH


class TestXct:
    def test_xct_executes_the_word_at_e(self, exec1) -> None:
        m = exec1(ins("XCT", 0, E), mem={E: ins("MOVEI", 1, 5)})
        assert m.memory[1] == 5
        assert m.pc == 0o101

    def test_xct_of_a_skip_skips_relative_to_the_xct(self, run_program) -> None:
        m = run_program([ins("XCT", 0, E), halt(0o101)], mem={E: ins("SKIPA")})
        assert m.pc == 0o102  # the auto-halt after the program, not the one at 101
        assert m.flags & PCCH

    def test_xct_of_a_jump(self, exec1) -> None:
        m = exec1(ins("XCT", 0, E), mem={E: ins("JRST", 0, 0o300)})
        assert m.pc == 0o300

    def test_xct_of_jsp_saves_the_pc_after_the_xct(self, exec1) -> None:
        m = exec1(ins("XCT", 0, E), mem={E: ins("JSP", 1, 0o300)})
        assert m.memory[1] == 0o101
        assert m.pc == 0o300

    def test_xct_chain(self, exec1) -> None:
        m = exec1(ins("XCT", 0, E), mem={E: ins("XCT", 0, E + 1), E + 1: ins("MOVEI", 1, 7)})
        assert m.memory[1] == 7
        assert m.pc == 0o101

    def test_xct_with_indexed_e(self, exec1) -> None:
        m = exec1(ins("XCT", 0, 0o177, x=2), acs={2: 1}, mem={E: ins("MOVEI", 1, 3)})
        assert m.memory[1] == 3

    def test_executed_instruction_computes_its_own_e(self, exec1) -> None:
        m = exec1(ins("XCT", 0, E), acs={1: 0o77, 3: 0o10}, mem={E: ins("MOVEM", 1, 0o300, x=3)})
        assert m.memory[0o310] == 0o77


class TestSubroutineJumps:
    def test_jsr_stores_pc_word_and_jumps_to_e_plus_1(self, exec1) -> None:
        # reference 5: JSR 1000 -> location 1000 = 0,,101
        m = exec1(ins("JSR", 0, 0o1000))
        assert m.memory[0o1000] == 0o101
        assert m.pc == 0o1001
        assert m.flags == PCCH

    def test_jsr_stores_flags(self, exec1) -> None:
        m = exec1(ins("JSR", 0, 0o1000), flags=OV | CRY0)
        assert m.memory[0o1000] == word(OV | CRY0, 0o101)

    def test_jsp_after_an_overflow(self, run_program) -> None:
        # reference 5: JSP 1, after an overflow -> AC1 = 400000,,102
        m = run_program(
            [ins("MOVN", 2, E), ins("JSP", 1, 0o300)],
            mem={E: SIGN, 0o300: halt(0o300)},
        )
        assert m.memory[1] == word(OV, 0o102)
        assert m.pc == 0o300

    def test_jsa(self, exec1) -> None:
        m = exec1(ins("JSA", 1, E), acs={1: 0o555})
        assert m.memory[E] == 0o555
        assert m.memory[1] == word(E, 0o101)
        assert m.pc == E + 1
        assert m.flags == PCCH

    def test_jra(self, exec1) -> None:
        m = exec1(ins("JRA", 1, 0o300), acs={1: word(E, 0o101)}, mem={E: 0o555})
        assert m.memory[1] == 0o555
        assert m.pc == 0o300

    def test_jsa_jra_subroutine(self, run_program) -> None:
        m = run_program(
            [ins("JSA", 1, E)],
            acs={1: 0o555},
            mem={E + 1: ins("MOVEI", 2, 0o42), E + 2: ins("JRA", 1, 0, x=1)},
        )
        assert m.pc == 0o101  # returned to the auto-halt after the JSA
        assert m.memory[1] == 0o555
        assert m.memory[2] == 0o42
        assert m.memory[E] == 0o555


class TestStack:
    def test_push(self, exec1) -> None:
        m = exec1(ins("PUSH", 0o17, E), acs={0o17: 0o1000}, mem={E: 0o123})
        assert m.memory[0o17] == 0o1_001001
        assert m.memory[0o1001] == 0o123
        assert not m.apr.pushdown_overflow
        assert m.flags == 0

    def test_push_overflow_sets_apr_flag(self, exec1) -> None:
        # reference 5: PUSH from 777777000777 -> AC 0,,1000, PDL OV (in the APR)
        m = exec1(ins("PUSH", 0o17, E), acs={0o17: 0o777777_000777}, mem={E: 0o123})
        assert m.memory[0o17] == 0o1000
        assert m.memory[0o1000] == 0o123
        assert m.apr.pushdown_overflow
        assert m.flags == 0  # not a PC flag

    def test_pop(self, exec1) -> None:
        m = exec1(ins("POP", 0o17, 0o300), acs={0o17: 0o1_001001}, mem={0o1001: 0o456})
        assert m.memory[0o300] == 0o456
        assert m.memory[0o17] == 0o1000
        assert not m.apr.pushdown_overflow

    def test_pop_underflow_sets_apr_flag(self, exec1) -> None:
        # reference 5: POP from 0,,1000 -> 777777000777, PDL OV
        m = exec1(ins("POP", 0o17, 0o300), acs={0o17: 0o1000}, mem={0o1000: 0o456})
        assert m.memory[0o17] == 0o777777_000777
        assert m.memory[0o300] == 0o456
        assert m.apr.pushdown_overflow

    def test_pop_p_p_writes_memory_first(self, exec1) -> None:
        # reference 1.3: POP P,P leaves P = old P - 1,,1 (KA10: the popped word)
        m = exec1(ins("POP", 0o17, 0o17), acs={0o17: 0o5_001000}, mem={0o1000: 0o123456})
        assert m.memory[0o17] == 0o4_000777

    def test_pushj(self, exec1) -> None:
        m = exec1(ins("PUSHJ", 0o17, 0o300), acs={0o17: 0o1000}, flags=OV)
        assert m.memory[0o17] == 0o1_001001
        assert m.memory[0o1001] == word(OV, 0o101)
        assert m.pc == 0o300
        assert m.flags == OV | PCCH

    def test_pushj_overflow_still_jumps(self, exec1) -> None:
        m = exec1(ins("PUSHJ", 0o17, 0o300), acs={0o17: 0o777777_000777})
        assert m.memory[0o17] == 0o1000
        assert m.memory[0o1000] == 0o101
        assert m.pc == 0o300
        assert m.apr.pushdown_overflow

    def test_popj_restores_only_the_pc(self, exec1) -> None:
        m = exec1(ins("POPJ", 0o17, 0), acs={0o17: 0o1_001001}, mem={0o1001: word(OV, 0o250)})
        assert m.pc == 0o250
        assert m.memory[0o17] == 0o1000
        assert m.flags == PCCH  # OV in the popped word is not restored

    def test_popj_underflow(self, exec1) -> None:
        m = exec1(ins("POPJ", 0o17, 0), acs={0o17: 0o1001}, mem={0o1001: 0o250})
        assert m.pc == 0o250
        assert m.memory[0o17] == 0o777777_001000
        assert m.apr.pushdown_overflow

    def test_pushj_popj_round_trip(self, run_program) -> None:
        m = run_program(
            [ins("PUSHJ", 0o17, 0o300), ins("MOVEI", 2, 2)],
            acs={0o17: 0o777000},
            mem={0o300: ins("MOVEI", 1, 1), 0o301: ins("POPJ", 0o17, 0)},
        )
        assert (m.memory[1], m.memory[2]) == (1, 2)
        assert m.memory[0o17] == 0o777000
        assert m.pc == 0o102


class TestExch:
    def test_exch(self, exec1) -> None:
        m = exec1(ins("EXCH", 1, E), acs={1: 5}, mem={E: 7})
        assert (m.memory[1], m.memory[E]) == (7, 5)

    def test_exch_with_an_ac(self, exec1) -> None:
        m = exec1(ins("EXCH", 1, 2), acs={1: 5, 2: 7})
        assert (m.memory[1], m.memory[2]) == (7, 5)


class TestBlt:
    def test_blt_copies_until_the_word_at_e(self, exec1) -> None:
        m = exec1(
            ins("BLT", 1, 0o303),
            acs={1: word(0o200, 0o300)},
            mem={0o200: 1, 0o201: 2, 0o202: 3, 0o203: 4, 0o204: 5},
        )
        assert m.memory[0o300:0o305] == [1, 2, 3, 4, 0]
        # reference 1.3: on normal completion AC is not written
        assert m.memory[1] == word(0o200, 0o300)
        assert m.pc == 0o101

    def test_blt_clear_block_idiom(self, run_program) -> None:
        mem = {a: 0o777 for a in range(0o300, 0o311)}
        m = run_program(
            [ins("SETZM", 0, 0o300), ins("BLT", 1, 0o307)], acs={1: word(0o300, 0o301)}, mem=mem
        )
        assert m.memory[0o300:0o310] == [0] * 8
        assert m.memory[0o310] == 0o777

    def test_blt_with_e_equal_to_destination_copies_one_word(self, exec1) -> None:
        m = exec1(ins("BLT", 1, 0o300), acs={1: word(0o200, 0o300)}, mem={0o200: 7, 0o201: 8})
        assert m.memory[0o300:0o302] == [7, 0]

    def test_blt_with_e_below_destination_copies_one_word(self, exec1) -> None:
        # reference 1.3: "copies at least one word"; aap stops when dest >= E (BLT_DONE
        # tests the sign of dest - E), so exactly one word moves.
        m = exec1(ins("BLT", 1, 0o250), acs={1: word(0o200, 0o300)}, mem={0o200: 7, 0o201: 8})
        assert m.memory[0o300:0o302] == [7, 0]
        assert m.memory[0o250] == 0
        assert m.pc == 0o101

    def test_blt_into_the_acs(self, exec1) -> None:
        m = exec1(ins("BLT", 1, 4), acs={1: word(0o200, 2)}, mem={0o200: 5, 0o201: 6, 0o202: 7})
        assert m.memory[2:5] == [5, 6, 7]

    def test_blt_stopped_by_an_interrupt_writes_ac_and_restarts(self, run_program) -> None:
        # 4K of core: the second word goes to non-existent 10000, which sets NXM; the APR
        # requests channel 1, so the copy stops between words with AC = next src,,dest and
        # PC not advanced.  The handler clears NXM, drops the APR's PIA and returns; the
        # BLT restarts and completes without writing AC again.
        handler = {
            0o42: ins("JSR", 0, 0o600),
            0o601: ins("AOS", 0, 0o700),
            0o602: io("CONO", "APR", 0o010000),  # clear NXM, PIA 0
            0o603: ins("JRST", 0o12, 0o600, i=1),
        }
        m = run_program(
            [
                io("CONO", "PI", 0o2300),  # channel 1 on, PI active
                io("CONO", "APR", 1),  # APR on channel 1
                ins("BLT", 1, 0o10002),
            ],
            acs={1: word(0o200, 0o7777)},
            mem={0o200: 0o11, 0o201: 0o22, **handler},
            core_words=0o10000,
        )
        assert m.memory[0o700] == 1
        assert m.memory[0o600] == word(0, 0o102)  # interrupted at the BLT itself
        assert m.memory[1] == word(0o202, 0o10001)
        assert m.memory[0o7777] == 0o11
        assert m.pc == 0o103

    def test_clock_interrupt_stops_a_long_blt(self, run_program) -> None:
        # 4096 words take about 22 ms; the clock request at 16.67 ms stops the copy
        # between words (reference 1.3, 2.1).  The handler turns the clock off and
        # returns; the BLT restarts from the AC it wrote and finishes.
        src, dst, n = 0o10000, 0o20000, 0o10000
        mem = {src: 0o1, src + n // 2: 0o2, src + n - 1: 0o3}
        mem |= {
            0o42: ins("JSR", 0, 0o600),
            0o601: ins("AOS", 0, 0o700),
            0o602: io("CONO", "APR", 0o005000),  # clock off, flag cleared, PIA 0
            0o603: ins("JRST", 0o12, 0o600, i=1),
        }
        m = run_program(
            [
                io("CONO", "PI", 0o2300),
                io("CONO", "APR", 0o002001),  # clock interrupt on channel 1
                ins("BLT", 1, dst + n - 1),
            ],
            acs={1: word(src, dst)},
            mem=mem,
        )
        assert m.memory[0o700] == 1
        assert m.memory[0o600] & 0o777777 == 0o102  # the BLT itself
        assert [m.memory[dst], m.memory[dst + n // 2], m.memory[dst + n - 1]] == [1, 2, 3]
        copied = (m.memory[1] & 0o777777) - dst
        assert 0 < copied < n  # AC was written with the pointer at the interruption
        assert m.memory[1] == word(src + copied, dst + copied)
        assert m.pc == 0o103

    def test_interrupted_blt_recomputes_e_from_the_advanced_ac(self, run_program) -> None:
        # BLT 1,17777(1): E depends on AC.  The clock interrupt stops the copy after k
        # words with AC = src+k,,dst+k; the restart computes E = 17777 + dst + k, so the
        # copy ends k words further on, as on the hardware.
        src, dst, n = 0o10000, 0o40000, 0o20000
        mem = {src + i: i + 1 for i in range(2 * n)}
        mem |= {
            0o42: ins("JSR", 0, 0o600),
            0o601: ins("MOVEM", 1, 0o700),
            0o602: io("CONO", "APR", 0o005000),  # clock off, flag cleared, PIA 0
            0o603: ins("JRST", 0o12, 0o600, i=1),
        }
        m = run_program(
            [io("CONO", "PI", 0o2300), io("CONO", "APR", 0o002001), ins("BLT", 1, n - 1, x=1)],
            acs={1: word(src, dst)},
            mem=mem,
        )
        k = (m.memory[0o700] & 0o777777) - dst
        assert 0 < k < n
        assert m.memory[0o700] == word(src + k, dst + k)
        last = dst + k + n - 1
        assert m.memory[last] == last - dst + 1
        assert m.memory[last + 1] == 0

    def test_host_device_events_do_not_stop_a_blt(self, machine, run_program) -> None:
        # DEC's BLT test: PI off (CONO PI,1177), BLT 1,1777(1) into the last 2K of 32K.
        # A teletype is attached, whose keyboard is looked at every 20 ms of emulated time;
        # ten copies of 5.6 ms each cross that twice.  The copies must run to their end with
        # AC untouched; a stop would recompute E from the advanced AC and run off the end
        # of core into NXM.
        from pdp6.devices.teletype import Teletype

        m = Machine(core_words=0o100000, engine=machine.engine)
        m.attach(Teletype(baud=None))
        base = word(0o70000, 0o76000)
        m = run_program(
            [
                io("CONO", "PI", 0o1177),
                ins("MOVEI", 3, 10),
                ins("MOVE", 1, 0o200),
                ins("BLT", 1, 0o1777, x=1),
                ins("SOJG", 3, 0o102),
            ],
            mem={0o200: base, 0o70000: 0o11, 0o71777: 0o22},
            machine=m,
            max_instructions=100,
        )
        assert m.elapsed_us > 40_000
        assert not m.apr.nxm
        assert m.memory[1] == base
        assert (m.memory[0o76000], m.memory[0o77777]) == (0o11, 0o22)


class TestUuo:
    @pytest.mark.parametrize("op", range(0o100))
    def test_every_uuo_traps_to_40_and_41(self, run_program, op: int) -> None:
        # reference 1.3: store op,AC,0,0,E in 40 (I and X zeroed, E computed), execute 41
        m = run_program(
            [ins(op, 1, 0o1234, x=2)],
            acs={2: 0o10},
            mem={0o41: ins("JSR", 0, 0o500), 0o501: halt(0o501)},
        )
        assert m.memory[0o40] == (op << 27) | (1 << 23) | 0o1244
        assert m.memory[0o500] == 0o101
        assert m.pc == 0o501

    @pytest.mark.parametrize("op, stored", [(0o000, 0o000040_001234), (0o040, 0o040040_001234)])
    def test_reference_examples(self, run_program, op: int, stored: int) -> None:
        m = run_program([ins(op, 1, 0o1234)], mem={0o41: ins("JSR", 0, 0o500), 0o501: halt(0o501)})
        assert m.memory[0o40] == stored

    def test_indirect_uuo_stores_the_final_e(self, run_program) -> None:
        m = run_program(
            [ins(0o001, 3, E, i=1)],
            mem={E: 0o4321, 0o41: ins("JSR", 0, 0o500), 0o501: halt(0o501)},
        )
        assert m.memory[0o40] == 0o001140_004321

    def test_non_jump_in_41_continues_after_the_uuo(self, run_program) -> None:
        m = run_program([ins(0o040, 0, 0), ins("MOVEI", 2, 1)], mem={0o41: ins("AOS", 0, 0o300)})
        assert m.memory[0o300] == 1
        assert m.memory[2] == 1
        assert m.pc == 0o102

    def test_skip_in_41_skips_the_instruction_after_the_uuo(self, run_program) -> None:
        m = run_program([ins(0o040, 0, 0), ins("MOVEI", 2, 1)], mem={0o41: ins("SKIPA")})
        assert m.memory[2] == 0
        assert m.pc == 0o102


# Each script builds a machine whose next instruction never completes in the emulator
# and checks that run(max_instructions=...) still returns.  On the hardware both loops
# are ordinary instruction sequences: each XCT or UUO step goes through the address
# cycle, where PI is sampled (aap it1a -> at0 -> pi_sync), so the console and
# interrupts can stop them.
_ENDLESS = {
    "xct-self": "m.memory[0o100] = 0o256000_000100  # XCT 100 at 100",
    "uuo-in-41": "m.memory[0o100] = 0o040000_000000; m.memory[0o41] = 0  # UUO, 41 = UUO",
}
_SCRIPT = """
from pdp6 import Machine
m = Machine(engine="python")
{setup}
m.pc = 0o100
print(m.run(max_instructions=10).reason)
"""


def test_endless_xct_or_uuo_chain_does_not_hang_run() -> None:
    env = dict(os.environ, PDP6_NOJIT="1")
    procs = {
        name: subprocess.Popen(
            [sys.executable, "-c", _SCRIPT.format(setup=setup)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, setup in _ENDLESS.items()
    }
    deadline = time.monotonic() + 8
    results = {}
    for name, proc in procs.items():
        try:
            out, _ = proc.communicate(timeout=max(0.1, deadline - time.monotonic()))
            results[name] = out.strip()
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            results[name] = "hung"
    assert results == {name: "limit" for name in _ENDLESS}


NOOPS = [*range(0o100, 0o132), 0o243, 0o247, 0o257]


class TestNoOps:
    @pytest.mark.parametrize("op", NOOPS, ids=[f"{op:03o}" for op in NOOPS])
    def test_noop_changes_nothing(self, exec1, op: int) -> None:
        # reference 1.3/1.9: 100-131, 243, 247, 257 are no-ops (KA10: traps, UFA, DFN,
        # JFFO, MAP)
        m = exec1(
            ins(op, 1, E), acs={1: 0o123, 2: 0o456}, mem={E: 0o777, 0o41: ins("JRST", 0, 0o700)}
        )
        assert m.pc == 0o101
        assert (m.memory[1], m.memory[2], m.memory[E]) == (0o123, 0o456, 0o777)
        assert m.memory[0o40] == 0
        assert m.flags == 0
