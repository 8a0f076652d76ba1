"""The league as an RLlib ``MultiAgentEnv`` over a game's AEC env (the AEC env source).

One env plays one game at a time. At every episode it draws, from its own
generator, the learner's seat and, for every other seat, an opponent from the
league table of the MaskablePPO trainer (``training.opponents.league_table``:
the scripted agents with their weights, the snapshots sharing ``self_play``):

* **scripted agents** (any registry spec, built with ``agents.registry.make_agent``)
  play inside the env, between the RLModules' decisions, as ``SingleSeatEnv``
  lets its opponents play;
* the **learner** is the agent ``"learner"``, the RLModule being trained;
* a **snapshot** in seat s is the agent ``"snapshot{k}@{s}"``, played by the
  frozen RLModule ``"snapshot{k}"`` (``module_of`` is the policy mapping). The
  trainer copies the learner's weights into slot k when it takes a snapshot
  and tells every env which slots are filled, oldest first (``set_league``).

Only the agent that must act gets an observation, ``{"observations": float32,
"action_mask": float32}``. Rewards follow ``SingleSeatEnv`` exactly: an
agent's reward for a decision is everything its seat earned from that
decision until its next one (opponents' moves, the end of the game
included), and what the seat earned before its first decision (e.g. at the
deal) joins that first decision's reward, so the learner's rewards in an
episode sum to the game's total for its seat (tested against the scalar
game). Learner rewards are multiplied by ``reward_scale``. A game in which no
RLModule has to act is played out and discarded inside ``reset``/``step``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner

from pokerzoo.agents.base import Agent
from pokerzoo.agents.registry import make_agent
from pokerzoo.envs import env_module
from pokerzoo.training.opponents import league_table
from pokerzoo.training.rllib.modules import MASK_KEY, OBS_KEY

LEARNER = "learner"
SAMPLE_SECONDS = "pokerzoo_sample_seconds"  # env-runner metric: seconds spent in sample() (summed)
MAX_SKIPPED = 10_000  # games in a row without a decision for an RLModule: a broken game or seat setting


def snapshot_module(slot: int) -> str:
    return f"snapshot{slot}"


def module_of(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """RLlib's policy mapping: ``"learner"`` -> ``"learner"``, ``"snapshot3@1"`` -> ``"snapshot3"``."""
    return agent_id.split("@", 1)[0]


def observation_space(game) -> gym.spaces.Dict:
    """The Dict observation of the RLModules: the game's vector and its legal-action mask as float32."""
    return gym.spaces.Dict(
        {
            OBS_KEY: gym.spaces.Box(-np.inf, np.inf, (game.observation_size,), np.float32),
            MASK_KEY: gym.spaces.Box(0.0, 1.0, (game.num_actions,), np.float32),
        }
    )


