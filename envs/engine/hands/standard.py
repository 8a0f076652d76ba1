"""Standard poker ranking (best five of five to seven cards) with fast per-call and batch paths.

The hot loops of the library (Caribbean stud's exact-EV enumeration, equity
simulations, showdowns in millions of random games) all evaluate plain
52-card hands, so this path is table driven:

* per call, each card maps to one int holding a base-5 rank digit and a 3-bit
  suit counter; summing the cards gives the rank multiset and the suit counts
  at once, and a memoised dict turns the multiset into the hand key;
* in batch, the same idea with per-hand-size "rank keys" whose sums are
  unique for every multiset of that size (the SKPokerEval construction), so
  the multiset indexes a dense numpy table: a gather, a sum and a lookup.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from pokerzoo.envs.engine.cards import RANK_OF, SUIT_OF
from pokerzoo.envs.engine.hands.value import pack

CATEGORIES = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
)
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, ROYAL_FLUSH = range(10)
# The categories of games with wild cards or a fifth suit, where five of a kind exists: it ranks
# above a straight flush (Breed the Heifer, whose top straight flush is its royal) and below a
# separate royal flush (Perico, Mexican poker).
WITH_FIVE_OF_A_KIND = (*CATEGORIES[:-1], "five_of_a_kind")
WITH_FIVE_OF_A_KIND_AND_ROYAL = (*WITH_FIVE_OF_A_KIND, "royal_flush")

ACE = 12
WHEEL_MASK = (1 << ACE) | 0b1111


def straight_top(bits: int) -> int:
    """Top rank of the highest five-card straight in a rank bitmask, or -1 (A-2-3-4-5 tops at 5)."""
    for top in range(ACE, 3, -1):
        window = 0b11111 << (top - 4)
        if bits & window == window:
            return top
    if bits & WHEEL_MASK == WHEEL_MASK:
        return 3
    return -1


STRAIGHT_TOP = [straight_top(b) for b in range(1 << 13)]


def _desc_ranks(bits: int) -> list[int]:
    return [r for r in range(ACE, -1, -1) if bits >> r & 1]


def nonflush_key(counts: Sequence[int]) -> int:
    """Best five-card key from a rank multiset (13 counts) when no flush is possible."""
    present = [r for r in range(ACE, -1, -1) if counts[r]]
    quads = [r for r in present if counts[r] >= 4]
    if quads:
        q = quads[0]
        kick = [r for r in present if r != q][:1]
        return pack(QUADS, [q + 1, *(k + 1 for k in kick)])
    trips = [r for r in present if counts[r] >= 3]
    pairs = [r for r in present if counts[r] >= 2]
    if trips:
        t = trips[0]
        rest = [r for r in pairs if r != t]
        if rest:
            return pack(FULL_HOUSE, [t + 1, rest[0] + 1])
    bits = sum(1 << r for r in present)
    top = STRAIGHT_TOP[bits]
    if top >= 0:
        return pack(STRAIGHT, [top + 1])
    if trips:
        t = trips[0]
        return pack(TRIPS, [t + 1, *(k + 1 for k in [r for r in present if r != t][:2])])
    if len(pairs) >= 2:
        hi, lo = pairs[0], pairs[1]
        kick = [r for r in present if r not in (hi, lo)][:1]
        return pack(TWO_PAIR, [hi + 1, lo + 1, *(k + 1 for k in kick)])
    if pairs:
        p = pairs[0]
        return pack(PAIR, [p + 1, *(k + 1 for k in [r for r in present if r != p][:3])])
    return pack(HIGH_CARD, [r + 1 for r in present[:5]])


def flush_key(bits: int) -> int:
    """Best key from the ranks held in one suit (at least five of them)."""
    top = STRAIGHT_TOP[bits]
    if top == ACE:
        return pack(ROYAL_FLUSH, [ACE + 1])
    if top >= 0:
        return pack(STRAIGHT_FLUSH, [top + 1])
    return pack(FLUSH, [r + 1 for r in _desc_ranks(bits)[:5]])


def category_of(key: int) -> str:
    return CATEGORIES[key >> 28]


# ---------------------------------------------------------------- per call
# Card code: base-5 rank digit above 12 bits of suit counters (3 bits per suit).
_SUIT_SHIFT = 12
_CODE: list[int | None] = [None] * 69
for _c in range(52):
    _CODE[_c] = (5 ** int(RANK_OF[_c]) << _SUIT_SHIFT) | (1 << 3 * int(SUIT_OF[_c]))
_FLUSH_SUIT: list[int] = []
for _s in range(1 << 12):
    _fields = [(_s >> 3 * k) & 7 for k in range(4)]
    _FLUSH_SUIT.append(next((k for k, n in enumerate(_fields) if n >= 5), -1))
_FIVE_OF_A_SUIT = frozenset(5 << 3 * k for k in range(4))

_NONFLUSH: dict[int, int] = {}  # base-5 rank multiset -> key, filled on first sight
_FLUSH5: dict[int, int] = {}  # base-5 rank set of a five-card flush -> key
_FLUSH_BITS: dict[int, int] = {}


def _counts_from_base5(code: int) -> list[int]:
    counts = []
    for _ in range(13):
        code, d = divmod(code, 5)
        counts.append(d)
    return counts


def _nonflush_miss(code: int) -> int:
    key = _NONFLUSH[code] = nonflush_key(_counts_from_base5(code))
    return key


def _flush5_miss(code: int) -> int:
    bits = sum(1 << r for r, n in enumerate(_counts_from_base5(code)) if n)
    key = _FLUSH5[code] = flush_key(bits)
    return key


def _code_error(cards: Sequence[int]) -> ValueError:
    bad = [c for c in cards if not (isinstance(c, int | np.integer) and 0 <= c < 52)]
    return ValueError(f"the standard evaluator takes natural cards with ids 0..51; got {bad}")


def key5(a: int, b: int, c: int, d: int, e: int) -> int:
    """Key of exactly five cards; the fastest path, used by the per-call benchmark."""
    code = _CODE
    try:
        s = code[a] + code[b] + code[c] + code[d] + code[e]  # type: ignore[operator]
    except (TypeError, IndexError):
        raise _code_error([a, b, c, d, e]) from None
    if s & 0xFFF in _FIVE_OF_A_SUIT:
        key = _FLUSH5.get(s >> _SUIT_SHIFT)
        return key if key is not None else _flush5_miss(s >> _SUIT_SHIFT)
    key = _NONFLUSH.get(s >> _SUIT_SHIFT)
    return key if key is not None else _nonflush_miss(s >> _SUIT_SHIFT)


def key_of(cards: Sequence[int]) -> int:
    """Key of the best five of 5..7 natural cards."""
    n = len(cards)
    if n == 5:
        return key5(*cards)
    if not 5 <= n <= 7:
        raise ValueError(f"standard ranking evaluates 5 to 7 cards, got {n}")
    code = _CODE
    try:
        s = sum(code[c] for c in cards)  # type: ignore[misc]
    except (TypeError, IndexError):
        raise _code_error(cards) from None
    if len(set(cards)) != n:
        raise ValueError(f"duplicate card in {list(cards)}")
    fs = _FLUSH_SUIT[s & 0xFFF]
    if fs < 0:
        key = _NONFLUSH.get(s >> _SUIT_SHIFT)
        return key if key is not None else _nonflush_miss(s >> _SUIT_SHIFT)
    bits = 0
    for c in cards:
        if c // 13 == fs:
            bits |= 1 << (c % 13)
    key = _FLUSH_BITS.get(bits)
    if key is None:
        key = _FLUSH_BITS[bits] = flush_key(bits)
    return key


# ---------------------------------------------------------------- batch
# Rank keys whose sums are unique over every rank multiset of the given size
# (counts <= 4). Size 7 uses SKPokerEval's published keys; 5 and 6 were found
# by the same greedy search (smallest next key keeping all sums distinct) and
# give much smaller tables. tests/engine/test_hands_standard.py re-checks uniqueness.
RANK_KEYS = {
    5: (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415),
    6: (0, 1, 5, 22, 98, 422, 1734, 5760, 14270, 37951, 90838, 206930, 436437),
    7: (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181),
}
_BATCH_TABLES: dict[int, tuple[np.ndarray, np.ndarray]] = {}
_SUIT_BITS = np.array([1 << 3 * s for s in range(4)], dtype=np.int64)
_FLUSH_SUIT_ARR = np.array(_FLUSH_SUIT, dtype=np.int8)
_FLUSH_TABLE = np.zeros(1 << 13, dtype=np.int64)
for _b in range(1 << 13):
    if _b.bit_count() >= 5:
        _FLUSH_TABLE[_b] = flush_key(_b)


def rank_multisets(size: int):
    """Every multiset of ``size`` ranks with at most four of a rank, as 13 counts."""
    for combo in itertools.combinations_with_replacement(range(13), size):
        counts = [0] * 13
        for r in combo:
            counts[r] += 1
        if max(counts) <= 4:
            yield counts


def batch_tables(size: int) -> tuple[np.ndarray, np.ndarray]:
    """(card code per id, key per rank-key sum) for hands of ``size`` cards, built once."""
    if size in _BATCH_TABLES:
        return _BATCH_TABLES[size]
    if size not in RANK_KEYS:
        raise ValueError(f"batch standard ranking takes 5, 6 or 7 cards per hand, got {size}")
    rk = np.array(RANK_KEYS[size], dtype=np.int64)
    entries = [(int(np.dot(counts, rk)), nonflush_key(counts)) for counts in rank_multisets(size)]
    sums, keys = np.array(entries, dtype=np.int64).T
    table = np.zeros(int(sums.max()) + 1, dtype=np.uint32)  # keys fit 32 bits: category < 16
    table[sums] = keys
    code = np.full(69, -1, dtype=np.int64)
    for c in range(52):
        code[c] = (rk[RANK_OF[c]] << _SUIT_SHIFT) | _SUIT_BITS[SUIT_OF[c]]
    _BATCH_TABLES[size] = (code, table)
    return code, table


def keys_batch(cards: np.ndarray) -> np.ndarray:
    """Keys for an (N, k) array of card ids, k in 5..7; rows must hold distinct natural cards."""
    cards = np.asarray(cards)
    if cards.ndim != 2:
        raise ValueError(f"batch evaluation takes an (N, k) array of card ids, got shape {cards.shape}")
    if cards.size and (cards.min() < 0 or cards.max() > 51):
        raise ValueError("the standard evaluator takes natural cards with ids 0..51")
    code, table = batch_tables(cards.shape[1])
    s = code[cards].sum(axis=1)
    keys = table[s >> _SUIT_SHIFT].astype(np.int64)
    fsuit = _FLUSH_SUIT_ARR[s & 0xFFF]
    rows = np.flatnonzero(fsuit >= 0)
    if rows.size:
        sub = cards[rows]
        in_suit = SUIT_OF[sub] == fsuit[rows, None]
        bits = np.where(in_suit, np.left_shift(1, RANK_OF[sub].astype(np.int64)), 0).sum(axis=1)
        keys[rows] = _FLUSH_TABLE[bits]
    return keys
