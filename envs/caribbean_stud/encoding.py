"""Caribbean stud observation vector (float32, every entry in [0, 1]).

| index     | meaning                                                        |
|-----------|----------------------------------------------------------------|
| 0–51      | the cards of the box being decided (one-hot by card id)        |
| 52–103    | the dealer's face-up card                                      |
| 104–155   | cards of the other boxes already seen (earlier boxes)          |
| 156–158   | which box is being decided (box 1, 2, 3)                       |
| 159       | 1 while antes are being chosen (before the deal)               |
| 160–162   | box 1..3 raised                                                |
| 163–165   | box 1..3 folded                                                |
| 166       | ante of the current box / largest allowed ante (0 if not set)  |
| 167–177   | category of the current box's hand (caribbean order, one-hot)  |
| 178       | fraction of the episode's hands already played                 |

Card ids are ``suit * 13 + rank`` with suits s, h, d, c and ranks 2..A.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from pokerzoo.envs.caribbean_stud.payouts import SYSTEM

SIZE = 179
_CATEGORY_INDEX = {c: i for i, c in enumerate(SYSTEM.categories)}


@lru_cache(maxsize=1024)
def _category_index(cards: tuple[int, ...]) -> int:
    """Cached because a hand is encoded at its decision and again at the end of the hand."""
    return _CATEGORY_INDEX[SYSTEM.category_of(SYSTEM.key(cards))]


def encode(view) -> np.ndarray:
    obs = np.zeros(SIZE, dtype=np.float32)
    b = view.box
    current = view.box_cards[b]
    if current:
        obs[list(current)] = 1.0
        obs[167 + _category_index(tuple(current))] = 1.0
    if view.dealer_up >= 0:
        obs[52 + view.dealer_up] = 1.0
    for other, cards in enumerate(view.box_cards):
        if other != b and cards:
            obs[[104 + c for c in cards]] = 1.0
    obs[156 + b] = 1.0
    obs[159] = view.phase == "ante"
    for i, d in enumerate(view.decisions):
        if d == 1:
            obs[160 + i] = 1.0
        elif d == 0:
            obs[163 + i] = 1.0
    obs[166] = view.antes[b] / max(view.ante_choices)
    obs[178] = view.hand_number / view.num_hands
    return obs
