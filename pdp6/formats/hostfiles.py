"""Host files the tools read and write: binaries, tapes, snapshots, pictures, the trace.

A file read is read whole, but never more than ``MAX_INPUT_BYTES``: a device such as
``/dev/zero`` would otherwise fill memory.  A run can take a long time, so a file that
cannot be written at all (no such directory, no permission, a directory) is refused
before the machine starts; what can only fail while writing (a full disk, ``/dev/full``)
is reported in one line when it happens.  So is a standard output that cannot be written
(``> /dev/full``, a full disk): :func:`standard_output` around a command turns it into one
line on stderr and exit status 1 (a closed pipe, as ``| head`` leaves, ends it quietly).
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Iterator
from pathlib import Path

MAX_INPUT_BYTES = 1 << 26  # 64 MB: far more than any PDP-6 file (all core is 1.2 MB)


def read_input(path: str | Path) -> bytes:
    """The bytes of ``path``; an OSError (with ``strerror``) if it cannot be read or is
    longer than ``MAX_INPUT_BYTES``."""
    with open(path, "rb") as f:
        data = f.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise OSError(errno.EFBIG, f"longer than {MAX_INPUT_BYTES} bytes (not a PDP-6 file)")
    return data


class OutputFileError(ValueError):
    """A host file that cannot be written; the message names it and says why."""


def check_writable(path: str | os.PathLike[str]) -> None:
    """Raise :class:`OutputFileError` if ``path`` cannot be created or overwritten."""
    target = Path(path)
    if target.is_dir():
        raise OutputFileError(f"cannot write {path}: it is a directory")
    if target.exists():
        if not os.access(target, os.W_OK):
            raise OutputFileError(f"cannot write {path}: permission denied")
        return
    parent = target.parent
    if not parent.is_dir():
        raise OutputFileError(f"cannot write {path}: there is no directory {parent}")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputFileError(f"cannot write {path}: permission denied in {parent}")


def write_failed(path: str | os.PathLike[str], exc: OSError) -> OutputFileError:
    """The one-line error for a write of ``path`` that failed with ``exc``."""
    return OutputFileError(f"cannot write {path}: {exc.strerror or exc}")


# What writing standard output can fail with; every other file the tools write has its
# own handler, so one of these reaching the command's top is standard output's.
_OUTPUT_ERRNOS = frozenset(
    getattr(errno, name)
    for name in ("ENOSPC", "EDQUOT", "EFBIG", "EIO", "EPIPE")
    if hasattr(errno, name)
)


@contextlib.contextmanager
def standard_output(program: str) -> Iterator[None]:
    """Run a command whose output goes to standard output: it is flushed at the end (also
    when the command exits), and a write that fails there or on the way is told in one
    line, ``PROGRAM: cannot write standard output: REASON``, with exit status 1 instead
    of a traceback.  A closed pipe says nothing (the reader has all it wanted)."""
    try:
        try:
            yield
        finally:
            sys.stdout.flush()
    except OSError as exc:
        if exc.errno not in _OUTPUT_ERRNOS:
            raise
        if exc.errno != errno.EPIPE:
            reason = exc.strerror or str(exc)
            print(f"{program}: cannot write standard output: {reason}", file=sys.stderr)
        _drop_standard_output()
        raise SystemExit(1) from None


def _drop_standard_output() -> None:
    """Point standard output at the null device, so that what is still buffered for it
    cannot fail again when the interpreter flushes it at exit."""
    try:
        fd = sys.stdout.fileno()
    except (OSError, ValueError, AttributeError):  # (a test's stream: nothing to drop)
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)
