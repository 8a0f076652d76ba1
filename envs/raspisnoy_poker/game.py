"""Raspisnoy poker rules as a state machine (RULES.md §4).

An episode is a schedule of deals. Each deal: shuffle, deal ``cards`` to each
seat (seat ``i`` gets the ``i``-th block of ``cards`` cards from the top of
the shuffled deck), fix the trump, bid from the dealer's left with the dealer
last (the dealer may not make the bids add up to the number of tricks; no
bidding in gold and misère deals), then play ``cards`` tricks, the dealer's
left leading the first and each trick's winner the next. The deal is scored
by ``scoring.deal_points`` and the points are given as rewards at once; the
dealer moves one seat clockwise for the next deal.

Trick resolution (follow suit, must trump, jokers and their declarations) is
the shared engine module ``pokerzoo.envs.engine.tricks``.
"""

from __future__ import annotations

import numpy as np

from pokerzoo.envs.engine.cards import DECKS, format_card, format_cards
from pokerzoo.envs.engine.events import UnitEnd
from pokerzoo.envs.engine.game import Game
from pokerzoo.envs.engine.options import ConfigError, Option, OptionSet, num_players_option
from pokerzoo.envs.engine.schema import symbolic_table
from pokerzoo.envs.engine.tricks import (
    DECLARATION_NAMES,
    NATURAL,
    Play,
    TrickRules,
    infer,
    joker_declarations,
    legal_cards,
    make_play,
    winner,
)
from pokerzoo.envs.raspisnoy_poker import actions, encoding, render, scene, schedule, worlds
from pokerzoo.envs.raspisnoy_poker.schedule import DARK, FOREHEAD, NO_BIDDING, NO_TRUMP
from pokerzoo.envs.raspisnoy_poker.scoring import deal_points
from pokerzoo.envs.raspisnoy_poker.view import RaspisnoyView, SheetRow

SUIT_CHARS = "shdc"
NO_CEILINGS = (12, 12, 12, 12)


def _deck_name(value: str | int) -> str:
    """'54' or '34'; the ints 54 and 34 too (YAML and command lines read ``deck=34`` as an int)."""
    name = str(value)
    if name not in ("54", "34"):
        raise ValueError("expected '54' or '34'")
    return name


def _check_config(config: dict) -> None:
    n, deck = config["num_players"], config["deck"]
    if deck == "34" and n not in (3, 4):
        raise ConfigError(f"option deck='34' is for 3 or 4 players only; num_players={n}")
    size = len(DECKS[deck].cards)
    value = config["schedule"]
    if isinstance(value, str):
        try:
            schedule.classic(n, size, config["start_cards"])
        except ValueError as exc:
            raise ConfigError(f"option start_cards: {exc}") from None
    else:
        schedule.check_entries(value, n, size)


def draws_single_deal(config: dict) -> bool:
    """Whether an episode is one deal drawn from the schedule (``schedule='single'`` or ``single_deal``).

    Shared by the scalar game and the batched kernel, so the two draw alike.
    """
    return config["schedule"] == "single" or bool(config["single_deal"])


