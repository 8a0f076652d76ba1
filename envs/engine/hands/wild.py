"""Best hand from natural cards plus wild cards, solved category by category.

Brute force over substitutions (52 choices per wild, several wilds, best five
of seven) is far too slow for showdowns and simulations, but each category's
best completion has a closed form: the highest book a rank can reach with the
wilds, the highest straight window missing at most that many ranks, and so
on. Trying the categories from the top in the game's order gives the best
hand; tests compare the result with brute force on random hands.

Games differ in details that live in the parameters, not in copies:
Breed the Heifer lets a wild duplicate any card (five of a kind) but not in a
flush; Perico ranks jokers below naturals inside flushes and kickers and may
ban five of a kind with jokers; partial hands (up cards showing) have no
straights or flushes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pokerzoo.envs.engine.hands.standard import ACE

LOW_WILD = -1  # a wild counted below every natural (Perico's "jokers low")


@dataclass(frozen=True)
class WildRules:
    """How wilds may be used; the defaults are Breed the Heifer's."""

    five_of_a_kind: bool = True  # a wild may make a fifth card of a rank
    flush_wilds: str = "missing"  # "missing": a rank the flush lacks; "ace": duplicate aces; "low": Perico
    wild_kicker: int = ACE  # rank a wild takes when it can only be a kicker


class _Hand:
    """Rank counts and per-suit rank sets of the naturals, plus the wild count."""

    __slots__ = ("counts", "size", "suit_bits", "suits", "wilds")

    def __init__(self, naturals: Sequence[tuple[int, int]], wilds: int, size: int):
        self.counts = [0] * 13
        self.suit_bits: dict[int, int] = {}
        for rank, suit in naturals:
            self.counts[rank] += 1
            self.suit_bits[suit] = self.suit_bits.get(suit, 0) | (1 << rank)
        self.wilds = wilds
        self.size = size  # cards that make the hand: 5, or fewer for a partial hand

    def kickers(self, exclude: Sequence[int], n: int, leftover_wilds: int, rules: WildRules) -> list[int]:
        ks: list[int] = []
        for r in range(ACE, -1, -1):
            if r not in exclude:
                ks.extend([r] * self.counts[r])
        ks = ks[:n]
        ks.extend([rules.wild_kicker] * min(leftover_wilds, n - len(ks)))
        return sorted(ks, reverse=True)


def _book(h: _Hand, rules: WildRules, size: int) -> list[int] | None:
    """Highest rank reaching ``size`` cards with the wilds, then its kickers."""
    if h.size < size:
        return None
    for r in range(ACE, -1, -1):
        need = max(0, size - h.counts[r])
        if need <= h.wilds:
            if size == 5 and need > 0 and not rules.five_of_a_kind:
                continue
            return [r, *h.kickers([r], h.size - size, h.wilds - need, rules)]
    return None


def _two_books(h: _Hand, rules: WildRules, big: int, small: int) -> list[int] | None:
    if h.size < big + small:
        return None
    for a in range(ACE, -1, -1):
        need_a = max(0, big - h.counts[a])
        if need_a > h.wilds:
            continue
        for b in range(ACE, -1, -1):
            if b == a:
                continue
            need = need_a + max(0, small - h.counts[b])
            if need <= h.wilds:
                return [a, b, *h.kickers([a, b], h.size - big - small, h.wilds - need, rules)]
    return None


def _straight_top(bits: int, wilds: int) -> int:
    for top in range(ACE, 2, -1):
        window = [ACE, 0, 1, 2, 3] if top == 3 else range(top - 4, top + 1)
        if sum(1 for r in window if not bits >> r & 1) <= wilds:
            return top
    return -1


def _straight(h: _Hand, rules: WildRules) -> list[int] | None:
    if h.size < 5:
        return None
    bits = sum(1 << r for r in range(13) if h.counts[r])
    top = _straight_top(bits, h.wilds)
    return [top] if top >= 0 else None


def _straight_flush(h: _Hand, rules: WildRules) -> list[int] | None:
    if h.size < 5:
        return None
    tops = [_straight_top(bits, h.wilds) for bits in h.suit_bits.values()]
    if not tops and h.wilds >= 5:
        tops = [ACE]
    best = max(tops, default=-1)
    return [best] if best >= 0 else None


def _royal_flush(h: _Hand, rules: WildRules) -> list[int] | None:
    sf = _straight_flush(h, rules)
    return sf if sf == [ACE] else None


def _flush(h: _Hand, rules: WildRules) -> list[int] | None:
    if h.size < 5:
        return None
    best: list[int] | None = None
    suits = h.suit_bits.values() if h.suit_bits else [0]
    for bits in suits:
        naturals = [r for r in range(ACE, -1, -1) if bits >> r & 1]
        if len(naturals) + h.wilds < 5:
            continue
        if rules.flush_wilds == "missing":
            ranks, w = [], h.wilds
            for r in range(ACE, -1, -1):
                if bits >> r & 1:
                    ranks.append(r)
                elif w:
                    ranks.append(r)
                    w -= 1
                if len(ranks) == 5:
                    break
        elif rules.flush_wilds == "ace":
            ranks = sorted([ACE] * h.wilds + naturals, reverse=True)[:5]
        elif rules.flush_wilds == "low":
            ranks = (naturals + [LOW_WILD] * h.wilds)[:5]
        else:
            raise ValueError(f"flush_wilds must be 'missing', 'ace' or 'low', got {rules.flush_wilds!r}")
        if best is None or ranks > best:
            best = ranks
    return best


def _high_card(h: _Hand, rules: WildRules) -> list[int] | None:
    return h.kickers([], h.size, h.wilds, rules)


FINDERS: dict[str, Callable[[_Hand, WildRules], list[int] | None]] = {
    "royal_flush": _royal_flush,
    "five_of_a_kind": lambda h, rules: _book(h, rules, 5),
    "straight_flush": _straight_flush,
    "four_of_a_kind": lambda h, rules: _book(h, rules, 4),
    "full_house": lambda h, rules: _two_books(h, rules, 3, 2),
    "flush": _flush,
    "straight": _straight,
    "three_of_a_kind": lambda h, rules: _book(h, rules, 3),
    "two_pair": lambda h, rules: _two_books(h, rules, 2, 2),
    "pair": lambda h, rules: _book(h, rules, 2),
    "high_card": _high_card,
}


def best_hand(
    naturals: Sequence[tuple[int, int]],
    wilds: int,
    order: Sequence[str],
    rules: WildRules = WildRules(),
    size: int = 5,
) -> tuple[str, list[int]]:
    """The first category of ``order`` (highest first) the cards can make, with its tie-break ranks.

    ``naturals`` are (rank, suit) pairs; ``size`` is how many cards the hand
    uses (five, or fewer for up cards showing). Tie-break ranks are 0..12,
    ``LOW_WILD`` for a wild counted low.
    """
    h = _Hand(naturals, wilds, min(size, len(naturals) + wilds))
    for category in order:
        tiebreak = FINDERS[category](h, rules)
        if tiebreak is not None:
            return category, tiebreak
    raise ValueError(f"no category of {list(order)} fits {len(naturals)} naturals and {wilds} wilds")
