"""The ``heifer`` rank system compiled for the batched kernel: ``ranking.HeiferRanker.key`` in numba.

``heifer_key(straight_top, cards, n, wild, double_ace_flush)`` is the key of
``cards[:n]`` (1 to 7 distinct natural cards) with every card of rank ``wild``
wild (-1: nothing wild), bit for bit the key ``ranking.ranker(double_ace_flush)``
gives, so showdowns, the betting order and the observation's hand category
are the scalar game's. It follows ``ranking.py``'s solver step by step
(``nonflush_key``, ``_kickers``, ``flush_key``) over two words instead of
lists, which is also what makes adding cards to a part-known hand cheap
(the equity agent's simulations keep the known cards' words):

* ``counts``: three bits per rank (rank r at bit 3r), the natural cards'
  multiset; the ranks held at least once, twice, three or four times are
  bit masks in the same spread layout, read from those three bits at once;
* ``suits``: 16 bits per suit (suit s, rank r at bit 16s + r), the rank set
  of every suit, for flushes and (their union) straights;

plus the number of wild cards and of cards. ``straight_top`` is
``ranking.STRAIGHT_TOP`` as an array (``straight_table()``). Nothing is
memoised and nothing allocated.

``tests/envs/breed_the_heifer/test_batched.py`` checks it against the scalar
ranker on every (natural rank multiset, wild count) class with 1 to 7 cards,
every suited rank set that makes a flush, and random hands that favour
flushes (10^6 of them in the slow test).
"""

from __future__ import annotations

import numpy as np

from pokerzoo.envs.batched.bits import highest_bit, popcount
from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.breed_the_heifer import ranking
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS

ACE = ranking.ACE
(HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, FIVE_OF_A_KIND) = range(10)
RANK_BITS = np.int64((1 << 13) - 1)
SPREAD_ONES = np.int64(sum(1 << (3 * r) for r in range(13)))  # bit 3r for every rank: "held" in the spread layout
SUIT_SHIFT = 16


def straight_table() -> np.ndarray:
    """int8[5, 8192]: ``ranking.STRAIGHT_TOP`` (wilds, rank mask -> top of the best straight, or -1)."""
    return np.array(ranking.STRAIGHT_TOP, dtype=np.int8)


