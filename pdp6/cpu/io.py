"""Opcodes 700-777: the I/O instructions, with the APR (000) and PI (004) built in.

Host-side devices (teletype, paper tape, 340, ...) live in Python.  Each publishes in
the ``io`` array whether it is present (row 0), its CONI word (row 1) and the word a
DATAI would read (row 2).  The loop executes the instruction completely and queues
(device, function, word) in ``ioq`` for every output, CONO and input, so that the host
can update the device before the next instruction.  A device code with nothing
attached reads as zero and ignores output, as on the real bus.
"""

from __future__ import annotations

from ..jit import jit
from .access import read, write
from .dis340 import DEV as DIS_DEV
from .dis340 import dis_look
from .fixed import jump_to
from .state import (
    APR_CLKEN,
    APR_CLKFLAG,
    APR_ILLOP,
    APR_NXM,
    APR_OVEN,
    APR_PCCHEN,
    APR_PDLOV,
    APR_PIA,
    F_OV,
    F_PCCH,
    F_UIOT,
    F_USER,
    FAULT,
    FLAGS,
    IOQ_MAX,
    IOQ_N,
    IOT_COND,
    IOT_COUNTOUT,
    IOT_DATA,
    IOT_RESULT,
    PI_ACTIVE,
    PI_CYCLE,
    PI_ON,
    PIH,
    PIR,
    PROT,
    RELOC,
    SWITCHES,
)

M36 = (1 << 36) - 1
RH = 0o777777
BLKI, DATAI, BLKO, DATAO, CONO, CONI, CONSZ, CONSO = 0, 1, 2, 3, 4, 5, 6, 7


@jit
def queue_io(st, ioq, dev: int, func: int, word: int) -> None:
    n = st[IOQ_N]
    if n < IOQ_MAX:
        ioq[3 * n] = dev
        ioq[3 * n + 1] = func
        ioq[3 * n + 2] = word
        st[IOQ_N] = n + 1


@jit
def apr_coni(st) -> int:
    """CONI APR, bit for bit (reference 2.1)."""
    flags = st[FLAGS]
    w = st[APR_PIA]
    if st[APR_PDLOV]:
        w |= 0o200000
    if flags & F_UIOT:
        w |= 0o100000
    if flags & F_USER:
        w |= 0o040000
    if st[APR_ILLOP]:
        w |= 0o020000
    if st[APR_NXM]:
        w |= 0o010000
    if st[APR_CLKEN]:
        w |= 0o002000
    if st[APR_CLKFLAG]:
        w |= 0o001000
    if st[APR_PCCHEN]:
        w |= 0o000200
    if flags & F_PCCH:
        w |= 0o000100
    if st[APR_OVEN]:
        w |= 0o000020
    if flags & F_OV:
        w |= 0o000010
    return w


@jit
def apr_cono(st, ioq, v: int) -> None:
    """CONO APR: clear/set/enable bits; every CONO replaces the PIA (reference 2.1)."""
    if v & 0o400000:
        st[APR_PDLOV] = 0
    if v & 0o200000:
        # I/O reset clears USER IOT and the devices; not the illegal-op flag (SIMH
        # clears that too, aap does not: reference 2.1).
        st[FLAGS] &= ~F_UIOT
        queue_io(st, ioq, 0, CONO, v)  # I/O reset: the host resets its devices
    if v & 0o100000:
        # aap: bit 20 clears USER IOT, bit 21 sets it (the schematics say the reverse).
        st[FLAGS] &= ~F_UIOT
    if v & 0o040000:
        st[FLAGS] |= F_UIOT
    if v & 0o020000:
        st[APR_ILLOP] = 0
    if v & 0o010000:
        st[APR_NXM] = 0
    if v & 0o004000:
        st[APR_CLKEN] = 0
    if v & 0o002000:
        st[APR_CLKEN] = 1
    if v & 0o001000:
        st[APR_CLKFLAG] = 0
    if v & 0o000400:
        st[APR_PCCHEN] = 0
    if v & 0o000200:
        st[APR_PCCHEN] = 1
    if v & 0o000100:
        st[FLAGS] &= ~F_PCCH
    if v & 0o000040:
        st[APR_OVEN] = 0
    if v & 0o000020:
        st[APR_OVEN] = 1
    if v & 0o000010:
        st[FLAGS] &= ~F_OV
    st[APR_PIA] = v & 7


