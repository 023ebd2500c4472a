"""The translator's Python blocks compiled to machine code through LLVM (llvmlite).

:mod:`pdp6.cpu.translate` turns hot PDP-6 code into Python functions written in the
loop's own small subset (integers, the state arrays, ``if``/``while``/``for range``).
This module compiles exactly that subset to LLVM IR, one function per routine, so the
``native`` engine (:mod:`pdp6.cpu.native`) can run a block as machine code.  numba could
compile the same text, but takes one to three seconds a block where LLVM alone takes a
few hundredths; and here the arrays can be declared not to overlap (``noalias``), which
lets LLVM keep the emulated time and flags in registers across stores to core.

Every value is a 64-bit integer, as under numba (the loop's routines are written to stay
within it); ``//`` and ``%`` floor as in Python, shifts by 64 or more give what Python
gives, and a negative index counts from the array's end, as numpy's does.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from llvmlite import ir

I64 = ir.IntType(64)
I1 = ir.IntType(1)
PTR = I64.as_pointer()


class Unsupported(Exception):
    """A construct outside the subset (the block then stays with the other engines)."""


def _zero(value: ir.Value, builder: ir.IRBuilder) -> ir.Value:
    return builder.icmp_signed("!=", value, ir.Constant(I64, 0))


class FunctionCompiler:
    """One routine (a ``def`` of the subset) as one LLVM function."""

    COMPARE = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==",
               ast.NotEq: "!="}  # fmt: skip
    # Operators that are one LLVM instruction (by the IRBuilder method's name).
    PLAIN = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.BitAnd: "and_",
             ast.BitOr: "or_", ast.BitXor: "xor"}  # fmt: skip

    def __init__(self, node: ast.FunctionDef, fn: ir.Function, arrays: dict[str, int],
                 consts: dict[str, int], functions: dict[str, ir.Function]) -> None:  # fmt: skip
        self.node = node
        self.fn = fn
        self.lengths = arrays  # array parameter name -> its length
        self.consts = consts
        self.functions = functions
        self.arrays: dict[str, ir.Value] = {}
        self.locals: dict[str, ir.Value] = {}
        self.counters: dict[int, ir.Value] = {}  # each for loop's counter
        self.tuples: dict[str, ir.Value] = {}  # names that hold several results
        self.loops: list[tuple[ir.Block, ir.Block]] = []  # (continue, break) targets
        entry = fn.append_basic_block("entry")
        self.b = ir.IRBuilder(entry)

    # --- the function ---------------------------------------------------------------
    def compile(self) -> None:
        b = self.b
        names = {t.id for n in ast.walk(self.node) for t in _targets(n)}
        for arg, param in zip(self.node.args.args, self.fn.args, strict=True):
            if arg.arg in self.lengths:
                self.arrays[arg.arg] = param
            else:
                names.add(arg.arg)
        for node in ast.walk(self.node):  # a name that holds a routine's several results
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name)
                and node.value.func.id in self.functions
            ):
                ret = self.functions[node.value.func.id].function_type.return_type
                if isinstance(ret, ir.LiteralStructType):
                    self.tuples[node.targets[0].id] = b.alloca(ret, name=node.targets[0].id)
        for name in sorted(names - self.arrays.keys() - self.tuples.keys()):
            self.locals[name] = b.alloca(I64, name=name)
        for node in ast.walk(self.node):  # (all in the entry block, where LLVM wants them)
            if isinstance(node, ast.For):
                self.counters[id(node)] = b.alloca(I64, name="range")
        for arg, param in zip(self.node.args.args, self.fn.args, strict=True):
            if arg.arg not in self.arrays:
                b.store(param, self.locals[arg.arg])
        self.body(self.node.body)
        if not b.block.is_terminated:
            ret = self.fn.function_type.return_type
            if ret == ir.VoidType():
                b.ret_void()
            else:
                b.ret(ir.Constant(ret, None))

    def body(self, stmts: list[ast.stmt]) -> None:
        for stmt in stmts:
            if self.b.block.is_terminated:
                return  # code after a return, break or continue
            self.stmt(stmt)

    # --- statements -------------------------------------------------------------------
    def stmt(self, s: ast.stmt) -> None:
        b = self.b
        if isinstance(s, ast.Assign):
            if len(s.targets) != 1:
                raise Unsupported("chained assignment")
            target = s.targets[0]
            if isinstance(target, ast.Tuple):
                value = self.results(s.value)
                for i, elt in enumerate(target.elts):
                    self.store(elt, b.extract_value(value, i))
            elif isinstance(target, ast.Name) and target.id in self.tuples:
                b.store(self.results(s.value), self.tuples[target.id])
            else:
                self.store(target, self.expr(s.value))
        elif isinstance(s, ast.AugAssign):
            load = ast.copy_location(_as_load(s.target), s)
            self.store(s.target, self.binop(s.op, self.expr(load), self.expr(s.value)))
        elif isinstance(s, ast.If):
            then = self.fn.append_basic_block("then")
            other = self.fn.append_basic_block("else")
            after = self.fn.append_basic_block("endif")
            b.cbranch(self.test(s.test), then, other)
            for block, stmts in ((then, s.body), (other, s.orelse)):
                b.position_at_end(block)
                self.body(stmts)
                if not b.block.is_terminated:
                    b.branch(after)
            b.position_at_end(after)
        elif isinstance(s, ast.While):
            if s.orelse:
                raise Unsupported("while ... else")
            head = self.fn.append_basic_block("while")
            loop = self.fn.append_basic_block("do")
            after = self.fn.append_basic_block("done")
            b.branch(head)
            b.position_at_end(head)
            b.cbranch(self.test(s.test), loop, after)
            self.loop_body(s.body, loop, head, after)
        elif isinstance(s, ast.For):
            self.for_range(s)
        elif isinstance(s, ast.Return):
            if s.value is None:
                b.ret_void()
            elif isinstance(s.value, ast.Tuple):
                ret = self.fn.function_type.return_type
                value = ir.Constant(ret, None)
                for i, elt in enumerate(s.value.elts):
                    value = b.insert_value(value, self.expr(elt), i)
                b.ret(value)
            else:
                b.ret(self.expr(s.value))
        elif isinstance(s, ast.Break):
            b.branch(self.loops[-1][1])
        elif isinstance(s, ast.Continue):
            b.branch(self.loops[-1][0])
        elif isinstance(s, ast.Pass):
            pass
        elif isinstance(s, ast.Expr) and isinstance(s.value, ast.Call):
            self.call(s.value)
        else:
            raise Unsupported(f"statement {type(s).__name__}")

    def loop_body(self, stmts: list[ast.stmt], loop: ir.Block, again: ir.Block,
                  after: ir.Block) -> None:  # fmt: skip
        b = self.b
        b.position_at_end(loop)
        self.loops.append((again, after))
        self.body(stmts)
        self.loops.pop()
        if not b.block.is_terminated:
            b.branch(again)
        b.position_at_end(after)

    def for_range(self, s: ast.For) -> None:
        call = s.iter
        if (
            s.orelse
            or not isinstance(s.target, ast.Name)
            or not isinstance(call, ast.Call)
            or not isinstance(call.func, ast.Name)
            or call.func.id != "range"
            or not 1 <= len(call.args) <= 3
        ):
            raise Unsupported("for other than over range(...)")
        step_by = 1
        if len(call.args) == 3:
            step_node = call.args[2]
            if isinstance(step_node, ast.UnaryOp) and isinstance(step_node.op, ast.USub):
                step_node = ast.Constant(-getattr(step_node.operand, "value", 0))
            value = getattr(step_node, "value", None)
            if not isinstance(step_node, ast.Constant) or not isinstance(value, int) or not value:
                raise Unsupported("range with a step other than a constant")
            step_by = value
        b = self.b
        bounds = [self.expr(a) for a in call.args[:2]]
        start, stop = ([ir.Constant(I64, 0)] + bounds)[-2:]
        counter = self.counters[id(s)]
        b.store(start, counter)
        head = self.fn.append_basic_block("for")
        loop = self.fn.append_basic_block("for_body")
        step = self.fn.append_basic_block("for_next")
        after = self.fn.append_basic_block("for_done")
        b.branch(head)
        b.position_at_end(head)
        i = b.load(counter)
        b.cbranch(b.icmp_signed("<" if step_by > 0 else ">", i, stop), loop, after)
        b.position_at_end(loop)
        b.store(i, self.locals[s.target.id])
        self.loop_body(s.body, loop, step, after)
        b.position_at_end(step)
        b.store(b.add(b.load(counter), ir.Constant(I64, step_by)), counter)
        b.branch(head)
        b.position_at_end(after)

    def results(self, node: ast.expr) -> ir.Value:
        """A routine's several results: from its call, or from a name that holds them."""
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Name) and node.id in self.tuples:
            return self.b.load(self.tuples[node.id])
        raise Unsupported("several results from other than a call")

    def store(self, target: ast.expr, value: ir.Value) -> None:
        if isinstance(target, ast.Name):
            self.b.store(value, self.locals[target.id])
        elif isinstance(target, ast.Subscript):
            self.b.store(value, self.element(target))
        else:
            raise Unsupported(f"assignment to {type(target).__name__}")

    def element(self, node: ast.Subscript) -> ir.Value:
        if not isinstance(node.value, ast.Name) or node.value.id not in self.arrays:
            raise Unsupported("indexing other than a state array")
        name = node.value.id
        b = self.b
        index = self.expr(node.slice)
        if not (isinstance(index, ir.Constant) and index.constant >= 0):
            wrapped = b.add(index, ir.Constant(I64, self.lengths[name]))
            index = b.select(b.icmp_signed("<", index, ir.Constant(I64, 0)), wrapped, index)
        return b.gep(self.arrays[name], [index], inbounds=True)

    def test(self, node: ast.expr) -> ir.Value:
        return _zero(self.expr(node), self.b)

    # --- expressions ------------------------------------------------------------------
    def expr(self, node: ast.expr) -> ir.Value:
        b = self.b
        if isinstance(node, ast.Constant):
            value = node.value
            if not isinstance(value, int):  # (bool is an int)
                raise Unsupported(f"constant {value!r}")
            return ir.Constant(I64, int(value))
        if isinstance(node, ast.Name):
            if node.id in self.locals:
                return b.load(self.locals[node.id])
            if node.id in self.consts:
                return ir.Constant(I64, self.consts[node.id])
            if node.id in ("True", "False"):
                return ir.Constant(I64, int(node.id == "True"))
            raise Unsupported(f"name {node.id}")
        if isinstance(node, ast.Subscript):
            return b.load(self.element(node))
        if isinstance(node, ast.BinOp):
            return self.binop(node.op, self.expr(node.left), self.expr(node.right))
        if isinstance(node, ast.UnaryOp):
            v = self.expr(node.operand)
            if isinstance(node.op, ast.USub):
                return b.sub(ir.Constant(I64, 0), v)
            if isinstance(node.op, ast.Invert):
                return b.xor(v, ir.Constant(I64, -1))
            if isinstance(node.op, ast.Not):
                return b.zext(b.icmp_signed("==", v, ir.Constant(I64, 0)), I64)
            if isinstance(node.op, ast.UAdd):
                return v
        if isinstance(node, ast.BoolOp):
            return self.boolop(node)
        if isinstance(node, ast.Compare):
            return self.compare(node)
        if isinstance(node, ast.IfExp):
            return self.branches(node.test, lambda: self.expr(node.body),
                                 lambda: self.expr(node.orelse))  # fmt: skip
        if isinstance(node, ast.Call):
            return self.call(node)
        raise Unsupported(f"expression {type(node).__name__}")

    def binop(self, op: ast.operator, x: ir.Value, y: ir.Value) -> ir.Value:
        b = self.b
        zero = ir.Constant(I64, 0)
        plain = self.PLAIN.get(type(op))  # (wrapping at 64 bits, as numba's)
        if plain is not None:
            return getattr(b, plain)(x, y)
        if isinstance(op, ast.LShift | ast.RShift):
            big = b.icmp_unsigned(">", y, ir.Constant(I64, 63))
            n = b.select(big, ir.Constant(I64, 63), y)
            if isinstance(op, ast.RShift):
                return b.ashr(x, n)  # (by 63: 0 or -1, as Python's by any larger count)
            return b.select(big, zero, b.shl(x, n))
        if isinstance(op, ast.FloorDiv | ast.Mod):
            # Python floors; LLVM truncates.  (Division by zero: 0, never reached.)
            one = ir.Constant(I64, 1)
            safe = b.select(b.icmp_signed("==", y, zero), one, y)
            q, r = b.sdiv(x, safe), b.srem(x, safe)
            adjust = b.and_(b.icmp_signed("!=", r, zero),
                            b.icmp_signed("!=", b.icmp_signed("<", r, zero),
                                          b.icmp_signed("<", safe, zero)))  # fmt: skip
            if isinstance(op, ast.FloorDiv):
                return b.select(adjust, b.sub(q, one), q)
            return b.select(adjust, b.add(r, safe), r)
        raise Unsupported(f"operator {type(op).__name__}")

    def branches(self, test: ast.expr | ir.Value, yes: Callable[[], ir.Value],
                 no: Callable[[], ir.Value]) -> ir.Value:  # fmt: skip
        """``yes()`` if ``test`` else ``no()``, each computed only on its own path."""
        b = self.b
        cond = test if isinstance(test, ir.Value) else self.test(test)
        first = self.fn.append_basic_block("yes")
        second = self.fn.append_basic_block("no")
        after = self.fn.append_basic_block("join")
        b.cbranch(cond, first, second)
        values = []
        for block, make in ((first, yes), (second, no)):
            b.position_at_end(block)
            values.append((make(), b.block))
            b.branch(after)
        b.position_at_end(after)
        phi = b.phi(I64)
        for value, block in values:
            phi.add_incoming(value, block)
        return phi

    def boolop(self, node: ast.BoolOp) -> ir.Value:
        """``a and b`` / ``a or b`` as Python: the deciding operand's value, the rest
        not evaluated."""
        first, *rest = node.values
        value = self.expr(first)
        if not rest:
            return value
        remaining = ast.BoolOp(op=node.op, values=rest)
        truth = _zero(value, self.b)
        if isinstance(node.op, ast.And):
            return self.branches(truth, lambda: self.boolop(remaining), lambda: value)
        return self.branches(truth, lambda: value, lambda: self.boolop(remaining))

    def compare(self, node: ast.Compare) -> ir.Value:
        left = self.expr(node.left)
        return self._chain(left, list(zip(node.ops, node.comparators, strict=True)))

    def _chain(self, left: ir.Value, rest: list[tuple[ast.cmpop, ast.expr]]) -> ir.Value:
        op, right_node = rest[0]
        kind = self.COMPARE.get(type(op))
        if kind is None:
            raise Unsupported(f"comparison {type(op).__name__}")
        right = self.expr(right_node)
        ok = self.b.icmp_signed(kind, left, right)
        if len(rest) == 1:
            return self.b.zext(ok, I64)
        return self.branches(ok, lambda: self._chain(right, rest[1:]),
                             lambda: ir.Constant(I64, 0))  # fmt: skip

    def call(self, node: ast.Call) -> ir.Value:
        b = self.b
        if not isinstance(node.func, ast.Name) or node.keywords:
            raise Unsupported("a call other than of a routine by its name")
        fname = node.func.id
        if fname in self.functions:
            fn = self.functions[fname]
            args = [self.arrays[a.id] if isinstance(a, ast.Name) and a.id in self.arrays
                    else self.expr(a) for a in node.args]  # fmt: skip
            return b.call(fn, args)
        args = [self.expr(a) for a in node.args]
        if fname in ("min", "max") and len(args) >= 2:
            kind = "<" if fname == "min" else ">"
            value = args[0]
            for other in args[1:]:
                value = b.select(b.icmp_signed(kind, other, value), other, value)
            return value
        if fname == "abs" and len(args) == 1:
            neg = b.icmp_signed("<", args[0], ir.Constant(I64, 0))
            return b.select(neg, b.sub(ir.Constant(I64, 0), args[0]), args[0])
        if fname == "int" and len(args) == 1:
            return args[0]
        if fname == "bool" and len(args) == 1:
            return b.zext(_zero(args[0], b), I64)
        raise Unsupported(f"call of {fname}")


