"""The execute loop: fetch, priority interrupts, UUOs, XCT, dispatch by opcode group.

``run`` executes up to ``max_n`` instructions and returns a stop reason.  It leaves the
loop only when a host device is due for service, when an instruction queued I/O for a
host device, at a breakpoint, a halt or the end of the budget; everything else (APR,
PI, the 60 Hz clock, UUOs, interrupts, and the Type 340 while the loop may run it:
:mod:`pdp6.cpu.dis340`) happens inside.

All arrays are one-dimensional so that the plain-Python engine can use lists:
``io`` holds three rows of 128 (present, CONI, DATAI), then the 340's state, and
``ioq`` rows of three.
"""

from __future__ import annotations

from ..jit import jit, jit_inline
from ..timing import CORE_READ_NS, WRITE_AFTER_READ_NS
from .access import clock_due, effective_address, interruptible, pi_latch, pi_takeable, read
from .compare import exec_compare
from .dis340 import (
    BLKO,
    D_FAST,
    D_PIA_DATA,
    DEV,
    M36,
    dis_datao,
    dis_deliver,
    dis_requests_due,
    dis_service,
    dis_settle,
)
from .fixed import (
    exec_addsub,
    exec_aobj,
    exec_blt,
    exec_exch,
    exec_jfcl,
    exec_jrst,
    exec_jumps,
    exec_move,
    exec_muldiv,
    exec_shift,
    exec_stack,
)
from .floatbyte import exec_byte, exec_float, exec_fsc
from .io import exec_io
from .logic import exec_boole, exec_half, exec_test
from .optable import (
    F_ADDSUB,
    F_AOBJ,
    F_BLT,
    F_BOOLE,
    F_BYTE,
    F_COMPARE_FIRST,
    F_COMPARE_LAST,
    F_EXCH,
    F_FLOAT,
    F_FSC,
    F_HALF,
    F_IBP,
    F_IOT,
    F_JFCL,
    F_JRST,
    F_JUMPS,
    F_MOVE,
    F_MULDIV,
    F_SHIFT,
    F_STACK,
    F_TEST,
    F_UUO,
    F_XCT,
    FAMILY_BASE,
)
from .state import (
    BOUNDARY,
    COUNT,
    DIS_EVENT,
    EA_LH,
    EVENT,
    F_UIOT,
    F_USER,
    FAULT,
    FIRST,
    FLAGS,
    INHIBIT,
    IOQ_N,
    IOT_COND,
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
    REASON_LIMIT,
    TIME,
)

RH = 0o777777
INTERRUPT_NS = 2750  # the interrupt cycle's own time, before the instruction at 40+2n


@jit_inline
def execute(mem, st, io, ioq, optab, ir: int, pc: int, npc: int) -> int:
    """Execute the instruction word ``ir`` fetched at ``pc``; return the next PC.

    XCT and UUOs loop here: XCT executes C(E) in place; a UUO (000-077, and the
    instructions that are illegal in user mode) stores ``op,AC,0,0,E`` in absolute 40
    and executes absolute 41 with relocation inhibited (reference 1.3).
    """
    chain = 0
    while True:
        op = ir >> 27
        st[TIME] += optab[op]
        if ir & 0o37000000:  # indirect or indexed
            e = effective_address(mem, st, ir)
            if e < 0:
                return npc if st[FAULT] else pc
        else:
            e = ir & RH
            st[EA_LH] = (ir >> 18) & RH
        ac = (ir >> 23) & 0o17
        fam = optab[FAMILY_BASE + op]
        chain += 1
        if chain & 0o77 == 0 and interruptible(st, chain):
            return pc  # an endless XCT or UUO chain: let interrupts and the run loop in
        if fam == F_XCT:
            ir = read(mem, st, e)
            if st[FAULT]:
                return npc
            continue
        # During the relocation inhibit after a UUO the processor is still in user mode
        # (aap: only EX INH REL changes), so IOTs and JRST 4/10 at 41 are UUOs again.
        if fam == F_UUO or (
            st[FLAGS] & F_USER
            and st[PI_CYCLE] == 0
            and ((fam == F_JRST and ac & 0o14) or (fam == F_IOT and not st[FLAGS] & F_UIOT))
        ):
            mem[0o40] = (ir & 0o777740000000) | e
            st[INHIBIT] = 1
            ir = mem[0o41]
            continue
        # The most frequent families first.
        if fam == F_MOVE:
            exec_move(mem, st, op, ac, e)
            return npc
        if fam >= F_COMPARE_FIRST and fam <= F_COMPARE_LAST:
            return exec_compare(mem, st, op, ac, e, npc)
        if fam == F_ADDSUB:
            exec_addsub(mem, st, op, ac, e)
            return npc
        if fam == F_BOOLE:
            exec_boole(mem, st, op, ac, e)
            return npc
        if fam == F_HALF:
            exec_half(mem, st, op, ac, e)
            return npc
        if fam == F_TEST:
            return exec_test(mem, st, op, ac, e, npc)
        if fam == F_JRST:
            return exec_jrst(mem, st, ac, e)
        if fam == F_STACK:
            return exec_stack(mem, st, op, ac, e, npc)
        if fam == F_JUMPS:
            return exec_jumps(mem, st, op, ac, e, npc)
        if fam == F_AOBJ:
            return exec_aobj(mem, st, op, ac, e, npc)
        if fam == F_BYTE or fam == F_IBP:
            return exec_byte(mem, st, op, ac, e, npc, pc)
        if fam == F_SHIFT:
            exec_shift(mem, st, op, ac, e)
        elif fam == F_EXCH:
            exec_exch(mem, st, ac, e)
        elif fam == F_BLT:
            return exec_blt(mem, st, ac, e, npc, pc)
        elif fam == F_JFCL:
            return exec_jfcl(st, ac, e, npc)
        elif fam == F_MULDIV:
            exec_muldiv(mem, st, op, ac, e)
        elif fam == F_FLOAT:
            exec_float(mem, st, op, ac, e)
        elif fam == F_FSC:
            exec_fsc(mem, st, ac, e)
        elif fam == F_IOT:
            return exec_io(mem, st, io, ioq, ir, e, npc)
        return npc  # F_NOOP: 100-131, 243, 247, 257


