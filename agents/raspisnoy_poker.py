"""Scripted agents for Raspisnoy poker: ``heuristic`` and ``pimc`` (``random`` comes from the registry).

Both expose bidding and play separately (``bid`` and ``play`` methods; ``act``
routes by phase), so ``make_agent("raspisnoy_poker", "heuristic+pimc")`` bids
like one and plays like the other.

**Heuristic bidding** counts likely winners and rounds the sum (then takes
the nearest legal bid if the dealer's forbidden bid comes up):

* jokers: red 0.95, black 0.85;
* trumps: ace 1, king 0.9 (0.6 alone), queen 0.8 with 3+ trumps (0.3 shorter),
  jack 0.6 with 4+ trumps; every trump beyond the fourth 0.6; with 3+ trumps,
  each void or singleton side suit 0.4 (ruffs);
* side suits: ace 0.85 (0.6 when the suit is 4+ long, so likely trumped), a
  protected king (with another card of the suit) 0.5, or 0.7 beside the ace;
  without trump a 5+ card suit headed by the ace or king adds 0.4 per card beyond four;
* plus 0.15 · cards / players for small cards that still take tricks (``LOW_CARD_SHARE``,
  tuned in duplicate self-play among 0, 0.15, 0.3 and 0.45);
* dark deals (cards not seen): ⌊cards / players + 0.25⌋;
* forehead deals: the exact chance that the unseen own card wins the single
  trick against the visible cards (jokers assumed high unless their holder bid 0);
  bid 1 when it exceeds 55/104 (the break-even of 50/−50 against 5/1).

**Heuristic play** wants tricks while short of its bid (always in gold,
never in misère; after an overbid extra tricks score 1 each, so it wants
them again) and sheds them once it has its bid:

* leading, wanting: a "boss" (every higher card of its suit seen; trumps
  first), else a high joker (without trump: in its longest suit), else the
  lowest card of its longest side suit;
* leading, shedding: a side-suit card before a trump, the one with the most
  unseen higher cards of its suit (then the lowest); a low joker in the suit
  with most cards out if nothing else;
* following, wanting: the cheapest winner when last to play; otherwise the
  cheapest trump (without trump: card) that no unseen card of its suit
  beats, else a high joker, else its highest winner; if nothing wins, the
  cheapest card (side suits before trumps, jokers last);
* following, shedding: the highest card that does not win now (a low joker
  if no natural card loses); when everything wins, the lowest winner (the
  highest when last, taking the trick with the card it most wants rid of).

**PIMC** (perfect-information Monte Carlo): for each legal action it samples
worlds with ``game.determinize`` (the hidden cards re-dealt among the places
it cannot see, respecting the voids play has shown), applies the action and
plays the deal out with the heuristic for everyone, and picks the action
with the best mean score for the deal. The same worlds are used for every
action (common random numbers). Bidding is the same search over the legal
bids within 2 of the heuristic's, each playout bidding for the others with
the heuristic. It uses the live game only through ``determinize`` (and
``clone`` of the sampled worlds), never its hidden cards or its generator.
It is the generic PIMC of ``pokerzoo.agents.search`` with Raspisnoy's
candidates and budgets, and plays exactly as it did before it was
(``benchmarks/raspisnoy_pimc_equivalence.py``); ``ismcts`` is the generic one.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pokerzoo.agents import search
from pokerzoo.agents.base import Agent
from pokerzoo.envs.engine.cards import BLACK_JOKER, DECKS, RED_JOKER
from pokerzoo.envs.engine.game import Game
from pokerzoo.envs.engine.tricks import HIGH, LOW, NATURAL, Play, best_strength, strength, winner
from pokerzoo.envs.raspisnoy_poker import actions
from pokerzoo.envs.raspisnoy_poker.schedule import FOREHEAD, GOLD, MISERE
from pokerzoo.envs.raspisnoy_poker.view import RaspisnoyView

_DECK_MASK = {name: sum(1 << c for c in DECKS[name].cards if c < 52) for name in ("54", "34")}
LOW_CARD_SHARE = 0.15  # small cards that still take tricks: tuned in duplicate self-play (0, 0.15, 0.3, 0.45)
FOREHEAD_THRESHOLD = 55 / 104  # bid 1 iff 100p - 50 > 5 - 4p


# --------------------------------------------------------------------------- bidding
def count_winners(hand: Sequence[int], trump: int) -> float:
    """The expected tricks of ``hand`` by counting likely winners (see the module docstring)."""
    est = 0.0
    by_suit: list[list[int]] = [[], [], [], []]
    for c in hand:
        if c >= 65:
            est += 0.95 if c == RED_JOKER else 0.85
        else:
            by_suit[c // 13].append(c % 13)
    trumps = len(by_suit[trump]) if trump >= 0 else 0
    for s, ranks in enumerate(by_suit):
        length = len(ranks)
        if not length:
            continue
        ranks.sort(reverse=True)
        if s == trump:
            for r in ranks:
                if r == 12:
                    est += 1.0
                elif r == 11:
                    est += 0.9 if length >= 2 else 0.6
                elif r == 10:
                    est += 0.8 if length >= 3 else 0.3
                elif r == 9 and length >= 4:
                    est += 0.6
            est += 0.6 * max(0, length - 4)
            continue
        if 12 in ranks:
            est += 0.85 if length <= 3 else 0.6
        if 11 in ranks and length >= 2:
            est += 0.7 if 12 in ranks else 0.5
        if trump < 0 and length >= 5 and (12 in ranks or 11 in ranks):
            est += 0.4 * (length - 4)
    if trumps >= 3:
        est += 0.4 * sum(1 for s in range(4) if s != trump and len(by_suit[s]) <= 1)
    return est


def forehead_win_probability(view: RaspisnoyView) -> float:
    """The chance that the own (unseen) card wins the one trick of a forehead deal."""
    n, me = view.num_players, view.player
    known = {c for cards in view.visible for c in cards}
    known.update(p.card for p in view.trick)
    if view.pending_joker >= 0:
        known.add(view.pending_joker)
    if view.trump_card >= 0 and not view.whole_deck:
        known.add(view.trump_card)
    candidates = [c for c in DECKS[view.deck].cards if c not in known]
    if not candidates:
        return 0.0
    trick = list(view.trick)
    order = [(view.leader + i) % n for i in range(len(trick), n)]
    wins = 0
    for mine in candidates:
        plays = list(trick)
        for seat in order:
            card = mine if seat == me else view.visible[seat][0]
            if card >= 65:
                decl = HIGH if seat == me or view.bids[seat] != 0 else LOW
                suit = plays[0].suit if plays else (view.trump if view.trump >= 0 else 0)
                plays.append(Play(seat, card, decl, suit))
            else:
                plays.append(Play(seat, card, NATURAL, card // 13))
        wins += plays[winner(plays, view.trump)].seat == me
    return wins / len(candidates)


def heuristic_bid(
    view: RaspisnoyView, mask: np.ndarray | list[int], low_card_share: float = LOW_CARD_SHARE
) -> int:
    """The heuristic bid action (see the module docstring)."""
    if view.kind == FOREHEAD:
        estimate = 1.0 if forehead_win_probability(view) > FOREHEAD_THRESHOLD else 0.0
    elif view.hand_hidden:
        estimate = float(int(view.cards / view.num_players + 0.25))
    else:
        estimate = min(
            count_winners(view.hand, view.trump) + low_card_share * view.cards / view.num_players, view.cards
        )
    return nearest_bid(estimate, mask)


def nearest_bid(estimate: float, mask: np.ndarray | list[int]) -> int:
    """The legal bid nearest the estimate: the rounded value if allowed, else the closer neighbour."""
    legal = [
        a - actions.BID_BASE for a in (mask if isinstance(mask, list) else np.flatnonzero(mask).tolist())
    ]
    best = min(legal, key=lambda b: (abs(b - round(estimate)), abs(b - estimate), b))
    return actions.BID_BASE + best


# --------------------------------------------------------------------------- play
def _decode(action: int, trick: Sequence[Play], trump: int, seat: int) -> Play:
    if action < actions.JOKER_BASE:
        return Play(seat, action, NATURAL, action // 13)
    card, decl, suit = actions.decode_joker(action)
    if trick:
        suit = trick[0].suit
    elif decl == HIGH and trump >= 0:
        suit = trump
    return Play(seat, card, decl, suit)


class _Seen:
    """Card knowledge of one seat for the play heuristics: which natural cards may be in other hands.

    Built lazily (only the decisions that need it pay for it); per suit a bit mask of the ranks out.
    """

    __slots__ = ("out",)

    def __init__(self, view: RaspisnoyView):
        gone = 0
        for c in view.hand:
            gone |= 1 << c
        for t in view.done_tricks:
            for p in t:
                gone |= 1 << p.card
        for p in view.trick:
            gone |= 1 << p.card
        if view.trump_card >= 0 and not view.whole_deck:
            gone |= 1 << view.trump_card
        out = _DECK_MASK[view.deck] & ~gone
        self.out = [(out >> (13 * s)) & 0x1FFF for s in range(4)]

    def higher_out(self, card: int) -> int:
        return (self.out[card // 13] >> (card % 13 + 1)).bit_count()

    def count_out(self, suit: int) -> int:
        return self.out[suit].bit_count()


def wants_tricks(view: RaspisnoyView) -> bool:
    if view.kind == GOLD:
        return True
    if view.kind == MISERE:
        return False
    bid, taken = view.bids[view.player], view.tricks[view.player]
    return taken < bid or taken > bid


def heuristic_play(view: RaspisnoyView, mask: np.ndarray | list[int]) -> int:
    """The heuristic card (or joker declaration) action (see the module docstring).

    ``mask`` is the legal-action mask, or already the list of legal actions.
    """
    legal = mask if isinstance(mask, list) else np.flatnonzero(mask).tolist()
    if len(legal) == 1:
        return legal[0]
    me, trump, trick = view.player, view.trump, view.trick
    want = wants_tricks(view)
    plays = [(a, _decode(a, trick, trump, me)) for a in legal]
    if not trick:
        return _lead(view, plays, want)
    led = trick[0].suit
    best = best_strength(trick, trump)
    scored = [(a, p, strength(p, led, trump)) for a, p in plays]
    winning = [x for x in scored if x[2] > best]
    losing = [x for x in scored if x[2] <= best]
    last = len(trick) == view.num_players - 1
    if want:
        if not winning:
            return min(losing, key=lambda x: _discard_cost(x[1], trump))[0]
        naturals = [x for x in winning if x[1].card < 65]
        if last:
            return min(winning, key=lambda x: (x[1].card >= 65, x[2]))[0]
        if naturals and (trump < 0 or any(x[1].suit == trump for x in naturals)):
            seen = _Seen(view)
            safe = [
                x for x in naturals if (x[1].suit == trump or trump < 0) and not seen.higher_out(x[1].card)
            ]
        else:
            safe = []
        if safe:
            return min(safe, key=lambda x: x[2])[0]
        jokers = [x for x in winning if x[1].card >= 65 and x[1].decl == HIGH]
        if jokers:
            return min(jokers, key=lambda x: x[1].card)[0]  # the red one: nothing beats it
        return max(naturals, key=lambda x: x[2])[0]
    if losing:
        naturals = [x for x in losing if x[1].card < 65]
        if naturals:
            return max(naturals, key=lambda x: (x[2], x[1].card % 13))[0]
        lows = [x for x in losing if x[1].decl == LOW]
        if lows:
            return lows[0][0]
        return losing[0][0]
    naturals = [x for x in winning if x[1].card < 65] or winning
    return (max if last else min)(naturals, key=lambda x: x[2])[0]


def _discard_cost(p: Play, trump: int) -> tuple:
    if p.card >= 65:
        return (2, 0)
    return (1 if p.suit == trump else 0, p.card % 13)


def _lead(view: RaspisnoyView, plays: list[tuple[int, Play]], want: bool) -> int:
    trump = view.trump
    seen = _Seen(view)
    naturals = [(a, p) for a, p in plays if p.card < 65]
    length = [0, 0, 0, 0]
    for c in view.hand:
        if c < 65:
            length[c // 13] += 1
    if want:
        bosses = [(a, p) for a, p in naturals if seen.higher_out(p.card) == 0]
        if bosses:
            return max(bosses, key=lambda x: (x[1].suit == trump, x[1].card % 13))[0]
        highs = [(a, p) for a, p in plays if p.card >= 65 and p.decl == HIGH]
        if highs:
            if trump < 0:
                return max(highs, key=lambda x: (length[x[1].suit], x[1].card == RED_JOKER))[0]
            return min(highs, key=lambda x: x[1].card)[0]
        side = [(a, p) for a, p in naturals if p.suit != trump] or naturals
        if side:
            return min(side, key=lambda x: (-length[x[1].suit], x[1].card % 13))[0]
        return plays[0][0]
    if naturals:
        # Shed the card most likely to be beaten: off trump, most higher cards out, lowest.
        return max(
            naturals, key=lambda x: (x[1].suit != trump, seen.higher_out(x[1].card), -(x[1].card % 13))
        )[0]
    lows = [(a, p) for a, p in plays if p.decl == LOW]
    if lows:
        return max(lows, key=lambda x: (seen.count_out(x[1].suit), x[1].card == BLACK_JOKER))[0]
    return plays[0][0]


# --------------------------------------------------------------------------- agents
class HeuristicAgent(Agent):
    """Counted-winners bidding and take-or-shed play (module docstring)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, low_card_share: float = LOW_CARD_SHARE):
        super().__init__(seed)
        self.low_card_share = low_card_share

    def act(self, view: RaspisnoyView, mask: np.ndarray, game: Game | None = None) -> int:
        if view.phase == "bid":
            return self.bid(view, mask, game)
        return self.play(view, mask, game)

    def bid(self, view: RaspisnoyView, mask: np.ndarray, game: Game | None = None) -> int:
        return heuristic_bid(view, mask, self.low_card_share)

    def play(self, view: RaspisnoyView, mask: np.ndarray, game: Game | None = None) -> int:
        return heuristic_play(view, mask)

    def play_out(self, world: Game, unit: int | None = None) -> None:
        """Play every seat of a search's sampled world like ``act`` would, several times faster.

        Forced moves are applied without building a view, and views are the few
        fields the heuristics read, taken straight from the world (``_WorldView``);
        deals that hide cards from their holder use the full view.
        """
        share = self.low_card_share
        while not world.is_over and (unit is None or world.deal_index == unit):
            seat = world.current_player
            legal = world.legal_action_list()
            if len(legal) == 1:
                world.apply_trusted(legal[0])
                continue
            if world.kind == FOREHEAD or world.own_hand_hidden():
                view = world.view(seat)
            else:
                view = _WorldView(world, seat)
            if view.phase == "bid":
                world.apply_trusted(heuristic_bid(view, legal, share))
            else:
                world.apply_trusted(heuristic_play(view, legal))


