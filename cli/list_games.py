"""List every registered game with its options (defaults and allowed values) and its agents."""

from __future__ import annotations

import argparse

from pokerzoo.agents.policy import shipped_policies
from pokerzoo.agents.registry import agent_names
from pokerzoo.envs import ENV_NAMES, GAMES, canonical, spec


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("games", nargs="*", help="games to describe (default: all but the examples)")


def describe(name: str) -> str:
    entry = spec(name)
    lines = [f"{entry.env_id}: {entry.title}" + (" (example game: docs/adding_a_game.md)" if entry.example else "")]
    for option, default, allowed, doc in entry.game_class().OPTIONS.describe():
        lines.append(f"  {option:<28} default {default!r:<14} {allowed}: {doc}")
    lines.append(f"  agents: {', '.join(agent_names(name))}")
    shipped = shipped_policies(entry.env_id)
    if shipped:
        lines.append(f"  trained policies: {', '.join(shipped)} (agents too: --agents {next(iter(shipped))})")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    names = [canonical(g) for g in args.games] if args.games else list(ENV_NAMES)
    print("\n\n".join(describe(n) for n in names))
    if not args.games:
        examples = [g for g in GAMES if spec(g).example]
        if examples:
            print(f"\nexample games (pokerzoo list {' '.join(examples)}): {', '.join(examples)}")
    return 0
