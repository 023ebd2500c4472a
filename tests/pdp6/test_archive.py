"""The ITS archives' 7-bit encoding (pdp6.formats.wordfile), told apart from ``bin`` by the loader,
and SBLK checksums: refused with the block named, loaded with --ignore-checksum, and the
word a checksum implies (pdp6.formats.checksum)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdp6.formats.checksum import BadBlock, block_checksum
from pdp6.formats.loader import JRST, JRST_1, LoaderError, block_header, load_file, read_words
from pdp6.formats.wordfile import archive_words, decode_archive, encode_archive, encode_words
from pdp6.word import halves

PROPERTY = settings(deadline=None, derandomize=True, database=None, max_examples=300)
CR, LF, RUBOUT = 0o15, 0o12, 0o177
# Characters whose bytes are escaped, and their neighbours at the edges of the escapes.
SPECIAL = [0, 0o7, LF, CR, 0o154, 0o155, 0o156, 0o176, RUBOUT]


def word_of(chars: list[int], low: int = 0) -> int:
    """The word holding five characters (and a low bit)."""
    word = 0
    for c in chars:
        word = (word << 7) | c
    return (word << 1) | low


def chars_of(words: list[int]) -> list[int]:
    return [(w >> shift) & 0o177 for w in words for shift in (29, 22, 15, 8, 1)]


special_words = st.lists(st.sampled_from(SPECIAL), min_size=5, max_size=5).map(word_of)
words36 = st.one_of(st.integers(0, (1 << 36) - 1), special_words)


@PROPERTY
@given(st.lists(words36, max_size=40))
def test_any_words_round_trip(words: list[int]) -> None:
    data = encode_archive(words)
    assert decode_archive(data) == words
    assert all(byte < 0o360 for byte in data if not any(w & 1 for w in words))


def sblk(blocks: list[tuple[int, list[int]]], start: int) -> list[int]:
    """An SBLK image with no loader prologue (as PDP-6-era dumps are): JRST 1, the
    blocks with their checksums, the start instruction twice."""
    words = [JRST_1]
    for addr, data in blocks:
        header = block_header(len(data), addr)
        words += [header, *data, block_checksum([header, *data])]
    return [*words, JRST | start, JRST | start]


blocks = st.lists(
    st.tuples(st.integers(0o20, 0o777000), st.lists(words36, min_size=1, max_size=30)),
    min_size=1,
    max_size=6,
)


@PROPERTY
@given(blocks, st.integers(0o20, 0o777777))
def test_sblk_images_round_trip_through_the_archive_encoding(
    blocks: list[tuple[int, list[int]]], start: int
) -> None:
    words = sblk(blocks, start)
    image = read_words(encode_archive(words))
    expected = {}
    for addr, data in blocks:
        expected.update({addr + k: w for k, w in enumerate(data)})
    assert (image.words, image.start, image.format, image.encoding) == (
        expected, start, "sblk", "its"
    )  # fmt: skip
    assert read_words(encode_words(words)).words == expected  # and in bin, the same


# --- each escape, both ways ------------------------------------------------------------------
ESCAPES = [
    (bytes([LF]), [CR, LF]),
    (bytes([CR]), [LF]),
    (bytes([RUBOUT]), [RUBOUT, 0o7]),
    (bytes([0o200]), [RUBOUT, 0]),
    (bytes([0o201]), [RUBOUT, 1]),
    (bytes([0o355]), [RUBOUT, 0o155]),
    (bytes([0o207]), [RUBOUT, RUBOUT]),
    (bytes([0o212]), [RUBOUT, CR]),
    (bytes([0o215]), [RUBOUT, LF]),
    (bytes([0o356]), [CR]),
    (bytes([0o357]), [RUBOUT]),
    (bytes([0o357, 0o156]), [RUBOUT, 0o156]),  # 177 before a character past 155
    (bytes([0o356, 0o357]), [CR, RUBOUT]),
    (b"AB", [ord("A"), ord("B")]),
]


@pytest.mark.parametrize(("data", "chars"), ESCAPES, ids=[d.hex() for d, _ in ESCAPES])
def test_each_escape(data: bytes, chars: list[int]) -> None:
    # One word of characters, padded with x: 177 before x (170) has no escape of its own.
    word = word_of(chars + [ord("x")] * (5 - len(chars)))
    assert decode_archive(data + b"x" * (5 - len(chars))) == [word]
    assert encode_archive([word]) == data + b"x" * (5 - len(chars))


def test_a_pair_may_straddle_two_words() -> None:
    words = [word_of([1, 2, 3, 4, RUBOUT]), word_of([LF, 5, 6, 7, 0o10])]
    data = encode_archive(words)
    assert data == bytes([1, 2, 3, 4, 0o215, 5, 6, 7, 0o10])
    assert [offset for offset, _ in archive_words(data)] == [0, 4]  # the second begins in 215
    assert decode_archive(data) == words


def test_a_word_with_its_low_bit_set_is_a_binary_word() -> None:
    word = 0o254000_000001  # JRST 1
    data = encode_archive([word])
    assert data == bytes([0o365, 0o140, 0, 0, 1])
    assert decode_archive(data) == [word]


def test_the_last_word_may_lack_its_trailing_zero_characters() -> None:
    # The archives' writer leaves them off; the reader puts them back.
    assert decode_archive(b"AB") == [word_of([ord("A"), ord("B"), 0, 0, 0])]


def test_a_binary_word_cut_short_or_out_of_place_is_refused() -> None:
    data = encode_archive(sblk([(0o100, [word_of([1, 2, 3, 4, 5])])], 0o101))  # JRST 101: binary
    with pytest.raises(LoaderError, match=r"ends inside the binary word at byte offset \d+"):
        read_words(data[:-2])
    with pytest.raises(LoaderError, match="starts a binary word inside a word of characters"):
        read_words(encode_archive([JRST_1]) + b"AB" + encode_archive([JRST_1]))


def test_a_file_cut_short_names_the_block_it_ends_in(tmp_path: Path) -> None:
    words = sblk([(0o100, [word_of([ord(c) for c in "HELLO"])] * 8)], 0o100)
    path = tmp_path / "CUT.BIN"
    path.write_bytes(encode_archive(words)[:20])  # in the middle of the data block
    with pytest.raises(LoaderError) as caught:
        load_file(path)
    assert str(caught.value) == (
        f"{path}: data block 1 (header 777770,,000100 at word 1 (byte offset 5)) needs 8 "
        "words and a checksum, but the file ends first"
    )


# --- telling the encodings apart ------------------------------------------------------------
def test_a_midas_binary_in_either_encoding(tmp_path: Path) -> None:
    words = sblk([(0o100, [0o201040_000005, 0o254200_000101])], 0o100)
    for encoding, data in (("bin", encode_words(words)), ("its", encode_archive(words))):
        path = tmp_path / f"prog.{encoding}"
        path.write_bytes(data)
        image = load_file(path)
        assert (image.encoding, image.words, image.start) == (
            encoding, {0o100: 0o201040_000005, 0o101: 0o254200_000101}, 0o100
        )  # fmt: skip


def test_rim_in_the_archive_encoding() -> None:
    datai = 0o710440_000200  # DATAI PTR,200: an even word, so five characters
    image = read_words(encode_archive([datai, 0o123, JRST | 0o200, 0]))
    assert (image.format, image.encoding, image.words, image.start) == (
        "rim", "its", {0o200: 0o123}, 0o200
    )  # fmt: skip


def test_neither_encoding_is_read_as_bin_to_say_what_is_wrong() -> None:
    with pytest.raises(LoaderError, match="3 bytes is not a whole number of 9-byte word pairs"):
        read_words(b"\x80yz")


# --- checksums ------------------------------------------------------------------------------
DATA = [0o201040_000005, 0o271040_000003, 0o202040_000200, 0o254200_000104]


def damaged(index: int, bit: int) -> list[int]:
    """An SBLK image of DATA at 100, then a block at 200, with one bit of one word of the
    first block flipped after its checksum was made."""
    words = sblk([(0o100, DATA), (0o200, [7])], 0o100)
    words[2 + index] ^= 1 << bit
    return words


def test_a_bad_checksum_is_refused_naming_block_range_and_checksums() -> None:
    words = damaged(2, 20)
    with pytest.raises(LoaderError) as caught:
        read_words(encode_archive(words))
    good, bad = (block_checksum([block_header(4, 0o100), *data]) for data in (DATA, words[2:6]))
    assert bad != good
    assert re.fullmatch(
        rf"data block 1 \(000100-000103; header at word 1 \(byte offset 5\), checksum at word 6 "
        rf"\(byte offset \d+\)\): checksum {halves(good)} in the file, {halves(bad)} computed "
        r"\(--ignore-checksum loads it anyway\)",
        str(caught.value),
    )


def test_ignore_checksum_loads_the_block_with_a_warning() -> None:
    image = read_words(encode_archive(damaged(2, 20)), ignore_checksum=True)
    assert image.words[0o102] == DATA[2] ^ 1 << 20 and image.words[0o200] == 7
    [bad] = image.bad_blocks
    assert bad.warning().startswith("warning: data block 1 (000100-000103; header at word 1")
    assert bad.warning().endswith("computed: loaded anyway")
    assert bad.holds(0o103) and not bad.holds(0o104) and not bad.holds(0o77)


def test_a_bad_information_block_names_its_type() -> None:
    words = sblk([(0o100, [5])], 0o100)
    info = [block_header(2, 0), 1, 2, 0]  # a symbol table block with a wrong checksum
    words[-1:-1] = info
    image = read_words(words, ignore_checksum=True)
    assert image.bad_blocks[0].describe().startswith("information block 1 (type 0; header at")


@PROPERTY
@given(
    st.lists(words36, min_size=1, max_size=30),
    st.data(),
)
def test_the_checksum_implies_the_damaged_word(data: list[int], draw: st.DataObject) -> None:
    index = draw.draw(st.integers(0, len(data) - 1))
    wrong = draw.draw(words36.filter(lambda w: w != data[index]))
    header = block_header(len(data), 0o1000)
    body = list(data)
    body[index] = wrong
    bad = BadBlock("data", 1, header, tuple(body), block_checksum([header, *data]), "")
    assert bad.implied_word(0o1000 + index) == data[index]


# --- damaged files: a LoaderError, never anything else ------------------------------------
@PROPERTY
@given(blocks, st.data())
def test_damaged_archive_files_are_refused_in_one_line(
    blocks: list[tuple[int, list[int]]], draw: st.DataObject
) -> None:
    data = bytearray(encode_archive(sblk(blocks, 0o100)))
    for _ in range(draw.draw(st.integers(1, 4))):
        at = draw.draw(st.integers(0, len(data) - 1))
        change = draw.draw(st.sampled_from(["flip", "cut", "drop", "insert"]))
        if change == "flip":
            data[at] ^= 1 << draw.draw(st.integers(0, 7))
        elif change == "cut":
            del data[at:]
        elif change == "drop":
            del data[at]
        else:
            data.insert(at, draw.draw(st.integers(0, 255)))
        if not data:
            break
    try:
        image = read_words(bytes(data), ignore_checksum=draw.draw(st.booleans()))
    except LoaderError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert all(0 <= a <= 0o777777 and 0 <= w < 1 << 36 for a, w in image.words.items())
