"""Shared helpers for the PDP-6 CPU tests.

There is no assembler yet, so instruction words are built with :func:`ins` (from the
opcode table in :mod:`pdp6.isa`) and :func:`io` (I/O instructions).  Every machine
fixture is parametrized over the engines (``pdp6.cpu.engines.ENGINES``), so each test
runs on the numba-compiled loop, the plain-Python one and the native blocks.

Expected values in the test files are worked out by hand from
``docs/sources/pdp6-reference.md``; the section is cited next to each rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import pytest

from pdp6 import Device, Machine, isa
from pdp6.cpu.engines import ENGINES

M36 = (1 << 36) - 1
M35 = (1 << 35) - 1
SIGN = 1 << 35
RH = 0o777777

# PC-word flags (left half), reference 1.4
OV = 0o400000
CRY0 = 0o200000
CRY1 = 0o100000
PCCH = 0o040000
FPD = 0o020000
USER = 0o010000
UIOT = 0o004000

START = 0o100


def word(lh: int, rh: int) -> int:
    """``lh,,rh`` as a 36-bit word."""
    return ((lh & RH) << 18) | (rh & RH)


def neg(v: int) -> int:
    """The 36-bit two's complement word holding the (possibly negative) value ``v``."""
    return v & M36


def signed(w: int) -> int:
    return w - (1 << 36) if w & SIGN else w


def ins(op: str | int, ac: int = 0, y: int = 0, *, i: int = 0, x: int = 0) -> int:
    """An instruction word: ``ins('ADDI', 1, 3)`` is ``ADDI 1,3``; ``i=1`` is ``@``.

    ``op`` is a mnemonic from :data:`pdp6.isa.BY_NAME`, an alias from
    :data:`pdp6.isa.ALIASES` (``HALT`` = ``JRST 4,``; its AC bits are ORed with ``ac``),
    or an opcode number (for UUOs and the no-op slots).
    """
    if isinstance(op, int):
        base = op << 27
    elif op in isa.BY_NAME:
        base = isa.BY_NAME[op].word
    else:
        base = isa.ALIASES[op]
    assert 0 <= ac <= 0o17 and i in (0, 1) and 0 <= x <= 0o17, (ac, i, x)
    return base | (ac << 23) | (i << 22) | (x << 18) | (y & RH)


def io(func: str, dev: str | int, y: int = 0, *, i: int = 0, x: int = 0) -> int:
    """An I/O instruction word: ``io('CONO', 'PI', 0o2200)`` is ``CONO PI,2200``.

    ``dev`` is a device name from :data:`pdp6.isa.DEVICES` or a code as written in
    instructions (a multiple of 4, e.g. 0o770).
    """
    code = isa.DEVICES[dev] if isinstance(dev, str) else dev
    assert code % 4 == 0 and 0 <= code <= 0o774, code
    return isa.IO_WORDS[func] | ((code >> 2) << 26) | (i << 22) | (x << 18) | (y & RH)


def halt(at: int) -> int:
    """``JRST 4,at``: stops with PC = ``at`` (placed at ``at`` it names its own address)."""
    return ins("JRST", 4, at)


def new_machine(engine: str, **kwargs: int) -> Machine:
    """A machine on ``engine``; the block engines (python, native) translate every block
    the first time it is reached, so that each instruction test also tests the
    instruction's translation (by default only code that runs often is translated)."""
    m = Machine(engine=engine, **kwargs)
    if hasattr(m._run, "translate_at_once"):
        m._run.translate_at_once()
    return m


def load(
    m: Machine,
    words: Iterable[int],
    start: int = START,
    acs: Mapping[int, int] | None = None,
    mem: Mapping[int, int] | None = None,
    flags: int = 0,
) -> int:
    """Deposit a program at ``start`` plus ACs and memory; returns the address after it."""
    n = 0
    for n, w in enumerate(words, 1):
        m.memory[start + n - 1] = w
    for a, v in (acs or {}).items():
        assert 0 <= a <= 0o17, a
        m.memory[a] = v
    for a, v in (mem or {}).items():
        m.memory[a] = v
    m.flags = flags
    m.pc = start
    return start + n