class RaspisnoyPokerGame(Game):
    NAME = "raspisnoy_poker"
    BIDDING_PHASES = frozenset({"bid"})
    SEARCH_HORIZON = "unit"  # every deal is scored on its own when it ends
    OPTIONS = OptionSet(
        num_players_option(2, 10, 4),
        Option(
            "deck",
            "54",
            "'54' (52 + red and black joker) or '34' (7..A + 6h/6s as jokers, 3-4 players); ints accepted",
            kind=(str, int),
            convert=_deck_name,
        ),
        Option(
            "schedule",
            "classic",
            "'classic' (the whole game), 'single' (one classic deal drawn per episode) or a list of "
            "(cards, kind) with kind normal, no_trump, dark, gold, misere, forehead",
            kind=(str, list, tuple),
            convert=schedule.parse_schedule,
        ),
        Option(
            "single_deal",
            False,
            "draw one entry of the schedule per episode, uniformly (a listed entry repeated weighs more); "
            "schedule='single' is the classic list drawn this way",
            kind=bool,
        ),
        Option("start_cards", 3, "cards per player in the first classic deal", kind=int, low=1, high=27),
        Option("must_follow_suit", True, "a player holding the led suit must play it", kind=bool),
        Option(
            "must_trump", True, "a player void in the led suit must play a trump if holding one", kind=bool
        ),
        Option(
            "joker_lead_demands_highest",
            False,
            "after a high joker lead, followers must play their highest card of the led suit",
            kind=bool,
        ),
        Option(
            "whole_deck_trump",
            "shown",
            "when every card is dealt: 'shown' (a card is shown before the deal and shuffled back, RULES.md) "
            "or 'dealer_last' (the dealer's last card is turned face up and stays in the dealer's hand)",
            choices=("shown", "dealer_last"),
        ),
        Option(
            "dark_multiplier",
            2,
            "dark deals score the normal points times this",
            kind=(int, float),
            low=1,
            high=100,
        ),
        check=_check_config,
    )

    # ------------------------------------------------------------------ setup
    def _setup(self) -> None:
        c = self.config
        self.num_players = n = c["num_players"]
        self.deck_name = c["deck"]
        self.deck_size = len(DECKS[self.deck_name].cards)
        self.max_cards = schedule.max_cards(self.deck_size, n)
        self.num_actions = actions.num_actions(self.max_cards)
        self.observation_schema = encoding.schema(n)
        self.rules = TrickRules(
            must_follow_suit=c["must_follow_suit"],
            must_trump=c["must_trump"],
            joker_lead_demands_highest=c["joker_lead_demands_highest"],
        )
        self.dark_multiplier = c["dark_multiplier"]
        self.joker_labels = DECKS[self.deck_name].joker_stand_ins
        if isinstance(c["schedule"], str):
            self.classic_schedule = schedule.classic(n, self.deck_size, c["start_cards"])
        else:
            self.classic_schedule = c["schedule"]
        self._phase = "bid"

    def _start(self) -> None:
        n = self.num_players
        self.first_dealer = self.chance.integer(n)
        if draws_single_deal(self.config):
            self.schedule = (self.classic_schedule[self.chance.integer(len(self.classic_schedule))],)
        else:
            self.schedule = self.classic_schedule
        self.scores: list[float] = [0] * n
        self.sheet: tuple[SheetRow, ...] = ()
        self.last_deal: dict | None = None
        self.deal_index = 0
        self._start_deal()

    def _start_deal(self) -> None:
        n = self.num_players
        cards, kind = self.schedule[self.deal_index]
        self.cards, self.kind = cards, kind
        self.dealer = (self.first_dealer + self.deal_index) % n
        order = self.chance.shuffle(self.deck)
        self.whole_deck = cards * n == len(order)
        trump_card = -1
        self.trump_holder = -1
        if kind != NO_TRUMP:
            if not self.whole_deck:
                trump_card = order[n * cards]
            elif self.config["whole_deck_trump"] == "shown":
                # Shown from the shuffled deck before the deal, then put back at a random place.
                trump_card = order.pop(0)
                order.insert(self.chance.integer(len(order) + 1), trump_card)
            else:
                # The dealer's last card is turned for everyone to see and stays in the dealer's hand.
                trump_card = order[self.dealer * cards + cards - 1]
                self.trump_holder = self.dealer
        self.hands: list[list[int]] = [sorted(order[i * cards : (i + 1) * cards]) for i in range(n)]
        rest = order[n * cards :]
        if trump_card >= 0 and not self.whole_deck:
            self.turned, self.stock = rest[:1], rest[1:]
        else:
            self.turned, self.stock = [], rest
        self.trump_card = trump_card
        self.trump = trump_card // 13 if 0 <= trump_card < 65 else -1
        self.bids = [-1] * n
        self.tricks = [0] * n
        self.trick: list[Play] = []
        self.pending = -1
        self.done_tricks: tuple[tuple[Play, ...], ...] = ()
        self.trick_winners: tuple[int, ...] = ()
        self.voids = [0] * n
        self.ceilings: tuple[tuple[int, ...], ...] = (NO_CEILINGS,) * n
        self.leader = (self.dealer + 1) % n
        self.to_act = self.leader
        self._phase = "play" if kind in NO_BIDDING else "bid"
        self._joker_masks = {
            (card, leading): [
                actions.joker_action(card, d, s, leading, self.trump)
                for d, s in joker_declarations(leading, self.trump)
            ]
            for card in actions.JOKER_IDS
            for leading in (True, False)
        }
        if self._quiet:
            return
        self.log(
            "deal",
            deal=self.deal_index,
            cards=cards,
            deal_kind=kind,
            dealer=self.dealer,
            trump=SUIT_CHARS[self.trump] if self.trump >= 0 else None,
            trump_card=format_card(trump_card) if trump_card >= 0 else None,
            hands=[format_cards(h) for h in self.hands],
        )

    # ------------------------------------------------------------------ protocol
    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.to_act

    @property
    def phase(self) -> str:
        return "over" if self.is_over else self._phase

    def forbidden_bid(self) -> int:
        """The bid the dealer may not make (the one that makes the bids add up), or -1."""
        if self.to_act != self.dealer or self._phase != "bid":
            return -1
        rest = self.cards - sum(b for s, b in enumerate(self.bids) if s != self.dealer)
        return rest if 0 <= rest <= self.cards else -1

    def legal_action_list(self) -> list[int]:
        """The legal actions as a sorted list (the mask's nonzeros), without numpy: for search rollouts."""
        if self.is_over:
            return []
        if self._phase == "bid":
            forbidden = self.forbidden_bid()
            return [actions.BID_BASE + b for b in range(self.cards + 1) if b != forbidden]
        if self._phase == "declare":
            return list(self._joker_masks[(self.pending, not self.trick)])
        if self.kind == FOREHEAD:
            return [actions.FOREHEAD]
        leading = not self.trick
        out: list[int] = []
        for card in legal_cards(self.hands[self.to_act], self.trick, self.trump, self.rules):
            if card < 65:
                out.append(card)
            else:
                out += self._joker_masks[(card, leading)]
        return out

    def _legal_mask(self) -> np.ndarray:
        mask = np.zeros(self.num_actions, dtype=bool)
        mask[self.legal_action_list()] = True
        return mask

    def apply_trusted(self, action: int) -> None:
        """Apply an action taken from ``legal_action_list()`` without re-checking it.

        For search rollouts on sampled worlds, where the check would cost as much
        as the move; anything else should call ``apply``, which rejects illegal actions.
        """
        self.history.append(action)
        self._mask_cache = None
        self._apply(action)

    def _apply(self, action: int) -> None:
        p = self.to_act
        if self._phase == "bid":
            bid = action - actions.BID_BASE
            self.bids[p] = bid
            if not self._quiet:
                self.log("bid", seat=p, bid=bid)
            if p == self.dealer:
                self._phase = "play"
                self.to_act = self.leader
            else:
                self.to_act = (p + 1) % self.num_players
            return
        if self._phase == "declare":
            card, decl, suit = actions.decode_joker(action)
            self.pending = -1
            self._phase = "play"
            self._put(p, card, decl, suit)
            return
        hand = self.hands[p]
        if action == actions.FOREHEAD:
            card = hand.pop()
            if card >= 65:
                self.pending = card
                self._phase = "declare"
                self.log("reveal", seat=p, card=format_card(card))
                return
            self._put(p, card, NATURAL, -1)
        elif action < actions.JOKER_BASE:
            hand.remove(action)
            self._put(p, action, NATURAL, -1)
        else:
            card, decl, suit = actions.decode_joker(action)
            hand.remove(card)
            self._put(p, card, decl, suit)

    def _put(self, seat: int, card: int, decl: int, suit: int) -> None:
        play = make_play(seat, card, self.trick, decl, suit, self.trump)
        known = infer(play, self.trick, self.trump, self.rules)
        if known.voids:
            self.voids[seat] |= known.voids
        if known.ceiling_suit >= 0:
            row = list(self.ceilings[seat])
            row[known.ceiling_suit] = min(row[known.ceiling_suit], known.ceiling_rank)
            ceilings = list(self.ceilings)
            ceilings[seat] = tuple(row)
            self.ceilings = tuple(ceilings)
        self.trick.append(play)
        if not self._quiet:
            self.log(
                "play",
                seat=seat,
                card=format_card(card),
                decl=DECLARATION_NAMES[decl] or None,
                suit=SUIT_CHARS[play.suit] if card >= 65 and play.suit >= 0 else None,
            )
        if len(self.trick) < self.num_players:
            self.to_act = (seat + 1) % self.num_players
            return
        trick = tuple(self.trick)
        w = trick[winner(trick, self.trump, self.rules.red_jokers)].seat
        self.tricks[w] += 1
        self.done_tricks += (trick,)
        self.trick_winners += (w,)
        self.trick = []
        self.leader = self.to_act = w
        if not self._quiet:
            self.log("trick", winner=w, cards=[format_card(pl.card) for pl in trick])
        if len(self.done_tricks) == self.cards:
            self._end_deal()

    def _end_deal(self) -> None:
        n = self.num_players
        points = tuple(
            deal_points(self.kind, self.bids[i], self.tricks[i], self.dark_multiplier) for i in range(n)
        )
        for i, pts in enumerate(points):
            self.give(i, pts)
            self.scores[i] += pts
        row = SheetRow(
            self.deal_index,
            self.cards,
            self.kind,
            self.dealer,
            self.trump,
            tuple(self.bids),
            tuple(self.tricks),
            points,
        )
        self.sheet += (row,)
        self.last_deal = {
            "deal": self.deal_index,
            "cards": self.cards,
            "deal_kind": self.kind,
            "dealer": self.dealer,
            "bids": [b if b >= 0 else None for b in self.bids],
            "tricks": list(self.tricks),
            "points": list(points),
            "totals": list(self.scores),
        }
        self.log_event(
            UnitEnd(
                "deal_scored",
                dict(self.last_deal),
                bids=tuple(self.last_deal["bids"]),
                tricks=tuple(self.last_deal["tricks"]),
            )
        )
        self.deal_index += 1
        if self.deal_index == len(self.schedule):
            self.finish()
        else:
            self._start_deal()

    # ------------------------------------------------------------------ information
    def own_hand_hidden(self) -> bool:
        """Dark deals hide one's own cards until the bidding ends; forehead deals hide them throughout."""
        return self.kind == FOREHEAD or (self.kind == DARK and self._phase == "bid" and not self.is_over)

    def known_trump_holder(self) -> int:
        """The seat everyone knows holds the turned trump card (``whole_deck_trump="dealer_last"``), or -1."""
        h = self.trump_holder
        return h if h >= 0 and self.trump_card in self.hands[h] else -1

    def view(self, player: int) -> RaspisnoyView:
        hidden = self.own_hand_hidden()
        forehead = self.kind == FOREHEAD
        hands = self.hands
        return RaspisnoyView(
            player=player,
            num_players=self.num_players,
            phase=self.phase,
            current_player=self.current_player,
            deck=self.deck_name,
            deal_index=self.deal_index,
            num_deals=len(self.schedule),
            kind=self.kind,
            cards=self.cards,
            max_cards=self.max_cards,
            dealer=self.dealer,
            trump=self.trump,
            trump_card=self.trump_card,
            whole_deck=self.whole_deck,
            trump_holder=self.known_trump_holder(),
            hand=() if hidden else tuple(hands[player]),
            hand_hidden=hidden,
            visible=tuple(tuple(h) if forehead and s != player else () for s, h in enumerate(hands)),
            hand_sizes=tuple(len(h) for h in hands),
            bids=tuple(self.bids),
            tricks=tuple(self.tricks),
            leader=self.leader,
            trick=tuple(self.trick),
            pending_joker=self.pending,
            done_tricks=self.done_tricks,
            trick_winners=self.trick_winners,
            voids=tuple(self.voids),
            ceilings=self.ceilings,
            scores=tuple(self.scores),
            sheet=self.sheet,
            schedule=self.schedule,
        )

    @classmethod
    def observation_table(cls) -> str:  # the layout grows with the player count: offsets in N
        return symbolic_table(encoding.schema, "N")

    def encode(self, view: RaspisnoyView) -> np.ndarray:
        return encoding.encode(view)

    def action_name(self, action: int) -> str:
        return actions.action_name(action, self.max_cards, self.joker_labels)

    def info(self, player: int) -> dict:
        return {"deal": self.last_deal} if self.last_deal is not None else {}

    def zones(self) -> dict[str, list[int]]:
        zones = {f"hand{i}": list(h) for i, h in enumerate(self.hands)}
        zones["stock"] = list(self.stock)
        zones["turned"] = list(self.turned)
        zones["trick"] = [p.card for p in self.trick] + ([self.pending] if self.pending >= 0 else [])
        zones["played"] = [p.card for t in self.done_tricks for p in t]
        return zones

    def clone(self) -> RaspisnoyPokerGame:
        """A deep, independent copy; faster than ``deepcopy`` because it only copies what play mutates."""
        new = self._shallow_clone()
        new.hands = [list(h) for h in self.hands]
        new.stock = list(self.stock)
        new.turned = list(self.turned)
        new.bids = list(self.bids)
        new.tricks = list(self.tricks)
        new.trick = list(self.trick)
        new.voids = list(self.voids)
        new.scores = list(self.scores)
        new.config = dict(self.config)
        return new

    @property
    def unit_index(self) -> int:
        return self.deal_index

    def _redeal(self, world: RaspisnoyPokerGame, player: int, rng: np.random.Generator) -> None:
        """The hidden cards re-dealt among the hidden places, respecting known voids and ceilings.

        Hidden places: the other hands (not in forehead deals, where they are
        visible), the own hand while it is hidden, the stock; the turned card
        and, with ``whole_deck_trump="dealer_last"``, the dealer's turned trump stay.
        """
        zones: list[list[int]] = []
        constraints: list[worlds.Constraint] = []
        forehead = self.kind == FOREHEAD
        # With whole_deck_trump="dealer_last" everyone knows the dealer holds the turned card.
        holder = self.known_trump_holder()
        if holder >= 0:
            world.hands[holder].remove(self.trump_card)
        for seat, hand in enumerate(world.hands):
            if seat == player:
                if self.own_hand_hidden():
                    zones.append(hand)
                    constraints.append(None)
            elif not forehead:
                zones.append(hand)
                v, ceil = self.voids[seat], self.ceilings[seat]
                constraints.append((v, ceil) if v or ceil != NO_CEILINGS else None)
        zones.append(world.stock)
        constraints.append(None)
        worlds.redeal(zones, constraints, rng)
        if holder >= 0:
            world.hands[holder].append(self.trump_card)
        for hand in world.hands:
            hand.sort()

    def render(self, viewer: int | None = None) -> str:
        if viewer is None:
            viewer = self.current_player if self.current_player is not None else 0
        return render.render(self.view(viewer), self.joker_labels)

    def scene(self, viewer: int | None) -> dict:
        return scene.scene(self, viewer)
