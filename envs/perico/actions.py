"""The action layout of Perico (one ``Discrete`` space per variant; H = hand size, 5 or 6).

| action           | phase   | meaning                                                          |
|------------------|---------|------------------------------------------------------------------|
| 0                | knock   | knock: the round ends now and the hands are compared             |
| 1                | knock   | play on (take a draw turn)                                       |
| 2                | turn    | draw the top stock card, then discard one card (phase discard)   |
| 3 .. 3+H         | discard | discard hand slot 0..H-1, or slot H = the card just drawn        |
| 4+H .. 2+H+2^H   | turn    | exchange: discard the slots of bit mask m = action - (3+H), then draw as many |

Five cards: 40 actions; six cards: 73. Slots index the hand in its sorted
order (rank 2..A, then suit s h d c, jokers last); the drawn card is slot H
until it is kept or discarded. Splitting the knock into its own phase lets a
composite agent give the knock to a "bidder" and the draws to a "player".
"""

from __future__ import annotations

import numpy as np

KNOCK, CONTINUE, DRAW = 0, 1, 2
DISCARD0 = 3


def exchange0(hand_size: int) -> int:
    """Action of exchange mask 1 (slot 0 only); mask m is ``exchange0 + m - 1``."""
    return DISCARD0 + hand_size + 1


def num_actions(hand_size: int) -> int:
    return exchange0(hand_size) + (1 << hand_size) - 1


def exchange_action(hand_size: int, slots: list[int] | tuple[int, ...]) -> int:
    """The exchange action discarding these hand slots."""
    if not slots or any(not 0 <= s < hand_size for s in slots) or len(set(slots)) != len(slots):
        raise ValueError(f"exchange slots must be distinct values in 0..{hand_size - 1}, got {slots}")
    return exchange0(hand_size) + sum(1 << s for s in slots) - 1


def exchange_slots(hand_size: int, action: int) -> list[int]:
    mask = action - exchange0(hand_size) + 1
    return [s for s in range(hand_size) if mask >> s & 1]


def phase_masks(hand_size: int) -> dict[str, np.ndarray]:
    """The legal-action mask of each phase; in Perico legality depends on the phase only."""
    n = num_actions(hand_size)
    masks = {}
    for phase, legal in (
        ("knock", [KNOCK, CONTINUE]),
        ("turn", [DRAW, *range(exchange0(hand_size), n)]),
        ("discard", list(range(DISCARD0, DISCARD0 + hand_size + 1))),
    ):
        mask = np.zeros(n, dtype=bool)
        mask[legal] = True
        mask.setflags(write=False)
        masks[phase] = mask
    return masks
