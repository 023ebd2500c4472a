"""The one instruction table of the PDP-6 (Type 166 processor).

Everything that knows about opcodes reads this module: the CPU's dispatch and timing,
the MIDAS assembler's predefined symbols, the disassembler and the debugger.
Sources: ``docs/sources/pdp6-reference.md`` section 1.3 (the PDP-6 opcode map) and the
MIDAS 73 initial symbol table for the device names and aliases.

Families name the execute routine; modes name the operand/result routing:

====  ==========================================================
mode  meaning
====  ==========================================================
""    basic: operand C(E), result to AC
I     immediate: operand 0,,E
M     memory: result to C(E)
B     both: result to AC and C(E)
S     self: result to C(E), and to AC if AC is not 0
L     floating long: AC and AC+1 receive the result
R     floating rounded
RL    floating rounded long (PDP-6 only; the KA10 has immediates here)
RM/RB floating rounded memory / both
====  ==========================================================
"""

from __future__ import annotations

from dataclasses import dataclass

# --- families -------------------------------------------------------------------------
UUO = "uuo"
NOOP = "noop"
FSC = "fsc"
IBP = "ibp"
BYTE = "byte"
FLOAT = "float"
MOVE = "move"
MULDIV = "muldiv"
SHIFT = "shift"
EXCH = "exch"
BLT = "blt"
AOBJ = "aobj"
JRST = "jrst"
JFCL = "jfcl"
XCT = "xct"
STACK = "stack"
JUMPS = "jumps"  # JSR JSP JSA JRA
ADDSUB = "addsub"
COMPARE = "compare"
JUMP = "jump"
SKIP = "skip"
AOJ = "aoj"
AOS = "aos"
SOJ = "soj"
SOS = "sos"
BOOLE = "boole"
HALF = "half"
TEST = "test"
IOT = "iot"


#: Every family, in the order of their numeric ids (the CPU dispatches on the id).  The
#: seven compare/jump/skip families are consecutive so one range test finds them.
FAMILIES = (
    UUO, NOOP, FSC, IBP, BYTE, FLOAT, MOVE, MULDIV, SHIFT, EXCH, BLT, AOBJ, JRST, JFCL,
    XCT, STACK, JUMPS, ADDSUB, COMPARE, JUMP, SKIP, AOJ, AOS, SOJ, SOS, BOOLE, HALF, TEST,
    IOT,
)  # fmt: skip
FAMILY_ID = {name: i for i, name in enumerate(FAMILIES)}


@dataclass(frozen=True)
class Op:
    """One opcode: its number, MIDAS mnemonic, family and mode."""

    code: int
    name: str
    family: str
    mode: str = ""
    note: str = ""

    @property
    def word(self) -> int:
        """The instruction word with AC, I, X and Y zero (the assembler's symbol value)."""
        return self.code << 27

    @property
    def is_io(self) -> bool:
        return self.family == IOT


# Condition suffixes of the compare/jump/skip families, indexed by the low 3 opcode bits.
CONDITIONS = ("", "L", "E", "LE", "A", "GE", "N", "G")
# Boolean functions 400-477 in opcode order; the 4-bit function number is its truth table.
BOOLE_NAMES = (
    "SETZ", "AND", "ANDCA", "SETM", "ANDCM", "SETA", "XOR", "IOR",
    "ANDCB", "EQV", "SETCA", "ORCA", "SETCM", "ORCM", "ORCB", "SETO",
)  # fmt: skip
# Half-word instructions 500-577 in opcode order (each followed by I, M, S).
HALF_NAMES = (
    "HLL", "HRL", "HLLZ", "HRLZ", "HLLO", "HRLO", "HLLE", "HRLE",
    "HRR", "HLR", "HRRZ", "HLRZ", "HRRO", "HLRO", "HRRE", "HLRE",
)  # fmt: skip
# I/O functions, bits 10-12 of an I/O instruction.
IO_FUNCTIONS = ("BLKI", "DATAI", "BLKO", "DATAO", "CONO", "CONI", "CONSZ", "CONSO")

