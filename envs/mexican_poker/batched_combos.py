"""Mexican poker's hand evaluation compiled for the batched kernel: ``classify`` and the combination generator.

* ``classify(cards, n)``: ``pokerzoo.envs.engine.hands.exact.classify`` of
  ``cards[:n]`` (the ``mexican`` rank system: exact-size combinations over
  five suits), the same keys, ``ILLEGAL`` (-1) for a set that is no combination;
* ``legal_combos(hand, hn, board, bn, work, out)``: ``combos.legal_bits``
  (every legal combination of a hand and the board as a slot bitmask, hand
  slot i = bit i, board slot j = bit 7 + j) **in the scalar generator's
  order**, duplicates included (a straight flush comes out as a straight and
  as a flush), each with its key. The env's mask needs only the sets; the
  batched scripted agent needs the order too, because the scalar agent breaks
  ties among equal combinations by the order of a Python ``set`` built from
  that list (``agents/batched/mexican_poker.py``).

The generator follows ``combos.legal_bits`` group by group: cards grouped by
rank and by suit in the order the ranks and suits first appear (hand slots,
then board slots), then singles, n of a kind, two pairs, full houses,
straights (the windows of ``combos._WINDOWS``) and flushes, keeping the sets
that touch the hand. Keys are computed from the shape that built the set
(the rank of a pair, the window of a straight), not by classifying it again.
A hand plus the board holds at most 8 cards (B + H = 8), at most 218 slot
subsets of 1..5 cards; each appears at most twice, hence ``MAX_COMBOS``.

``tests/envs/mexican_poker/test_batched.py`` checks both against the scalar
code: ``classify`` on every hand class of every size (and, under ``slow``, on
every one of the 8,982,888 card sets of 1 to 5 cards), the generator's list
(order included) on random and full deals.
"""

from __future__ import annotations

import numpy as np

from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.engine.hands.exact import (
    ACE,
    FIVE_OF_A_KIND,
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    ILLEGAL,
    PAIR,
    QUADS,
    ROYAL_FLUSH,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
)
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS
from pokerzoo.envs.mexican_poker import combos
from pokerzoo.envs.mexican_poker.actions import BOARD_SHIFT

MAX_COMBOS = 448  # >= 2 x 218: every 1..5-subset of 8 cards, twice
WINDOWS = np.array(combos._WINDOWS, dtype=np.int64)  # [10, 5]: the straights' ranks, top card first
# ``work`` layout: cards grouped by rank (13 groups of <= 5 slot numbers) and by suit (5 groups of <= 12)
_RCOUNT = 0
_RELEM = _RCOUNT + 13
_SCOUNT = _RELEM + 13 * 5
_SELEM = _SCOUNT + 5
_RORDER = _SELEM + 5 * 12
_SORDER = _RORDER + 13
_SLOTCARD = _SORDER + 5
WORK = _SLOTCARD + 12  # int64 entries of ``work``

_SHIFT = np.int64(TIEBREAK_BITS)


# ---------------------------------------------------------------- keys (``value.pack``)
@kernel(inline=True)
def pack1(category, r):
    """``pack(category, (r + 1,))`` for a 0-based rank."""
    return (np.int64(category) << _SHIFT) | (np.int64(r + 1) << 24)


@kernel(inline=True)
def pack2(category, r1, r2):
    return (np.int64(category) << _SHIFT) | (np.int64(r1 + 1) << 24) | (np.int64(r2 + 1) << 20)


@kernel
def _pack5(category, a, b, c, d, e):
    return (
        (np.int64(category) << _SHIFT)
        | (np.int64(a + 1) << 24)
        | (np.int64(b + 1) << 20)
        | (np.int64(c + 1) << 16)
        | (np.int64(d + 1) << 12)
        | (np.int64(e + 1) << 8)
    )


@kernel
def _five_distinct(a, b, c, d, e, flush):
    """Key of five distinct ranks ``a > b > c > d > e``: straight (flush) or flush, else ILLEGAL."""
    if a - e == 4:
        top = a
    elif a == 12 and b == 3 and c == 2 and d == 1 and e == 0:
        top = 3
    else:
        top = -1
    if flush:
        if top == ACE:
            return pack1(ROYAL_FLUSH, ACE)
        if top >= 0:
            return pack1(STRAIGHT_FLUSH, top)
        return _pack5(FLUSH, a, b, c, d, e)
    if top >= 0:
        return pack1(STRAIGHT, top)
    return np.int64(ILLEGAL)


