"""Fast Breed the Heifer hand keys: the ``heifer`` rank system's keys, solved directly from rank counts.

``get_system("heifer", wild_rank=w).key`` runs the shared, category-generic
wild-card solver (``hands.wild``), about 25 µs a hand. The game evaluates
hands at every showdown, betting order and observation, and the equity agent
evaluates thousands per decision, so this module solves the same problem
for this one game's rules with plain loops and tables:

* every category that ignores suits (five of a kind, quads, full house,
  straight, trips, two pair, pair, high card) from the 13 natural rank
  counts and the number of wilds, memoised on that multiset;
* straight flushes and flushes from one suit's rank set and the wilds;
* a straight is a table lookup: for each wild count, the top of the best
  five-rank window that the rank bitmask fills with that many wilds.

The best hand is the larger of the two keys (keys order all categories).
The result is the system's key bit for bit: tests/engine/test_hands_heifer.py
checks the system against brute force over wild substitutions, and
tests/envs/breed_the_heifer/test_ranking.py checks this module against the system.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pokerzoo.envs.engine.hands.systems import HeiferSystem
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS, pack

CATEGORIES = HeiferSystem.categories
(HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, FIVE_OF_A_KIND) = (
    range(10)
)
ACE = 12
_DESC = tuple(range(ACE, -1, -1))
_POW5 = tuple(5**r for r in range(13))
MAX_WILDS = 4


def _straight_tables() -> list[list[int]]:
    """[wilds][rank bitmask] -> top of the best straight those wilds complete, or -1 (the wheel tops at 3)."""
    bits = np.arange(1 << 13)
    tables = []
    for w in range(MAX_WILDS + 1):
        top = np.full(1 << 13, -1)
        for t in range(3, 13):  # ascending, so the highest window that fits wins
            window = (1 << ACE) | 0b1111 if t == 3 else 0b11111 << (t - 4)
            missing = np.bitwise_count(np.bitwise_and(window, np.bitwise_not(bits)) & 0x1FFF)
            top[missing <= w] = t
        tables.append(top.tolist())
    return tables


STRAIGHT_TOP = _straight_tables()


def _kickers(counts: list[int], ex1: int, ex2: int, n: int, leftover: int) -> list[int]:
    """The n best natural kickers outside the books (then leftover wilds as aces), +1 for packing."""
    if n <= 0:
        return []
    ks: list[int] = []
    for r in _DESC:
        if r != ex1 and r != ex2 and counts[r]:
            ks.extend([r + 1] * counts[r])
            if len(ks) >= n:
                return ks[:n]
    if leftover:
        ks.extend([ACE + 1] * min(leftover, n - len(ks)))
        ks.sort(reverse=True)
    return ks


def nonflush_key(counts: list[int], w: int) -> int:
    """Best key of the categories that ignore suits, from natural rank counts and ``w`` wilds."""
    size = min(5, sum(counts) + w)
    if size == 5:
        for r in _DESC:
            if counts[r] + w >= 5:
                return pack(FIVE_OF_A_KIND, [r + 1])
    if size >= 4:
        for r in _DESC:
            need = 4 - counts[r] if counts[r] < 4 else 0
            if need <= w:
                return pack(QUADS, [r + 1, *_kickers(counts, r, -1, size - 4, w - need)])
    if size == 5:
        for a in _DESC:
            na = 3 - counts[a] if counts[a] < 3 else 0
            if na > w:
                continue
            for b in _DESC:
                if b != a and na + (2 - counts[b] if counts[b] < 2 else 0) <= w:
                    return pack(FULL_HOUSE, [a + 1, b + 1])
        bits = 0
        for r in range(13):
            if counts[r]:
                bits |= 1 << r
        top = STRAIGHT_TOP[w][bits]
        if top >= 0:
            return pack(STRAIGHT, [top + 1])
    if size >= 3:
        for r in _DESC:
            need = 3 - counts[r] if counts[r] < 3 else 0
            if need <= w:
                return pack(TRIPS, [r + 1, *_kickers(counts, r, -1, size - 3, w - need)])
    if size >= 4:
        for a in _DESC:
            na = 2 - counts[a] if counts[a] < 2 else 0
            if na > w:
                continue
            for b in _DESC:
                if b == a:
                    continue
                need = na + (2 - counts[b] if counts[b] < 2 else 0)
                if need <= w:
                    return pack(TWO_PAIR, [a + 1, b + 1, *_kickers(counts, a, b, size - 4, w - need)])
    if size >= 2:
        for r in _DESC:
            need = 2 - counts[r] if counts[r] < 2 else 0
            if need <= w:
                return pack(PAIR, [r + 1, *_kickers(counts, r, -1, size - 2, w - need)])
    return pack(HIGH_CARD, _kickers(counts, -1, -1, size, w))


def flush_key(bits: int, w: int, double_ace_flush: bool) -> int:
    """Best straight flush or flush from one suit's rank bitmask and ``w`` wilds (5 cards or more)."""
    top = STRAIGHT_TOP[w][bits]
    if top >= 0:
        return pack(STRAIGHT_FLUSH, [top + 1])
    ranks: list[int] = []
    if double_ace_flush:
        ranks = [ACE + 1] * w + [r + 1 for r in _DESC if bits >> r & 1]
    else:
        left = w
        for r in _DESC:
            if bits >> r & 1:
                ranks.append(r + 1)
            elif left:
                ranks.append(r + 1)
                left -= 1
            if len(ranks) == 5:
                break
    return pack(FLUSH, ranks[:5])


class HeiferRanker:
    """``key(cards, wild_rank)`` for 1..7 distinct natural cards (wild_rank -1: nothing wild)."""

    def __init__(self, double_ace_flush: bool = False):
        self.double_ace_flush = double_ace_flush
        self._nonflush: dict[int, int] = {}
        self._flush: dict[int, int] = {}

    def key(self, cards: Sequence[int], wild_rank: int = -1) -> int:
        code = 0
        w = 0
        suit_bits = [0, 0, 0, 0]
        for c in cards:
            r = c % 13
            if r == wild_rank:
                w += 1
            else:
                code += _POW5[r]
                suit_bits[c // 13] |= 1 << r
        memo = code << 3 | w
        best = self._nonflush.get(memo)
        if best is None:
            counts = [code // p % 5 for p in _POW5]
            best = self._nonflush[memo] = nonflush_key(counts, w)
        if len(cards) >= 5:
            for bits in suit_bits:
                if bits and bits.bit_count() + w >= 5:
                    fmemo = bits << 3 | w
                    fkey = self._flush.get(fmemo)
                    if fkey is None:
                        fkey = self._flush[fmemo] = flush_key(bits, w, self.double_ace_flush)
                    if fkey > best:
                        best = fkey
        return best

    @staticmethod
    def category(key: int) -> str:
        return CATEGORIES[key >> TIEBREAK_BITS]

    # One shared instance per flush rule: games hold a reference, and cloning or
    # pickling a game must not copy the (large, growing) memo tables.
    def __deepcopy__(self, memo: dict) -> HeiferRanker:
        return self

    def __reduce__(self):
        return ranker, (self.double_ace_flush,)


_RANKERS = {False: HeiferRanker(False), True: HeiferRanker(True)}


def ranker(double_ace_flush: bool = False) -> HeiferRanker:
    """The shared ranker for one flush rule (memo tables are shared by every game and agent)."""
    return _RANKERS[bool(double_ace_flush)]
