"""Syllables, fields and words (reference 1.2-1.4).

A *syllable* is a number, symbol, quoted character, bracketed word or value-returning
pseudo-op.  A *field* is syllables joined by operators, with no spaces inside.  A *word*
is fields separated by spaces and commas, whose pattern decides where each field goes.

The syllable reader is also where macros, conditionals, REPEAT and most pseudo-ops are
recognised, because MIDAS recognises them wherever a symbol is evaluated; labels and
assignments are recognised when the symbol is the first thing of a statement.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import Enum
from typing import Any, Final, Literal, Protocol, TypeVar, TypeVarTuple

from . import floats
from .contexts import Context, ProgramContext
from .reader import SQUOZE_RUN, Reader
from .source import EOF_CH, blanks_end
from .symbols import (
    F_GLOBAL,
    F_IO,
    F_VARIABLE,
    MACRO,
    P_INLINE,
    P_STMT,
    P_VALUE,
    SPECIAL,
    VALUE,
    Sym,
)
from .textcodes import SQUOZE_CHARS_SET, sixbit_code, upper_code
from .words import INDIRECT, MASK36, ac_bits, ac_problem, add_field, add_rh, halves, swap
from .words import MASK18 as MASK18  # (the statement processor's modules take it from here)

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


class Signal(Enum):
    """Returned instead of a value: ``DONE`` when a statement was consumed (assignment,
    LOC ...); ``RESTART`` (read_syllable) when a label came first, so that the field is
    read from its start again."""

    DONE = "DONE"
    RESTART = "RESTART"

    def __repr__(self) -> str:
        return self.value


DONE: Final = Signal.DONE
RESTART: Final = Signal.RESTART
_INT = re.compile(r"([0-9]+)(\.?)")
_FLOAT = re.compile(r"[0-9]*\.[0-9]+")
_DIGITS = re.compile(r"[0-9]+")

SQUOZE = SQUOZE_CHARS_SET
_FIELD_INVISIBLE = frozenset("@]}" + EOF_CH)
# Characters that may begin a field (anything else ends the word).
FIELD_START = SQUOZE | frozenset("\"'^<([@+-#")
# Binary operators and their precedence (higher binds tighter).
PREC = {"+": 1, "-": 1, "*": 2, "/": 2, "\\": 3, "#": 4, "&": 5, "_": 6}
# A unary operator applies to the syllable after it, before any binary operator (MIDAS
# gives it a precedence above them all).
UNARY_PREC = 7


def to_signed(w: int) -> int:
    return w - (1 << 36) if w & (1 << 35) else w


def lsh(value: int, count: int) -> int:
    """``value_count``: MIDAS does the field operator with the LSH instruction, so the
    count is read as LSH reads its address (sign from bit 18, magnitude from the low
    eight bits) and the shift is logical: zeros come in at either end."""
    n = count & 0o377
    if count & 0o400000:
        n -= 256
    if n >= 0:
        return (value << n) & MASK36 if n < 36 else 0
    return value >> -n


def apply_operator(op: str, a: int, b: int) -> int | None:
    """``a op b`` for a field's binary operator; None for a division by zero."""
    if op == "+":
        return (a + b) & MASK36
    if op == "-":
        return (a - b) & MASK36
    if op == "&":
        return a & b
    if op == "\\":
        return a | b
    if op == "#":
        return a ^ b
    if op == "*":
        return (to_signed(a) * to_signed(b)) & MASK36
    if op == "/":
        if b == 0:
            return None
        q = abs(to_signed(a)) // abs(to_signed(b))
        if (to_signed(a) < 0) != (to_signed(b) < 0):
            q = -q
        return q & MASK36
    return lsh(a, b)


def add_quoted_char(value: int, q: str, c: str) -> int | None:
    """A quoted text's value with the character ``c`` added: ``"`` ASCII, ``'`` SIXBIT
    (None if ``c`` has no SIXBIT code)."""
    if q == '"':
        return ((value << 7) | (ord(c) & 0o177)) & MASK36
    code = sixbit_code(c)
    return None if code is None else ((value << 6) | code) & MASK36


def quoted_value(q: str, chars: str) -> int | None:
    """The value of ``q`` and the characters after it, read as :meth:`Evaluator.quoted`
    reads them (none of them a quote); None if one has no SIXBIT code."""
    value = 0
    for c in chars:
        word = add_quoted_char(value, q, c)
        if word is None:
            return None
        value = word
    return value