def _targets(node: ast.AST) -> list[ast.Name]:
    """The names a statement assigns (its locals)."""
    if isinstance(node, ast.Assign):
        out = []
        for t in node.targets:
            out += [t] if isinstance(t, ast.Name) else [e for e in getattr(t, "elts", ())
                                                         if isinstance(e, ast.Name)]  # fmt: skip
        return out
    if isinstance(node, ast.AugAssign | ast.For) and isinstance(node.target, ast.Name):
        return [node.target]
    return []


def _as_load(target: ast.expr) -> ast.expr:
    if isinstance(target, ast.Name):
        return ast.Name(id=target.id, ctx=ast.Load())
    if isinstance(target, ast.Subscript):
        return ast.Subscript(value=target.value, slice=target.slice, ctx=ast.Load())
    raise Unsupported(f"augmented assignment to {type(target).__name__}")


def _return_type(node: ast.FunctionDef) -> ir.Type:
    widths = {len(r.value.elts) if isinstance(r.value, ast.Tuple) else 1 if r.value else 0
              for r in ast.walk(node) if isinstance(r, ast.Return)}  # fmt: skip
    if len(widths) > 1:
        raise Unsupported(f"{node.name} returns results of different shapes")
    width = widths.pop() if widths else 0
    if width == 0:
        return ir.VoidType()
    return I64 if width == 1 else ir.LiteralStructType([I64] * width)