@kernel
def classify(cards, n):
    """``exact.classify(cards[:n])``: the key of distinct valid card ids, or ILLEGAL (-1)."""
    if n == 1:
        return pack1(HIGH_CARD, cards[0] % 13)
    if n < 1 or n > 5:
        return np.int64(ILLEGAL)
    # the ranks sorted high to low, in five locals (unused ones stay -1)
    r0 = r1 = r2 = r3 = r4 = -1
    for k in range(n):
        r = cards[k] % 13
        if r > r0:
            r0, r1, r2, r3, r4 = r, r0, r1, r2, r3
        elif r > r1:
            r1, r2, r3, r4 = r, r1, r2, r3
        elif r > r2:
            r2, r3, r4 = r, r2, r3
        elif r > r3:
            r3, r4 = r, r3
        else:
            r4 = r
    if n == 2:
        return pack1(PAIR, r0) if r0 == r1 else np.int64(ILLEGAL)
    if n == 3:
        return pack1(TRIPS, r0) if r0 == r2 else np.int64(ILLEGAL)
    if n == 4:
        if r0 == r3:
            return pack1(QUADS, r0)
        if r0 == r1 and r2 == r3:
            return pack2(TWO_PAIR, r0, r2)
        return np.int64(ILLEGAL)
    if r0 == r4:
        return pack1(FIVE_OF_A_KIND, r0)
    if r0 == r2 and r3 == r4:
        return pack2(FULL_HOUSE, r0, r3)
    if r0 == r1 and r2 == r4:
        return pack2(FULL_HOUSE, r2, r0)
    if not (r0 > r1 > r2 > r3 > r4):
        return np.int64(ILLEGAL)
    s = cards[0] // 13
    flush = cards[1] // 13 == s and cards[2] // 13 == s and cards[3] // 13 == s and cards[4] // 13 == s
    return _five_distinct(r0, r1, r2, r3, r4, flush)


# ---------------------------------------------------------------- the generator
@kernel(inline=True)
def _emit(out, count, bits, key):
    out[count, 0] = bits
    out[count, 1] = key
    return count + 1


@kernel
def _five_key(work, s0, s1, s2, s3, s4):
    """Key of the five distinct-rank cards in slots ``s0..s4`` (a straight window or a suit's five)."""
    c0 = work[_SLOTCARD + s0]
    c1 = work[_SLOTCARD + s1]
    c2 = work[_SLOTCARD + s2]
    c3 = work[_SLOTCARD + s3]
    c4 = work[_SLOTCARD + s4]
    suit = c0 // 13
    flush = c1 // 13 == suit and c2 // 13 == suit and c3 // 13 == suit and c4 // 13 == suit
    a = b = c = d = e = -1
    for card in (c0, c1, c2, c3, c4):
        r = card % 13
        if r > a:
            a, b, c, d, e = r, a, b, c, d
        elif r > b:
            b, c, d, e = r, b, c, d
        elif r > c:
            c, d, e = r, c, d
        elif r > d:
            d, e = r, d
        else:
            e = r
    return _five_distinct(a, b, c, d, e, flush)


