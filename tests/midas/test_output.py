"""SBLK and RIM output (reference 2.2-2.5), read back with pdp6/formats/loader.py."""

import pytest

from midas.rim import rim_words
from midas.sblk import sblk_words
from pdp6.formats.loader import (
    JRST_1,
    SYM_HALFKILLED,
    SYM_LOCAL,
    LoaderError,
    block_checksum,
    load_into,
    read_rim,
    read_sblk,
    read_words,
    squoze,
)
from pdp6.formats.wordfile import decode_words, encode_words

from .helpers import asm, xwd

# visib1.mid from pdp10-its-disassembler/samples, assembled by a real MIDAS in 2018.
VISIB1 = """;As CONST is half-killed, DDT would show LABEL.

A=1
P=17

CONST==100

LOC 100
BEG:\tJFCL
\tJRST CONST\t;symbolise as BEG
\tJRST 123\t;don't symbolise

END BEG\t\t\t;symbolise as BEG
"""

# MIDAS's SBLK loader with the device 104 of MIDAS 4xx, by address (reference 2.2),
# each word worked out from the opcode table: AC n is n*40 in the left half, an I/O
# device code d is d*100 (shifted 24), the I/O functions are 700000 + 40*function.
LOADER = {
    0o00: xwd(0o710600, 0o60),  # CONO PTR,60
    0o01: xwd(0o265600, 0o30),  # JSP 14,30
    0o02: xwd(0o710440, 0o16),  # DATAI PTR,16
    0o03: xwd(0o200640, 0o16),  # MOVE 15,16
    0o04: xwd(0o325700, 0o16),  # JUMPGE 16,16
    0o05: xwd(0o265600, 0o30),  # JSP 14,30
    0o06: xwd(0o710456, 0),  # DATAI PTR,(16)
    0o07: xwd(0o241640, 1),  # ROT 15,1
    0o10: xwd(0o270656, 0),  # ADD 15,(16)
    0o11: xwd(0o253700, 5),  # AOBJN 16,5
    0o12: xwd(0o201600, 0o33),  # MOVEI 14,33
    0o13: xwd(0o254000, 0o30),  # JRST 30
    0o30: xwd(0o710740, 0o10),  # CONSO PTR,10
    0o31: xwd(0o254000, 0o30),  # JRST 30
    0o32: xwd(0o254014, 0),  # JRST (14)
    0o33: xwd(0o710440, 0o16),  # DATAI PTR,16
    0o34: xwd(0o316640, 0o16),  # CAMN 15,16
    0o35: xwd(0o324000, 1),  # JUMPA 1
    0o36: xwd(0o254200, 0),  # JRST 4,
}


def test_visib1_matches_real_midas_output() -> None:
    program = asm(VISIB1)
    out = sblk_words(program)
    # The prologue: 19 RIM pairs loading the loader, then JRST 1: 39 words.
    prologue = []
    for addr, word in LOADER.items():
        prologue += [xwd(0o710440, addr), word]
    assert out[:39] == prologue + [JRST_1]
    # One data block: header -3,,100, the three words, the checksum of the real file.
    assert out[39:44] == [
        xwd(0o777775, 0o100),
        xwd(0o255000, 0),
        xwd(0o254000, 0o100),
        xwd(0o254000, 0o123),
        xwd(0o267750, 0o1327),
    ]
    assert out[44] == xwd(0o254000, 0o100)  # start instruction: JRST BEG
    # The symbol block: -12,,0 (ten words): GLOBAL header pair, then A, P, BEG, CONST.
    assert out[45] == xwd(0o777766, 0)
    assert out[46:48] == [xwd(0o015315, 0o513316), xwd(0o777766, 0)]  # GLOBAL, -12,,0
    assert out[48:50] == [xwd(0o110310, 0o700000), 1]  # A: local flag 4.7 + squoze of A
    assert out[50:52] == [SYM_LOCAL | squoze("P"), 0o17]
    assert out[52:54] == [xwd(0o111346, 0o105000), 0o100]  # BEG = 011346,,105000
    assert out[54] & ~0o037777_777777 == SYM_HALFKILLED | SYM_LOCAL  # CONST: 4.9 + 4.7
    assert out[55] == 0o100
    assert out[56] == block_checksum(out[45:56])
    assert out[57:] == [xwd(0o254000, 0o100)] * 2  # start instruction twice to end it
    assert len(out) == 59


