"""Byte instructions IBP LDB ILDB DPB IDPB (133-137; reference 1.6).

Pointer ``P(0-5) S(6-11) 0 I X Y``: the byte is the S bits whose rightmost bit is P
bits from the right of the word at the byte address, (C >> P) & (2^S - 1) for any P, S
in 0-63.  Increment: P -= S if that stays >= 0; otherwise P = (36 - S) mod 64 and the
whole pointer word is incremented (Y = 777777 carries into X and I).  S = 0 never
increments.  ILDB/IDPB set first-part-done after the increment and skip the increment
when restarted with it set; the flag is cleared at the end; JSR clears it; IBP never
sets it.
"""

from __future__ import annotations

import pytest

from .conftest import FPD, PCCH, RH, ins, io, word

PTR = 0o120  # where the tests keep a pointer in memory
DATA = 0o200
W = 0o123456_701234


def bp(p: int, s: int, y: int, *, i: int = 0, x: int = 0) -> int:
    """A byte pointer word."""
    return (p << 30) | (s << 24) | (i << 22) | (x << 18) | y


class TestLdb:
    @pytest.mark.parametrize(
        "p, s, expected",
        [
            (0o30, 6, 0o34),  # bits 6-11 of 123456701234
            (0, 6, 0o34),  # rightmost 6 bits
            (0o36, 6, 0o12),  # leftmost 6 bits
            (0, 0o44, W),  # the whole word
            (0, 0o77, W),  # S beyond 36: bits above bit 0 read as 0
            (0o36, 0o14, 0o12),  # 12-bit byte sticking out past bit 0
            (0o44, 6, 0),  # P = 36: entirely to the left of the word
            (0o22, 0, 0),  # S = 0 loads 0
            (3, 3, 0o3),  # 1234 -> bits 3-5 from the right: 0o1234 >> 3 & 7 = 3
        ],
    )
    def test_ldb(self, exec1, p: int, s: int, expected: int) -> None:
        m = exec1(ins("LDB", 1, PTR), acs={1: 0o777}, mem={PTR: bp(p, s, DATA), DATA: W})
        assert m.memory[1] == expected
        assert m.memory[PTR] == bp(p, s, DATA)  # LDB does not increment
        assert m.flags == 0

    def test_ldb_pointer_with_index(self, exec1) -> None:
        m = exec1(ins("LDB", 1, PTR), acs={3: 0o100}, mem={PTR: bp(0o36, 6, 0o100, x=3), DATA: W})
        assert m.memory[1] == 0o12

    def test_ldb_pointer_with_indirect(self, exec1) -> None:
        m = exec1(ins("LDB", 1, PTR), mem={PTR: bp(0o36, 6, 0o300, i=1), 0o300: DATA, DATA: W})
        assert m.memory[1] == 0o12

    def test_ldb_pointer_in_an_ac(self, exec1) -> None:
        m = exec1(ins("LDB", 1, 2), acs={2: bp(0, 0o14, DATA)}, mem={DATA: W})
        assert m.memory[1] == 0o1234


class TestDpb:
    @pytest.mark.parametrize(
        "p, s, ac, before, after",
        [
            (0o30, 6, 0o77, W, 0o127756_701234),
            (0, 6, 0o777777_777701, W, 0o123456_701201),  # only the low S bits of AC
            (0o36, 0o14, 0o7777, 0, 0o770000_000000),  # the part beyond bit 0 is lost
            (0, 0o44, 0o555, W, 0o555),
            (0o22, 0, 0o777, W, W),  # S = 0 deposits nothing
        ],
    )
    def test_dpb(self, exec1, p: int, s: int, ac: int, before: int, after: int) -> None:
        m = exec1(ins("DPB", 1, PTR), acs={1: ac}, mem={PTR: bp(p, s, DATA), DATA: before})
        assert m.memory[DATA] == after
        assert m.memory[1] == ac
        assert m.memory[PTR] == bp(p, s, DATA)