@jit
def pi_cono(st, v: int) -> None:
    """CONO PI: reset, request, channels on/off, deactivate/activate (reference 2.2)."""
    sel = v & 0o177
    if v & 0o010000:
        st[PI_ACTIVE] = 0
        st[PI_ON] = 0
        st[PIR] = 0
        st[PIH] = 0
    if v & 0o004000:
        # even for channels that are off, but not for held ones (aap set_pir)
        st[PIR] |= sel & ~st[PIH]
    if v & 0o002000:
        st[PI_ON] |= sel
    if v & 0o001000:
        st[PI_ON] &= ~sel
    if v & 0o000400:
        st[PI_ACTIVE] = 0
    if v & 0o000200:
        st[PI_ACTIVE] = 1


@jit
def coni(st, io, dev: int) -> int:
    if dev == 0:
        return apr_coni(st)
    if dev == 1:
        # aap's model: PI active (bit 28) and the channels that are on (29-35).
        return (0o200 if st[PI_ACTIVE] else 0) | st[PI_ON]
    if dev == DIS_DEV:
        dis_look(io, st)  # (the 340 run in the loop shows its changes when asked)
    return io[128 + dev]


@jit
def data_in(st, io, ioq, dev: int, func: int) -> int:
    if dev == 0:
        return st[SWITCHES]
    if dev == 1:
        return 0
    if io[dev]:
        if dev == DIS_DEV:
            dis_look(io, st)
        queue_io(st, ioq, dev, func, 0)
        return io[256 + dev]
    return 0


@jit
def data_out(st, ioq, io, dev: int, func: int, w: int) -> None:
    if dev == 0:
        # DATAO APR: protection in bits 0-7, relocation in bits 18-25 (reference 1.10).
        st[PROT] = (w >> 28) & 0o377
        st[RELOC] = (w >> 10) & 0o377
    elif dev != 1 and io[dev]:
        queue_io(st, ioq, dev, func, w)


@jit
def exec_io(mem, st, io, ioq, ir: int, e: int, npc: int) -> int:
    """Execute an I/O instruction; sets IOT_RESULT for the interrupt cycle's rules."""
    dev = (ir >> 26) & 0o177
    func = (ir >> 23) & 7
    if func == BLKI or func == BLKO:
        ptr = read(mem, st, e)
        if st[FAULT]:
            return npc
        # One 36-bit add of 1,,1; the count runs out on the carry out of bit 0 (aap
        # IOT_T0A tests AR CRY0), so 777777,,777777 -> 1,,0 counts out as well as -1,,x.
        total = ptr + 0o1000001
        ptr = total & M36
        write(mem, st, e, ptr, True)
        if st[FAULT]:
            return npc
        if func == BLKI:
            write(mem, st, ptr & RH, data_in(st, io, ioq, dev, BLKI), False)
        else:
            data_out(st, ioq, io, dev, BLKO, read(mem, st, ptr & RH))
        if total > M36:
            st[IOT_RESULT] = IOT_COUNTOUT
            return npc
        st[IOT_RESULT] = IOT_DATA
        if st[PI_CYCLE]:
            return npc
        return jump_to(st, npc + 1)  # outside interrupts, BLKx skips until it counts out
    if func == DATAI:
        write(mem, st, e, data_in(st, io, ioq, dev, DATAI), False)
        st[IOT_RESULT] = IOT_DATA
        return npc
    if func == DATAO:
        w = read(mem, st, e)
        if not st[FAULT]:
            data_out(st, ioq, io, dev, DATAO, w)
        st[IOT_RESULT] = IOT_DATA
        return npc
    st[IOT_RESULT] = IOT_COND
    if func == CONO:
        if dev == 0:
            apr_cono(st, ioq, e)
        elif dev == 1:
            pi_cono(st, e)
        elif io[dev]:
            queue_io(st, ioq, dev, CONO, e)
        return npc
    c = coni(st, io, dev)
    if func == CONI:
        write(mem, st, e, c, False)
        return npc
    if (func == CONSZ and c & e == 0) or (func == CONSO and c & e != 0):
        return jump_to(st, npc + 1)
    return npc
