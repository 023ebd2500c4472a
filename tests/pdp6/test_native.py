"""The native engine: blocks as machine code (:mod:`pdp6.cpu.native`), checked against the
interpreter to the bit, and its compiler (:mod:`pdp6.cpu.llvmgen`) against Python.

The cases the block engines share (code that stores into itself, breakpoints, budgets
and clock events inside a block, interrupts) are ``test_translate``'s, run on both;
here, with every block translated the first time it is reached, what is the native
engine's own: its blocks check their words in their own code, code that keeps rewriting
itself is left to the loop, random loops, and its compiler against Python.
"""

from __future__ import annotations

import ast
import ctypes
import operator
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdp6 import Machine
from pdp6.cpu import native
from pdp6.cpu.engines import ENGINES
from pdp6.host.bench import build_mix

from .test_translate import HALT, START, load, loop_cases, run_loop, state

pytestmark = pytest.mark.skipif("native" not in ENGINES, reason="needs numba and llvmlite")

DATA = 0o2000
I64 = 1 << 64
COMPARE = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
           ast.Eq: operator.eq, ast.NotEq: operator.ne}  # fmt: skip


def both(program: list[int], data: dict[int, int] | None = None,
         acs: dict[int, int] | None = None, **run: Any) -> tuple[Machine, Machine]:  # fmt: skip
    """Run on the native engine (every block translated) and on the interpreter; assert
    identical results."""
    fast = load("native", program, data, acs, at_once=True)
    ref = load("interpreter", program, data, acs)
    a, b = fast.run(**run), ref.run(**run)
    assert state(fast, a) == state(ref, b)
    return fast, ref


from .conftest import ins  # noqa: E402  (after the helpers it completes)


# --- the engine against the interpreter ------------------------------------------------
def test_a_loop_runs_as_one_block_of_machine_code() -> None:
    program = [ins("MOVEI", 1, 0), ins("ADDI", 1, 3), ins("SOJG", 2, START + 1), HALT]
    fast, _ = both(program, acs={2: 10_000}, max_instructions=100_000)
    assert fast.memory[1] == 30_000
    assert {START, START + 1} & fast._run.installed.keys()


def test_the_benchmark_mix_agrees_and_runs_in_blocks() -> None:
    start, words = build_mix(3)
    machines = [Machine(engine=e) for e in ("native", "interpreter")]
    machines[0]._run.translate_at_once()
    for m in machines:
        for a, w in words.items():
            m.memory[a] = w
        m.pc = start
    stops = [m.run(max_instructions=10_000_000) for m in machines]
    assert stops[0] == stops[1] and stops[0].reason == "halt"
    assert state(machines[0]) == state(machines[1])
    assert len(machines[0]._run.installed) >= 5


def test_a_block_whose_words_changed_is_not_run() -> None:
    # The host deposits a new instruction: the block made from the old word checks its
    # words in its own code, and the new word runs.
    fast = load("native", [ins("MOVEI", 1, 5), HALT], at_once=True)
    fast.run(max_instructions=10)
    assert fast.memory[1] == 5 and START in fast._run.installed
    fast.memory[START] = ins("MOVEI", 1, 6)
    fast.pc = START
    fast.run(max_instructions=10)
    assert fast.memory[1] == 6


def test_blocks_go_on_to_the_next_and_the_one_whose_words_changed_is_dropped() -> None:
    # A: MOST-1 ADDIs and a JRST to B, too long to take B in; B: MOVEI 2,5 / HALT.  The
    # two blocks run as a chain.  The host then changes B's first word: A runs (its
    # words are the same) and goes on to B, which finds its word changed.  The run
    # counts what A did, drops B (not A), and runs the new word; B is made again from it.
    b = START + 0o100
    program = [ins("ADDI", 1, 1)] * (native.MOST - 1) + [ins("JRST", 0, b)]
    data = {b: ins("MOVEI", 2, 5), b + 1: HALT}
    fast, ref = both(program, data=data, max_instructions=1000)
    run = fast._run
    first = run.installed[START]
    assert {START, b} <= run.installed.keys() and fast.memory[2] == 5
    for m in (fast, ref):
        m.memory[b] = ins("MOVEI", 2, 6)
        m.memory[1] = 0
        m.pc = START
    assert fast.run(max_instructions=1000) == ref.run(max_instructions=1000)
    assert state(fast) == state(ref) and fast.memory[1:3] == [native.MOST - 1, 6]
    assert run.installed[START] is first and run.changes == {b: 1}
    assert run.installed[b].stretches[0][2][0] == ins("MOVEI", 2, 6)


def test_code_that_keeps_rewriting_itself_is_left_to_the_loop() -> None:
    # AOS L / L: MOVEI 1,0 / SOJG 2,START: the MOVEI's word changes every round, so
    # each new block is good once; after a few the address is left to loop.run.
    program = [ins("AOS", 0, START + 1), ins("MOVEI", 1, 0), ins("SOJG", 2, START), HALT]
    fast, _ = both(program, acs={2: 50}, max_instructions=1000)
    assert fast.memory[1] == 50
    assert any("keeps changing" in why for why in fast._run.refused.values())