class TestIncrement:
    @pytest.mark.parametrize(
        "before, after",
        [
            (bp(0o44, 7, 0o100), bp(0o35, 7, 0o100)),
            (bp(0o35, 7, 0o100), bp(0o26, 7, 0o100)),
            (bp(0o01, 7, 0o100), bp(0o35, 7, 0o101)),  # next word, P = 36 - 7
            (bp(0o00, 6, 0o100), bp(0o36, 6, 0o101)),
            # reference 1.6 (aap): Y = 777777 carries into X: 000605777777 -> 360606000000
            (0o000605_777777, 0o360606_000000),
            (bp(0o44, 0, 0o100), bp(0o44, 0, 0o100)),  # S = 0 never increments
            (bp(0, 0, 0o100), bp(0, 0, 0o100)),
            (bp(0, 0o44, 0o100), bp(0, 0o44, 0o101)),  # P = (36 - 36) mod 64 = 0
            (bp(0o10, 0o50, 0o100), bp(0o74, 0o50, 0o101)),  # P = (36 - 40) mod 64 = 60
            # S = 77 and X, I, Y all ones: the increment carries out of S.  aap adds 1 to
            # the whole word first (cht4) and then inserts the new P = (36 - 63) mod 64 =
            # 45 (cht6), so the carry into the P field is lost: 450000000000.
            (0o007777_777777, 0o450000_000000),
        ],
    )
    def test_ibp(self, exec1, before: int, after: int) -> None:
        m = exec1(ins("IBP", 0, PTR), mem={PTR: before})
        assert m.memory[PTR] == after
        assert m.flags == 0  # IBP never sets first-part-done

    def test_ildb_increments_then_loads(self, exec1) -> None:
        # reference 1.6: ILDB 1,2 with 440600,,1000 -> AC2 360600001000, AC1 first byte
        m = exec1(ins("ILDB", 1, 2), acs={2: 0o440600_001000}, mem={0o1000: W})
        assert m.memory[2] == 0o360600_001000
        assert m.memory[1] == 0o12
        assert m.flags == 0  # first-part-done is cleared at the end

    def test_ildb_walks_through_words(self, run_program) -> None:
        prog = [ins("ILDB", ac, 2) for ac in range(3, 0o12)]
        m = run_program(prog, acs={2: 0o440600_001000}, mem={0o1000: W, 0o1001: 0o77 << 30})
        assert m.memory[3:0o12] == [0o12, 0o34, 0o56, 0o70, 0o12, 0o34, 0o77]
        assert m.memory[2] == 0o360600_001001

    def test_idpb_packs_ascii(self, run_program) -> None:
        m = run_program(
            [ins("IDPB", 3, PTR), ins("IDPB", 4, PTR)],
            acs={3: 0o101, 4: 0o102},
            mem={PTR: bp(0o44, 7, DATA)},
        )
        assert m.memory[DATA] == (0o101 << 29) | (0o102 << 22)
        assert m.memory[PTR] == bp(0o26, 7, DATA)


class TestFirstPartDone:
    def test_ildb_restarted_with_first_part_done_skips_the_increment(self, exec1) -> None:
        m = exec1(ins("ILDB", 1, PTR), mem={PTR: bp(0o36, 6, DATA), DATA: W}, flags=FPD)
        assert m.memory[PTR] == bp(0o36, 6, DATA)
        assert m.memory[1] == 0o12
        assert m.flags == 0

    def test_idpb_restarted_with_first_part_done(self, exec1) -> None:
        m = exec1(
            ins("IDPB", 1, PTR), acs={1: 0o77}, mem={PTR: bp(0o36, 6, DATA), DATA: 0}, flags=FPD
        )
        assert m.memory[PTR] == bp(0o36, 6, DATA)
        assert m.memory[DATA] == 0o770000_000000
        assert m.flags == 0

    def test_restore_with_jrst_2_then_restart(self, run_program) -> None:
        # The interrupted-ILDB case: the saved PC word has first-part-done set; JRST 2,@
        # restores it and the ILDB completes without a second increment.
        m = run_program(
            [ins("JRST", 2, 0o110, i=1)],
            mem={
                0o110: word(FPD, 0o111),
                0o111: ins("ILDB", 1, PTR),
                0o112: ins("JRST", 4, 0o112),
                PTR: bp(0o36, 6, DATA),
                DATA: W,
            },
        )
        assert m.pc == 0o112
        assert m.memory[1] == 0o12
        assert m.memory[PTR] == bp(0o36, 6, DATA)

    def test_ldb_ignores_and_clears_first_part_done(self, exec1) -> None:
        m = exec1(ins("LDB", 1, PTR), mem={PTR: bp(0o36, 6, DATA), DATA: W}, flags=FPD)
        assert m.memory[1] == 0o12
        assert not m.flags & FPD

    def test_jsr_stores_then_clears_first_part_done(self, exec1) -> None:
        m = exec1(ins("JSR", 0, 0o300), flags=FPD)
        assert m.memory[0o300] == word(FPD, 0o101)
        assert m.flags == PCCH


