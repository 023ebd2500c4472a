"""Memory references, effective-address calculation and the PI request logic.

Every routine takes the core array ``mem`` (ACs are words 0-17) and the state vector
``st`` (see :mod:`pdp6.cpu.state`) and adds its cost to the emulated clock.
"""

from __future__ import annotations

from ..jit import jit_inline
from ..timing import (
    CORE_READ_NS,
    CORE_WRITE_NS,
    FAST_READ_NS,
    FAST_WRITE_NS,
    INDEX_NS,
    INDIRECT_LOGIC_NS,
    WRITE_AFTER_READ_NS,
)
from .state import (
    APR_CLKEN,
    APR_CLKFLAG,
    APR_ILLOP,
    APR_NXM,
    APR_OVEN,
    APR_PCCHEN,
    APR_PDLOV,
    APR_PIA,
    CLOCK_NEXT,
    CLOCK_PERIOD,
    DEVREQ,
    DIS_EVENT,
    DIS_REQ,
    EA_LH,
    EVENT,
    F_OV,
    F_PCCH,
    F_USER,
    FAULT,
    FLAGS,
    HOST_EVENT,
    INHIBIT,
    MEMSIZE,
    PI_ACTIVE,
    PI_CYCLE,
    PI_ON,
    PIH,
    PIR,
    PROT,
    RELOC,
    TIME,
)

RH = 0o777777


@jit_inline
def physical(st, addr: int) -> int:
    """Map an address to core, or -1 after a protection violation (user mode only).

    Relocation applies in user mode except during PI cycles and after a UUO until the
    JSR (reference 1.10); the ACs (0-17) are never relocated or checked.
    """
    if addr < 16 or st[FLAGS] & F_USER == 0 or st[PI_CYCLE] != 0 or st[INHIBIT] != 0:
        return addr
    if (addr >> 10) > st[PROT]:
        st[APR_ILLOP] = 1
        st[FAULT] = 1
        return -1
    return (addr + (st[RELOC] << 10)) & RH


@jit_inline
def read(mem, st, addr: int) -> int:
    """C(addr): the word at an address, charging a fast- or core-memory read."""
    if addr < 16:
        st[TIME] += FAST_READ_NS
        return mem[addr]
    st[TIME] += CORE_READ_NS
    p = physical(st, addr) if st[FLAGS] & F_USER else addr
    if p < 0:
        return 0
    if p >= st[MEMSIZE]:
        st[APR_NXM] = 1  # non-existent memory reads as zero and sets the APR flag
        return 0
    return mem[p]


@jit_inline
def write(mem, st, addr: int, value: int, after_read: bool) -> None:
    """Store a word; ``after_read`` charges only the write half of a read-pause-write."""
    if addr < 16:
        st[TIME] += FAST_WRITE_NS
        mem[addr] = value
        return
    st[TIME] += WRITE_AFTER_READ_NS if after_read else CORE_WRITE_NS
    p = physical(st, addr) if st[FLAGS] & F_USER else addr
    if p < 0:
        return
    if p >= st[MEMSIZE]:
        st[APR_NXM] = 1
        return
    mem[p] = value


@jit_inline
def apr_request(st) -> int:
    """The PI channel bit the APR requests now, or 0 (reference 2.1)."""
    pia = st[APR_PIA]
    if pia == 0:
        return 0
    flags = st[FLAGS]
    if (
        st[APR_ILLOP]
        or st[APR_NXM]
        or st[APR_PDLOV]
        or (st[APR_CLKFLAG] and st[APR_CLKEN])
        or (flags & F_PCCH and st[APR_PCCHEN])
        or (flags & F_OV and st[APR_OVEN])
    ):
        return 1 << (7 - pia)
    return 0


@jit_inline
def pi_latch(st) -> None:
    """OR the requests of channels that are on, and not held, into PIR (at every fetch).

    A held channel's request is not latched (aap ``set_pir``: pir &= ~pih), so a device
    whose flag the handler clears does not interrupt a second time after the dismiss.
    """
    on = st[PI_ON]
    if on:
        st[PIR] |= (st[DEVREQ] | st[DIS_REQ] | apr_request(st)) & on & ~st[PIH]


@jit_inline
def clock_due(st) -> bool:
    """Advance the 60 Hz clock to the present; True if a host device is due for service.

    Called at every fetch (cheaply: one comparison until something is due) and between
    the steps of long instructions (indirect chains, BLT) so time-driven flags are on time.
    """
    t = st[TIME]
    if t < st[EVENT]:
        return False
    while t >= st[CLOCK_NEXT]:
        st[APR_CLKFLAG] = 1
        st[CLOCK_NEXT] += st[CLOCK_PERIOD]
    st[EVENT] = min(st[CLOCK_NEXT], st[HOST_EVENT], st[DIS_EVENT])
    return t >= st[HOST_EVENT]


