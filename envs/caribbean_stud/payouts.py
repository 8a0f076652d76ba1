"""Caribbean stud settlement: dealer qualification and the raise pay table.

Written once over numpy arrays so that the env (one box at a time) and the
house-edge measurement (millions of deals at once) run the very same rules.
"""

from __future__ import annotations

import numpy as np

from pokerzoo.envs.engine.hands import get_system
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS

SYSTEM = get_system("caribbean")
# The dealer qualifies with Ace-King or better; A-K-4-3-2 is the weakest qualifying hand.
QUALIFY_KEY = SYSTEM.ACE_KING_MIN

# Raise pays, by the box's category when it beats a qualified dealer.
RAISE_PAYS = {
    "royal_flush": 100,
    "straight_flush": 50,
    "four_of_a_kind": 20,
    "full_house": 7,
    "flush": 5,
    "straight": 4,
    "three_of_a_kind": 3,
    "two_pair": 2,
    "pair": 1,
    "ace_king": 1,
    "high_card": 1,  # never paid: a box without Ace-King cannot beat a qualified dealer
}
# Pay by standard category index (key >> TIEBREAK_BITS); Ace-King is a standard high card.
_PAY_BY_STANDARD_CATEGORY = np.array(
    [RAISE_PAYS[c] for c in ("high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush",
                             "full_house", "four_of_a_kind", "straight_flush", "royal_flush")],
    dtype=np.int64,
)

RESULTS = ("fold", "no_qualify", "win", "lose", "push")


def raise_pay(box_key):
    """Raise multiplier for a box key (scalar or array)."""
    return _PAY_BY_STANDARD_CATEGORY[np.asarray(box_key) >> TIEBREAK_BITS]


def settle(box_key, dealer_key, raised, ante=1):
    """Net chips won by each box (and the result code index into ``RESULTS``).

    Folded: -ante. Raised against a dealer without Ace-King: +ante, the raise
    returned. Qualified dealer: a better box wins the ante 1:1 and the raise
    (2 x ante) at the pay table; a worse box loses ante and raise; a tie pushes.
    """
    box_key = np.asarray(box_key, dtype=np.int64)
    dealer_key = np.asarray(dealer_key, dtype=np.int64)
    raised = np.asarray(raised, dtype=bool)
    ante = np.asarray(ante, dtype=np.int64)
    qualified = dealer_key >= QUALIFY_KEY
    win = box_key > dealer_key
    lose = box_key < dealer_key
    raise_bet = 2 * ante
    net = np.where(
        ~raised,
        -ante,
        np.where(~qualified, ante, np.where(win, ante + raise_bet * raise_pay(box_key), np.where(lose, -ante - raise_bet, 0))),
    )
    result = np.where(~raised, 0, np.where(~qualified, 1, np.where(win, 2, np.where(lose, 3, 4))))
    return net, result
