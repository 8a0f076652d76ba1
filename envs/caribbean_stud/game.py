"""Caribbean stud rules as a state machine (RULES.md §5).

One agent plays 1–3 boxes against the house. Per hand: an ante decision per
box when ``ante_choices`` offers more than one value (before the deal), then
a fold/raise decision per box in order, each box's cards visible from its own
turn on; then the dealer's hand is shown and every box is settled by
``payouts.settle``, the same code the house-edge measurement runs in bulk.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerzoo.envs.caribbean_stud import encoding, scene
from pokerzoo.envs.caribbean_stud.payouts import QUALIFY_KEY, RESULTS, SYSTEM, settle
from pokerzoo.envs.engine.cards import format_cards
from pokerzoo.envs.engine.events import UnitEnd
from pokerzoo.envs.engine.game import Game, View
from pokerzoo.envs.engine.options import Option, OptionSet

FOLD, RAISE, FIRST_ANTE_ACTION = 0, 1, 2


MAX_ANTE, MAX_ANTE_CHOICES = 1_000_000, 20


def _ante_choices(value) -> tuple[int, ...]:
    choices = tuple(value) if isinstance(value, list | tuple) else (value,)
    if not 1 <= len(choices) <= MAX_ANTE_CHOICES or any(
        isinstance(c, bool) or not isinstance(c, int) or not 1 <= c <= MAX_ANTE for c in choices
    ):
        raise ValueError(
            f"expected 1..{MAX_ANTE_CHOICES} distinct positive integer antes (each at most {MAX_ANTE:,}), "
            "e.g. [1, 2, 5]"
        )
    if len(set(choices)) != len(choices):
        raise ValueError("ante values must be distinct")
    return tuple(sorted(choices))


@dataclass(frozen=True)
class CaribbeanView(View):
    hand_number: int  # 0-based hand of the episode
    num_hands: int
    boxes: int
    box: int  # the box being decided (or given an ante)
    ante_choices: tuple[int, ...]
    antes: tuple[int, ...]  # 0 for a box whose ante is not chosen yet
    decisions: tuple[int, ...]  # -1 undecided, 0 fold, 1 raise
    box_cards: tuple[tuple[int, ...], ...]  # () for boxes not seen yet
    dealer_up: int  # -1 before the deal


class CaribbeanStudGame(Game):
    NAME = "caribbean_stud"
    SEARCH_HORIZON = "unit"  # every hand is settled on its own
    BIDDING_PHASES = frozenset({"ante", "decide"})
    OPTIONS = OptionSet(
        Option(
            "boxes", 1, "boxes played per hand, each with its own ante and decision", kind=int, low=1, high=3
        ),
        Option(
            "ante_choices",
            (1,),
            "allowed antes per box; with more than one value the player picks each box's ante before the deal",
            kind=(int, list, tuple),
            convert=_ante_choices,
        ),
        Option(
            "num_hands",
            1,
            "hands per episode (the deck is reshuffled every hand)",
            kind=int,
            low=1,
            high=10_000_000,
        ),
    )

    def _setup(self) -> None:
        self.num_players = 1
        self.boxes: int = self.config["boxes"]
        self.ante_choices: tuple[int, ...] = self.config["ante_choices"]
        self.num_hands: int = self.config["num_hands"]
        self.choose_antes = len(self.ante_choices) > 1
        self.num_actions = FIRST_ANTE_ACTION + len(self.ante_choices) if self.choose_antes else 2
        self.observation_schema = encoding.SCHEMA
        self.hand_number = 0
        self.last_outcome: dict | None = None

    def _start(self) -> None:
        self._new_hand()

    # ------------------------------------------------------------------ flow
    def _new_hand(self) -> None:
        self.antes = [0] * self.boxes
        self.decisions = [-1] * self.boxes
        self.box = 0
        self.box_cards: list[list[int]] = [[] for _ in range(self.boxes)]
        self.dealer: list[int] = []
        self.stock: list[int] = list(self.deck)
        if self.choose_antes:
            self._phase = "ante"
        else:
            self.antes = [self.ante_choices[0]] * self.boxes
            self._deal()

    def _deal(self) -> None:
        order = self.chance.shuffle(self.deck)
        for b in range(self.boxes):
            self.box_cards[b] = order[5 * b : 5 * b + 5]
        d = 5 * self.boxes
        self.dealer = order[d : d + 5]
        self.stock = order[d + 5 :]
        self._phase = "decide"
        self.box = 0
        self.log("deal", hand=self.hand_number, dealer_up=self.dealer[4], antes=list(self.antes))

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else 0

    @property
    def phase(self) -> str:
        return "over" if self.is_over else self._phase

    def _legal_mask(self) -> np.ndarray:
        mask = np.zeros(self.num_actions, dtype=bool)
        if self._phase == "ante":
            mask[FIRST_ANTE_ACTION:] = True
        else:
            mask[FOLD] = mask[RAISE] = True
        return mask

    def _apply(self, action: int) -> None:
        if self._phase == "ante":
            self.antes[self.box] = self.ante_choices[action - FIRST_ANTE_ACTION]
            self.log("ante", box=self.box, ante=self.antes[self.box])
            self.box += 1
            if self.box == self.boxes:
                self._deal()
            return
        self.decisions[self.box] = action
        self.log("decide", box=self.box, action="raise" if action == RAISE else "fold")
        self.box += 1
        if self.box == self.boxes:
            self._showdown()

    def _showdown(self) -> None:
        dealer_key = SYSTEM.key(self.dealer)
        box_keys = [SYSTEM.key(cards) for cards in self.box_cards]
        settled = [
            settle(key, dealer_key, d == RAISE, ante)
            for key, d, ante in zip(box_keys, self.decisions, self.antes)
        ]
        net = [int(n) for n, _ in settled]
        self.last_outcome = {
            "hand": self.hand_number,
            "dealer": {
                "cards": format_cards(self.dealer),
                "category": SYSTEM.category_of(dealer_key),
                "qualified": dealer_key >= QUALIFY_KEY,
            },
            "boxes": [
                {
                    "cards": format_cards(self.box_cards[b]),
                    "category": SYSTEM.category_of(box_keys[b]),
                    "ante": self.antes[b],
                    "decision": "raise" if self.decisions[b] == RAISE else "fold",
                    "result": RESULTS[int(settled[b][1])],
                    "net": net[b],
                }
                for b in range(self.boxes)
            ],
            "net": sum(net),
        }
        self.give(0, float(sum(net)))
        self.log_event(UnitEnd("showdown", dict(self.last_outcome)))
        self.hand_number += 1
        if self.hand_number == self.num_hands:
            self.finish()
        else:
            self._new_hand()

    # ------------------------------------------------------------------ information
    def _seen_boxes(self) -> int:
        if self.is_over:
            return self.boxes
        return 0 if self._phase == "ante" else self.box + 1

    def view(self, player: int) -> CaribbeanView:
        seen = self._seen_boxes()
        return CaribbeanView(
            player=player,
            num_players=1,
            phase=self.phase,
            current_player=self.current_player,
            hand_number=self.hand_number,
            num_hands=self.num_hands,
            boxes=self.boxes,
            box=min(self.box, self.boxes - 1),
            ante_choices=self.ante_choices,
            antes=tuple(self.antes),
            decisions=tuple(self.decisions),
            box_cards=tuple(tuple(c) if b < seen else () for b, c in enumerate(self.box_cards)),
            dealer_up=self.dealer[4] if self.dealer else -1,
        )

    def encode(self, view: CaribbeanView) -> np.ndarray:
        return encoding.encode(view)

    def action_name(self, action: int) -> str:
        if action == FOLD:
            return "fold"
        if action == RAISE:
            return "raise"
        if self.choose_antes and FIRST_ANTE_ACTION <= action < self.num_actions:
            return f"ante {self.ante_choices[action - FIRST_ANTE_ACTION]}"
        return f"invalid({action})"

    def info(self, player: int) -> dict:
        return {"outcome": self.last_outcome} if self.last_outcome is not None else {}

    def zones(self) -> dict[str, list[int]]:
        zones = {f"box{b}": list(c) for b, c in enumerate(self.box_cards)}
        zones["dealer"] = list(self.dealer)
        zones["stock"] = list(self.stock)
        return zones

    @property
    def unit_index(self) -> int:
        return self.hand_number

    def _redeal(self, world: CaribbeanStudGame, player: int, rng: np.random.Generator) -> None:
        """The dealer's four down cards, the boxes not seen yet and the stock, re-dealt among those places.

        The dealer's up card and the boxes already seen stay; before the deal every card is in the stock.
        """
        if not world.dealer:
            pool = sorted(world.stock)
            world.stock = [pool[i] for i in rng.permutation(len(pool))]
            return
        seen = self._seen_boxes()
        slots = [(world.dealer, i) for i in range(4)]
        slots += [(world.box_cards[b], i) for b in range(seen, self.boxes) for i in range(5)]
        slots += [(world.stock, i) for i in range(len(world.stock))]
        hidden = sorted(zone[i] for zone, i in slots)
        for (zone, i), j in zip(slots, rng.permutation(len(hidden))):
            zone[i] = hidden[j]

    def render(self, viewer: int | None = None) -> str:
        v = self.view(0)
        lines = [
            f"Caribbean stud — hand {min(v.hand_number + 1, v.num_hands)}/{v.num_hands}, phase {v.phase}"
        ]
        lines.append(f"Dealer: {format_cards([v.dealer_up]) if v.dealer_up >= 0 else '--'} (+4 face down)")
        for b in range(v.boxes):
            cards = format_cards(v.box_cards[b]) if v.box_cards[b] else "(not seen yet)"
            decision = {-1: "", 0: " folded", 1: " raised"}[v.decisions[b]]
            marker = "->" if b == v.box and not self.is_over else "  "
            category = f" [{SYSTEM.evaluate(v.box_cards[b]).category}]" if v.box_cards[b] else ""
            lines.append(f"{marker} box {b + 1} ante {v.antes[b] or '?'}: {cards}{category}{decision}")
        if self.last_outcome is not None:
            o = self.last_outcome
            d = o["dealer"]
            lines.append(
                f"Last hand: dealer {d['cards']} ({d['category']}, {'qualified' if d['qualified'] else 'no game'}); "
                + "; ".join(f"box {i + 1} {b['result']} {b['net']:+d}" for i, b in enumerate(o["boxes"]))
                + f"; net {o['net']:+d}"
            )
        return "\n".join(lines)

    def scene(self, viewer: int | None) -> dict:
        return scene.scene(self, viewer)
