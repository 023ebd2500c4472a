"""Core memory (up to 256K words) and the fast memory (ACs 0-17) as users see them.

The execute loop reads and writes the backing array directly; this wrapper is the
checked door for Python users: every store is validated (a 36-bit word at an address
that exists), so bad input gives a clear ``ValueError`` instead of corrupt state.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, SupportsInt, overload

from .word import MASK36

ADDRESS_SPACE = 1 << 18  # 256K words


class Words(Protocol):
    """The backing store: the machine's numpy array of core, or any list of ints."""

    def __getitem__(self, addr: int, /) -> SupportsInt: ...
    def __setitem__(self, addr: int, value: int, /) -> None: ...


class Memory:
    """``m.memory[addr]``: read and write 36-bit words; addresses 0-17 are the ACs."""

    def __init__(self, backing: Words, size: int) -> None:
        self._words = backing
        self.size = size

    def _check_address(self, addr: object) -> int:
        if not isinstance(addr, int) or isinstance(addr, bool):
            raise TypeError(f"a memory address must be an integer, not {type(addr).__name__}")
        if not 0 <= addr < self.size:
            raise IndexError(
                f"address {addr:o} is outside core (0..{self.size - 1:o} octal; "
                f"this machine has {self.size // 1024}K words)"
            )
        return addr

    @staticmethod
    def _check_word(value: object, addr: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"word for {addr:o} must be an integer, not {type(value).__name__}")
        if not 0 <= value <= MASK36:
            raise ValueError(
                f"{value:#o} at address {addr:o} does not fit in 36 bits (0 .. 777777777777 octal)"
            )
        return value

    @overload
    def __getitem__(self, addr: int) -> int: ...
    @overload
    def __getitem__(self, addr: slice) -> list[int]: ...
    def __getitem__(self, addr: int | slice) -> int | list[int]:
        if isinstance(addr, slice):
            return [int(self._words[a]) for a in range(*addr.indices(self.size))]
        return int(self._words[self._check_address(addr)])

    def __setitem__(self, addr: int, value: int) -> None:
        a = self._check_address(addr)
        self._words[a] = self._check_word(value, a)

    def __len__(self) -> int:
        return self.size

    def load(self, start: int, words: Iterable[int]) -> None:
        """Store consecutive words from ``start`` (each checked)."""
        for i, w in enumerate(words):
            self[start + i] = w

    def clear(self) -> None:
        for a in range(ADDRESS_SPACE):
            self._words[a] = 0
