"""The partial evaluator against plain Python, on small routines written for the purpose.

Each routine is specialized with some arguments fixed and the others left as names;
running the residual code must give what calling the routine gives, for any inputs.
"""

from __future__ import annotations

import ast
import inspect
import sys
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from pdp6.cpu import translate
from pdp6.cpu.specialize import Source, Specializer, State, const, load_sources, name


def swap_loop(n: int, a: int, b: int) -> tuple[int, int]:
    i = 0
    while i < n:
        a, b = b, a  # both read before either is written
        a = a + i
        i += 1
    return a, b


def early_returns(x: int, y: int) -> int:
    if x > y:
        return x - y
    if x == 0:
        return -1
    for i in range(3):
        y = y * 2 + i
        if y > 1000:
            break
    return y


def helper(v: int) -> int:
    if v & 1:
        return v * 3 + 1
    return v >> 1


def bump(mem: list[int], x: int) -> int:
    mem[3] = mem[3] * 2 + x
    return helper(x)


def calls_in_order(mem: list[int], x: int) -> int:
    mem[3] += bump(mem, x)  # mem[3] is read before the call changes it, as Python does
    return mem[3] + helper(helper(x)) * mem[4]


def masked(x: int) -> int:
    y = (x & 0o777777) + 5
    if y < 0:  # never: the mask says y >= 0
        return -1
    return (y >> 18) & 1


ROUTINES = (swap_loop, early_returns, helper, bump, calls_in_order, masked)


def specializer() -> Specializer:
    sources = load_sources((sys.modules[__name__],))
    return Specializer(sources, translate.facts(1 << 18), arrays=frozenset({"mem"}))


def run_specialized(func: Any, args: list[int], fixed: list[bool]) -> Any:
    """Specialize ``func`` with the ``fixed`` arguments as constants; run the residual."""
    spec = specializer()
    src: Source = spec.sources[func.__name__]
    values: list[ast.expr] = []
    env: dict[str, Any] = {}
    for k, (a, f) in enumerate(zip(args, fixed, strict=True)):
        if f:
            values.append(const(a))
        else:
            values.append(name(f"arg{k}"))
            env[f"arg{k}"] = a
    code: list[ast.stmt] = []
    result = spec.inline(src, values, State({}), code)
    return run_residual(code, result, env)


def run_residual(code: list[ast.stmt], result: ast.expr, env: dict[str, Any]) -> Any:
    """Execute residual statements in ``env``; the value of ``result`` after them."""
    store = ast.Assign(targets=[ast.Name(id="_result", ctx=ast.Store())], value=result, lineno=1)
    module = ast.fix_missing_locations(ast.Module(body=[*code, store], type_ignores=[]))
    exec(compile(module, "<residual>", "exec"), env)  # noqa: S102
    return env["_result"]


small = st.integers(-50, 50)


@given(
    n=st.integers(0, 12), a=small, b=small, fixed=st.lists(st.booleans(), min_size=3, max_size=3)
)
def test_swap_in_a_loop(n: int, a: int, b: int, fixed: list[bool]) -> None:
    assert run_specialized(swap_loop, [n, a, b], fixed) == swap_loop(n, a, b)


@given(x=small, y=small, fixed=st.lists(st.booleans(), min_size=2, max_size=2))
def test_early_returns_and_break(x: int, y: int, fixed: list[bool]) -> None:
    assert run_specialized(early_returns, [x, y], fixed) == early_returns(x, y)


@given(x=small, m3=small, m4=small)
def test_augmented_store_reads_before_the_call(x: int, m3: int, m4: int) -> None:
    mem = [0] * 8
    mem[3], mem[4] = m3, m4
    spec_mem = list(mem)
    spec = specializer()
    code: list[ast.stmt] = []
    result = spec.inline(spec.sources["calls_in_order"], [name("mem"), name("x")], State({}), code)
    assert run_residual(code, result, {"mem": spec_mem, "x": x}) == calls_in_order(mem, x)
    assert spec_mem == mem


def test_a_range_test_the_mask_decides_folds_away() -> None:
    spec = specializer()
    code: list[ast.stmt] = []
    spec.inline(spec.sources["masked"], [name("x")], State({}), code)
    text = ast.unparse(ast.Module(body=code, type_ignores=[]))
    assert "< 0" not in text and "-1" not in text


def test_every_routine_here_is_specialized() -> None:
    assert {f.__name__ for f in ROUTINES} <= set(specializer().sources)
    assert all(inspect.isfunction(f) for f in ROUTINES)
