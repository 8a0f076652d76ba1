"""One hand evaluator for every game, parameterised by a rank system.

>>> from pokerzoo.envs.engine.hands import evaluate
>>> evaluate("As Ks Qs Js Ts").category
'royal_flush'
>>> evaluate("Ah Kd 4c 3s 2h", system="caribbean").category
'ace_king'
>>> evaluate("Ah Ad 7c 7h 5s 5d 2c") > evaluate("Kh Kd Qc Qs 9h")
True

Systems: ``standard`` (best 5 of 5..7), ``caribbean`` (standard with the Ace-King
category), ``heifer`` (wild rank, option ``wild_rank``), ``perico`` (jokers wild,
fewer jokers wins; option ``jokers_in_five_of_a_kind``), ``perico6`` (the
fifteen six-card categories) and ``mexican`` (exact-size combinations over
five suits). ``evaluate_batch`` returns the same integer keys for an (N, k)
array of card ids; the standard system does this with numpy table lookups.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from pokerzoo.envs.engine.cards import parse_cards
from pokerzoo.envs.engine.hands.systems import SYSTEM_NAMES, RankSystem, get_system
from pokerzoo.envs.engine.hands.value import HandValue

__all__ = ["SYSTEM_NAMES", "HandValue", "RankSystem", "evaluate", "evaluate_batch", "get_system"]


def evaluate(cards: str | Iterable[int | str], system: str | RankSystem = "standard", **options) -> HandValue:
    """Strength of one hand; ``cards`` as ids, card strings or one space-separated string."""
    rank_system = get_system(system, **options)
    return rank_system.evaluate(parse_cards(cards, rank_system.suit_chars))


def evaluate_batch(cards: np.ndarray, system: str | RankSystem = "standard", **options) -> np.ndarray:
    """Comparable int64 keys for an (N, k) array of card ids (equal to ``evaluate(...).key``)."""
    return get_system(system, **options).keys_batch(np.asarray(cards))
