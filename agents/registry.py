"""Agents by spec, per game: ``make_agent("raspisnoy_poker", "pimc(bid_budget=128)+heuristic")``.

One grammar for every place that names an agent (the CLI, tournaments,
training opponents and teachers, configs):

* ``name``: an agent of the game's agents module (``AGENTS``: name -> constructor
  taking ``seed``), ``random`` for every game, and the search agents ``pimc``
  and ``ismcts`` (``pokerzoo.agents.search``) for every game;
* ``name(key=value, ...)``: the same built with arguments, values read as YAML
  (``equity(simulations=40)``, ``ismcts(iterations=200, observer=multi)``);
  an argument named ``rollout`` is itself an agent spec
  (``pimc(rollout=equity(simulations=16))``, ``pimc(rollout=ppo)``); unknown or
  bad arguments are errors naming them and what is allowed;
* ``bidder+player``: a composite that makes the bidding-phase decisions
  (the game's ``BIDDING_PHASES``) like ``bidder`` and the others like ``player``;
  either side may carry arguments (``pimc(bid_budget=128)+heuristic``,
  ``heuristic+ismcts(iterations=200)``);
* ``policy:PATH``: a trained policy (a policy file, a folder holding one, or a
  training run folder); ``policy:PATH+player`` bids with it and plays like ``player``;
* the name of a shipped policy (``ppo``), from the game's policies package
  (``pokerzoo.envs.registry.GameSpec.policies``);
* ``@sample`` after a policy spec samples from its distribution instead of
  taking its most likely legal action.

A game's agents module may give the search agents their defaults
(``SEARCH_DEFAULTS``: the rollout policy, budgets; without it they roll out
with the game's ``heuristic``, ``random`` if it has none), put a subclass in
place of a generic search (``SEARCH_CLASSES``: one that searches fewer
candidate moves, say), or define its own agent of the same name in ``AGENTS``
(Raspisnoy's ``pimc``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import yaml

from pokerzoo.agents.base import Agent, CompositeAgent, RandomAgent
from pokerzoo.agents.policy import SAMPLE_SUFFIX, PolicyAgent, shipped_policies
from pokerzoo.agents.search import IsmctsAgent, PimcAgent
from pokerzoo.envs.registry import canonical, spec

SEARCH_AGENTS: dict[str, type[Agent]] = {"pimc": PimcAgent, "ismcts": IsmctsAgent}


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
    """The game's agents: name -> constructor (``random`` first, the game's own, then the searches)."""
    env_id = canonical(game)
    module = spec(env_id).agents_module()
    own: dict[str, Callable[..., Agent]] = dict(module.AGENTS)
    defaults = getattr(module, "SEARCH_DEFAULTS", None)
    if defaults is None:
        rollout = "heuristic" if "heuristic" in own else "random"
        defaults = {key: {"rollout": rollout} for key in SEARCH_AGENTS}
    classes = {**SEARCH_AGENTS, **getattr(module, "SEARCH_CLASSES", {})}
    search = {
        key: SearchConstructor(env_id, cls, defaults.get(key, {})) for key, cls in classes.items() if key not in own
    }
    return {"random": RandomAgent, **own, **search}


def agent_names(game: str) -> list[str]:
    """The names of the game's scripted and search agents (``shipped_policies`` names the trained ones)."""
    return list(scripted_agents(game))


def make_agent(game: str, agent_spec: str, seed: int | None = None) -> Agent:
    """Build the agent ``agent_spec`` for ``game`` (see the module docstring for the grammar)."""
    env_id = canonical(game)
    text = agent_spec.strip()
    if not text:
        raise ValueError(f"an empty agent spec for {env_id}; agents: {', '.join(_all_names(env_id))}")
    if text.startswith("policy:"):
        return _policy_spec(env_id, text, seed)
    split = _top_level_plus(text)
    if split is not None:
        bidder = make_agent(env_id, text[:split], seed)
        player = make_agent(env_id, text[split + 1 :], None if seed is None else seed + 1)
        agent = CompositeAgent(bidder, player, spec(env_id).game_class().BIDDING_PHASES)
        agent.name = text
        return agent
    name, kwargs = parse_call(text)
    scripted = scripted_agents(env_id)
    if name in scripted:
        return _build(env_id, text, name, scripted[name], kwargs, seed)
    deterministic = not name.endswith(SAMPLE_SUFFIX)
    shipped = shipped_policies(env_id)
    base = name.removesuffix(SAMPLE_SUFFIX)
    if base in shipped and not kwargs:
        return PolicyAgent(shipped[base], env_name=env_id, seed=seed, deterministic=deterministic, name=name)
    what = f"{name!r} in {text!r}" if name != text else repr(text)
    raise ValueError(
        f"unknown agent {what} for {env_id}; agents: {', '.join(_all_names(env_id))}; "
        "also 'name(key=value)', 'a+b' (bid like a, play like b) and 'policy:PATH' for a trained policy"
    )


