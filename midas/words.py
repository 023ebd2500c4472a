"""Where the fields of a word go (reference 1.4): the one set of placement rules that both
the general word reader (:class:`midas.expressions.Evaluator`) and the fast path's planned
instructions (:mod:`midas.fastlines`) use.

``OP AC,@ADDR(X)``: the AC field (the device field after an I/O instruction) is added at
bit 9 (bit 3), cut to its width as MIDAS cuts it; the address is added into the right half
without a carry into the left; an index ``(X)`` is its value with the halves swapped,
added as a whole; ``@`` sets the indirect bit.
"""

from __future__ import annotations

MASK36 = (1 << 36) - 1
MASK18 = (1 << 18) - 1
LH = MASK36 ^ MASK18
INDIRECT = 1 << 22


def swap(w: int) -> int:
    return ((w & MASK18) << 18) | (w >> 18)


def add_rh(a: int, b: int) -> int:
    """``a ++ TR(b)``: add into the right half with no carry into the left half."""
    return (a & LH) | ((a + b) & MASK18)


def ac_bits(b: int, io: bool) -> int:
    """The AC field's bits for the value ``b`` (the device field's after an I/O
    instruction), cut to the field."""
    return (b & 0o774) << 24 if io else (b & 0o17) << 23


def ac_problem(b: int, io: bool, old: bool) -> tuple[str, bool] | None:
    """What pass 2 says of ``b`` in the AC (device) field: (message, whether only a
    warning), or None.  A value too wide is cut as MIDAS cuts it, and only the new
    dialect warns; a device code not a multiple of 4 is an error in both."""
    if io:
        if b & 3:
            return f"device code {b:o} is not a multiple of 4", False
        if b & ~0o774 & MASK36 and not old:
            return (
                f"device code {b:o} does not fit in the device field (taken as {b & 0o774:o})",
                True,
            )
        return None
    if b & ~0o17 & MASK36 and not old:
        return f"AC field {b:o} does not fit in 4 bits (taken as {b & 0o17:o})", True
    return None


def halves(left: int, right: int) -> int:
    """``L,,R``: the two halfwords."""
    return ((left & MASK18) << 18) + (right & MASK18)


def add_field(word: int, bits: int) -> int:
    """A field placed by adding it to the whole word (the AC field's bits, an index)."""
    return (word + bits) & MASK36


def instruction(op: int, ac: int, addr: int | None, index: int | None, indirect: bool) -> int:
    """``OP AC,@ADDR(INDEX)`` from its fields' values (``ac``: :func:`ac_bits` of the AC
    field, 0 without one): the same rules :meth:`Evaluator.combine` and
    :meth:`Evaluator.read_word` apply one field at a time."""
    word = (op + ac) & MASK36
    if addr is not None:
        word = (word & LH) | ((word + addr) & MASK18)  # add_rh
    if index is not None:
        word = (word + (((index & MASK18) << 18) | (index >> 18))) & MASK36  # swap
    return word | INDIRECT if indirect else word
