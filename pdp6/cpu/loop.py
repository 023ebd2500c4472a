"""The execute loop: fetch, priority interrupts, UUOs, XCT, dispatch by opcode group.

``run`` executes up to ``max_n`` instructions and returns a stop reason.  It leaves the
loop only when a host device is due for service, when an instruction queued I/O for a
host device, at a breakpoint, a halt or the end of the budget; everything else (APR,
PI, the 60 Hz clock, UUOs, interrupts) happens inside.

All arrays are one-dimensional so that the plain-Python engine can use lists:
``io`` holds three rows of 128 (present, CONI, DATAI) and ``ioq`` rows of three.
"""

from __future__ import annotations

from ..jit import jit, jit_inline
from ..timing import CORE_READ_NS
from .access import clock_due, effective_address, interruptible, pi_latch, pi_takeable, read
from .compare import exec_compare
from .fixed import exec_fixed
from .floatbyte import exec_floatbyte
from .io import exec_io
from .logic import exec_boole, exec_half, exec_test
from .state import (
    COUNT,
    EA_LH,
    F_UIOT,
    F_USER,
    FAULT,
    FIRST,
    FLAGS,
    INHIBIT,
    IOQ_N,
    IOT_COUNTOUT,
    IOT_DATA,
    IOT_NONE,
    IOT_RESULT,
    MEMSIZE,
    PC,
    PI_CYCLE,
    PI_ON,
    PIH,
    PIR,
    REASON,
    REASON_BREAK,
    REASON_EVENT,
    REASON_IO,
    REASON_LIMIT,
    TIME,
)

RH = 0o777777


@jit_inline
def execute(mem, st, io, ioq, logic, ir: int, pc: int, npc: int) -> int:
    """Execute the instruction word ``ir`` fetched at ``pc``; return the next PC.

    XCT and UUOs loop here: XCT executes C(E) in place; a UUO (000-077, and the
    instructions that are illegal in user mode) stores ``op,AC,0,0,E`` in absolute 40
    and executes absolute 41 with relocation inhibited (reference 1.3).
    """
    chain = 0
    while True:
        op = ir >> 27
        st[TIME] += logic[op]
        if ir & 0o37000000:  # indirect or indexed
            e = effective_address(mem, st, ir)
            if e < 0:
                return npc if st[FAULT] else pc
        else:
            e = ir & RH
            st[EA_LH] = (ir >> 18) & RH
        ac = (ir >> 23) & 0o17
        chain += 1
        if chain & 0o77 == 0 and interruptible(st, chain):
            return pc  # an endless XCT or UUO chain: let interrupts and the run loop in
        if op == 0o256:  # XCT
            ir = read(mem, st, e)
            if st[FAULT]:
                return npc
            continue
        # During the relocation inhibit after a UUO the processor is still in user mode
        # (aap: only EX INH REL changes), so IOTs and JRST 4/10 at 41 are UUOs again.
        if op < 0o100 or (
            st[FLAGS] & F_USER
            and st[PI_CYCLE] == 0
            and ((op == 0o254 and ac & 0o14) or (op >= 0o700 and not st[FLAGS] & F_UIOT))
        ):
            mem[0o40] = (ir & 0o777740000000) | e
            st[INHIBIT] = 1
            ir = mem[0o41]
            continue
        group = op >> 6
        if group == 2:
            return exec_fixed(mem, st, ir, op, ac, e, npc, pc)
        if group == 3:
            return exec_compare(mem, st, op, ac, e, npc)
        if group == 4:
            exec_boole(mem, st, op, ac, e)
            return npc
        if group == 5:
            exec_half(mem, st, op, ac, e)
            return npc
        if group == 6:
            return exec_test(mem, st, op, ac, e, npc)
        if group == 7:
            return exec_io(mem, st, io, ioq, ir, e, npc)
        return exec_floatbyte(mem, st, op, ac, e, npc, pc)


@jit
def interrupt(mem, st, io, ioq, logic, bit: int) -> None:
    """Take the interrupt on channel ``bit``: execute 40+2n (and 41+2n) as the rules say.

    DATAI/DATAO or a BLKI/BLKO that does not count out: transfer and dismiss.  A BLKI/
    BLKO that counts out: continue with 41+2n.  Any other instruction (normally JSR):
    the channel is held until ``JRST 10,``.  CONO/CONI/CONSZ/CONSO neither hold nor
    dismiss, so the request stays and is taken again (reference 1.8).
    """
    n = 1
    while bit != 0o100 >> (n - 1):
        n += 1
    addr = 0o40 + 2 * n
    pc = st[PC]
    st[PI_CYCLE] = 1
    while True:
        st[TIME] += 2750
        st[IOT_RESULT] = IOT_NONE
        st[FAULT] = 0
        npc = execute(mem, st, io, ioq, logic, mem[addr], pc, pc)
        r = st[IOT_RESULT]
        if r == IOT_NONE:
            st[PIR] &= ~bit
            st[PIH] |= bit
            st[PC] = npc
            break
        if r == IOT_DATA:
            st[PIR] &= ~bit
            break
        if r == IOT_COUNTOUT and addr & 1 == 0:
            addr += 1
            continue
        if r == IOT_COUNTOUT:
            st[PIR] &= ~bit
        break
    st[PI_CYCLE] = 0
    st[IOT_RESULT] = IOT_NONE


@jit
def run(mem, st, io, ioq, logic, bp, max_n: int) -> int:
    """Execute up to ``max_n`` instructions; return a REASON_* code.

    A breakpoint (``bp[pc] != 0``) stops before the instruction, except at the first
    instruction of a run (``st[FIRST]``), so that continuing from a breakpoint works.
    """
    n = 0
    reason = REASON_LIMIT
    st[REASON] = 0
    first = st[FIRST]
    while n < max_n:
        if clock_due(st):
            reason = REASON_EVENT
            break
        if st[PI_ON] or st[PIR]:
            pi_latch(st)
            bit = pi_takeable(st)
            if bit:
                interrupt(mem, st, io, ioq, logic, bit)
                n += 1
                if st[REASON] or st[IOQ_N]:
                    reason = st[REASON] if st[REASON] else REASON_IO
                    break
                continue
        pc = st[PC]
        if bp[pc] and not first:
            reason = REASON_BREAK
            break
        first = 0
        st[FAULT] = 0
        if pc >= 16 and pc < st[MEMSIZE] and (st[FLAGS] & F_USER) == 0:
            ir = mem[pc]  # the common case, without the call: exec mode, core
            st[TIME] += CORE_READ_NS
        else:
            ir = read(mem, st, pc)
            if st[FAULT]:
                n += 1
                continue
        st[PC] = execute(mem, st, io, ioq, logic, ir, pc, (pc + 1) & RH)
        n += 1
        if st[REASON]:
            reason = st[REASON]
            break
        if st[IOQ_N]:
            reason = REASON_IO
            break
    st[COUNT] += n
    st[FIRST] = first
    return reason
