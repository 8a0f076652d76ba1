"""Which rank is wild: RULES.md §3's board-pair rule, one up card at a time.

The rule reads the up cards in the order they are dealt. For each up card:
first, if a pair is pending, this card's rank becomes the wild rank; then, if
this card repeats the rank of an earlier up card (of the same player, or of
any player with ``wild_pairs="any_player"``), the wild rank is cleared at once
and a pair is pending. The defining card can therefore itself make a new
pair; a pair pending when no up card follows leaves nothing wild.

The tracker is tiny and pure (ranks as bitmasks), so the game, the equity
agent's simulations and the tests all run the very same code.
"""

from __future__ import annotations

NO_WILD = -1


class WildTracker:
    """Wild rank and pending pair after the up cards seen so far in one hand."""

    __slots__ = ("any_player", "pending", "player_ranks", "table_ranks", "wild")

    def __init__(self, num_players: int, any_player: bool = False):
        self.any_player = any_player
        self.player_ranks = [0] * num_players  # bit r set: the player has shown rank r face up
        self.table_ranks = 0  # ranks shown face up by anyone (folded players included)
        self.wild = NO_WILD
        self.pending = False

    def see(self, player: int, card: int) -> str | None:
        """Process one up card; returns "wild", "pair", "wild+pair" or None for the event it caused."""
        rank = card % 13
        bit = 1 << rank
        event = None
        if self.pending:
            self.wild = rank
            self.pending = False
            event = "wild"
        earlier = self.table_ranks if self.any_player else self.player_ranks[player]
        if earlier & bit:
            self.wild = NO_WILD
            self.pending = True
            event = "pair" if event is None else "wild+pair"
        self.player_ranks[player] |= bit
        self.table_ranks |= bit
        return event

    def no_more_up_cards(self) -> bool:
        """The last up card has been dealt: a pending pair lapses; True if one did."""
        lapsed = self.pending
        self.pending = False
        return lapsed

    def copy(self) -> WildTracker:
        other = WildTracker.__new__(WildTracker)
        other.any_player = self.any_player
        other.player_ranks = list(self.player_ranks)
        other.table_ranks = self.table_ranks
        other.wild = self.wild
        other.pending = self.pending
        return other

    @classmethod
    def from_up_cards(
        cls,
        up_cards: list[tuple[int, ...]] | tuple[tuple[int, ...], ...],
        wild: int,
        pending: bool,
        any_player: bool,
    ) -> WildTracker:
        """Rebuild the state from what every player shows (what a view holds), for simulations."""
        t = cls(len(up_cards), any_player)
        for p, cards in enumerate(up_cards):
            for c in cards:
                t.player_ranks[p] |= 1 << (c % 13)
            t.table_ranks |= t.player_ranks[p]
        t.wild = wild
        t.pending = pending
        return t
