""".OP: execute one instruction at assembly time, on the emulator itself.

``.OP insn,ac,mem`` runs ``insn`` as MIDAS does: with its AC field pointing at an
accumulator that holds ``ac`` and with ``mem`` in location 0, which an instruction
whose address field is 0 reads as C(E) (an immediate instruction uses its own address
field).  It yields what is left in the AC, in the memory word, and whether it skipped
or jumped.  The instruction runs on :class:`pdp6.Machine` (the plain-Python engine,
which starts at once), so ``.OP`` computes exactly what the PDP-6 computes: one source
of truth for the arithmetic.  Instructions that need more of a machine than one AC and
one word (stack, byte, I/O, UUOs, BLT, XCT, the jumps that store a PC) are refused.
"""

from __future__ import annotations

from pdp6 import isa

AC = 1  # the accumulator .OP uses (MUL and DIV also use AC+1)
MEM = 0  # the location holding the memory operand
ORIGIN = 0o100
_ALLOWED = {
    isa.MOVE, isa.ADDSUB, isa.BOOLE, isa.MULDIV, isa.HALF, isa.SHIFT, isa.EXCH,
    isa.COMPARE, isa.SKIP, isa.AOS, isa.SOS, isa.AOJ, isa.SOJ, isa.JUMP, isa.TEST,
    isa.FLOAT, isa.FSC, isa.NOOP, isa.AOBJ, isa.JFCL,
}  # fmt: skip


class AluError(ValueError):
    """An instruction .OP cannot execute."""


def execute(insn: int, ac: int, mem: int) -> tuple[int, int, bool]:
    """Run ``insn``; return the AC, the memory word and whether it skipped or jumped."""
    from pdp6.machine import Machine  # the emulator is only needed when .OP is used

    op = isa.OPCODES[(insn >> 27) & 0o777]
    if op.family not in _ALLOWED:
        raise AluError(f".OP cannot execute {op.name}")
    m = Machine(core_words=0o1000, engine="python")
    m.memory[MEM] = mem
    m.memory[AC] = ac
    m.memory[ORIGIN] = (insn & ~(0o17 << 23)) | (AC << 23)
    m.pc = ORIGIN
    m.step()
    return m.memory[AC], m.memory[MEM], m.pc != ORIGIN + 1
