"""The agent protocol: choose an action from one seat's view and the legal-action mask.

Scripted baselines and learned policies share this one method so that the
evaluation harness, the training opponents and human play can seat any mix
of them. Agents see a ``View`` (never the hidden state); search agents also
get the running game, which they may only use through ``determinize`` /
``clone`` to sample worlds consistent with their view.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from pokerzoo.envs.engine.game import Game, View


class Agent:
    name = "agent"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def act(self, view: View, mask: np.ndarray, game: Game | None = None) -> int:
        raise NotImplementedError

    def seed(self, seed: int | None) -> None:
        """Reseed the agent's own randomness (the harness does this per game for reproducibility)."""
        self.rng = np.random.default_rng(seed)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> int:
    legal = np.flatnonzero(mask)
    if legal.size == 0:
        raise ValueError("no legal action: the mask is all zeros")
    return int(legal[rng.integers(legal.size)])


class RandomAgent(Agent):
    """Uniform over the legal actions: the floor every baseline must beat."""

    name = "random"

    def act(self, view: View, mask: np.ndarray, game: Game | None = None) -> int:
        return random_legal(self.rng, mask)


class CompositeAgent(Agent):
    """Routes bidding decisions to one agent and all others to another (``bidder+player``).

    This is how the reports separate the skill of bidding (predictions, bids,
    bets, knocks) from the skill of play.
    """

    def __init__(self, bidder: Agent, player: Agent, bidding_phases: Collection[str]):
        super().__init__()
        self.bidder, self.player = bidder, player
        self.bidding_phases = frozenset(bidding_phases)
        self.name = f"{bidder.name}+{player.name}"

    def act(self, view: View, mask: np.ndarray, game: Game | None = None) -> int:
        agent = self.bidder if view.phase in self.bidding_phases else self.player
        return agent.act(view, mask, game)

    def seed(self, seed: int | None) -> None:
        ss = np.random.SeedSequence(seed)
        a, b = ss.spawn(2)
        self.bidder.seed(int(a.generate_state(1)[0]))
        self.player.seed(int(b.generate_state(1)[0]))
