"""Raspisnoy poker env speed, classic and single schedules, beside texas_holdem_v4 and OpenSpiel's oh_hell.

    .venv/bin/python benchmarks/raspisnoy_speed.py [--seconds 3] [--players 4] [--clock cpu|wall]

Agent-steps/s of uniformly random legal play (``env.last()`` every step) through
the raw env and the wrapped ``env()``, and decisions/s of the bare ``Game``, with
the same loops as ``pokerzoo bench``. OpenSpiel's oh_hell (C++, called from
Python) builds the acting player's information-state tensor every step; its
chance nodes (the deal) are not counted as steps. ``--clock cpu`` counts this
process's CPU time, steadier on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import platform

from pokerzoo.cli.benchmarks import env_speed_rows, markdown_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    args = parser.parse_args()
    rows = env_speed_rows([], args.seconds, references=True, clock=args.clock)
    for schedule in ("classic", "single"):
        config = {"num_players": args.players, "schedule": schedule}
        rows += env_speed_rows(["raspisnoy_poker_v0"], args.seconds, references=False, clock=args.clock, config=config)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores, "
        f"load {load:.1f}; agent-steps per {args.clock} second, {args.seconds:g} s per figure\n"
    )
    print(markdown_table(rows, ["env", "raw", "wrapped", "game"]))


if __name__ == "__main__":
    main()
