"""Character codes of the PDP-6 world: packed ASCII, SIXBIT, SQUOZE, numerals in a radix."""

from __future__ import annotations

from pdp6.formats.loader import SQUOZE_CODE, squoze

__all__ = [
    "SQUOZE_CHARS_SET",
    "ascii_words",
    "numeral",
    "sixbit_code",
    "sixbit_words",
    "squoze",
    "text_words",
    "upper_code",
]

#: Characters allowed in symbols (upper and lower case).
SQUOZE_CHARS_SET = frozenset(c for c in SQUOZE_CODE if c != " ") | frozenset(
    "abcdefghijklmnopqrstuvwxyz"
)
_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def ascii_words(text: str, terminator: int | None = None) -> list[int]:
    """Pack ``text`` five 7-bit characters a word, left justified, bit 35 zero.

    With ``terminator`` (0 for ASCIZ, 3 for ASCIC) one terminating character is added
    and the last word is filled with it; a text that fills its words exactly therefore
    gets a further word.
    """
    codes = [ord(c) & 0o177 for c in text]
    fill = 0
    if terminator is not None:
        codes.append(terminator)
        fill = terminator
    if not codes:
        return []
    codes.extend([fill] * (-len(codes) % 5))
    words = []
    for i in range(0, len(codes), 5):
        w = 0
        for c in codes[i : i + 5]:
            w = (w << 7) | c
        words.append(w << 1)
    return words


def upper_code(c: str) -> int:
    """The code of a character with ASCII lower case folded to upper case."""
    code = ord(c)
    return code - 0o40 if 0o141 <= code <= 0o172 else code


def sixbit_code(c: str) -> int | None:
    """SIXBIT of one character (lower case folded), or None if it has none."""
    code = upper_code(c) - 0o40
    return code if 0 <= code <= 0o77 else None


def sixbit_words(codes: list[int]) -> list[int]:
    """Pack SIXBIT codes six to a word, left justified, space (0) filled."""
    if not codes:
        return []
    padded = codes + [0] * (-len(codes) % 6)
    words = []
    for i in range(0, len(padded), 6):
        w = 0
        for c in padded[i : i + 6]:
            w = (w << 6) | c
        words.append(w)
    return words


def text_words(name: str, text: str) -> tuple[list[int], list[str]]:
    """The words of the text pseudo-op ``name`` (ASCII, ASCIZ, ASCIC, .ASCII, SIXBIT)
    for ``text``, and the characters that SIXBIT has no code for (each taken as 0)."""
    if name != "SIXBIT":
        terminator = {"ASCII": None, "ASCIZ": 0, ".ASCII": 0, "ASCIC": 3}[name]
        return ascii_words(text, terminator), []
    codes = []
    bad = []
    for c in text:
        code = sixbit_code(c)
        if code is None:
            bad.append(c)
            code = 0
        codes.append(code)
    return sixbit_words(codes), bad


def numeral(value: int, radix: int) -> str:
    """``value`` (a 36-bit word, unsigned) written in ``radix`` as MIDAS reads it back."""
    if radix == 8:
        return f"{value:o}"
    if radix == 10:
        return str(value)
    if value == 0:
        return "0"
    out = []
    while value:
        value, d = divmod(value, radix)
        out.append(_DIGITS[d])
    return "".join(reversed(out))
