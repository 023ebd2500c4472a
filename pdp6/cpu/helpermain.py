"""The helper process itself: ``python -m pdp6.cpu.helpermain``.

It answers the requests :class:`pdp6.cpu.helper.Helper` sends (see there for the
protocol) with the translator's own work.  Apart from :mod:`pdp6.cpu.helper`, which the
translator imports to ask, so that neither module imports the other.
"""

from __future__ import annotations

import marshal
import sys
from typing import Any, BinaryIO

from . import specialize
from .helper import frame, read_frame
from .translate import translator


def serve(requests: BinaryIO, answers: BinaryIO) -> None:
    """The helper's side: answer requests until the engine's process closes the pipe."""
    specialize.MARK = "h"  # names of its own, apart from the engine's

    keys: dict[Any, Any] = {}
    while True:
        try:
            request = read_frame(requests)
        except EOFError:
            return
        if request[0] == "key":
            _, key, memsize, optab = request
            keys[key] = translator(memsize, optab)
            continue
        if request[0] == "ins":
            _, key, words = request
            tr = keys[key]
            done = []
            for ir, pc in words:
                ins = tr.specialized(ir, pc)
                texts = tr.residual_texts(ins.effects.residuals) if ins is not None else {}
                done.append((ir, pc, ins, tr.refused.get((ir, pc)), texts))
            answers.write(frame(("ins", key, done)))
        else:
            _, tag, source, filename = request
            code = marshal.dumps(compile(source, filename, "exec"))
            answers.write(frame(("code", tag, code)))
        answers.flush()


if __name__ == "__main__":
    try:
        serve(sys.stdin.buffer, sys.stdout.buffer)
    except (BrokenPipeError, KeyboardInterrupt):
        pass  # the engine's process has ended
