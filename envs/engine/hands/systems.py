"""Rank systems: one object per way a game ranks hands, all behind the same small interface.

A game asks for its system once (``get_system("heifer", wild_rank=5)``) and
then calls ``key`` in its hot path; the public ``evaluate`` wraps the key in a
``HandValue`` with the category name. Systems that need options (a wild rank,
a variant switch) are separate instances, cached by their options.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence

import numpy as np

from pokerzoo.envs.engine.cards import STANDARD_SUIT_CHARS, is_joker, rank_of, suit_of
from pokerzoo.envs.engine.hands import standard
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS, HandValue, pack
from pokerzoo.envs.engine.hands.wild import LOW_WILD, WildRules, best_hand


class RankSystem:
    """Interface every rank system implements; ``categories`` run from weakest to strongest."""

    name: str = ""
    categories: tuple[str, ...] = ()
    suit_chars: str = STANDARD_SUIT_CHARS

    def key(self, cards: Sequence[int]) -> int:
        raise NotImplementedError

    def category_of(self, key: int) -> str:
        return self.categories[key >> TIEBREAK_BITS]

    def evaluate(self, cards: Sequence[int]) -> HandValue:
        key = self.key(cards)
        return HandValue(key, self.category_of(key), self.name)

    def keys_batch(self, cards: np.ndarray) -> np.ndarray:
        """Keys for an (N, k) array; systems with a vectorised path override this."""
        cards = np.asarray(cards)
        if cards.ndim != 2:
            raise ValueError(f"batch evaluation takes an (N, k) array of card ids, got shape {cards.shape}")
        return np.fromiter((self.key(row.tolist()) for row in cards), dtype=np.int64, count=len(cards))


class StandardSystem(RankSystem):
    """Best five of 5..7 cards from a 52-card deck; royal flush named apart (it is the top straight flush)."""

    name = "standard"
    categories = standard.CATEGORIES

    def key(self, cards: Sequence[int]) -> int:
        return standard.key_of(cards)

    def keys_batch(self, cards: np.ndarray) -> np.ndarray:
        return standard.keys_batch(cards)


class CaribbeanSystem(StandardSystem):
    """Standard order with Caribbean stud's extra category: Ace-King high, the dealer's lowest qualifier."""

    name = "caribbean"
    categories = ("high_card", "ace_king", *standard.CATEGORIES[1:])
    # Ace-King sits between high card and pair, so its keys are the standard keys
    # of A-K high hands; only the name differs. The smallest is A-K-4-3-2.
    ACE_KING_MIN = pack(standard.HIGH_CARD, [13, 12, 3, 2, 1])

    def category_of(self, key: int) -> str:
        cat = key >> TIEBREAK_BITS
        if cat == standard.HIGH_CARD:
            return "ace_king" if key >= self.ACE_KING_MIN else "high_card"
        return standard.CATEGORIES[cat]


def _naturals_and_wilds(cards: Sequence[int], is_wild: Callable[[int], bool]) -> tuple[list, int]:
    naturals, wilds = [], 0
    for c in cards:
        if is_wild(c):
            wilds += 1
        else:
            naturals.append((rank_of(c), suit_of(c)))
    return naturals, wilds


def _check_distinct(cards: Sequence[int], system: str) -> None:
    if len(set(cards)) != len(cards):
        raise ValueError(f"{system}: duplicate card in {list(cards)}")


class HeiferSystem(RankSystem):
    """Breed the Heifer: every card of ``wild_rank`` is wild; best five of up to seven.

    Fewer than five cards rank as a partial hand (books and kickers only), which
    is how the betting order compares the up cards showing.
    """

    name = "heifer"
    categories = standard.WITH_FIVE_OF_A_KIND

    def __init__(self, wild_rank: int | None = None, double_ace_flush: bool = False):
        if wild_rank is not None and not 0 <= wild_rank <= 12:
            raise ValueError(f"wild_rank must be None or 0..12 (2..A), got {wild_rank}")
        self.wild_rank = wild_rank
        self.rules = WildRules(flush_wilds="ace" if double_ace_flush else "missing")
        self._order = self.categories[::-1]
        self._index = {c: i for i, c in enumerate(self.categories)}

    def key(self, cards: Sequence[int]) -> int:
        if not 1 <= len(cards) <= 7:
            raise ValueError(f"heifer ranking evaluates 1 to 7 cards, got {len(cards)}")
        if any(is_joker(c) or not 0 <= c < 52 for c in cards):
            raise ValueError(f"heifer ranking takes natural cards with ids 0..51, got {list(cards)}")
        _check_distinct(cards, self.name)
        wr = self.wild_rank
        if len(cards) >= 5 and all(c % 13 != wr for c in cards):
            # No wild card: the standard tables give the same ranking (a royal flush is
            # this system's top straight flush), much faster than the solver.
            key = standard.key_of(cards)
            return key - (1 << TIEBREAK_BITS) if key >> TIEBREAK_BITS == standard.ROYAL_FLUSH else key
        naturals, wilds = _naturals_and_wilds(cards, lambda c: c % 13 == wr)
        cat, tiebreak = best_hand(naturals, wilds, self._order, self.rules)
        return pack(self._index[cat], [r + 1 for r in tiebreak])


class PericoSystem(RankSystem):
    """Perico's five-card ranking: jokers wild, royal flush on top, fewer jokers wins within a category.

    After the joker count, book hands compare by books then natural kickers,
    straights by their top card, flushes and high cards by natural cards with
    jokers below every natural (the inventor's "aces high, jokers low").
    """

    name = "perico"
    categories = standard.WITH_FIVE_OF_A_KIND_AND_ROYAL

    def __init__(self, jokers_in_five_of_a_kind: bool = True):
        self.rules = WildRules(
            five_of_a_kind=jokers_in_five_of_a_kind, flush_wilds="low", wild_kicker=LOW_WILD
        )
        self._order = self.categories[::-1]
        self._index = {c: i for i, c in enumerate(self.categories)}

    def key(self, cards: Sequence[int]) -> int:
        if len(cards) != 5:
            raise ValueError(f"perico ranking evaluates exactly 5 cards, got {len(cards)}")
        if any(not (0 <= c < 52 or is_joker(c)) for c in cards):
            raise ValueError(f"perico ranking takes cards of the 52-card deck and jokers, got {list(cards)}")
        _check_distinct(cards, self.name)
        if not any(c >= 65 for c in cards):
            # No joker: standard ranking with the joker-count nibble (7 - 0) on top of the tie-break.
            key = standard.key_of(cards)
            cat = key >> TIEBREAK_BITS
            cat = self._index["royal_flush"] if cat == standard.ROYAL_FLUSH else cat
            return (cat << TIEBREAK_BITS) | (7 << 24) | ((key & ((1 << TIEBREAK_BITS) - 1)) >> 4)
        naturals, jokers = _naturals_and_wilds(cards, is_joker)
        cat, tiebreak = best_hand(naturals, jokers, self._order, self.rules)
        return pack(self._index[cat], [7 - jokers, *(r + 1 for r in tiebreak)])


_BUILTIN: dict[str, Callable[..., RankSystem]] = {
    "standard": StandardSystem,
    "caribbean": CaribbeanSystem,
    "heifer": HeiferSystem,
    "perico": PericoSystem,
}
# Systems that live in their own modules; each module defines ``make_system(**options)``.
_MODULES = {
    "perico6": "pokerzoo.envs.engine.hands.six_card",
    "mexican": "pokerzoo.envs.engine.hands.exact",
}
SYSTEM_NAMES = (*_BUILTIN, *_MODULES)
_CACHE: dict[tuple, RankSystem] = {}


def get_system(name: str | RankSystem, **options) -> RankSystem:
    """The rank system called ``name`` with these options (instances are cached and shared)."""
    if isinstance(name, RankSystem):
        if options:
            raise ValueError("options go to get_system only with a system name, not an instance")
        return name
    cache_key = (name, tuple(sorted(options.items())))
    system = _CACHE.get(cache_key)
    if system is None:
        if name in _BUILTIN:
            factory = _BUILTIN[name]
        elif name in _MODULES:
            factory = importlib.import_module(_MODULES[name]).make_system
        else:
            raise ValueError(f"unknown rank system {name!r}; known: {', '.join(SYSTEM_NAMES)}")
        try:
            system = factory(**options)
        except TypeError as exc:
            raise ValueError(f"rank system {name!r}: {exc}") from None
        _CACHE[cache_key] = system
    return system
