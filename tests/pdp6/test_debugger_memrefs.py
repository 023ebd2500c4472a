"""What the next instruction reads and writes (``pdp6.host.memrefs``), which read/write
breakpoints and the trace rely on: operand routing by family and mode, effective
addresses through indexing and indirection, stacks, bytes, BLT, I/O, XCT, UUOs and
interrupt instructions."""

from __future__ import annotations

import pytest

from pdp6 import Machine
from pdp6.host.memrefs import next_references
from pdp6.host.typein import parse_word

SYMS = {"P": 0o17}


def refs_of(text: str, mem: dict[int, int] | None = None, flags: int = 0):
    m = Machine(engine="python")
    m.memory[0o100] = parse_word(text, SYMS)
    for addr, word in (mem or {}).items():
        m.memory[addr] = word
    m.flags = flags
    m.pc = 0o100
    return next_references(m)


def addrs(found: list[int]) -> list[int]:
    return sorted(set(found))


@pytest.mark.parametrize(
    "text, reads, writes",
    [
        ("MOVE 1,200", [0o200], [1]),
        ("MOVEI 1,200", [], [1]),
        ("MOVEM 1,200", [1], [0o200]),  # E is only written
        ("MOVES 0,200", [0o200], [0o200]),  # AC 0: memory only
        ("MOVES 2,200", [0o200], [2, 0o200]),
        ("ADDB 3,200", [3, 0o200], [3, 0o200]),
        ("SETZM 200", [0], [0o200]),  # SETZ reads no memory (the boolean unit takes the AC)
        ("HRRZM 1,200", [1, 0o200], [0o200]),  # the M modes read E before storing
        ("HRRM 1,200", [1, 0o200], [0o200]),  # keeps the left half of E
        ("HLLZ 1,200", [1, 0o200], [1]),
        ("HLL 1,200", [1, 0o200], [1]),
        ("IMUL 1,200", [1, 0o200], [1]),
        ("MUL 1,200", [1, 0o200], [1, 2]),
        ("IDIVI 17,5", [0o17], [0, 0o17]),  # AC+1 wraps to 0
        ("FADRM 1,200", [1, 0o200], [0o200]),
        ("FADL 1,200", [1, 0o200], [1, 2]),
        ("CAMLE 1,200", [1, 0o200], []),
        ("CAIE 1,200", [1], []),
        ("SKIPE 200", [0o200], []),
        ("SKIPA 4,200", [0o200], [4]),
        ("AOS 200", [0o200], [0o200]),
        ("SOJG 5,100", [5], [5]),
        ("TRNE 1,40", [1], []),
        ("TDZ 1,200", [1, 0o200], [1]),  # a test instruction modifies the AC, never E
        ("EXCH 1,200", [1, 0o200], [1, 0o200]),
        ("LSHC 1,3", [1, 2], [1, 2]),
        ("JRST 200", [], []),
        ("JSR 200", [], [0o200]),
        ("JSP 1,200", [], [1]),
        ("DATAI TTY,200", [], [0o200]),
        ("DATAO TTY,200", [0o200], []),
        ("CONI TTY,200", [], [0o200]),
        ("CONO TTY,200", [], []),
        ("1^11 1,200", [0o41], [0o40]),  # a UUO: stored at 40, 41 executed
    ],
)
def test_operand_routing(text: str, reads: list[int], writes: list[int]) -> None:
    r = refs_of(text)
    assert (addrs(r.reads), addrs(r.writes)) == (reads, writes)
    assert r.address == 0o100 and r.interrupt == 0


def test_effective_address_follows_index_and_indirection() -> None:
    r = refs_of("MOVEM 1,@300(2)", {2: 0o5, 0o305: 0o20_000400, 0o400: 0o000_000500})
    assert addrs(r.writes) == [0o500]
    assert 0o305 in addrs(r.reads) and 0o400 in addrs(r.reads)  # the indirect words


def test_stack_instructions() -> None:
    p = {0o17: 0o777770_001000, 0o1000: 0o000000_000123}
    assert addrs(refs_of("PUSHJ P,200", p).writes) == [0o17, 0o1001]
    assert addrs(refs_of("PUSH P,200", p).reads) == [0o17, 0o200]
    r = refs_of("POP P,200", p)
    assert (addrs(r.reads), addrs(r.writes)) == ([0o17, 0o1000], [0o17, 0o200])
    assert addrs(refs_of("POPJ P,", p).reads) == [0o17, 0o1000]


def test_byte_instructions_use_the_incremented_pointer() -> None:
    pointer = 0o010700_000300  # P=1, S=7: the next ILDB moves to the next word
    r = refs_of("ILDB 1,200", {0o200: pointer})
    assert addrs(r.reads) == [0o200, 0o301]
    assert addrs(r.writes) == [1, 0o200]
    r = refs_of("LDB 1,200", {0o200: pointer})
    assert addrs(r.reads) == [0o200, 0o300]
    r = refs_of("IDPB 1,200", {0o200: 0o440700_000300})
    assert addrs(r.writes) == [0o200, 0o300]
    # First part done: the pointer was incremented before an interrupt; no second time.
    r = refs_of("ILDB 1,200", {0o200: pointer}, flags=0o020000)
    assert addrs(r.reads) == [0o200, 0o300] and addrs(r.writes) == [1]


def test_blt_writes_the_whole_destination() -> None:
    r = refs_of("BLT 1,1007", {1: 0o000500_001000})
    assert addrs(r.writes) == list(range(0o1000, 0o1010))
    assert list(range(0o500, 0o510)) == [a for a in addrs(r.reads) if a >= 0o500]


def test_blki_writes_through_its_pointer() -> None:
    r = refs_of("BLKI PTR,200", {0o200: 0o777770_000777})
    assert addrs(r.writes) == [0o200, 0o1000]


def test_xct_adds_the_executed_instruction() -> None:
    r = refs_of("XCT 200", {0o200: parse_word("MOVEM 3,400")})
    assert addrs(r.reads) == [3, 0o200]
    assert addrs(r.writes) == [0o400]


def test_the_interrupt_instruction_about_to_be_taken() -> None:
    m = Machine(engine="python")
    m.memory[0o100] = parse_word("MOVEM 1,200")
    m.memory[0o44] = parse_word("JSR 300")  # channel 2
    m.pi.active, m.pi.on, m.pi.requests = True, 0o040, 0o040
    m.pc = 0o100
    r = next_references(m)
    assert (r.interrupt, r.address, addrs(r.writes)) == (2, 0o44, [0o300])
    m.step()
    assert m.pc == 0o301  # it was indeed taken
