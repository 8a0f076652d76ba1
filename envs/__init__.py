"""pokerzoo environments: five poker-flavoured card games as PettingZoo AEC envs.

>>> from pokerzoo.envs import make, ENV_NAMES
>>> env = make("caribbean_stud_v0", boxes=2)
>>> env.reset(seed=0)

Each game also has its own module, PettingZoo style:
``from pokerzoo.envs import caribbean_stud_v0; env = caribbean_stud_v0.env()``.
The games are declared in ``pokerzoo.envs.registry``; importing this package is
cheap, and a game's module loads on first use.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from pokerzoo.envs.registry import ENV_NAMES, GAMES, canonical, spec

__all__ = ["ENV_NAMES", "GAMES", "canonical", "env_module", "game_class", "make", "spec"]


def env_module(name: str) -> ModuleType:
    """The ``<game>_v0`` module (``env``, ``raw_env``, ``Game``); accepts the name with or without ``_v0``."""
    return spec(name).env_module()


def make(name: str, *, wrapped: bool = True, **config: Any):
    """A new env of game ``name`` with options ``config`` (validated now, with clear errors)."""
    module = env_module(name)
    return module.env(**config) if wrapped else module.raw_env(**config)


def game_class(name: str):
    """The rules class behind an env, for tools that work on ``Game`` objects directly."""
    return spec(name).game_class()
