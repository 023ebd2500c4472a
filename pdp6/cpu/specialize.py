"""Partial evaluation of the execute loop's own source, for the plain-Python engine.

The plain engine does not interpret PDP-6 code one instruction at a time through the
general routines of this package: it specializes those very routines (their Python
source, read with :mod:`ast`) for each instruction word it meets.  With the word fixed,
``op``, ``ac``, the mode and usually ``e`` are constants, so most branches fold away and
the small routines (``read``, ``add_flags``, ``store_result`` ...) are inlined.  What is
left is straight-line Python for that one instruction, which :mod:`pdp6.cpu.translate`
strings into blocks.  The semantics therefore still have one source.

The specializer knows a few facts that hold while a translated block runs (exec mode,
no UUO inhibit, no PI cycle, no fault, PI quiet), given as :class:`Facts`; the block
runner checks them on entry.  Code that would change one of them, or that the
specializer cannot follow, raises :class:`Unsupported`, and that instruction is left
to the general routines.

Residual code is built in SSA style: every assignment outside a loop gets a fresh
name, so a name can stand for a value (constant or variable) without copying.  Emulated
time is added once per exit rather than per memory reference, and constant stores to
the state vector are deferred the same way.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

ALL = -1  # a value whose bits are unknown
_NAMES = itertools.count()  # residual names are unique in the process, across specializers
# ... and "h" in the translator's helper process, so that its code and the engine's own
# never share a name when one block strings both together (pdp6.cpu.helper).
MARK = ""
WORD = (1 << 36) - 1


class Unsupported(Exception):
    """The specializer cannot follow this code; run it through the general routines.

    It says what it met and where: the routine and the line of its source, so that a
    construct the translator cannot follow points at itself (``pdp6 bench --why``).
    """

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.where = ""

    def locate(self, src: Source, node: ast.stmt) -> None:
        """Name the innermost statement it came from (outer ones leave it)."""
        if not self.where:
            code = src.plain.__code__
            line = code.co_firstlineno + node.lineno - 1
            self.where = f"{src.name} ({Path(code.co_filename).name}:{line})"

    def __str__(self) -> str:
        return f"{self.args[0]}, in {self.where}" if self.where else str(self.args[0])


@dataclass
class Source:
    """One routine of the execute loop: its syntax tree and the module it lives in."""

    name: str
    node: ast.FunctionDef
    globals: dict[str, Any]
    plain: Callable[..., Any]

    @property
    def params(self) -> list[str]:
        return [a.arg for a in self.node.args.args]


def load_sources(modules: tuple[ModuleType, ...]) -> dict[str, Source]:
    """Every compiled-loop function of ``modules``, by name, with its parsed source."""
    found: dict[str, Source] = {}
    for module in modules:
        for name, obj in vars(module).items():
            plain = getattr(obj, "py_func", obj)
            if not inspect.isfunction(plain) or plain.__module__ != module.__name__:
                continue
            tree = ast.parse(inspect.getsource(plain).lstrip())
            node = tree.body[0]
            assert isinstance(node, ast.FunctionDef)
            found[name] = Source(name, node, vars(module), plain)
    return found


@dataclass(frozen=True)
class Facts:
    """What the specializer may take as known about the state vector ``st``."""

    constant: dict[int, int]  # slots with a known, unchangeable value
    flags_slot: int
    flags_zero: int  # bits of the flags slot known to be zero (USER)
    time_slot: int
    deferred: frozenset[int]  # slots whose constant stores may wait until an exit
    free: frozenset[int]  # slots a block may store to and go on
    alarm: frozenset[int]  # free slots whose store must end the block (APR conditions)
    quiet: dict[str, Any]  # routines that, in bounded code, return a known value and do nothing


@dataclass
class Effects:
    """What the specialized code of one instruction does besides computing its PC."""

    ends_block: bool = False  # stores state the runner must look at, or is unbounded
    smc: bool = False  # stores to computed addresses (checked against the block)
    check: bool = False  # may need the runner to look again (flagged in `_chk` when so)
    flag_bits: int = 0  # PC-word flags it may set
    const_stores: set[int] = field(default_factory=set)
    reads_state: bool = False  # reads time or a deferred slot, or calls a residual routine
    direct: set[int] = field(default_factory=set)  # slots it stores to at once
    residuals: set[str] = field(default_factory=set)  # residual routines it calls
    why: list[str] = field(default_factory=list)  # why a routine was called, not inlined

    def copy(self) -> Effects:
        return Effects(self.ends_block, self.smc, self.check, self.flag_bits,
                       set(self.const_stores), self.reads_state, set(self.direct),
                       set(self.residuals), list(self.why))  # fmt: skip


class State:
    """What is known on one path: variable bindings and the deferred state stores."""

    __slots__ = ("vars", "time", "spent", "slots", "defer", "core")

    def __init__(
        self,
        vars: dict[str, ast.expr],
        time: int = 0,
        spent: int = 0,
        slots: dict[int, int] | None = None,
        defer: bool = True,
        core: dict[int, ast.expr] | None = None,
    ) -> None:
        self.vars = vars
        self.time = time  # emulated ns not yet added to st[TIME]
        self.spent = spent  # most ns this path can have added since the start
        self.slots = slots if slots is not None else {}
        self.defer = defer
        self.core = core if core is not None else {}  # known words at constant addresses

    def copy(self) -> State:
        return State(
            dict(self.vars), self.time, self.spent, dict(self.slots), self.defer, dict(self.core)
        )


@dataclass
class Frame:
    """One function being specialized: inlined into its caller, or as a residual def."""

    source: Source
    inline: bool
    returns: list[tuple[State, list[ast.stmt], ast.expr | None]] = field(default_factory=list)
    pinned: dict[str, str] = field(default_factory=dict)  # loop variables -> fixed names
    loops: list[str] = field(default_factory=list)  # 'kept' or 'unrolled', innermost last


def const(value: Any) -> ast.Constant:
    return ast.Constant(value=value)


def is_const(e: ast.expr) -> bool:
    return isinstance(e, ast.Constant)


def name(ident: str) -> ast.Name:
    return ast.Name(id=ident, ctx=ast.Load())


def Assign(**fields: Any) -> ast.Assign:  # noqa: N802 - stands in for ast.Assign
    """An assignment node with a line number (ast.unparse looks for type comments by it)."""
    return ast.Assign(**fields, lineno=1)


def assign(ident: str, value: ast.expr) -> ast.Assign:
    return Assign(targets=[ast.Name(id=ident, ctx=ast.Store())], value=value)


def _simple(e: ast.expr) -> bool:
    return isinstance(e, ast.Constant | ast.Name)


def _pure(e: ast.expr, loads: bool = False) -> bool:
    """No calls and (unless ``loads``) no subscripts: reordering it changes nothing."""
    if isinstance(e, ast.Constant | ast.Name):
        return True
    if isinstance(e, ast.BinOp):
        return _pure(e.left, loads) and _pure(e.right, loads)
    if isinstance(e, ast.UnaryOp):
        return _pure(e.operand, loads)
    if isinstance(e, ast.Compare):
        return _pure(e.left, loads) and all(_pure(c, loads) for c in e.comparators)
    if isinstance(e, ast.BoolOp):
        return all(_pure(v, loads) for v in e.values)
    if isinstance(e, ast.IfExp):
        return _pure(e.test, loads) and _pure(e.body, loads) and _pure(e.orelse, loads)
    if isinstance(e, ast.Tuple):
        return all(_pure(v, loads) for v in e.elts)
    if isinstance(e, ast.Subscript):
        return loads and _pure(e.value, loads) and _pure(e.slice, loads)
    return False


def same(x: ast.expr, y: ast.expr) -> bool:
    """Whether two residual values are certainly equal (names and constants only)."""
    if isinstance(x, ast.Name) and isinstance(y, ast.Name):
        return x.id == y.id
    if isinstance(x, ast.Constant) and isinstance(y, ast.Constant):
        return type(x.value) is type(y.value) and x.value == y.value
    return False


def _has(nodes: list[ast.stmt], kind: type, skip_loops: bool) -> bool:
    """Whether a statement of ``kind`` occurs (outside nested loops if ``skip_loops``)."""
    for n in nodes:
        if isinstance(n, kind):
            return True
        if isinstance(n, ast.If) and (
            _has(n.body, kind, skip_loops) or _has(n.orelse, kind, skip_loops)
        ):
            return True
        if isinstance(n, ast.While | ast.For) and not skip_loops and _has(n.body, kind, False):
            return True
    return False


def _assigned(nodes: list[ast.stmt]) -> set[str]:
    out: set[str] = set()
    for n in nodes:
        for sub in ast.walk(n):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                out.add(sub.id)
    return out


_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
    ast.LShift: lambda a, b: a << b,
    ast.RShift: lambda a, b: a >> b,
    ast.BitAnd: lambda a, b: a & b,
    ast.BitOr: lambda a, b: a | b,
    ast.BitXor: lambda a, b: a ^ b,
}
_CMPOPS: dict[type, Callable[[Any, Any], bool]] = {
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
}
_UNOPS: dict[type, Callable[[Any], Any]] = {
    ast.USub: lambda a: -a,
    ast.Invert: lambda a: ~a,
    ast.Not: lambda a: not a,
    ast.UAdd: lambda a: +a,
}
_PURE_BUILTINS = {"min": min, "max": max, "abs": abs, "int": int, "bool": bool}


class Specializer:
    """Specializes routines of ``sources`` into residual Python statements.

    ``arrays`` names the array parameters of the root routine as they appear in the
    residual code (``mem``, ``st`` ...); ``st`` is the state vector the facts are about.
    """

    def __init__(
        self,
        sources: dict[str, Source],
        facts: Facts,
        arrays: frozenset[str] = frozenset({"mem", "st", "io", "ioq"}),
        state_array: str = "st",
    ) -> None:
        self.sources = sources
        self.facts = facts
        self.arrays = arrays
        self.state_array = state_array
        self.residual_depth = 0
        self.masks: dict[str, int] = {}
        self.choices: dict[str, frozenset[Any]] = {}  # names known to hold one of a few constants
        # residual routines: (routine, constant arguments) -> (name, def, routines it calls)
        self.residuals: dict[tuple[Any, ...], tuple[str, ast.FunctionDef, frozenset[str]]] = {}
        self.effects = Effects()

    # --- names --------------------------------------------------------------------
    def fresh(self, base: str) -> str:
        return f"{base}_{MARK}{next(_NAMES)}"

    def note_choices(self, target: str, values: list[ast.expr]) -> None:
        """Remember that ``target`` holds one of ``values`` if each is known."""
        options: set[Any] = set()
        for v in values:
            if is_const(v):
                options.add(v.value)
            elif isinstance(v, ast.Name) and v.id in self.choices:
                options |= self.choices[v.id]
            else:
                return
        self.choices[target] = frozenset(options)

    def mask(self, e: ast.expr) -> int:
        """Bits that may be set in the value of ``e`` (ALL when unknown or negative)."""
        if isinstance(e, ast.Constant):
            v = e.value
            return int(v) if isinstance(v, int) and v >= 0 else ALL
        if isinstance(e, ast.Name):
            return self.masks.get(e.id, ALL)
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.BitOr):
            a, b = self.mask(e.left), self.mask(e.right)
            return ALL if ALL in (a, b) else a | b
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.BitAnd):
            a, b = self.mask(e.left), self.mask(e.right)
            return b if a == ALL else a if b == ALL else a & b
        if isinstance(e, ast.IfExp):
            a, b = self.mask(e.body), self.mask(e.orelse)
            return ALL if ALL in (a, b) else a | b
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.RShift) and is_const(e.right):
            a = self.mask(e.left)
            return ALL if a == ALL else a >> e.right.value
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add | ast.Mult | ast.BitXor):
            a, b = self.mask(e.left), self.mask(e.right)
            if ALL in (a, b):
                return ALL
            if isinstance(e.op, ast.BitXor):
                return a | b
            if isinstance(e.op, ast.Mult) and min(a, b) == 1:
                return max(a, b)  # 0 or 1 times a value
            top = a + b if isinstance(e.op, ast.Add) else a * b
            return (1 << top.bit_length()) - 1  # every value up to the largest sum/product
        if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name) and e.value.id == "mem":
            return WORD  # core holds 36-bit words
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Sub) and is_const(e.left):
            c, b = e.left.value, self.mask(e.right)
            if isinstance(c, int) and b <= c:  # c - x for 0 <= x <= c: within 0 .. c
                return (1 << c.bit_length()) - 1
        return ALL

    def bind(self, st: State, var: str, value: ast.expr, fr: Frame, out: list[ast.stmt]) -> None:
        """``var = value``: constants and names are bound, anything else gets a name."""
        if var in fr.pinned:
            out.append(assign(fr.pinned[var], value))
            st.vars[var] = name(fr.pinned[var])
            return
        if _simple(value):
            st.vars[var] = value
            return
        target = self.fresh(var)
        self.masks[target] = self.mask(value)
        out.append(assign(target, value))
        st.vars[var] = name(target)

    # --- the state vector ---------------------------------------------------------
    def is_state(self, e: ast.expr) -> bool:
        return isinstance(e, ast.Name) and e.id == self.state_array

    def slot_ref(self, slot: int, ctx: ast.expr_context) -> ast.Subscript:
        return ast.Subscript(value=name(self.state_array), slice=const(slot), ctx=ctx)

    def flush(self, st: State, out: list[ast.stmt], time_only: bool = False) -> None:
        """Emit the deferred time and state stores of this path."""
        if st.time:
            out.append(
                ast.AugAssign(
                    target=self.slot_ref(self.facts.time_slot, ast.Store()),
                    op=ast.Add(),
                    value=const(st.time),
                )
            )
            st.time = 0
        if not time_only:
            for slot, v in sorted(st.slots.items()):
                out.append(Assign(targets=[self.slot_ref(slot, ast.Store())], value=const(v)))
            st.slots = {}

    def load_slot(self, st: State, slot: int, out: list[ast.stmt]) -> ast.expr:
        if slot in st.slots:
            return const(st.slots[slot])
        if slot in self.facts.constant:
            return const(self.facts.constant[slot])
        if slot == self.facts.time_slot or slot in self.facts.deferred:
            self.effects.reads_state = True
        if slot == self.facts.time_slot:
            self.flush(st, out, time_only=True)
        return self.slot_ref(slot, ast.Load())

    def note_store(self, slot: int, out: list[ast.stmt]) -> None:
        if slot not in self.facts.free:
            self.effects.ends_block = True
        elif slot in self.facts.alarm and not self.residual_depth:
            self.raise_check(out)

    def raise_check(self, out: list[ast.stmt]) -> None:
        """At run time, leave the block after this instruction and have the runner look."""
        self.effects.check = True
        out.append(assign("_chk", const(1)))

    def note_flags(self, value: ast.expr) -> None:
        m = self.mask(value)
        self.effects.flag_bits |= m if m != ALL else 0o777777

    def store_slot(self, st: State, slot: int, value: ast.expr, out: list[ast.stmt]) -> None:
        f = self.facts
        if slot in f.constant:
            if is_const(value) and value.value == f.constant[slot]:
                return
            raise Unsupported(f"changes state slot {slot}, assumed constant")
        if slot == f.flags_slot:
            if self.mask(value) & f.flags_zero:
                raise Unsupported("may set a flag assumed clear")
            self.note_flags(value)
        if slot in f.deferred and is_const(value) and st.defer:
            self.note_store(slot, out)
            st.slots[slot] = value.value
            return
        st.slots.pop(slot, None)
        out.append(Assign(targets=[self.slot_ref(slot, ast.Store())], value=value))
        self.effects.direct.add(slot)
        self.note_store(slot, out)

    def update_slot(
        self,
        st: State,
        slot: int,
        op: ast.operator,
        value: ast.expr,
        out: list[ast.stmt],
        old: ast.expr | None = None,
    ) -> None:
        """``st[slot] op= value``; ``old``, if given, is the slot's value read before."""
        f = self.facts
        if (
            is_const(value)
            and value.value == 0
            and isinstance(op, ast.Add | ast.BitOr | ast.BitXor)
        ):
            return
        if slot == f.time_slot and isinstance(op, ast.Add):
            if not is_const(value):
                # (A shift's time: added now, and its most counted in the block's bound.)
                most = self.mask(value)
                if most == ALL:
                    raise Unsupported("time that depends on data")
                self.flush(st, out, time_only=True)
                out.append(
                    ast.AugAssign(target=self.slot_ref(slot, ast.Store()), op=op, value=value)
                )
                self.effects.ends_block |= not st.defer
                st.spent += most
                return
            if st.defer:
                st.time += value.value
            else:
                self.flush(st, out, time_only=True)
                out.append(
                    ast.AugAssign(target=self.slot_ref(slot, ast.Store()), op=op, value=value)
                )
                self.effects.ends_block = True  # time added in a loop has no bound
            st.spent += value.value
            return
        if slot in f.constant or slot in st.slots:
            before = self.load_slot(st, slot, out) if old is None else old
            self.store_slot(st, slot, self.binop(op, before, value), out)
            return
        if slot == f.flags_slot:
            if isinstance(op, ast.BitOr) and self.mask(value) & f.flags_zero:
                raise Unsupported("may set a flag assumed clear")
            if not isinstance(op, ast.BitOr | ast.BitAnd):
                raise Unsupported("arithmetic on the flags")
            if isinstance(op, ast.BitOr):
                self.note_flags(value)
        if old is None:
            out.append(ast.AugAssign(target=self.slot_ref(slot, ast.Store()), op=op, value=value))
        else:
            new = ast.BinOp(left=old, op=op, right=value)
            out.append(Assign(targets=[self.slot_ref(slot, ast.Store())], value=new))
        self.effects.direct.add(slot)
        self.note_store(slot, out)

    # --- expressions ----------------------------------------------------------------
    def binop(self, op: ast.operator, a: ast.expr, b: ast.expr) -> ast.expr:
        if is_const(a) and is_const(b):
            try:
                return const(_BINOPS[type(op)](a.value, b.value))
            except (KeyError, ArithmeticError) as exc:
                raise Unsupported(f"cannot fold {type(op).__name__}") from exc
        if (
            is_const(b)
            and b.value == 0
            and isinstance(op, ast.Add | ast.Sub | ast.BitOr | ast.BitXor | ast.LShift | ast.RShift)
        ):
            return a
        if is_const(b) and b.value == 0 and isinstance(op, ast.BitAnd | ast.Mult) and _pure(a):
            return const(0)
        if (
            is_const(a)
            and a.value == 0
            and isinstance(op, ast.BitAnd | ast.Mult | ast.LShift | ast.RShift)
            and _pure(b)
        ):
            return const(0)
        if is_const(a) and a.value == 0 and isinstance(op, ast.Add | ast.BitOr | ast.BitXor):
            return b
        if is_const(b) and b.value == 1 and isinstance(op, ast.Mult | ast.FloorDiv):
            return a
        if is_const(a) and a.value == 1 and isinstance(op, ast.Mult):
            return b
        if isinstance(op, ast.BitAnd) and is_const(b) and b.value >= 0:
            m = self.mask(a)
            if m != ALL and m & ~b.value == 0:
                return a  # the mask keeps every bit a can have
        if (
            isinstance(op, ast.BitAnd)
            and is_const(b)
            and isinstance(a, ast.Subscript)
            and self.is_state(a.value)
            and is_const(a.slice)
            and a.slice.value == self.facts.flags_slot
            and b.value & ~self.facts.flags_zero == 0
        ):
            return const(0)  # st[FLAGS] & USER in exec mode
        return ast.BinOp(left=a, op=op, right=b)

    def seq(
        self, nodes: list[ast.expr], st: State, fr: Frame, out: list[ast.stmt]
    ) -> list[ast.expr]:
        """Specialize expressions evaluated left to right; values read before a later
        expression's inlined statements are saved first, so the order of effects holds."""
        done: list[ast.expr] = []
        for n in nodes:
            mark = len(out)
            e = self.expr(n, st, fr, out)
            if len(out) > mark:
                for i, prev in enumerate(done):
                    if not _pure(prev):
                        t = self.fresh("t")
                        out.insert(mark, assign(t, prev))
                        mark += 1
                        done[i] = name(t)
            done.append(e)
        return done

    def lazy(self, node: ast.expr, st: State, fr: Frame) -> ast.expr:
        """An operand evaluated only sometimes (``and``/``or``, ``x if c else y``)."""
        side: list[ast.stmt] = []
        before = (st.time, dict(st.slots), dict(st.core), self.effects.copy())
        e = self.expr(node, st, fr, side)
        if side or before != (st.time, st.slots, st.core, self.effects):
            raise Unsupported("effects under a condition inside an expression")
        return e

    def expr(self, node: ast.expr, st: State, fr: Frame, out: list[ast.stmt]) -> ast.expr:
        if isinstance(node, ast.Constant):
            return node
        if isinstance(node, ast.Name):
            if node.id in st.vars:
                return st.vars[node.id]
            g = fr.source.globals.get(node.id, getattr(builtins, node.id, None))
            if isinstance(g, bool | int):
                return const(g)
            raise Unsupported(f"name {node.id}")
        if isinstance(node, ast.BinOp):
            a, b = self.seq([node.left, node.right], st, fr, out)
            return self.binop(node.op, a, b)
        if isinstance(node, ast.UnaryOp):
            v = self.expr(node.operand, st, fr, out)
            if is_const(v):
                return const(_UNOPS[type(node.op)](v.value))
            return ast.UnaryOp(op=node.op, operand=v)
        if isinstance(node, ast.Compare):
            parts = self.seq([node.left, *node.comparators], st, fr, out)
            if len(parts) == 2 and not is_const(parts[0]) and is_const(parts[1]):
                known = self.range_compare(node.ops[0], parts[0], parts[1].value)
                if known is not None:
                    return const(known)
            if all(is_const(p) for p in parts):
                ok = all(
                    _CMPOPS[type(o)](x.value, y.value)
                    for o, x, y in zip(node.ops, parts, parts[1:], strict=False)
                )
                return const(ok)
            return ast.Compare(left=parts[0], ops=node.ops, comparators=parts[1:])
        if isinstance(node, ast.BoolOp):
            return self.boolop(node, st, fr, out)
        if isinstance(node, ast.IfExp):
            test = self.test(node.test, st, fr, out)
            if is_const(test):
                return self.expr(node.body if test.value else node.orelse, st, fr, out)
            return ast.IfExp(
                test=test, body=self.lazy(node.body, st, fr), orelse=self.lazy(node.orelse, st, fr)
            )
        if isinstance(node, ast.Subscript):
            arr, idx = self.seq([node.value, node.slice], st, fr, out)
            if is_const(arr) and is_const(idx):
                return const(arr.value[idx.value])
            if self.is_state(arr) and is_const(idx):
                return self.load_slot(st, idx.value, out)
            if (
                is_const(idx)
                and isinstance(arr, ast.Name)
                and arr.id == "mem"
                and idx.value in st.core
            ):
                return st.core[idx.value]
            return ast.Subscript(value=arr, slice=idx, ctx=ast.Load())
        if isinstance(node, ast.Tuple):
            return ast.Tuple(elts=self.seq(node.elts, st, fr, out), ctx=ast.Load())
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
            return self.call(node.func.id, node.args, st, fr, out)
        raise Unsupported(f"expression {type(node).__name__}")

    def range_compare(self, op: ast.cmpop, e: ast.expr, c: Any) -> bool | None:
        """Decide ``e op c`` from the bits ``e`` can have (0 <= e <= mask), if possible."""
        m = self.mask(e)
        if m == ALL or not isinstance(c, int):
            return None
        if isinstance(op, ast.Lt | ast.GtE):
            verdict = True if m < c else False if c <= 0 else None
            return None if verdict is None else verdict == isinstance(op, ast.Lt)
        if isinstance(op, ast.LtE | ast.Gt):
            verdict = True if m <= c else False if c < 0 else None
            return None if verdict is None else verdict == isinstance(op, ast.LtE)
        if isinstance(op, ast.Eq | ast.NotEq) and (c < 0 or c > m):
            return isinstance(op, ast.NotEq)
        return None

    def test(self, node: ast.expr, st: State, fr: Frame, out: list[ast.stmt]) -> ast.expr:
        """An expression used only for its truth: ``x and 0`` is simply false."""
        e = self.expr(node, st, fr, out)
        if isinstance(e, ast.BoolOp) and is_const(e.values[-1]) and all(_pure(v) for v in e.values):
            last = bool(e.values[-1].value)
            if last == isinstance(e.op, ast.Or):
                return const(last)
        return e

    def boolop(self, node: ast.BoolOp, st: State, fr: Frame, out: list[ast.stmt]) -> ast.expr:
        is_and = isinstance(node.op, ast.And)
        kept: list[ast.expr] = []
        for i, v in enumerate(node.values):
            e = self.expr(v, st, fr, out) if not kept else self.lazy(v, st, fr)
            last = i == len(node.values) - 1
            if is_const(e):
                decides = (not e.value) if is_and else bool(e.value)
                if decides or last:
                    if not kept:
                        return e
                    kept.append(e)
                    break
                continue  # a constant that passes control on is dropped
            kept.append(e)
        if len(kept) == 1:
            return kept[0]
        return ast.BoolOp(op=node.op, values=kept)

    # --- calls ----------------------------------------------------------------------
    def call(
        self, fname: str, args: list[ast.expr], st: State, fr: Frame, out: list[ast.stmt]
    ) -> ast.expr:
        if fname in st.vars:
            raise Unsupported(f"call through variable {fname}")
        target = fr.source.globals.get(fname)
        plain = getattr(target, "py_func", target)
        src = self.sources.get(getattr(plain, "__name__", "")) if target is not None else None
        values = self.seq(args, st, fr, out)
        if src is not None and src.name in self.facts.quiet and not self.residual_depth:
            if self.effects.check:
                # This instruction may have raised an APR condition or run a routine that
                # saw the clock: the PI sampling here could find an interrupt.
                raise Unsupported(f"{src.name} after a possible interrupt request")
            return const(self.facts.quiet[src.name])
        if src is None:
            if fname not in _PURE_BUILTINS and fname != "range":
                raise Unsupported(f"call of {fname}")
            if fname != "range" and all(is_const(v) for v in values):
                return const(_PURE_BUILTINS[fname](*(v.value for v in values)))
            return ast.Call(func=name(fname), args=values, keywords=[])
        mark, effects, spent = len(out), self.effects.copy(), st.spent
        try:
            return self.inline(src, values, st, out)
        except Unsupported as exc:
            del out[mark:]
            self.effects, st.spent = effects, spent
            self.effects.why.append(f"{src.name} called, not inlined: {exc}")
        return self.residual_call(src, values, st, out)

    def inline(
        self, src: Source, values: list[ast.expr], st: State, out: list[ast.stmt]
    ) -> ast.expr:
        """Specialize ``src`` for ``values`` into ``out``; its result (a name or constant)."""
        if len(values) != len(src.params):
            raise Unsupported(f"{src.name}: wrong number of arguments")
        fr = Frame(src, inline=True)
        inner = State({}, st.time, st.spent, dict(st.slots), st.defer, dict(st.core))
        for param, v in zip(src.params, values, strict=True):
            self.bind(inner, param, v, fr, out)
        # An explicit final return puts every path's result in that path's own code.
        self.block([*src.node.body, ast.Return(value=None)], inner, fr, out)
        return self.merge_returns(fr, st)

    def merge_returns(self, fr: Frame, st: State) -> ast.expr:
        """Join the paths of an inlined routine: one result, one time, one set of slots."""
        rets = fr.returns
        if not rets:
            raise Unsupported(f"{fr.source.name} never returns")
        values = [v if v is not None else const(None) for _, _, v in rets]
        width = len(values[0].elts) if isinstance(values[0], ast.Tuple) else 0
        if any((len(v.elts) if isinstance(v, ast.Tuple) else 0) != width for v in values):
            raise Unsupported("returns of different shapes")
        columns = [[v.elts[i] for v in values] for i in range(width)] if width else [values]
        result: list[ast.expr] = []
        for col in columns:
            if len(rets) == 1 and _simple(col[0]):
                result.append(col[0])
            elif all(is_const(c) for c in col) and len({repr(c.value) for c in col}) == 1:
                result.append(col[0])
            else:
                r = self.fresh("r")
                masks = [self.mask(c) for c in col]
                self.masks[r] = ALL if ALL in masks else _or(masks)
                self.note_choices(r, col)
                for (_, body, _), c in zip(rets, col, strict=True):
                    body.append(assign(r, c))
                result.append(name(r))
        time = min(s.time for s, _, _ in rets)
        common = dict(rets[0][0].slots)
        for s, _, _ in rets[1:]:
            common = {k: v for k, v in common.items() if s.slots.get(k) == v}
        for s, body, _ in rets:
            s.time -= time
            s.slots = {k: v for k, v in s.slots.items() if k not in common}
            self.flush(s, body)
        st.time, st.slots = time, common
        st.spent = max(s.spent for s, _, _ in rets)
        st.core = _common([s.core for s, _, _ in rets])
        return ast.Tuple(elts=result, ctx=ast.Load()) if width else result[0]

    def residual_call(
        self, src: Source, values: list[ast.expr], st: State, out: list[ast.stmt]
    ) -> ast.expr:
        """Call a specialized copy of a routine that could not be inlined (it loops)."""
        key = (src.name, *(
            repr(v.value) if is_const(v)
            else v.id if isinstance(v, ast.Name) and v.id in self.arrays
            else None
            for v in values
        ))  # fmt: skip
        if key not in self.residuals:
            self.residuals[key] = self.specialize_def(src, values)
        fname, _, uses = self.residuals[key]
        self.effects.residuals |= {fname, *uses}
        self.effects.reads_state = True
        self.flush(st, out)
        st.core = {}
        # Its time has no bound and its stores are not checked: when it runs, the block
        # ends after this instruction.
        if self.residual_depth:
            self.effects.ends_block = True
        else:
            self.raise_check(out)
        args = [v for v in values if not is_const(v)]
        return ast.Call(func=name(fname), args=args, keywords=[])

    def specialize_def(
        self, src: Source, values: list[ast.expr]
    ) -> tuple[str, ast.FunctionDef, frozenset[str]]:
        saved = self.effects
        self.effects = Effects()
        self.residual_depth += 1
        try:
            fr = Frame(src, inline=False)
            st = State({}, defer=False)
            params: list[str] = []
            for p, v in zip(src.params, values, strict=True):
                if is_const(v):
                    st.vars[p] = v
                    continue
                local = v.id if isinstance(v, ast.Name) and v.id in self.arrays else self.fresh(p)
                if local in params:
                    raise Unsupported(f"{src.name}: the same array twice")
                params.append(local)
                st.vars[p] = name(local)
            body: list[ast.stmt] = []
            self.block(src.node.body, st, fr, body)
            fname = self.fresh("_" + src.name)
            node = ast.parse(f"def {fname}({', '.join(params)}): pass").body[0]
            assert isinstance(node, ast.FunctionDef)
            _fill(body)
            node.body = body or [ast.Pass()]
            return fname, node, frozenset(self.effects.residuals)
        finally:
            self.residual_depth -= 1
            self.effects = saved

    # --- statements -----------------------------------------------------------------
    def block(
        self, stmts: list[ast.stmt], st: State, fr: Frame, out: list[ast.stmt]
    ) -> State | None:
        """Specialize a statement list; the state where it falls through, or None."""
        for i, node in enumerate(stmts):
            try:
                if isinstance(node, ast.If):
                    test = self.test(node.test, st, fr, out)
                    rest = stmts[i + 1 :]
                    if is_const(test):
                        return self.block(
                            (node.body if test.value else node.orelse) + rest, st, fr, out
                        )
                    body: list[ast.stmt] = []
                    orelse: list[ast.stmt] = []
                    out.append(ast.If(test=test, body=body, orelse=orelse))
                    other = st.copy()
                    if fr.inline and (
                        _has(node.body, ast.Return, True) or _has(node.orelse, ast.Return, True)
                    ):
                        # Returns inside: each branch goes on with the rest of the routine.
                        a = self.block(node.body + rest, st, fr, body)
                        b = self.block(node.orelse + rest, other, fr, orelse)
                        return self.join(a, body, b, orelse)
                    a = self.block(node.body, st, fr, body)
                    b = self.block(node.orelse, other, fr, orelse)
                    joined = self.join(a, body, b, orelse)
                    if joined is None:
                        return None
                    st = joined
                    continue
                if not self.statement(node, st, fr, out):
                    return None
            except Unsupported as exc:
                exc.locate(fr.source, node)
                raise
        return st

    def join(
        self, a: State | None, abody: list[ast.stmt], b: State | None, bbody: list[ast.stmt]
    ) -> State | None:
        """The state after an if whose branches ended in ``a`` and ``b`` (None: no fall-through)."""
        if a is None or b is None:
            return a if b is None else b
        for var in set(a.vars) | set(b.vars):
            x, y = a.vars.get(var), b.vars.get(var)
            if x is None or y is None:
                a.vars.pop(var, None)
                continue
            if same(x, y):
                continue
            m = self.fresh(var)
            mx, my = self.mask(x), self.mask(y)
            self.masks[m] = ALL if ALL in (mx, my) else mx | my
            self.note_choices(m, [x, y])
            abody.append(assign(m, x))
            bbody.append(assign(m, y))
            a.vars[var] = name(m)
        time = min(a.time, b.time)
        a.time -= time
        b.time -= time
        common = {k: v for k, v in a.slots.items() if b.slots.get(k) == v}
        a.slots = {k: v for k, v in a.slots.items() if k not in common}
        b.slots = {k: v for k, v in b.slots.items() if k not in common}
        self.flush(a, abody)
        self.flush(b, bbody)
        a.time, a.slots, a.spent = time, common, max(a.spent, b.spent)
        a.core = _common([a.core, b.core])
        if not abody:
            abody.append(ast.Pass())
        return a

    def statement(self, node: ast.stmt, st: State, fr: Frame, out: list[ast.stmt]) -> bool:
        """Specialize one statement; False if control does not go on past it."""
        if isinstance(node, ast.Expr):
            if not is_const(node.value):
                e = self.expr(node.value, st, fr, out)
                if not _simple(e):
                    out.append(ast.Expr(value=e))
            return True
        if isinstance(node, ast.Pass):
            return True
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            value = self.expr(node.value, st, fr, out)
            self.store(node.targets[0], value, st, fr, out)
            return True
        if isinstance(node, ast.AnnAssign) and node.value is not None:
            self.store(node.target, self.expr(node.value, st, fr, out), st, fr, out)
            return True
        if isinstance(node, ast.AugAssign):
            return self.augassign(node, st, fr, out)
        if isinstance(node, ast.Return):
            value = self.expr(node.value, st, fr, out) if node.value is not None else None
            if fr.inline:
                if value is not None and not isinstance(value, ast.Tuple) and not _simple(value):
                    r = self.fresh("v")
                    self.masks[r] = self.mask(value)
                    out.append(assign(r, value))
                    value = name(r)
                if isinstance(value, ast.Tuple):
                    value = ast.Tuple(
                        elts=[self.materialize(e, out) for e in value.elts], ctx=ast.Load()
                    )
                fr.returns.append((st, out, value))
            else:
                self.flush(st, out)
                out.append(ast.Return(value=value))
            return False
        if isinstance(node, ast.While | ast.For):
            return self.loop(node, st, fr, out)
        if isinstance(node, ast.Break | ast.Continue):
            if not fr.loops or fr.loops[-1] != "kept":
                raise Unsupported("a loop that goes round again")
            out.append(node)
            return False
        raise Unsupported(f"statement {type(node).__name__}")

    def copy(self, e: ast.Name, out: list[ast.stmt]) -> ast.Name:
        t = self.fresh("c")
        self.masks[t] = self.mask(e)
        out.append(assign(t, e))
        return name(t)

    def materialize(self, e: ast.expr, out: list[ast.stmt]) -> ast.expr:
        if _simple(e):
            return e
        r = self.fresh("v")
        self.masks[r] = self.mask(e)
        out.append(assign(r, e))
        return name(r)

    def store(
        self, target: ast.expr, value: ast.expr, st: State, fr: Frame, out: list[ast.stmt]
    ) -> None:
        if isinstance(target, ast.Name):
            self.bind(st, target.id, value, fr, out)
            return
        if isinstance(target, ast.Tuple):
            if isinstance(value, ast.Tuple) and len(value.elts) == len(target.elts):
                parts = [self.materialize(e, out) for e in value.elts]
                if fr.pinned:  # a loop's fixed names: `a, b = b, a` must read both first
                    parts = [self.copy(p, out) if isinstance(p, ast.Name) else p for p in parts]
            else:
                names = [self.fresh("u") for _ in target.elts]
                out.append(
                    Assign(
                        targets=[
                            ast.Tuple(
                                elts=[ast.Name(id=n, ctx=ast.Store()) for n in names],
                                ctx=ast.Store(),
                            )
                        ],
                        value=value,
                    )
                )
                parts = [name(n) for n in names]
            for t, p in zip(target.elts, parts, strict=True):
                self.store(t, p, st, fr, out)
            return
        if isinstance(target, ast.Subscript):
            arr, idx = self.seq([target.value, target.slice], st, fr, out)
            if self.is_state(arr):
                if not is_const(idx):
                    raise Unsupported("state slot chosen by data")
                self.store_slot(st, idx.value, value, out)
                return
            self.store_array(arr, idx, value, st, out)
            return
        raise Unsupported(f"store to {type(target).__name__}")

    def store_array(
        self, arr: ast.expr, idx: ast.expr, value: ast.expr, st: State, out: list[ast.stmt]
    ) -> None:
        if not (isinstance(arr, ast.Name) and arr.id == "mem"):
            self.effects.ends_block = True  # the I/O arrays
        elif is_const(idx):
            if idx.value >= 16:
                self.effects.const_stores.add(idx.value)
            value = self.materialize(value, out)
            st.core[idx.value] = value
        elif self.residual_depth:
            self.effects.ends_block = True
            st.core = {}
        else:
            st.core = {}
            idx = self.materialize(idx, out)
            self.effects.smc = True
            out.append(
                Assign(targets=[ast.Subscript(value=arr, slice=idx, ctx=ast.Store())], value=value)
            )
            # A store into the running block ends it after this instruction.
            test = ast.Compare(
                left=name("_LO"), ops=[ast.LtE(), ast.Lt()], comparators=[idx, name("_HI")]
            )
            out.append(ast.If(test=test, body=[assign("_smc", const(1))], orelse=[]))
            return
        out.append(
            Assign(targets=[ast.Subscript(value=arr, slice=idx, ctx=ast.Store())], value=value)
        )

    def augassign(self, node: ast.AugAssign, st: State, fr: Frame, out: list[ast.stmt]) -> bool:
        t = node.target
        if isinstance(t, ast.Name):
            old = self.expr(t, st, fr, out)
            value = self.expr(node.value, st, fr, out)
            self.bind(st, t.id, self.binop(node.op, old, value), fr, out)
            return True
        if isinstance(t, ast.Subscript):
            # As Python does: the target, then its old value, then the right-hand side.
            arr, idx = self.seq([t.value, t.slice], st, fr, out)
            idx = self.materialize(idx, out)
            mark = len(out)
            if self.is_state(arr) and is_const(idx):
                slot = idx.value
                value = self.expr(node.value, st, fr, out)
                if len(out) == mark:
                    self.update_slot(st, slot, node.op, value, out)
                    return True
                if slot == self.facts.time_slot or slot in st.slots or slot in self.facts.deferred:
                    raise Unsupported("deferred state updated by a routine's result")
                # The right-hand side ran code: read the slot as it was before that code.
                t_old = self.fresh("t")
                out.insert(mark, assign(t_old, self.load_slot(st, slot, [])))
                self.update_slot(st, slot, node.op, value, out, old=name(t_old))
                return True
            old: ast.expr = ast.Subscript(value=arr, slice=idx, ctx=ast.Load())
            if is_const(idx) and isinstance(arr, ast.Name) and arr.id == "mem":
                old = st.core.get(idx.value, old)
            value = self.expr(node.value, st, fr, out)
            if len(out) > mark and not _pure(old):
                t_old = self.fresh("t")
                out.insert(mark, assign(t_old, old))
                old = name(t_old)
            self.store_array(arr, idx, self.binop(node.op, old, value), st, out)
            return True
        raise Unsupported("augmented store")

    def loop(self, node: ast.While | ast.For, st: State, fr: Frame, out: list[ast.stmt]) -> bool:
        if isinstance(node, ast.While) and isinstance(node.test, ast.Constant) and node.test.value:
            if fr.inline:
                # `while True` whose body always leaves: specialize the first time round.
                fr.loops.append("unrolled")
                try:
                    end = self.block(node.body, st, fr, out)
                finally:
                    fr.loops.pop()
                if end is not None:
                    raise Unsupported("a loop that goes round again")
                return False
        if node.orelse:
            raise Unsupported("loop with else")
        if fr.inline and _has(node.body, ast.Return, False):
            raise Unsupported("return inside a loop")
        self.flush(st, out)
        st.core = {}
        saved_defer, saved_pins = st.defer, dict(fr.pinned)
        st.defer = False
        fr.loops.append("kept")
        for var in sorted(_assigned([node])):
            if var in fr.pinned:
                continue  # an enclosing loop's variable keeps its name
            canon = self.fresh(var)
            if var in st.vars:
                out.append(assign(canon, st.vars[var]))
            fr.pinned[var] = canon
            st.vars[var] = name(canon)
        body: list[ast.stmt] = []
        try:
            if isinstance(node, ast.For):
                if not isinstance(node.target, ast.Name):
                    raise Unsupported("for with a tuple target")
                iterable = self.expr(node.iter, st, fr, out)
                end = self.block(node.body, st, fr, body)
                new: ast.stmt = ast.For(
                    lineno=1,
                    target=ast.Name(id=fr.pinned[node.target.id], ctx=ast.Store()),
                    iter=iterable,
                    body=body or [ast.Pass()],
                    orelse=[],
                )
            else:
                side: list[ast.stmt] = []
                test = self.test(node.test, st, fr, side)
                if side:
                    raise Unsupported("a routine called in a loop test")
                if is_const(test) and not test.value:
                    return True
                end = self.block(node.body, st, fr, body)
                new = ast.While(test=test, body=body or [ast.Pass()], orelse=[])
            if end is not None:
                self.flush(end, body)
            out.append(new)
            st.core = {}
        finally:
            st.defer = saved_defer
            fr.pinned = saved_pins
            fr.loops.pop()
        return True


