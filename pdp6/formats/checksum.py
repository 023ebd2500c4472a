"""SBLK block checksums: computing one, a block whose checksum disagrees, and the repair a
checksum implies.

A block's checksum is ``acc = rotate_left_1(acc) + word`` over the header and the data
words (reference: ``docs/sources/midas-reference.md`` section 2.2).  Binaries that survive
from the 1960s were copied from tape to tape for decades, and a few did not come through
whole: the late-1960s Mac Hack image has one block whose checksum disagrees.  Loading
such a block is the user's choice (``--ignore-checksum``); repairing it is theirs too,
and the checksum says what the damaged word must have been: with every other word of the
block held, each step of the sum is a bijection of that word, so exactly one value of it
agrees with the checksum in the file (:meth:`BadBlock.implied_word`).  Which word is the
damaged one the checksum cannot say (a change of one bit in any word can be undone by a
change of one bit in almost any other); the disassembly usually can.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..word import MASK18, MASK36, halves


def rotate_left(word: int) -> int:
    return ((word << 1) | (word >> 35)) & MASK36


def rotate_right(word: int) -> int:
    return ((word >> 1) | (word << 35)) & MASK36


def block_checksum(words: Sequence[int]) -> int:
    """SBLK checksum of a block (header included): rotate left one bit, then add."""
    acc = 0
    for w in words:
        acc = (rotate_left(acc) + w) & MASK36
    return acc


@dataclass(frozen=True)
class BadBlock:
    """A block whose checksum in the file disagrees with its words.

    ``kind`` is 'data' or 'information' and ``number`` counts blocks of that kind from 1;
    ``place`` says where the header and the checksum are in the file.
    """

    kind: str
    number: int
    header: int
    body: tuple[int, ...]
    checksum: int
    place: str

    @property
    def first(self) -> int:
        return self.header & MASK18

    @property
    def last(self) -> int:
        return (self.first + len(self.body) - 1) & MASK18

    def describe(self) -> str:
        """One line: the block, its address range (or type), where, both checksums."""
        span = (
            f"{self.first:06o}-{self.last:06o}" if self.kind == "data" else f"type {self.first:o}"
        )
        computed = block_checksum([self.header, *self.body])
        return (
            f"{self.kind} block {self.number} ({span}; {self.place}): checksum "
            f"{halves(self.checksum)} in the file, {halves(computed)} computed"
        )

    def warning(self) -> str:
        """What a user is told of a block loaded despite its checksum."""
        return f"warning: {self.describe()}: loaded anyway"

    def holds(self, addr: int) -> bool:
        """True if this is a data block that loads ``addr``."""
        return self.kind == "data" and (addr - self.first) & MASK18 < len(self.body)

    def nearest_repairs(self) -> list[tuple[int, int]]:
        """The repairs that change the fewest bits: ``(address, implied word)`` for each
        word of a data block whose implied value is the nearest to what the file holds.
        One alone is the likely damage (a copy drops or picks up a few bits of one word;
        the implied values of the block's other words are as good as random); several
        tied leave the choice to a person (``--repair-checksums``)."""
        if self.kind != "data":
            return []
        repairs = [((self.first + k) & MASK18, self.implied_word(self.first + k))
                   for k in range(len(self.body))]  # fmt: skip
        bits = [(word ^ self.body[k]).bit_count() for k, (_a, word) in enumerate(repairs)]
        return [r for r, b in zip(repairs, bits, strict=True) if b == min(bits, default=0)]

    def implied_word(self, addr: int) -> int:
        """The one value of the word at ``addr`` (in this block) that makes the checksum
        in the file agree, the other words as the file has them."""
        k = (addr - self.first) & MASK18
        words = [self.header, *self.body]
        before = block_checksum(words[: k + 1])  # the sum up to the word's step
        needed = self.checksum  # what the sum must be after each step, from the end back
        for w in reversed(words[k + 2 :]):
            needed = rotate_right((needed - w) & MASK36)
        return (needed - rotate_left(before)) & MASK36
