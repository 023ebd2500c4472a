"""The pushdown character source: files, macro expansions and loop passes.

MIDAS is a string processor: macro calls, REPEAT and IRP feed text back into the reader,
and a syllable may even be glued together across the end of an expansion.  The reader is
therefore a stack of frames, each a string ending in the sentinel ``EOF_CH``.  The top
frame's text and position are cached in ``self.text`` / ``self.pos`` for speed; meeting
the sentinel pops the frame (or starts the next pass of a loop) and reading goes on.

An assembly that loops for ever is stopped by a count of work, not of time, so that it
stops at the same place on any machine: every statement assembled is a step, and so is
every expansion, loop pass and ``.GO`` jump, with one more step for each ``TEXT_STEP``
characters of text it gives to read.  The count starts again at each statement of a source
file that is further on in the file than any before it (not one read again after a
``.GO`` back, nor one of a file that a macro or loop inserts); a statement that takes more
than ``MAX_STEPS`` steps with all it expands is reported as an endless loop, with the
expansions it was in, and ends the pass.  Real programs stay far below the bound (the
largest statement of Spacewar 4.4, a ship outline compiled by macros, takes about 5,200
steps; of the chess program about 1,400), and the endless loops reach it in about a
second.

Line ends are normalised when a file is read (CRLF, bare CR and bare LF all become
``\\n``), so every later stage sees a single end-of-line character.
"""

from __future__ import annotations

import bisect
import re
from pathlib import Path

from .errors import AsmError, AssemblyAbort

EOF_CH = "\x00"
# Frame kinds.
FILE, MACRO, REPEAT, IRP, TEXT = range(5)
KIND_NAMES = {MACRO: "macro", REPEAT: "REPEAT", IRP: "IRP", TEXT: "text"}
LOOP_KINDS = (REPEAT, IRP)

MAX_FRAMES = 2000  # nesting depth of expansions
# The runaway guard (see above): the steps one statement of a source file may take, and
# the characters of expanded text that count as one step.
MAX_STEPS = 500_000
TEXT_STEP = 8
_SHORT_TEXT = 4096  # see text_key

_BLANKS = re.compile(r"[ \t]*")
_TO_EOL = re.compile(r"[^\n\x00]*")


def blanks_end(text: str, pos: int) -> int:
    """Where the spaces and tabs that start at ``pos`` end."""
    m = _BLANKS.match(text, pos)
    assert m is not None  # (it matches the empty string)
    return m.end()


class SourceFile:
    """A host file read for assembly: its normalised text and where each line starts."""

    __slots__ = ("name", "path", "text", "line_starts", "lines")

    def __init__(self, name: str, raw: str, path: Path | None = None) -> None:
        text = raw.replace("\r\n", "\n").replace("\r", "\n").replace("\f", " ")
        text = text.replace(EOF_CH, "")
        if text and not text.endswith("\n"):
            text += "\n"  # the last line ends, even in a file inserted by another
        self.name = name
        self.path = path
        self.lines = text.split("\n")
        if self.lines and self.lines[-1] == "":
            self.lines.pop()
        self.text = text + EOF_CH
        starts = [0]
        for m in re.finditer("\n", text):
            starts.append(m.end())
        self.line_starts = starts

    def position(self, pos: int) -> tuple[int, int]:
        """(line, column), both 1-based, of character offset ``pos``."""
        i = bisect.bisect_right(self.line_starts, pos) - 1
        return i + 1, pos - self.line_starts[i] + 1


class Frame:
    """One level of the input stack."""

    __slots__ = (
        "kind", "text", "pos", "source", "site", "name",
        "count", "passes", "body", "cond_depth", "finished", "expanded", "reached", "jumps", "tag",
    )  # fmt: skip

    def __init__(
        self,
        kind: int,
        text: str,
        site: tuple[SourceFile, int] | None = None,
        name: str = "",
        source: SourceFile | None = None,
    ) -> None:
        self.kind = kind
        self.text = text
        self.pos = 0
        self.source = source  # FILE frames: the file
        self.site = site  # other frames: where the expansion was called
        self.name = name
        self.count = 0  # loops: completed passes
        self.passes: list[str] | int = 0  # REPEAT: count; IRP: one text per pass
        self.body = ""  # REPEAT: the text repeated (texts of passes end with EOF_CH)
        self.cond_depth = 0  # conditional-bracket depth when pushed
        self.finished = False  # loops stopped by .ISTOP
        # Read on behalf of an expansion: this frame or one below it is not a file.
        self.expanded = kind != FILE
        self.reached = -1  # FILE frames: where the furthest statement read began
        self.jumps = 0  # .GO jumps back into this frame, the last to .TAG ``tag``
        self.tag = ""


