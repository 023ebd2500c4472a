"""Reading words the way DDT does: ``MOVE 1,@FOO+3(2)``, ``DATAO TTY,BUF``, ``1,,-2``.

The console and the debugger deposit instructions and take addresses as symbolic text,
and the machine package may not import the assembler, so this is a small reader for the
MIDAS syntax of one word (the inverse of :mod:`pdp6.disasm`):

* numbers are octal; a trailing point makes them decimal (``10.``); ``"X`` is the
  ASCII code of X; ``.`` is the current location; ``A^B`` is A times 8^B (B octal), as
  the disassembler writes UUOs;
* symbols are the program's, then the instruction mnemonics and aliases, the I/O
  functions and the device names (case does not matter);
* ``LEFT,,RIGHT`` builds a word from halves;
* ``OP AC,@ADDRESS(INDEX)`` builds an instruction (an I/O instruction takes a device
  where the AC goes); a lone expression is a full 36-bit value.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..isa import ALIASES, BY_NAME, DEVICES, IO_WORDS
from ..word import MASK18, MASK36

_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+\.?)|(?P<sym>[A-Za-z%$.][A-Za-z0-9%$.]*)|(?P<chr>\"[ -~])"
    r"|(?P<op>,,|[-+,@()^]))"
)
_BUILTIN: dict[str, int] = {
    **{name: op.word for name, op in BY_NAME.items()},
    **ALIASES,
    **IO_WORDS,
    **DEVICES,
}


class TypeinError(ValueError):
    """Text that is not a word or an address; the message says what is wrong."""


class _Reader:
    """A recursive-descent reader over one line of tokens."""

    def __init__(self, text: str, symbols: Mapping[str, int], dot: int) -> None:
        self.text = text
        self.symbols = symbols
        self.dot = dot
        self.tokens: list[tuple[str, str, bool]] = []  # (kind, text, space before)
        pos = 0
        stripped = text.rstrip()
        while pos < len(stripped):
            m = _TOKEN.match(stripped, pos)
            if not m or m.end() == pos:
                raise TypeinError(f"cannot read {stripped[pos:].strip()!r} in {text.strip()!r}")
            kind = m.lastgroup or ""
            self.tokens.append((kind, m.group(kind), m.start(kind) > pos or pos == 0))
            pos = m.end()
        self.i = 0

    # --- tokens -------------------------------------------------------------------
    def peek(self) -> str | None:
        return self.tokens[self.i][1] if self.i < len(self.tokens) else None

    def spaced(self) -> bool:
        """The next token was preceded by white space (a field separator)."""
        return self.i < len(self.tokens) and self.tokens[self.i][2]

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (expected is not None and tok != expected):
            want = f"{expected!r}" if expected else "more"
            raise TypeinError(f"expected {want} in {self.text.strip()!r}")
        self.i += 1
        return tok

    def at_end(self) -> bool:
        return self.i >= len(self.tokens)

    # --- expressions -----------------------------------------------------------------
    def expression(self) -> int:
        value = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            value = value + self.term() if op == "+" else value - self.term()
        return value

    def term(self) -> int:
        sign = 1
        while self.peek() in ("-", "+"):  # a loop, not recursion: "------1" is fine
            if self.take() == "-":
                sign = -sign
        value = self.atom()
        if self.peek() == "^":
            self.take()
            exponent = self.atom()
            if value and exponent > 12:  # 8^12 = 2^36: spare the host a huge shift
                raise TypeinError(f"{self.text.strip()!r} does not fit in 36 bits")
            value <<= 3 * exponent
        return sign * value

    def atom(self) -> int:
        if self.at_end():
            raise TypeinError(f"{self.text.strip()!r} ends where a value should follow")
        kind, tok, _ = self.tokens[self.i]
        self.i += 1
        if kind == "num":
            digits = tok.rstrip(".").lstrip("0") or "0"
            if len(digits) > 40:  # more than 36 bits in any case (and too long for int())
                raise TypeinError(f"{tok[:12]}... does not fit in 36 bits")
            if tok.endswith("."):
                return int(digits)
            if re.search(r"[89]", tok):
                raise TypeinError(f"{tok} is not octal (write {tok}. for decimal)")
            return int(digits, 8)
        if kind == "sym":
            return self.symbol(tok)
        if kind == "chr":
            return ord(tok[1])
        raise TypeinError(f"unexpected {tok!r} in {self.text.strip()!r}")

    def symbol(self, name: str) -> int:
        if name == ".":
            return self.dot
        upper = name.upper()
        for table in (self.symbols, _BUILTIN):
            if upper in table:
                return table[upper]
            if name in table:
                return table[name]
        raise TypeinError(f"unknown symbol {name}")

    # --- words ---------------------------------------------------------------------
    def word(self) -> int:
        if ",," in (t for _, t, _ in self.tokens):
            left = self.expression() if self.peek() != ",," else 0  # ,,5 is 0,,5
            self.take(",,")
            right = self.expression() if not self.at_end() else 0
            if not self.at_end():  # 1,,2,,3 or 1,,2 3: nothing may follow the right half
                raise TypeinError(f"unexpected {self.peek()!r} after L,,R in {self.text.strip()!r}")
            return ((left & MASK18) << 18) | (right & MASK18)
        has_ac = "," in (t for _, t, _ in self.tokens)
        fields = 0
        if self.peek() not in ("@", "(") and not (has_ac and self._next_is_ac()):
            first = self.expression()
            if self.at_end():
                return first
            if not self.spaced() and self.peek() != ",":
                raise TypeinError(f"unexpected {self.peek()!r} in {self.text.strip()!r}")
            if self.peek() == ",":  # the first expression was the AC
                return self._rest(0, first)
            fields = first
        ac = None
        if has_ac:
            ac = self.expression() if self.peek() != "," else 0
        return self._rest(fields, ac)

    def _next_is_ac(self) -> bool:
        """Only an AC stands before the comma (``1,FOO``): no separate opcode field."""
        for _kind, tok, spaced in self.tokens[self.i + 1 :]:
            if tok == ",":
                return True
            if spaced:
                return False
        return False

    def _rest(self, op: int, ac: int | None) -> int:
        """``[AC,] [@] [Y] [(X)]`` after the opcode field ``op``."""
        word = op
        if ac is not None:
            self.take(",")
            word += self._ac_field(op, ac)
        if self.peek() == "@":
            self.take()
            word += 1 << 22
        if not self.at_end() and self.peek() != "(":
            word += self.expression() & MASK18
        if self.peek() == "(":
            self.take()
            index = self.expression()
            self.take(")")
            if not 0 <= index <= 0o17:
                raise TypeinError(f"index register {index:o} is not 0-17")
            word += index << 18
        if not self.at_end():
            raise TypeinError(f"unexpected {self.peek()!r} in {self.text.strip()!r}")
        return word

    @staticmethod
    def _ac_field(op: int, ac: int) -> int:
        if (op >> 33) == 7:  # an I/O instruction: a device code goes there
            if ac & 3 or not 0 <= ac <= 0o774:
                raise TypeinError(f"device code {ac:o} is not a multiple of 4 in 0-774")
            return ac << 24
        if not 0 <= ac <= 0o17:
            raise TypeinError(f"accumulator {ac:o} is not 0-17")
        return ac << 23


def parse_word(text: str, symbols: Mapping[str, int] | None = None, dot: int = 0) -> int:
    """The 36-bit word that ``text`` denotes (see the module docstring for the syntax)."""
    if not text.strip():
        raise TypeinError("a value is missing")
    value = _Reader(text, symbols or {}, dot).word()
    if not -(1 << 35) <= value <= MASK36:
        raise TypeinError(f"{text.strip()!r} does not fit in 36 bits")
    return value & MASK36


def parse_address(text: str, symbols: Mapping[str, int] | None = None, dot: int = 0) -> int:
    """An 18-bit address from an expression such as ``LOOP+3`` or ``100``."""
    if not text.strip():
        raise TypeinError("an address is missing")
    reader = _Reader(text, symbols or {}, dot)
    value = reader.expression()
    if not reader.at_end():
        raise TypeinError(f"unexpected {reader.peek()!r} in address {text.strip()!r}")
    if not 0 <= value <= MASK18:
        raise TypeinError(f"address {text.strip()} is outside 0-777777")
    return value