class FlagDevice(Device):
    """A test device with one flag that requests an interrupt on its PIA while set.

    CONO: bits 33-35 PIA, 010 set the flag, 020 clear it.  CONI: flag (010) and PIA.
    DATAO/BLKO words are collected in ``received``; DATAI reads ``value``.  With
    ``clear_on_data`` a DATAO/DATAI also clears the flag (like a real device's done
    flag), otherwise the flag stays set until a CONO clears it.
    """

    def __init__(self, code: int, clear_on_data: bool = True) -> None:
        super().__init__()
        self.code = code
        self.name = f"T{code:o}"
        self.pia = 0
        self.flag = False
        self.clear_on_data = clear_on_data
        self.received: list[int] = []
        self.conos: list[int] = []
        self.value = 0
        self.datai_count = 0
        self.resets = 0

    def cono(self, value: int) -> None:
        self.conos.append(value)
        self.pia = value & 7
        if value & 0o10:
            self.flag = True
        if value & 0o20:
            self.flag = False

    def datao(self, word: int) -> None:
        self.received.append(word)
        if self.clear_on_data:
            self.flag = False

    def on_datai(self) -> None:
        self.datai_count += 1
        if self.clear_on_data:
            self.flag = False

    def reset(self) -> None:
        self.resets += 1
        self.flag = False
        self.pia = 0

    def coni(self) -> int:
        return (0o10 if self.flag else 0) | self.pia

    def data_in(self) -> int:
        return self.value

    def request(self) -> int:
        return self.pia if self.flag else 0


# --- fixtures ---------------------------------------------------------------------------


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    """The execute engines: 'compiled' (numba), 'python' and 'native' (LLVM blocks)."""
    return str(request.param)


@pytest.fixture
def machine(engine: str) -> Machine:
    """A fresh 256K machine: all zero, executive mode, PI off."""
    return new_machine(engine)


RunProgram = Callable[..., Machine]


@pytest.fixture
def run_program(engine: str) -> RunProgram:
    """``run_program(words, start=0o100, acs={...}, mem={...}, flags=0)`` -> Machine.

    Deposits the program with a ``JRST 4,`` (to its own address) after it, runs until a
    halt and returns the machine.  ``m.pc`` then tells which halt stopped it.
    """

    def _run(
        words: Iterable[int],
        start: int = START,
        acs: Mapping[int, int] | None = None,
        mem: Mapping[int, int] | None = None,
        flags: int = 0,
        max_instructions: int = 10_000,
        machine: Machine | None = None,
        core_words: int | None = None,
    ) -> Machine:
        if machine is not None:
            m = machine
        elif core_words is not None:
            m = new_machine(engine, core_words=core_words)
        else:
            m = new_machine(engine)
        end = load(m, words, start, acs, mem, flags)
        m.memory[end] = halt(end)
        stop = m.run(max_instructions=max_instructions)
        assert stop.reason == "halt", f"program did not halt: {stop}"
        return m

    return _run


@pytest.fixture
def exec1(engine: str) -> RunProgram:
    """``exec1(word, acs={...}, mem={...}, flags=0)``: execute exactly one instruction.

    The word is placed at 100 and executed with ``step()``; the flags afterwards are
    exactly what the instruction left (no halt instruction touches them).
    """

    def _exec(
        word: int,
        acs: Mapping[int, int] | None = None,
        mem: Mapping[int, int] | None = None,
        flags: int = 0,
        machine: Machine | None = None,
    ) -> Machine:
        m = machine if machine is not None else new_machine(engine)
        load(m, [word], START, acs, mem, flags)
        stop = m.step()
        assert stop.instructions == 1, stop
        return m

    return _exec
