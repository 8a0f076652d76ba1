"""Exact category counts of every Perico hand of a deck, without visiting every hand.

A Perico key depends only on the hand's *class*: the multiset of natural
ranks, the number of jokers, and whether all naturals share a suit (which
decides flushes). So instead of ranking all C(56, 6) = 32,468,436 six-card
hands, we walk the classes — at most a few tens of thousands — rank one
representative hand of each through the public rank system, and weight it by
how many hands the class holds:

* jokers: C(jokers in the deck, j) ways;
* naturals with rank counts c_r: prod_r C(4, c_r) ways, of which, when every
  rank is distinct (and there is at least one natural), exactly 4 are of one
  suit (a one-suit class) and the rest are not.

The five-card counts with no jokers reproduce the standard 52-card table
(tests check this, and a slow test compares the 54-card five-card counts with
a full enumeration of all 3,162,510 hands).
"""

from __future__ import annotations

import itertools
from math import comb, prod

from pokerzoo.envs.engine.cards import JOKERS
from pokerzoo.envs.engine.hands import get_system


def rank_multisets(size: int):
    """Every multiset of ``size`` ranks with at most four of a rank, as 13 counts."""
    for combo in itertools.combinations_with_replacement(range(13), size):
        counts = [0] * 13
        for r in combo:
            counts[r] += 1
        if max(counts, default=0) <= 4:
            yield counts


def _representative(counts: list[int], one_suit: bool) -> list[int]:
    """A hand of natural cards with these rank counts, all of suit 0 or not all of one suit."""
    cards = []
    for r, c in enumerate(counts):
        cards += [s * 13 + r for s in range(c)]  # duplicates of a rank take suits 0, 1, ...
    if not one_suit and len(cards) >= 2 and all(c // 13 == 0 for c in cards):
        cards[1] += 13  # distinct ranks: move one card to suit 1
    return cards


def category_counts(
    hand_size: int, deck_jokers: int, jokers_in_five_of_a_kind: bool = True
) -> dict[str, int]:
    """{category: number of hands} over every ``hand_size``-card hand of 52 cards + ``deck_jokers`` jokers."""
    if hand_size not in (5, 6):
        raise ValueError(f"Perico hands have 5 or 6 cards, got {hand_size}")
    if deck_jokers not in (0, 2, 4):
        raise ValueError(f"a Perico deck has 0, 2 or 4 jokers, got {deck_jokers}")
    system = get_system(
        "perico6" if hand_size == 6 else "perico", jokers_in_five_of_a_kind=jokers_in_five_of_a_kind
    )
    totals = dict.fromkeys(system.categories, 0)
    for j in range(min(deck_jokers, hand_size) + 1):
        joker_ways = comb(deck_jokers, j)
        jokers = list(JOKERS[:j])
        n = hand_size - j
        for counts in rank_multisets(n):
            ways = prod(comb(4, c) for c in counts)
            distinct = max(counts, default=0) <= 1
            one_suit_ways = (4 if n else 1) if distinct else 0
            for one_suit, w in ((True, one_suit_ways), (False, ways - one_suit_ways)):
                if w:
                    key = system.key(_representative(counts, one_suit) + jokers)
                    totals[system.category_of(key)] += joker_ways * w
    return totals