def _shown(digits: str) -> str:
    """A number as a message shows it: a very long one cut short."""
    return digits if len(digits) <= 24 else f"{digits[:12]}...{digits[-8:]}"


class Statements(Protocol):
    """What the evaluator reads from the statement processor (midas.assembler.Assembler)
    and hands it: the statements found where a value is read.  Its pseudo-ops and
    special symbols are its methods, named in the symbol table."""

    @property
    def reader(self) -> Reader: ...
    @property
    def symbols(self) -> dict[str, Sym]: ...
    @property
    def ctx(self) -> Context: ...
    @property
    def top(self) -> ProgramContext: ...
    @property
    def pass_no(self) -> int: ...
    @property
    def old(self) -> bool: ...
    @property
    def radix(self) -> int: ...

    def location_value(self) -> int: ...
    def read_group(self, closer: str) -> int: ...
    def read_literal(self) -> int: ...
    def define_label(self, name: str, start: int, halfkill: bool, suffix: int) -> None: ...
    def assignment(self, name: str, start: int, suffix: int) -> None: ...
    def mark_symbol(self, name: str, sym: Sym | None, flag: int, start: int) -> Sym | None: ...
    def call_macro(self, macro: Any, name: str, start: int) -> None: ...


class Evaluator:
    """The syllable, field and word readers: reads from the reader, looks symbols up in
    the symbol table, and hands what is a statement rather than a value (a label, an
    assignment, a macro call, a pseudo-op, a literal or grouping) to the statement
    processor, ``asm``.  Owns the state of the word being read, whether what it read
    used undefined symbols, and the pseudo-op being done."""

    def __init__(self, asm: Statements) -> None:
        self.asm = asm
        self.reader = asm.reader
        self.symbols = asm.symbols
        self.seen_undefined: set[str] = set()  # every symbol used undefined (.TYPE)
        self.reset()

    def reset(self) -> None:
        """A pass begins."""
        # The word being read: indirect bit, index, I/O instruction, field number,
        # whether it is a statement's word to store.
        self.w_ind = False
        self.w_idx = 0
        self.w_io = False
        self.w_field = 0
        self.w_store = False
        self.word_at = ("", 0)  # the word's text and start, for messages about it
        self.at_start = False  # the syllable begins a statement (may be a label ...)
        self.undef = False  # what was read used a symbol with no value yet
        self.pseudo_start = 0  # where the name of the pseudo-op being done began
        # A pseudo-op heading a statement ended it: what it pushed is the next one.
        self.split_statement = False

    # --- undefined symbols ----------------------------------------------------------------
    def undefined(self, name: str, start: int) -> int:
        """An undefined symbol counts as 0; on pass 2 it is an error."""
        self.undef = True
        self.seen_undefined.add(name)
        if self.asm.pass_no == 2:
            self.reader.error(f"undefined symbol {name}", start)
        return 0

    def undefined_in(self, read: Callable[[*Ts], T], *args: *Ts) -> tuple[T, bool]:
        """What ``read(*args)`` reads, and whether it used undefined symbols; the flag
        is left as it was."""
        saved = self.undef
        self.undef = False
        value = read(*args)
        used = self.undef
        self.undef = saved
        return value, used

    def note_undefined(self) -> None:
        """What is being read depends on something not known yet."""
        self.undef = True

    def new_statement(self) -> None:
        """A statement begins: nothing undefined read in it yet."""
        self.undef = False

    def take_split(self) -> bool:
        """Whether the statement just read was ended by a pseudo-op heading it (and
        forget it)."""
        split = self.split_statement
        self.split_statement = False
        return split

    # --- arguments ----------------------------------------------------------------------
    def argument_field(self) -> int:
        """A field read as an argument (its own word state; empty counts as 0)."""
        saved = self.w_ind, self.w_idx, self.w_io, self.w_field, self.w_store, self.at_start
        self.w_ind = False
        self.w_idx = 0
        self.w_io = False
        self.w_field = 1
        self.w_store = False
        self.at_start = False
        try:
            value = self.read_expr(0, False)
            if value is None or value is DONE:
                value = 0
            value = (value + self.w_idx) & MASK36
            return value | INDIRECT if self.w_ind else value
        finally:
            self.w_ind, self.w_idx, self.w_io, self.w_field, self.w_store, self.at_start = saved

    def argument_word(self) -> int | None:
        self.reader.skip_blanks()
        value = self.read_word()
        return None if value is DONE else value

    # --- words --------------------------------------------------------------------------
    def read_word(
        self, store: bool = False, at_start: bool = False
    ) -> int | Literal[Signal.DONE] | None:
        """Read one word; its value, None if it is empty, or DONE.  ``store``: the word
        of a statement, to be stored (not an assignment's or a pseudo-op's argument);
        ``at_start``: it begins the statement (a label or assignment may come first)."""
        reader = self.reader
        self.at_start = at_start
        saved = self.w_ind, self.w_idx, self.w_io, self.w_field, self.w_store
        self.w_ind = False
        self.w_idx = 0
        self.w_io = False
        self.w_field = 0
        self.w_store = store
        text, start = reader.text, reader.pos
        value = self.read_expr(0, False)
        if value is not DONE:
            c = reader.text[reader.pos]
            if c != "\n" and c != ";":  # (the usual one-field word needs no more)
                value = self.more_fields(value, text, start)
            if value is None:
                if self.w_idx or self.w_ind:
                    value = self.w_idx | (INDIRECT if self.w_ind else 0)
            else:
                if self.w_idx:
                    value = add_field(value, self.w_idx)
                if self.w_ind:
                    value |= INDIRECT
        self.w_ind, self.w_idx, self.w_io, self.w_field, self.w_store = saved
        return value

    def more_fields(self, first: int | None, text: str, start: int) -> int | None:
        """The fields after the first, separated by blanks and commas; the word's value.

        ``text`` and ``start`` locate the word, for messages about its pattern.
        """
        reader = self.reader
        fields = [first]
        seps: list[str] = []
        while True:
            c = reader.text[reader.pos]
            if c in _FIELD_INVISIBLE:
                c = self.peek_field()
            sep = ""
            if c == " " or c == "\t":
                reader.skip_blanks()
                c = self.peek_field()
                if c != "," and c in FIELD_START:
                    sep = " "
            if c == ",":
                reader.skip()
                if reader.peek() == ",":
                    reader.skip()
                    sep = ",,"
                else:
                    sep = ","
                reader.skip_blanks()
            if not sep:
                break
            self.w_field += 1
            value = self.read_expr(0, False)
            if value is DONE:
                value = None
            fields.append(value)
            seps.append(sep)
        if not seps:
            return first
        self.word_at = (text, start)
        return self.combine(fields, seps)

    def word_error(self, message: str) -> None:
        """An error about the pattern of the word just read, quoting the word."""
        text, start = self.word_at
        if text is self.reader.text:
            word = text[start : self.reader.pos].strip()
            self.reader.error(f"{message}: '{word}'", start)
        else:
            self.reader.error(message)

    def combine(self, fields: list, seps: list[str]) -> int:
        """The value of a word from its fields and the separators between them (1.4)."""
        a = fields[0]
        b = fields[1] or 0
        s1 = seps[0]
        n = len(fields)
        if s1 == ",,":
            return self.extra_fields(halves(a or 0, b), fields, seps, 2)
        if a is None or s1 == ",":
            if n > 2:
                self.word_error("this pattern of commas and spaces has no meaning in a word")
            return add_rh(a or 0, b)
        if n == 2:
            return add_rh(a, b)
        s2 = seps[1]
        if s2 == " ":
            return self.extra_fields(add_rh(a, b), fields, seps, 2)
        if s2 == ",,":
            self.word_error("',,' after two fields has no meaning in a word")
        value = add_field(a, self.ac_field(b, self.w_io))
        return self.extra_fields(add_rh(value, fields[2] or 0), fields, seps, 3)

    def extra_fields(self, value: int, fields: list, seps: list[str], first: int) -> int:
        """Fields after the last one with its own place go into the right half."""
        for i in range(first, len(fields)):
            if seps[i - 1] != " ":
                self.word_error("comma past the 3rd field of a word (taken as a space)")
            value = add_rh(value, fields[i] or 0)
        return value

    def ac_field(self, b: int, io: bool) -> int:
        """The AC field of ``A B,`` — or the device field after an I/O instruction
        (:func:`midas.words.ac_bits`); pass 2 says what is wrong with it."""
        if io or b & ~0o17:
            if self.asm.pass_no == 2:
                problem = ac_problem(b, io, self.asm.old)
                if problem is not None:
                    self.reader.error(problem[0], warning=problem[1])
            return ac_bits(b, io)
        return b << 23  # ac_bits of an AC that fits, inline

    # --- fields -------------------------------------------------------------------------
    def peek_field(self) -> str:
        """The next character, skipping what is invisible inside a word.

        ``@`` sets the indirect bit wherever it is; the ``]`` closing a successful
        conditional and braces are not part of the text they bracket.
        """
        reader = self.reader
        while True:
            c = reader.text[reader.pos]
            if c not in _FIELD_INVISIBLE:
                return c
            if c == "@":
                self.w_ind = True
                reader.skip()
            elif c == "]":
                if not reader.take_conditional_end():
                    return c
            elif c == "}":
                reader.skip()
            elif not reader.pop_frame():
                return c

    def read_expr(self, min_prec: int, after_op: bool) -> int | Literal[Signal.DONE] | None:
        """A field: operators at or above ``min_prec`` (precedence climbing)."""
        reader = self.reader
        c = reader.text[reader.pos]
        if c in _FIELD_INVISIBLE:
            c = self.peek_field()
        if not after_op:
            while c == "(":  # an index (X) at the start of a field is set aside
                reader.skip()
                self.at_start = False
                self.w_idx += swap(self.asm.read_group(")"))
                c = self.peek_field()
        if c == "-" or c == "+" or c == "#":
            # A unary operator: the binary one with an implicit left operand.
            reader.skip()
            self.at_start = False
            right = self.read_expr(UNARY_PREC, True)
            if right is None or right is DONE:
                reader.error(f"missing operand after '{c}'")
                right = 0
            left = self.operate(c, MASK36 if c == "#" else 0, right)
        else:
            syllable = self.read_syllable(after_op)
            if syllable is RESTART:  # "FOO: -1": after the label, a unary operator may start
                return self.read_expr(min_prec, after_op)
            if syllable is None or syllable is DONE:
                return syllable
            left = syllable
        while True:
            c = reader.text[reader.pos]
            if c in _FIELD_INVISIBLE:
                c = self.peek_field()
            prec = PREC.get(c)
            if prec is None:
                if c != "(":
                    return left
                reader.skip()  # FOO(X): the index is set aside, the field goes on
                self.w_idx += swap(self.asm.read_group(")"))
                continue
            if prec < min_prec:
                return left
            reader.skip()
            right = self.read_expr(prec + 1, True)
            if right is None or right is DONE:
                reader.error(f"missing operand after '{c}'")
                right = 0
            left = self.operate(c, left, right)

    def operate(self, op: str, a: int, b: int) -> int:
        value = apply_operator(op, a, b)
        if value is None:
            if not self.undef:
                self.reader.error("division by zero")
            return 0
        return value

    # --- syllables ----------------------------------------------------------------------
    def read_syllable(self, after_op: bool) -> int | Signal | None:
        """One syllable's value; None if there is none; DONE if a statement was consumed;
        RESTART if a label was read and a unary operator follows it."""
        reader = self.reader
        labelled = False
        while True:
            text = reader.text
            start = reader.pos
            c = text[start]
            if c in SQUOZE:
                m = SQUOZE_RUN.match(text, start)
                assert m is not None
                end = m.end()
                if text[end] != EOF_CH:
                    run = m.group()
                    reader.seek(end)
                else:
                    run = reader.read_run()
                first = run[0]
                if first <= "9" and (first >= "0" or first == "."):
                    m = _INT.fullmatch(run)
                    if m:
                        self.at_start = False
                        return self.integer(m.group(1), m.group(2), start)
                    if run == ".":
                        c = reader.text[reader.pos]
                        if self.at_start and (c == "=" or (c in " \t" and self.assignment_ahead())):
                            self.asm.assignment(".", start, 0)
                            return DONE
                        self.at_start = False
                        return self.asm.location_value()
                    if _FLOAT.fullmatch(run):
                        self.at_start = False
                        return self.float_number(run, start)
                result = self.symbol_syllable(run, start)
                if result is not None:
                    return result
                labelled = self.at_start
                continue  # a label, macro call or inline pseudo-op: read on
            if c == "'" or c == '"' or c == "^":
                reader.skip()
                self.at_start = False
                return self.quoted(c)
            if c == "<":
                reader.skip()
                self.at_start = False
                return self.asm.read_group(">")
            if c == "(":
                reader.skip()
                self.at_start = False
                value = swap(self.asm.read_group(")"))
                if after_op:
                    return value
                self.w_idx += value
                continue
            if c == "[":
                reader.skip()
                self.at_start = False
                return self.asm.read_literal()
            if c == "@":
                reader.skip()
                self.w_ind = True
                continue
            if c == "]":
                if not reader.take_conditional_end():
                    return None
                continue
            if c == "}":
                reader.skip()
                continue
            if (c == " " or c == "\t") and self.at_start:
                reader.skip_blanks()  # after a label or a conditional's test
                continue
            if c == EOF_CH and reader.pop_frame():
                continue
            if labelled and (c == "-" or c == "+" or c == "#"):
                return RESTART
            return None

    def integer(self, digits: str, decimal: str, start: int) -> int:
        """A digit string: current radix, decimal with ``.``, octal with ``'``; then ``^``."""
        reader = self.reader
        if decimal:
            radix = 10
        elif reader.text[reader.pos] == "'":
            reader.skip()
            radix = 8
        else:
            radix = self.asm.radix
        value = self.digits_value(digits, radix, start)
        if reader.text[reader.pos] == "^":
            reader.skip()
            exponent = self.exponent()
            if exponent < 0:
                reader.error(f"{_shown(digits)}{decimal}^{exponent}: an integer's exponent "
                                  "cannot be negative (1.0^-3 is a float)", start)  # fmt: skip
                return 0
            # radix^37 > 2^36: a larger exponent overflows any non-zero value
            value *= radix ** min(exponent, 37)
        if value > MASK36:
            written = _shown(reader.text[start : reader.pos])  # (the exponent as written too)
            reader.error(f"number {written} does not fit in 36 bits", start)
        return value & MASK36

    def digits_value(self, digits: str, radix: int, start: int) -> int:
        """The digits' value.  A digit too big for the radix counts as MIDAS counts it,
        ``value*radix + digit`` (octal 8 is 10, 69 is 71): every 1960s source relies on
        it, so only the new dialect warns.  Beyond 2^40 (too big for any use) the value
        is 2^40, so that a very long string is never converted digit by digit."""
        significant = digits.lstrip("0")
        if len(significant) > 40:
            return 1 << 40
        try:
            return int(significant or "0", radix)
        except ValueError:
            value = 0
            for d in significant:
                value = value * radix + int(d)
            if not self.asm.old:
                bad = next(d for d in digits if int(d) >= radix)
                self.reader.error(
                    f"digit {bad} in the radix-{radix} number {_shown(digits)} (read as "
                    f"MIDAS reads it: {value:o} octal)",
                    start,
                    warning=True,
                )
            return value

    def exponent(self) -> int:
        """The integer after ``^`` in a number (current radix unless ``.`` or ``'``)."""
        negative = self.reader.text[self.reader.pos] == "-"
        if negative:
            self.reader.skip()
        m = _DIGITS.match(self.reader.text, self.reader.pos)
        if not m:
            self.reader.error("'^' after a number needs an integer exponent")
            return 0
        self.reader.seek(m.end())
        radix = self.asm.radix
        if self.reader.text[self.reader.pos] == ".":
            self.reader.skip()
            radix = 10
        elif self.reader.text[self.reader.pos] == "'":
            self.reader.skip()
            radix = 8
        value = self.digits_value(m.group(), radix, m.start())
        return -value if negative else value

    def float_number(self, run: str, start: int) -> int:
        """A decimal floating-point number; ``^`` scales by 10, ``_`` makes it fixed."""
        power = 0
        if self.reader.text[self.reader.pos] == "^":
            self.reader.skip()
            power = self.exponent()
        shift = None
        if self.reader.text[self.reader.pos] == "_":
            self.reader.skip()
            shift = self.exponent()
        try:
            value = floats.decimal_value(run, power)
            if shift is None:
                return floats.encode(value)
            return floats.fixed(value, shift) & MASK36
        except floats.FloatRangeError:
            written = _shown(self.reader.text[start : self.reader.pos])
            if shift is None:
                self.reader.error(f"floating-point number {written} is out of range", start)
            else:
                self.reader.error(f"{written} does not fit in 36 bits", start)
            return 0

    def quoted(self, q: str) -> int:
        """``'X`` (SIXBIT), ``"X`` (ASCII) or ``^X`` (control); the quote is consumed."""
        c = self.reader.peek()
        if c == "\n" and q != "'":
            # MIDAS takes the next character, whatever it is.  A line ends with CR LF:
            # the CR is the character (15) and the LF still ends the statement.
            return 0o15
        if c in ("\n", EOF_CH):
            self.reader.error(f"missing character after {q}")
            return 0
        self.reader.skip()
        if q == "^":
            return upper_code(c) & 0o77
        value = 0
        while True:
            value = self.add_quoted_char(value, q, c)
            while self.reader.peek() in SQUOZE:
                value = self.add_quoted_char(value, q, self.reader.text[self.reader.pos])
                self.reader.skip()
            if self.reader.peek() != q:
                return value
            self.reader.skip()
            c = self.reader.next_char()
            if c in ("\n", EOF_CH):
                self.reader.error(f"missing character after {q}")
                return value

    def add_quoted_char(self, value: int, q: str, c: str) -> int:
        word = add_quoted_char(value, q, c)
        if word is None:
            self.reader.error(f"{c!r} has no SIXBIT code")
            return (value << 6) & MASK36  # (taken as 0)
        return word

    def symbol_syllable(self, run: str, start: int) -> int | Literal[Signal.DONE] | None:
        """A symbol: its value, or the effect of a label/assignment/macro/pseudo-op.

        Returns None when reading should go on with the next syllable.
        """
        reader = self.reader
        name = run[:6].upper()
        c = reader.text[reader.pos]
        suffix = 0
        if c == "'":
            reader.skip()
            suffix = F_VARIABLE
            c = reader.text[reader.pos]
        elif c == '"':
            reader.skip()
            suffix = F_GLOBAL
            c = reader.text[reader.pos]
        if self.at_start:
            if c == ":":
                reader.skip()
                halfkill = reader.text[reader.pos] == ":"
                if halfkill:
                    reader.skip()
                self.asm.define_label(name, start, halfkill, suffix)
                return None
            if c == "=" or (c in " \t" and self.assignment_ahead()):
                self.asm.assignment(name, start, suffix)
                return DONE
        sym = self.symbols.get(name)
        if suffix:
            sym = self.asm.mark_symbol(name, sym, suffix, start)
        if sym is None:
            self.at_start = False
            return self.undefined(name, start)
        kind = sym.kind
        if kind == VALUE:
            self.at_start = False
            if sym.flags & F_IO and self.w_field == 0:
                self.w_io = True
            if not sym.defpass:  # only marked (FOO"), never given a value
                return self.undefined(name, start)
            return sym.value
        if kind == MACRO:
            self.asm.call_macro(sym.macro, name, start)
            return None
        if kind == SPECIAL:
            self.at_start = False
            return getattr(self.asm, sym.handler[0])()
        return self.pseudo_op(name, sym, start)

    def assignment_ahead(self) -> bool:
        """After a symbol at the start of a statement: do blanks lead to ``=``?"""
        text = self.reader.text
        c = text[self.reader.pos + 1]
        if c == "=":
            return True
        if c != " " and c != "\t":
            return False
        return text[blanks_end(text, self.reader.pos)] == "="

    def pseudo_op(self, name: str, sym: Sym, start: int) -> int | Literal[Signal.DONE] | None:
        method, category = sym.handler
        handler = getattr(self.asm, method)
        self.pseudo_start = start
        head = self.at_start
        self.at_start = False
        if category == P_VALUE:
            return handler(name)
        if category != P_INLINE and not (head and self.asm.ctx is self.asm.top):
            where = "inside a literal or grouping" if self.asm.ctx is not self.asm.top else "here"
            self.reader.error(f"{name} must begin a statement; it cannot be used {where}", start)
            self.reader.rest_of_line()
            return None
        if category == P_STMT:
            handler(name)
            return DONE
        handler(name)
        if head and self.asm.ctx is self.asm.top:
            # What follows (a loop's or an IRP's first pass, a conditional's text ...)
            # is read as the next statement: the same text, and the fast path can see it.
            self.split_statement = True
            return DONE
        self.at_start = head
        return None

    def inline_pseudo(self, sym: Sym, name: str, start: int) -> None:
        """The inline pseudo-op ``name`` beginning a statement at ``start``, done as
        :meth:`pseudo_op` does it there (the fast path's plain lines)."""
        self.pseudo_start = start
        self.at_start = False
        getattr(self.asm, sym.handler[0])(name)
