"""The Type 342 character generator of the 340 display: 64 codes in each of two cases.

What the reference gives (pdp6-reference.md 2.5, "342 character generator"): the codes
of the normal (shift-in) set -- 00 a special glyph, 01-32 A-Z, 33 line feed, 34 carriage
return (X <- 0), 35 shift in, 36 shift out, 37 escape to parameter mode, 40 space, 41-57
``! " # $ % & ' ( ) * + , - . /``, 60-71 the digits, 72-77 ``: ; < = > ?`` -- and that
the shift-out set has lower case a-z at 01-32 plus arrows, brackets and other signs.
Each character is a stroke program on a dot grid about 5 wide and 7 high; a character
advances X by 6 steps and a line feed moves down 11 steps (each step is 2^scale raster
units), at about 1.5 us a step.

What is *not* in our sources: the dot patterns of the real character ROM.  The glyphs
below are therefore this project's own design: 5x7 dot-matrix shapes drawn for this
file in the style of the period (lower case gets two descender rows below the
baseline).  The code assignments of the shift-out non-letters (arrows at 46-51,
backslash 52, brackets 53-56, underscore 60, bar 62, grave 66, circumflex 67, tilde 43,
and the beam-motion codes backspace 72, subscript 73, superscript 77) follow aap's
reconstruction of the 342 code table [AAP newemu/chargen.inc]; the shapes do not.
Codes with no known character draw a small hollow box (our choice).  The shift-in and
shift-out sets share 00 and the control codes 33-37 and 40.

A stroke program is a tuple of operations, executed in order by the 340 (see
``display340.py``).  An ordinary operation moves the beam one step and may then
intensify it; it is coded like an increment-mode nibble (2.5, mode 6): bits ``014``
say X (``010`` right, ``014`` left), bits ``003`` say Y (``002`` up, ``003`` down), and
``020`` intensifies after the move.  The special operations stand alone: ``CR`` (X <- 0),
``SHIFT_IN``, ``SHIFT_OUT`` and ``ESCAPE`` (back to parameter mode, ending the word).

The programs are computed once at import from the dot patterns: starting at the
lower-left dot (0, 0), the beam walks king-move steps to the nearest dot not yet
drawn, intensifying each dot the first time it reaches it, and finally walks dark to
(6, 0), the start of the next character.
"""

from __future__ import annotations

# Operation bits (the increment-mode nibble, reference 2.5 mode 6, plus intensify).
RIGHT = 0o10
LEFT = 0o14
UP = 0o02
DOWN = 0o03
INTENSIFY = 0o20
# Special operations (never combined with a move).
ESCAPE = 0o40
CR = 0o100
SHIFT_IN = 0o200
SHIFT_OUT = 0o400
SPECIAL = ESCAPE | CR | SHIFT_IN | SHIFT_OUT

ADVANCE = 6  # steps X moves per character (reference 2.5)
LINE_FEED = 11  # steps Y moves down for a line feed (reference 2.5)
SUBSCRIPT = 4  # steps of the shift-out half-line moves (our choice of size)

# Codes that do the same thing in both cases.
CODE_LF, CODE_CR, CODE_SI, CODE_SO, CODE_ESC, CODE_SPACE = 0o33, 0o34, 0o35, 0o36, 0o37, 0o40

# --- the dot patterns ----------------------------------------------------------------
# Each glyph is drawn top row first: seven rows from y=6 down to the baseline y=0,
# then (lower case only) up to two descender rows y=-1, y=-2.  '#' is a dot.

