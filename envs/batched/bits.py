"""Bit tricks for card sets held as int64 bit masks (one bit per card slot), compiled to one instruction each.

A trick-taking kernel keeps each hand as a bit mask: removing a card, testing a
suit and counting the cards out are single integer operations. These three
helpers are LLVM's ``cttz``, ``ctlz`` and ``ctpop`` intrinsics, which numba
does not expose; they take a signed 64-bit mask whose top bit is clear (card
slots stay below 63).

* ``lowest_bit(m)``: index of the lowest set bit (``m != 0``);
* ``highest_bit(m)``: index of the highest set bit (``m != 0``);
* ``popcount(m)``: the number of set bits.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from pokerzoo.envs.batched.compile import kernel

_FALSE = ir.Constant(ir.IntType(1), 0)


@intrinsic
def _cttz(typingctx, m):
    if m != types.int64:
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], _FALSE)

    return types.int64(types.int64), codegen


@intrinsic
def _ctlz(typingctx, m):
    if m != types.int64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], _FALSE)

    return types.int64(types.int64), codegen


@intrinsic
def _ctpop(typingctx, m):
    if m != types.int64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@kernel
def lowest_bit(m):
    """Index of the lowest set bit of ``m`` (64 for 0)."""
    return _cttz(m)


@kernel
def highest_bit(m):
    """Index of the highest set bit of ``m`` (-1 for 0)."""
    return 63 - _ctlz(m)


@kernel
def popcount(m):
    return _ctpop(m)
