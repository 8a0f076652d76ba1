"""The batched engine as RLlib's env source: one vectorised multi-agent env per env runner.

``--env-source batched`` replaces the ``num_envs_per_env_runner`` AEC envs that
RLlib's ``SyncVectorMultiAgentEnv`` steps one by one with one ``BatchedEnv``
(``pokerzoo.envs.batched.make``) of that many rows, stepped by the game's
compiled kernel. Each row is one env: the learner's seat (drawn per episode)
against one scripted agent with a batched port in the other seats
(``agents.batched.batched_agents``: ``random`` everywhere, and each game's
ported scripted agents, such as Raspisnoy's ``heuristic``), with
``SingleSeatEnv``'s rewards (``envs.batched.seats.LearnerSeats``, which the
batched tests replay on the scalar game); the learner's rewards are scaled by
``reward_scale``. Only the games with a kernel, and that league (one scripted
agent, no snapshots), can use it (``settings.check`` refuses the rest).

RLlib's ``MultiAgentEnvRunner`` builds its vector env itself (``make_vec``
over gym-registered ``MultiAgentEnv`` copies), so ``BatchedEnvRunner`` overrides
``make_env``; the vector env follows RLlib's "next step" autoreset: a row
whose episode ended returns its terminal step, and its next episode's first
observation comes with the following ``step`` (the row takes no action then),
so rows are stepped selectively (``BatchedEnv.step(rows=...)``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from ray.rllib.env.vector.vector_multi_agent_env import VectorMultiAgentEnv

from pokerzoo.agents.batched import batched_agents
from pokerzoo.envs import batched, game_class
from pokerzoo.envs.batched.seats import LearnerSeats, _EpisodeStats
from pokerzoo.training.rllib.env import LEARNER, TimedEnvRunner, observation_space
from pokerzoo.training.rllib.modules import MASK_KEY, OBS_KEY


class RowSeats(LearnerSeats):
    """``LearnerSeats`` whose learner acts in some rows only (the others wait at their decision)."""

    def step_rows(self, actions: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The learner acts in ``rows``: rewards, ended and truncated (bool), each [num_envs], for those rows."""
        env, n = self.env, self.num_envs
        _, _, rewards, done, info = env.step(actions, rows=rows)
        stepped = np.zeros(n, dtype=bool)
        stepped[rows] = True
        self.pending[rows] += rewards[rows, self.seat[rows]]
        self.acted[rows] = True
        self.episode_length[rows] += 1
        ended = stepped & done
        truncated = ended & info["truncated"]
        final = np.zeros(n, dtype=np.float64)
        stats = _EpisodeStats.empty(n)
        if ended.any():
            finished = np.flatnonzero(ended)
            final[finished] = self.pending[finished]
            self._close(finished, final, stats)
        self._advance((ended, final, truncated, stats))
        reward = np.where(ended, final, np.where(stepped, self.pending, 0.0))
        going = stepped & ~ended
        self.episode_return[going] += reward[going]
        self.pending[going] = 0.0  # an ended row's pending already belongs to its next episode
        return reward, ended, truncated


class _RowSpaces:
    """What RLlib's env runner asks of each sub-env (``envs[i].unwrapped``): agents and their spaces."""

    def __init__(self, space: gym.spaces.Dict, actions: gym.spaces.Discrete):
        self.possible_agents = [LEARNER]
        self.unwrapped = self
        self._spaces = (space, actions)

    def get_observation_space(self, agent_id: str) -> gym.Space:
        return self._spaces[0]

    def get_action_space(self, agent_id: str) -> gym.Space:
        return self._spaces[1]


