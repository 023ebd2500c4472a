"""The native engine's execute loop: machine-code blocks where there are some, ``loop.run``
for the rest (compiled by numba with it; imported only by :mod:`pdp6.cpu.native`).

It does in compiled code what :class:`pdp6.cpu.translate.BlockEngine` does in Python:
at an address where a block starts it checks the facts every block relies on
(``access.blocks_quiet``, the budget, the next event) and calls the block's machine
code through its address.  A block goes straight on to the block at its next PC, when
the same facts allow (:func:`pdp6.cpu.llvmgen.add_entry`), and answers with the budget
left and the PC where the chain stopped.  Elsewhere ``loop.run`` runs a stretch that
stops where a block starts (``stops``), and the addresses where stretches start are
counted (``heat``): one that reaches ``hot`` is queued for the engine to translate.
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from . import access, dis340, loop
from .llvmgen import B_BOUND, B_COUNT, B_FLAGS, C_DANGER, CHECK_AGAIN, LEFT
from .state import (
    COUNT,
    EVENT,
    FIRST,
    IOQ_N,
    PC,
    REASON,
    REASON_BREAK,
    REASON_HOT,
    REASON_IO,
    REASON_LIMIT,
    TIME,
)

RH = 0o777777
STRETCH = 256  # most instructions loop.run runs between looks at the blocks


@intrinsic
def call_block(typingctx: Any, address: Any, mem: Any, st: Any, io: Any, ioq: Any,
               left: Any, ctx: Any) -> Any:  # fmt: skip
    """Call the block whose machine code is at ``address`` with the arrays' data."""
    sig = types.int64(address, mem, st, io, ioq, left, ctx)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        def data(i: int) -> Any:
            return context.make_array(signature.args[i])(context, builder, args[i]).data

        i64 = ir.IntType(64)
        fnty = ir.FunctionType(i64, [i64.as_pointer()] * 4 + [i64, i64.as_pointer()])
        fn = builder.inttoptr(args[0], fnty.as_pointer())
        return builder.call(fn, [data(1), data(2), data(3), data(4), args[5], data(6)])

    return sig, codegen


def run(mem: Any, st: Any, io: Any, ioq: Any, optab: Any, bp: Any, stops: Any, max_n: int,
        bidx: Any, binfo: Any, addrs: Any, heat: Any, hot: int, hotq: Any,
        ctx: Any) -> int:  # fmt: skip
    """Run up to ``max_n`` instructions as ``loop.run`` would, blocks where they may run.

    ``bidx``: each address's block (an index into ``binfo`` and ``addrs``) or -1;
    ``stops``: the breakpoints and every block's start.  An address where ``hot``
    stretches have started is queued in ``hotq[2:]`` (``hotq[0]`` counts them); the run
    ends with REASON_HOT, before the stretch, when the queue is full, and at once with
    ``hotq[1]`` set (an engine that translates at once).  A block whose words in core
    changed is dropped (its address comes back hot, and is translated anew).
    """
    st[REASON] = 0
    left = max_n
    reason = REASON_LIMIT
    first = st[FIRST]
    pc = st[PC]
    while left > 0:
        k = bidx[pc]
        if k >= 0 and (first or not bp[pc]):
            quiet, danger = access.blocks_quiet(st)
            if (
                quiet
                and binfo[k, B_COUNT] <= left
                and st[TIME] + binfo[k, B_BOUND] < st[EVENT]
                and not binfo[k, B_FLAGS] & danger
            ):
                ctx[C_DANGER] = danger
                r = call_block(addrs[k], mem, st, io, ioq, left, ctx)
                if r < 0:  # the code changed under a block: drop it
                    r = -1 - r
                    changed = r & RH
                    bidx[changed] = -1
                    stops[changed] = bp[changed]
                    heat[changed] = 0
                if (r >> 18) & LEFT != left:  # (blocks ran)
                    first = 0
                    left = (r >> 18) & LEFT
                    pc = r & RH
                    if r & CHECK_AGAIN:
                        st[PC] = pc
                        if st[REASON] or st[IOQ_N]:
                            reason = st[REASON] or REASON_IO
                            break
                    continue
        if bp[pc] and not first:
            reason = REASON_BREAK
            break
        if k < 0 and not bp[pc]:  # (no block starts at a breakpoint)
            heat[pc] += 1
            if heat[pc] == hot and hotq[0] < len(hotq) - 2:
                hotq[2 + hotq[0]] = pc
                hotq[0] += 1
                if hotq[1] or hotq[0] == len(hotq) - 2:
                    reason = REASON_HOT
                    break
        # A stretch of loop.run, up to the next block start (stops), a breakpoint, or
        # STRETCH instructions.
        st[PC] = pc
        st[FIRST] = 1
        before = st[COUNT]
        code = loop.run(mem, st, io, ioq, optab, stops, min(left, STRETCH))
        left -= st[COUNT] - before
        st[COUNT] = before
        first = first and st[FIRST]  # (an interrupt that left the PC keeps it)
        pc = st[PC]
        if code == REASON_BREAK and not (bp[pc] and not first):
            continue  # at a block's start
        if code != REASON_LIMIT:
            reason = code
            break
    st[PC] = pc
    st[COUNT] += max_n - left
    st[FIRST] = first
    dis340.dis_settle(io, st)
    return reason
