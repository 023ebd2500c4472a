"""Human-readable outputs: the assembly listing and the ``--dump`` word list."""

from __future__ import annotations

from collections import defaultdict

from pdp6.formats.loader import SYM_GLOBAL, SYM_HALFKILLED

from .program import Program

_BLANK = " " * 22


def dump_text(program: Program) -> str:
    """One line per stored word, ascending address: ``AAAAAA/ WWWWWWWWWWWW``; then
    ``START AAAAAA`` if END names a start address."""
    lines = [f"{addr:06o}/ {word:012o}" for addr, word in sorted(program.words.items())]
    if program.start is not None:
        lines.append(f"START {program.start:06o}")
    return "".join(line + "\n" for line in lines)


def _word(addr: int, word: int) -> str:
    return f"{addr:06o}  {word >> 18:06o},,{word & 0o777777:06o}"


def listing_text(program: Program) -> str:
    """Each source line with the words it assembled (location, word, line number, text),
    file by file, then the symbol table sorted by name and the diagnostics."""
    by_line: dict[tuple[str, int], list[tuple[int, int]]] = defaultdict(list)
    for addr, word, source in program.emitted:
        by_line[(source.file, source.line)].append((addr, word))
    out = []
    if program.title:
        out += [f"TITLE {program.title}", ""]
    for file, lines in program.sources.items():
        out.append(f"; {file}")
        for number, text in enumerate(lines, 1):
            words = by_line.get((file, number), [])
            first = _word(*words[0]) if words else _BLANK
            out.append(f"{first}  {number:5d}  {text.expandtabs()}".rstrip())
            out += [_word(addr, word) for addr, word in words[1:]]
        out.append("")
    out.append("; symbols")
    for name, value in sorted(program.symbols.items()):
        entry = next((e for e in program.symbol_table if e.name == name), None)
        notes = []
        if entry is None:
            notes.append("killed")
        else:
            if entry.flags & SYM_HALFKILLED:
                notes.append("half-killed")
            if entry.flags & SYM_GLOBAL:
                notes.append("global")
        out.append(f"{name:<6}  {value:012o}  {' '.join(notes)}".rstrip())
    if program.errors or program.warnings:
        out += ["", "; diagnostics"]
        out += [str(e) for e in program.errors + program.warnings]
    return "\n".join(out) + "\n"
