"""Caribbean stud observation vector (float32, every entry in [0, 1]).

The layout is ``SCHEMA`` below, one ``Piece`` per block with its meaning; the
docs' table (the env's help page, ``docs/games/caribbean_stud.md``) is
rendered from it. Card ids are ``suit * 13 + rank`` with suits s, h, d, c and
ranks 2..A.
"""

from __future__ import annotations

from array import array
from functools import lru_cache

import numpy as np

from pokerzoo.envs.caribbean_stud.payouts import SYSTEM
from pokerzoo.envs.engine.schema import Piece, Schema

CARDS = 52
BOXES = 3  # the most boxes a hand can have (option ``boxes``)

SCHEMA = Schema(
    [
        Piece("box_cards", CARDS, "the cards of the box being decided (one-hot by card id)"),
        Piece("dealer_up", CARDS, "the dealer's face-up card"),
        Piece("seen", CARDS, "cards of the other boxes already seen (earlier boxes)"),
        Piece("box", BOXES, "which box is being decided (box 1, 2, 3)"),
        Piece("ante_phase", 1, "antes are being chosen (before the deal)"),
        Piece("raised", BOXES, "box 1..3 raised"),
        Piece("folded", BOXES, "box 1..3 folded"),
        Piece("ante", 1, "ante of the current box / largest allowed ante (0 if not set)"),
        Piece("category", len(SYSTEM.categories), "category of the current box's hand (Caribbean order, one-hot)"),
        Piece("progress", 1, "fraction of the episode's hands already played"),
    ]
)

# The offsets as plain ints, read once: the encoder runs at every step.
_SIZE = SCHEMA.size  # 179
_O = SCHEMA.offsets
_BOX_CARDS, _DEALER_UP, _SEEN, _BOX = _O["box_cards"], _O["dealer_up"], _O["seen"], _O["box"]
_ANTE_PHASE, _RAISED, _FOLDED, _ANTE = _O["ante_phase"], _O["raised"], _O["folded"], _O["ante"]
_CATEGORY, _PROGRESS = _O["category"], _O["progress"]
_CATEGORY_INDEX = {c: i for i, c in enumerate(SYSTEM.categories)}


@lru_cache(maxsize=1024)
def _category_index(cards: tuple[int, ...]) -> int:
    """Cached because a hand is encoded at its decision and again at the end of the hand."""
    return _CATEGORY_INDEX[SYSTEM.category_of(SYSTEM.key(cards))]


_ZEROS = bytes(4 * _SIZE)


def encode(view) -> np.ndarray:
    """The observation of one view.

    This runs every step, so it fills a Python float array item by item and
    wraps it without copying: cheaper than numpy scatters from index lists
    (as in Perico's encoder).
    """
    obs = array("f", _ZEROS)
    b = view.box
    current = view.box_cards[b]
    if current:
        for c in current:
            obs[_BOX_CARDS + c] = 1.0
        obs[_CATEGORY + _category_index(tuple(current))] = 1.0
    if view.dealer_up >= 0:
        obs[_DEALER_UP + view.dealer_up] = 1.0
    for other, cards in enumerate(view.box_cards):
        if other != b and cards:
            for c in cards:
                obs[_SEEN + c] = 1.0
    obs[_BOX + b] = 1.0
    if view.phase == "ante":
        obs[_ANTE_PHASE] = 1.0
    for i, d in enumerate(view.decisions):
        if d == 1:
            obs[_RAISED + i] = 1.0
        elif d == 0:
            obs[_FOLDED + i] = 1.0
    obs[_ANTE] = view.antes[b] / max(view.ante_choices)
    obs[_PROGRESS] = view.hand_number / view.num_hands
    return np.frombuffer(obs, dtype=np.float32)