class _WorldView:
    """The view fields the heuristics read, taken straight from a sampled world for one seat.

    Rollouts decide tens of thousands of times per second; building a full frozen
    view each time would triple their cost. Only what the seat may know is copied
    (its own hand, public play), and deals that hide cards use the full view.
    """

    __slots__ = (
        "bids",
        "cards",
        "deck",
        "done_tricks",
        "hand",
        "hand_hidden",
        "kind",
        "leader",
        "max_cards",
        "num_players",
        "phase",
        "player",
        "trick",
        "tricks",
        "trump",
        "trump_card",
        "whole_deck",
    )

    def __init__(self, world: Game, seat: int):
        self.player, self.num_players, self.phase = seat, world.num_players, world.phase
        self.kind, self.cards, self.max_cards, self.deck = (
            world.kind,
            world.cards,
            world.max_cards,
            world.deck_name,
        )
        self.trump, self.trump_card, self.whole_deck = world.trump, world.trump_card, world.whole_deck
        self.hand, self.hand_hidden = world.hands[seat], False
        self.trick, self.done_tricks, self.leader = world.trick, world.done_tricks, world.leader
        self.bids, self.tricks = world.bids, world.tricks


class PimcAgent(search.PimcAgent):
    """The generic PIMC (``agents/search.py``) with Raspisnoy's candidates and budgets (module docstring).

    ``budget`` bounds the playouts per play decision, ``bid_budget`` per bid:
    each candidate gets ``max(min_samples, budget // candidates)`` sampled
    worlds. Candidates: the bids within 2 of the heuristic's; the cards
    without equivalent neighbours (``_distinct``). Rollouts: the heuristic.
    The default 128 was chosen on 150 duplicate 4-player single deals against
    the heuristic (mean difference per deal, 95% CI): budget 16 +1.5 ± 1.7,
    48 +2.2 ± 1.9, 128 +4.5 ± 1.6, at about 0.5 s of CPU per deal for two PIMC seats.
    """

    name = "pimc"

    def __init__(
        self,
        seed: int | None = None,
        budget: int = 128,
        min_samples: int = 4,
        bid_budget: int = 48,
        seconds: float | None = None,
        rollout: Agent | None = None,
        horizon: str | None = None,
        paired_rollouts: bool = False,
    ):
        super().__init__(
            seed,
            budget=budget,
            bid_budget=bid_budget,
            min_samples=min_samples,
            seconds=seconds,
            rollout=HeuristicAgent() if rollout is None else rollout,
            horizon=horizon,
            paired_rollouts=paired_rollouts,
        )

    def candidates(self, view: RaspisnoyView, legal: list[int], game: Game) -> list[int]:
        if view.phase == "bid":
            guess = heuristic_bid(view, legal) - actions.BID_BASE
            return [a for a in legal if abs(a - actions.BID_BASE - guess) <= 2]
        return _distinct(view, legal)

    def without_game(self, view: RaspisnoyView, mask: np.ndarray) -> int:
        return heuristic_bid(view, mask) if view.phase == "bid" else heuristic_play(view, mask)

    def bid(self, view: RaspisnoyView, mask: np.ndarray, game: Game | None = None) -> int:
        return self.act(view, mask, game)

    def play(self, view: RaspisnoyView, mask: np.ndarray, game: Game | None = None) -> int:
        return self.act(view, mask, game)


def _distinct(view: RaspisnoyView, legal: list[int]) -> list[int]:
    """Drop natural cards equivalent to a kept one: same suit, no card out between them (e.g. Q-J held)."""
    held = set(view.hand)
    gone = {p.card for t in view.done_tricks for p in t} | {p.card for p in view.trick} | {view.trump_card}
    keep, last_by_suit = [], {}
    for a in sorted(legal):
        if a >= actions.JOKER_BASE:
            keep.append(a)
            continue
        s = a // 13
        prev = last_by_suit.get(s)
        if prev is not None and all(c in held or c in gone for c in range(prev + 1, a)):
            last_by_suit[s] = a
            continue
        keep.append(a)
        last_by_suit[s] = a
    return keep


AGENTS = {"heuristic": HeuristicAgent, "pimc": PimcAgent}
__all__ = [
    "AGENTS",
    "HeuristicAgent",
    "PimcAgent",
    "count_winners",
    "heuristic_bid",
    "heuristic_play",
]