@jit_inline
def pi_takeable(st) -> int:
    """The channel bit of the interrupt the processor would take now, or 0.

    A pending channel is taken when PI is active and no channel of equal or higher
    priority is held; channel 1 (bit 100) is the highest (reference 2.2).
    """
    if st[PI_ACTIVE] == 0:
        return 0
    pending = st[PIR]
    if pending == 0:
        return 0
    bit = 0o100
    while bit and not pending & bit:
        bit >>= 1
    if bit > st[PIH]:
        return bit
    return 0


@jit_inline
def blocks_quiet(st) -> tuple[int, int]:
    """Whether translated blocks may run from this instruction boundary on (1 or 0), and
    the PC flags they must not set (for the block engines, :mod:`pdp6.cpu.translate`
    and :mod:`pdp6.cpu.native`).

    Blocks rely on facts that only instructions left to ``run`` change: exec mode, no UUO
    inhibit or fault, and no interrupt to take.  Here, at a boundary that ``run`` would
    pass without an event (time before the next event), the PI latch is done as ``run``
    does it; if then nothing is takeable, nothing can become so inside blocks, except by
    an APR condition: NXM and pushdown overflow end a block when raised, and overflow or
    PC change matter only when enabled (the second result).
    """
    if st[FLAGS] & F_USER or st[INHIBIT] or st[FAULT] or st[PI_CYCLE] or st[TIME] >= st[EVENT]:
        return 0, 0
    if not (st[PI_ON] or st[PIR]):
        return 1, 0
    pi_latch(st)
    if pi_takeable(st):
        return 0, 0
    pia = st[APR_PIA]
    bit = 1 << (7 - pia) if pia else 0
    if not bit & st[PI_ON] & ~st[PIH] & ~st[PIR] or apr_request(st):
        return 1, 0  # the APR cannot add a request (off, held, pending, or already asking)
    danger = 0
    if st[APR_OVEN]:
        danger |= F_OV
    if st[APR_PCCHEN]:
        danger |= F_PCCH
    return 1, danger


@jit_inline
def interruptible(st, steps: int) -> bool:
    """Whether a long chain (indirect words, XCT, UUO) should give up for now.

    The processor samples PI between indirect steps, so an endless ``@`` loop does not
    lock out interrupts or the clock; the emulator also ends such a chain every 4096
    steps (the instruction restarts, unchanged) so that ``run`` budgets and host devices
    work.  A host device falling due does not end it: that would change the program's
    time by when a device happened to want service.
    """
    clock_due(st)
    pi_latch(st)
    return pi_takeable(st) != 0 or steps >= 0o10000


@jit_inline
def index_step(mem, st, ir: int) -> int:
    """Y of the word ``ir``, plus C(X) when it names an index register (one E step)."""
    y = ir & RH
    x = (ir >> 18) & 0o17
    if x:
        y = (y + mem[x]) & RH
        st[TIME] += INDEX_NS
    return y


@jit_inline
def effective_address(mem, st, ir: int) -> int:
    """E for instruction ``ir``: indexing and indirect chains of any length.

    Returns -1 if a priority interrupt became due between indirect steps or a memory
    reference faulted: the instruction is then abandoned, unchanged, and restarts later.
    The left half of the last word of the chain is kept for ``JRST 2,``.
    """
    y = index_step(mem, st, ir)
    if ir & 0o20000000 == 0:
        st[EA_LH] = (ir >> 18) & RH
        return y
    return indirect_chain(mem, st, y)


@jit_inline
def indirect_chain(mem, st, y: int) -> int:
    """The rest of an E calculation from the first indirect word's address ``y``.

    Kept apart from :func:`effective_address` so that the common case (no ``@``) is
    straight-line code for the plain engine's translator.

    PI is sampled between the words of the chain, not after its last word: a request
    raised by the last word's own memory reference (non-existent memory) is taken at
    the next sample, after the instruction, or for ILDB/IDPB after their first part with
    first-part-done set.  DEC's diagnostic PDP-6 part 3a (its test of an ``IDPB @0``
    through non-existent memory, 2715-2727) requires this of the real machine; aap's
    model tests the request in the same PI SYNC pulse that latches it and would take it
    before the first part (reference 1.6, 2.2).  We follow the diagnostic.
    """
    levels = 0
    while True:
        ir = read(mem, st, y)
        st[TIME] += INDIRECT_LOGIC_NS
        if st[FAULT]:
            return -1
        levels += 1
        if ir & 0o20000000:  # (nested: the translator takes no effects inside an `and`)
            if interruptible(st, levels):
                return -1
        y = index_step(mem, st, ir)
        if ir & 0o20000000 == 0:
            st[EA_LH] = (ir >> 18) & RH
            return y
