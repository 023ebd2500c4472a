"""Data pseudo-ops: text (ASCII, ASCIZ, ASCIC, .ASCII, SIXBIT, SQUOZE, .RSQZ, .LENGTH,
.ASCVL, .1STWD/.NTHWD), XWD, byte mode (.BYTE, .WALGN, .BYTC), byte-pointer functions and
``.OP`` (reference 1.8; MIDAS manual, nodes Bytes and Pseudos).
"""

from __future__ import annotations

from . import alu
from .errors import AsmError
from .expressions import DONE, MASK18, MASK36, SQUOZE, to_signed
from .source import EOF_CH, TEXT
from .symbols import P_VALUE, pseudo, special
from .textcodes import numeral, squoze, text_words


class DataMixin:
    """Pseudo-ops that make words from text and bytes (mixed into the assembler)."""

    # --- byte mode ------------------------------------------------------------------------
    @pseudo(".BYTE")
    def p_byte(self, name: str) -> None:
        sizes = []
        while self.reader.skip_blanks() not in "\n;?" + EOF_CH:
            size = to_signed(self.expr.argument_field())
            if not -36 <= size <= 36 or size == 0:
                self.error(f".BYTE: byte size {size} is not between 1 and 36.")
            else:
                sizes.append(size)
            if self.reader.skip_blanks() != ",":
                break
            self.reader.skip()
        if sizes and all(s < 0 for s in sizes):
            self.error(".BYTE needs at least one positive byte size")
            sizes = []
        self.ctx.set_bytes(sizes)

    @pseudo(".WALGN")
    def p_walgn(self, name: str) -> None:
        self.ctx.flush_bytes()

    @special(".BYTC")
    def get_bytc(self) -> int:
        return self.ctx.byte_count

    # --- text -------------------------------------------------------------------------------
    @pseudo("ASCII", "ASCIZ", "ASCIC", ".ASCII", "SIXBIT", kind=P_VALUE)
    def p_text(self, name: str) -> int | None:
        self.reader.skip_blanks()
        opened, delim = self.reader.site(), self.reader.text[self.reader.pos]
        text = self.ascii_with_values() if name == ".ASCII" else self.reader.read_delimited()
        if text is None and delim not in ("\n", EOF_CH):  # named where the text starts
            line, col = opened[0].position(opened[1])
            message = f"{name}: the text opened with {delim!r} is never closed (the input ended)"
            self.report(AsmError(opened[0].name, line, col, message))
            return 0
        if text is None:
            self.error(f"{name} needs a delimited text, e.g. {name} /HELLO/")
            return 0
        words, bad = text_words(name, text.replace("\n", "\r\n"))
        for c in bad:
            self.error(f"SIXBIT: {c!r} has no SIXBIT code")
        return self.text_value(name, words)

    def ascii_with_values(self) -> str | None:
        """.ASCII text: ``!expr`` is replaced by the value as a numeral."""
        delim = self.reader.skip_blanks()
        if delim in ("\n", EOF_CH):
            return None
        self.reader.skip()
        out: list[str] = []
        while True:
            c = self.reader.next_char()
            if c == EOF_CH:
                return None
            if c == delim:
                return "".join(out)
            if c == "!":
                out.append(numeral(self.expr.argument_field(), self.radix))
            else:
                out.append(c)

    def text_value(self, name: str, words: list[int]) -> int | None:
        """A text's value: its last word; the others are stored before it."""
        index = self.text_word_index
        self.text_word_index: int | None = None
        if index is not None:
            return words[index] if 0 <= index < len(words) else 0
        if not words:
            return None
        if len(words) > 1:
            if self.expr.w_store and self.ctx.storage_ok:
                # MIDAS assembles the statement once more for each further word: the
                # first word takes the fields before the text, the last one what
                # follows it, those between stand alone.  Their octal numerals are
                # read next, each a statement of its own.
                self.reader.push_text(TEXT, "".join(f"?{word:o}'" for word in words[1:]))
                return words[0]
            self.error(
                f"{name}: a text of {len(words)} words used as a value "
                "(use it in a statement or a literal)"
            )
        return words[-1]

    @pseudo(".1STWD", ".NTHWD", kind=P_VALUE)
    def p_nth_word(self, name: str) -> int | None:
        index = 0
        if name == ".NTHWD":
            self.reader.skip_blanks()
            index = self.expr.argument_field() - 1
            self.comma(name)
        self.reader.skip_blanks()
        self.text_word_index = index
        value = self.expr.read_syllable(False)
        self.text_word_index = None
        return value if value is not DONE else None

    @pseudo(".LENGTH", kind=P_VALUE)
    def p_length(self, name: str) -> int:
        text = self.reader.read_delimited()
        if text is None:
            self.error(".LENGTH needs a delimited text")
            return 0
        return len(text.replace("\n", "\r\n"))

    @pseudo(".ASCVL", kind=P_VALUE)
    def p_ascvl(self, name: str) -> int:
        self.reader.skip_blanks()
        self.reader.next_char()  # the delimiter (only one is written)
        return ord(self.reader.next_char()) & 0o177

    @pseudo("SQUOZE", ".RSQZ", kind=P_VALUE)
    def p_squoze(self, name: str) -> int:
        self.reader.skip_blanks()
        flags = self.expr.argument_field()
        self.comma(name)
        if self.reader.peek() not in SQUOZE:
            self.error(f"{name} needs a symbol after the comma")
            return 0
        sym = self.reader.read_run()[:6].upper()
        if name == "SQUOZE":
            code = squoze(sym)
        else:
            code = 0
            for c in sym:
                code = code * 40 + squoze(c) // 40**5
        return (((flags >> 2) & 0o17) << 32) | code

    @pseudo("XWD", kind=P_VALUE)
    def p_xwd(self, name: str) -> int:
        self.reader.skip_blanks()
        left = self.expr.argument_field()
        self.comma("XWD")
        right = self.expr.argument_field()
        return ((left & MASK18) << 18) | (right & MASK18)

    @pseudo(".OP", ".AOP", kind=P_VALUE)
    def p_op(self, name: str) -> int | None:
        self.reader.skip_blanks()
        insn = self.expr.argument_field()
        self.operand_break(name)
        ac = self.expr.argument_field()
        self.operand_break(name)
        mem = self.expr.argument_field()
        try:
            self.aval1, self.aval2, skipped = alu.execute(insn, ac, mem)
        except alu.AluError as exc:
            self.error(str(exc))
            return 0
        self.askip = MASK36 if skipped else 0
        return self.aval1 if name == ".OP" else None

    def operand_break(self, name: str) -> None:
        """Between ``.OP`` operands: a comma or blanks.  MIDAS reads each operand with
        the field reader, which a blank ends as well as a comma."""
        c = self.reader.skip_blanks()
        if c == ",":
            self.reader.skip()
            c = self.reader.skip_blanks()
        if c in "\n;?)>]" or c == EOF_CH:
            self.error(f"{name} needs three operands: instruction, AC and memory word")

    @special(".AVAL1")
    def get_aval1(self) -> int:
        return self.aval1

    @special(".AVAL2")
    def get_aval2(self) -> int:
        return self.aval2

    @special(".ASKIP")
    def get_askip(self) -> int:
        return self.askip

    @pseudo(".BP", ".BM", ".LDB", ".DPB", ".IBP", ".LZ", ".TZ", kind=P_VALUE)
    def p_bytes(self, name: str) -> int:
        """Byte-pointer functions (MIDAS manual, node Bytes)."""
        self.reader.skip_blanks()
        args = [self.expr.argument_field()]
        wanted = {".LDB": 2, ".DPB": 3}.get(name, 1)
        while len(args) < wanted and self.comma(name):
            args.append(self.expr.argument_field())
        args += [0] * (wanted - len(args))
        if name != ".BP" and self.reader.peek() == ",":
            self.reader.skip()  # the comma only ends the argument
        value = args[0]
        if name == ".LZ":
            return 36 - value.bit_length()
        if name == ".TZ":
            return (value & -value).bit_length() - 1 if value else 36
        if name == ".BP":
            if not value:
                return 0
            position = (value & -value).bit_length() - 1
            size = ((value >> position) ^ ((value >> position) + 1)).bit_length() - 1
            return (position << 30) | (size << 24)
        pointer = args[-2] if name == ".LDB" else args[1] if name == ".DPB" else value
        if not pointer >> 18:
            pointer = ((pointer & MASK18) << 18) | (pointer >> 18)
        position, size = pointer >> 30, (pointer >> 24) & 0o77
        mask = ((1 << size) - 1) << position & MASK36
        if name == ".BM":
            return mask
        if name == ".LDB":
            return (args[1] & mask) >> position
        if name == ".DPB":
            return (args[2] & ~mask | (args[0] << position) & mask) & MASK36
        position -= size  # .IBP
        address = pointer & MASK18
        if position < 0:
            position = 36 - size
            address = (address + 1) & MASK18
        return (position << 30) | (pointer & 0o007777_000000) | address
