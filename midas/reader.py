"""The reader: the input stack, its cursor, and reading characters, runs and lines from it.

The reader owns what is being read: the stack of frames (files, macro expansions, loop
passes, pushed text; :mod:`midas.source`), the top frame's text and the cursor in it, the
brackets left open in that text (successful conditionals, and the literals that hide
them) with ``.SUCCESS``, and the runaway guard's count.  No other stage moves the cursor:
they read ``text`` and ``pos`` to look ahead, and call the reader's methods to go on.
Meeting the sentinel ``EOF_CH`` at the end of a frame pops it (or starts the next pass of
a loop) and reading goes on in the text below.

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
"""

from __future__ import annotations

import re
from typing import Final

from .errors import AsmError, AssemblyAbort, Diagnostics
from .source import EOF_CH, FILE, KIND_NAMES, LOOP_KINDS, MACRO, Frame, SourceFile, blanks_end
from .textcodes import SQUOZE_CHARS_SET as SQUOZE

MAX_FRAMES = 2000  # nesting depth of expansions
# The runaway guard (see above): the steps one statement of a source file may take, and
# the characters of expanded text that count as one step.
MAX_STEPS = 500_000
TEXT_STEP = 8
_SHORT_TEXT = 4096  # see text_key
MASK36 = (1 << 36) - 1

# What the open-bracket stack holds for a literal's '[' (a successful conditional's is
# the place it began).
LITERAL: Final = ()
Site = tuple[SourceFile, int]

SQUOZE_RUN = re.compile(r"[A-Za-z0-9.$%]+")
# What separates statements at top level (and in a literal of several lines), and on one
# line (in a grouping, or a literal that the line end closes).
STATEMENT_GAP = re.compile(r"[ \t\n?]*")
SAME_LINE_GAP = re.compile(r"[ \t?]*")
# What pass_between may pass over begins with one of these.
_BETWEEN = frozenset(";]}" + EOF_CH)
_TO_EOL = re.compile(r"[^\n\x00]*")
_BALANCE_RES = {
    "[": re.compile(r"[\[\]\x00]"),
    "{": re.compile(r"[{}\x00]"),
}


