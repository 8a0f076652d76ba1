"""What one player may know at a moment of Raspisnoy poker, as an immutable view.

Scripted agents reason over this view and the observation vector is encoded
from it, so a learned agent and a scripted agent see the same facts. Every
field is public or the viewer's own, and the tests re-deal hidden cards to
check that no field depends on a card the viewer cannot see.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from pokerzoo.envs.engine.game import View
from pokerzoo.envs.engine.tricks import Play


class SheetRow(NamedTuple):
    """One line of the score sheet: a finished deal."""

    deal: int  # 0-based deal index
    cards: int
    kind: str
    dealer: int
    trump: int  # suit, or -1 without trump
    bids: tuple[int, ...]  # -1 in gold and misère deals
    tricks: tuple[int, ...]
    points: tuple[float, ...]


@dataclass(frozen=True)
class RaspisnoyView(View):
    deck: str  # "54" or "34" (the 34-card deck's jokers are the 6♥ and 6♠)
    deal_index: int  # 0-based index of the current deal in the schedule
    num_deals: int
    kind: str  # normal, no_trump, dark, gold, misere, forehead
    cards: int  # cards dealt to each player this deal (= tricks in the deal)
    max_cards: int  # ⌊deck / players⌋, the largest possible bid
    dealer: int
    trump: int  # suit 0..3 (s, h, d, c) or -1: no trump
    trump_card: int  # the card shown to fix the trump, or -1 (no-trump deals)
    whole_deck: bool  # every card is dealt (no stock)
    trump_holder: int  # whole_deck_trump="dealer_last": the dealer, while holding the turned card; else -1
    hand: tuple[int, ...]  # own cards, sorted; () while hidden from oneself (dark bidding, forehead)
    hand_hidden: bool
    visible: tuple[tuple[int, ...], ...]  # per seat: cards of others this player sees (forehead), else ()
    hand_sizes: tuple[int, ...]
    bids: tuple[int, ...]  # per seat, -1 = not (yet) bid
    tricks: tuple[int, ...]  # tricks taken this deal, per seat
    leader: int  # who led (or leads) the current trick
    trick: tuple[Play, ...]  # the current trick, in play order
    pending_joker: int  # forehead: the joker just revealed and waiting for its declaration, else -1
    done_tricks: tuple[tuple[Play, ...], ...]  # finished tricks of this deal, in order
    trick_winners: tuple[int, ...]
    voids: tuple[int, ...]  # per seat: bit s set = known to hold no card of suit s (from play)
    ceilings: tuple[tuple[int, ...], ...]  # per seat and suit: highest rank they can hold (variant rule)
    scores: tuple[float, ...]  # running totals
    sheet: tuple[SheetRow, ...]  # finished deals
    schedule: tuple[tuple[int, str], ...]  # the deals of this episode

    @property
    def bidding(self) -> bool:
        return self.phase == "bid"
