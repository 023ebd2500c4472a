"""Choose the engine: numba-compiled or plain Python, from one source.

Every function of the execute loop is decorated with :func:`jit` (or
:func:`jit_inline`), which only marks it: importing the loop costs no numba, so a
command that never runs the compiled engine (``midas``, ``--help``, a session on the
python engine) starts in a fraction of a second.  The first machine on the compiled
engine calls :func:`compile_modules`, which imports numba and puts a compiled
dispatcher (cached on disk) in place of every marked function.  ``ENABLED`` says whether
this process can have the compiled engine: numba is installed and ``PDP6_NOJIT`` is not
set.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.util
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import platformdirs

F = TypeVar("F", bound=Callable[..., Any])
_NUMBA = importlib.util.find_spec("numba")  # found, not imported


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
    # A cache built by another numba is not this one's: its version file is in the key
    # (read rather than asked of importlib.metadata, which takes longer than the rest).
    version = Path(str(_NUMBA.origin)).parent / "_version.py" if _NUMBA else None
    if version is not None and version.exists():
        digest.update(version.read_bytes())
    root = Path(os.environ.get("NUMBA_CACHE_DIR") or platformdirs.user_cache_dir())
    return str(root / "pdp6-numba" / digest.hexdigest()[:16])


# numba is optional: without it (or with PDP6_NOJIT set) the plain-Python engines run.
ENABLED = os.environ.get("PDP6_NOJIT", "") in ("", "0") and _NUMBA is not None
CACHE_DIR = _cache_dir() if ENABLED else ""

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


_MARK = "_pdp6_jit"  # the attribute by which jit and jit_inline mark a function


def jit(func: F) -> F:
    """Mark ``func`` to be compiled by numba (nopython, cached) by :func:`compile_modules`."""
    setattr(func, _MARK, {})
    return func


def jit_inline(func: F) -> F:
    """Like :func:`jit`, but numba inlines the function into its callers.

    For the small routines every instruction goes through (memory references,
    effective address): a call passes each array as a large struct, which costs more
    than the work itself.
    """
    setattr(func, _MARK, {"inline": "always"})
    return func


def compile_modules(modules: tuple[ModuleType, ...]) -> None:
    """Put a numba dispatcher in place of every marked function in ``modules``, in every
    namespace that names it (a routine imported by another module is the same
    dispatcher there).  Once per process; numba compiles each on its first call, or
    loads it from the on-disk cache."""
    if not ENABLED:
        raise RuntimeError("numba is not available (or PDP6_NOJIT is set)")
    import numba

    numba.config.CACHE_DIR = CACHE_DIR
    compiled: dict[int, Any] = {}
    for module in modules:
        for obj in vars(module).values():
            options = getattr(obj, _MARK, None)  # (a dispatcher shows its function's too)
            if options is not None and not hasattr(obj, "py_func") and id(obj) not in compiled:
                compiled[id(obj)] = numba.njit(cache=True, nogil=True, _nrt=False, **options)(obj)
    for module in modules:
        for name, obj in list(vars(module).items()):
            if id(obj) in compiled:
                setattr(module, name, compiled[id(obj)])


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
