"""Which sides the machine plays: the teletype commands for each choice of ``--colour``
and what that leaves the person to do (``machack play`` and ``machack web`` both ask)."""

from __future__ import annotations

MODES = {"white": "PW", "black": "PB", "both": "PS", "none": "PN"}
"""The program's command for the colour the machine plays."""

YOU = {"white": "you play Black", "black": "you play White", "both": "it plays itself",
       "none": "you play both sides"}  # fmt: skip
"""What the person does when the machine plays a colour (for the opening note)."""
