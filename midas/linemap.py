"""The source-line map written beside a binary, for the debugger.

It is JSON (``pdp6.formats.loader.read_line_map`` reads it back)::

    {"format": "midas-line-map", "version": 1,
     "main": "prog.mid", "start": 64,               # start address, or null
     "files": ["prog.mid", "board.mid"],            # file names as the assembler saw them
     "lines": [[64, 0, 12], [65, 0, 13], ...],      # [address, file index, line] by address
     "symbols": [["BEG", 64, ""], ["CONST", 64, "h"], ...]}   # flags: h=half-killed, g=global

Addresses and values are plain integers (JSON has no octal); lines are 1-based.
"""

from __future__ import annotations

import json

from pdp6.formats.loader import SYM_GLOBAL, SYM_HALFKILLED

from .program import Program

FORMAT = "midas-line-map"
VERSION = 1


def line_map_json(program: Program) -> str:
    files = list(program.sources)
    index = {name: i for i, name in enumerate(files)}
    lines = [
        [addr, index.get(source.file, 0), source.line]
        for addr, source in sorted(program.line_map.items())
    ]
    symbols = []
    for entry in program.symbol_table:
        flags = ("h" if entry.flags & SYM_HALFKILLED else "") + (
            "g" if entry.flags & SYM_GLOBAL else ""
        )
        symbols.append([entry.name, entry.value, flags])
    data = {
        "format": FORMAT,
        "version": VERSION,
        "main": files[0] if files else "",
        "start": program.start,
        "files": files,
        "lines": lines,
        "symbols": symbols,
    }
    return json.dumps(data, indent=None, separators=(",", ":")) + "\n"
