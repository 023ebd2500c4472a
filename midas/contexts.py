"""Where the words of statements go: the program itself, a literal, or a grouping.

Each context also carries its own ``.BYTE`` state: byte mode set inside a literal or a
``<...>`` grouping ends with it, as the MIDAS manual describes.
"""

from __future__ import annotations

from collections.abc import Callable

MASK36 = (1 << 36) - 1


class Context:
    """Base: packs words into bytes when ``.BYTE`` mode is on, else passes them through."""

    closer = ""  # the character that ends the context
    name = "program"
    storage_ok = True  # may text pseudo-ops store leading words here?
    # Whether an undefined symbol in any statement makes the whole context's value
    # unknown (a literal: all its words are one constant), or only in the last one.
    whole_value = False

    def __init__(self) -> None:
        self.sizes: list[int] = []  # .BYTE sizes (empty: word mode)
        self.size_index = 0
        self.bits_used = 0  # bits of the partial word already filled
        self.partial = 0
        self.byte_count = 0  # .BYTC

    def put(self, word: int) -> None:
        raise NotImplementedError

    def assigned(self, value: int) -> None:
        """An assignment was made here (only a grouping takes its value)."""

    def add(self, word: int) -> None:
        """One word of a statement: stored, or packed as the next byte."""
        if not self.sizes:
            self.put(word)
            return
        while True:
            size = self.sizes[self.size_index]
            self.size_index = (self.size_index + 1) % len(self.sizes)
            if size >= 0:
                break
            self.skip_bits(-size)
        if self.bits_used + size > 36:
            self.flush_bytes()
        shift = 36 - self.bits_used - size
        self.partial |= (word & ((1 << size) - 1)) << shift
        self.bits_used += size
        self.byte_count += 1
        if self.bits_used == 36:
            self.flush_bytes()

    def skip_bits(self, n: int) -> None:
        """A negative .BYTE size: a run of zero bits."""
        while n > 0:
            room = 36 - self.bits_used
            take = min(room, n)
            self.bits_used += take
            n -= take
            if self.bits_used == 36:
                self.flush_bytes()

    def flush_bytes(self) -> None:
        """Store the partial word, if any bits of it are used (.WALGN)."""
        if self.bits_used:
            word = self.partial
            self.partial = 0
            self.bits_used = 0
            self.put(word)

    def set_bytes(self, sizes: list[int]) -> None:
        self.flush_bytes()
        self.sizes = sizes
        self.size_index = 0
        self.byte_count = 0

    def byte_pointer_lh(self) -> int:
        """Left half of ``.`` in byte mode: ILDB of it fetches the next byte."""
        size = next((s for s in self.sizes[self.size_index :] + self.sizes if s > 0), 0)
        position = 36 - self.bits_used
        return (position << 12) | (size << 6)


class ProgramContext(Context):
    """Top level: words are stored at the location counter."""

    def __init__(self, emit: Callable[[int], None]) -> None:
        super().__init__()
        self.put = emit  # type: ignore[method-assign,assignment]


class LiteralContext(Context):
    """Inside ``[...]``: the words become one constant."""

    closer = "]"
    name = "literal"
    whole_value = True

    def __init__(self) -> None:
        super().__init__()
        self.words: list[int] = []

    def put(self, word: int) -> None:
        self.words.append(word)


class GroupContext(Context):
    """Inside ``<...>`` or ``(...)``: the value of the last word is the value."""

    storage_ok = False

    def __init__(self, closer: str) -> None:
        super().__init__()
        self.closer = closer
        self.name = "<>" if closer == ">" else "()"
        self.value = 0

    def put(self, word: int) -> None:
        self.value = word

    def assigned(self, value: int) -> None:
        self.value = value
