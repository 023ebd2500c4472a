"""Assembly-time loops (reference 1.10): REPEAT with ``.RPCNT``, the IRP family with
``.IRPCNT``, and leaving or jumping inside expansions (.STOP, .ISTOP, .GO, .TAG).

A loop is a frame whose text is read again for each pass: REPEAT repeats one string;
an IRP expands its body (scanned like a macro body) once per pass with the dummies bound
to successive pieces of the IRP strings.
"""

from __future__ import annotations

import re

from .expressions import SQUOZE, to_signed
from .macros import END_EOL, MORE
from .source import EOF_CH, IRP, MACRO, REPEAT, Frame
from .symbols import key, pseudo, special

MAX_REPEAT = 1 << 20


class LoopMixin:
    """REPEAT, IRP and the expansion-control pseudo-ops (mixed into the assembler)."""

    # --- REPEAT -------------------------------------------------------------------------
    @pseudo("REPEAT")
    def p_repeat(self, name: str) -> None:
        start = self.reader.pos
        value, undefined = self.condition_value()
        count = to_signed(value)
        if undefined and self.pass_no == 1:
            self.error("REPEAT count not defined yet (it would change the code between passes)",
                       start)  # fmt: skip
        if self.reader.peek() == "[":
            self.reader.skip()
            body = self.reader.read_balanced("[", "]")
            if body is None:
                self.error("REPEAT: missing ']'", start)
                return
        else:
            body = self.reader.rest_of_line() + "\n"
            self.reader.skip_line_end()
        if count > MAX_REPEAT:
            self.error(f"REPEAT count {count} is too large", start)
            return
        if count > 0 and body:
            frame = Frame(REPEAT, body + EOF_CH, self.reader.site(start), "")
            frame.passes = count
            frame.body = frame.text
            self.reader.push_frame(frame)

    @special(".RPCNT")
    def get_rpcnt(self) -> int:
        return self.reader.loop_count(REPEAT)

    @special(".IRPCNT")
    def get_irpcnt(self) -> int:
        return self.reader.loop_count(IRP)

    # --- IRP ----------------------------------------------------------------------------
    @pseudo("IRP", "IRPC", "IRPS", "IRPW", "IRPNC")
    def p_irp(self, name: str) -> None:
        start = self.reader.pos
        # Read from an expansion, the passes depend on the text alone: an IRP in a macro
        # called again with the same arguments is not read again.
        key = None
        if name != "IRPNC" and self.reader.in_expansion():
            key = (name, self.reader.text_key(start))
            known = self.irps.get(key)
            if known is not None:
                texts, length = known
                self.reader.skip(length)
                self.push_irp(name, texts, start)
                return
        text = self.reader.text
        texts = self.irp_passes(name)
        if texts is None:
            return
        if key is not None and self.reader.text is text:  # read from this text alone
            self.irps[key] = (texts, self.reader.pos - start)
        self.push_irp(name, texts, start)

    def irp_passes(self, name: str) -> list[str] | None:
        """The text of each pass of the IRP whose header starts here."""
        start = self.reader.pos
        limits: tuple[int, ...] = (0, 1, -1)
        if name == "IRPNC":
            limits = tuple(to_signed(self.condition_value()[0]) for _ in range(3))
        groups = self.irp_groups()
        if groups is None:
            return None
        names: dict[str, int] = {}
        for first, second, _text in groups:
            for dummy in (first, second):
                if dummy:
                    names.setdefault(dummy, len(names))
        body = self.read_template(names, start)
        if body is None:
            return None
        columns = [self.irp_split(name, text, limits) for _f, _s, text in groups]
        passes = max((len(col) for col in columns), default=0)
        texts = []
        for p in range(passes):
            args = [""] * len(names)
            for (first, second, _text), col in zip(groups, columns, strict=True):
                a, b = col[p] if p < len(col) else ("", "")
                if second:
                    args[names[second]] = b
                if first:
                    args[names[first]] = a
            texts.append(body.format(*args) + EOF_CH)
        return texts

    def push_irp(self, name: str, texts: list[str], start: int) -> None:
        if texts:
            frame = Frame(IRP, texts[0], self.reader.site(start), name)
            frame.passes = texts
            self.reader.push_frame(frame)

    def irp_groups(self) -> list[tuple[str, str, str]] | None:
        """The IRP header: groups ``first,second,string`` up to the body."""
        groups = []
        while True:
            dummy_names = []
            for _ in range(2):
                c = self.reader.skip_blanks()
                dummy_names.append(key(self.reader.read_run()) if c in SQUOZE else "")
                if self.reader.skip_blanks() != ",":
                    self.error("IRP: a comma should follow each dummy name")
                    self.reader.rest_of_line()
                    return None
                self.reader.skip()
            text, how = self.scan_normal(backslash=False, paren=False)
            groups.append((dummy_names[0], dummy_names[1], text or ""))
            if how == MORE or (how != END_EOL and self.reader.text[self.reader.pos - 1] == "]"):
                c = self.reader.peek()
                if c in SQUOZE or c == ",":
                    if c == ",":
                        self.reader.skip()
                    continue
            if self.reader.peek() != EOF_CH:
                self.reader.skip()  # the character ending the header is thrown away
            return groups

    def irp_split(self, name: str, text: str, limits: tuple) -> list[tuple[str, str]]:
        """The (first, second) dummy values of each pass of one IRP group."""
        if name == "IRPC":
            return [(c, text[i + 1 :]) for i, c in enumerate(text)]
        if name == "IRPS":
            return [
                (m.group(1), m.group(2))
                for m in re.finditer(r"([A-Za-z0-9.$%]+)([^A-Za-z0-9.$%]?)", text)
            ]
        if name == "IRPW":
            out = []
            for line in text.split("\n"):
                if line:
                    first, _semi, second = line.partition(";")
                    out.append((first, second))
            return out
        if name == "IRPNC":
            skip, size, limit = limits
            size = max(size, 1)
            rest = text[max(skip, 0) :]
            chunks = [rest[i : i + size] for i in range(0, len(rest), size)]
            if limit >= 0:
                chunks = chunks[:limit]
            return [(c, "".join(chunks[i + 1 :])) for i, c in enumerate(chunks)]
        return self.irp_elements(text)

    @staticmethod
    def irp_elements(text: str) -> list[tuple[str, str]]:
        """IRP's split: commas and line ends separate; ``[...]`` protects and is dropped."""
        out: list[tuple[str, str]] = []
        i = 0
        n = len(text)
        if not text:
            return out
        while i <= n:
            element = []
            depth = 0
            while i < n:
                c = text[i]
                if depth == 0 and c in ",\n":
                    break
                if c == "[":
                    depth += 1
                    if depth == 1:
                        i += 1
                        continue
                elif c == "]" and depth:
                    depth -= 1
                    if depth == 0:
                        i += 1
                        continue
                element.append(c)
                i += 1
            out.append(("".join(element), text[i + 1 :]))
            i += 1
        return out

    # --- leaving and jumping ------------------------------------------------------------
    @pseudo(".STOP", ".ISTOP")
    def p_stop(self, name: str) -> None:
        """Leave the innermost macro body or loop pass (``.ISTOP``: and the loop)."""
        for depth in range(len(self.reader.frames) - 1, 0, -1):
            frame = self.reader.frames[depth]
            if frame.kind in (MACRO, REPEAT, IRP):
                if name == ".ISTOP":
                    frame.finished = True
                self.reader.unwind(depth, len(frame.text) - 1)
                return
        self.error(f"{name} outside a macro or loop")

    @pseudo(".GO")
    def p_go(self, name: str) -> None:
        """Continue after ``.TAG tag`` in the current expansion or an enclosing one."""
        if self.reader.skip_blanks() not in SQUOZE:
            self.error(".GO needs a tag")
            return
        tag = self.reader.read_run()
        pattern = re.compile(r"\.TAG[ \t]+" + re.escape(tag) + r"(?![A-Za-z0-9.$%])", re.IGNORECASE)
        for depth in range(len(self.reader.frames) - 1, 0, -1):
            frame = self.reader.frames[depth]
            m = pattern.search(frame.text)
            self.reader.count_steps(len(frame.text))  # searched, and perhaps read again
            if m:
                frame.jumps += 1
                frame.tag = tag
                self.reader.unwind(depth, m.end())
                return
        self.error(f".GO {tag}: no .TAG {tag} in the enclosing macros and loops")

    @pseudo(".TAG")
    def p_tag(self, name: str) -> None:
        if self.reader.skip_blanks() in SQUOZE:
            self.reader.read_run()
