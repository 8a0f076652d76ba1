"""Compiled hand evaluation for the kernels, over the scalar evaluator's own tables.

``standard_key`` is ``pokerzoo.envs.engine.hands.standard.key_of`` for 5, 6 or
7 natural cards, computed from the tables that ``standard.keys_batch`` uses
(``standard.batch_tables``: one code per card whose sum gives the rank
multiset and the suit counts, a dense table from the multiset to the key,
and the flush table by rank bits), so the kernels and the scalar games rank
hands from the same data. Keys are the scalar keys (category in the bits
above ``TIEBREAK_BITS``, tie-break nibbles below) and compare the same way.

``caribbean_category`` is the index in ``CaribbeanSystem.categories`` (the
standard order with Ace-King between high card and pair).

Rank systems with wild cards, six-card categories or five suits get their
own compiled evaluators beside this one, checked the same way: against the
scalar ``evaluate`` on every hand class (tests/envs/batched/test_hands.py).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.engine.hands import standard
from pokerzoo.envs.engine.hands.systems import CaribbeanSystem
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS


class StandardTables(NamedTuple):
    code: np.ndarray  # int64[69]: per card, base rank key above 12 bits of 3-bit suit counters
    rank_table: np.ndarray  # uint32[...]: key of the best non-flush hand, by rank-key sum
    flush_suit: np.ndarray  # int8[4096]: the suit holding five or more cards, by suit counters, or -1
    flush_table: np.ndarray  # int64[8192]: key of a flush, by the rank bits held in its suit


def standard_tables(size: int) -> StandardTables:
    """The tables for hands of exactly ``size`` cards (5, 6 or 7)."""
    code, table = standard.batch_tables(size)
    return StandardTables(code, table, standard._FLUSH_SUIT_ARR, standard._FLUSH_TABLE)


_SUIT_SHIFT = np.int64(standard._SUIT_SHIFT)
_SUIT_FIELDS = np.int64((1 << standard._SUIT_SHIFT) - 1)
_CATEGORY_SHIFT = np.int64(TIEBREAK_BITS)
ACE_KING_MIN = np.int64(CaribbeanSystem.ACE_KING_MIN)


@kernel(inline=True)
def standard_key(tables, cards, n):
    """Key of the best five of ``cards[:n]`` (``n`` = the tables' size; distinct natural cards).

    ``tables`` is any NamedTuple with ``StandardTables``' fields, usually the
    game's params (numba's parallel loops take no tuple nested in a tuple).
    """
    s = np.int64(0)
    for k in range(n):
        s += tables.code[cards[k]]
    suit = tables.flush_suit[s & _SUIT_FIELDS]
    if suit < 0:
        return np.int64(tables.rank_table[s >> _SUIT_SHIFT])
    bits = 0
    for k in range(n):
        c = cards[k]
        if c // 13 == suit:
            bits |= 1 << (c % 13)
    return tables.flush_table[bits]


@kernel
def category(key):
    """The standard category index of a key (``standard.CATEGORIES``)."""
    return key >> _CATEGORY_SHIFT


@kernel
def caribbean_category(key):
    """Index in ``CaribbeanSystem.categories``: high card 0, Ace-King 1, then pair 2 .. royal flush 10."""
    c = key >> _CATEGORY_SHIFT
    if c == 0:
        return 1 if key >= ACE_KING_MIN else 0
    return c + 1