# Device codes as written in an instruction (the 7-bit device number times 4).
DEVICES: dict[str, int] = {
    "APR": 0o000,  # arithmetic processor: flags, clock, protection/relocation
    "PI": 0o004,  # priority interrupt system
    "PTP": 0o100,  # paper tape punch (Type 761)
    "PTR": 0o104,  # paper tape reader (Type 760)
    "CP": 0o110,  # card punch
    "TTY": 0o120,  # console teletype (Type 626 interface, Model 35)
    "LPT": 0o124,  # line printer
    "DIS": 0o130,  # Type 340 display via the Type 344 interface
    "CR": 0o150,  # card reader
    "DC": 0o200,  # Type 136 data control
    "UTC": 0o210,  # Type 551 Microtape control
    "UTS": 0o214,  # Type 551 Microtape status
    "MTC": 0o220,  # Type 516 magnetic tape control
    "MTS": 0o224,  # Type 516 magnetic tape status
}
DEVICE_NAMES: dict[int, str] = {code: name for name, code in DEVICES.items()}


def _build() -> tuple[Op, ...]:
    ops: dict[int, Op] = {}

    def add(code: int, name: str, family: str, mode: str = "", note: str = "") -> None:
        ops[code] = Op(code, name, family, mode, note)

    for code in range(0o000, 0o100):
        # All of 000-077 trap to absolute 40/41 on the PDP-6 (no LUUO/MUUO split).
        add(code, f"UUO{code:02o}" if code else "UUO00", UUO, note="trap to 40/41")
    for code in range(0o100, 0o132):
        add(code, f"NOP{code:03o}", NOOP, note="no-op on the PDP-6 (KA10: trap or UFA/DFN)")
    add(0o132, "FSC", FSC, note="adds to the exponent, does not normalise")
    add(0o133, "IBP", IBP, note="PDP-6 name CAO")
    for i, name in enumerate(("ILDB", "LDB", "IDPB", "DPB")):
        add(0o134 + i, name, BYTE)
    fp_modes = ("", "L", "M", "B", "R", "RL", "RM", "RB")
    for base, stem in ((0o140, "FAD"), (0o150, "FSB"), (0o160, "FMP"), (0o170, "FDV")):
        for i, mode in enumerate(fp_modes):
            add(base + i, stem + mode, FLOAT, mode)
    for base, stem in ((0o200, "MOVE"), (0o204, "MOVS"), (0o210, "MOVN"), (0o214, "MOVM")):
        for i, mode in enumerate(("", "I", "M", "S")):
            add(base + i, stem + mode, MOVE, mode)
    for base, stem in ((0o220, "IMUL"), (0o224, "MUL"), (0o230, "IDIV"), (0o234, "DIV")):
        for i, mode in enumerate(("", "I", "M", "B")):
            add(base + i, stem + mode, MULDIV, mode)
    for i, name in enumerate(("ASH", "ROT", "LSH", "", "ASHC", "ROTC", "LSHC", "")):
        if name:
            add(0o240 + i, name, SHIFT)
        else:
            add(0o240 + i, f"NOP{0o240 + i:03o}", NOOP, note="no-op on the PDP-6")
    add(0o250, "EXCH", EXCH)
    add(0o251, "BLT", BLT)
    add(0o252, "AOBJP", AOBJ)
    add(0o253, "AOBJN", AOBJ)
    add(0o254, "JRST", JRST)
    add(0o255, "JFCL", JFCL, note="JFCL 1, tests PC CHANGE on the PDP-6")
    add(0o256, "XCT", XCT)
    add(0o257, "NOP257", NOOP, note="no-op on the PDP-6 (MAP on the KI10)")
    for i, name in enumerate(("PUSHJ", "PUSH", "POP", "POPJ")):
        add(0o260 + i, name, STACK)
    for i, name in enumerate(("JSR", "JSP", "JSA", "JRA")):
        add(0o264 + i, name, JUMPS)
    for base, stem in ((0o270, "ADD"), (0o274, "SUB")):
        for i, mode in enumerate(("", "I", "M", "B")):
            add(base + i, stem + mode, ADDSUB, mode)
    for base, stem, fam in (
        (0o300, "CAI", COMPARE), (0o310, "CAM", COMPARE), (0o320, "JUMP", JUMP),
        (0o330, "SKIP", SKIP), (0o340, "AOJ", AOJ), (0o350, "AOS", AOS),
        (0o360, "SOJ", SOJ), (0o370, "SOS", SOS),
    ):  # fmt: skip
        for i, cond in enumerate(CONDITIONS):
            add(base + i, stem + cond, fam, cond)
    for f, stem in enumerate(BOOLE_NAMES):
        for i, mode in enumerate(("", "I", "M", "B")):
            add(0o400 + 4 * f + i, stem + mode, BOOLE, mode)
    for h, stem in enumerate(HALF_NAMES):
        for i, mode in enumerate(("", "I", "M", "S")):
            add(0o500 + 4 * h + i, stem + mode, HALF, mode)
    for code in range(0o600, 0o700):
        # 6 mm d s c : mm = N Z C O, d = 0 immediate (R/L) or 1 memory (D/S),
        # s = skip never/E/A/N, c = 0 right/direct, 1 left/swapped.
        mod = "NZCO"[(code >> 4) & 3]
        memory = (code >> 3) & 1
        skip = ("", "E", "A", "N")[(code >> 1) & 3]
        swapped = code & 1
        where = ("DS" if memory else "RL")[swapped]
        add(code, "T" + where + mod + skip, TEST, skip)
    for code in range(0o700, 0o1000):
        add(code, f"IOT{code:03o}", IOT)
    return tuple(ops[c] for c in range(0o1000))


