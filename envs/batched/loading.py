"""Scalar games into batched rows: ``load_games(env, rows, games)`` for the games whose kernel can load one.

A search samples worlds with the scalar ``Game.determinize`` and plays them
out by the thousand in the batched engine; for that a game's kernel state
must be writable from a scalar ``Game``. A game that can do it names a module
here (``LOADERS``: env id -> module) providing

* ``load_games(env, rows, games, *, repeat=1, chance=True)``: row ``rows[k]``
  becomes game ``games[k // repeat]``, waiting at the same decision, and plays
  exactly what the scalar game plays from there under the same actions
  (``chance=False``: the rows keep their own generators for later shuffles);
  a ``ValueError`` naming what cannot be loaded, with nothing written;
* ``unit_index(env, rows)``: each row's ``Game.unit_index`` (the deal, round or
  hand under way), so that a search can stop its playouts at its horizon.

Only Breed the Heifer has one so far (``envs/breed_the_heifer/kernel_state.py``).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType

import numpy as np

from pokerzoo.envs.batched.core import BatchedEnv
from pokerzoo.envs.engine.game import Game
from pokerzoo.envs.registry import canonical

LOADERS = {"breed_the_heifer_v0": "pokerzoo.envs.breed_the_heifer.kernel_state"}


def loader(name: str) -> ModuleType:
    """The loading module of game ``name`` (any spelling); ValueError naming the games that have one."""
    env_id = canonical(name)
    module = LOADERS.get(env_id)
    if module is None:
        raise ValueError(
            f"{env_id}: its batched kernel cannot load a scalar game yet; games that can: {', '.join(LOADERS)}"
        )
    return importlib.import_module(module)  # deferred: the game's kernels load (or compile) on first use


def load_games(
    env: BatchedEnv, rows: Sequence[int] | np.ndarray, games: Sequence[Game], *, repeat: int = 1, chance: bool = True
) -> None:
    """Row ``rows[k]`` of ``env`` becomes ``games[k // repeat]`` (module docstring)."""
    loader(env.name).load_games(env, rows, games, repeat=repeat, chance=chance)


def unit_index(env: BatchedEnv, rows: np.ndarray) -> np.ndarray:
    """Each row's unit under way (``Game.unit_index``)."""
    return loader(env.name).unit_index(env, rows)


__all__ = ["LOADERS", "load_games", "loader", "unit_index"]
