"""What each instruction costs in PDP-6 nanoseconds (emulated time).

The PDP-6 is asynchronous: an instruction takes the sum of its memory references and
its logic delays.  The model (reference section 3, aap's calibration from the 161C/162
memory timing document) charges:

* every memory reference: core read 2.75 us, fast memory (ACs) 0.38 us; a write after a
  read-pause 0.75 us, a write on its own a full core cycle;
* indexing 0.8 us, each indirect level one read plus 0.25 us of logic;
* the logic of the instruction, per opcode, from the table below;
* shifts 75 ns per place.

Calibration against the reference's measured figures (code in core): MOVEI 4.0 us,
MOVE AC,core 6.75, ADD AC,core 7.4, CAIE 5.0, MUL 14, IDIV 19.5, FAD 9.5, FMP 13.5,
FDV 21.5, ILDB ~10.6, shifts 4.6 + 0.075 per place.  These are estimates, as the
reference says; SIMH does not model time at all.
"""

from __future__ import annotations

import numpy as np

from . import isa

CORE_READ_NS = 2750
FAST_READ_NS = 380
WRITE_AFTER_READ_NS = 750
CORE_WRITE_NS = 2750  # a write with no preceding read needs a whole cycle
FAST_WRITE_NS = 420
INDEX_NS = 800
INDIRECT_LOGIC_NS = 250
SHIFT_PLACE_NS = 75
CLOCK_PERIOD_NS = 16_666_667  # the 60 Hz line-frequency clock

# Logic time (ns) per family, beyond the memory references.
_FAMILY_LOGIC_NS = {
    isa.UUO: 1250,
    isa.NOOP: 1000,
    isa.FSC: 2000,
    isa.IBP: 1600,
    isa.BYTE: 1600,
    isa.FLOAT: 4000,
    isa.MOVE: 1250,
    isa.MULDIV: 8500,
    isa.SHIFT: 1850,
    isa.EXCH: 1300,
    isa.BLT: 1500,
    isa.AOBJ: 1650,
    isa.JRST: 1250,
    isa.JFCL: 1250,
    isa.XCT: 600,
    isa.STACK: 1650,
    isa.JUMPS: 1450,
    isa.ADDSUB: 1900,
    isa.COMPARE: 2250,
    isa.JUMP: 2000,
    isa.SKIP: 2000,
    isa.AOJ: 2250,
    isa.AOS: 2250,
    isa.SOJ: 2250,
    isa.SOS: 2250,
    isa.BOOLE: 1300,
    isa.HALF: 1300,
    isa.TEST: 1550,
    isa.IOT: 2000,
}
# Opcode-specific corrections to the family figure.
_EXTRA_NS = {"FMP": 4000, "FDV": 12000, "IDIV": 5500, "DIV": 5500}


def logic_table() -> np.ndarray:
    """Logic nanoseconds for each of the 512 opcodes, as the execute loop reads them."""
    table = np.zeros(0o1000, dtype=np.int64)
    for op in isa.OPCODES:
        ns = _FAMILY_LOGIC_NS[op.family]
        for stem, extra in _EXTRA_NS.items():
            if op.name.startswith(stem) and op.family in (isa.FLOAT, isa.MULDIV):
                ns += extra
        table[op.code] = ns
    return table