def compile_module(source: str, arrays: dict[str, int], consts: dict[str, int],
                   name: str, prefix: str = "") -> ir.Module:  # fmt: skip
    """The routines of ``source`` (a module of ``def`` s) as one LLVM module.

    ``arrays``: the array parameters by name, with their lengths; ``consts``: the other
    global names.  The routines keep their names, after ``prefix``; all are internal
    but ``prefix + name``, the entry point.
    """
    tree = ast.parse(source)
    module = ir.Module(name=name)
    functions: dict[str, ir.Function] = {}
    defs = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            raise Unsupported(f"module-level {type(node).__name__}")
        params = [PTR if a.arg in arrays else I64 for a in node.args.args]
        fn = ir.Function(module, ir.FunctionType(_return_type(node), params), prefix + node.name)
        if node.name != name:
            fn.linkage = "internal"
        for arg, param in zip(node.args.args, fn.args, strict=True):
            param.name = arg.arg
            if arg.arg in arrays:
                param.add_attribute("noalias")
        functions[node.name] = fn
        defs.append((node, fn))
    if name not in functions:
        raise Unsupported(f"no routine {name}")
    for node, fn in defs:
        FunctionCompiler(node, fn, arrays, consts, functions).compile()
    return module


# How a native block's entry (:func:`add_entry`) answers the loop
# (:mod:`pdp6.cpu.nativeloop`): the budget left and the next PC, ``left << 18 | pc``, with
# ``CHECK_AGAIN`` when the loop must look at the machine; when core no longer holds a
# block's words, ``-1 - (left << 18 | pc)`` with that block's own start.
CHECK_AGAIN = 1 << 62
LEFT = (1 << 44) - 1  # the budget's field, once shifted down past the PC
RH = 0o777777
# The entries' last argument: the machine's block tables (their addresses), where a block
# looks for the next, and the PC flags blocks must not set now (access.blocks_quiet).
C_BIDX, C_BP, C_BINFO, C_ADDRS, C_DANGER = range(5)
C_SIZE = 5
# The loop's table of blocks (binfo), a row a block: its most instructions along a path,
# most emulated ns but for the last instruction, and the PC flags it may set.
B_COUNT, B_BOUND, B_FLAGS, B_WIDTH = 0, 1, 2, 3


