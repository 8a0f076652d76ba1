"""Breed the Heifer rules as a state machine (RULES.md §3).

One hand: everyone still holding chips antes; 3rd street deals two down
cards and one up card to each player, then a betting round; 4th, 5th and 6th
street deal one up card each, each followed by betting; 7th street deals one
down card and a last round; the best five of seven wins, with the wild rank
bred by pairs of up cards (``wilds.WildTracker``). Chips move through the
shared fixed-limit engine (``engine.betting.LimitBetting``): all-ins, side
pots and split pots with the odd chip nearest the dealer's left.

Cards come off the top of one shuffled stock in the order a dealer deals:
on 3rd street a round of down cards, a second round of down cards and a
round of up cards, each round clockwise from the dealer's left over the
players still in; then one card per player per street, in the same order.
Tests stack the deck in exactly that order (``ScriptedChance``).

Several hands per episode (``num_hands``) carry the stacks over and move the
button clockwise to the next player with chips; a player without chips sits
out, and the episode ends early when only one player has chips left.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerzoo.envs.breed_the_heifer import encoding, render, scene
from pokerzoo.envs.breed_the_heifer.ranking import ranker
from pokerzoo.envs.breed_the_heifer.wilds import NO_WILD, WildTracker
from pokerzoo.envs.engine.betting import ACTION_NAMES, BET, CALL, CHECK, NUM_ACTIONS, RAISE, LimitBetting
from pokerzoo.envs.engine.cards import RANK_CHARS, format_card, format_cards
from pokerzoo.envs.engine.events import UnitEnd
from pokerzoo.envs.engine.game import Game, View
from pokerzoo.envs.engine.options import ConfigError, Option, OptionSet, num_players_option
from pokerzoo.envs.engine.schema import symbolic_table

FIRST_STREET, LAST_STREET = 3, 7
UP_STREETS = (4, 5, 6)
# The column of each action in a seat's counts (``HeiferView.actions``): checks, calls, bets and raises.
# A fold is not counted (the seat is out, which the observation shows anyway).
ACTION_COLUMN = {CHECK: 0, CALL: 1, BET: 2, RAISE: 2}
NO_ACTIONS = (0, 0, 0)


MAX_STACK = 1_000_000_000


def _stacks(value) -> int | tuple[int, ...]:
    if isinstance(value, list | tuple):
        stacks = tuple(value)
        if not stacks or any(isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= MAX_STACK for s in stacks):
            raise ValueError(
                f"expected an int in 1..{MAX_STACK:,} (every seat) or one per seat, e.g. [100, 20, 5]"
            )
        return stacks
    if not 1 <= value <= MAX_STACK:
        raise ValueError(f"a stack is 1..{MAX_STACK:,} chips")
    return value


def _check_config(config: dict) -> None:
    if config["small_bet"] > config["big_bet"]:
        raise ConfigError(
            f"option small_bet={config['small_bet']} is above big_bet={config['big_bet']}: the bet of 3rd and "
            "4th street may not exceed the bet of 5th to 7th (fixed limit)"
        )
    stacks = config["stacks"]
    if isinstance(stacks, tuple) and len(stacks) != config["num_players"]:
        raise ConfigError(
            f"option stacks={list(stacks)} gives {len(stacks)} stacks for "
            f"num_players={config['num_players']}; "
            "give one per seat or a single int"
        )


@dataclass(frozen=True)
class HeiferView(View):
    hand_number: int  # 0-based hand of the episode
    num_hands: int
    street: int  # 3..7 while betting; 8 once the episode is over
    dealer: int
    down: tuple[int, ...]  # this player's own face-down cards
    up: tuple[
        tuple[int, ...], ...
    ]  # every seat's face-up cards (folded seats keep theirs: everyone saw them)
    wild_rank: int  # 0..12 (2..A), -1 when nothing is wild
    pair_pending: bool  # a pair was just shown: the next up card's rank becomes wild
    pot: int  # everything put in this hand, this round's bets included
    bets: tuple[int, ...]  # put in this betting round, per seat
    committed: tuple[int, ...]  # put in this hand, per seat
    stacks: tuple[int, ...]  # chips behind, per seat
    folded: tuple[bool, ...]  # out of this hand (folded, or not dealt in for lack of chips)
    in_hand: tuple[bool, ...]  # dealt into this hand
    to_call: int  # what this player must put in to call now
    bet_size: int  # the fixed bet of this street
    complete_bets: int  # the bet and raises made this round (towards the cap)
    max_bets: int  # one bet plus max_raises raises
    opener: int  # the seat the rules name first to act this street (-1 when over)
    chip_total: int  # chips at the table (all stacks at the start of the episode)
    wild_pairs: str  # the rule options everyone knows, for agents that simulate the deal
    double_ace_flush: bool
    # per seat: the checks, calls, and bets or raises it made this hand (everyone saw them); a default,
    # so that code building views by hand keeps working
    actions: tuple[tuple[int, int, int], ...] = ()


class BreedTheHeiferGame(Game):
    NAME = "breed_the_heifer"
    BIDDING_PHASES = frozenset({"bet"})
    SEARCH_HORIZON = "unit"  # chips are settled (and rewarded) at the end of every hand
    OPTIONS = OptionSet(
        num_players_option(2, 7, 5),
        Option(
            "wild_pairs",
            "same_player",
            "which up-card pairs breed a wild: 'same_player' (a player's own up cards) or 'any_player' "
            "(a rank shown by anyone before, the seed's rule 10)",
            kind=str,
            choices=("same_player", "any_player"),
        ),
        Option(
            "double_ace_flush",
            False,
            "a wild in a flush may duplicate the ace (off: it takes a rank the flush does not hold)",
            kind=bool,
        ),
        Option("ante", 1, "chips every player puts in before the deal", kind=int, low=0, high=1_000_000),
        Option(
            "small_bet", 2, "fixed bet and raise size on 3rd and 4th street", kind=int, low=1, high=1_000_000
        ),
        Option(
            "big_bet",
            4,
            "fixed bet and raise size on 5th, 6th and 7th street",
            kind=int,
            low=1,
            high=1_000_000,
        ),
        Option("max_raises", 3, "raises allowed after the bet in one round", kind=int, low=0, high=100),
        Option(
            "stacks",
            100,
            "starting chips: one int for every seat, or a list with one per seat",
            kind=(int, list, tuple),
            convert=_stacks,
        ),
        Option(
            "num_hands", 1, "hands per episode (stacks carried, button moving)", kind=int, low=1, high=10_000
        ),
        Option(
            "action_counts",
            False,
            "the observation also counts each seat's checks, calls, and bets or raises this hand, so a "
            "policy can read how its opponents play; off by default, which keeps the observation unchanged "
            "(the counts come last, after the observation without them)",
            kind=bool,
            view_only=True,
        ),
        check=_check_config,
    )

    # ------------------------------------------------------------------ setup
    def _setup(self) -> None:
        c = self.config
        n = self.num_players = c["num_players"]
        self.num_actions = NUM_ACTIONS
        self.any_player = c["wild_pairs"] == "any_player"
        self.ranker = ranker(c["double_ace_flush"])
        self.ante: int = c["ante"]
        self.small_bet: int = c["small_bet"]
        self.big_bet: int = c["big_bet"]
        self.max_bets: int = 1 + c["max_raises"]
        self.num_hands: int = c["num_hands"]
        stacks = c["stacks"]
        # Stacks between hands; during a hand the betting engine holds the live ones.
        self.stacks = list(stacks) if isinstance(stacks, tuple) else [stacks] * n
        self.chip_total = sum(self.stacks)
        self.encoder = encoding.encoder_for(n, c["action_counts"])
        self.observation_schema = self.encoder.schema
        self.hand_number = 0
        self.last_outcome: dict | None = None
        self._views: dict[int, HeiferView] = {}

    def _start(self) -> None:
        self.dealer = self.chance.integer(self.num_players)
        self.log("dealer", seat=self.dealer)
        self._new_hand()
        self._proceed()

    # ------------------------------------------------------------------ flow
    def _new_hand(self) -> None:
        n = self.num_players
        in_hand = [s > 0 for s in self.stacks]
        self.hand_start_stacks = list(self.stacks)
        self.betting = LimitBetting(self.stacks, in_hand, max_bets=self.max_bets)
        self.down: list[list[int]] = [[] for _ in range(n)]
        self.up: list[list[int]] = [[] for _ in range(n)]
        self.in_hand = tuple(in_hand)
        self.stock = self.chance.shuffle(self.deck)
        self.next_card = 0
        self.tracker = WildTracker(n, self.any_player)
        self.street = FIRST_STREET
        self.opener = -1
        self.sixth_opener = -1
        self.action_counts = (NO_ACTIONS,) * n  # immutable, so views and clones share it
        for p in range(n):
            if in_hand[p]:
                self.betting.post(p, self.ante)
        self.log(
            "hand",
            hand=self.hand_number,
            dealer=self.dealer,
            stacks=list(self.hand_start_stacks),
            ante=self.ante,
        )
        order = self.deal_order()
        for _ in range(2):
            for p in order:
                self.down[p].append(self._draw())
        for p in order:
            self._deal_up(p)
        self._cards_changed()
        self._open_round()

    def _cards_changed(self) -> None:
        """Rebuild the immutable card tuples views share (and the encoder's cache keys on)."""
        self._up_view = tuple(tuple(u) for u in self.up)
        self._down_view = [tuple(d) for d in self.down]

    def deal_order(self) -> list[int]:
        """Players still in, clockwise from the dealer's left: the order cards are dealt in."""
        n = self.num_players
        folded = self.betting.folded
        return [q for q in ((self.dealer + k) % n for k in range(1, n + 1)) if not folded[q]]

    def _draw(self) -> int:
        card = self.stock[self.next_card]
        self.next_card += 1
        return card

    def _deal_up(self, p: int) -> None:
        card = self._draw()
        self.up[p].append(card)
        event = self.tracker.see(p, card)
        if event is not None:
            self.log(
                "wild",
                player=p,
                card=format_card(card),
                event=event,
                wild=RANK_CHARS[self.tracker.wild] if self.tracker.wild != NO_WILD else None,
            )

    def _deal_street(self) -> None:
        order = self.deal_order()
        if self.street in UP_STREETS:
            for p in order:
                self._deal_up(p)
            if self.street == UP_STREETS[-1] and self.tracker.no_more_up_cards():
                self.log("wild", event="pair_lapses", wild=None)
        else:
            for p in order:
                self.down[p].append(self._draw())
        self._cards_changed()
        self.log("street", street=self.street)

    def best_showing(self) -> int:
        """The player still in with the best up cards (with wilds); ties: nearest the dealer's left."""
        best, best_key = -1, -1
        wild = self.tracker.wild
        for p in self.deal_order():
            key = self.ranker.key(self.up[p], wild)
            if key > best_key:
                best, best_key = p, key
        return best

    def _open_round(self) -> None:
        n = self.num_players
        if self.street == FIRST_STREET:
            self.opener = (self.dealer + 1) % n
        elif self.street in UP_STREETS:
            self.opener = self.best_showing()
            if self.street == UP_STREETS[-1]:
                self.sixth_opener = self.opener
        else:
            start = self.sixth_opener
            folded = self.betting.folded
            self.opener = next(q for q in ((start + k) % n for k in range(n)) if not folded[q])
        bet_size = self.small_bet if self.street <= 4 else self.big_bet
        self.betting.start_round(bet_size, self.opener)

    def _proceed(self) -> None:
        """Deal and settle until a player must act or the episode ends."""
        while not self.is_over:
            b = self.betting
            if b.to_act is not None:
                return
            if b.folded.count(False) == 1:
                self._settle(showdown=False)
            elif self.street == LAST_STREET:
                self._settle(showdown=True)
            else:
                self.street += 1
                self._deal_street()
                self._open_round()

    def _settle(self, showdown: bool) -> None:
        b = self.betting
        n = self.num_players
        wild = self.tracker.wild
        keys: list[int | None] = [None] * n
        if showdown:
            for p in b.players_in:
                keys[p] = self.ranker.key(self.down[p] + self.up[p], wild)
        won, pots, winners = b.settle(keys, (self.dealer + 1) % n)
        self.stacks = list(b.stacks)
        net = [self.stacks[p] - self.hand_start_stacks[p] for p in range(n)]
        for p in range(n):
            if net[p]:
                self.give(p, float(net[p]))
        self.last_outcome = {
            "hand": self.hand_number,
            "showdown": showdown,
            "wild": RANK_CHARS[wild] if wild != NO_WILD else None,
            "pots": [
                {"amount": pot.amount, "eligible": list(pot.eligible), "winners": list(w)}
                for pot, w in zip(pots, winners)
            ],
            "players": [
                {
                    "cards": format_cards(self.down[p] + self.up[p]) if keys[p] is not None else None,
                    "category": self.ranker.category(keys[p]) if keys[p] is not None else None,
                    "won": won[p],
                    "net": net[p],
                }
                for p in range(n)
            ],
            "stacks": list(self.stacks),
        }
        self.log_event(UnitEnd("settle", dict(self.last_outcome)))
        self.hand_number += 1
        if self.hand_number >= self.num_hands or sum(s > 0 for s in self.stacks) < 2:
            self.street = LAST_STREET + 1
            self.opener = -1
            self.finish()
            return
        self.dealer = next(q for q in ((self.dealer + k) % n for k in range(1, n + 1)) if self.stacks[q] > 0)
        self._new_hand()

    # ------------------------------------------------------------------ protocol
    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.betting.to_act

    @property
    def phase(self) -> str:
        return "over" if self.is_over else "bet"

    def _legal_mask(self) -> np.ndarray:
        return self.betting.legal()

    def _apply(self, action: int) -> None:
        self._views.clear()
        street = self.street
        p = self.betting.to_act
        column = ACTION_COLUMN.get(action)
        if column is not None:
            row = list(self.action_counts[p])
            row[column] += 1
            self.action_counts = (*self.action_counts[:p], tuple(row), *self.action_counts[p + 1 :])
        done = self.betting.act(action, check=False)  # Game.apply has checked the mask
        self.log("action", street=street, **done)
        self._proceed()

    def view(self, player: int) -> HeiferView:
        v = self._views.get(player)
        if v is not None:
            return v
        b = self.betting
        live = not self.is_over
        # Built without the dataclass __init__ (which sets 27 frozen fields one by one, 4 µs):
        # views are made at every step of every env, and tests check this equals HeiferView(**fields).
        v = object.__new__(HeiferView)
        v.__dict__.update(
            player=player,
            num_players=self.num_players,
            phase="bet" if live else "over",
            current_player=b.to_act if live else None,
            hand_number=self.hand_number,
            num_hands=self.num_hands,
            street=self.street,
            dealer=self.dealer,
            down=self._down_view[player],
            up=self._up_view,
            wild_rank=self.tracker.wild,
            pair_pending=self.tracker.pending,
            pot=sum(b.committed),
            bets=tuple(b.bets),
            committed=tuple(b.committed),
            stacks=tuple(b.stacks),
            folded=tuple(b.folded),
            in_hand=self.in_hand,
            to_call=b.current_bet - b.bets[player] if live else 0,
            bet_size=b.bet_size,
            complete_bets=b.complete_bets,
            max_bets=self.max_bets,
            opener=self.opener,
            chip_total=self.chip_total,
            wild_pairs=self.config["wild_pairs"],
            double_ace_flush=self.config["double_ace_flush"],
            actions=self.action_counts,
        )
        self._views[player] = v
        return v

    @classmethod
    def observation_table(cls) -> str:  # the layout grows with the player count: offsets in N
        return symbolic_table(encoding.schema, "N")

    def encode(self, view: HeiferView) -> np.ndarray:
        return encoding.encode(view, self.encoder, self.ranker, self.small_bet, self.big_bet)

    def action_name(self, action: int) -> str:
        if not 0 <= action < NUM_ACTIONS:
            return f"invalid({action})"
        name = ACTION_NAMES[action]
        p = self.current_player
        if p is None:
            return name
        b = self.betting
        if action == CALL:
            return f"call {min(b.to_call(p), b.stacks[p])}"
        if action in (BET, RAISE):
            total = min((b.complete_bets + 1) * b.bet_size, b.bets[p] + b.stacks[p])
            return f"{name} to {total}"
        return name

    def info(self, player: int) -> dict:
        return {"outcome": self.last_outcome} if self.last_outcome is not None else {}

    def zones(self) -> dict[str, list[int]]:
        zones: dict[str, list[int]] = {}
        for p in range(self.num_players):
            zones[f"p{p}_down"] = list(self.down[p])
            zones[f"p{p}_up"] = list(self.up[p])
        zones["stock"] = self.stock[self.next_card :]
        return zones

    @property
    def unit_index(self) -> int:
        return self.hand_number

    def clone(self) -> BreedTheHeiferGame:
        """A deep, independent copy; much faster than ``deepcopy`` (which would copy the ranker's memo)."""
        new = self._shallow_clone()
        new.config = dict(self.config)
        new.stacks = list(self.stacks)
        new.hand_start_stacks = list(self.hand_start_stacks)
        new.betting = self.betting.copy()
        new.down = [list(d) for d in self.down]
        new.up = [list(u) for u in self.up]
        new.stock = list(self.stock)
        new.tracker = self.tracker.copy()
        new._down_view = list(self._down_view)
        new._views = {}
        return new

    def _redeal(self, world: BreedTheHeiferGame, player: int, rng: np.random.Generator) -> None:
        """The other players' down cards and the undealt stock, re-dealt among those places.

        Up cards, the player's own down cards and everything about chips stay;
        so do the wild rank and pending pair, which depend on up cards only.
        Betting reveals no card for certain, so no place is constrained.
        """
        slots: list[tuple[list[int], int]] = []
        for q in range(self.num_players):
            if q != player:
                slots += [(world.down[q], i) for i in range(len(world.down[q]))]
        slots += [(world.stock, i) for i in range(world.next_card, len(world.stock))]
        hidden = sorted(zone[i] for zone, i in slots)
        for (zone, i), j in zip(slots, rng.permutation(len(hidden))):
            zone[i] = hidden[j]
        world._cards_changed()
        world._views = {}

    def render(self, viewer: int | None = None) -> str:
        return render.render(self, viewer)

    def scene(self, viewer: int | None) -> dict:
        return scene.scene(self, viewer)
