"""Perico's hand evaluation compiled for the batched kernel and the batched heuristic: ``perico`` and ``perico6``.

Both rank systems give keys that depend only on a hand's *class*: the
multiset of its natural ranks, its joker count and whether all its naturals
share a suit (``ranking``'s memo relies on the same fact). So the compiled
evaluator is one table lookup: ``class_keys`` holds, for every class of the
variant, the key the scalar ranker (``ranking.ranker_for``) gives a
representative hand of it, and a hand's class index is computed from its
cards in a few operations:

* the natural ranks, sorted ``r_0 <= r_1 <= ...`` (a Perico hand is kept
  sorted: rank, then suit, jokers last), are a combination with repetition,
  whose index in the combinatorial number system is
  ``sum_i C(r_i + i, i + 1)`` (``binom``), dense over the
  ``C(12 + k, k)`` multisets of ``k`` naturals;
* ``class_offset[jokers]`` starts the block of hands with that many jokers;
  within it entry ``2 * index + one_suit`` holds the key.

Hands that are not sorted (the heuristic's Monte Carlo deals) find the same
entry without sorting, from the sum of per-card codes (``card_code``): a
base-5 count of the ranks 2..8 and of 9..A, the number of low naturals, the
jokers and four suit counters, each in its own bit field. The index splits
at the low/high boundary: the low ranks sort first, so their part of the sum
depends on the low ranks only (``low_index``) and the high ranks' part on the
high ranks and how many low ones precede them (``high_index``).

Every class the deck allows is filled from the scalar ranker; entries no hand
can reach (five of a rank, a suited class with a repeated rank) hold -1.
``tests/envs/perico/test_batched.py`` checks the lookup against the scalar
evaluator on every hand class of both variants and on random hands.
"""

from __future__ import annotations

import itertools
from math import comb
from typing import NamedTuple

import numpy as np

from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.engine.cards import JOKERS, NUM_CARD_IDS, RANK_OF, SUIT_OF
from pokerzoo.envs.perico.enumeration import rank_multisets
from pokerzoo.envs.perico.ranking import SORT_KEY, ranker_for

FIRST_JOKER = JOKERS[0]  # ids of jokers are FIRST_JOKER and up
MAX_JOKERS = len(JOKERS)


class PericoTables(NamedTuple):
    """The evaluator's constants (spliced field by field into the kernels' params)."""

    sort_key: np.ndarray  # int64[69]: ``ranking.SORT_KEY`` (rank, then suit; jokers last)
    card_rank: np.ndarray  # int64[69]: rank 0..12 of a natural, -1 for a joker
    card_suit: np.ndarray  # int64[69]: suit 0..3 of a natural, -1 for a joker
    binom: np.ndarray  # int64[19, 8]: C(n, k)
    class_offset: np.ndarray  # int64[H + 1]: start of the block of hands with j jokers
    class_keys: np.ndarray  # int64[...]: key by class (module docstring), -1 where no hand is
    card_code: np.ndarray  # int64[69]: the additive code of each card (``code_entry``)
    low_index: np.ndarray  # int32[5**7]: the low ranks' part of the multiset index, by their base-5 count
    high_index: np.ndarray  # int32[7, 5**6]: the high ranks' part, by low naturals and the high base-5 count
    most_of_a_suit: np.ndarray  # int8[4096]: the largest of four 3-bit suit counters


_TABLES: dict[tuple[bool, bool], PericoTables] = {}

# ``card_code`` bit fields: the low ranks (2..8) and the high ranks (9..A) as base-5 counts, the number of low
# naturals, the jokers, four suit counters
SPLIT = 7  # ranks below are low
LOW_SHIFT, HIGH_SHIFT, LOWS_SHIFT, JOKERS_SHIFT, SUITS_SHIFT = 0, 17, 31, 34, 37
LOW_MASK, HIGH_MASK, COUNT_MASK, SUITS_MASK = (1 << 17) - 1, (1 << 14) - 1, 7, (1 << 12) - 1


