"""Agents by name, per game: ``make_agent("raspisnoy_poker", "heuristic+pimc")``.

Spec forms:

* a name: ``random`` and the search agents ``pimc`` and ``ismcts`` work for
  every game; each game's module in this package adds its scripted agents
  (``AGENTS``: name -> constructor taking ``seed``) and may replace a search
  agent with its own instance of it (Raspisnoy's ``pimc``);
* a name with arguments, ``name(key=value, ...)``: the constructor's keyword
  arguments, values read as YAML (``equity(simulations=40)``,
  ``ismcts(iterations=200, observer=multi)``). An argument named ``rollout``
  is itself an agent spec (``pimc(rollout=equity(simulations=16))``). An
  unknown argument or a value out of range is an error naming it;
* ``a+b``: a composite that bids like ``a`` and plays like ``b`` (either side
  may take arguments: ``pimc(bid_budget=128)+heuristic``,
  ``heuristic+ismcts(iterations=200)``);
* ``policy:PATH`` (or the name of a shipped policy) loads a trained checkpoint.

The CLI, the evaluation harness and the training opponents resolve every
agent through here. A game module's ``SEARCH_DEFAULTS`` gives its search
agents their defaults (the rollout policy, budgets); without it they roll
out with the game's ``heuristic`` (``random`` if it has none).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping
from typing import Any

from pokerzoo.agents.base import Agent, CompositeAgent, RandomAgent
from pokerzoo.agents.search import IsmctsAgent, PimcAgent
from pokerzoo.envs import ENV_NAMES, game_class

AGENT_MODULES = {
    "caribbean_stud_v0": "pokerzoo.agents.caribbean_stud",
    "mexican_poker_v0": "pokerzoo.agents.mexican_poker",
    "perico_v0": "pokerzoo.agents.perico",
    "breed_the_heifer_v0": "pokerzoo.agents.breed_the_heifer",
    "raspisnoy_poker_v0": "pokerzoo.agents.raspisnoy_poker",
}
assert set(AGENT_MODULES) == set(ENV_NAMES)

SEARCH_AGENTS = {"pimc": PimcAgent, "ismcts": IsmctsAgent}

# Hook for the training package: resolves "policy:..." and shipped policy names.
POLICY_LOADERS: list[Callable[[str, str, int | None], Agent | None]] = []


def _env_name(game: str) -> str:
    return game if game in AGENT_MODULES else f"{game}_v0"


class SearchConstructor:
    """Builds one search agent class for one game, with the game module's defaults.

    The defaults may name the rollout policy as a spec; it is resolved here,
    with the registry, so ``agents/search.py`` needs nothing but the protocol.
    """

    def __init__(self, game: str, agent_class: type[Agent], defaults: Mapping[str, Any]):
        self.game, self.agent_class, self.defaults = game, agent_class, dict(defaults)

    def __call__(self, seed: int | None = None, **kwargs: Any) -> Agent:
        kwargs = {**self.defaults, **kwargs}
        if isinstance(kwargs.get("rollout"), str):
            kwargs["rollout"] = make_agent(self.game, kwargs["rollout"])
        return self.agent_class(seed=seed, **kwargs)


def scripted_agents(game: str) -> dict[str, Callable[..., Agent]]:
    """Every agent name of ``game`` (random, the search agents, the game's own) -> its constructor."""
    name = _env_name(game)
    if name not in AGENT_MODULES:
        raise ValueError(f"unknown game {game!r}; available: {', '.join(ENV_NAMES)}")
    module = importlib.import_module(AGENT_MODULES[name])
    own: dict[str, Callable[..., Agent]] = dict(module.AGENTS)
    defaults = getattr(module, "SEARCH_DEFAULTS", None)
    if defaults is None:
        rollout = "heuristic" if "heuristic" in own else "random"
        defaults = {key: {"rollout": rollout} for key in SEARCH_AGENTS}
    classes = {**SEARCH_AGENTS, **getattr(module, "SEARCH_CLASSES", {})}
    search = {
        key: SearchConstructor(name, cls, defaults.get(key, {})) for key, cls in classes.items() if key not in own
    }
    return {"random": RandomAgent, **own, **search}


def agent_names(game: str) -> list[str]:
    return list(scripted_agents(game))


def split_top_level(text: str, sep: str) -> list[str]:
    """``text`` split at every ``sep`` outside parentheses and brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"name(key=value, ...)"`` -> ``("name", {key: value})``, values read as YAML; ``"name"`` -> no arguments."""
    import yaml  # only specs with arguments need it

    name, paren, rest = spec.partition("(")
    name = name.strip()
    if not paren:
        return name, {}
    if not rest.rstrip().endswith(")") or rest.count("(") + 1 != rest.count(")"):
        raise ValueError(f"agent spec {spec!r}: unbalanced parentheses; expected name(key=value, ...)")
    kwargs: dict[str, Any] = {}
    for part in split_top_level(rest.rstrip()[:-1], ","):
        part = part.strip()
        if not part:
            continue
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or not key.isidentifier():
            raise ValueError(f"agent spec {spec!r}: arguments are key=value, e.g. {name}(seconds=0.1)")
        try:
            kwargs[key] = yaml.safe_load(value) if value.strip() else ""
        except yaml.YAMLError as exc:
            raise ValueError(f"agent spec {spec!r}: cannot read {key}={value.strip()!r}: {exc}") from None
    return name, kwargs


def _arguments(constructor: Callable[..., Agent]) -> list[str]:
    """The keyword arguments a spec may give ``constructor`` (a class, or a ``SearchConstructor``)."""
    target = getattr(constructor, "agent_class", constructor)
    return [
        p.name
        for p in inspect.signature(target).parameters.values()
        if p.name != "seed" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    ]


def _build(game: str, spec: str, name: str, kwargs: dict[str, Any], seed: int | None) -> Agent:
    available = scripted_agents(game)
    constructor = available[name]
    allowed = _arguments(constructor)
    for key in kwargs:
        if key not in allowed:
            raise ValueError(
                f"agent spec {spec!r}: {name} has no argument {key!r}; "
                f"its arguments: {', '.join(allowed) or 'none'}"
            )
    if isinstance(kwargs.get("rollout"), str):
        try:
            kwargs["rollout"] = make_agent(game, kwargs["rollout"])
        except ValueError as exc:
            raise ValueError(f"agent spec {spec!r}: argument rollout: {exc}") from None
    try:
        agent = constructor(seed=seed, **kwargs)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"agent spec {spec!r}: {exc}") from None
    if kwargs:
        agent.name = spec
    return agent


