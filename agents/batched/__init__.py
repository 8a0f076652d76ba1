"""Batched opponents built on scripted agents: a game's scripted agent as a compiled decision rule over a batched
env's state arrays (``act(env, rows)``, ``seed(seed)``; see ``pokerzoo.envs.batched.opponents``).

Each module ports one game's scripted agent and is differential-tested against it:
the same decision on the same state (and, for an agent that draws random numbers,
from the same random stream). ``raspisnoy_poker``: ``HeuristicOpponent``;
``breed_the_heifer``: ``EquityOpponent``, ``CallingStationOpponent``; ``perico``: ``HeuristicOpponent``;
``mexican_poker``: ``HeuristicOpponent``.

``batched_agents(game)`` is the one table of them that the batched trainer's
league, the RLlib backend's batched env source and ``pokerzoo bench batched``
read: a module lists its ports in ``AGENTS``, each class carrying ``name``,
the name of the scalar agent it ports in the agents registry.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from pokerzoo.envs.batched.opponents import BatchedOpponent, RandomOpponent
from pokerzoo.envs.registry import spec as game_spec


def batched_agents(game: str) -> dict[str, Callable[..., BatchedOpponent]]:
    """The batched scripted agents of ``game`` (any spelling of its name), name -> class: ``random`` for every
    game, then those ``agents/batched/<game>.py`` lists in ``AGENTS``."""
    found: dict[str, Callable[..., BatchedOpponent]] = {"random": RandomOpponent}
    module_name = f"{__name__}.{game_spec(game).name}"
    try:
        # Deferred: a port loads its compiled kernels (seconds on a cold cache); only the asked-for game's is imported.
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            return found  # the game has no batched scripted agent (yet)
        raise
    for cls in module.AGENTS:
        found[cls.name] = cls
    return found


def ported_agents(game: str) -> dict[str, Callable[..., BatchedOpponent]]:
    """``batched_agents`` without ``random``: the ports of the game's scripted agents."""
    return {name: cls for name, cls in batched_agents(game).items() if name != "random"}
