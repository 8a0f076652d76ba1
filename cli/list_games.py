"""List every registered game with its options (defaults and allowed values) and its agents."""

from __future__ import annotations

import argparse

from pokerzoo.agents.policy import shipped_policies
from pokerzoo.agents.registry import agent_names
from pokerzoo.envs import ENV_NAMES, game_class


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("games", nargs="*", help="games to describe (default: all)")


def describe(name: str) -> str:

    cls = game_class(name)
    lines = [f"{name}"]
    for option, default, allowed, doc in cls.OPTIONS.describe():
        lines.append(f"  {option:<28} default {default!r:<14} {allowed}: {doc}")
    lines.append(f"  agents: {', '.join(agent_names(name))}")
    trained = shipped_policies(name)
    if trained:
        lines.append(f"  trained policies: {', '.join(trained)} (agents too: --agents {next(iter(trained))})")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    names = args.games or list(ENV_NAMES)
    print("\n\n".join(describe(n) for n in names))
    return 0
