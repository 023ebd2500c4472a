"""Host files the tools read and write: binaries, tapes, snapshots, pictures, the trace.

A file read is read whole, but never more than ``MAX_INPUT_BYTES``: a device such as
``/dev/zero`` would otherwise fill memory.  A run can take a long time, so a file that
cannot be written at all (no such directory, no permission, a directory) is refused
before the machine starts; what can only fail while writing (a full disk, ``/dev/full``)
is reported in one line when it happens.
"""

from __future__ import annotations

import errno
import os
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


def check_writable(path: str | Path) -> None:
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


def write_failed(path: str | Path, exc: OSError) -> OutputFileError:
    """The one-line error for a write of ``path`` that failed with ``exc``."""
    return OutputFileError(f"cannot write {path}: {exc.strerror or exc}")
