"""The engines, all from one source: compiled by numba, translated, or interpreted.

'compiled' runs ``loop.run`` compiled by numba over numpy arrays.  'interpreter' runs
the very same function bodies as ordinary Python over lists (list indexing on Python
ints is several times faster than numpy scalar access).  'python' translates PDP-6 code
into Python blocks by specializing those bodies (:mod:`pdp6.cpu.translate`) and falls
back to the interpreter for the rest.  The plain functions are rebuilt over copies of the
modules' namespaces (from each compiled function's ``py_func`` once numba has compiled
them), so all engines exist in one process (for ``pdp6 bench`` and the differential
tests).
"""

from __future__ import annotations

import importlib.util
import types
from collections.abc import Callable
from typing import Any

from .. import jit as jitmod
from . import loop, routine_modules, translate

MODULES = routine_modules()


def _plain_functions() -> dict[str, Callable[..., Any]]:
    """The loop's routines as plain Python, by name, calling each other as plain Python.

    Built over copies of the modules' namespaces, so they stay plain after
    :func:`pdp6.jit.compile_modules` has put numba dispatchers in the modules.
    """
    namespaces = {m.__name__: dict(vars(m)) for m in MODULES}
    plain: dict[int, types.FunctionType] = {}
    for m in MODULES:
        for obj in vars(m).values():
            f = getattr(obj, "py_func", obj)
            if isinstance(f, types.FunctionType) and f.__module__ in namespaces:
                ns = namespaces[f.__module__]
                plain.setdefault(
                    id(obj), types.FunctionType(f.__code__, ns, f.__name__, f.__defaults__)
                )
    for ns in namespaces.values():
        for name, obj in list(ns.items()):
            if id(obj) in plain:
                ns[name] = plain[id(obj)]
    return {
        name: f
        for ns in namespaces.values()
        for name, f in ns.items()
        if isinstance(f, types.FunctionType)
    }


def compiled() -> Callable[..., int]:
    """``loop.run`` compiled by numba (the routines are compiled on their first call, or
    loaded from numba's cache)."""
    jitmod.compile_modules(MODULES)
    return loop.run


ENGINES: tuple[str, ...] = ("compiled", "python") if jitmod.ENABLED else ("python",)
if jitmod.ENABLED and importlib.util.find_spec("llvmlite") is not None:
    ENGINES += ("native",)  # hot blocks as machine code (pdp6.cpu.native)
NUMPY_ENGINES = ("compiled", "native")  # the engines that run over numpy arrays
# 'interpreter' is loop.run as plain Python, instruction by instruction: the reference
# the translating 'python' engine is tested against.
ALL_ENGINES = (*ENGINES, "interpreter")
_plain: dict[str, Callable[..., Any]] = {}


def plain() -> dict[str, Callable[..., Any]]:
    """The loop's routines as plain Python by name (``run``, ``pi_latch`` ...): the
    interpreter, the translator's fallback, and the dry runs of ``pdp6.host.memrefs``."""
    if not _plain:
        _plain.update(_plain_functions())
    return _plain


def make_runner(engine: str) -> Callable[..., int]:
    """A ``run`` function with ``loop.run``'s arguments, for one machine."""
    if engine not in ALL_ENGINES:
        raise ValueError(
            f"unknown or unavailable engine {engine!r}; this process has {', '.join(ENGINES)}"
        )
    if engine == "compiled":
        return compiled()
    if engine == "interpreter":
        return plain()["run"]
    if engine == "native":
        from .native import NativeEngine

        return NativeEngine()
    return translate.BlockEngine(plain())