_UPPER = """
@ ..#.. .#.#. #...# #.#.# #...# .#.#. ..#..
A .###. #...# #...# ##### #...# #...# #...#
B ####. #...# #...# ####. #...# #...# ####.
C .###. #...# #.... #.... #.... #...# .###.
D ####. #...# #...# #...# #...# #...# ####.
E ##### #.... #.... ####. #.... #.... #####
F ##### #.... #.... ####. #.... #.... #....
G .###. #...# #.... #.### #...# #...# .####
H #...# #...# #...# ##### #...# #...# #...#
I .###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.
J ..### ...#. ...#. ...#. ...#. #..#. .##..
K #...# #..#. #.#.. ##... #.#.. #..#. #...#
L #.... #.... #.... #.... #.... #.... #####
M #...# ##.## #.#.# #.#.# #...# #...# #...#
N #...# #...# ##..# #.#.# #..## #...# #...#
O .###. #...# #...# #...# #...# #...# .###.
P ####. #...# #...# ####. #.... #.... #....
Q .###. #...# #...# #...# #.#.# #..#. .##.#
R ####. #...# #...# ####. #.#.. #..#. #...#
S .#### #.... #.... .###. ....# ....# ####.
T ##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..
U #...# #...# #...# #...# #...# #...# .###.
V #...# #...# #...# #...# #...# .#.#. ..#..
W #...# #...# #...# #.#.# #.#.# #.#.# .#.#.
X #...# #...# .#.#. ..#.. .#.#. #...# #...#
Y #...# #...# .#.#. ..#.. ..#.. ..#.. ..#..
Z ##### ....# ...#. ..#.. .#... #.... #####
! ..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#..
" .#.#. .#.#. .#.#. ..... ..... ..... .....
# .#.#. .#.#. ##### .#.#. ##### .#.#. .#.#.
$ ..#.. .#### #.#.. .###. ..#.# ####. ..#..
% ##... ##..# ...#. ..#.. .#... #..## ...##
& .##.. #..#. #.#.. .#... #.#.# #..#. .##.#
' ..#.. ..#.. .#... ..... ..... ..... .....
( ...#. ..#.. .#... .#... .#... ..#.. ...#.
) .#... ..#.. ...#. ...#. ...#. ..#.. .#...
* ..... ..#.. #.#.# .###. #.#.# ..#.. .....
+ ..... ..#.. ..#.. ##### ..#.. ..#.. .....
, ..... ..... ..... ..... .##.. ..#.. .#...
- ..... ..... ..... ##### ..... ..... .....
. ..... ..... ..... ..... ..... .##.. .##..
/ ..... ....# ...#. ..#.. .#... #.... .....
0 .###. #...# #..## #.#.# ##..# #...# .###.
1 ..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.
2 .###. #...# ....# ...#. ..#.. .#... #####
3 ##### ...#. ..#.. ...#. ....# #...# .###.
4 ...#. ..##. .#.#. #..#. ##### ...#. ...#.
5 ##### #.... ####. ....# ....# #...# .###.
6 ..##. .#... #.... ####. #...# #...# .###.
7 ##### ....# ...#. ..#.. .#... .#... .#...
8 .###. #...# #...# .###. #...# #...# .###.
9 .###. #...# #...# .#### ....# ...#. .##..
: ..... .##.. .##.. ..... .##.. .##.. .....
; ..... .##.. .##.. ..... .##.. ..#.. .#...
< ...#. ..#.. .#... #.... .#... ..#.. ...#.
= ..... ..... ##### ..... ##### ..... .....
> .#... ..#.. ...#. ....# ...#. ..#.. .#...
? .###. #...# ....# ...#. ..#.. ..... ..#..
"""

_LOWER = """
a ..... ..... .###. ....# .#### #...# .####
b #.... #.... #.##. ##..# #...# #...# ####.
c ..... ..... .###. #.... #.... #...# .###.
d ....# ....# .##.# #..## #...# #...# .####
e ..... ..... .###. #...# ##### #.... .###.
f ..##. .#..# .#... ###.. .#... .#... .#...
g ..... ..... .#### #...# #...# .#### ....# #...# .###.
h #.... #.... #.##. ##..# #...# #...# #...#
i ..#.. ..... .##.. ..#.. ..#.. ..#.. .###.
j ...#. ..... ..##. ...#. ...#. ...#. ...#. #..#. .##..
k #.... #.... #..#. #.#.. ##... #.#.. #..#.
l .##.. ..#.. ..#.. ..#.. ..#.. ..#.. .###.
m ..... ..... ##.#. #.#.# #.#.# #.#.# #.#.#
n ..... ..... #.##. ##..# #...# #...# #...#
o ..... ..... .###. #...# #...# #...# .###.
p ..... ..... ####. #...# #...# #...# ####. #.... #....
q ..... ..... .#### #...# #...# #...# .#### ....# ....#
r ..... ..... #.##. ##..# #.... #.... #....
s ..... ..... .#### #.... .###. ....# ####.
t .#... .#... ###.. .#... .#... .#..# ..##.
u ..... ..... #...# #...# #...# #..## .##.#
v ..... ..... #...# #...# #...# .#.#. ..#..
w ..... ..... #...# #...# #.#.# #.#.# .#.#.
x ..... ..... #...# .#.#. ..#.. .#.#. #...#
y ..... ..... #...# #...# #...# .#### ....# #...# .###.
z ..... ..... ##### ...#. ..#.. .#... #####
~ ..... ..... .#... #.#.# ...#. ..... .....
^ ..#.. .###. #.#.# ..#.. ..#.. ..#.. ..#..
> ..... ..#.. ...#. ##### ...#. ..#.. .....
v ..#.. ..#.. ..#.. ..#.. #.#.# .###. ..#..
< ..... ..#.. .#... ##### .#... ..#.. .....
\\ ..... #.... .#... ..#.. ...#. ....# .....
[ .###. .#... .#... .#... .#... .#... .###.
] .###. ...#. ...#. ...#. ...#. ...#. .###.
{ ...## ..#.. ..#.. .#... ..#.. ..#.. ...##
} ##... ..#.. ..#.. ...#. ..#.. ..#.. ##...
_ ..... ..... ..... ..... ..... ..... #####
| ..#.. ..#.. ..#.. ..#.. ..#.. ..#.. ..#..
` .#... ..#.. ...#. ..... ..... ..... .....
c ..#.. .#.#. #...# ..... ..... ..... .....
? ##### #...# #...# #...# #...# #...# #####
"""


