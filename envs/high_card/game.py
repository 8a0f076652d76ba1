"""Three-card high card, the smallest complete pokerzoo game (the example of ``docs/adding_a_game.md``).

Every player antes 1 chip and is dealt three cards face down. In seat order
each player either folds (losing the ante) or plays (adding 2 chips). The
players who played compare hands: ranks sorted high to low, compared in
order (suits never matter; an exact tie splits the pot). The best hand takes
the pot. If nobody plays, every ante is returned; if one player plays, that
player takes the pot unopposed. One decision per player, one hand per game.

It uses the shared pieces as every real game does: ``OptionSet`` for its
options, ``Chance`` for the shuffle, a frozen ``View``, ``UnitEnd`` at the
end of the hand, ``zones`` for card conservation and ``determinize`` for
search agents and the hidden-information test.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerzoo.envs.engine.cards import RANK_OF, format_cards
from pokerzoo.envs.engine.events import UnitEnd
from pokerzoo.envs.engine.game import Game, View
from pokerzoo.envs.engine.options import OptionSet, num_players_option
from pokerzoo.envs.engine.schema import symbolic_table
from pokerzoo.envs.high_card import encoding, scene

FOLD, PLAY = 0, 1
ANTE, RAISE = 1, 2
UNDECIDED = -1


@dataclass(frozen=True)
class HighCardView(View):
    hand: tuple[int, ...]  # the viewer's three cards
    decisions: tuple[int, ...]  # per seat: -1 undecided, 0 folded, 1 played
    pot: int


def hand_key(cards) -> tuple[int, ...]:
    """The comparable strength of a hand: its ranks, high to low."""
    return tuple(sorted((int(RANK_OF[c]) for c in cards), reverse=True))


class HighCardGame(Game):
    NAME = "high_card"
    OPTIONS = OptionSet(num_players_option(2, 6, 3))

    def _setup(self) -> None:
        self.num_players = self.config["num_players"]
        self.num_actions = 2
        self.observation_schema = encoding.schema(self.num_players)
        self.outcome: dict | None = None

    def _start(self) -> None:
        order = self.chance.shuffle(self.deck)
        n = self.num_players
        self.hands = [order[3 * s : 3 * s + 3] for s in range(n)]
        self.stock = order[3 * n :]
        self.decisions = [UNDECIDED] * n
        self.pot = ANTE * n
        self.turn = 0
        self.log("deal", antes=[ANTE] * n)

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.turn

    @property
    def phase(self) -> str:
        return "over" if self.is_over else "decide"

    def _legal_mask(self) -> np.ndarray:
        return np.ones(2, dtype=bool)

    def _apply(self, action: int) -> None:
        self.decisions[self.turn] = action
        if action == PLAY:
            self.pot += RAISE
        self.log("action", player=self.turn, action=self.action_name(action))
        self.turn += 1
        if self.turn == self.num_players:
            self._showdown()

    def _showdown(self) -> None:
        n = self.num_players
        players = [s for s in range(n) if self.decisions[s] == PLAY]
        paid = [ANTE + (RAISE if d == PLAY else 0) for d in self.decisions]
        if not players:
            won = list(paid)  # nobody played: the antes go back
            winners: list[int] = []
        else:
            best = max(hand_key(self.hands[s]) for s in players)
            winners = [s for s in players if hand_key(self.hands[s]) == best]
            won = [self.pot / len(winners) if s in winners else 0.0 for s in range(n)]
        net = [float(won[s] - paid[s]) for s in range(n)]
        for s in range(n):
            self.give(s, net[s])
        self.outcome = {
            "hands": [format_cards(h) for h in self.hands],
            "played": [d == PLAY for d in self.decisions],
            "winners": winners,
            "net": net,
        }
        self.log_event(UnitEnd("showdown", dict(self.outcome)))
        self.finish()

    def view(self, player: int) -> HighCardView:
        return HighCardView(
            player=player,
            num_players=self.num_players,
            phase=self.phase,
            current_player=self.current_player,
            hand=tuple(self.hands[player]),
            decisions=tuple(self.decisions),
            pot=self.pot,
        )

    @classmethod
    def observation_table(cls) -> str:  # the layout grows with the player count: offsets in N
        return symbolic_table(encoding.schema, "N")

    def encode(self, view: HighCardView) -> np.ndarray:
        return encoding.encode(view)

    def action_name(self, action: int) -> str:
        return {FOLD: "fold", PLAY: "play"}.get(action, f"invalid({action})")

    def info(self, player: int) -> dict:
        return {"outcome": self.outcome} if self.outcome is not None else {}

    def zones(self) -> dict[str, list[int]]:
        return {**{f"hand{s}": list(h) for s, h in enumerate(self.hands)}, "stock": list(self.stock)}

    def _redeal(self, world: HighCardGame, player: int, rng: np.random.Generator) -> None:
        """The other hands and the stock, re-dealt among themselves (a sorted pool: see ``determinize``)."""
        if world.is_over:  # the showdown showed every hand
            return
        others = [s for s in range(self.num_players) if s != player]
        hidden = sorted([c for s in others for c in world.hands[s]] + list(world.stock))
        hidden = [hidden[i] for i in rng.permutation(len(hidden))]
        for k, s in enumerate(others):
            world.hands[s] = hidden[3 * k : 3 * k + 3]
        world.stock = hidden[3 * len(others) :]

    def render(self, viewer: int | None = None) -> str:
        seat = viewer if viewer is not None else (self.current_player or 0)
        v = self.view(seat)
        shown = {-1: "to decide", 0: "folded", 1: "played"}
        lines = [f"Three-card high card — pot {v.pot}; you are seat {seat}: {format_cards(v.hand)}"]
        lines += [f"  seat {s}: {shown[d]}" for s, d in enumerate(v.decisions)]
        if self.outcome is not None:
            lines.append("Showdown: " + "; ".join(f"seat {s} {h}" for s, h in enumerate(self.outcome["hands"])))
        return "\n".join(lines)

    def scene(self, viewer: int | None) -> dict:
        return scene.scene(self, viewer)