@kernel(inline=True)
def card_words(card):
    """(counts, suits) words of one natural card."""
    c = np.int64(card)
    r = c % 13
    return np.int64(1) << (3 * r), np.int64(1) << (SUIT_SHIFT * (c // 13) + r)


@kernel(inline=True)
def _rank_of(spread):
    """The highest rank of a non-empty spread mask."""
    return highest_bit(spread) // 3


@kernel(inline=True)
def _count(counts, r):
    return (counts >> (3 * r)) & 7


@kernel(inline=True)
def _at_least(k, ge1, ge2, ge3, ge4):
    """The ranks held at least k times, spread (k <= 0: every rank, as the scalar solver's ``need <= w`` allows)."""
    if k <= 0:
        return SPREAD_ONES
    if k == 1:
        return ge1
    if k == 2:
        return ge2
    if k == 3:
        return ge3
    if k == 4:
        return ge4
    return np.int64(0)


@kernel(inline=True)
def _pack(category, nibbles, used):
    """``value.pack``: the tie-break nibbles (``used`` of them, already in ``nibbles``) left-aligned."""
    return (np.int64(category) << TIEBREAK_BITS) | (nibbles << (4 * (7 - used)))


@kernel(inline=True)
def _kickers(nibbles, used, counts, ge1, available, exclude, k, leftover):
    """``ranking._kickers`` appended to ``nibbles``: (nibbles, used).

    The k best natural cards outside the ranks of the spread mask ``exclude``
    (``available`` of them exist); when they are fewer than k, the leftover
    wilds count as aces and, sorted first, lead the naturals.
    """
    if k <= 0:
        return nibbles, used
    if available < k:
        for _ in range(min(leftover, k - available)):
            nibbles = (nibbles << 4) | (ACE + 1)
            used += 1
        k = available
    rest = ge1 & ~exclude
    while k > 0:
        r = _rank_of(rest)
        rest ^= np.int64(1) << (3 * r)
        for _ in range(min(_count(counts, r), k)):
            nibbles = (nibbles << 4) | (r + 1)
            used += 1
            k -= 1
    return nibbles, used


@kernel(inline=True)
def _book_key(category, book, m, counts, ge1, naturals, size, w):
    """The key of ``book`` cards of the highest rank of ``m`` (wilds completing it) and the best kickers."""
    r = _rank_of(m)
    c = _count(counts, r)
    nib, used = _kickers(r + 1, 1, counts, ge1, naturals - c, np.int64(7) << (3 * r), size - book, w - max(0, book - c))
    return _pack(category, nib, used)


@kernel
def _nonflush_key(straight_top, counts, present, naturals, w, top):
    """``ranking.nonflush_key``: the best key of the categories that ignore suits (``present``: the rank set),
    trying them from ``top`` down (``FIVE_OF_A_KIND``: all of them; a hand's own category when it is known, which
    skips the tests above it)."""
    b0 = counts & SPREAD_ONES
    b1 = (counts >> 1) & SPREAD_ONES
    b2 = (counts >> 2) & SPREAD_ONES
    ge1, ge2, ge3, ge4 = b0 | b1 | b2, b1 | b2, (b0 & b1) | b2, b2  # counts are 0..4
    size = min(5, naturals + w)
    if size == 5 and top >= FIVE_OF_A_KIND:
        m = _at_least(5 - w, ge1, ge2, ge3, ge4)
        if m:
            return _pack(FIVE_OF_A_KIND, _rank_of(m) + 1, 1)
    if size >= 4 and top >= QUADS:
        m = _at_least(4 - w, ge1, ge2, ge3, ge4)
        if m:
            return _book_key(QUADS, 4, m, counts, ge1, naturals, size, w)
    if size == 5 and top >= STRAIGHT:
        threes = _at_least(3 - w, ge1, ge2, ge3, ge4)
        while threes and top >= FULL_HOUSE:
            a = _rank_of(threes)
            threes ^= np.int64(1) << (3 * a)
            rest = w - max(0, 3 - _count(counts, a))
            twos = _at_least(2 - rest, ge1, ge2, ge3, ge4) & ~(np.int64(7) << (3 * a))
            if twos:
                return _pack(FULL_HOUSE, ((a + 1) << 4) | (_rank_of(twos) + 1), 2)
        high = straight_top[w, present]
        if high >= 0:
            return _pack(STRAIGHT, np.int64(high) + 1, 1)
    if size >= 3 and top >= TRIPS:
        m = _at_least(3 - w, ge1, ge2, ge3, ge4)
        if m:
            return _book_key(TRIPS, 3, m, counts, ge1, naturals, size, w)
    if size >= 4 and top >= TWO_PAIR:
        firsts = _at_least(2 - w, ge1, ge2, ge3, ge4)
        while firsts:
            a = _rank_of(firsts)
            firsts ^= np.int64(1) << (3 * a)
            ca = _count(counts, a)
            na = max(0, 2 - ca)
            seconds = _at_least(2 - (w - na), ge1, ge2, ge3, ge4) & ~(np.int64(7) << (3 * a))
            if seconds:
                b = _rank_of(seconds)
                cb = _count(counts, b)
                ex = (np.int64(7) << (3 * a)) | (np.int64(7) << (3 * b))
                nib, used = _kickers(
                    ((a + 1) << 4) | (b + 1), 2, counts, ge1, naturals - ca - cb, ex, size - 4, w - na - max(0, 2 - cb)
                )
                return _pack(TWO_PAIR, nib, used)
    if size >= 2 and top >= PAIR:
        m = _at_least(2 - w, ge1, ge2, ge3, ge4)
        if m:
            return _book_key(PAIR, 2, m, counts, ge1, naturals, size, w)
    nib, used = _kickers(np.int64(0), 0, counts, ge1, naturals, np.int64(0), size, w)
    return _pack(HIGH_CARD, nib, used)


@kernel
def _flush_key(straight_top, bits, w, double_ace_flush):
    """``ranking.flush_key``: the best straight flush or flush of one suit's rank mask and ``w`` wilds."""
    top = straight_top[w, bits]
    if top >= 0:
        return _pack(STRAIGHT_FLUSH, np.int64(top) + 1, 1)
    nib = np.int64(0)
    used = 0
    if double_ace_flush:
        for _ in range(min(w, 5)):
            nib = (nib << 4) | (ACE + 1)
            used += 1
        rest = bits
        while used < 5:
            r = highest_bit(rest)
            rest ^= np.int64(1) << r
            nib = (nib << 4) | (r + 1)
            used += 1
    else:
        left = w
        for r in range(ACE, -1, -1):
            if (bits >> r) & 1:
                nib = (nib << 4) | (r + 1)
                used += 1
            elif left:
                nib = (nib << 4) | (r + 1)
                used += 1
                left -= 1
            if used == 5:
                break
    return _pack(FLUSH, nib, used)


@kernel
def key_of_words(straight_top, counts, suits, w, n, double_ace_flush):
    """The key of a hand given by its words (module docstring): ``w`` wild cards among ``n``."""
    present = (suits | (suits >> SUIT_SHIFT) | (suits >> (2 * SUIT_SHIFT)) | (suits >> (3 * SUIT_SHIFT))) & RANK_BITS
    best = _nonflush_key(straight_top, counts, present, n - w, w, FIVE_OF_A_KIND)
    if n >= 5:
        for s in range(4):
            bits = (suits >> (SUIT_SHIFT * s)) & RANK_BITS
            if bits and popcount(bits) + w >= 5:
                key = _flush_key(straight_top, bits, w, double_ace_flush)
                if key > best:
                    best = key
    return best


@kernel
def key_in_category(straight_top, counts, suits, w, n, double_ace_flush, category):
    """``key_of_words`` of a hand whose category is known (``category_of_words``): only that category's key is
    built. A flush or straight flush is the best of the suits' flush keys (every suit-blind key is of a lower
    category); any other category is ``_nonflush_key``'s from that category down (no flush key reaches it, and
    the tests above it would fail). The equity agent's fast sampler compares hands of equal category by it."""
    if category in (FLUSH, STRAIGHT_FLUSH):
        best = np.int64(-1)
        for s in range(4):
            bits = (suits >> (SUIT_SHIFT * s)) & RANK_BITS
            if bits and popcount(bits) + w >= 5:
                best = max(best, _flush_key(straight_top, bits, w, double_ace_flush))
        return best
    present = (suits | (suits >> SUIT_SHIFT) | (suits >> (2 * SUIT_SHIFT)) | (suits >> (3 * SUIT_SHIFT))) & RANK_BITS
    return _nonflush_key(straight_top, counts, present, n - w, w, category)


@kernel(inline=True)
def add_cards(cards, n, wild, counts, suits, w):
    """The words (counts, suits, wilds) with ``cards[:n]`` added."""
    for k in range(n):
        c = cards[k]
        if np.int64(c) % 13 == wild:
            w += 1
        else:
            dc, ds = card_words(c)
            counts += dc
            suits |= ds
    return counts, suits, w


@kernel
def heifer_key(straight_top, cards, n, wild, double_ace_flush):
    """Key of ``cards[:n]`` (1..7 distinct natural cards) with rank ``wild`` wild (-1: none); see the module doc."""
    counts, suits, w = add_cards(cards, n, wild, np.int64(0), np.int64(0), 0)
    return key_of_words(straight_top, counts, suits, w, n, double_ace_flush)


@kernel(inline=True)
def category_of_words(straight_top, counts, suits, w, n):
    """The category of ``key_of_words(straight_top, counts, suits, w, n, ...)`` (its top bits), without the
    tie-breaks and without branches.

    ``_nonflush_key`` tries the suit-blind categories from the highest down
    and keeps the first it can make, so its category is the highest one the
    hand can make; each is a test on the two largest natural rank counts
    ``c1 >= c2`` and the wild cards (at least 5, 4, 3 or 2 of a kind:
    ``c1 + w``; a full house or two pair: the wilds cover what the two largest
    ranks lack of 3 + 2 or 2 + 2, the two ranks its searches would find) or on
    the rank set (a straight), with a hand of at least 5, 4, 3 or 2 cards.
    Flushes and straight flushes are ``key_of_words``'s suit tests. Keys order
    by category first, so two hands of different categories are ordered by
    these alone: the equity agent's fast sampler computes full keys only for
    equal categories. The tests check it against the keys on every class.
    """
    b0 = counts & SPREAD_ONES
    b1 = (counts >> 1) & SPREAD_ONES
    b2 = (counts >> 2) & SPREAD_ONES
    ge1, ge2, ge3, ge4 = b0 | b1 | b2, b1 | b2, (b0 & b1) | b2, b2
    c1 = np.int64(ge1 != 0) + np.int64(ge2 != 0) + np.int64(ge3 != 0) + np.int64(ge4 != 0)
    c2 = (
        np.int64(popcount(ge1) >= 2) + np.int64(popcount(ge2) >= 2)
        + np.int64(popcount(ge3) >= 2) + np.int64(popcount(ge4) >= 2)
    )  # fmt: skip
    present = (suits | (suits >> SUIT_SHIFT) | (suits >> (2 * SUIT_SHIFT)) | (suits >> (3 * SUIT_SHIFT))) & RANK_BITS
    kind = c1 + w  # the most cards of one rank, wilds included
    best = np.int64(HIGH_CARD)
    best = max(best, PAIR if n >= 2 and kind >= 2 else HIGH_CARD)
    best = max(best, TWO_PAIR if n >= 4 and max(0, 2 - c1) + max(0, 2 - c2) <= w else HIGH_CARD)
    best = max(best, TRIPS if n >= 3 and kind >= 3 else HIGH_CARD)
    best = max(best, STRAIGHT if n >= 5 and straight_top[w, present] >= 0 else HIGH_CARD)
    best = max(best, FULL_HOUSE if n >= 5 and max(0, 3 - c1) + max(0, 2 - c2) <= w else HIGH_CARD)
    best = max(best, QUADS if n >= 4 and kind >= 4 else HIGH_CARD)
    best = max(best, FIVE_OF_A_KIND if n >= 5 and kind >= 5 else HIGH_CARD)
    if n >= 5:
        for s in range(4):
            bits = (suits >> (SUIT_SHIFT * s)) & RANK_BITS
            if popcount(bits) + w >= 5:  # a suit with no natural needs 5 wilds: never
                best = max(best, STRAIGHT_FLUSH if straight_top[w, bits] >= 0 else FLUSH)
    return best
