"""A Stable-Baselines3 ``VecEnv`` over a batched env: the learner's seat of every row, for MaskablePPO.

``BatchedVecEnv("caribbean_stud", 1024, boxes=2)`` (or over a ``BatchedEnv``):
one sub-env per row, the learner's seat of each (``LearnerSeats``: the other
seats are played in batch by the opponents, rewards reach the learner
exactly as ``SingleSeatEnv`` gives them). SB3's conventions:

* ``reset()`` uses the seeds of ``seed(s)`` (row i: ``s + i``, which is also the
  batched env's row seed), once; ``step`` auto-resets finished rows, and a
  finished row's ``info`` holds ``episode`` (``{"r", "l", "t"}``, Monitor's
  fields, so no ``VecMonitor`` is needed), ``terminal_observation`` and
  ``TimeLimit.truncated`` (True only for a game ended by a safety cap);
* ``env_method("action_masks")`` and ``action_masks()`` give every row's legal
  actions (sb3-contrib's MaskablePPO asks the first before each step);
* observations, masks and rewards are fresh arrays every step (SB3 keeps the
  previous step's arrays while the env steps).

A finished game has no decision left, so ``terminal_observation`` is the
learner's observation at its last decision of the episode; SB3 reads it only
to bootstrap truncated episodes. Learner actions must be legal
(``IllegalActionError`` otherwise, nothing changed): MaskablePPO's are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices

from pokerzoo.envs.batched.core import BatchedEnv
from pokerzoo.envs.batched.opponents import BatchedOpponent
from pokerzoo.envs.batched.seats import learner_seats


def learner_spaces(env: BatchedEnv) -> tuple[spaces.Box, spaces.Discrete]:
    """One row's observation and action space (the AEC env's ``observation`` Box and ``Discrete``)."""
    low, high = env.observation_bounds
    return spaces.Box(low, high, (env.observation_size,), np.float32), spaces.Discrete(env.num_actions)


class BatchedVecEnv(VecEnv):
    """See the module docstring. ``game``: a name (with ``num_envs`` and options) or a ``BatchedEnv``."""

    def __init__(
        self,
        game: str | BatchedEnv,
        num_envs: int | None = None,
        *,
        opponents: BatchedOpponent | Sequence[BatchedOpponent] | None = None,
        seat: int | None = None,
        seed: int | None = None,
        parallel: bool = False,
        **options: Any,
    ):
        self.seats = learner_seats(game, num_envs, opponents, seat, seed, parallel, options)
        env = self.seats.env
        self.render_mode = None
        observation_space, action_space = learner_spaces(env)
        super().__init__(env.num_envs, observation_space, action_space)
        self._actions: np.ndarray | None = None
        self._obs: np.ndarray | None = None
        self._masks: np.ndarray | None = None

    @property
    def batched(self) -> BatchedEnv:
        return self.seats.env

    # ------------------------------------------------------------------ VecEnv
    def reset(self) -> np.ndarray:
        seeds = None if any(s is None for s in self._seeds) else [int(s) for s in self._seeds]
        obs, mask, _ = self.seats.reset(seed=seeds)
        self._obs, self._masks = obs, mask
        self.reset_infos = [{} for _ in range(self.num_envs)]
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self):
        if self._obs is None:
            raise RuntimeError("step() before reset(): call reset() first")
        obs, mask, reward, terminated, truncated, info = self.seats.step(self._actions)
        dones = terminated | truncated
        infos: list[dict] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i] = {
                "episode": {
                    "r": float(info["episode_return"][i]),
                    "l": int(info["episode_length"][i]),
                    "t": round(float(info["episode_time"][i]), 6),
                },
                "terminal_observation": self._obs[i],
                "TimeLimit.truncated": bool(truncated[i]),
            }
        self._obs, self._masks = obs, mask
        return obs, reward.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        """bool[num_envs, num_actions]: every row's legal actions now."""
        return self._masks.copy()

    def close(self) -> None:
        pass

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None] * self.num_envs

    # ------------------------------------------------------------------ by index
    def env_method(self, method_name: str, *method_args, indices: VecEnvIndices = None, **method_kwargs) -> list[Any]:
        rows = list(self._get_indices(indices))
        if method_name == "action_masks" and not method_args and not method_kwargs:
            return [self._masks[i] for i in rows]
        raise AttributeError(
            f"BatchedVecEnv answers env_method('action_masks') only (its rows are not separate env objects), "
            f"got {method_name!r}"
        )

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        rows = list(self._get_indices(indices))
        if attr_name in ("render_mode", "action_masks", "num_players", "observation_size"):
            owner = self if hasattr(self, attr_name) else self.batched
            return [getattr(owner, attr_name)] * len(rows)
        if attr_name == "seat":
            return [int(self.seats.seat[i]) for i in rows]
        raise AttributeError(f"BatchedVecEnv has no per-row attribute {attr_name!r}")

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        raise AttributeError(f"BatchedVecEnv's rows have no settable attribute {attr_name!r}")

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        return [False] * len(list(self._get_indices(indices)))