class Reader:
    """The input stack and the cursor in its top frame (see the module's docstring)."""

    def __init__(self, diagnostics: Diagnostics) -> None:
        self.diagnostics = diagnostics
        self.frames: list[Frame] = []
        self.text = EOF_CH  # the top frame's text, and the cursor in it
        self.pos = 0
        self.steps = 0  # the runaway guard's count
        # Per open '[': where a successful conditional began, or LITERAL.
        self.cond_stack: list[Site | tuple[()]] = []
        self.success = 0  # .SUCCESS: the last conditional's outcome
        # Where the statement being read began (its call's place in an expansion).
        self.statement_site: Site = (SourceFile("", ""), 0)

    def start(self, main: SourceFile) -> None:
        """A pass begins: the main file alone, read from its start."""
        frame = Frame(FILE, main.text, source=main)
        self.frames = [frame]
        self.text = frame.text
        self.pos = 0
        self.steps = 0
        self.cond_stack = []
        self.success = 0
        self.statement_site = (main, 0)

    # --- the cursor -----------------------------------------------------------------------
    def skip(self, n: int = 1) -> None:
        """Go on ``n`` characters in the top frame's text."""
        self.pos += n

    def seek(self, pos: int) -> None:
        """Go to ``pos`` of the top frame's text."""
        self.pos = pos

    def take(self, c: str) -> bool:
        """Consume ``c`` if it is the next character of the top frame's text."""
        if self.text[self.pos] == c:
            self.pos += 1
            return True
        return False

    def read_match(self, pattern: re.Pattern[str]) -> re.Match[str] | None:
        """``pattern`` matched here in the top frame's text, consumed if it matches."""
        m = pattern.match(self.text, self.pos)
        if m is not None:
            self.pos = m.end()
        return m

    # --- the stack ------------------------------------------------------------------------
    def push_frame(self, frame: Frame, resume: int = -1) -> None:
        """Read ``frame``'s text next; then go on here (at ``resume`` if given)."""
        if len(self.frames) >= MAX_FRAMES:
            self.error(
                f"expansions nested more than {MAX_FRAMES} deep (runaway recursion?)",
                None if resume < 0 else resume,
            )
            raise AssemblyAbort
        top = self.frames[-1]
        frame.expanded = frame.expanded or top.expanded
        # An inserted file's text is its own statements' to read, unless an expansion
        # inserts it (then each pass reads it again).
        # count_steps, inline (every expansion's cost)
        self.steps += 1 + (len(frame.text) // TEXT_STEP if frame.expanded else 0)
        if self.steps > MAX_STEPS:
            self.runaway()
        top.pos = self.pos if resume < 0 else resume
        frame.cond_depth = len(self.cond_stack)
        self.frames.append(frame)
        self.text = frame.text
        self.pos = frame.pos

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
                self.steps += 1 + len(text) // TEXT_STEP  # count_steps, inline
                if self.steps > MAX_STEPS:
                    self.runaway()
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

    def unwind(self, depth: int, pos: int) -> None:
        """Leave the frames above ``depth`` (and the brackets opened in them) and go on
        at ``pos`` of that frame's text (.STOP, .ISTOP, .GO)."""
        frame = self.frames[depth]
        del self.frames[depth + 1 :]
        del self.cond_stack[frame.cond_depth :]
        self.text = frame.text
        self.pos = frame.pos = pos

    def in_expansion(self) -> bool:
        """Whether the top frame is not a file (a macro, a loop pass, pushed text)."""
        return self.frames[-1].kind != FILE

    def loop_count(self, kind: int) -> int:
        """The passes completed by the innermost loop of ``kind`` (.RPCNT, .IRPCNT)."""
        for frame in reversed(self.frames):
            if frame.kind == kind:
                return frame.count
        return 0

    def current_file(self) -> SourceFile:
        """The innermost file being read."""
        source = next(f.source for f in reversed(self.frames) if f.kind == FILE)
        assert source is not None
        return source

    def file_depth(self) -> int:
        """How many files are being read (the main one and those inserted)."""
        return sum(1 for f in self.frames if f.kind == FILE)

    # --- the runaway guard ----------------------------------------------------------------
    def count_steps(self, chars: int) -> None:
        """An expansion, a loop pass or a ``.GO`` jump that gives ``chars`` characters to
        read: one step, and one more for each ``TEXT_STEP`` characters; the statement
        readers count a step for each statement.  More than ``MAX_STEPS`` since the
        count last started again (:meth:`begin_statement`) stops the pass."""
        self.steps += 1 + chars // TEXT_STEP
        if self.steps > MAX_STEPS:
            self.runaway()

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
        self.diagnostics.report(AsmError(file.source.name, line, col, message))
        raise AssemblyAbort

    # --- statements -------------------------------------------------------------------------
    def begin_statement(self, pos: int, counted: int = 0) -> None:
        """A statement of the program begins at ``pos`` of the top frame's text, where
        reading goes on: the place that stands for it (its own in a file, the call's in
        an expansion) is ``statement_site``.  ``counted``: statements read just before
        (nothing read between), counted here as :meth:`count_statement` counts them, so
        that the fast path's loop makes one call per statement.  The step
        count starts again if it is new ground of a file, not in an expansion (a file
        inserted by a macro or loop is part of its statement) nor read again after a
        ``.GO`` back."""
        self.pos = pos
        self.steps += counted
        frame = self.frames[-1]
        if frame.kind == FILE:
            if not frame.expanded and pos > frame.reached:
                frame.reached = pos
                self.steps = 0
            # (a file's frame has its source, any other its site: no assert, as this is
            # every statement's cost)
            self.statement_site = (frame.source, pos)  # type: ignore[assignment]
        else:
            self.statement_site = frame.site  # type: ignore[assignment]

    def count_statement(self) -> None:
        """A statement read: a step of the runaway guard."""
        self.steps += 1

    def next_statement(self, same_line: bool) -> str:
        """Skip what separates statements (blank lines and ``?``; only blanks and ``?``
        when ``same_line``) and what lies between them (:meth:`pass_between`); the next
        character."""
        skip = SAME_LINE_GAP if same_line else STATEMENT_GAP
        while True:
            m = skip.match(self.text, self.pos)
            assert m is not None
            pos = m.end()
            c = self.text[pos]
            if c not in _BETWEEN:  # (the usual statement, with nothing to pass)
                self.pos = pos
                return c
            if not self.pass_between(pos):
                return self.text[self.pos]

    def pass_between(self, pos: int, counted: int = 0) -> bool:
        """Go to ``pos`` and pass over what may stand between statements and is none
        there: a comment, the ``]`` closing a successful conditional, a ``}``, the end
        of a frame.  False if something else is there (or the input has ended).
        ``counted``: statements read just before, counted first (as in
        :meth:`begin_statement`)."""
        self.pos = pos
        self.steps += counted
        c = self.text[pos]
        if c == ";":  # a comment, to the line end (rest_of_line if it runs on below)
            eol = self.text.find("\n", pos)
            if eol < 0:
                self.rest_of_line()
            else:
                self.pos = eol
        elif c == "]" and self.cond_stack and self.cond_stack[-1]:
            self.cond_stack.pop()  # close_conditional, inline
            self.pos = pos + 1
            self.success = MASK36
        elif c == "}":
            self.pos += 1
        elif c != EOF_CH or not self.pop_frame():
            return False
        return True

    def end_of_statement(self) -> str:
        """After a statement's words: skip blanks, ``}`` and the ``]`` of a successful
        conditional; the next character (a statement should end there)."""
        while True:
            c = self.skip_blanks()
            if c == "}":
                self.pos += 1
            elif c == "]" and self.cond_stack and self.cond_stack[-1]:
                self.close_conditional()
            else:
                return c

    # --- characters -----------------------------------------------------------------------
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

    def read_run(self) -> str:
        """A run of SQUOZE characters, glued across the end of an expansion."""
        m = SQUOZE_RUN.match(self.text, self.pos)
        assert m is not None
        self.pos = m.end()
        if self.text[self.pos] != EOF_CH:
            return m.group()
        parts = [m.group()]
        while self.peek() in SQUOZE:
            m = SQUOZE_RUN.match(self.text, self.pos)
            assert m is not None
            parts.append(m.group())
            self.pos = m.end()
            if self.text[self.pos] != EOF_CH:
                break
        return "".join(parts)

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

    # --- brackets: conditionals and literals --------------------------------------------
    def conditional(self, success: bool, skip_to: int = -1) -> None:
        """Assemble or skip the conditionalised text that starts here: the rest of the
        line, ``[...]`` (whose ``]`` a successful one leaves to be passed over later) or
        ``{...}``.  ``skip_to``: where the ``[...]`` ends, when the caller knows (the
        fast path's plan)."""
        self.success = MASK36 if success else 0
        if skip_to >= 0 and not success:
            self.pos = skip_to
            return
        c = self.peek()
        if c == "[":
            self.pos += 1
            if success:
                self.cond_stack.append(self.site(self.pos - 1))
            else:
                self.skip_balanced("[", "]")
        elif c == "{":
            self.pos += 1
            if not success:
                self.skip_balanced("{", "}")
        elif not success:
            self.rest_of_line()

    def skip_balanced(self, open_ch: str, close_ch: str) -> None:
        site = self.site(self.pos - 1)
        if self.read_balanced(open_ch, close_ch) is None:
            self.error(f"'{close_ch}' missing for the failing conditional at {self.place(site)}")

    def planned_conditional(self, pos: int, success: bool, skip_to: int) -> None:
        """:meth:`conditional` at ``pos``, for the fast path's plan, which knows what is
        there: ``[`` ending at ``skip_to`` (or -1: something else)."""
        if skip_to < 0:
            self.pos = pos
            self.conditional(success)
        elif success:
            self.success = MASK36
            self.pos = pos + 1
            top = self.frames[-1]
            self.cond_stack.append((top.source, pos) if top.kind == FILE else top.site)  # type: ignore[arg-type]
        else:
            self.success = 0
            self.pos = skip_to

    def in_conditional(self) -> bool:
        """Whether the innermost open bracket is a successful conditional's, whose ``]``
        is passed over as if it were not there."""
        return bool(self.cond_stack and self.cond_stack[-1])

    def take_conditional_end(self) -> bool:
        """Pass the ``]`` here if it ends a successful conditional (see
        :meth:`in_conditional`); whether it did."""
        cond_stack = self.cond_stack
        if cond_stack and cond_stack[-1]:
            cond_stack.pop()  # (close_conditional, inline)
            self.pos += 1
            self.success = MASK36
            return True
        return False

    def close_conditional(self) -> None:
        """The ``]`` ending a successful bracketed conditional."""
        self.cond_stack.pop()
        self.pos += 1
        self.success = MASK36

    def open_literal(self) -> int:
        """A literal's ``[`` was read: the conditionals opened before it stay open till
        its ``]``.  The mark to give :meth:`close_literal`."""
        mark = len(self.cond_stack)
        self.cond_stack.append(LITERAL)
        return mark

    def close_literal(self, mark: int) -> None:
        """The literal ends: so do the brackets opened in it."""
        del self.cond_stack[mark:]

    def open_conditionals(self) -> list[Site]:
        """Where the successful ``[`` conditionals still open began."""
        return [entry for entry in self.cond_stack if entry]

    # --- where we are -----------------------------------------------------------------------
    def site(self, pos: int | None = None) -> Site:
        """The source file and offset that stand for the current place."""
        top = self.frames[-1]
        if top.kind == FILE:
            assert top.source is not None
            return top.source, self.pos if pos is None else pos
        assert top.site is not None
        return top.site

    @staticmethod
    def place(site: Site) -> str:
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

    def error(self, message: str, pos: int | None = None, warning: bool = False) -> None:
        """Report a problem at ``pos`` of the current text (here if None)."""
        source, p = self.site(pos)
        line, col = source.position(p)
        self.diagnostics.report(
            AsmError(source.name, line, col, message + self.expansion_note(), warning)
        )
