"""Legal combinations of a hand and a board, generated category by category.

A player may lay any exact combination (``pokerzoo.envs.engine.hands.exact``)
made of at least one own hand card plus any board cards. Testing every one of
the 1,554 slot subsets against the rank system would cost milliseconds per
decision; instead the legal sets are *built* from the cards: group the cards
by rank and by suit, then take

* each hand card alone (high card);
* 2..5 cards of one rank (pair, three, four, five of a kind);
* two pairs of different ranks, or three of one rank plus two of another (full house);
* one card of each rank of a five-rank window (straights, the wheel included;
  straight flushes and royal flushes come out here too);
* five cards of one suit (flushes),

keeping only the sets that touch the hand. A hand plus board never exceeds
eight cards (B + H = 8), so the groups are tiny and a mask costs a few
microseconds (``benchmarks/mexican_mask.py`` measures it).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, product

import numpy as np

from pokerzoo.envs.engine.hands.exact import classify
from pokerzoo.envs.mexican_poker.actions import BOARD_SHIFT, COMBO_ACTION, NUM_ACTIONS

# Rank windows of the ten straights, top card first; the wheel A-2-3-4-5 last.
_WINDOWS = (*(tuple(range(top, top - 5, -1)) for top in range(12, 3, -1)), (12, 3, 2, 1, 0))
_WINDOW_BITS = tuple(sum(1 << r for r in w) for w in _WINDOWS)


def _subsets(group: list[int], k: int) -> list[int]:
    return [sum(c) for c in combinations(group, k)]


def legal_bits(hand: Sequence[int], board: Sequence[int]) -> list[int]:
    """Slot bitmasks of every legal combination (hand slot i = bit i, board slot j = bit 7 + j).

    A set may appear twice (a straight flush is built as a straight and as a
    flush); callers that need each set once use ``set()``.
    """
    hand_mask = (1 << len(hand)) - 1
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[int, list[int]] = {}
    for i, c in enumerate(hand):
        bit = 1 << i
        by_rank.setdefault(c % 13, []).append(bit)
        by_suit.setdefault(c // 13, []).append(bit)
    for j, c in enumerate(board):
        bit = 1 << (BOARD_SHIFT + j)
        by_rank.setdefault(c % 13, []).append(bit)
        by_suit.setdefault(c // 13, []).append(bit)

    out = [1 << i for i in range(len(hand))]  # every hand card alone
    pairs: dict[int, list[int]] = {}
    trips: dict[int, list[int]] = {}
    for r, group in by_rank.items():
        m = len(group)
        if m < 2:
            continue
        pairs[r] = p = _subsets(group, 2)
        out.extend(b for b in p if b & hand_mask)
        if m >= 3:
            trips[r] = t = _subsets(group, 3)
            out.extend(b for b in t if b & hand_mask)
            for k in range(4, m + 1):  # four and five of a kind
                out.extend(b for b in _subsets(group, k) if b & hand_mask)
    if len(pairs) >= 2:
        ranks = sorted(pairs)
        for x, r1 in enumerate(ranks):
            for r2 in ranks[x + 1 :]:
                for a in pairs[r1]:
                    for b in pairs[r2]:
                        if (a | b) & hand_mask:
                            out.append(a | b)
        for rt, tlist in trips.items():
            for rp, plist in pairs.items():
                if rp != rt:
                    for a in tlist:
                        for b in plist:
                            if (a | b) & hand_mask:
                                out.append(a | b)
    if len(by_rank) >= 5:
        present = 0
        for r in by_rank:
            present |= 1 << r
        for window, wbits in zip(_WINDOWS, _WINDOW_BITS):
            if present & wbits == wbits:
                for pick in product(*(by_rank[r] for r in window)):
                    b = pick[0] | pick[1] | pick[2] | pick[3] | pick[4]
                    if b & hand_mask:
                        out.append(b)
    for group in by_suit.values():
        if len(group) >= 5:
            out.extend(b for b in _subsets(group, 5) if b & hand_mask)
    return out


def legal_mask(hand: Sequence[int], board: Sequence[int]) -> np.ndarray:
    """bool[NUM_ACTIONS]: exactly the combination actions that are legal plays."""
    mask = np.zeros(NUM_ACTIONS, dtype=bool)
    mask[COMBO_ACTION[legal_bits(hand, board)]] = True
    return mask


def cards_of(bits: int, hand: Sequence[int], board: Sequence[int]) -> tuple[list[int], list[int]]:
    """(hand cards, board cards) that a slot bitmask selects."""
    hand_cards = [c for i, c in enumerate(hand) if bits >> i & 1]
    board_cards = [c for j, c in enumerate(board) if bits >> (BOARD_SHIFT + j) & 1]
    return hand_cards, board_cards


def legal_plays(hand: Sequence[int], board: Sequence[int]) -> list[tuple[int, int]]:
    """Every legal combination once, as (key, slot bitmask); what scripted agents reason over."""
    out = []
    for bits in set(legal_bits(hand, board)):
        h, b = cards_of(bits, hand, board)
        out.append((classify(h + b), bits))
    return out
