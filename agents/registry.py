"""Agents by spec, per game: ``make_agent("raspisnoy_poker", "pimc(bid_budget=128)+heuristic")``.

One grammar for every place that names an agent (the CLI, tournaments,
training opponents and teachers, configs):

* ``name``: an agent of the game's agents module (``AGENTS``: name -> constructor
  taking ``seed``), ``random`` for every game;
* ``name(key=value, ...)``: the same built with arguments, values read as YAML
  (``equity(simulations=40)``); unknown or bad arguments are errors naming them;
* ``bidder+player``: a composite that makes the bidding-phase decisions
  (the game's ``BIDDING_PHASES``) like ``bidder`` and the others like ``player``;
  either side may carry arguments (``pimc(bid_budget=128)+heuristic``);
* ``policy:PATH``: a trained policy (a policy file, a folder holding one, or a
  training run folder); ``policy:PATH+player`` bids with it and plays like ``player``;
* the name of a shipped policy (``ppo``), from the game's policies package
  (``pokerzoo.envs.registry.GameSpec.policies``);
* ``@sample`` after a policy spec samples from its distribution instead of
  taking its most likely legal action.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from pokerzoo.agents.base import Agent, CompositeAgent, RandomAgent
from pokerzoo.agents.policy import SAMPLE_SUFFIX, PolicyAgent, shipped_policies
from pokerzoo.envs.registry import canonical, spec


def scripted_agents(game: str) -> dict[str, Callable[..., Agent]]:
    """The game's scripted agents: name -> constructor (``random`` first)."""
    return {"random": RandomAgent, **spec(game).agents_module().AGENTS}


def agent_names(game: str) -> list[str]:
    """The names of the game's scripted agents (``shipped_policies`` names the trained ones)."""
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
    name, kwargs = _parse_call(text)
    scripted = scripted_agents(env_id)
    if name in scripted:
        try:
            agent = scripted[name](seed=seed, **kwargs)
        except TypeError as exc:
            raise ValueError(f"agent {text!r} for {env_id}: {exc}") from None
        if kwargs:
            agent.name = text
        return agent
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


def _top_level_plus(text: str) -> int | None:
    """Index of the first ``+`` outside parentheses (``a(x=1)+b``), or None."""
    depth = 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "+" and depth == 0:
            return i
    return None


def _parse_call(text: str) -> tuple[str, dict[str, Any]]:
    """``"equity(simulations=40)"`` -> ``("equity", {"simulations": 40})``; a bare name has no arguments."""
    name, paren, rest = text.partition("(")
    name = name.strip()
    if not paren:
        return name, {}
    if not rest.endswith(")"):
        raise ValueError(f"agent {text!r}: arguments are written name(key=value, ...), e.g. equity(simulations=40)")
    kwargs: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest[:-1].split(","))):
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or not key.isidentifier():
            raise ValueError(f"agent {text!r}: arguments are key=value, e.g. equity(simulations=40); got {part!r}")
        try:
            kwargs[key] = yaml.safe_load(value)
        except yaml.YAMLError as exc:
            raise ValueError(f"agent {text!r}: cannot read the value of {key}: {exc}") from None
    return name, kwargs