class LeagueEnv(MultiAgentEnv):
    """See the module docstring. ``config``: game, options, scripted, self_play, latest_share, max_snapshots,
    reward_scale (what ``settings.env_config`` builds from a training config)."""

    def __init__(self, config: Mapping[str, Any] | None = None):
        super().__init__()
        cfg = dict(config or {})
        self.aec = env_module(cfg["game"]).raw_env(**dict(cfg.get("options") or {}))
        self.num_players = self.aec.num_players
        self.reward_scale = float(cfg.get("reward_scale", 1.0))
        self.self_play = float(cfg.get("self_play", 0.0))
        self.latest_share = float(cfg.get("latest_share", 0.5))
        self.max_snapshots = int(cfg.get("max_snapshots", 1))
        scripted = dict(cfg.get("scripted") or {"random": 1.0})
        self.scripted_weights = {k: float(v) for k, v in scripted.items() if v > 0}
        self.scripted: dict[str, Agent] = {k: make_agent(self.aec.metadata["name"], k) for k in self.scripted_weights}
        self.filled: list[int] = []  # snapshot slots in the league, oldest first
        self._table = league_table(self.scripted_weights, [], self.self_play, self.latest_share)

        game = self.aec.game
        self.possible_agents = [LEARNER] + [
            f"{snapshot_module(k)}@{s}" for k in range(self.max_snapshots) for s in range(self.num_players)
        ]
        self.agents = []
        space = observation_space(game)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, gym.spaces.Discrete(game.num_actions))
        self._rng = np.random.default_rng()
        self.seat_roles: list[str | Agent] = []  # per seat: an agent id (RLModule) or a scripted agent
        self._pending = np.zeros(self.num_players)  # each seat's reward not yet handed out
        self._acted = np.zeros(self.num_players, dtype=bool)
        self.skipped_episodes = 0

    # ------------------------------------------------------------------ league
    def set_league(self, filled: Sequence[int]) -> None:
        """The snapshot slots that hold a snapshot, oldest first (takes effect at the next episode)."""
        self.filled = [int(k) for k in filled]
        labels = [snapshot_module(k) for k in self.filled]
        self._table = league_table(self.scripted_weights, labels, self.self_play, self.latest_share)

    def probabilities(self) -> dict[str, float]:
        labels, p = self._table
        return dict(zip(labels, p.tolist()))

    # ------------------------------------------------------------------ MultiAgentEnv
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        aec_seed = None
        if seed is not None:
            seeds = np.random.SeedSequence(seed).generate_state(3, np.uint64)
            aec_seed = int(seeds[0] >> 1)
            self._rng = np.random.default_rng(int(seeds[1] >> 1))
            agents = list(self.scripted.values())
            for agent, child in zip(agents, np.random.SeedSequence(int(seeds[2] >> 1)).spawn(len(agents))):
                agent.seed(int(child.generate_state(1, np.uint64)[0] >> 1))
        options = dict(options or {})
        for _ in range(MAX_SKIPPED):
            self.aec.reset(seed=aec_seed, options={"chance": options.pop("chance")} if "chance" in options else None)
            aec_seed = None
            self._start_episode(options.get("seat"))
            if self._advance():
                return self._observe(), {}
            self.skipped_episodes += 1
        raise RuntimeError(f"{self.aec.metadata['name']}: {MAX_SKIPPED} games in a row without an RLModule decision")

    def step(self, action_dict: Mapping[str, Any]):
        game = self.aec.game
        seat = game.current_player
        agent_id = self.seat_roles[seat]
        if set(action_dict) != {agent_id}:
            raise ValueError(f"expected an action of {agent_id!r} (seat {seat}) only, got {sorted(action_dict)}")
        self._acted[seat] = True
        self.aec.step(int(action_dict[agent_id]))
        self._collect()
        if self._advance():
            nxt = self.seat_roles[game.current_player]
            p = game.current_player
            rewards = {}
            if self._acted[p]:  # its previous decision's reward is complete
                rewards[nxt] = self._hand_out(p)
            return self._observe(), rewards, {"__all__": False}, {"__all__": False}, {}
        return self._finish()

    # ------------------------------------------------------------------ internals
    def _start_episode(self, seat: int | None) -> None:
        n = self.num_players
        learner = int(self._rng.integers(n)) if seat is None else int(seat)
        labels, p = self._table
        picks = self._rng.choice(len(labels), size=n - 1, p=p) if n > 1 else []
        others = iter(labels[i] for i in picks)
        roles: list[str | Agent] = []
        for s in range(n):
            if s == learner:
                roles.append(LEARNER)
                continue
            label = next(others)
            roles.append(f"{label}@{s}" if label.startswith("snapshot") else self.scripted[label])
        self.seat_roles = roles
        self.learner_seat = learner
        self._pending[:] = [self.aec.rewards[a] for a in self.aec.possible_agents]
        self._acted[:] = False
        self.agents = [r for r in roles if isinstance(r, str)]

    def _collect(self) -> None:
        for s, name in enumerate(self.aec.possible_agents):
            self._pending[s] += self.aec.rewards[name]

    def _advance(self) -> bool:
        """Scripted seats play until an RLModule must act (True) or the game ends (False)."""
        aec, game = self.aec, self.aec.game
        while not game.is_over:
            p = game.current_player
            role = self.seat_roles[p]
            if isinstance(role, str):
                return True
            aec.step(int(role.act(game.view(p), game.legal_mask(), game)))
            self._collect()
        return False

    def _hand_out(self, seat: int) -> float:
        reward = float(self._pending[seat]) * (self.reward_scale if seat == self.learner_seat else 1.0)
        self._pending[seat] = 0.0
        return reward

    def _observation(self, seat: int, mask: np.ndarray | None = None) -> dict[str, np.ndarray]:
        game = self.aec.game
        legal = game.legal_mask() if mask is None else mask
        return {
            OBS_KEY: np.asarray(game.encode(game.view(seat)), dtype=np.float32),
            MASK_KEY: np.asarray(legal, dtype=np.float32),
        }

    def _observe(self) -> dict[str, dict[str, np.ndarray]]:
        p = self.aec.game.current_player
        return {self.seat_roles[p]: self._observation(p)}

    def _finish(self):
        """The game is over: every RLModule seat that acted gets its last reward and its terminal observation."""
        game = self.aec.game
        none = np.zeros(game.num_actions, dtype=np.float32)
        obs, rewards, infos = {}, {}, {}
        totals = game.total_rewards
        for s, role in enumerate(self.seat_roles):
            if isinstance(role, str) and self._acted[s]:
                obs[role] = self._observation(s, none)
                rewards[role] = self._hand_out(s)
                infos[role] = {"seat": s, "game_total": float(totals[s])}  # what the tests check the returns against
        truncated = bool(game.is_truncated)
        done = dict.fromkeys(obs, True)
        return (
            obs,
            rewards,
            {**({} if truncated else done), "__all__": not truncated},
            {**(done if truncated else {}), "__all__": truncated},
            infos,
        )


class TimedEnvRunner(MultiAgentEnvRunner):
    """RLlib's multi-agent env runner, timing its own ``sample()`` calls exactly (``SAMPLE_SECONDS``).

    RLlib's sampling timers are moving averages; the trainer's env-steps-per-second
    figures need the seconds actually spent sampling in each iteration.
    """

    def sample(self, *args: Any, **kwargs: Any):
        start = time.perf_counter()
        out = super().sample(*args, **kwargs)
        self.metrics.log_value(SAMPLE_SECONDS, time.perf_counter() - start, reduce="sum")
        return out
