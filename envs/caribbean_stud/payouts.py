"""Caribbean stud settlement: dealer qualification and the raise pay table.

Written once over numpy arrays so that the env (one box at a time) and the
house-edge measurement (millions of deals at once) run the very same rules.
"""

from __future__ import annotations

import numpy as np

from pokerzoo.envs.engine.hands import get_system, standard
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
_PAY_BY_STANDARD_CATEGORY = np.array([RAISE_PAYS[c] for c in standard.CATEGORIES], dtype=np.int64)

RESULTS = ("fold", "no_qualify", "win", "lose", "push")


def settle(box_key, dealer_key, raised, ante=1):
    """Net chips won by each box, and its result code (an index into ``RESULTS``).

    Folded: -ante. Raised against a dealer without Ace-King: +ante, the raise
    returned. Qualified dealer: a better box wins the ante 1:1 and the raise
    (2 x ante) at the pay table; a worse box loses ante and raise; a tie pushes.

    Written with arithmetic on booleans only, so the same lines settle one box
    (Python ints, the env's hot path) or millions (numpy arrays, the house-edge
    measurement).
    """
    qualified = dealer_key >= QUALIFY_KEY
    win = box_key > dealer_key
    lose = box_key < dealer_key
    folded = 1 - raised
    pay = _PAY_BY_STANDARD_CATEGORY[box_key >> TIEBREAK_BITS]
    net = raised * (qualified * (win * (ante + 2 * ante * pay) - lose * 3 * ante) + (1 - qualified) * ante)
    net = net - folded * ante
    result = raised * ((1 - qualified) * 1 + qualified * (win * 2 + lose * 3 + (1 - win) * (1 - lose) * 4))
    return net, result
