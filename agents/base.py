"""The agent protocol: choose an action from one seat's view and the legal-action mask.

Scripted baselines and learned policies share this one method so that the
evaluation harness, the training opponents and human play can seat any mix
of them. Agents see a ``View`` (never the hidden state); search agents also
get the running game, which they may only use through ``determinize`` /
``clone`` to sample worlds consistent with their view.

Decision details (optional): after ``act``, an agent may say what it computed
for that decision through ``decision_details()``; hand histories record it
(``pokerzoo evaluate --record``, ``pokerzoo play --record``) and the browser
viewer shows it next to the legal actions. The value is None (the default:
nothing to say, e.g. a scripted rule or a forced move) or a dict made by
``details()``::

    {"kind": "probabilities", "actions": [3, 7, 12], "values": [0.1, 0.6, 0.3]}
    {"kind": "values", "actions": [14, 15], "values": [2.5, -1.0], "note": "mean points over 32 worlds"}

* ``kind``: ``"probabilities"`` (a learned policy's distribution over the legal
  actions, summing to 1) or ``"values"`` (a search agent's estimate per
  candidate action, higher is better for the acting seat, in the game's reward unit);
* ``actions``: action ids (a subset of the legal actions: a search may skip
  equivalent moves), ``values``: one number per action;
* ``note`` (optional): one line saying what the numbers are.

It must describe the latest ``act`` call only (return None when that call
computed nothing), and calling it must not change the agent's future choices.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np

from pokerzoo.envs.engine.game import Game, View

DETAIL_KINDS = ("probabilities", "values")


def details(kind: str, actions: Sequence[int], values: Sequence[float], note: str = "") -> dict:
    """A decision-details dict (module docstring), checked and rounded to 6 significant digits for histories."""
    if kind not in DETAIL_KINDS:
        raise ValueError(f"decision details kind {kind!r}: expected one of {', '.join(DETAIL_KINDS)}")
    if len(actions) != len(values):
        raise ValueError(f"decision details: {len(actions)} actions but {len(values)} values")
    out = {
        "kind": kind,
        "actions": [int(a) for a in actions],
        "values": [float(f"{float(v):.6g}") for v in values],
    }
    if note:
        out["note"] = note
    return out


class Agent:
    name = "agent"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def act(self, view: View, mask: np.ndarray, game: Game | None = None) -> int:
        raise NotImplementedError

    def decision_details(self) -> dict | None:
        """What the latest ``act`` computed (module docstring), or None; this default says nothing."""
        return None

    def seed(self, seed: int | None) -> None:
        """Reseed the agent's own randomness (the harness does this per game for reproducibility)."""
        self.rng = np.random.default_rng(seed)

    def play_out(self, world: Game, unit: int | None = None) -> None:
        """Play every seat of ``world`` (a sampled world of a search) until the unit ``unit`` is over.

        ``unit`` is a ``world.unit_index`` (None: to the end of the game). Each seat
        acts on its own view of the world. Search agents call this for their
        rollouts; agents may override it with a faster loop that plays the same moves.
        """
        while not world.is_over and (unit is None or world.unit_index == unit):
            world.apply(int(self.act(world.view(world.current_player), world.legal_mask(), world)))

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

    def play_out(self, world: Game, unit: int | None = None) -> None:
        """Random legal moves for every seat; builds no views."""
        rng = self.rng
        while not world.is_over and (unit is None or world.unit_index == unit):
            legal = np.flatnonzero(world.legal_mask())
            world.apply(int(legal[rng.integers(legal.size)]))


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
        self._last: Agent | None = None

    def act(self, view: View, mask: np.ndarray, game: Game | None = None) -> int:
        agent = self.bidder if view.phase in self.bidding_phases else self.player
        self._last = agent
        return agent.act(view, mask, game)

    def decision_details(self) -> dict | None:
        """The details of whichever of the two agents took the latest decision."""
        return self._last.decision_details() if self._last is not None else None

    def seed(self, seed: int | None) -> None:
        ss = np.random.SeedSequence(seed)
        a, b = ss.spawn(2)
        self.bidder.seed(int(a.generate_state(1)[0]))
        self.player.seed(int(b.generate_state(1)[0]))
