"""The ``heifer`` rank system compiled for the batched kernel: ``ranking.HeiferRanker.key`` in numba.

``heifer_key(straight_top, cards, n, wild, double_ace_flush)`` is the key of
``cards[:n]`` (1 to 7 distinct natural cards) with every card of rank ``wild``
wild (-1: nothing wild), bit for bit the key ``ranking.ranker(double_ace_flush)``
gives, so showdowns, the betting order and the observation's hand category
are the scalar game's. It follows ``ranking.py``'s solver step by step
(``nonflush_key``, ``_kickers``, ``flush_key``) over bit masks instead of
lists: the natural cards as rank masks by count (held at least once, twice,
three and four times) and one rank mask per suit, and ``straight_top``
(``ranking.STRAIGHT_TOP`` as an array, ``straight_table()``) for straights.
Nothing is memoised and nothing allocated; a key costs about as much as a
few dozen integer operations.

``tests/envs/breed_the_heifer/test_batched.py`` checks it against the scalar
ranker on every (natural rank multiset, wild count) class with 1 to 7 cards
and on random hands that favour flushes (all hands of the slow test: 10^6).
"""

from __future__ import annotations

import numpy as np

from pokerzoo.envs.batched.bits import highest_bit, popcount
from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.breed_the_heifer import ranking
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS

ALL_RANKS = np.int64((1 << 13) - 1)
ACE = ranking.ACE
(HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, FIVE_OF_A_KIND) = range(10)


def straight_table() -> np.ndarray:
    """int64[5, 8192]: ``ranking.STRAIGHT_TOP`` (wilds, rank mask -> top of the best straight, or -1)."""
    return np.array(ranking.STRAIGHT_TOP, dtype=np.int64)


@kernel(inline=True)
def _count(cnt, r):
    """How many natural cards of rank r (3 bits per rank in ``cnt``)."""
    return (cnt >> (3 * r)) & 7


@kernel(inline=True)
def _at_least(k, present, ge2, ge3, ge4):
    """The ranks held at least k times (k <= 0: every rank, as the scalar solver's ``need <= w`` allows)."""
    if k <= 0:
        return ALL_RANKS
    if k == 1:
        return present
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


@kernel
def _kickers(nibbles, used, cnt, available, ex1, ex2, k, leftover):
    """``ranking._kickers`` appended to ``nibbles``: (nibbles, used).

    The k best natural cards outside ranks ex1 and ex2 (``available`` of them
    exist); when they are fewer than k, the leftover wilds count as aces and,
    sorted first, lead the naturals.
    """
    if k <= 0:
        return nibbles, used
    if available < k:
        aces = min(leftover, k - available)
        for _ in range(aces):
            nibbles = (nibbles << 4) | (ACE + 1)
            used += 1
        k = available
    taken = 0
    for r in range(ACE, -1, -1):
        if taken == k:
            break
        if r in (ex1, ex2):
            continue
        c = _count(cnt, r)
        while c > 0 and taken < k:
            nibbles = (nibbles << 4) | (r + 1)
            used += 1
            taken += 1
            c -= 1
    return nibbles, used