def perico_tables(six_card: bool, jokers_in_five_of_a_kind: bool = True) -> PericoTables:
    """The tables of one variant, built once per process from the scalar ranker."""
    k = (bool(six_card), bool(jokers_in_five_of_a_kind))
    tables = _TABLES.get(k)
    if tables is None:
        tables = _TABLES[k] = _build(*k)
    return tables


def multiset_index(ranks: list[int]) -> int:
    """Index of a sorted rank multiset among those of its size (the kernels' ``sorted_key`` formula)."""
    return sum(comb(r + i, i + 1) for i, r in enumerate(ranks))


def _build(six_card: bool, jokers_in_five_of_a_kind: bool) -> PericoTables:
    ranker = ranker_for(six_card, jokers_in_five_of_a_kind)
    h = ranker.hand_size
    binom = np.array([[comb(n, k) for k in range(8)] for n in range(19)], dtype=np.int64)
    offsets, blocks, at = [], [], 0
    for jokers in range(h + 1):
        naturals = h - jokers
        block = np.full(2 * comb(12 + naturals, naturals), -1, dtype=np.int64)
        if jokers <= MAX_JOKERS:
            for counts in rank_multisets(naturals):
                ranks = [r for r in range(13) for _ in range(counts[r])]
                index = multiset_index(ranks)
                distinct = max(counts, default=0) <= 1
                # every natural of one suit: possible with distinct ranks (a lone natural, or none, always is)
                for one_suit in (True, False):
                    if one_suit and not distinct:
                        continue
                    if not one_suit and naturals <= 1:
                        continue
                    cards = _representative(ranks, one_suit) + list(JOKERS[:jokers])
                    block[2 * index + one_suit] = ranker.key(cards)
        offsets.append(at)
        blocks.append(block)
        at += block.size
    card_rank = np.array([RANK_OF[c] if c < FIRST_JOKER else -1 for c in range(NUM_CARD_IDS)], dtype=np.int64)
    card_suit = np.array([SUIT_OF[c] if c < FIRST_JOKER else -1 for c in range(NUM_CARD_IDS)], dtype=np.int64)
    return PericoTables(
        sort_key=np.array(SORT_KEY, dtype=np.int64),
        card_rank=card_rank,
        card_suit=card_suit,
        binom=binom,
        class_offset=np.array(offsets, dtype=np.int64),
        class_keys=np.concatenate(blocks),
        **_code_tables(h),
    )


def _code_tables(hand_size: int) -> dict[str, np.ndarray]:
    """``card_code`` and the split index tables (module docstring) for hands of up to ``hand_size + 1`` cards."""
    code = np.zeros(NUM_CARD_IDS, dtype=np.int64)
    for c in range(NUM_CARD_IDS):
        if c >= FIRST_JOKER:
            code[c] = 1 << JOKERS_SHIFT
        elif c < 52:
            r, s = int(RANK_OF[c]), int(SUIT_OF[c])
            rank_part = 5**r << LOW_SHIFT | 1 << LOWS_SHIFT if r < SPLIT else 5 ** (r - SPLIT) << HIGH_SHIFT
            code[c] = rank_part | 1 << (SUITS_SHIFT + 3 * s)
    low = np.zeros(5**SPLIT, dtype=np.int32)
    high = np.zeros((hand_size + 1, 5 ** (13 - SPLIT)), dtype=np.int32)
    for size in range(hand_size + 1):
        for combo in itertools.combinations_with_replacement(range(SPLIT), size):
            if max(combo.count(r) for r in set(combo) or {0}) <= 4:
                low[sum(5**r for r in combo)] = sum(comb(r + i, i + 1) for i, r in enumerate(combo))
        for combo in itertools.combinations_with_replacement(range(SPLIT, 13), size):
            if combo and max(combo.count(r) for r in set(combo)) > 4:
                continue
            at = sum(5 ** (r - SPLIT) for r in combo)
            for lows in range(hand_size + 1 - size):
                high[lows, at] = sum(comb(r + lows + i, lows + i + 1) for i, r in enumerate(combo))
    most = np.array([max((f >> 3 * s) & 7 for s in range(4)) for f in range(1 << 12)], dtype=np.int8)
    return {"card_code": code, "low_index": low, "high_index": high, "most_of_a_suit": most}


