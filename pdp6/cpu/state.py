"""Layout of the processor state vector.

The execute loop keeps all processor, APR and PI state in one int64 array (``st``) so
that the same code runs compiled by numba and as plain Python.  These names index it.
"""

# Processor
PC = 0  # program counter (18 bits)
FLAGS = 1  # left half of the PC word (AR OV 400000 ... USER IOT 004000)
TIME = 2  # emulated time in nanoseconds
COUNT = 3  # instructions executed since power-on
MEMSIZE = 4  # words of core present (addresses >= this are non-existent memory)
INHIBIT = 5  # 1 while relocation is inhibited after a UUO, until a JSR
FAULT = 6  # set when a memory reference aborts the current instruction
# APR (device 000)
APR_PIA = 7
APR_PDLOV = 8  # pushdown overflow
APR_ILLOP = 9  # illegal operation / memory protection violation
APR_NXM = 10  # non-existent memory
APR_CLKFLAG = 11
APR_CLKEN = 12
APR_PCCHEN = 13  # PC-change interrupt enable
APR_OVEN = 14  # overflow interrupt enable
PROT = 15  # protection register (1K blocks)
RELOC = 16  # relocation register (1K blocks)
SWITCHES = 17  # console data switches (DATAI APR,)
# PI (device 004); channel n is bit 1 << (7 - n): channel 1 = 100, channel 7 = 1
PI_ACTIVE = 18
PI_ON = 19
PIR = 20  # latched requests
PIH = 21  # held (in progress) channels
DEVREQ = 22  # channels requested right now by the host-side devices
# Events and exits
CLOCK_NEXT = 23  # time of the next 60 Hz clock tick
HOST_EVENT = 24  # earliest time a host-side device wants service
EVENT = 25  # min(CLOCK_NEXT, HOST_EVENT)
REASON = 26  # why the loop stopped (see REASON_* below)
IOQ_N = 27  # entries queued in the I/O queue during the current step
HALT_PC = 28  # PC where a JRST 4, halted
PI_CYCLE = 29  # 1 while executing an interrupt instruction
CLOCK_PERIOD = 30  # nanoseconds between clock ticks (16666667 = 60 Hz)
EA_LH = 31  # left half of the last word of the E calculation (for JRST 2,)
IOT_RESULT = 32  # what an I/O instruction did, for the interrupt cycle (IOT_* below)
FIRST = 33  # 1 at the first instruction of a run (breakpoints are not checked there)
# The Type 340 when the loop runs it (``pdp6.cpu.dis340``): its request lines, and the time
# of its next visible change (NEVER when the host runs it)
DIS_REQ = 34
DIS_EVENT = 35
# Emulated time at the start of the current instruction, when the loop last looked at its
# events: what a CONI or DATAI of that 340 shows (its changes come at instruction
# boundaries, as a host device's are serviced)
BOUNDARY = 36
SIZE = 40

# Stop reasons returned by the loop
REASON_NONE = 0
REASON_HALT = 1
REASON_BREAK = 2
REASON_LIMIT = 3
REASON_EVENT = 4  # a host device is due for service
REASON_IO = 5  # the step queued I/O for host devices
REASON_POINTS = 6  # the host must take the 340's words (``pdp6.cpu.dis340``)
REASON_NAMES = ("none", "halt", "breakpoint", "limit", "event", "io", "points")
REASON_HOT = 100  # (the native engine's loop, never seen outside) an address to translate

# PC-word flags (left half)
F_OV = 0o400000
F_CRY0 = 0o200000
F_CRY1 = 0o100000
F_PCCH = 0o040000
F_FPD = 0o020000  # byte instruction first part done
F_USER = 0o010000
F_UIOT = 0o004000

# IOT_RESULT values
IOT_NONE = 0  # not an I/O instruction
IOT_DATA = 1  # DATAI/DATAO, or BLKI/BLKO that did not count out: dismiss
IOT_COUNTOUT = 2  # BLKI/BLKO counted out: continue at 41+2n
IOT_COND = 3  # CONO/CONI/CONSZ/CONSO: neither holds nor dismisses

# Size of the per-step I/O queue (device code, function, word)
IOQ_MAX = 8