@jit
def interrupt(mem, st, io, ioq, optab, bit: int) -> None:
    """One instruction of the interrupt cycle for channel ``bit``: 40+2n (and 41+2n).

    DATAI/DATAO or a BLKI/BLKO that does not count out: transfer and dismiss.  A BLKI/
    BLKO that counts out: continue with 41+2n.  Any other instruction (normally JSR):
    the channel is held until ``JRST 10,``.  CONO/CONI/CONSZ/CONSO neither hold nor
    dismiss: the cycle goes on (``PI_CYCLE`` stays set) and the next fetch is again made
    by the interrupt, from 40 + 2 x the channel then requesting, which is 40 itself when
    that instruction cleared every request (reference 1.8; aap ``PI_HOLD`` is false for
    them, so ``pi_exit`` does not run, and IT0 fetches from 040 | pi_req).
    """
    n = 0
    while bit and bit != 0o100 >> n:
        n += 1
    addr = 0o40 + 2 * (n + 1) if bit else 0o40
    pc = st[PC]
    st[PI_CYCLE] = 1
    while True:
        st[TIME] += INTERRUPT_NS
        st[IOT_RESULT] = IOT_NONE
        st[FAULT] = 0
        npc = execute(mem, st, io, ioq, optab, mem[addr], pc, pc)
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
    if r != IOT_COND:
        st[PI_CYCLE] = 0
    st[IOT_RESULT] = IOT_NONE


@jit
def refresh_340(mem, st, io, optab, bit: int) -> bool:
    """The interrupt cycle of :func:`interrupt` for the 340's refresh, done at once: on
    channel ``bit``, 40+2n holds ``BLKO DIS,E`` (no index, no indirection, the pointer
    in core and not counting out), which sends the next word of the display list.  The
    same effect and time as ``interrupt`` (tests compare the two), without the general
    instruction path, for Mac Hack's ten thousand words an emulated second.  False, and
    nothing done, for anything else."""
    if st[PI_CYCLE] or st[IOQ_N] or not io[D_FAST]:  # (D_FAST first: see memrefs)
        return False
    channel = io[D_PIA_DATA]
    if not channel or bit != 1 << 7 - channel:
        return False
    ir = mem[0o40 + 2 * channel]
    if ir >> 23 != (0o7 << 10) | (DEV << 3) | BLKO or ir & 0o37000000:
        return False
    e = ir & RH
    if e < 16 or e >= st[MEMSIZE]:
        return False
    total = mem[e] + 0o1000001
    word = total & RH
    if total > M36 or word < 16 or word >= st[MEMSIZE]:
        return False
    # the interrupt cycle, the instruction, pointer read-pause-write, the word's read
    st[TIME] += INTERRUPT_NS + optab[ir >> 27] + CORE_READ_NS + WRITE_AFTER_READ_NS + CORE_READ_NS
    st[EA_LH] = (ir >> 18) & RH
    mem[e] = total
    due = dis_datao(io, st[TIME], mem[word], word)
    dis_requests_due(io, st, due)
    st[PIR] &= ~bit  # transferred: dismissed
    st[FAULT] = 0
    st[IOT_RESULT] = IOT_NONE
    return True


@jit
def run(mem, st, io, ioq, optab, bp, max_n: int) -> int:
    """Execute up to ``max_n`` instructions; return a REASON_* code.

    A breakpoint (``bp[pc] != 0``) stops before the instruction, except at the first
    instruction of a run (``st[FIRST]``), so that continuing from a breakpoint works.  An
    interrupt that moves the PC (a JSR at 40+2n) ends that exemption: the routine's first
    instruction is a new one, and its breakpoint stops the run.
    """
    n = 0
    reason = REASON_LIMIT
    st[REASON] = 0
    first = st[FIRST]
    while n < max_n:
        st[BOUNDARY] = st[TIME]
        if st[TIME] >= st[EVENT]:
            if st[TIME] >= st[DIS_EVENT]:
                r = dis_service(io, st)  # the 340 run here (pdp6.cpu.dis340)
                if r:
                    reason = r
                    break
            if clock_due(st):
                reason = REASON_EVENT
                break
        if st[PI_ON] or st[PIR] or st[PI_CYCLE]:
            if st[PI_CYCLE]:
                bit = pi_takeable(st)  # an unfinished interrupt cycle: no PI latch (aap IT0)
            else:
                pi_latch(st)
                bit = pi_takeable(st)
            if bit and refresh_340(mem, st, io, optab, bit):
                n += 1
                continue
            if bit or st[PI_CYCLE]:
                before = st[PC]
                interrupt(mem, st, io, ioq, optab, bit)
                if st[PC] != before:
                    first = 0
                n += 1
                if st[REASON]:
                    reason = st[REASON]
                    break
                if st[IOQ_N]:
                    r = dis_deliver(io, st, ioq)  # what the 340 run here takes
                    if r:
                        reason = r
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
        st[PC] = execute(mem, st, io, ioq, optab, ir, pc, (pc + 1) & RH)
        n += 1
        if st[REASON]:
            reason = st[REASON]
            break
        if st[IOQ_N]:
            r = dis_deliver(io, st, ioq)
            if r:
                reason = r
                break
    st[COUNT] += n
    st[FIRST] = first
    dis_settle(io, st)
    return reason
