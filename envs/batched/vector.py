"""A gymnasium ``VectorEnv`` over a batched env: the learner's seat of every row.

``BatchedVectorEnv("caribbean_stud", 1024)`` gives gymnasium's vector API
over ``LearnerSeats`` (the other seats played in batch by the opponents,
``SingleSeatEnv``'s reward rules): ``reset(seed=..., options=...)`` ->
``obs, infos``; ``step(actions)`` -> ``obs, rewards, terminations,
truncations, infos``, with infos as gymnasium's dict of arrays (``key`` and
its ``_key`` mask):

* ``action_mask`` bool[N, A] (also ``action_masks()``) and ``seat`` int[N], every step;
* for rows whose episode ended: ``episode`` (``r``, ``l``, ``t``, as
  ``RecordEpisodeStatistics`` writes them) and ``final_obs``.

Autoreset is ``AutoresetMode.SAME_STEP``: a finished row's observation is
already its next episode's. A finished game has no decision left, so
``final_obs`` is the learner's observation at its last decision.
``reset(seed=s)`` seeds row i with ``s + i`` (gymnasium's convention), a list
seeds each row; ``options={"chance": [...]}`` stacks decks as ``BatchedEnv.reset``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from pokerzoo.envs.batched.core import BatchedEnv
from pokerzoo.envs.batched.opponents import BatchedOpponent
from pokerzoo.envs.batched.sb3 import learner_spaces
from pokerzoo.envs.batched.seats import learner_seats


class BatchedVectorEnv(VectorEnv):
    """See the module docstring. ``game``: a name (with ``num_envs`` and options) or a ``BatchedEnv``."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 - gymnasium's class attribute

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
        self.num_envs = env.num_envs
        self.single_observation_space, self.single_action_space = learner_spaces(env)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._obs: np.ndarray | None = None
        self._masks: np.ndarray | None = None

    def reset(self, *, seed: int | Sequence[int] | None = None, options: dict | None = None):
        obs, mask, info = self.seats.reset(seed=seed, options=options)
        self._obs, self._masks = obs, mask
        return obs, _all({"action_mask": mask, "seat": info["seat"]})

    def step(self, actions):
        if self._obs is None:
            raise RuntimeError("step() before reset(): call reset() first")
        obs, mask, reward, terminated, truncated, info = self.seats.step(np.asarray(actions))
        ended = terminated | truncated
        infos: dict[str, Any] = _all({"action_mask": mask, "seat": info["seat"]})
        if ended.any():
            infos["episode"] = {
                "r": np.where(ended, info["episode_return"], 0.0),
                "l": np.where(ended, info["episode_length"], 0),
                "t": np.where(ended, info["episode_time"], 0.0),
            }
            infos["_episode"] = ended
            infos["final_obs"] = np.where(ended[:, None], self._obs, 0.0).astype(np.float32)
            infos["_final_obs"] = ended
        self._obs, self._masks = obs, mask
        return obs, reward, terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """bool[num_envs, num_actions]: every row's legal actions now."""
        return self._masks.copy()

    def close_extras(self, **kwargs: Any) -> None:
        pass


def _all(info: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """gymnasium's info layout for values present in every row: ``key`` and an all-True ``_key``."""
    out: dict[str, np.ndarray] = {}
    for k, v in info.items():
        out[k] = v
        out[f"_{k}"] = np.ones(len(v), dtype=bool)
    return out
