"""The single ``Discrete`` action space of Raspisnoy poker: cards, joker declarations, bids.

| action            | meaning                                                                  |
|-------------------|--------------------------------------------------------------------------|
| 0–51              | play the natural card with that id (``suit * 13 + rank``; s, h, d, c; 2..A) |
| 52 + 10·j + k     | play joker ``j`` (0 = red ``RJ``, 1 = black ``BJ``) declared as ``k``:     |
|                   | k=0 ``high`` (lead in a trump deal: highest trump; follow: wins the trick) |
|                   | k=1..4 ``high`` in suit s, h, d, c (lead in a deal without trump)          |
|                   | k=5..8 ``low`` in suit s, h, d, c (lead: lowest card of that suit)         |
|                   | k=9 ``low`` (follow: below every card of the led suit)                     |
| 72                | forehead deals: play the card on your forehead (you do not know it);     |
|                   | if it is a joker you then declare it with 52 + 10·j + k                   |
| 73 + b            | bid ``b`` tricks, b = 0 .. ⌊deck / players⌋                               |

The layout depends only on the deck and the player count (the number of bid
actions), so one policy fits every schedule of a table. In the 34-card deck the
six of hearts and six of spades are the red and black jokers (actions 52–71)
and the ids of ranks 2–6 are never legal.
"""

from __future__ import annotations

from pokerzoo.envs.engine.cards import BLACK_JOKER, RED_JOKER, STANDARD_SUIT_CHARS, format_card
from pokerzoo.envs.engine.tricks import HIGH, LOW

JOKER_BASE = 52
JOKER_IDS = (RED_JOKER, BLACK_JOKER)
DECLS_PER_JOKER = 10
FOREHEAD = 72
BID_BASE = 73

HIGH_PLAIN, LOW_PLAIN = 0, 9  # k of "high" (trump lead / follow) and "low" (follow)


def num_actions(max_bid: int) -> int:
    return BID_BASE + max_bid + 1


def joker_action(card: int, decl: int, suit: int, leading: bool, trump: int) -> int:
    """The action of playing joker ``card`` with a declaration (suit -1 when following)."""
    base = JOKER_BASE + DECLS_PER_JOKER * JOKER_IDS.index(card)
    if not leading:
        return base + (HIGH_PLAIN if decl == HIGH else LOW_PLAIN)
    if decl == HIGH:
        return base + (HIGH_PLAIN if trump >= 0 else 1 + suit)
    return base + 5 + suit


def decode_joker(action: int) -> tuple[int, int, int]:
    """(card, declaration, declared suit or -1) of a joker action."""
    j, k = divmod(action - JOKER_BASE, DECLS_PER_JOKER)
    card = JOKER_IDS[j]
    if k == HIGH_PLAIN:
        return card, HIGH, -1
    if k == LOW_PLAIN:
        return card, LOW, -1
    if k <= 4:
        return card, HIGH, k - 1
    return card, LOW, k - 5


def is_card_action(action: int) -> bool:
    return 0 <= action < FOREHEAD


def action_name(action: int, max_bid: int, joker_labels: dict[int, str] | None = None) -> str:
    if 0 <= action < JOKER_BASE:
        return f"play {format_card(action)}"
    if JOKER_BASE <= action < FOREHEAD:
        card, decl, suit = decode_joker(action)
        label = format_card(card)
        if joker_labels and card in joker_labels:
            label += f"[{joker_labels[card]}]"
        what = "high" if decl == HIGH else "low"
        if suit >= 0:
            what += f" {STANDARD_SUIT_CHARS[suit]}"
        return f"play {label} {what}"
    if action == FOREHEAD:
        return "play forehead card"
    if BID_BASE <= action <= BID_BASE + max_bid:
        return f"bid {action - BID_BASE}"
    return f"invalid({action})"
