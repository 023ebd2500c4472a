"""Property tests: instruction results and flags against Python-integer models written
from the reference, and the two engines against each other on random programs.

The models restate the rules in ordinary integer arithmetic rather than copying the
emulator's bit manipulation: carries are "the unsigned sum exceeds 2^36 (or 2^35 for
the low 35 bits)", overflow is "the signed result leaves [-2^35, 2^35)", quotients are
truncated signed division.  PDP-6 specifics (reference 1.4, 1.5): SUB/SOS carries come
from (~A)+B; IMUL keeps the sign plus the low 35 bits of the product; the corner cases
with -2^35 in the AC of MUL/IMUL/IDIV follow aap and are covered by the unit tests, so
they are excluded here.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pdp6 import Machine
from pdp6.cpu.engines import ALL_ENGINES, ENGINES

from .conftest import CRY0, CRY1, M35, M36, OV, SIGN, ins, io, signed

MAX = 1 << 35
E = 0o200
_MACHINES: dict[str, Machine] = {}

SETTINGS = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

EDGES = [0, 1, 2, 3, 5, M36, M36 - 1, SIGN, SIGN + 1, SIGN - 1, M35, 1 << 34, 0o777777,
         0o1_000000, 0o777777_000000, 0o525252_525252]  # fmt: skip
words = st.one_of(
    st.integers(0, M36),
    st.sampled_from(EDGES),
    st.integers(-1000, 1000).map(lambda v: v & M36),
)
counts_e = st.one_of(st.integers(0, 0o777777), st.integers(-80, 80).map(lambda v: v & 0o777777))


def run1(engine: str, word: int, acs: dict[int, int], mem: dict[int, int] | None = None):
    """Execute one instruction at 100 on a reused machine; returns the machine."""
    m = _MACHINES.get(engine)
    if m is None:
        m = _MACHINES[engine] = Machine(engine=engine)
    for a in range(0o20):
        m.memory[a] = acs.get(a, 0)
    for a, v in (mem or {}).items():
        m.memory[a] = v
    m.memory[0o100] = word
    m.flags = 0
    m.pc = 0o100
    m.step()
    return m


def count(e: int) -> int:
    """The shift count from E: bit 18 is the sign, bits 28-35 the magnitude (ref 1.3)."""
    return (e & 0o377) - (256 if e & 0o400000 else 0)


def carries(x: int, y: int) -> int:
    """CRY0/CRY1/OV of the 36-bit adder adding x and y."""
    f = 0
    if x + y > M36:
        f |= CRY0
    if (x & M35) + (y & M35) > M35:
        f |= CRY1
    return f


def in_range(v: int, bits: int = 35) -> bool:
    return -(1 << bits) <= v < (1 << bits)


def add_model(a: int, b: int) -> tuple[int, int]:
    total = signed(a) + signed(b)
    f = carries(a, b) | (0 if in_range(total) else OV)
    return total & M36, f


def sub_model(a: int, b: int) -> tuple[int, int]:
    diff = signed(a) - signed(b)
    f = carries(a ^ M36, b) | (0 if in_range(diff) else OV)  # complement, add, complement
    return diff & M36, f


engines = pytest.mark.parametrize("engine", ENGINES)


@engines
@SETTINGS
@given(a=words, b=words)
def test_add(engine: str, a: int, b: int) -> None:
    r, f = add_model(a, b)
    assert bool(f & OV) == (bool(f & CRY0) != bool(f & CRY1))  # the model is consistent
    m = run1(engine, ins("ADD", 1, E), {1: a}, {E: b})
    assert (m.memory[1], m.flags) == (r, f)


@engines
@SETTINGS
@given(a=words, b=words)
def test_sub(engine: str, a: int, b: int) -> None:
    r, f = sub_model(a, b)
    assert bool(f & OV) == (bool(f & CRY0) != bool(f & CRY1))
    m = run1(engine, ins("SUB", 1, E), {1: a}, {E: b})
    assert (m.memory[1], m.flags) == (r, f)


@engines
@SETTINGS
@given(x=words)
def test_aos_sos_aoj_soj(engine: str, x: int) -> None:
    up, fu = add_model(x, 1)
    down, fd = sub_model(x, 1)
    m = run1(engine, ins("AOS", 1, E), {}, {E: x})
    assert (m.memory[E], m.memory[1], m.flags) == (up, up, fu)
    m = run1(engine, ins("SOS", 1, E), {}, {E: x})
    assert (m.memory[E], m.memory[1], m.flags) == (down, down, fd)
    m = run1(engine, ins("AOJ", 1, 0), {1: x})
    assert (m.memory[1], m.flags) == (up, fu)
    m = run1(engine, ins("SOJ", 1, 0), {1: x})
    assert (m.memory[1], m.flags) == (down, fd)


@engines
@SETTINGS
@given(a=words, b=words)
def test_imul_and_mul(engine: str, a: int, b: int) -> None:
    assume(a != SIGN)  # aap's Booth corner case, unit-tested
    p = signed(a) * signed(b)
    sign = SIGN if p < 0 else 0
    lo = sign | (p & M35)
    hi = (p >> 35) & M36
    m = run1(engine, ins("IMUL", 1, E), {1: a, 2: 0o123}, {E: b})
    assert (m.memory[1], m.memory[2]) == (lo, 0o123)
    assert m.flags == (0 if in_range(p) else OV)
    m = run1(engine, ins("MUL", 1, E), {1: a}, {E: b})
    assert (m.memory[1], m.memory[2], m.flags) == (hi, lo, 0)


@engines
@SETTINGS
@given(a=words, b=words)
def test_idiv(engine: str, a: int, b: int) -> None:
    assume(a != SIGN)  # -2^35 / x -> 0, 0 in aap, unit-tested
    m = run1(engine, ins("IDIV", 1, E), {1: a, 2: 0o555}, {E: b})
    if b == 0:
        assert (m.memory[1], m.memory[2], m.flags) == (a, 0o555, OV)
        return
    sa, sb = signed(a), signed(b)
    q = abs(sa) // abs(sb) * (1 if (sa < 0) == (sb < 0) else -1)
    r = sa - q * sb
    assert (m.memory[1], m.memory[2], m.flags) == (q & M36, r & M36, 0)


@engines
@SETTINGS
@given(hi=words, lo=words, b=words)
def test_div(engine: str, hi: int, lo: int, b: int) -> None:
    dividend = signed(hi) * MAX + (lo & M35)  # the low word's sign bit is ignored
    divisor = signed(b)
    m = run1(engine, ins("DIV", 1, E), {1: hi, 2: lo}, {E: b})
    if divisor == 0 or abs(dividend) >> 35 >= abs(divisor):
        assert (m.memory[1], m.memory[2], m.flags) == (hi, lo, OV)
        return
    q = abs(dividend) // abs(divisor) * (1 if (dividend < 0) == (divisor < 0) else -1)
    r = dividend - q * divisor
    assert (m.memory[1], m.memory[2], m.flags) == (q & M36, r & M36, 0)


@engines
@SETTINGS
@given(a=words, e=counts_e)
def test_ash(engine: str, a: int, e: int) -> None:
    n, v = count(e), signed(a)
    if n >= 0:
        product = v << n
        expected = (a & SIGN) | (product & M35)
        flags = 0 if in_range(product) else OV
    else:
        expected, flags = (v >> -n) & M36, 0
    m = run1(engine, ins("ASH", 1, e), {1: a})
    assert (m.memory[1], m.flags) == (expected, flags)


@engines
@SETTINGS
@given(a=words, e=counts_e)
def test_rot_and_lsh(engine: str, a: int, e: int) -> None:
    n = count(e)
    k = n % 36
    rotated = ((a << k) | (a >> (36 - k))) & M36
    shifted = (a << n) & M36 if n >= 0 else a >> -n
    assert run1(engine, ins("ROT", 1, e), {1: a}).memory[1] == rotated
    m = run1(engine, ins("LSH", 1, e), {1: a})
    assert (m.memory[1], m.flags) == (shifted, 0)


@engines
@SETTINGS
@given(hi=words, lo=words, e=counts_e)
def test_ashc(engine: str, hi: int, lo: int, e: int) -> None:
    n = count(e)
    m = run1(engine, ins("ASHC", 1, e), {1: hi, 2: lo})
    if n == 0:
        assert (m.memory[1], m.memory[2], m.flags) == (hi, lo, 0)
        return
    sign = hi & SIGN
    v = signed(hi) * MAX + (lo & M35)  # 70 magnitude bits and the sign
    r = v << n if n > 0 else v >> -n
    flags = OV if n > 0 and not in_range(r, 70) else 0
    if n > 0:
        expected = (sign | ((r >> 35) & M35), sign | (r & M35))
    else:
        expected = ((r >> 35) & M36, sign | (r & M35))
    assert (m.memory[1], m.memory[2], m.flags) == (*expected, flags)


@engines
@SETTINGS
@given(hi=words, lo=words, e=counts_e)
def test_rotc_and_lshc(engine: str, hi: int, lo: int, e: int) -> None:
    n = count(e)
    pair = (hi << 36) | lo
    m72 = (1 << 72) - 1
    k = n % 72
    rotated = ((pair << k) | (pair >> (72 - k))) & m72
    shifted = (pair << n) & m72 if n >= 0 else pair >> -n
    m = run1(engine, ins("ROTC", 1, e), {1: hi, 2: lo})
    assert (m.memory[1], m.memory[2]) == (rotated >> 36, rotated & M36)
    m = run1(engine, ins("LSHC", 1, e), {1: hi, 2: lo})
    assert (m.memory[1], m.memory[2], m.flags) == (shifted >> 36, shifted & M36, 0)


def increment_model(ptr: int) -> int:
    """Reference 1.6: P -= S, or next word with P = (36 - S) mod 64 (aap order: +1 first)."""
    p, s = ptr >> 30, (ptr >> 24) & 0o77
    if p >= s:
        return ptr - (s << 30)
    rest = (ptr + 1) % (1 << 30)  # bits 6-35 after the whole-word increment
    return (((36 - s) % 64) << 30) | rest


pointers = st.builds(
    lambda p, s, rest: (p << 30) | (s << 24) | rest,
    st.one_of(st.integers(0, 63), st.sampled_from([0, 1, 6, 7, 0o36, 0o44])),
    st.one_of(st.integers(0, 63), st.sampled_from([0, 6, 7, 0o44, 0o77])),
    st.one_of(st.integers(0, (1 << 24) - 1), st.sampled_from([0o777777, 0o37_777777])),
)


@engines
@SETTINGS
@given(ptr=pointers)
def test_byte_pointer_increment(engine: str, ptr: int) -> None:
    m = run1(engine, ins("IBP", 0, E), {}, {E: ptr})
    assert m.memory[E] == increment_model(ptr)
    assert m.flags == 0


@engines
@SETTINGS
@given(p=st.integers(0, 63), s=st.integers(0, 63), w=words, ac=words)
def test_ldb_dpb(engine: str, p: int, s: int, w: int, ac: int) -> None:
    ptr = (p << 30) | (s << 24) | 0o300
    mask = (1 << s) - 1
    m = run1(engine, ins("LDB", 1, E), {1: 0o777}, {E: ptr, 0o300: w})
    assert m.memory[1] == (w >> p) & mask
    field = (mask << p) & M36
    m = run1(engine, ins("DPB", 1, E), {1: ac}, {E: ptr, 0o300: w})
    assert m.memory[0o300] == (w & ~field) | ((ac << p) & field)


# --- differential: compiled vs python on random programs ---------------------------------

# All of 000-677 (UUOs and XCT included: endless XCT/UUO chains yield to the run budget,
# see test_cpu_control).
RANDOM_OPS = list(range(0o700))
IOT_DEVICES = (0o000, 0o004, 0o770)  # APR, PI, nothing attached

addresses = st.one_of(st.integers(0, 0o17), st.integers(0o100, 0o377))
instructions = st.one_of(
    st.builds(
        lambda op, ac, i, x, y: (op << 27) | (ac << 23) | (i << 22) | (x << 18) | y,
        st.sampled_from(RANDOM_OPS),
        st.integers(0, 0o17),
        st.sampled_from([0] * 7 + [1]),
        st.one_of(st.just(0), st.integers(0, 0o17)),
        addresses,
    ),
    st.builds(
        lambda f, dev, y: io(
            ("BLKI", "DATAI", "BLKO", "DATAO", "CONO", "CONI", "CONSZ", "CONSO")[f], dev, y
        ),  # fmt: skip
        st.integers(0, 7),
        st.sampled_from(IOT_DEVICES),
        st.one_of(addresses, st.integers(0, 0o777777)),
    ),
)
data_words = st.one_of(words, instructions)


def snapshot(m: Machine, stop: Any) -> dict[str, Any]:
    apr, pi = m.apr, m.pi
    return {
        "stop": (stop.reason, stop.pc, stop.instructions),
        "pc": m.pc,
        "flags": m.flags,
        "ns": m.elapsed_ns,
        "count": m.instructions,
        "memory": m.memory[0 : m.core_words],
        "apr": (
            apr.pia,
            apr.pushdown_overflow,
            apr.illegal_op,
            apr.nxm,
            apr.clock_flag,
            apr.clock_enabled,
            apr.pc_change_enabled,
            apr.overflow_enabled,
            apr.protection,
            apr.relocation,
        ),  # fmt: skip
        "pi": (pi.active, pi.on, pi.requests, pi.held),
    }


def run_random(engine: str, acs: list[int], program: list[int], data: list[int]) -> dict:
    m = Machine(engine=engine, core_words=0o10000)
    if engine == "python":
        m._run.translate_at_once()  # translate every block at once, so blocks are what gets tested
        m._run.slow_steps = 0
    for a, v in enumerate(acs):
        m.memory[a] = v
    for k, w in enumerate(program):
        m.memory[0o100 + k] = w
    m.memory[0o100 + len(program)] = ins("JRST", 0, 0o100)  # run the program again
    for k, w in enumerate(data):
        m.memory[0o200 + k] = w
    # UUOs return to the instruction after them (restoring the flags), so a run goes on
    # until its budget or a halt.
    m.memory[0o41] = ins("JSR", 0, 0o500)
    m.memory[0o501] = ins("JRST", 2, 0o500, i=1)
    m.pc = 0o100
    stop = m.run(max_instructions=300, until_us=20_000)
    if engine == "python":
        TRANSLATED.append((stop.instructions, m._run.slow_steps))
    return snapshot(m, stop)


TRANSLATED: list[tuple[int, int]] = []  # (instructions, of which interpreted) per python run


def _differential(acs: list[int], program: list[int], data: list[int]) -> None:
    # The interpreter is loop.run as plain Python; the 'python' engine translates blocks
    # from the same source; 'compiled' is numba.  All three must agree to the bit.
    first, *others = (run_random(e, acs, program, data) for e in ALL_ENGINES)
    for other in others:
        for key in first:
            assert first[key] == other[key], key


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    acs=st.lists(words, min_size=16, max_size=16),
    program=st.lists(instructions, min_size=1, max_size=24),
    data=st.lists(data_words, max_size=64),
)
def test_engines_agree_on_random_programs(acs, program, data) -> None:
    _differential(acs, program, data)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    acs=st.lists(words, min_size=16, max_size=16),
    program=st.lists(instructions, min_size=1, max_size=64),
    data=st.lists(data_words, max_size=128),
)
def test_engines_agree_on_random_programs_long(acs, program, data) -> None:
    _differential(acs, program, data)
