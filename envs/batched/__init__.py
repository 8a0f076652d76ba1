"""The batched engine: N games of one kind as fixed-shape arrays, stepped by compiled (numba) kernels.

>>> from pokerzoo.envs import batched
>>> venv = batched.make("caribbean_stud_v0", num_envs=1024, boxes=2)   # the game's options, validated alike
>>> obs, mask, info = venv.reset(seed=[0, 1, ...])                     # or seed=int: row i gets seed + i
>>> obs, mask, rewards, done, info = venv.step(actions)                # actions: int[N]

* ``obs`` float32[N, D]: the observation of the player to act in each row, the
  AEC env's vector for that player; ``mask`` bool[N, A]; ``info["current_player"]`` int[N];
* ``rewards`` float64[N, num_players]: what each seat earned in this step, the
  end of a game included in its last step; ``done`` bool[N] (``info["truncated"]``
  marks games ended by a safety cap); a finished row starts its next game at
  once, continuing the row's generator.
* Row i plays exactly the game ``raw_env(**options).reset(seed=s_i)`` plays for
  the same actions; its k-th game is the scalar env's k-th game after that
  seeded reset. ``pokerzoo.envs.batched.testing`` proves it step by step.

``make(name, num_envs, parallel=True)`` runs the rows on all cores.
``step(actions, rows=...)`` steps only some rows (adapters use it to play the
opponents' turns). How to add a game: ``envs/batched/README.md``.

Importing this package compiles nothing; a game's kernels load (or compile,
once per machine) when its first env is made.
"""

from __future__ import annotations

import importlib
from typing import Any

from pokerzoo.envs.batched.core import BatchedEnv, GameKernel
from pokerzoo.envs.registry import GAMES, canonical

__all__ = ["BATCHED_GAMES", "BatchedEnv", "GameKernel", "kernel_class", "make"]

# env id -> module holding the game's ``Kernel`` class (declared in the registry: ``GameSpec.batched``)
BATCHED_GAMES = {env_id: spec.batched for env_id, spec in GAMES.items() if spec.batched}


def kernel_class(name: str) -> type[GameKernel]:
    """The batched kernel of game ``name`` (with or without ``_v0``, as ``pokerzoo.envs.make`` takes it)."""
    env_id = canonical(name)
    module = BATCHED_GAMES.get(env_id)
    if module is None:
        raise ValueError(f"{env_id} has no batched engine yet; batched games: {', '.join(BATCHED_GAMES)}")
    return importlib.import_module(module).Kernel


def make(name: str, num_envs: int, *, parallel: bool = False, copy: bool = True, **options: Any) -> BatchedEnv:
    """``num_envs`` games of ``name`` with the game's ``options`` (validated by its ``OPTIONS``).

    ``parallel=True``: the rows run on all of numba's threads. ``copy=False``:
    ``reset``/``step`` return the env's own buffers, overwritten by the next call.
    """
    return BatchedEnv(kernel_class(name), num_envs, parallel=parallel, copy=copy, **options)