class BatchedLeagueVectorEnv(VectorMultiAgentEnv):
    """``num_envs`` rows of a batched game as RLlib's vectorised multi-agent env (module docstring)."""

    def __init__(self, config: Mapping[str, Any], num_envs: int):
        super().__init__()
        cfg = dict(config)
        game = game_class(cfg["game"])(seed=0, **dict(cfg.get("options") or {}))
        self.seats = RowSeats(
            batched.make(cfg["game"], num_envs, **dict(cfg.get("options") or {})),
            batched_opponent(cfg["game"], next(iter(cfg.get("scripted") or {"random": 1.0}))),
        )
        self.reward_scale = float(cfg.get("reward_scale", 1.0))
        self.num_envs = num_envs
        space, actions = observation_space(game), gym.spaces.Discrete(game.num_actions)
        self.single_observation_spaces = {LEARNER: space}
        self.single_action_spaces = {LEARNER: actions}
        self.single_observation_space = gym.spaces.Dict(self.single_observation_spaces)
        self.single_action_space = gym.spaces.Dict(self.single_action_spaces)
        self.envs = [_RowSpaces(space, actions)] * num_envs
        self.metadata = {"autoreset_mode": "next_step"}
        self._obs = np.zeros((num_envs, game.observation_size), dtype=np.float32)  # each row's latest decision
        self._mask = np.zeros((num_envs, game.num_actions), dtype=np.float32)
        self._restart = np.zeros(num_envs, dtype=bool)  # ended last step: the next step starts its episode

    def reset(self, *, seed: int | Sequence[int] | None = None, options: dict | None = None):
        obs, mask, _ = self.seats.reset(seed=seed, options=options)
        self._obs[:], self._mask[:] = obs, mask
        self._restart[:] = False
        return [self._row(i) for i in range(self.num_envs)], [{} for _ in range(self.num_envs)]

    def step(self, actions: list[dict]):
        n = self.num_envs
        rows = np.array([i for i, a in enumerate(actions) if LEARNER in a], dtype=np.int64)
        reward = np.zeros(n)
        ended = truncated = np.zeros(n, dtype=bool)
        if rows.size:
            chosen = np.array([actions[i][LEARNER] for i in rows], dtype=np.int64)
            reward, ended, truncated = self.seats.step_rows(chosen, rows)
        obs, rewards, terms, truncs = [], [], [], []
        env = self.seats.env
        for i in range(n):
            if ended[i]:  # the terminal step (its observation: the learner's last decision)
                obs.append(self._row(i))
                rewards.append({LEARNER: float(reward[i]) * self.reward_scale})
                terms.append({LEARNER: not truncated[i], "__all__": not truncated[i]})
                truncs.append({LEARNER: bool(truncated[i]), "__all__": bool(truncated[i])})
                continue
            self._obs[i], self._mask[i] = env.obs[i], env.mask[i]
            obs.append(self._row(i))
            rewards.append({} if self._restart[i] else {LEARNER: float(reward[i]) * self.reward_scale})
            terms.append({"__all__": False})
            truncs.append({"__all__": False})
        self._restart[:] = ended
        return obs, rewards, terms, truncs, [{} for _ in range(n)]

    def _row(self, i: int) -> dict[str, dict[str, np.ndarray]]:
        return {LEARNER: {OBS_KEY: self._obs[i].copy(), MASK_KEY: self._mask[i].copy()}}


def batched_opponent(game: str, spec: str) -> Any:
    """The batched port of the scripted agent ``spec`` in ``game`` (an env id; ``agents.batched.batched_agents``)."""
    ports = batched_agents(game)
    if spec not in ports:
        raise ValueError(f"{spec!r} has no batched port for {game}; available: {', '.join(ports)}")
    return ports[spec]()


class BatchedEnvRunner(TimedEnvRunner):
    """RLlib's multi-agent env runner over ``BatchedLeagueVectorEnv`` instead of copies of an AEC env."""

    def make_env(self) -> None:
        if self.env is not None:
            self.env.close()
        self.env = BatchedLeagueVectorEnv(self.config.env_config, self.config.num_envs_per_env_runner)
        self.num_envs = self.env.num_envs
        self._needs_initial_reset = True
