"""Many Caribbean stud hands at once, through the same settlement code as the env.

The env deals box b the shuffled cards ``5b..5b+4`` and the dealer the next
five (the last one face up); ``deal_batch`` lays out numpy deals the same
way, so ``settle_batch`` over these arrays gives exactly what the env gives
for the same deck orders (a test checks this hand by hand).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from pokerzoo.envs.caribbean_stud.payouts import settle
from pokerzoo.envs.engine.hands import standard

Strategy = Callable[[np.ndarray, np.ndarray], np.ndarray]  # (box cards (N,5), dealer up (N,)) -> raise?


def deal_batch(rng: np.random.Generator, n: int) -> np.ndarray:
    """(n, 52) deck orders, top first; box b gets columns 5b..5b+4, the dealer the next five."""
    return np.argsort(rng.random((n, 52)), axis=1).astype(np.int8)


def split(decks: np.ndarray, boxes: int = 1) -> tuple[np.ndarray, np.ndarray]:
    box_cards = decks[:, : 5 * boxes].reshape(len(decks), boxes, 5)
    dealer = decks[:, 5 * boxes : 5 * boxes + 5]
    return box_cards, dealer


def settle_batch(decks: np.ndarray, raises: np.ndarray, boxes: int = 1, ante: int = 1) -> np.ndarray:
    """Net result per hand (summed over boxes) for (n, boxes) raise decisions."""
    box_cards, dealer = split(decks, boxes)
    dealer_keys = standard.keys_batch(dealer)
    total = np.zeros(len(decks), dtype=np.int64)
    for b in range(boxes):
        net, _ = settle(standard.keys_batch(box_cards[:, b]), dealer_keys, raises[:, b], ante)
        total += net
    return total


def play_batch(decks: np.ndarray, strategy: Strategy) -> tuple[np.ndarray, np.ndarray]:
    """(net per hand, raised?) for one-box hands played by a vectorised strategy."""
    box_cards, dealer = split(decks, 1)
    raised = strategy(box_cards[:, 0], dealer[:, 4])
    return settle_batch(decks, raised[:, None]), raised