@kernel
def legal_combos(hand, hn, board, bn, work, out):
    """``combos.legal_bits(hand[:hn], board[:bn])`` into ``out[:count]`` as (bits, key) rows; returns count.

    ``work`` is int64[WORK] scratch, ``out`` int64[MAX_COMBOS, 2].
    """
    hand_mask = (1 << hn) - 1
    for r in range(13):
        work[_RCOUNT + r] = 0
    for s in range(5):
        work[_SCOUNT + s] = 0
    ranks = 0  # distinct ranks seen
    suits = 0
    for k in range(hn + bn):
        slot = k if k < hn else BOARD_SHIFT + k - hn
        c = hand[k] if k < hn else board[k - hn]
        work[_SLOTCARD + slot] = c
        r = c % 13
        m = work[_RCOUNT + r]
        if m == 0:
            work[_RORDER + ranks] = r
            ranks += 1
        work[_RELEM + 5 * r + m] = slot
        work[_RCOUNT + r] = m + 1
        s = c // 13
        m = work[_SCOUNT + s]
        if m == 0:
            work[_SORDER + suits] = s
            suits += 1
        work[_SELEM + 12 * s + m] = slot
        work[_SCOUNT + s] = m + 1

    count = 0
    for k in range(hn):  # every hand card alone
        count = _emit(out, count, 1 << k, pack1(HIGH_CARD, hand[k] % 13))
    pair_ranks = 0
    for x in range(ranks):  # n of a kind, ranks in order of appearance
        r = work[_RORDER + x]
        m = work[_RCOUNT + r]
        if m < 2:
            continue
        pair_ranks += 1
        g = _RELEM + 5 * r
        for a in range(m):
            for b in range(a + 1, m):
                bits = (1 << work[g + a]) | (1 << work[g + b])
                if bits & hand_mask:
                    count = _emit(out, count, bits, pack1(PAIR, r))
        if m >= 3:
            for a in range(m):
                for b in range(a + 1, m):
                    for c in range(b + 1, m):
                        bits = (1 << work[g + a]) | (1 << work[g + b]) | (1 << work[g + c])
                        if bits & hand_mask:
                            count = _emit(out, count, bits, pack1(TRIPS, r))
            if m >= 4:
                for a in range(m):
                    for b in range(a + 1, m):
                        for c in range(b + 1, m):
                            for d in range(c + 1, m):
                                bits = (1 << work[g + a]) | (1 << work[g + b]) | (1 << work[g + c])
                                bits |= 1 << work[g + d]
                                if bits & hand_mask:
                                    count = _emit(out, count, bits, pack1(QUADS, r))
            if m == 5:
                bits = 0
                for a in range(5):
                    bits |= 1 << work[g + a]
                if bits & hand_mask:
                    count = _emit(out, count, bits, pack1(FIVE_OF_A_KIND, r))
    if pair_ranks >= 2:
        # two pair: ranks ascending (``sorted(pairs)``), each pair of the lower rank with each of the higher
        for r1 in range(13):
            m1 = work[_RCOUNT + r1]
            if m1 < 2:
                continue
            g1 = _RELEM + 5 * r1
            for r2 in range(r1 + 1, 13):
                m2 = work[_RCOUNT + r2]
                if m2 < 2:
                    continue
                g2 = _RELEM + 5 * r2
                key = pack2(TWO_PAIR, r2, r1)
                for a in range(m1):
                    for b in range(a + 1, m1):
                        low = (1 << work[g1 + a]) | (1 << work[g1 + b])
                        for c in range(m2):
                            for d in range(c + 1, m2):
                                bits = low | (1 << work[g2 + c]) | (1 << work[g2 + d])
                                if bits & hand_mask:
                                    count = _emit(out, count, bits, key)
        # full house: three of one rank, two of another, both in order of appearance
        for x in range(ranks):
            rt = work[_RORDER + x]
            mt = work[_RCOUNT + rt]
            if mt < 3:
                continue
            gt = _RELEM + 5 * rt
            for y in range(ranks):
                rp = work[_RORDER + y]
                mp = work[_RCOUNT + rp]
                if mp < 2 or rp == rt:
                    continue
                gp = _RELEM + 5 * rp
                key = pack2(FULL_HOUSE, rt, rp)
                for a in range(mt):
                    for b in range(a + 1, mt):
                        for c in range(b + 1, mt):
                            three = (1 << work[gt + a]) | (1 << work[gt + b]) | (1 << work[gt + c])
                            for d in range(mp):
                                for e in range(d + 1, mp):
                                    bits = three | (1 << work[gp + d]) | (1 << work[gp + e])
                                    if bits & hand_mask:
                                        count = _emit(out, count, bits, key)
    if ranks >= 5:
        present = 0
        for x in range(ranks):
            present |= 1 << work[_RORDER + x]
        for w in range(WINDOWS.shape[0]):
            q0 = WINDOWS[w, 0]
            q1 = WINDOWS[w, 1]
            q2 = WINDOWS[w, 2]
            q3 = WINDOWS[w, 3]
            q4 = WINDOWS[w, 4]
            wbits = (1 << q0) | (1 << q1) | (1 << q2) | (1 << q3) | (1 << q4)
            if present & wbits != wbits:
                continue
            g0, g1, g2, g3, g4 = _RELEM + 5 * q0, _RELEM + 5 * q1, _RELEM + 5 * q2, _RELEM + 5 * q3, _RELEM + 5 * q4
            for a in range(work[_RCOUNT + q0]):
                s0 = work[g0 + a]
                for b in range(work[_RCOUNT + q1]):
                    s1 = work[g1 + b]
                    for c in range(work[_RCOUNT + q2]):
                        s2 = work[g2 + c]
                        for d in range(work[_RCOUNT + q3]):
                            s3 = work[g3 + d]
                            for e in range(work[_RCOUNT + q4]):
                                s4 = work[g4 + e]
                                bits = (1 << s0) | (1 << s1) | (1 << s2) | (1 << s3) | (1 << s4)
                                if bits & hand_mask:
                                    count = _emit(out, count, bits, _five_key(work, s0, s1, s2, s3, s4))
    for x in range(suits):  # flushes, suits in order of appearance
        s = work[_SORDER + x]
        m = work[_SCOUNT + s]
        if m < 5:
            continue
        g = _SELEM + 12 * s
        for a in range(m):
            for b in range(a + 1, m):
                for c in range(b + 1, m):
                    for d in range(c + 1, m):
                        for e in range(d + 1, m):
                            s0, s1, s2, s3, s4 = work[g + a], work[g + b], work[g + c], work[g + d], work[g + e]
                            bits = (1 << s0) | (1 << s1) | (1 << s2) | (1 << s3) | (1 << s4)
                            if bits & hand_mask:
                                count = _emit(out, count, bits, _five_key(work, s0, s1, s2, s3, s4))
    return count