@kernel
def _nonflush_key(straight_top, cnt, present, ge2, ge3, ge4, naturals, w):
    """``ranking.nonflush_key``: the best key of the categories that ignore suits."""
    size = min(5, naturals + w)
    if size == 5:
        m = _at_least(5 - w, present, ge2, ge3, ge4)
        if m:
            return _pack(FIVE_OF_A_KIND, highest_bit(m) + 1, 1)
    if size >= 4:
        m = _at_least(4 - w, present, ge2, ge3, ge4)
        if m:
            r = highest_bit(m)
            c = _count(cnt, r)
            need = 4 - c if c < 4 else 0
            nib, used = _kickers(r + 1, 1, cnt, naturals - c, r, -1, size - 4, w - need)
            return _pack(QUADS, nib, used)
    if size == 5:
        threes = _at_least(3 - w, present, ge2, ge3, ge4)
        for a in range(ACE, -1, -1):
            if not (threes >> a) & 1:
                continue
            c = _count(cnt, a)
            rest = w - (3 - c if c < 3 else 0)
            twos = _at_least(2 - rest, present, ge2, ge3, ge4) & ~(np.int64(1) << a)
            if twos:
                return _pack(FULL_HOUSE, ((a + 1) << 4) | (highest_bit(twos) + 1), 2)
        top = straight_top[w, present]
        if top >= 0:
            return _pack(STRAIGHT, top + 1, 1)
    if size >= 3:
        m = _at_least(3 - w, present, ge2, ge3, ge4)
        if m:
            r = highest_bit(m)
            c = _count(cnt, r)
            need = 3 - c if c < 3 else 0
            nib, used = _kickers(r + 1, 1, cnt, naturals - c, r, -1, size - 3, w - need)
            return _pack(TRIPS, nib, used)
    if size >= 4:
        firsts = _at_least(2 - w, present, ge2, ge3, ge4)
        for a in range(ACE, -1, -1):
            if not (firsts >> a) & 1:
                continue
            ca = _count(cnt, a)
            na = 2 - ca if ca < 2 else 0
            seconds = _at_least(2 - (w - na), present, ge2, ge3, ge4) & ~(np.int64(1) << a)
            if seconds:
                b = highest_bit(seconds)
                cb = _count(cnt, b)
                need = na + (2 - cb if cb < 2 else 0)
                nib, used = _kickers(((a + 1) << 4) | (b + 1), 2, cnt, naturals - ca - cb, a, b, size - 4, w - need)
                return _pack(TWO_PAIR, nib, used)
    if size >= 2:
        m = _at_least(2 - w, present, ge2, ge3, ge4)
        if m:
            r = highest_bit(m)
            c = _count(cnt, r)
            need = 2 - c if c < 2 else 0
            nib, used = _kickers(r + 1, 1, cnt, naturals - c, r, -1, size - 2, w - need)
            return _pack(PAIR, nib, used)
    nib, used = _kickers(np.int64(0), 0, cnt, naturals, -1, -1, size, w)
    return _pack(HIGH_CARD, nib, used)


@kernel
def _flush_key(straight_top, bits, w, double_ace_flush):
    """``ranking.flush_key``: the best straight flush or flush of one suit's rank mask and ``w`` wilds."""
    top = straight_top[w, bits]
    if top >= 0:
        return _pack(STRAIGHT_FLUSH, top + 1, 1)
    nib = np.int64(0)
    used = 0
    if double_ace_flush:
        for _ in range(min(w, 5)):
            nib = (nib << 4) | (ACE + 1)
            used += 1
        for r in range(ACE, -1, -1):
            if used == 5:
                break
            if (bits >> r) & 1:
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
def heifer_key(straight_top, cards, n, wild, double_ace_flush):
    """Key of ``cards[:n]`` (1..7 distinct natural cards) with rank ``wild`` wild (-1: none); see the module doc."""
    cnt = np.int64(0)
    present = np.int64(0)
    ge2 = np.int64(0)
    ge3 = np.int64(0)
    ge4 = np.int64(0)
    s0 = np.int64(0)
    s1 = np.int64(0)
    s2 = np.int64(0)
    s3 = np.int64(0)
    w = 0
    for k in range(n):
        c = np.int64(cards[k])
        r = c % 13
        if r == wild:
            w += 1
            continue
        bit = np.int64(1) << r
        cnt += np.int64(1) << (3 * r)
        if ge3 & bit:
            ge4 |= bit
        elif ge2 & bit:
            ge3 |= bit
        elif present & bit:
            ge2 |= bit
        else:
            present |= bit
        s = c // 13
        if s == 0:
            s0 |= bit
        elif s == 1:
            s1 |= bit
        elif s == 2:
            s2 |= bit
        else:
            s3 |= bit
    best = _nonflush_key(straight_top, cnt, present, ge2, ge3, ge4, n - w, w)
    if n >= 5:
        for suit in range(4):
            bits = s0 if suit == 0 else s1 if suit == 1 else s2 if suit == 2 else s3
            if bits and popcount(bits) + w >= 5:
                key = _flush_key(straight_top, bits, w, double_ace_flush)
                if key > best:
                    best = key
    return best
