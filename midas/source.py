"""Source files and the frames of the input stack (the reader, :mod:`midas.reader`, reads
them).

MIDAS is a string processor: macro calls, REPEAT and IRP feed text back into the reader,
and a syllable may even be glued together across the end of an expansion.  The input is
therefore a stack of frames, each a string ending in the sentinel ``EOF_CH``.

Line ends are normalised when a file is read (CRLF, bare CR and bare LF all become
``\\n``), so every later stage sees a single end-of-line character.
"""

from __future__ import annotations

import bisect
import re
from pathlib import Path

EOF_CH = "\x00"
# Frame kinds.
FILE, MACRO, REPEAT, IRP, TEXT = range(5)
KIND_NAMES = {MACRO: "macro", REPEAT: "REPEAT", IRP: "IRP", TEXT: "text"}
LOOP_KINDS = (REPEAT, IRP)

_BLANKS = re.compile(r"[ \t]*")


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
