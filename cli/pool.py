"""Pool tournaments of the same match, played on different seeds, into one report.

Example (h1 and h2 written by `pokerzoo evaluate breed_the_heifer --agents ppo pimc`
with --seed 1 and --seed 2):

    pokerzoo pool runs/evaluate/h1 runs/evaluate/h2 --out runs/evaluate/h

A long match (search agents cost seconds a deal) can be played in pieces, one
session or machine after another; their deals together are one larger sample,
and the pooled report (report.md, summary.csv, games.csv, report.json,
means.png) is what one tournament over all of them would have written, every
interval over all the deals. One folder alone is re-read with the current
statistics (an older report gains the sections added since). The pieces must
be the same match (game, options, agents, seatings) on different seeds;
anything else is refused with the reason.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from pokerzoo.evaluation import report
from pokerzoo.evaluation.pooling import pool


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folders", nargs="+", metavar="DIR", help="tournament report folders (pokerzoo evaluate --out)")
    parser.add_argument("--out", metavar="DIR", help="report folder (default runs/evaluate/GAME-pooled-TIME)")
    parser.add_argument("--no-plot", dest="plot", action="store_false", help="skip the matplotlib figure")


def run(args: argparse.Namespace) -> int:
    result, summary = pool(args.folders)  # (fast: --out is checked where the report is written)
    out = Path(args.out or Path("runs", "evaluate", f"{result.env_name}-pooled-{time.strftime('%Y%m%d-%H%M%S')}"))
    if any(Path(f).resolve() == out.resolve() for f in args.folders):
        raise ValueError(f"--out {out}: is one of the pieces; write the pool to a new folder")
    tallies = all(p["tallies"] for p in summary["pooled_from"])
    if getattr(args, "command_line", None):
        summary["command"] = args.command_line
    paths = report.write_all(result, out, summary, figure=args.plot, tallies=tallies)
    print(report.markdown(summary))
    print(f"report: {paths['markdown']} (also {', '.join(p.name for k, p in paths.items() if k != 'markdown')})")
    return 0
