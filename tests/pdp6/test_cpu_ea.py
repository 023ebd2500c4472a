"""Effective-address calculation (reference 1.2) and the ACs as memory (1.1).

E <- Y; with X, E <- (Y + C(X)) mod 2^18 (right half only); with I, fetch the word at E
and repeat with its I, X, Y (chains of any length; PI is sampled between indirect
steps).  E in 0-17 addresses the ACs, and a program can run in the ACs.
"""

from __future__ import annotations

from .conftest import PCCH, halt, ins, io

IND = 0o000020_000000  # the I bit of an indirect word


class TestIndexing:
    def test_indexing_adds_the_right_half(self, exec1) -> None:
        m = exec1(ins("MOVEI", 1, 0o10, x=2), acs={2: 5})
        assert m.memory[1] == 0o15

    def test_left_half_of_the_index_is_ignored(self, exec1) -> None:
        m = exec1(ins("MOVEI", 1, 0o10, x=2), acs={2: 0o777777_000005})
        assert m.memory[1] == 0o15

    def test_index_sum_wraps_mod_2_18(self, exec1) -> None:
        m = exec1(ins("MOVEI", 1, 2, x=2), acs={2: 0o777777})
        assert m.memory[1] == 1

    def test_negative_index(self, exec1) -> None:
        m = exec1(ins("MOVE", 1, 0o201, x=2), acs={2: 0o777777_777777}, mem={0o200: 0o42})
        assert m.memory[1] == 0o42

    def test_ac17_as_index(self, exec1) -> None:
        m = exec1(ins("MOVEI", 1, 1, x=0o17), acs={0o17: 0o300})
        assert m.memory[1] == 0o301

    def test_index_register_0_means_no_indexing(self, exec1) -> None:
        m = exec1(ins("MOVEI", 1, 5, x=0), acs={0: 0o100})
        assert m.memory[1] == 5


class TestIndirect:
    def test_one_level(self, exec1) -> None:
        m = exec1(ins("MOVE", 1, 0o200, i=1), mem={0o200: 0o300, 0o300: 0o42})
        assert m.memory[1] == 0o42

    def test_chain(self, exec1) -> None:
        m = exec1(
            ins("MOVEI", 1, 0o200, i=1),
            mem={0o200: IND | 0o201, 0o201: IND | 0o202, 0o202: 0o300},
        )
        assert m.memory[1] == 0o300

    def test_indirect_word_with_index(self, exec1) -> None:
        m = exec1(ins("MOVEI", 1, 0o200, i=1), acs={3: 0o270}, mem={0o200: 0o3_000010})
        assert m.memory[1] == 0o300

    def test_index_then_indirect(self, exec1) -> None:
        # The instruction's own index is applied before its indirect fetch.
        m = exec1(ins("MOVEI", 1, 0o177, i=1, x=2), acs={2: 1}, mem={0o200: 0o300})
        assert m.memory[1] == 0o300

    def test_indirect_through_an_ac(self, exec1) -> None:
        m = exec1(ins("MOVE", 1, 5, i=1), acs={5: 0o300}, mem={0o300: 0o42})
        assert m.memory[1] == 0o42

    def test_left_half_of_the_indirect_word_is_only_i_and_x(self, exec1) -> None:
        # Bits 0-12 of an indirect word are ignored.
        m = exec1(ins("MOVEI", 1, 0o200, i=1), mem={0o200: 0o777740_000300})
        assert m.memory[1] == 0o300

    def test_endless_indirect_loop_does_not_hang_run(self, machine) -> None:
        machine.memory[0o100] = ins("MOVE", 1, 0o200, i=1)
        machine.memory[0o200] = IND | 0o200
        machine.pc = 0o100
        stop = machine.run(max_instructions=3)
        assert stop.reason == "limit"
        assert machine.pc == 0o100  # the instruction never completes

    def test_interrupt_taken_during_an_endless_indirect_loop(self, machine) -> None:
        # reference 1.2: PI is sampled between indirect steps.  The 60 Hz clock on
        # channel 1 interrupts the loop; the saved PC is the looping instruction.
        m = machine
        m.memory[0o100] = io("CONO", "PI", 0o2300)
        m.memory[0o101] = io("CONO", "APR", 0o2001)  # clock interrupt enable, PIA 1
        m.memory[0o102] = ins("MOVE", 1, 0o200, i=1)
        m.memory[0o200] = IND | 0o200
        m.memory[0o42] = ins("JSR", 0, 0o600)
        m.memory[0o601] = halt(0o601)
        m.pc = 0o100
        stop = m.run(until_us=200_000)
        assert stop.reason == "halt"
        assert m.pc == 0o601
        assert m.memory[0o600] & 0o777777 == 0o102
        assert m.apr.clock_flag

    def test_clock_interrupt_during_an_indirect_loop_is_on_time(self, machine) -> None:
        # The flag sets at 16666.67 us; the next indirect step samples PI (3 us per level).
        m = machine
        m.memory[0o100] = io("CONO", "PI", 0o2300)
        m.memory[0o101] = io("CONO", "APR", 0o2001)
        m.memory[0o102] = ins("MOVE", 1, 0o200, i=1)
        m.memory[0o200] = IND | 0o200
        m.memory[0o42] = ins("JSR", 0, 0o600)
        m.memory[0o601] = halt(0o601)
        m.pc = 0o100
        m.run(until_us=200_000)
        assert m.pc == 0o601
        assert m.elapsed_us < 16_666.7 + 50


class TestAcsAsMemory:
    def test_move_from_an_ac(self, exec1) -> None:
        m = exec1(ins("MOVE", 1, 3), acs={3: 0o77})
        assert m.memory[1] == 0o77

    def test_movem_to_ac17(self, exec1) -> None:
        m = exec1(ins("MOVEM", 1, 0o17), acs={1: 0o55})
        assert m.memory[0o17] == 0o55

    def test_addm_to_an_ac(self, exec1) -> None:
        m = exec1(ins("ADDM", 1, 4), acs={1: 2, 4: 3})
        assert m.memory[4] == 5
        assert m.memory[1] == 2

    def test_e_of_20_is_core_not_an_ac(self, exec1) -> None:
        m = exec1(ins("MOVEM", 1, 0o20), acs={1: 0o55, 0: 0o11})
        assert m.memory[0o20] == 0o55
        assert m.memory[0] == 0o11

    def test_program_running_in_the_acs(self, run_program) -> None:
        # A loop in ACs 10-13: count AC1 up to 5 with AOJ-free code.
        code = {
            0o10: ins("ADDI", 1, 1),
            0o11: ins("CAIGE", 1, 5),
            0o12: ins("JRST", 0, 0o10),
            0o13: halt(0o13),
        }
        m = run_program([ins("JRST", 0, 0o10)], acs={1: 0, **code})
        assert m.pc == 0o13
        assert m.memory[1] == 5
        assert m.flags & PCCH

    def test_program_in_the_acs_modifies_itself(self, run_program) -> None:
        code = {
            0o10: ins("AOS", 0, 0o11),  # turns the next MOVEI 2,0 into MOVEI 2,1
            0o11: ins("MOVEI", 2, 0),
            0o12: halt(0o12),
        }
        m = run_program([ins("JRST", 0, 0o10)], acs=code)
        assert m.memory[2] == 1
