"""Replay recorded hand histories through the rules and check that they reproduce the same outcome.

Example: ``pokerzoo replay runs/histories.jsonl --show 1``.

Every game is rebuilt from its name, options and seed, every recorded action
is applied through the rules (and must be legal), and the events and final
rewards must equal the recorded ones. Exit status 0 when all games match, 1
when any does not (the first difference is printed).
"""

from __future__ import annotations

import argparse

from pokerzoo.evaluation import history


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="hand-history file (JSON lines) written by --record")
    parser.add_argument(
        "--show",
        type=int,
        nargs="*",
        metavar="LINE",
        help="print the moves and the final table of these lines (no number: every game)",
    )
    parser.add_argument("--quiet", action="store_true", help="print only mismatches and the summary")


def _show(result: history.ReplayResult, record: dict) -> None:
    seats = record.get("seats") if isinstance(record.get("seats"), list) else []
    for player, _action, name in result.trace:
        who = (
            "chance"
            if player is None
            else f"seat {player}" + (f" ({seats[player]})" if player < len(seats) else "")
        )
        print(f"    {who}: {name}")
    if result.replayed is not None:
        try:
            table = result.replayed.render(None)
        except Exception as exc:  # a rendering problem must not hide the replay verdict
            table = f"(no rendering: {type(exc).__name__}: {exc})"
        print("    " + table.replace("\n", "\n    "))
    print(f"    rewards: {record['rewards']}")


def run(args: argparse.Namespace) -> int:
    show_all = args.show is not None and len(args.show) == 0
    show = set(args.show or ())
    total = bad = 0
    for line, record in history.read(args.file):
        result = history.replay(record, line)
        total += 1
        bad += not result.ok
        if not result.ok or not args.quiet:
            print(result.describe())
        if show_all or line in show:
            _show(result, record)
    if total == 0:
        raise ValueError(f"{args.file} holds no hand history")
    print(
        f"{total - bad} of {total} games replayed to the recorded outcome"
        + (f"; {bad} MISMATCHED" if bad else "")
    )
    return 0 if bad == 0 else 1
