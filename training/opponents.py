"""Who sits in the other seats while the learner trains: fixed agents, or a self-play league.

A policy trained against one fixed opponent learns to exploit that opponent
and little else; one trained only against copies of itself can chase its own
tail. The league mixes both: every episode, each opponent seat is drawn
independently from

* scripted agents (any registry spec: ``random``, ``heuristic``, ``a+b``
  composites, a shipped policy such as ``ppo``), each with a weight, and
* frozen snapshots of the learner (``policy:PATH`` checkpoints the trainer
  saves every ``snapshot_every`` steps), sharing the weight ``self_play``:
  ``latest_share`` of it goes to the newest snapshot, the rest is spread
  evenly over the older ones (at most ``max_snapshots`` are kept, oldest
  dropped first). Until the first snapshot exists, only the scripted agents play.

The draws use the env's own generator, and every agent is reseeded from the
env's seed, so a seeded training env replays exactly; the pool pickles with
the env (snapshots by path), which the trainer's exact resume relies on.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from pokerzoo.agents.base import Agent
from pokerzoo.agents.policy import PolicyAgent
from pokerzoo.agents.registry import make_agent
from pokerzoo.envs.engine.options import finite_number


def league_table(
    scripted: Mapping[str, float], snapshots: Sequence[str], self_play: float, latest_share: float
) -> tuple[list[str], np.ndarray]:
    """Labels and draw probabilities of one opponent seat: the scripted weights, then the snapshots (oldest first).

    The snapshots share ``self_play``: ``latest_share`` of it goes to the newest,
    the rest evenly to the older ones (all of it to a lone snapshot). The RLlib
    trainer's league (``pokerzoo.training.rllib.env``) draws from the same table.
    """
    labels = list(scripted)
    weights = list(scripted.values())
    if snapshots and self_play > 0:
        older = list(snapshots[:-1])
        for label in older:
            labels.append(label)
            weights.append(self_play * (1 - latest_share) / len(older))
        labels.append(snapshots[-1])
        weights.append(self_play * (latest_share if older else 1.0))
    w = np.asarray(weights, dtype=np.float64)
    return labels, w / w.sum()


class Opponents:
    """Interface: ``draw(rng, k)`` agents for the k opponent seats of one episode (seat order)."""

    def draw(self, rng: np.random.Generator, k: int) -> list[Agent]:
        raise NotImplementedError

    def seed(self, seed: int | None) -> None:
        """Reseed every agent's own randomness (from the env's seed)."""

    def add_snapshot(self, path: str) -> None:
        raise ValueError(f"{type(self).__name__} has no self-play snapshots; use an OpponentPool")

    def set_snapshots(self, paths: Sequence[str]) -> None:
        raise ValueError(f"{type(self).__name__} has no self-play snapshots; use an OpponentPool")


def build_agent(env_name: str, spec: str | Agent) -> Agent:
    """An agent from a registry spec (``pokerzoo.agents.registry``), or the agent itself.

    Specs with arguments tune training opponents and teachers, e.g.
    ``equity(simulations=40)``: a cheaper Monte Carlo bettor that keeps training
    fast; composites take them on either side: ``pimc(bid_budget=128)+heuristic``.
    """
    return spec if isinstance(spec, Agent) else make_agent(env_name, spec)


def _seed_agents(agents: Sequence[Agent], seed: int | None) -> None:
    if seed is None:
        for agent in agents:
            agent.seed(None)
        return
    for agent, child in zip(agents, np.random.SeedSequence(seed).spawn(len(agents))):
        agent.seed(int(child.generate_state(1, np.uint64)[0] >> 1))


class FixedOpponents(Opponents):
    """The same agents every episode: opponent seats (in seat order) get ``agents[0], agents[1], ...``."""

    def __init__(self, env_name: str, agents: Sequence[str | Agent]):
        if not agents:
            raise ValueError("at least one opponent agent is needed")
        self.specs = [a if isinstance(a, str) else a.name for a in agents]
        self.agents = [build_agent(env_name, a) for a in agents]

    def draw(self, rng: np.random.Generator, k: int) -> list[Agent]:
        return [self.agents[i % len(self.agents)] for i in range(k)]

    def seed(self, seed: int | None) -> None:
        _seed_agents(self.agents, seed)

    def __repr__(self) -> str:
        return f"FixedOpponents({self.specs})"


class OpponentPool(Opponents):
    """Scripted agents with weights plus frozen learner snapshots sharing ``self_play`` (module docstring)."""

    def __init__(
        self,
        env_name: str,
        scripted: Mapping[str, float] | Sequence[str] = ("random",),
        *,
        self_play: float = 0.0,
        latest_share: float = 0.5,
        max_snapshots: int = 5,
        snapshots: Sequence[str] = (),
        snapshot_deterministic: bool = False,
    ):
        weights = dict(scripted) if isinstance(scripted, Mapping) else dict.fromkeys(scripted, 1.0)
        for name, w in weights.items():
            if not (finite_number(w) and w >= 0):
                raise ValueError(f"opponent weight for {name!r} must be a finite number >= 0, got {w!r}")
        if not (finite_number(self_play) and self_play >= 0):
            raise ValueError(f"self_play weight must be a finite number >= 0, got {self_play!r}")
        if not (finite_number(latest_share) and 0 <= latest_share <= 1):
            raise ValueError(f"latest_share must be in 0..1, got {latest_share!r}")
        if not isinstance(max_snapshots, int) or max_snapshots < 1:
            raise ValueError(f"max_snapshots must be a positive integer, got {max_snapshots!r}")
        if sum(weights.values()) <= 0:
            raise ValueError(
                "the scripted opponents need a positive total weight (they play until a snapshot exists)"
            )
        self.env_name = env_name
        self.weights = {k: float(v) for k, v in weights.items() if v > 0}
        self.self_play = float(self_play)
        self.latest_share = float(latest_share)
        self.max_snapshots = max_snapshots
        self.snapshot_deterministic = snapshot_deterministic
        self.scripted = {name: build_agent(env_name, name) for name in self.weights}
        self.snapshots: list[str] = []
        self._snapshot_agents: dict[str, Agent] = {}
        self._seed: int | None = None
        self._table: tuple[list[str], np.ndarray] | None = None
        self.set_snapshots(snapshots)

    # ------------------------------------------------------------------ snapshots
    def add_snapshot(self, path: str) -> None:
        self.set_snapshots([*self.snapshots, str(path)])

    def set_snapshots(self, paths: Sequence[str]) -> None:

        paths = [str(p) for p in paths][-self.max_snapshots :]
        agents = {}
        for p in paths:
            agent = self._snapshot_agents.get(p)
            if agent is None:
                agent = PolicyAgent(p, env_name=self.env_name, deterministic=self.snapshot_deterministic)
            agents[p] = agent
        self.snapshots = paths
        self._snapshot_agents = agents
        self._table = None
        if self._seed is not None:
            self.seed(self._seed)

    # ------------------------------------------------------------------ drawing
    def probabilities(self) -> dict[str, float]:
        """Each opponent's chance to fill a seat now (snapshots labelled ``policy:PATH``)."""
        labels, p = self._probabilities()
        return dict(zip(labels, p.tolist()))

    def _probabilities(self) -> tuple[list[str], np.ndarray]:
        if self._table is None:
            self._table = league_table(
                self.weights, [f"policy:{p}" for p in self.snapshots], self.self_play, self.latest_share
            )
        return self._table

    def draw(self, rng: np.random.Generator, k: int) -> list[Agent]:
        labels, p = self._probabilities()
        picks = rng.choice(len(labels), size=k, p=p) if k else []
        return [self._agent(labels[i]) for i in picks]

    def _agent(self, label: str) -> Agent:
        if label.startswith("policy:"):
            return self._snapshot_agents[label[len("policy:") :]]
        return self.scripted[label]

    def seed(self, seed: int | None) -> None:
        self._seed = seed
        agents = list(self.scripted.values()) + [self._snapshot_agents[p] for p in self.snapshots]
        if seed is None:
            _seed_agents(agents, None)
            return
        # Scripted agents and each snapshot get seeds that do not shift as snapshots come and go
        # (a snapshot's seed comes from its file name, so a run folder can be moved or copied).
        _seed_agents(list(self.scripted.values()), seed)
        for p in self.snapshots:
            _seed_agents([self._snapshot_agents[p]], seed ^ zlib.crc32(Path(p).name.encode()))

    def __repr__(self) -> str:
        return f"OpponentPool({self.probabilities()})"


def as_opponents(env_name: str, opponents: Opponents | Agent | str | Sequence[Any] | None) -> Opponents:
    """Normalise what users pass as ``opponents`` (None: uniform random agents)."""
    if opponents is None:
        return FixedOpponents(env_name, ["random"])
    if isinstance(opponents, Opponents):
        return opponents
    if isinstance(opponents, str | Agent):
        return FixedOpponents(env_name, [opponents])
    if isinstance(opponents, Mapping):
        return OpponentPool(env_name, **opponents)
    return FixedOpponents(env_name, list(opponents))
