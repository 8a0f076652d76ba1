"""The action space of Mexican poker: one ``Discrete`` for predictions, doubts and combinations.

| action     | meaning                                                                  |
|------------|--------------------------------------------------------------------------|
| 0–6        | predict 0..6 tricks                                                      |
| 7          | pass the doubt chip (only with ``doubt_pass=True``)                      |
| 8–13       | doubt the prediction of the player 1..6 seats clockwise (``7 + offset``) |
| 14–1567    | play a combination: a set of hand slots and board slots (below)          |

A combination is a subset of twelve *slots*: hand slots 0–6 are the acting
player's cards in their sorted order (rank, then suit; the hand closes up as
cards leave it), board slots 0–4 are the board cards in sorted order. The
1,554 combination actions are every subset of 1 to 5 slots holding at least
one hand slot, in the order of ``itertools.combinations(range(12), k)`` for
k = 1..5, where slot numbers 0–6 are hand slots and 7–11 board slots 0–4.
``COMBO_BITS[a - FIRST_COMBO]`` is the slot bitmask of action ``a`` (bit i = slot i)
and ``COMBO_ACTION[bits]`` maps a bitmask back (-1 for masks that are no action).

Slots rather than card ids keep the space small (1,554 instead of one action
per card set) and the same for every deal; the observation lists the card in
every slot so that a policy can read what each action plays.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

HAND_SLOTS = 7
BOARD_SLOTS = 5
SLOTS = HAND_SLOTS + BOARD_SLOTS
BOARD_SHIFT = HAND_SLOTS  # bit of board slot j is 1 << (BOARD_SHIFT + j)
ALL_HAND_BITS = (1 << HAND_SLOTS) - 1

MAX_PREDICTION = 6
NUM_PREDICTIONS = MAX_PREDICTION + 1
PASS = 7
DOUBT_BASE = 7  # doubting the player ``offset`` seats clockwise is action DOUBT_BASE + offset
MAX_OFFSET = 6
FIRST_COMBO = DOUBT_BASE + MAX_OFFSET + 1  # 14


def _combo_bits() -> tuple[int, ...]:
    out = []
    for k in range(1, 6):
        for slots in itertools.combinations(range(SLOTS), k):
            bits = sum(1 << s for s in slots)
            if bits & ALL_HAND_BITS:
                out.append(bits)
    return tuple(out)


COMBO_BITS: tuple[int, ...] = _combo_bits()
NUM_COMBOS = len(COMBO_BITS)  # 1554
NUM_ACTIONS = FIRST_COMBO + NUM_COMBOS  # 1568
COMBO_ACTION = np.full(1 << SLOTS, -1, dtype=np.int64)
COMBO_ACTION[list(COMBO_BITS)] = np.arange(FIRST_COMBO, NUM_ACTIONS)
# Per combination action: the hand slots and board slots it uses.
COMBO_HAND_SLOTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i in range(HAND_SLOTS) if b >> i & 1) for b in COMBO_BITS
)
COMBO_BOARD_SLOTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(j for j in range(BOARD_SLOTS) if b >> (BOARD_SHIFT + j) & 1) for b in COMBO_BITS
)


def is_combo(action: int) -> bool:
    return FIRST_COMBO <= action < NUM_ACTIONS


def combo_action(hand_slots: Sequence[int], board_slots: Sequence[int] = ()) -> int:
    """The action playing these hand and board slots; ValueError if no action plays them."""
    bits = 0
    for i in hand_slots:
        if not 0 <= i < HAND_SLOTS:
            raise ValueError(f"hand slot {i} is outside 0..{HAND_SLOTS - 1}")
        bits |= 1 << i
    for j in board_slots:
        if not 0 <= j < BOARD_SLOTS:
            raise ValueError(f"board slot {j} is outside 0..{BOARD_SLOTS - 1}")
        bits |= 1 << (BOARD_SHIFT + j)
    action = int(COMBO_ACTION[bits]) if bits < len(COMBO_ACTION) else -1
    if action < 0:
        raise ValueError(
            f"no action plays hand slots {list(hand_slots)} and board slots {list(board_slots)}: "
            "a combination has 1 to 5 cards with at least one hand card"
        )
    return action


def split(action: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(hand slots, board slots) of a combination action."""
    i = action - FIRST_COMBO
    return COMBO_HAND_SLOTS[i], COMBO_BOARD_SLOTS[i]