def _parse(table: str) -> list[tuple[str, tuple[str, ...]]]:
    rows = []
    for line in table.strip("\n").splitlines():
        name, *art = line.split()
        rows.append((name, tuple(art)))
    return rows


def _dots(art: tuple[str, ...]) -> frozenset[tuple[int, int]]:
    """The lit dots of a pattern as (x, y), y = 0 at the baseline, 6 at the top row."""
    return frozenset(
        (x, 6 - row) for row, line in enumerate(art) for x, c in enumerate(line) if c == "#"
    )


_U = _parse(_UPPER)
_L = _parse(_LOWER)
_UPPER_CHARS = "@ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_PUNCT_CODES = {c: 0o41 + i for i, c in enumerate("!\"#$%&'()*+,-./")}
_PUNCT_CODES.update({c: 0o60 + i for i, c in enumerate("0123456789")})
_PUNCT_CODES.update({c: 0o72 + i for i, c in enumerate(":;<=>?")})

# Shift-out non-letters: code -> (row of _LOWER, name shown by ``character_name``).
_SO_SIGNS = {
    0o43: ("~", "~"),
    0o46: ("^", "\u2191"),  # up arrow
    0o47: (">", "\u2192"),  # right arrow
    0o50: ("v", "\u2193"),  # down arrow
    0o51: ("<", "\u2190"),  # left arrow
    0o52: ("\\", "\\"),
    0o53: ("[", "["),
    0o54: ("]", "]"),
    0o55: ("{", "{"),
    0o56: ("}", "}"),
    0o60: ("_", "_"),
    0o62: ("|", "|"),
    0o66: ("`", "`"),
    0o67: ("c", "^"),  # circumflex (row named 'c' after the lower-case rows)
}

#: The pattern of every drawable code: ``PATTERNS[case][code]`` (case 0 = shift in).
PATTERNS: tuple[dict[int, frozenset[tuple[int, int]]], dict[int, frozenset[tuple[int, int]]]]
#: A printable name for every code: ``NAMES[case][code]``.
NAMES: tuple[list[str], list[str]]


def _build_patterns() -> None:
    global PATTERNS, NAMES
    upper: dict[int, frozenset[tuple[int, int]]] = {}
    lower: dict[int, frozenset[tuple[int, int]]] = {}
    names_in = ["?"] * 64
    names_out = ["?"] * 64
    by_name_u = {n: a for n, a in _U}
    for code, ch in enumerate(_UPPER_CHARS):
        upper[code] = _dots(by_name_u[ch])
        names_in[code] = ch
    names_in[0] = "special"
    for ch, code in _PUNCT_CODES.items():
        upper[code] = _dots(by_name_u[ch])
        names_in[code] = ch
    letters = [(n, a) for n, a in _L[:26]]
    signs = {n: a for n, a in _L[26:]}
    lower[0] = upper[0]
    names_out[0] = "special"
    for i, (n, art) in enumerate(letters):
        lower[1 + i] = _dots(art)
        names_out[1 + i] = n
    for code, (row, shown) in _SO_SIGNS.items():
        lower[code] = _dots(signs[row])
        names_out[code] = shown
    box = _dots(signs["?"])
    controls = {CODE_LF: "LF", CODE_CR: "CR", CODE_SI: "SI", CODE_SO: "SO",
                CODE_ESC: "ESC", CODE_SPACE: "space"}  # fmt: skip
    motions = {0o72: "backspace", 0o73: "subscript", 0o77: "superscript"}
    for code in range(64):
        if code in controls:
            names_in[code] = names_out[code] = controls[code]
        elif code in motions:
            names_out[code] = motions[code]
        elif code not in lower:
            lower[code] = box
            names_out[code] = "unassigned"
    PATTERNS = (upper, lower)
    NAMES = (names_in, names_out)


_build_patterns()