def _or(masks: list[int]) -> int:
    r = 0
    for m in masks:
        r |= m
    return r


def _common(maps: list[dict[int, ast.expr]]) -> dict[int, ast.expr]:
    """The entries all ``maps`` agree on."""
    first, *rest = maps
    return {k: v for k, v in first.items() if all(k in m and same(m[k], v) for m in rest)}


def tidy(body: list[ast.stmt], keep: frozenset[str] = frozenset()) -> list[ast.stmt]:
    """Drop assignments nobody reads and fold ``x = e; y = x`` into ``y = e``.

    ``keep`` names values read by code that is not in ``body``.
    """
    loads: dict[str, int] = dict.fromkeys(keep, 1)
    for node in body:
        count_loads(node, loads, 1)
    while _tidy_list(body, loads):
        pass
    _fill(body)
    return body


def _fill(stmts: list[ast.stmt]) -> None:
    """Give every empty ``if`` or loop body a ``pass``, as Python's grammar wants."""
    for node in stmts:
        if isinstance(node, ast.If | ast.For | ast.While):
            if not node.body:
                node.body = [ast.Pass()]
            _fill(node.body)
            _fill(node.orelse)


def count_loads(node: ast.AST, loads: dict[str, int], delta: int) -> None:
    """Add ``delta`` to ``loads[name]`` for every name ``node`` reads."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Name):
            if isinstance(n.ctx, ast.Load):
                loads[n.id] = loads.get(n.id, 0) + delta
            continue
        for f in n._fields:
            v = getattr(n, f, None)
            if isinstance(v, list):
                stack.extend(x for x in v if isinstance(x, ast.AST))
            elif isinstance(v, ast.AST):
                stack.append(v)


def _tidy_list(stmts: list[ast.stmt], loads: dict[str, int]) -> bool:
    changed = False
    out: list[ast.stmt] = []
    for node in stmts:
        for attr in ("body", "orelse"):
            inner = getattr(node, attr, None)
            if isinstance(inner, list) and inner:
                changed |= _tidy_list(inner, loads)
        if (
            isinstance(node, ast.If)
            and not node.body
            and not node.orelse
            and _pure(node.test, True)
        ):
            count_loads(node.test, loads, -1)
            changed = True
            continue
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            target = node.targets[0].id
            if not loads.get(target) and not target.startswith("_") and _pure(node.value, True):
                count_loads(node.value, loads, -1)
                changed = True
                continue
            prev = out[-1] if out else None
            if (
                isinstance(node.value, ast.Name)
                and loads.get(node.value.id) == 1
                and isinstance(prev, ast.Assign)
                and len(prev.targets) == 1
                and isinstance(prev.targets[0], ast.Name)
                and prev.targets[0].id == node.value.id
            ):
                prev.targets[0].id = target
                changed = True
                continue
        out.append(node)
    if len(out) != len(stmts):
        stmts[:] = out
    return changed