def test_a_breakpoint_sets_blocks_aside_and_they_come_back_without_translation() -> None:
    # A session moves its breakpoints every search: the blocks over a new one are set
    # aside (the run stops there), and come back as they were when it goes.  Moving
    # breakpoints never counts as code that keeps changing.
    program = [ins("MOVEI", 1, 0), ins("ADDI", 1, 3), ins("SOJG", 2, START + 1), HALT]
    fast = load("native", program, acs={2: 1_000_000}, at_once=True)
    fast.run(max_instructions=1000)
    run = fast._run
    blocks = dict(run.installed)
    assert blocks and fast.memory[1] > 0
    for _ in range(6):
        fast.breakpoints.add(START + 2)
        stop = fast.run(max_instructions=1000)
        assert stop.reason == "breakpoint" and stop.pc == START + 2
        fast.breakpoints.discard(START + 2)
        before = fast.memory[1]
        fast.run(max_instructions=3000)
        assert fast.memory[1] == before + 4500  # (SOJG and ADDI 1500 times round)
    assert all(run.installed[pc] is block for pc, block in blocks.items())
    assert (run.bidx[list(blocks)] >= 0).all() and not run.suspended and not run.refused


def test_a_new_machine_takes_the_blocks_kept_at_once() -> None:
    # A block another machine made from the same words costs no translation: a new
    # machine takes it the first time it reaches it, not after eight stretches.
    program = [ins("MOVEI", 1, 0o4321), ins("ADDI", 1, 3), ins("SOJG", 2, START + 1), HALT]
    load("native", program, acs={2: 1000}, at_once=True).run(max_instructions=5000)
    fresh = load("native", program, acs={2: 1000})
    fresh.run(max_instructions=3)
    assert START in fresh._run.installed


def test_a_computed_jump_ends_its_path() -> None:
    # POPJ goes where the stack says: the word after it (a counter here, that looks like
    # an instruction) is never taken into the block, so counting leaves the block be.
    sub, pointer = START + 0o100, START + 0o200
    program = [ins("AOS", 0, sub + 2), ins("PUSHJ", 0o17, pointer, i=1),
               ins("SOJG", 2, START), HALT]  # fmt: skip
    data = {pointer: sub, sub: ins("ADDI", 1, 1), sub + 1: ins("POPJ", 0o17, 0),
            sub + 2: ins("MOVEI", 0, 0), 0o17: 0o3000 - 1}  # fmt: skip
    fast, _ = both(program, data=data, acs={2: 500}, max_instructions=5000)
    assert fast.memory[sub + 2] == ins("MOVEI", 0, 500)
    block = fast._run.installed[sub]
    assert fast._run._inside(block) == [sub, sub + 1]
    assert not fast._run.refused


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**loop_cases(body=12, budget=3000, until_us=40_000.0))
def test_random_loops_agree(body, acs, data, clock, budget, until_us) -> None:
    args = (body, acs, data, clock, budget, until_us)
    assert run_loop("native", *args) == run_loop("interpreter", *args)


# --- the compiler against Python -------------------------------------------------------
def _wrap(v: int) -> int:
    return (v + (1 << 63)) % I64 - (1 << 63)