class TestInterruptedBetweenParts:
    """A request raised during an ILDB/IDPB's own address calculation is taken after
    the first part: the saved PC word holds first-part-done and the instruction's own
    address, and the restarted instruction does only its second part.  Our program does
    what DEC's diagnostic part 3a does (2715-2727): the last word of the address chain
    is in non-existent memory (read as 0, so E = 0 and the pointer is AC 0), which
    requests the APR's channel 1."""

    STACK = 0o400

    def run_interrupted(self, run_program, instruction: int) -> tuple[object, list[int]]:
        """Run ``instruction`` at 102 with the NXM set-up; the machine and the PC words
        the channel 1 handler saved, in order."""
        handler = [
            ins("PUSH", 0o16, 0o300),  # keep each saved PC word
            io("CONO", "APR", 0o10001),  # clear NXM, APR on channel 1
            ins("JRST", 0o12, 0o300, i=1),  # restore the flags, dismiss
        ]
        m = run_program(
            [io("CONO", "PI", 0o2300), io("CONO", "APR", 0o10001), instruction],
            acs={0: bp(0o44, 6, DATA), 1: 0o77, 0o16: word(-8, self.STACK)},
            mem={
                PTR: word(0o000020, 0o777776),  # @777776: beyond the 4K of core
                0o42: ins("JSR", 0, 0o300),
                **{0o301 + n: w for n, w in enumerate(handler)},
                DATA: W,
            },
            core_words=0o10000,
        )
        saved = m.memory[self.STACK + 1 : (m.memory[0o16] & RH) + 1]
        return m, saved

    def test_idpb_takes_the_interrupt_after_its_first_part(self, run_program) -> None:
        m, saved = self.run_interrupted(run_program, ins("IDPB", 1, PTR, i=1))
        first, after = saved
        assert first & RH == 0o102 and first >> 18 & FPD  # between the parts
        assert after & RH == 0o103 and not after >> 18 & FPD  # its second NXM, after it
        assert m.memory[0] == bp(0o36, 6, DATA)  # incremented once, not twice
        assert m.memory[DATA] == (W & 0o007777_777777) | 0o77 << 30
        assert m.pc == 0o103 and not m.flags & FPD

    def test_ildb_likewise(self, run_program) -> None:
        m, saved = self.run_interrupted(run_program, ins("ILDB", 1, PTR, i=1))
        assert [w & RH for w in saved] == [0o102, 0o103]
        assert saved[0] >> 18 & FPD and not saved[1] >> 18 & FPD
        assert m.memory[0] == bp(0o36, 6, DATA)
        assert m.memory[1] == W >> 30

    def test_any_instruction_finishes_before_the_interrupt_its_last_word_raised(
        self, run_program
    ) -> None:
        m, saved = self.run_interrupted(run_program, ins("MOVE", 2, PTR, i=1))
        assert [w & RH for w in saved] == [0o103]  # done, not abandoned and restarted
        assert m.memory[2] == bp(0o44, 6, DATA)  # C(E), E = 0 from the zero word