def constructor_arguments(constructor: Callable[..., Agent]) -> list[str]:
    """The keyword arguments a spec may give ``constructor`` (a class, or a ``SearchConstructor``)."""
    target = getattr(constructor, "agent_class", constructor)
    return [
        p.name
        for p in inspect.signature(target).parameters.values()
        if p.name != "seed" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    ]


def refuse_unknown_arguments(where: str, name: str, constructor: Callable[..., Any], kwargs: Mapping[str, Any]) -> None:
    """A ValueError naming ``where``, the first key ``constructor`` does not take and the ones it does."""
    allowed = constructor_arguments(constructor)
    for key in kwargs:
        if key not in allowed:
            raise ValueError(f"{where}: {name} has no argument {key!r}; its arguments: {', '.join(allowed) or 'none'}")


def _build(
    env_id: str, text: str, name: str, constructor: Callable[..., Agent], kwargs: dict[str, Any], seed: int | None
) -> Agent:
    refuse_unknown_arguments(f"agent {text!r} for {env_id}", name, constructor, kwargs)
    if isinstance(kwargs.get("rollout"), str):
        try:
            kwargs["rollout"] = make_agent(env_id, kwargs["rollout"])
        except ValueError as exc:
            raise ValueError(f"agent {text!r}: argument rollout: {exc}") from None
    try:
        agent = constructor(seed=seed, **kwargs)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"agent {text!r} for {env_id}: {exc}") from None
    if kwargs:
        agent.name = text
    return agent


def _all_names(env_id: str) -> list[str]:
    return [*agent_names(env_id), *shipped_policies(env_id)]


def _policy_spec(env_id: str, text: str, seed: int | None) -> Agent:
    rest = text[len("policy:") :]
    deterministic = True
    if rest.endswith(SAMPLE_SUFFIX) and not Path(rest).expanduser().exists():
        rest, deterministic = rest[: -len(SAMPLE_SUFFIX)], False
    if not rest:
        raise ValueError("policy: needs a path, e.g. policy:runs/caribbean/final")
    if not Path(rest).expanduser().exists() and "+" in rest:
        head, player = rest.rsplit("+", 1)
        if Path(head).expanduser().exists():
            bidder = PolicyAgent(head, env_name=env_id, seed=seed, deterministic=deterministic)
            other = make_agent(env_id, player, None if seed is None else seed + 1)
            agent = CompositeAgent(bidder, other, spec(env_id).game_class().BIDDING_PHASES)
            agent.name = text
            return agent
    return PolicyAgent(rest, env_name=env_id, seed=seed, deterministic=deterministic, name=text)


def _split_top_level(text: str, sep: str) -> list[str]:
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


def _top_level_plus(text: str) -> int | None:
    """Index of the first ``+`` outside parentheses (``a(x=1)+b``), or None."""
    parts = _split_top_level(text, "+")
    return None if len(parts) == 1 else len(parts[0])


def parse_call(text: str) -> tuple[str, dict[str, Any]]:
    """``"equity(simulations=40)"`` -> ``("equity", {"simulations": 40})``; a bare name has no arguments.

    Values may themselves be specs with arguments (``rollout=equity(simulations=20)``):
    commas split arguments only outside parentheses.
    """
    name, paren, rest = text.partition("(")
    name = name.strip()
    if not paren:
        return name, {}
    if not rest.endswith(")") or rest.count("(") + 1 != rest.count(")"):
        raise ValueError(
            f"agent {text!r}: unbalanced parentheses; arguments are written name(key=value, ...), "
            "e.g. equity(simulations=40)"
        )
    kwargs: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in _split_top_level(rest[:-1], ","))):
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or not key.isidentifier():
            raise ValueError(f"agent {text!r}: arguments are key=value, e.g. equity(simulations=40); got {part!r}")
        try:
            kwargs[key] = yaml.safe_load(value)
        except yaml.YAMLError as exc:
            raise ValueError(f"agent {text!r}: cannot read the value of {key}: {exc}") from None
    return name, kwargs
