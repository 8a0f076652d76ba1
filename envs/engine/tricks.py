"""Trick-taking resolution shared by trick games: follow suit, trumps and declared jokers.

A trick is a sequence of ``Play`` records. Natural cards count in their own
suit; a joker counts as whatever its player declared when playing it:

* ``HIGH`` on lead with a trump suit: the highest trump (the led suit is trump);
* ``HIGH`` on lead without trump: the highest card of the declared suit (led suit);
* ``LOW`` on lead: the lowest card of the declared suit (led suit);
* ``HIGH`` on follow: wins the trick (as the highest trump, or the highest card of
  the led suit when there is no trump); it is beaten only by another high joker;
* ``LOW`` on follow: below every natural card of the led suit.

Two high jokers, or two low jokers, in one trick: the red one wins (``red_jokers``;
with two jokers of the same colour, e.g. in a 56-card deck, the earlier one wins).

Everything here is a pure function of small tuples so that game state machines,
scripted agents and fast search rollouts all resolve tricks with the same code.
No PettingZoo, no game state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from pokerzoo.envs.engine.cards import RED_JOKER, RED_JOKER_2, STANDARD_SUIT_CHARS, format_card

NO_TRUMP = -1
NATURAL, HIGH, LOW = 0, 1, 2
DECLARATION_NAMES = {NATURAL: "", HIGH: "high", LOW: "low"}

# Strength tiers: a card that follows neither the led suit nor trump can never win.
_OFF, _LED, _TRUMP, _TOP = 0, 1, 2, 3
_TIER = 32  # ranks are encoded 1..15 inside a tier


class Play(NamedTuple):
    """One card put into a trick.

    ``suit`` is the suit the card counts in: a natural card's own suit; a joker
    led ``HIGH`` or ``LOW``: the declared suit (the trump suit for a high-trump
    lead); a joker following: the led suit. ``decl`` is ``NATURAL`` for natural cards.
    """

    seat: int
    card: int
    decl: int = NATURAL
    suit: int = -1

    def label(self, suit_chars: str = STANDARD_SUIT_CHARS) -> str:
        """``As``, ``RJ(high)``, ``BJ(low h)``: the card and, for a joker, its declaration."""
        text = format_card(self.card)
        if self.decl == NATURAL:
            return text
        suit = f" {suit_chars[self.suit]}" if self.suit >= 0 else ""
        return f"{text}({DECLARATION_NAMES[self.decl]}{suit})"


@dataclass(frozen=True)
class TrickRules:
    """The obligations a trick game switches on or off.

    * ``must_follow_suit``: a player holding a natural card of the led suit must play one;
    * ``must_trump``: a player with no card of the led suit must play a trump if holding one;
    * ``joker_lead_demands_highest``: after a ``HIGH`` joker lead, a player following suit
      must play their highest card of the led suit (only meaningful with ``must_follow_suit``);
    * ``jokers_free``: jokers may be played at any time, whatever is led and held.
    """

    must_follow_suit: bool = True
    must_trump: bool = True
    joker_lead_demands_highest: bool = False
    jokers_free: bool = True
    red_jokers: frozenset[int] = frozenset({RED_JOKER, RED_JOKER_2})


def is_joker(card: int) -> bool:
    return card >= 65


def suit(card: int) -> int:
    return card // 13 if card < 65 else -1


def led_suit(trick: Sequence[Play]) -> int:
    """The suit others must follow (-1 for an empty trick)."""
    return trick[0].suit if trick else -1


def strength(play: Play, led: int, trump: int, red_jokers: frozenset[int] = TrickRules.red_jokers) -> int:
    """An integer that orders the plays of one trick: the largest wins.

    Natural cards count by rank within tiers (trump > led suit > other); a high
    joker is above everything; a low joker is below every natural of its suit.
    """
    card = play.card
    if card >= 65:
        red = card in red_jokers
        if play.decl == HIGH:
            return _TOP * _TIER + (2 if red else 1)
        s, rank = play.suit, (2 if red else 1)
    else:
        s, rank = card // 13, card % 13 + 3
    if s == trump and trump >= 0:
        return _TRUMP * _TIER + rank
    if s == led:
        return _LED * _TIER + rank
    return _OFF * _TIER + rank


def winner(trick: Sequence[Play], trump: int, red_jokers: frozenset[int] = TrickRules.red_jokers) -> int:
    """Index (in ``trick``) of the winning play; the earlier play wins a tie."""
    led = trick[0].suit
    best, best_i = -1, 0
    for i, p in enumerate(trick):
        s = strength(p, led, trump, red_jokers)
        if s > best:
            best, best_i = s, i
    return best_i


def best_strength(
    trick: Sequence[Play], trump: int, red_jokers: frozenset[int] = TrickRules.red_jokers
) -> int:
    """Strength of the play currently winning ``trick`` (-1 when empty)."""
    if not trick:
        return -1
    led = trick[0].suit
    return max(strength(p, led, trump, red_jokers) for p in trick)


def legal_cards(hand: Iterable[int], trick: Sequence[Play], trump: int, rules: TrickRules) -> list[int]:
    """The cards of ``hand`` that may be put into ``trick`` now (naturals in hand order, then jokers)."""
    hand = list(hand)
    if not trick:
        return hand
    led = trick[0].suit
    jokers = [c for c in hand if c >= 65] if rules.jokers_free else []
    follow = [c for c in hand if c < 65 and c // 13 == led]
    if follow:
        if not rules.must_follow_suit:
            return hand
        if rules.joker_lead_demands_highest and trick[0].decl == HIGH:
            follow = [max(follow)]
        return follow + jokers
    if rules.must_trump and trump >= 0:
        trumps = [c for c in hand if c < 65 and c // 13 == trump]
        if trumps:
            return trumps + jokers
    return hand


def joker_declarations(leading: bool, trump: int, suits: int = 4) -> list[tuple[int, int]]:
    """(declaration, suit) pairs a joker may be played with.

    Leading with a trump suit: high (= highest trump) or low in any suit; leading
    without trump: high or low in any suit; following: high or low (suit -1: the led suit).
    """
    if not leading:
        return [(HIGH, -1), (LOW, -1)]
    highs = [(HIGH, trump)] if trump >= 0 else [(HIGH, s) for s in range(suits)]
    return [*highs, *((LOW, s) for s in range(suits))]


def make_play(
    seat: int,
    card: int,
    trick: Sequence[Play],
    decl: int = NATURAL,
    declared_suit: int = -1,
    trump: int = NO_TRUMP,
) -> Play:
    """Build the ``Play`` of ``card`` into ``trick``, fixing the suit it counts in.

    Raises ValueError for an inconsistent declaration (a joker without one, a
    natural card with one, a lead without a suit, a high lead in a suit other than trump).
    """
    if card < 65:
        if decl != NATURAL:
            raise ValueError("a natural card takes no declaration")
        return Play(seat, card, NATURAL, card // 13)
    if decl not in (HIGH, LOW):
        raise ValueError("a joker must be declared high or low")
    if trick:
        return Play(seat, card, decl, trick[0].suit)
    if decl == HIGH and trump >= 0:
        if declared_suit not in (-1, trump):
            raise ValueError("a high joker lead in a trump deal is the highest trump")
        return Play(seat, card, HIGH, trump)
    if declared_suit < 0:
        raise ValueError("a joker lead must declare a suit")
    return Play(seat, card, decl, declared_suit)


class Inference(NamedTuple):
    """What a play reveals about its player's hand under the obligations."""

    voids: int  # bit s set: the player holds no natural card of suit s
    ceiling_suit: int  # -1, or a suit in which the player holds nothing ranked above ceiling_rank
    ceiling_rank: int


NOTHING = Inference(0, -1, 12)


def infer(play: Play, trick_before: Sequence[Play], trump: int, rules: TrickRules) -> Inference:
    """Voids (and, with ``joker_lead_demands_highest``, a ceiling) shown by following with ``play``.

    Leads and jokers reveal nothing (jokers are always playable). Without
    ``must_follow_suit`` nothing is certain: a player may discard while holding the suit.
    """
    if not trick_before or play.card >= 65 or not rules.must_follow_suit:
        return NOTHING
    led = trick_before[0].suit
    s = play.card // 13
    if s == led:
        if rules.joker_lead_demands_highest and trick_before[0].decl == HIGH:
            return Inference(0, led, play.card % 13)
        return NOTHING
    voids = 1 << led
    if rules.must_trump and trump >= 0 and s != trump:
        voids |= 1 << trump
    return Inference(voids, -1, 12)