def _representative(ranks: list[int], one_suit: bool) -> list[int]:
    """Natural cards of these (sorted) ranks: all spades when ``one_suit``, else not all of one suit."""
    cards, copies = [], {}
    for r in ranks:
        s = copies.get(r, 0)  # the copies of a rank take suits 0, 1, ...
        copies[r] = s + 1
        cards.append(s * 13 + r)
    if not one_suit and len(cards) >= 2 and all(c < 13 for c in cards):
        cards[-1] += 13  # distinct ranks: one card to hearts
    return cards


# ---------------------------------------------------------------- kernels
@kernel(inline=True)
def class_entry(tables, cards, n, skip):
    """Entry in ``class_keys`` of the hand ``cards[:n]`` without ``cards[skip]`` (-1: none skipped).

    The cards are sorted as Perico keeps hands and are the variant's hand size
    (one more with a ``skip``). ``tables``: any NamedTuple with
    ``PericoTables``' fields (the game's params).
    """
    jokers = 0
    index = 0
    naturals = 0
    suit = -1
    one_suit = 1
    for k in range(n):
        if k == skip:
            continue
        c = cards[k]
        if c >= FIRST_JOKER:
            jokers += 1
            continue
        index += tables.binom[tables.card_rank[c] + naturals, naturals + 1]
        naturals += 1
        s = tables.card_suit[c]
        if suit < 0:
            suit = s
        elif s != suit:
            one_suit = 0
    return tables.class_offset[jokers] + 2 * index + one_suit


@kernel(inline=True)
def code_entry(tables, code, hand_size):
    """Entry in ``class_keys`` of the ``hand_size`` cards whose ``card_code`` values sum to ``code`` (any order)."""
    jokers = (code >> JOKERS_SHIFT) & COUNT_MASK
    naturals = hand_size - jokers
    index = tables.low_index[code & LOW_MASK] + tables.high_index[
        (code >> LOWS_SHIFT) & COUNT_MASK, (code >> HIGH_SHIFT) & HIGH_MASK
    ]
    one_suit = 1 if tables.most_of_a_suit[(code >> SUITS_SHIFT) & SUITS_MASK] == naturals else 0
    return tables.class_offset[jokers] + 2 * index + one_suit


@kernel(inline=True)
def sorted_key(tables, cards, n):
    """Key of the ``n``-card hand ``cards[:n]`` (``n`` the variant's hand size), sorted as Perico keeps hands."""
    return tables.class_keys[class_entry(tables, cards, n, -1)]


@kernel(inline=True)
def insert_sorted(tables, cards, n, card):
    """Insert ``card`` into the sorted ``cards[:n]`` (``cards`` has room for one more): Perico's hand order."""
    key = tables.sort_key[card]
    k = n
    while k > 0 and tables.sort_key[cards[k - 1]] > key:
        cards[k] = cards[k - 1]
        k -= 1
    cards[k] = card


@kernel(inline=True)
def sort_cards(tables, cards, n):
    """Sort ``cards[:n]`` in place into Perico's hand order (``ranking.sort_hand``)."""
    for m in range(1, n):
        insert_sorted(tables, cards, m, cards[m])


@kernel(inline=True)
def has_royal(cards, n, size):
    """``ranking.has_royal(cards[:n], size)``: some ``size`` of the cards make a royal flush, jokers wild."""
    if n < size:
        return False
    low = 13 - size  # ten (five cards) or nine (six cards)
    jokers = 0
    s0 = 0
    s1 = 0
    s2 = 0
    s3 = 0
    for k in range(n):
        c = cards[k]
        if c >= FIRST_JOKER:
            jokers += 1
        elif c % 13 >= low:
            s = c // 13
            if s == 0:
                s0 += 1
            elif s == 1:
                s1 += 1
            elif s == 2:
                s2 += 1
            else:
                s3 += 1
    return max(max(s0, s1), max(s2, s3)) + jokers >= size
