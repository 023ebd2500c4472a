"""The engines, all from one source: compiled by numba, translated, or interpreted.

'compiled' runs ``loop.run`` compiled by numba over numpy arrays.  'interpreter' runs
the very same function bodies as ordinary Python over lists (list indexing on Python
ints is several times faster than numpy scalar access).  'python' translates PDP-6 code
into Python blocks by specializing those bodies (:mod:`pdp6.cpu.translate`) and falls
back to the interpreter for the rest.  When numba is on, the plain functions are rebuilt
from each compiled function's ``py_func`` with their globals re-pointed at the plain
versions, so all engines exist in one process (for ``pdp6 bench`` and the differential
tests).
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

from .. import jit as jitmod
from . import loop, routine_modules, translate

_MODULES = routine_modules()


def _is_dispatcher(obj: Any) -> bool:
    return hasattr(obj, "py_func") and hasattr(obj, "signatures")


def _plain_functions() -> dict[str, Callable[..., Any]]:
    """The loop's routines as plain Python, by name, calling each other as plain Python."""
    if not jitmod.ENABLED:
        return {name: obj for m in _MODULES for name, obj in vars(m).items() if callable(obj)}
    namespaces = {m.__name__: dict(vars(m)) for m in _MODULES}
    plain: dict[int, types.FunctionType] = {}
    for m in _MODULES:
        for obj in vars(m).values():
            if _is_dispatcher(obj) and id(obj) not in plain:
                f = obj.py_func
                ns = namespaces.get(f.__module__, f.__globals__)
                plain[id(obj)] = types.FunctionType(f.__code__, ns, f.__name__, f.__defaults__)
    for ns in namespaces.values():
        for name, obj in list(ns.items()):
            if _is_dispatcher(obj):
                ns[name] = plain[id(obj)]
    return {
        name: f
        for ns in namespaces.values()
        for name, f in ns.items()
        if isinstance(f, types.FunctionType)
    }


ENGINES = ("compiled", "python") if jitmod.ENABLED else ("python",)
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
        return loop.run
    if engine == "interpreter":
        return plain()["run"]
    return translate.BlockEngine(plain())