def make_agent(game: str, spec: str, seed: int | None = None) -> Agent:
    """Build the agent ``spec`` for ``game`` (see the module docstring for the spec forms)."""
    spec = spec.strip()
    if not spec.startswith("policy:"):
        parts = split_top_level(spec, "+")
        if len(parts) > 1:
            bid_spec, play_spec = parts[0], "+".join(parts[1:])
            bidder = make_agent(game, bid_spec, seed)
            player = make_agent(game, play_spec, None if seed is None else seed + 1)
            return CompositeAgent(bidder, player, game_class(_env_name(game)).BIDDING_PHASES)
        name, kwargs = parse_spec(spec)
        available = scripted_agents(game)
        if name in available:
            return _build(game, spec, name, kwargs, seed)
        if kwargs:
            raise ValueError(
                f"unknown agent {name!r} in {spec!r} for {_env_name(game)}; agents taking arguments: "
                f"{', '.join(available)}"
            )
    importlib.import_module("pokerzoo.training.policy_agent")  # registers the trained-policy loader
    for loader in POLICY_LOADERS:
        agent = loader(_env_name(game), spec, seed)
        if agent is not None:
            return agent
    raise ValueError(
        f"unknown agent {spec!r} for {_env_name(game)}; agents: {', '.join(scripted_agents(game))}; "
        "also 'a+b' (bid like a, play like b), 'name(key=value, ...)' and 'policy:PATH' for a trained checkpoint"
    )
