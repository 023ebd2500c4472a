"""Which locations the next instruction will read and write, worked out before it runs.

The execute loop is compiled and never calls Python per instruction, so read and write
breakpoints, watchpoints and the ``--trace`` listing single-step the machine and ask this
module, before each step, what the instruction is about to touch.  It decodes the word
at the PC (or the interrupt instruction the processor is about to take instead), follows
the effective-address calculation through indexing and indirection exactly as the
processor would, and applies the operand routing of each family and mode (reference 1.3).

Addresses are as the program sees them: 0-17 are the accumulators.  In user mode core
addresses are relocated for reading the operands, as the processor does.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .cpu import access
from .cpu import state as S
from .isa import (
    ADDSUB,
    AOBJ,
    AOJ,
    AOS,
    BLT,
    BOOLE,
    BYTE,
    COMPARE,
    EXCH,
    FLOAT,
    FSC,
    HALF,
    IBP,
    IOT,
    JUMP,
    JUMPS,
    MOVE,
    MULDIV,
    OPCODES,
    SHIFT,
    SKIP,
    SOJ,
    SOS,
    STACK,
    TEST,
    UUO,
    XCT,
    decode,
    decode_io,
)
from .machine import Machine

RH = 0o777777
MAX_INDIRECT = 64  # longer @ chains are not followed (the processor would, slowly)
_BOOLE_IGNORES_E = {0, 5, 10, 15}  # SETZ, SETA, SETCA, SETO
_BOOLE_IGNORES_AC = {0, 3, 12, 15}  # SETZ, SETM, SETCM, SETO


@dataclass
class References:
    """What one instruction reads and writes (as ranges of addresses) and its E."""

    address: int  # where the instruction word came from
    word: int
    effective: int | None  # E, or None if the @ chain was too long to follow
    reads: list[range] = field(default_factory=list)
    writes: list[range] = field(default_factory=list)
    interrupt: int = 0  # the PI channel (1-7) whose instruction this is, or 0

    def reads_any(self, addresses: set[int]) -> set[int]:
        return {a for a in addresses if any(a in r for r in self.reads)}

    def writes_any(self, addresses: set[int]) -> set[int]:
        return {a for a in addresses if any(a in r for r in self.writes)}

    def written(self, limit: int = 4) -> list[int]:
        """The first few addresses written, in order (for a trace line)."""
        out: list[int] = []
        for r in self.writes:
            for a in r[:limit]:
                if a not in out:
                    out.append(a)
        return out[:limit]


class _Refs:
    """Builds one :class:`References`; small helpers keep the family table readable."""

    def __init__(self, m: Machine, address: int, word: int, interrupt: int) -> None:
        self.m = m
        self.result = References(address, word, None, interrupt=interrupt)

    def fetch(self, addr: int) -> int:
        """C(addr) as the processor would read it (zero for non-existent memory)."""
        addr &= RH
        if addr > 0o17 and self.m.user_mode:
            addr = (addr + (self.m.apr.relocation << 10)) & RH
        return self.m.memory[addr] if addr < self.m.core_words else 0

    def read(self, *addrs: int) -> None:
        self.result.reads += [range(a & RH, (a & RH) + 1) for a in addrs]

    def write(self, *addrs: int) -> None:
        self.result.writes += [range(a & RH, (a & RH) + 1) for a in addrs]

    def effective(self, word: int) -> int | None:
        """E of ``word``, reading (and recording) each indirect word on the way."""
        for _ in range(MAX_INDIRECT):
            _op, _ac, indirect, index, y = decode(word)
            if index:
                y = (y + self.fetch(index)) & RH
            if not indirect:
                return y
            self.read(y)
            word = self.fetch(y)
        return None


def _interrupt_due(m: Machine) -> int:
    """The channel bit the processor will take before the next instruction, or 0."""
    st = np.array(m._st, dtype=np.int64)  # a copy: the processor latches for itself
    if st[S.TIME] >= st[S.CLOCK_NEXT]:
        st[S.APR_CLKFLAG] = 1
    if st[S.PI_ON] or st[S.PIR]:
        access.pi_latch(st)
        return int(access.pi_takeable(st))
    return 0


def next_references(m: Machine) -> References:
    """What the next step of ``m`` will read and write (the interrupt instruction, if one
    is about to be taken)."""
    m.bus.service_due()  # device events due now happen before the next fetch
    bit = _interrupt_due(m)
    if bit:
        return references_at(m, 0o40 + 2 * (8 - bit.bit_length()), interrupt=True)
    return references_at(m, m.pc)


def references_at(m: Machine, address: int, interrupt: bool = False) -> References:
    """What the instruction at ``address`` would read and write if it ran now.
    ``interrupt``: it is the interrupt instruction at 40+2n (fetched unrelocated)."""
    channel = (address - 0o40) // 2 if interrupt else 0
    refs = _Refs(m, address, 0, channel)
    word = m.memory[address] if interrupt else refs.fetch(address)
    refs.result.word = word
    _instruction(refs, word, depth=0)
    return refs.result


def _instruction(r: _Refs, word: int, depth: int) -> None:
    e = r.effective(word)
    if e is None:
        return
    if depth == 0:
        r.result.effective = e
    op, ac, _i, _x, _y = decode(word)
    info = OPCODES[op]
    fam, mode = info.family, info.mode
    ac1 = (ac + 1) & 0o17
    if fam == XCT:
        r.read(e)
        if depth < 8:
            _instruction(r, r.fetch(e), depth + 1)
    elif fam == UUO:
        r.write(0o40)
    elif fam in (MOVE, ADDSUB, BOOLE, HALF):
        reads_e, reads_ac = _reads_operands(op, fam, mode)
        _routed(r, mode, ac, e, reads_e, reads_ac, (ac,))
    elif fam == MULDIV:
        double = op >= 0o224  # MUL, IDIV, DIV leave two words
        _routed(r, mode, ac, e, True, True, (ac, ac1) if double else (ac,))
    elif fam == FLOAT:
        r.read(ac, e)
        if mode not in ("M", "RM"):
            r.write(*((ac, ac1) if mode in ("L", "RL") else (ac,)))
        if mode in ("M", "RM", "B", "RB"):
            r.write(e)
    elif fam in (FSC, SHIFT, AOBJ, AOJ, SOJ):
        pair = fam == SHIFT and op >= 0o244
        r.read(ac)
        r.write(*((ac, ac1) if pair else (ac,)))
    elif fam == IBP:
        r.read(e)
        r.write(e)
    elif fam == BYTE:
        _byte(r, op, ac, e)
    elif fam == EXCH:
        r.read(ac, e)
        r.write(ac, e)
    elif fam == BLT:
        _blt(r, ac, e)
    elif fam == STACK:
        _stack(r, op, ac, e)
    elif fam == JUMPS:
        name = info.name
        if name == "JSR":
            r.write(e)
        elif name == "JSP":
            r.write(ac)
        elif name == "JSA":
            r.read(ac)
            r.write(e, ac)
        else:  # JRA
            r.read(ac, r.fetch(ac) >> 18)
            r.write(ac)
    elif fam == COMPARE:
        r.read(*((ac,) if op < 0o310 else (ac, e)))
    elif fam == JUMP:
        r.read(ac)
    elif fam in (SKIP, AOS, SOS):
        r.read(e)
        if fam != SKIP:
            r.write(e)
        if ac:
            r.write(ac)
    elif fam == TEST:
        r.read(ac)
        if op & 0o10:
            r.read(e)
        if op & 0o60:  # Z, C, O modify the AC
            r.write(ac)
    elif fam == IOT:
        _iot(r, word, e)


def _reads_operands(op: int, fam: str, mode: str) -> tuple[bool, bool]:
    """(reads E, reads the AC) for the move, add/sub, boolean and half-word families:
    an operand that is only a destination is not read (MOVEM, SETZM, HRRZM ...)."""
    if fam == MOVE:
        return mode in ("", "S"), mode == "M"
    if fam == BOOLE:
        function = (op - 0o400) >> 2
        return function not in _BOOLE_IGNORES_E, function not in _BOOLE_IGNORES_AC
    if fam == HALF:  # HLL, HRL, HRR, HLR keep the other half of the destination
        keeps = len(OPCODES[op].name.rstrip("IMS")) == 3
        return mode in ("", "S") or keeps, mode == "M" or keeps
    return True, True


def _routed(
    r: _Refs, mode: str, ac: int, e: int, reads_e: bool, reads_ac: bool, acs: tuple[int, ...]
) -> None:
    """The basic/immediate/memory/both/self operand routing; ``acs`` are the result ACs."""
    if reads_ac and mode != "S":
        r.read(ac)
    if mode == "I":
        r.write(*acs)
        return
    if reads_e:
        r.read(e)
    if mode == "S":
        r.write(e)
        if ac:
            r.write(ac)
        return
    if mode in ("", "B"):
        r.write(*acs)
    if mode in ("M", "B"):
        r.write(e)


def _byte(r: _Refs, op: int, ac: int, e: int) -> None:
    """ILDB LDB IDPB DPB: the pointer at E, then the word the (incremented) pointer names."""
    pointer = r.fetch(e)
    r.read(e)
    increment = op in (0o134, 0o136) and not r.m.flags & S.F_FPD
    if increment:
        r.write(e)
        p, s = pointer >> 30, (pointer >> 24) & 0o77
        if p - s < 0:
            pointer = (pointer & ~RH) | ((pointer + 1) & RH)
    target = r.effective(pointer & 0o000077_777777)
    if target is None:
        return
    r.read(target)
    if op in (0o134, 0o135):
        r.write(ac)
    else:
        r.read(ac)
        r.write(target)


def _blt(r: _Refs, ac: int, e: int) -> None:
    pointer = r.fetch(ac)
    src, dst = pointer >> 18, pointer & RH
    count = e - dst + 1 if e >= dst else 1
    r.read(ac)
    r.result.reads.append(range(src, min(src + count, RH + 1)))
    r.result.writes.append(range(dst, min(dst + count, RH + 1)))


def _stack(r: _Refs, op: int, ac: int, e: int) -> None:
    top = r.fetch(ac) & RH
    r.read(ac)
    r.write(ac)
    if op == 0o260:  # PUSHJ
        r.write(top + 1)
    elif op == 0o261:  # PUSH
        r.read(e)
        r.write(top + 1)
    elif op == 0o262:  # POP
        r.read(top)
        r.write(e)
    else:  # POPJ
        r.read(top)


def _iot(r: _Refs, word: int, e: int) -> None:
    _device, function = decode_io(word)
    if function in (0, 2):  # BLKI, BLKO: the pointer at E, then the word it names
        r.read(e)
        r.write(e)
        target = (r.fetch(e) + 1) & RH
        if function == 0:
            r.write(target)
        else:
            r.read(target)
    elif function == 1 or function == 5:  # DATAI, CONI
        r.write(e)
    elif function == 3:  # DATAO
        r.read(e)
