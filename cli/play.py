"""Play a game in the terminal against agents.

Example: ``pokerzoo play raspisnoy_poker --opponents random --seat 1``.

The table is drawn as the game's text rendering from your seat; the legal
moves are listed by number and name; type a number, a name, or a unique part
of a name (``?`` lists the moves again, ``quit`` stops). The result table is
shown at the end of each game.
"""

from __future__ import annotations

import argparse

from pokerzoo.cli.arguments import add_pairs
from pokerzoo.cli.terminal_play import play_session
from pokerzoo.evaluation.tournament import parse_config_pairs


def add_table_arguments(parser: argparse.ArgumentParser) -> None:
    """The game, your seat, the opponents, the session seed and the options: shared with ``pokerzoo serve``."""
    parser.add_argument("game", help="game name, e.g. caribbean_stud (with or without _v0)")
    parser.add_argument(
        "--opponents",
        nargs="+",
        default=["random"],
        metavar="AGENT",
        help="agents for the other seats, used in turn (default: random)",
    )
    parser.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    parser.add_argument("--seed", type=int, help="session seed (default: random; printed, so a session can be redone)")
    add_pairs(parser, "--config", "game options, values read as YAML (e.g. num_players=3)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_table_arguments(parser)
    parser.add_argument("--games", type=int, default=1, help="games to play (default 1)")
    parser.add_argument("--record", metavar="FILE", help="write each game's hand history to FILE (JSON lines)")


def run(args: argparse.Namespace) -> int:
    return play_session(
        args.game,
        parse_config_pairs(args.config),
        seat=args.seat,
        opponents=args.opponents,
        seed=args.seed,
        games=args.games,
        record=args.record,
    )