class ReaderMixin:
    """Character-level access to the input stack (mixed into the assembler)."""

    frames: list[Frame]
    text: str
    pos: int
    cond_stack: list[tuple]
    steps: int

    # --- the stack ------------------------------------------------------------------------
    def push_frame(self, frame: Frame) -> None:
        if len(self.frames) >= MAX_FRAMES:
            self.error(f"expansions nested more than {MAX_FRAMES} deep (runaway recursion?)")
            raise AssemblyAbort
        top = self.frames[-1]
        frame.expanded = frame.expanded or top.expanded
        # An inserted file's text is its own statements' to read, unless an expansion
        # inserts it (then each pass reads it again).
        self.count_steps(len(frame.text) if frame.expanded else 0)
        top.pos = self.pos
        frame.cond_depth = len(self.cond_stack)
        self.frames.append(frame)
        self.text = frame.text
        self.pos = frame.pos

    def count_steps(self, chars: int) -> None:
        """An expansion, a loop pass or a ``.GO`` jump that gives ``chars`` characters to
        read: one step, and one more for each ``TEXT_STEP`` characters; the statement
        readers count a step for each statement.  More than ``MAX_STEPS`` since the
        count last started again (:meth:`file_statement`) stops the pass."""
        self.steps += 1 + chars // TEXT_STEP
        if self.steps > MAX_STEPS:
            self.runaway()

    def file_statement(self, frame: Frame, pos: int) -> None:
        """A statement begins at ``pos`` of the file read by the top frame ``frame``:
        the step count starts again if it is new ground, not in an expansion (a file
        inserted by a macro or loop is part of its statement) nor read again after a
        ``.GO`` back."""
        if not frame.expanded and pos > frame.reached:
            frame.reached = pos
            self.steps = 0

    def runaway(self) -> None:
        """Stop the pass: the current statement took more than ``MAX_STEPS`` steps.  The
        message is at the statement, and names the expansions it was in, innermost
        first (one a macro calling itself, with its depth)."""
        runs: list[list] = []  # [description, how many times in a row]
        for frame in reversed(self.frames):
            if not frame.expanded and not frame.jumps:
                break
            if frame.kind == MACRO:
                what = f"macro {frame.name}"
            elif frame.kind in LOOP_KINDS:
                passes = frame.passes if isinstance(frame.passes, int) else len(frame.passes)
                what = f"{frame.name or 'REPEAT'} (pass {frame.count + 1:,} of {passes:,})"
            elif frame.kind == FILE:
                assert frame.source is not None
                what = f"file {frame.source.name}"
            else:
                what = "text"
            if frame.jumps:
                what += f" after {frame.jumps:,} jumps of .GO {frame.tag}"
            if runs and runs[-1][0] == what:
                runs[-1][1] += 1
            else:
                runs.append([what, 1])
            if not frame.expanded:
                break  # a file's own .GO loop
        shown = [what if n == 1 else f"{what} ({n} deep)" for what, n in runs[:4]]
        inside = ", in ".join(shown) + (", ..." if len(runs) > 4 else "")
        # The statement the count started at: the furthest one of the file read.
        file = next(f for f in reversed(self.frames) if not f.expanded)
        assert file.source is not None
        line, col = file.source.position(max(file.reached, 0))
        message = (
            f"endless loop? this statement took more than {MAX_STEPS:,} steps "
            "(statements, expansions, loop passes, .GO jumps)"
        )
        if runs:
            message += f"; stopped in {inside}"
        self.report(AsmError(file.source.name, line, col, message))
        raise AssemblyAbort

    def push_text(self, kind: int, text: str) -> None:
        """Push ``text`` to be read next, remembering the current place as its origin."""
        self.push_frame(Frame(kind, text + EOF_CH, self.site()))

    def pop_frame(self) -> bool:
        """At the end of the top frame: go on with the next text; False at the end of input."""
        frame = self.frames[-1]
        if frame.kind in LOOP_KINDS and not frame.finished:
            frame.count += 1
            if isinstance(frame.passes, int):  # REPEAT
                more = frame.count < frame.passes
                text = frame.body
            else:
                more = frame.count < len(frame.passes)
                text = frame.passes[frame.count] if more else ""
            if more:
                self.count_steps(len(text))
                frame.text = self.text = text
                frame.pos = self.pos = 0
                return True
        if len(self.frames) == 1:
            return False
        self.frames.pop()
        top = self.frames[-1]
        self.text = top.text
        self.pos = top.pos
        return True

    def peek(self) -> str:
        """The next character, crossing frame ends (``EOF_CH`` only at the end of input)."""
        c = self.text[self.pos]
        while c == EOF_CH and self.pop_frame():
            c = self.text[self.pos]
        return c

    def next_char(self) -> str:
        """Consume and return the next character."""
        c = self.peek()
        if c != EOF_CH:
            self.pos += 1
        return c

    def skip_blanks(self) -> str:
        """Skip spaces and tabs; return the next character."""
        c = self.text[self.pos]
        if c != " " and c != "\t" and c != EOF_CH:
            return c
        while True:
            self.pos = blanks_end(self.text, self.pos)
            c = self.text[self.pos]
            if c != EOF_CH:
                return c
            c = self.peek()
            if c not in " \t":
                return c

    def rest_of_line(self) -> str:
        """Consume the text up to (not including) the end of the line."""
        parts = []
        while True:
            m = _TO_EOL.match(self.text, self.pos)
            assert m is not None
            parts.append(m.group())
            self.pos = m.end()
            if self.text[self.pos] == "\n" or not self.pop_frame():
                return "".join(parts)

    def skip_line_end(self) -> None:
        """Consume one end-of-line character if it is next."""
        if self.peek() == "\n":
            self.pos += 1

    def read_balanced(self, open_ch: str, close_ch: str) -> str | None:
        """After an opening bracket: the text up to the matching close (consumed, dropped).

        Only ``open_ch``/``close_ch`` are counted.  None if the input ends first.
        """
        pattern = _BALANCE_RES[open_ch]
        depth = 1
        parts = []
        while True:
            m = pattern.search(self.text, self.pos)
            assert m is not None
            c = m.group()
            if c == EOF_CH:
                parts.append(self.text[self.pos : m.start()])
                self.pos = m.start()
                if not self.pop_frame():
                    return None
                continue
            depth += 1 if c == open_ch else -1
            if depth == 0:
                parts.append(self.text[self.pos : m.start()])
                self.pos = m.end()
                return "".join(parts)
            parts.append(self.text[self.pos : m.end()])
            self.pos = m.end()

    def read_delimited(self) -> str | None:
        """Text in ``/.../`` style: the first non-blank character is the delimiter.

        Returns None (nothing consumed beyond blanks) if a line end comes first.
        """
        delim = self.skip_blanks()
        if delim in ("\n", EOF_CH):
            return None
        self.pos += 1
        parts = []
        while True:
            end = self.text.find(delim, self.pos)
            stop = self.text.find(EOF_CH, self.pos)
            if end != -1 and end < stop:
                parts.append(self.text[self.pos : end])
                self.pos = end + 1
                return "".join(parts)
            parts.append(self.text[self.pos : stop])
            self.pos = stop
            if not self.pop_frame():
                return None

    def text_key(self, pos: int) -> str | tuple[str, int]:
        """A dict key for the rest of the current text from ``pos``: the rest itself when
        it is short (equal texts then share it), else the whole text and the place (no
        copy of a long text for each key)."""
        if len(self.text) - pos <= _SHORT_TEXT:
            return self.text[pos:]
        return (self.text, pos)

    # --- where we are -----------------------------------------------------------------------
    def site(self, pos: int | None = None) -> tuple[SourceFile, int]:
        """The source file and offset that stand for the current place."""
        top = self.frames[-1]
        if top.kind == FILE:
            assert top.source is not None
            return top.source, self.pos if pos is None else pos
        assert top.site is not None
        return top.site

    @staticmethod
    def place(site: tuple[SourceFile, int]) -> str:
        """``LINE:COL`` of a site, for messages that point at another place."""
        line, col = site[0].position(site[1])
        return f"{line}:{col}"

    def expansion_note(self) -> str:
        """`` (in macro FOO)`` when reading from an expansion, else empty."""
        for frame in reversed(self.frames):
            if frame.kind != FILE:
                what = KIND_NAMES[frame.kind]
                return f" (in {what} {frame.name})" if frame.name else f" (in {what})"
            break
        return ""


_BALANCE_RES = {
    "[": re.compile(r"[\[\]\x00]"),
    "{": re.compile(r"[{}\x00]"),
}