def add_entry(module: ir.Module, body: str, entry: str, start: int,
              words: list[tuple[int, int]], st: dict[str, int], recheck: int) -> None:  # fmt: skip
    """Add ``entry(mem, st, io, ioq, left, ctx)``: ``body``'s function (of ``mem, st, io,
    ioq, left``), entered only while core (``mem``) still holds ``words`` (address, word)
    -- the block's own code -- else answering at once that the block at ``start`` has
    changed.  The comparisons are
    with constants, in the block's own machine code.

    After the body the entry goes straight on to the block at the next PC, if there is
    one that the loop itself would enter there (none at a breakpoint; the budget, the
    time to the next event and the flags it may set allowing it), as a tail call: so the
    blocks chain without a return to the loop and a call through one shared place, whose
    branch the host's predictor rarely guessed (the calls averaged 4.4 PDP-6 instructions
    in Mac Hack's search).  ``st``: the state vector's TIME, EVENT and BOUNDARY indexes;
    ``recheck``: the flag in the body's result that says the loop must look at the
    machine (:data:`pdp6.cpu.translate.RECHECK`).
    """
    inner = module.get_global(body)
    inner.linkage = "internal"
    fnty = ir.FunctionType(I64, [*inner.function_type.args, PTR])
    fn = ir.Function(module, fnty, entry)
    for src, param in zip(inner.args, fn.args, strict=False):
        param.name = src.name
    fn.args[-1].name = "ctx"
    for param in fn.args:
        if isinstance(param.type, ir.PointerType):
            param.add_attribute("noalias")
    mem, st_arr, _, _, left, ctx = fn.args
    b = ir.IRBuilder(fn.append_basic_block("check"))
    changed = fn.append_basic_block("changed")
    for address, word in words:
        value = b.load(b.gep(mem, [ir.Constant(I64, address)], inbounds=True))
        same = fn.append_basic_block("same")
        b.cbranch(b.icmp_signed("==", value, ir.Constant(I64, word)), same, changed)
        b.position_at_end(same)

    def const(v: int) -> ir.Constant:
        return ir.Constant(I64, v)

    def at(array: ir.Value, index: ir.Value | int) -> ir.Value:
        return b.gep(array, [const(index) if isinstance(index, int) else index], inbounds=True)

    r = b.call(inner, list(fn.args[:-1]))
    b.store(b.load(at(st_arr, st["TIME"])), at(st_arr, st["BOUNDARY"]))
    pc = b.and_(r, const(RH))
    rem = b.sub(left, b.and_(b.lshr(r, const(18)), const((recheck - 1) >> 18)))
    out = b.or_(b.shl(rem, const(18)), pc)
    done = fn.append_basic_block("done")
    again = fn.append_basic_block("again")
    b.cbranch(b.icmp_signed("!=", b.and_(r, const(recheck)), const(0)), again, done)
    with b.goto_block(again):
        b.ret(b.or_(out, const(CHECK_AGAIN)))
    b.position_at_end(done)
    stay = fn.append_basic_block("stay")
    with b.goto_block(stay):
        b.ret(out)

    def unless(test: ir.Value) -> None:
        go = fn.append_basic_block("on")
        b.cbranch(test, stay, go)
        b.position_at_end(go)

    def table(slot: int, kind: ir.Type = PTR) -> ir.Value:
        return b.inttoptr(b.load(at(ctx, slot)), kind)

    unless(b.icmp_signed("<=", rem, const(0)))
    k = b.load(at(table(C_BIDX), pc))
    unless(b.icmp_signed("<", k, const(0)))
    bp = b.load(b.gep(table(C_BP, ir.IntType(8).as_pointer()), [pc], inbounds=True))
    unless(b.icmp_unsigned("!=", bp, ir.Constant(ir.IntType(8), 0)))
    binfo = table(C_BINFO)
    row = b.mul(k, const(B_WIDTH))
    unless(b.icmp_signed(">", b.load(at(binfo, b.add(row, const(B_COUNT)))), rem))
    time = b.load(at(st_arr, st["TIME"]))
    bound = b.load(at(binfo, b.add(row, const(B_BOUND))))
    unless(b.icmp_signed(">=", b.add(time, bound), b.load(at(st_arr, st["EVENT"]))))
    flags = b.load(at(binfo, b.add(row, const(B_FLAGS))))
    unless(b.icmp_signed("!=", b.and_(flags, b.load(at(ctx, C_DANGER))), const(0)))
    following = b.inttoptr(b.load(at(table(C_ADDRS), k)), fnty.as_pointer())
    args = [*fn.args[:-2], rem, ctx]
    b.ret(b.call(following, args, tail="musttail"))
    b.position_at_end(changed)
    b.ret(b.sub(const(-1), b.or_(b.shl(left, const(18)), const(start))))