def _step_toward(x: int, y: int, tx: int, ty: int) -> tuple[int, int, int]:
    """One king-move step from (x, y) toward (tx, ty): the new position and its op."""
    op = 0
    if tx > x:
        x, op = x + 1, op | RIGHT
    elif tx < x:
        x, op = x - 1, op | LEFT
    if ty > y:
        y, op = y + 1, op | UP
    elif ty < y:
        y, op = y - 1, op | DOWN
    return x, y, op


def stroke_program(dots: frozenset[tuple[int, int]]) -> tuple[int, ...]:
    """The stroke program that draws ``dots`` from (0, 0) and ends at (6, 0).

    Greedy nearest-dot walk (Chebyshev distance; ties go to the dot that keeps the
    current direction, then the lowest, then the leftmost), so strokes come out as
    runs along the lines of the glyph.  Every dot is intensified exactly once.
    """
    todo = set(dots)
    ops: list[int] = []
    x = y = 0
    last = (0, 1)
    if (0, 0) in todo:
        todo.discard((0, 0))
        ops.append(INTENSIFY)  # a count that does not move, then intensify
    while todo:
        _, _, ty, tx = min(
            (max(abs(dx - x), abs(dy - y)), 0 if (dx - x, dy - y) == last else 1, dy, dx)
            for dx, dy in todo
        )
        while (x, y) != (tx, ty):
            nx, ny, op = _step_toward(x, y, tx, ty)
            last = (nx - x, ny - y)
            x, y = nx, ny
            if (x, y) in todo:
                todo.discard((x, y))
                op |= INTENSIFY
            ops.append(op)
    while (x, y) != (ADVANCE, 0):
        x, y, op = _step_toward(x, y, ADVANCE, 0)
        ops.append(op)
    return tuple(ops)


def _motion(op: int, n: int) -> tuple[int, ...]:
    return (op,) * n


def _build_programs() -> tuple[tuple[int, ...], ...]:
    progs: list[tuple[int, ...]] = []
    for case in (0, 1):
        for code in range(64):
            if code == CODE_LF:
                prog = _motion(DOWN, LINE_FEED)
            elif code == CODE_CR:
                prog = (CR,)
            elif code == CODE_SI:
                prog = (SHIFT_IN,)
            elif code == CODE_SO:
                prog = (SHIFT_OUT,)
            elif code == CODE_ESC:
                prog = (ESCAPE,)
            elif code == CODE_SPACE:
                prog = _motion(RIGHT, ADVANCE)
            elif case == 1 and code == 0o72:
                prog = _motion(LEFT, ADVANCE)
            elif case == 1 and code == 0o73:
                prog = _motion(DOWN, SUBSCRIPT)
            elif case == 1 and code == 0o77:
                prog = _motion(UP, SUBSCRIPT)
            else:
                prog = stroke_program(PATTERNS[case][code])
            progs.append(prog)
    return tuple(progs)


#: ``PROGRAMS[code + 64 * case]``: the stroke program of each code in each case.
PROGRAMS: tuple[tuple[int, ...], ...] = _build_programs()


def _decode(op: int) -> tuple[int, int, bool]:
    dx = 1 if op & 0o14 == RIGHT else -1 if op & 0o14 == LEFT else 0
    dy = 1 if op & 0o03 == UP else -1 if op & 0o03 == DOWN else 0
    return dx, dy, bool(op & INTENSIFY)


#: ``STEPS[code + 64 * case]``: the same programs decoded for the 340's inner loop:
#: ``(dx, dy, intensify)`` per step in units of one step, or ``(op, None, False)`` for
#: a special operation.
STEPS: tuple[tuple[tuple[int, int | None, bool], ...], ...] = tuple(
    tuple((op, None, False) if op & SPECIAL else _decode(op) for op in prog) for prog in PROGRAMS
)


def character_name(code: int, shifted: bool = False) -> str:
    """What a code shows in a case: a character, or a name like ``'LF'``."""
    return NAMES[1 if shifted else 0][code & 0o77]


def code_for(char: str) -> tuple[int, bool]:
    """The 342 code and case (True = shift out) of a printable character.

    For writing display lists by hand or in tests; raises ``KeyError`` for a
    character the 342 cannot show.
    """
    if char == " ":
        return CODE_SPACE, False
    for case in (0, 1):
        for code, name in enumerate(NAMES[case]):
            if name == char and len(name) == 1:
                return code, bool(case)
    raise KeyError(char)


def glyph_art(code: int, shifted: bool = False) -> str:
    """The dot pattern of a code as text (``#`` = dot), top row first, for docs."""
    dots = PATTERNS[1 if shifted else 0].get(code & 0o77, frozenset())
    low = min((y for _, y in dots), default=0)
    rows = []
    for y in range(6, min(low, 0) - 1, -1):
        rows.append("".join("#" if (x, y) in dots else "." for x in range(5)))
    return "\n".join(rows)