def test_sblk_read_back() -> None:
    program = asm(VISIB1)
    image = read_sblk(encode_words(sblk_words(program)))
    assert image.words == {0o100: xwd(0o255000, 0), 0o101: xwd(0o254000, 0o100),
                           0o102: xwd(0o254000, 0o123)}  # fmt: skip
    assert image.start == 0o100
    assert image.symbols == {"A": 1, "P": 0o17, "BEG": 0o100, "CONST": 0o100}
    assert image.symbol_flags["CONST"] == SYM_HALFKILLED | SYM_LOCAL


def test_blocks_hold_at_most_thirty_words_in_assembly_order() -> None:
    program = asm("LOC 1000\nREPEAT 65.,[.RPCNT\n]\nLOC 41\n7\nEND")
    out = sblk_words(program)
    blocks = []
    i = 39
    while out[i] >> 35:
        count = (1 << 18) - (out[i] >> 18)
        blocks.append((count, out[i] & 0o777777))
        assert out[i + count + 1] == block_checksum(out[i : i + count + 1])
        i += count + 2
    assert blocks == [(30, 0o1000), (30, 0o1036), (5, 0o1074), (1, 0o41)]
    image = read_sblk(out)
    assert image.words[0o1100] == 64 and image.words[0o41] == 7


def test_nosyms_and_loader_device() -> None:
    program = asm("NOSYMS\nA=1\nGO: JRST GO\nEND GO")
    out = sblk_words(program, device=0o100)
    assert out[0] == xwd(0o710040, 0) and out[1] == xwd(0o710200, 0o60)  # MIDAS 324 style
    image = read_sblk(out)
    assert image.symbols == {} and image.start == 0o100


def test_rim_format() -> None:
    program = asm("LOC 100\n5\n6\nEND 100")
    assert rim_words(program) == [
        xwd(0o710440, 0o100), 5,  # DATAI PTR,100 / 5
        xwd(0o710440, 0o101), 6,
        xwd(0o254000, 0o100), 0,  # transfer pair: JRST 100, dummy
    ]  # fmt: skip
    image = read_rim(rim_words(program))
    assert image.words == {0o100: 5, 0o101: 6} and image.start == 0o100
    # Without a start address the transfer word halts.
    assert rim_words(asm("1\nEND"))[-2:] == [xwd(0o254200, 0), 0]


def test_rim_pseudo_op_selects_the_format() -> None:
    assert asm("RIM\n1\nEND").output_format == "rim"


def test_autodetect_and_load_into() -> None:
    program = asm("LOC 200\nGO: MOVEI 1,5\nEND GO")
    for words in (sblk_words(program), rim_words(program)):
        image = read_words(encode_words(words))
        memory: dict[int, int] = {}
        assert load_into(memory, image) == 0o200
        assert memory == {0o200: xwd(0o201040, 5)}


def test_word_file_encoding() -> None:
    # Two words per nine bytes, big-endian; an odd count is padded with a zero word.
    data = encode_words([0o777777_777777, 1, 2])
    assert len(data) == 18
    assert data[:9] == bytes.fromhex("fffffffff000000001")
    assert decode_words(data) == [0o777777_777777, 1, 2, 0]


def corrupt(words: list[int], index: int) -> bytes:
    bad = list(words)
    bad[index] ^= 1
    return encode_words(bad)


def test_corrupt_files_are_reported_not_loaded() -> None:
    out = sblk_words(asm(VISIB1))
    with pytest.raises(LoaderError, match=r"data block 1 .*checksum"):
        read_sblk(corrupt(out, 41))
    with pytest.raises(LoaderError, match=r"information block 1 .*checksum"):
        read_sblk(corrupt(out, 50))
    with pytest.raises(LoaderError, match=r"word 56 \(byte offset 252\)"):
        read_sblk(corrupt(out, 56))
    with pytest.raises(LoaderError, match="ends first"):
        read_sblk(out[:42])
    with pytest.raises(LoaderError, match="before the start instruction"):
        read_sblk(out[:39])
    with pytest.raises(LoaderError, match="JRST 1"):
        read_sblk(out[:20] + [5])
    with pytest.raises(LoaderError, match="9-byte word pairs"):
        read_words(encode_words(out)[:-1])
    with pytest.raises(LoaderError, match="empty"):
        read_words(b"")


def test_file_may_start_with_jrst_1_and_end_with_minus_one() -> None:
    # PDP-6-era dumps have no loader prologue; MIDAS 6 ended files with 777777,,777777.
    block = [xwd(0o777777, 0o100), 5]
    words = [JRST_1, *block, block_checksum(block), xwd(0o254000, 0o100), 0o777777_777777]
    image = read_sblk(words)
    assert image.words == {0o100: 5} and image.start == 0o100