class Reference(ast.NodeVisitor):
    """Python's value of an expression of the subset, each result kept to 64 bits as the
    machine code keeps it (the loop's routines never rely on more)."""

    def __init__(self, names: dict[str, int]) -> None:
        self.names = names

    def value(self, node: ast.AST) -> int:
        if isinstance(node, ast.Constant):
            return int(node.value)
        if isinstance(node, ast.Name):
            return self.names[node.id]
        if isinstance(node, ast.BinOp):
            a, b = self.value(node.left), self.value(node.right)
            op = type(node.op)
            ops = {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b, ast.BitAnd: a & b,
                   ast.BitOr: a | b, ast.BitXor: a ^ b}  # fmt: skip
            if op in ops:
                return _wrap(ops[op])
            if op is ast.LShift:
                return _wrap(a << b) if b < 128 else 0
            if op is ast.RShift:
                return a >> b
            return _wrap(a // b if op is ast.FloorDiv else a % b)
        if isinstance(node, ast.UnaryOp):
            v = self.value(node.operand)
            op = type(node.op)
            return {ast.USub: _wrap(-v), ast.Invert: ~v, ast.Not: int(not v)}[op]
        if isinstance(node, ast.BoolOp):
            for v in node.values:
                result = self.value(v)
                if bool(result) == isinstance(node.op, ast.Or):
                    return result
            return result
        if isinstance(node, ast.Compare):
            left = self.value(node.left)
            for op, right_node in zip(node.ops, node.comparators, strict=True):
                right = self.value(right_node)
                if not COMPARE[type(op)](left, right):
                    return 0
                left = right
            return 1
        if isinstance(node, ast.IfExp):
            return self.value(node.body if self.value(node.test) else node.orelse)
        if isinstance(node, ast.Call):
            args = [self.value(a) for a in node.args]
            name = node.func.id  # type: ignore[attr-defined]
            return _wrap({"min": min, "max": max}[name](args) if name in ("min", "max")
                         else abs(args[0]))  # fmt: skip
        raise AssertionError(ast.dump(node))


def expressions() -> st.SearchStrategy[str]:
    leaves = st.one_of(
        st.sampled_from(["a", "b", "c"]),
        st.integers(-(1 << 40), 1 << 40).map(str),
        st.sampled_from(["0", "1", "35", "63", "64", "68719476735", "-1"]),
    )

    def grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        binary = st.sampled_from(["+", "-", "*", "&", "|", "^", "<<", ">>", "//", "%"])
        compare = st.sampled_from(["<", "<=", ">", ">=", "==", "!="])
        return st.one_of(
            st.tuples(inner, binary, inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(st.sampled_from(["-", "~", "not "]), inner).map(lambda t: f"({t[0]}{t[1]})"),
            st.tuples(inner, compare, inner, compare, inner).map(
                lambda t: f"({t[0]} {t[1]} {t[2]} {t[3]} {t[4]})"
            ),
            st.tuples(inner, st.sampled_from(["and", "or"]), inner).map(
                lambda t: f"({t[0]} {t[1]} {t[2]})"
            ),
            st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
            st.tuples(st.sampled_from(["min", "max"]), inner, inner).map(
                lambda t: f"{t[0]}({t[1]}, {t[2]})"
            ),
            inner.map(lambda t: f"abs({t})"),
        )

    return st.recursive(leaves, grow, max_leaves=8)


def _compiled(source: str, name: str, arrays: dict[str, int] | None = None) -> Any:
    """``name`` from ``source`` as machine code (through the process's JIT)."""
    from pdp6.cpu import llvmgen, native

    native.driver()
    module = llvmgen.compile_module(source, arrays or {}, {}, name, f"t{id(source)}_")
    assert native._JIT is not None
    with native.LOCK:
        return native._JIT.add(module, f"t{id(source)}_{name}")


def _shifts_are_small(tree: ast.AST, names: dict[str, int]) -> bool:
    """Whether every shift count is 0..1000 and every divisor non-zero (Python raises
    for the others; the loop's routines never shift by a negative count or divide by 0)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.LShift | ast.RShift):
            if not 0 <= Reference(names).value(node.right) <= 1000:
                return False
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv | ast.Mod):
            if Reference(names).value(node.right) == 0:
                return False
    return True


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions(), st.lists(st.integers(-(1 << 62), 1 << 62), min_size=3, max_size=3))
def test_expressions_compute_as_in_python(text: str, values: list[int]) -> None:
    names = dict(zip("abc", values, strict=True))
    tree = ast.parse(text, mode="eval").body
    try:
        ok = _shifts_are_small(tree, names)
    except (ZeroDivisionError, ValueError):
        ok = False
    if not ok:
        return
    expected = _wrap(Reference(names).value(tree))
    address = _compiled(f"def f(a, b, c):\n    return {text}\n", "f")
    f = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64)(address)
    assert f(*values) == expected, text


def test_statements_compute_as_in_python() -> None:
    # Loops with break and continue, a counted loop downwards, a routine returning two
    # results, and indexing from the end of an array.
    source = """
def pair(mem, x):
    return x + 1, mem[x] * 2

def f(mem, st, n):
    total = 0
    i = 0
    while True:
        i += 1
        if i > n:
            break
        if i % 3 == 0:
            continue
        total += i
    for k in range(10, 0, -3):
        total = total * 2 + k
    for k in range(4):
        mem[k] = k * k
    a, b = pair(mem, 3)
    st[-1] = a + b
    mem[-2] += 5
    return total
"""
    address = _compiled(source, "f", {"mem": 8, "st": 4})
    p = ctypes.POINTER(ctypes.c_int64)
    f = ctypes.CFUNCTYPE(ctypes.c_int64, p, p, ctypes.c_int64)(address)
    namespace: dict[str, Any] = {}
    exec(source, namespace)  # noqa: S102
    for n in (0, 1, 7, 20):
        mem, st_ = [0] * 8, [0] * 4
        expected = namespace["f"](mem, st_, n)
        mem_n, st_n = np.zeros(8, dtype=np.int64), np.zeros(4, dtype=np.int64)
        assert f(mem_n.ctypes.data_as(p), st_n.ctypes.data_as(p), n) == expected
        assert mem_n.tolist() == mem and st_n.tolist() == st_
