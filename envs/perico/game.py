"""Perico and Six-card Perico rules as a state machine (RULES.md §2).

A game is a series of rounds until someone reaches the target score. A round:
deal H cards each (5, six-card 6) from the dealer's left, turn the top stock
card to start the discard pile (a joker turned is shuffled back and another
card turned), then turns clockwise from the dealer's left. A turn is

* ``knock`` phase (only once every player has taken a draw turn this round):
  knock (showdown now) or play on;
* ``turn`` phase: draw the top stock card (then the ``discard`` phase: throw
  one of the H+1 cards) or exchange 1..H cards (discarded in hand order, the
  last on top, then as many drawn).

A royal flush ends the round at once: checked for every hand after the deal
(several royals are compared as at a showdown) and after every draw, also
while holding H+1 cards before discarding. An empty stock is refilled by
shuffling the discard pile except its top card. ``max_turns_per_round`` draw
turns end the round as if knocked. At a showdown the best hand scores one
point and deals next; a tie for best scores nothing and the same dealer deals
the round again.

Hands are kept sorted (rank, then suit, jokers last) so that the slot numbers
the actions use are a function of the cards held, not of the draw order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pokerzoo.envs.engine.cards import format_card, format_cards, is_joker
from pokerzoo.envs.engine.events import UnitEnd
from pokerzoo.envs.engine.game import Game, View
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS
from pokerzoo.envs.engine.options import ConfigError, Option, OptionSet, num_players_option
from pokerzoo.envs.perico import actions, encoding, render, scene
from pokerzoo.envs.perico.actions import CONTINUE, DISCARD0, DRAW, KNOCK
from pokerzoo.envs.perico.ranking import has_royal, ranker_for, sort_hand

FIVE_CARD_MAX_PLAYERS = 6
SIX_CARD_MAX_PLAYERS = 5


def _target_score(value):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1000:
        raise ValueError("expected None (5, six-card 6) or an int in 1..1000")
    return value


def _check(config: dict) -> None:
    if config["six_card"] and config["num_players"] > SIX_CARD_MAX_PLAYERS:
        raise ConfigError(
            f"option num_players={config['num_players']} with six_card=True: Six-card Perico seats "
            f"2..{SIX_CARD_MAX_PLAYERS} players"
        )


@dataclass(frozen=True)
class PericoView(View):
    six_card: bool
    hand_size: int
    deck: str  # deck name, "54" or "56"
    target: int  # points that win the game
    jokers_in_five_of_a_kind: bool
    hand: tuple[int, ...]  # own hand, sorted; slot i of the actions is hand[i]
    hand_category: int  # index of the own hand's category in the variant's order (weakest first)
    drawn: int  # the card this player just drew (slot hand_size) during its discard decision, else -1
    pile: tuple[int, ...]  # the face-up discard pile, bottom to top (public)
    stock_size: int
    draw_turns: tuple[int, ...]  # per seat: draw turns (draw or exchange) taken this round
    exchanged: tuple[int, ...]  # per seat: cards exchanged this round
    last_exchange: tuple[int, ...]  # per seat: cards exchanged on its latest turn this round (0: none yet)
    scores: tuple[int, ...]
    dealer: int
    round_number: int  # 1-based, replayed rounds included
    max_rounds: int
    turns: int  # draw turns taken this round by all seats
    max_turns: int
    knock_allowed: bool
    # Public facts of this round that place hidden cards (``PericoGame._redeal``); not in the observation:
    returned_jokers: tuple[int, ...]  # jokers turned at the deal and shuffled back into the stock
    recycled: tuple[tuple[int, ...], ...]  # per reshuffle: the pile cards that became the new stock
    first_stock_draws: tuple[int, ...]  # per seat: cards drawn from the round's first stock
    recycled_held: tuple[tuple[int, ...], ...]  # per seat, per reshuffle: its cards held (hand + drawn)

    @property
    def pile_top(self) -> int:
        return self.pile[-1] if self.pile else -1


class PericoGame(Game):
    NAME = "perico"
    BIDDING_PHASES = frozenset({"knock"})
    OPTIONS = OptionSet(
        num_players_option(2, FIVE_CARD_MAX_PLAYERS, 4),
        Option(
            "six_card",
            False,
            "Six-card Perico: six-card hands, 52 + 4 jokers, fifteen categories, target 6, 2..5 players",
            kind=bool,
        ),
        Option(
            "deck",
            None,
            "None: '54' (52 + 2 jokers; six-card '56', 52 + 4 jokers); or either deck by name",
            choices=(None, "54", "56"),
        ),
        Option(
            "target_score",
            None,
            "points that win the game (1..1000); None: 5 (six-card 6)",
            kind=(int, type(None)),
            convert=_target_score,
        ),
        Option(
            "jokers_in_five_of_a_kind",
            True,
            "jokers may make five (and six) of a kind; False is the seed's literal reading",
            kind=bool,
        ),
        Option(
            "reward",
            "points",
            "'points': +1 to a round's winner when scored; 'win': terminal, winner +1, others -1/(n-1)",
            choices=("points", "win"),
        ),
        Option(
            "max_rounds",
            200,
            "safety cap on rounds (replays count); the leaders then win, as a truncation",
            kind=int,
            low=1,
            high=100_000,
        ),
        Option(
            "max_turns_per_round",
            100,
            "draw turns after which the round ends as if knocked",
            kind=int,
            low=1,
            high=100_000,
        ),
        check=_check,
    )

    # ------------------------------------------------------------------ setup
    def _setup(self) -> None:
        c = self.config
        self.num_players = c["num_players"]
        self.six_card: bool = c["six_card"]
        self.hand_size = 6 if self.six_card else 5
        self.deck_name = c["deck"] or ("56" if self.six_card else "54")
        self.target: int = c["target_score"] or (6 if self.six_card else 5)
        self.jokers_in_five_of_a_kind: bool = c["jokers_in_five_of_a_kind"]
        self.reward_mode: str = c["reward"]
        self.max_rounds: int = c["max_rounds"]
        self.max_turns: int = c["max_turns_per_round"]
        self.ranker = ranker_for(self.six_card, self.jokers_in_five_of_a_kind)
        self.num_actions = actions.num_actions(self.hand_size)
        self.observation_schema = encoding.SCHEMA
        self._masks = actions.phase_masks(self.hand_size)

        n = self.num_players
        self.scores = [0] * n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.hand_keys = [0] * n  # key of each hand, updated whenever the hand changes
        self.stock: list[int] = []  # top of the stock is the last element
        self.pile: list[int] = []  # top of the discard pile is the last element
        self.drawn = -1  # card drawn by ``self.player`` awaiting the discard decision
        self.dealer = -1
        self.player = 0
        self._phase = "turn"
        self.round_number = 0
        self.turns = 0
        self.draw_turns = [0] * n
        self.exchanged = [0] * n
        self.last_exchange = [0] * n
        self.last_outcome: dict | None = None
        self.winners: list[int] = []
        self._info: dict = {}
        self._reset_card_classes()

    def _reset_card_classes(self) -> None:
        """Forget what this round revealed about hidden cards (a new deal)."""
        n = self.num_players
        self.returned_jokers: tuple[int, ...] = ()
        self.recycled: list[tuple[int, ...]] = []
        self.first_stock_draws = [0] * n
        self.recycled_held: list[list[int]] = [[] for _ in range(n)]
        # card -> g when it went into the stock at reshuffle g (1, 2, ...), or -1 for a returned joker;
        # only read for hidden cards, whose class is then public.
        self.card_class: dict[int, int] = {}

    def _start(self) -> None:
        self.dealer = self.chance.integer(self.num_players)
        self.log("first_dealer", dealer=self.dealer)
        self._next_round()

    # ------------------------------------------------------------------ rounds
    def _deal(self) -> None:
        n, h = self.num_players, self.hand_size
        self.round_number += 1
        order = self.chance.shuffle(self.deck)
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            self._set_hand(seat, order[i * h : (i + 1) * h])
        self.stock = order[n * h :][::-1]
        self.pile = []
        self.drawn = -1
        self._reset_card_classes()
        returned = 0
        card = self.stock.pop()
        while is_joker(card):
            # A joker turned up goes back into the stock, which is shuffled, and another card is turned.
            self.stock.append(card)
            self.stock = self.chance.shuffle(self.stock)[::-1]
            self.returned_jokers += (card,)
            self.card_class[card] = -1
            returned += 1
            card = self.stock.pop()
        self.pile.append(card)
        self.turns = 0
        self.draw_turns = [0] * n
        self.exchanged = [0] * n
        self.last_exchange = [0] * n
        self.player = (self.dealer + 1) % n
        self._phase = "turn"
        self.log("deal", round=self.round_number, dealer=self.dealer, turned=card, jokers_returned=returned)
        self._update_info()

    def _set_hand(self, p: int, cards: list[int]) -> None:
        self.hands[p] = hand = sort_hand(cards)
        self.hand_keys[p] = self.ranker.key(hand)

    def _next_round(self) -> None:
        """Deal rounds until one needs a decision (a dealt royal flush ends a round at once)."""
        while True:
            self._deal()
            holders = [p for p in range(self.num_players) if has_royal(self.hands[p], self.hand_size)]
            if not holders:
                return
            if self._compare(holders, "royal_dealt"):
                return

    def _draw(self) -> int:
        """The top card of the stock for the current player (reshuffling the pile into it when empty)."""
        if not self.stock:
            # Empty stock: the discard pile but its top card is shuffled into a new stock.
            top = self.pile.pop()
            self.recycled.append(tuple(sorted(self.pile)))
            g = len(self.recycled)
            for c in self.pile:
                self.card_class[c] = g
            for held in self.recycled_held:
                held.append(0)
            self.stock = self.chance.shuffle(self.pile)[::-1]
            self.pile = [top]
            self.log("reshuffle", cards=len(self.stock))
        if self.recycled:
            self.recycled_held[self.player][-1] += 1
        else:
            self.first_stock_draws[self.player] += 1
        return self.stock.pop()

    def _discarded(self, p: int, card: int) -> None:
        """``card`` left player p's hidden cards for the pile: one fewer of its reshuffle held."""
        g = self.card_class.get(card, 0)
        if g > 0:
            self.recycled_held[p][g - 1] -= 1

    def _end_turn(self, exchanged: int) -> None:
        p = self.player
        self.draw_turns[p] += 1
        self.exchanged[p] += exchanged
        self.last_exchange[p] = exchanged
        self.turns += 1
        if self.turns >= self.max_turns:
            self.log("turn_cap", turns=self.turns)
            if not self._compare(list(range(self.num_players)), "turn_cap"):
                self._next_round()
            return
        self.player = (p + 1) % self.num_players
        self._phase = "knock" if min(self.draw_turns) > 0 else "turn"

    def _compare(self, seats: list[int], reason: str) -> bool:
        """Showdown among ``seats``; returns True when the game is over."""
        keys = [self.hand_keys[p] for p in seats]
        best = max(keys)
        best_seats = [p for p, k in zip(seats, keys) if k == best]
        shown = {p: (self.hands[p], self.ranker.category(k)) for p, k in zip(seats, keys)}
        winner = best_seats[0] if len(best_seats) == 1 else None
        return self._close_round(winner, reason, shown, tied=best_seats if winner is None else [])

    def _royal_drawn(self, p: int, cards: list[int]) -> None:
        if not self._close_round(p, "royal_drawn", {p: (cards, "royal_flush")}):
            self._next_round()

    def _close_round(self, winner: int | None, reason: str, shown: dict, tied: Sequence[int] = ()) -> bool:
        """Score a finished round; returns True when the game is over (the caller deals otherwise)."""
        outcome = {
            "round": self.round_number,
            "reason": reason,
            "winner": winner,
            "tied": list(tied),
            "hands": [{"seat": p, "cards": format_cards(c), "category": k} for p, (c, k) in shown.items()],
        }
        if winner is not None:
            self.scores[winner] += 1
            self.dealer = winner  # the winner deals next; after a drawn round the same dealer deals
            if self.reward_mode == "points":
                self.give(winner, 1.0)
        outcome["scores"] = list(self.scores)
        self.last_outcome = outcome
        self.log_event(UnitEnd("round_end", dict(outcome)))
        if winner is not None and self.scores[winner] >= self.target:
            self._end_game([winner], truncated=False)
            return True
        if self.round_number >= self.max_rounds:
            top = max(self.scores)
            self._end_game([p for p in range(self.num_players) if self.scores[p] == top], truncated=True)
            return True
        return False

    def _end_game(self, winners: list[int], truncated: bool) -> None:
        n = self.num_players
        self.winners = winners
        if self.reward_mode == "win":
            losers = n - len(winners)
            for p in range(n):
                # Losers pay 1/(n-1) each; the winners split it (one winner: +1).
                self.give(p, losers / ((n - 1) * len(winners)) if p in winners else -1.0 / (n - 1))
        self.log("game_end", winners=winners, scores=list(self.scores), truncated=truncated)
        self.finish(truncated=truncated)
        self._update_info()

    def _update_info(self) -> None:
        info = {"round": self.round_number, "scores": list(self.scores), "dealer": self.dealer}
        if self.last_outcome is not None:
            info["last_round"] = self.last_outcome
        if self.is_over:
            info["winners"] = list(self.winners)
        self._info = info

    # ------------------------------------------------------------------ protocol
    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.player

    @property
    def phase(self) -> str:
        return "over" if self.is_over else self._phase

    @property
    def knock_allowed(self) -> bool:
        return min(self.draw_turns) > 0

    def _legal_mask(self) -> np.ndarray:
        return self._masks[self._phase]

    def _apply(self, action: int) -> None:
        p, h = self.player, self.hand_size
        if self._phase == "knock":
            if action == KNOCK:
                self.log("knock", player=p)
                if not self._compare(list(range(self.num_players)), "knock"):
                    self._next_round()
            else:
                self._phase = "turn"
            return
        if self._phase == "discard":
            slot = action - DISCARD0
            hand = self.hands[p]
            if slot == h:
                card = self.drawn
            else:
                card = hand[slot]
                self._set_hand(p, [*hand[:slot], *hand[slot + 1 :], self.drawn])
            self.drawn = -1
            self.pile.append(card)
            self._discarded(p, card)
            self.log("discard", player=p, card=card)
            self._end_turn(1)
            return
        if action == DRAW:
            card = self._draw()
            self.log("draw", player=p, card=card)
            self.drawn = card
            if has_royal([*self.hands[p], card], h):
                self._royal_drawn(p, [*self.hands[p], card])
                return
            self._phase = "discard"
            return
        slots = actions.exchange_slots(h, action)
        hand = self.hands[p]
        discards = [hand[s] for s in slots]  # in hand order: the last one ends on top of the pile
        keep = [c for i, c in enumerate(hand) if i not in slots]
        self.pile.extend(discards)
        for card in discards:
            self._discarded(p, card)
        drawn = []
        for _ in slots:
            drawn.append(self._draw())
        self._set_hand(p, keep + drawn)
        self.log("exchange", player=p, discarded=discards, drawn=drawn)
        if has_royal(self.hands[p], h):
            self._royal_drawn(p, list(self.hands[p]))
            return
        self._end_turn(len(slots))

    # ------------------------------------------------------------------ information
    def view(self, player: int) -> PericoView:
        # Filled through __dict__ rather than the frozen dataclass __init__ (one
        # object.__setattr__ per field): views are built every step.
        v = object.__new__(PericoView)
        v.__dict__.update(
            player=player,
            num_players=self.num_players,
            phase=self.phase,
            current_player=self.current_player,
            six_card=self.six_card,
            hand_size=self.hand_size,
            deck=self.deck_name,
            target=self.target,
            jokers_in_five_of_a_kind=self.jokers_in_five_of_a_kind,
            hand=tuple(self.hands[player]),
            hand_category=self.hand_keys[player] >> TIEBREAK_BITS,
            drawn=self.drawn if player == self.player else -1,
            pile=tuple(self.pile),
            stock_size=len(self.stock),
            draw_turns=tuple(self.draw_turns),
            exchanged=tuple(self.exchanged),
            last_exchange=tuple(self.last_exchange),
            scores=tuple(self.scores),
            dealer=self.dealer,
            round_number=self.round_number,
            max_rounds=self.max_rounds,
            turns=self.turns,
            max_turns=self.max_turns,
            knock_allowed=min(self.draw_turns) > 0,
            returned_jokers=self.returned_jokers,
            recycled=tuple(self.recycled),
            first_stock_draws=tuple(self.first_stock_draws),
            recycled_held=tuple([tuple(h) for h in self.recycled_held]),
        )
        return v

    def encode(self, view: PericoView) -> np.ndarray:
        return encoding.encode(view)

    def action_name(self, action: int) -> str:
        h = self.hand_size
        if action == KNOCK:
            return "knock"
        if action == CONTINUE:
            return "play on"
        if action == DRAW:
            return "draw"
        hand = self.hands[self.player] if not self.is_over else []
        if DISCARD0 <= action <= DISCARD0 + h:
            slot = action - DISCARD0
            if slot == h:
                return "discard the drawn card" + (f" {format_card(self.drawn)}" if self.drawn >= 0 else "")
            card = f" ({format_card(hand[slot])})" if self._phase == "discard" and slot < len(hand) else ""
            return f"discard slot {slot}{card}"
        if actions.exchange0(h) <= action < self.num_actions:
            slots = actions.exchange_slots(h, action)
            cards = ""
            if self._phase == "turn" and len(hand) == h:
                cards = f" ({format_cards(hand[s] for s in slots)})"
            return f"exchange slots {','.join(map(str, slots))}{cards}"
        return f"invalid({action})"

    def public_action_name(self, action: int, viewer: int) -> str:
        """What another player sees: the cards thrown on the pile, not the slots they came from.

        The thrower's slots (and whether a discard was the card just drawn) are
        its own knowledge; the table sees a draw, the cards that land face up, a knock.
        """
        if self.is_over or viewer == self.player or action in (KNOCK, CONTINUE, DRAW):
            return self.action_name(action)
        h = self.hand_size
        hand = self.hands[self.player]
        if self._phase == "discard" and DISCARD0 <= action <= DISCARD0 + h:
            slot = action - DISCARD0
            return f"discard {format_card(self.drawn if slot == h else hand[slot])}"
        if self._phase == "turn" and actions.exchange0(h) <= action < self.num_actions:
            slots = actions.exchange_slots(h, action)
            return f"exchange {len(slots)}: {format_cards(sorted(hand[s] for s in slots))}"
        return self.action_name(action)

    def info(self, player: int) -> dict:
        return self._info

    def zones(self) -> dict[str, list[int]]:
        zones = {f"hand{p}": list(h) for p, h in enumerate(self.hands)}
        zones["drawn"] = [self.drawn] if self.drawn >= 0 else []
        zones["stock"] = list(self.stock)
        zones["pile"] = list(self.pile)
        return zones

    def clone(self) -> PericoGame:
        """Independent copy without deep-copying the (append-only) event log or the shared ranker."""
        other = self._shallow_clone()
        other.hands = [list(h) for h in self.hands]
        other.hand_keys = list(self.hand_keys)
        other.stock = list(self.stock)
        other.pile = list(self.pile)
        other.scores = list(self.scores)
        other.draw_turns = list(self.draw_turns)
        other.exchanged = list(self.exchanged)
        other.last_exchange = list(self.last_exchange)
        other.winners = list(self.winners)
        other.recycled = list(self.recycled)
        other.first_stock_draws = list(self.first_stock_draws)
        other.recycled_held = [list(h) for h in self.recycled_held]
        other.card_class = dict(self.card_class)
        return other

    @property
    def unit_index(self) -> int:
        return self.round_number

    def search_horizon(self) -> str:
        """Rounds are rewarded as they are won (``reward="points"``); with ``"win"`` only the end counts."""
        return "unit" if self.reward_mode == "points" else "episode"

    def _redeal(self, world: PericoGame, player: int, rng: np.random.Generator) -> None:
        """Re-deal the other hands, another player's drawn card and the stock, as public play allows.

        The discard pile is face up and stays; hand sizes, the stock size and
        every public counter are kept. Cards seen going back into the stock
        stay where they can be: the pile shuffled into a new stock (reshuffle
        g) is a known set, so the stock holds only cards of the latest
        reshuffle, and each player holds exactly as many of reshuffle g's cards
        as it drew from that stock minus those it threw back (both public);
        a joker turned at the deal and shuffled back is in the first stock or
        with a player who drew from it. Within those classes cards are dealt
        uniformly; a returned joker goes to the stock or a drawing player's
        hand with weight the stock's size or the cards that player drew from it.
        """
        n = self.num_players
        hidden_drawn = world.drawn >= 0 and world.player != player
        # Slots: (seat or -1 for the stock, index into that seat's hidden cards), grouped by class.
        holders: dict[int, list[int]] = {q: list(world.hands[q]) for q in range(n) if q != player}
        if hidden_drawn:
            holders[world.player].append(world.drawn)
        holders[-1] = list(world.stock)
        cls = self.card_class
        groups: dict[int, list[tuple[int, int]]] = {}
        jokers: list[int] = []
        for q, cards in holders.items():
            for i, c in enumerate(cards):
                k = cls.get(c, 0)
                if k < 0:
                    jokers.append(c)
                    k = 0
                groups.setdefault(k, []).append((q, i))
        for k in sorted(groups):
            slots = groups[k]
            cards = sorted(holders[q][i] for q, i in slots)
            if k == 0 and jokers:
                slots = self._place_returned_jokers(sorted(jokers), slots, holders, rng)
                cards = [c for c in cards if c not in jokers]
            for (q, i), j in zip(slots, rng.permutation(len(cards))):
                holders[q][i] = cards[j]
        world.stock = holders.pop(-1)
        if hidden_drawn:
            world.drawn = holders[world.player].pop()
        for q, cards in holders.items():
            world._set_hand(q, cards)

    def _place_returned_jokers(
        self,
        jokers: list[int],
        slots: list[tuple[int, int]],
        holders: dict[int, list[int]],
        rng: np.random.Generator,
    ) -> list[tuple[int, int]]:
        """Put the hidden returned jokers into allowed slots of ``holders``; returns the slots left."""
        free = list(slots)
        for joker in jokers:
            weights = {}
            for q, _ in free:
                if q == -1:
                    weights[q] = 0 if self.recycled else len(self.stock)
                else:
                    weights[q] = self.first_stock_draws[q]
            places = [q for q, w in weights.items() if w > 0]
            if not places:
                raise RuntimeError("perico: a returned joker is hidden but no place can hold it")
            w = np.array([weights[q] for q in places], dtype=float)
            q = places[int(rng.choice(len(places), p=w / w.sum()))]
            mine = [s for s in free if s[0] == q]
            slot = mine[int(rng.integers(len(mine)))]
            holders[slot[0]][slot[1]] = joker
            free.remove(slot)
        return free

    def render(self, viewer: int | None = None) -> str:
        return render.render(self, viewer)

    def scene(self, viewer: int | None) -> dict:
        return scene.scene(self, viewer)
