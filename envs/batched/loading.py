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

Breed the Heifer (``envs/breed_the_heifer/kernel_state.py``) and Perico, both
variants (``envs/perico/kernel_state.py``) have one. The checks every loader
makes before writing anything (rows, options, chances) are here:
``check_rows``, ``check_repeat``, ``check_options``, ``check_chances``; and
``inject_chances`` gives the rows the games' own chances; ``write_rows`` is
all of a loader's ``load_games`` but its game's parts.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from types import ModuleType

import numpy as np

from pokerzoo.envs.batched import chance as chance_lib
from pokerzoo.envs.batched.core import BatchedEnv
from pokerzoo.envs.engine.cards import Chance
from pokerzoo.envs.engine.game import Game
from pokerzoo.envs.registry import canonical

LOADERS = {
    "breed_the_heifer_v0": "pokerzoo.envs.breed_the_heifer.kernel_state",
    "perico_v0": "pokerzoo.envs.perico.kernel_state",
}


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


def write_rows(
    env: BatchedEnv,
    rows: Sequence[int] | np.ndarray,
    games: Sequence[Game],
    *,
    repeat: int,
    chance: bool,
    check: Callable[[BatchedEnv, Game], None],
    fields: Callable[[Sequence[Game]], dict[str, np.ndarray]],
    finish: Callable,
) -> None:
    """What every loader's ``load_games`` does, given its game's three parts: every check first (``check``
    for each game, then the rows, repeat and chances), so a refusal writes nothing; then the state's fields
    (``fields``: name -> one row per game), the chances, and ``finish(state, params, rows, out)``, the
    compiled step that makes the rows look as if the kernel had reached their decisions itself."""
    repeat = check_repeat(repeat)
    games = list(games)
    idx = check_rows(env, rows, len(games) * repeat)
    for game in games:
        check(env, game)
    if chance:
        check_chances(games)
    if not games:
        return
    if not env._started:  # a fresh env: give every row a game and a generator first, as reset() does
        env.reset()
    state = env.state
    for name, values in fields(games).items():
        getattr(state, name)[idx] = np.repeat(values, repeat, axis=0) if repeat > 1 else values
    if chance:
        inject_chances(env, idx, games, repeat)
    finish(state, env.kernel.params, idx, env.out)


def columns(
    games: Sequence[Game], values: Callable[[Game], tuple], fields: Sequence[str], dtypes: dict[str, type]
) -> dict[str, np.ndarray]:
    """Field name -> one row per game: ``values(game)`` gives a game's value of every field, in ``fields``'
    order; each column in its dtype (``dtypes``, else int64)."""
    cols = zip(*(values(g) for g in games), strict=True)
    return {name: np.array(col, dtype=dtypes.get(name, np.int64)) for name, col in zip(fields, cols, strict=True)}


def inject_chances(env: BatchedEnv, rows: np.ndarray, games: Sequence[Game], repeat: int) -> None:
    """Row ``rows[k]``'s coming shuffles draw from ``games[k // repeat]``'s own chance (``chance.inject``)."""
    for k, game in enumerate(games):  # the rows of one game at once
        env.chance = chance_lib.inject(env.chance, rows[k * repeat : (k + 1) * repeat], game.chance)


# ---------------------------------------------------------------- the checks every loader makes first
def check_rows(env: BatchedEnv, rows: Sequence[int] | np.ndarray, count: int) -> np.ndarray:
    """``rows`` as int64 indices: a 1-d array of ``count`` distinct rows of ``env``; ValueError otherwise."""
    r = np.asarray(rows)
    if r.ndim != 1 or not (np.issubdtype(r.dtype, np.integer) or r.size == 0):
        raise ValueError(f"load_games: rows must be a 1-d array of row indices, got {r.dtype}{list(r.shape)}")
    r = r.astype(np.int64)
    if r.size != count:
        raise ValueError(f"load_games: {r.size} rows for {count} (games x repeat) loads")
    if r.size and (r.min() < 0 or r.max() >= env.num_envs):
        bad = int(r[(r < 0) | (r >= env.num_envs)][0])
        raise ValueError(f"load_games: row {bad} is not in 0..{env.num_envs - 1}")
    if np.unique(r).size != r.size:
        raise ValueError("load_games: a row is listed more than once")
    return r


def check_repeat(repeat: object) -> int:
    """``repeat`` as an int >= 1; ValueError otherwise."""
    if isinstance(repeat, bool) or not isinstance(repeat, int | np.integer) or repeat < 1:
        raise ValueError(f"load_games: repeat={repeat!r}: expected an int >= 1")
    return int(repeat)


def check_options(env: BatchedEnv, game: Game) -> None:
    """ValueError naming the first option of ``env`` whose value in ``game`` differs, or a game that is over."""
    for key, value in env.config.items():
        if game.config.get(key) != value:
            raise ValueError(
                f"load_games: option {key}={game.config.get(key)!r} of the game differs from the env's "
                f"{key}={value!r}; make the env with the game's options (batched.make(name, n, **game.config))"
            )
    if game.is_over:
        raise ValueError("load_games: the game is over; only a game waiting for a decision can be loaded")


def check_chances(games: Sequence[Game]) -> None:
    """ValueError unless every game draws from a ``Chance`` over PCG64 (what the rows' generators can take)."""
    for game in games:
        if not isinstance(game.chance, Chance):
            raise ValueError(f"load_games: the game's chance is a {type(game.chance).__name__}, not a Chance")
        if game.chance.rng.bit_generator.state.get("bit_generator") != "PCG64":
            raise ValueError("load_games: the game's chance draws from a generator other than PCG64")


__all__ = [
    "LOADERS",
    "check_chances",
    "check_options",
    "check_repeat",
    "check_rows",
    "columns",
    "inject_chances",
    "load_games",
    "loader",
    "unit_index",
    "write_rows",
]
