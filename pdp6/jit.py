"""Choose the engine: numba-compiled or plain Python, from one source.

Every function of the execute loop is decorated with :func:`jit`.  When numba is
installed and ``PDP6_NOJIT`` is not set, it compiles the function (cached on disk);
otherwise the decorator returns the function unchanged and the very same source runs
as ordinary Python.  ``ENABLED`` tells which engine this process uses.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

F = TypeVar("F", bound=Callable[..., Any])


def _cache_dir() -> str:
    """A numba cache directory named by a hash of every source the loop is built from.

    numba keys its on-disk cache by the source file of the cached function only, but the
    loop inlines routines from several modules; an edit to one of them would otherwise
    leave a stale compiled loop in the cache.
    """
    from .cpu import LOOP_SOURCES

    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    loop = [here / "cpu" / f"{name}.py" for name in LOOP_SOURCES]
    sources = [*loop, here / "timing.py", here / "isa.py", here / "jit.py"]
    for path in sorted(sources):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    try:  # a cache built by another numba is not this one's
        from importlib.metadata import version

        digest.update(version("numba").encode())
    except Exception:  # pragma: no cover - numba missing or unreadable metadata
        pass
    root = Path(os.environ.get("NUMBA_CACHE_DIR") or platformdirs.user_cache_dir())
    return str(root / "pdp6-numba" / digest.hexdigest()[:16])


ENABLED = False
CACHE_DIR = ""
if os.environ.get("PDP6_NOJIT", "") in ("", "0"):
    try:  # numba is optional: without it we fall back to plain Python
        import numba

        CACHE_DIR = numba.config.CACHE_DIR = _cache_dir()
        ENABLED = True
    except ImportError:  # pragma: no cover - depends on the environment
        ENABLED = False

READY_MARK = "compiled-engine-ready"
BUILD_LOCK = "build.lock"


def compiled_ready() -> bool:
    """Whether the compiled engine is in the on-disk cache, so that using it costs a
    load (about half a second) rather than a compile (one to three minutes)."""
    return ENABLED and (Path(CACHE_DIR) / READY_MARK).exists()


def mark_compiled_ready() -> None:
    """Record that the compiled loop has run from this cache (so it holds the code)."""
    if not ENABLED:
        return
    mark = Path(CACHE_DIR) / READY_MARK
    try:
        mark.parent.mkdir(parents=True, exist_ok=True)
        mark.touch()
    except OSError:  # a read-only cache: every start then builds in the background
        pass


def jit(func: F) -> F:
    """Compile ``func`` with numba (nopython, cached) when the compiled engine is on."""
    if ENABLED:
        return numba.njit(cache=True, nogil=True, _nrt=False)(func)
    return func


def jit_inline(func: F) -> F:
    """Like :func:`jit`, but numba inlines the function into its callers.

    For the small routines every instruction goes through (memory references,
    effective address): a call passes each array as a large struct, which costs more
    than the work itself.
    """
    if ENABLED:
        return numba.njit(cache=True, nogil=True, _nrt=False, inline="always")(func)
    return func


@contextlib.contextmanager
def build_lock() -> Iterator[None]:
    """Held while the compiled engine is compiled into the cache: one compile at a time
    (a process that finds it held waits, then loads what the other compiled)."""
    if not ENABLED:
        yield
        return
    try:
        Path(CACHE_DIR).mkdir(parents=True, exist_ok=True)
        handle = (Path(CACHE_DIR) / BUILD_LOCK).open("w")
    except OSError:  # a read-only cache: compile without the lock
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
