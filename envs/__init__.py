"""pokerzoo environments: five poker-flavoured card games as PettingZoo AEC envs.

>>> from pokerzoo.envs import make, ENV_NAMES
>>> env = make("caribbean_stud_v0", boxes=2)
>>> env.reset(seed=0)

Each game also has its own module, PettingZoo style:
``from pokerzoo.envs import caribbean_stud_v0; env = caribbean_stud_v0.env()``.
Importing this package is cheap; a game's module loads on first use.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

ENV_NAMES = (
    "caribbean_stud_v0",
    "mexican_poker_v0",
    "perico_v0",
    "breed_the_heifer_v0",
    "raspisnoy_poker_v0",
)


def _check_name(name: str) -> str:
    if name in ENV_NAMES:
        return name
    if f"{name}_v0" in ENV_NAMES:
        return f"{name}_v0"
    raise ValueError(f"unknown game {name!r}; available: {', '.join(ENV_NAMES)}")


def env_module(name: str) -> ModuleType:
    """The ``<game>_v0`` module (``env``, ``raw_env``, ``Game``); accepts the name with or without ``_v0``."""
    return importlib.import_module(f"pokerzoo.envs.{_check_name(name)}")


def make(name: str, *, wrapped: bool = True, **config: Any):
    """A new env of game ``name`` with options ``config`` (validated now, with clear errors)."""
    module = env_module(name)
    return module.env(**config) if wrapped else module.raw_env(**config)


def game_class(name: str):
    """The rules class behind an env, for tools that work on ``Game`` objects directly."""
    return env_module(name).raw_env.game_class
