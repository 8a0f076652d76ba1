"""Agents by name, per game: ``make_agent("raspisnoy_poker", "heuristic+pimc")``.

Each game's module in this package exposes ``AGENTS`` (name -> constructor
taking ``seed``); ``random`` works for every game; ``a+b`` builds a composite
that bids like ``a`` and plays like ``b``; ``policy:PATH`` (or the name of a
shipped policy) loads a trained checkpoint. The CLI and the evaluation
harness resolve every agent through here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from pokerzoo.agents.base import Agent, CompositeAgent, RandomAgent
from pokerzoo.envs import ENV_NAMES, game_class

AGENT_MODULES = {
    "caribbean_stud_v0": "pokerzoo.agents.caribbean_stud",
    "mexican_poker_v0": "pokerzoo.agents.mexican_poker",
    "perico_v0": "pokerzoo.agents.perico",
    "breed_the_heifer_v0": "pokerzoo.agents.breed_the_heifer",
    "raspisnoy_poker_v0": "pokerzoo.agents.raspisnoy_poker",
}
assert set(AGENT_MODULES) == set(ENV_NAMES)

# Hook for the training package: resolves "policy:..." and shipped policy names.
POLICY_LOADERS: list[Callable[[str, str, int | None], Agent | None]] = []


def _env_name(game: str) -> str:
    return game if game in AGENT_MODULES else f"{game}_v0"


def scripted_agents(game: str) -> dict[str, Callable[..., Agent]]:
    name = _env_name(game)
    if name not in AGENT_MODULES:
        raise ValueError(f"unknown game {game!r}; available: {', '.join(ENV_NAMES)}")
    module = importlib.import_module(AGENT_MODULES[name])
    return {"random": RandomAgent, **module.AGENTS}


def agent_names(game: str) -> list[str]:
    return list(scripted_agents(game))


def make_agent(game: str, spec: str, seed: int | None = None) -> Agent:
    """Build the agent ``spec`` for ``game`` (see the module docstring for the spec forms)."""
    spec = spec.strip()
    if "+" in spec and not spec.startswith("policy:"):
        bid_spec, play_spec = spec.split("+", 1)
        bidder = make_agent(game, bid_spec, seed)
        player = make_agent(game, play_spec, None if seed is None else seed + 1)
        return CompositeAgent(bidder, player, game_class(_env_name(game)).BIDDING_PHASES)
    available = scripted_agents(game)
    if spec in available:
        return available[spec](seed=seed)
    importlib.import_module("pokerzoo.agents.policy")  # registers the trained-policy loader
    for loader in POLICY_LOADERS:
        agent = loader(_env_name(game), spec, seed)
        if agent is not None:
            return agent
    raise ValueError(
        f"unknown agent {spec!r} for {_env_name(game)}; scripted agents: {', '.join(available)}; "
        "also 'a+b' (bid like a, play like b) and 'policy:PATH' for a trained checkpoint"
    )
