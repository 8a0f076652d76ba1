"""Hand ranking as the Perico rules need it: memoised keys, the royal-flush check, hand order.

Both rank systems (``perico`` for five cards, ``perico6`` for six) give keys
that depend only on the natural ranks, the joker count and whether all
naturals share a suit. Showdowns, observations and the heuristic agent's
simulations evaluate millions of hands, so each such class is solved once by
the system and memoised here under the same class code the six-card system
uses. Rankers are shared by every game of the same variant, so the memo stays
warm across env resets.
"""

from __future__ import annotations

from collections.abc import Sequence

from pokerzoo.envs.engine.cards import NUM_CARD_IDS, RANK_OF, SUIT_OF
from pokerzoo.envs.engine.hands import RankSystem, get_system
from pokerzoo.envs.engine.hands.six_card import CARD_CODE, class_of, hand_code
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS

# Hand order: by rank (2 low, ace high), then suit s h d c, jokers last. Hands are kept
# sorted so that a hand position (what the discard and exchange actions name) is stable.
SORT_KEY: list[int] = [0] * NUM_CARD_IDS
for _c in range(NUM_CARD_IDS):
    SORT_KEY[_c] = 200 + _c if _c >= 65 else int(RANK_OF[_c]) * 8 + int(SUIT_OF[_c])


def sort_hand(cards: Sequence[int]) -> list[int]:
    return sorted(cards, key=SORT_KEY.__getitem__)


def has_royal(cards: Sequence[int], size: int) -> bool:
    """Whether some ``size`` of ``cards`` make a royal flush (T-A, or 9-A for six cards), jokers wild."""
    if len(cards) < size:
        return False
    low = 13 - size  # lowest royal rank: ten (8) for five cards, nine (7) for six
    jokers = 0
    per_suit = [0, 0, 0, 0]
    for c in cards:
        if c >= 65:
            jokers += 1
        elif c % 13 >= low:
            per_suit[c // 13] += 1
    return max(per_suit) + jokers >= size


class HandRanker:
    """Memoised ``key`` of exact-size hands under one Perico rank system."""

    def __init__(self, system: RankSystem, hand_size: int, jokers_in_five_of_a_kind: bool = True):
        self.system = system
        self._jokers_in_five_of_a_kind = jokers_in_five_of_a_kind
        self.hand_size = hand_size
        self.categories = system.categories
        self._memo: dict[int, int] = {}

    def key(self, cards: Sequence[int]) -> int:
        try:
            s = sum(CARD_CODE[c] for c in cards)  # type: ignore[misc]
        except (TypeError, IndexError):
            s = -1
        if s < 0 or len(cards) != self.hand_size:
            hand_code(cards, self.hand_size, self.system.name)  # raises the descriptive error
        memo_key = class_of(s, self.hand_size)[0]
        key = self._memo.get(memo_key)
        if key is None:
            key = self._memo[memo_key] = self.system.key(list(cards))
        return key

    def __reduce__(self):
        # Copies and pickles share the variant's ranker (the memo is a pure cache).
        return ranker_for, (self.system.name == "perico6", self._jokers_in_five_of_a_kind)

    def __deepcopy__(self, memo: dict) -> HandRanker:
        return self

    def category_index(self, key: int) -> int:
        return key >> TIEBREAK_BITS

    def category(self, key: int) -> str:
        return self.categories[key >> TIEBREAK_BITS]


_RANKERS: dict[tuple[bool, bool], HandRanker] = {}


def ranker_for(six_card: bool, jokers_in_five_of_a_kind: bool = True) -> HandRanker:
    """The shared ranker of one variant (``perico`` or ``perico6``)."""
    k = (bool(six_card), bool(jokers_in_five_of_a_kind))
    ranker = _RANKERS.get(k)
    if ranker is None:
        system = get_system("perico6" if six_card else "perico", jokers_in_five_of_a_kind=k[1])
        ranker = _RANKERS[k] = HandRanker(system, 6 if six_card else 5, k[1])
    return ranker