#: The 512 opcodes, indexed by opcode number.
OPCODES: tuple[Op, ...] = _build()
#: Mnemonic -> opcode for every named instruction (UUOs, no-ops and IOTs excluded).
BY_NAME: dict[str, Op] = {op.name: op for op in OPCODES if op.family not in (UUO, NOOP, IOT)}

#: Predefined instruction aliases: name -> full word value (op, AC field).
#: From the MIDAS 73 initial symbol table and PDP-6 usage.
ALIASES: dict[str, int] = {
    "HALT": 0o254200_000000,  # JRST 4,
    "JRSTF": 0o254100_000000,  # JRST 2,
    "JEN": 0o254500_000000,  # JRST 12,  (restore flags and dismiss)
    "JOV": 0o255400_000000,  # JFCL 10,
    "JCRY0": 0o255200_000000,  # JFCL 4,
    "JCRY1": 0o255100_000000,  # JFCL 2,
    "JCRY": 0o255300_000000,  # JFCL 6,
    "JPCCH": 0o255040_000000,  # JFCL 1,  (PC CHANGE, PDP-6 only)
    "NOP": 0o255000_000000,  # JFCL 0,
    "CLEAR": 0o400000_000000,  # SETZ
    "CLEARI": 0o401000_000000,
    "CLEARM": 0o402000_000000,
    "CLEARB": 0o403000_000000,
    "CAO": 0o133000_000000,  # PDP-6 names of the byte instructions
    "LDCI": 0o134000_000000,
    "LDC": 0o135000_000000,
    "DPCI": 0o136000_000000,
    "DPC": 0o137000_000000,
    "LDBI": 0o134000_000000,  # old MIDAS names of ILDB/IDPB
    "DPBI": 0o136000_000000,
    # PDP-10 spellings of the PDP-6 rounded-long slots (same opcodes, 1x5).
    "FADRI": 0o145000_000000,
    "FSBRI": 0o155000_000000,
    "FMPRI": 0o165000_000000,
    "FDVRI": 0o175000_000000,
    # KA10 instructions, predefined by MIDAS 73 (it assembled for both machines); on the
    # PDP-6 these opcodes are no-ops (reference 1.9).
    "UFA": 0o130000_000000,
    "DFN": 0o131000_000000,
    "JFFO": 0o243000_000000,
}

#: I/O function name -> word value (bits 0-2 = 7, function in bits 10-12).
IO_WORDS: dict[str, int] = {name: (0o7 << 33) | (f << 23) for f, name in enumerate(IO_FUNCTIONS)}


def decode(word: int) -> tuple[int, int, int, int, int]:
    """Split an instruction word into (opcode, ac, indirect, index, address)."""
    return (
        (word >> 27) & 0o777,
        (word >> 23) & 0o17,
        (word >> 22) & 1,
        (word >> 18) & 0o17,
        word & 0o777777,
    )


def decode_io(word: int) -> tuple[int, int]:
    """(device code as written, times 4; function 0-7) of an I/O instruction word."""
    return ((word >> 26) & 0o177) << 2, (word >> 23) & 0o7


def predefined_symbols() -> dict[str, tuple[int, bool]]:
    """Every name the assembler predefines: name -> (value, is_io_instruction).

    Instructions and aliases have their opcode in bits 0-8; the I/O instructions are
    flagged so that the assembler reads their AC field as a device code; device names
    have their code (e.g. TTY = 120).
    """
    table: dict[str, tuple[int, bool]] = {}
    for name, op in BY_NAME.items():
        table[name] = (op.word, False)
    for name, value in ALIASES.items():
        table[name] = (value, False)
    for name, value in IO_WORDS.items():
        table[name] = (value, True)
    for name, code in DEVICES.items():
        table[name] = (code, False)
    return table
