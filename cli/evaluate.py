"""Play a duplicate-deal tournament between agents and write the report.

Example: ``pokerzoo evaluate caribbean_stud --agents rules_of_thumb always_raise random --games 5000``.

Each of the --games deals is played once per seating (the agents rotated or
permuted over the seats) with the same seed, so every agent meets the same
cards. The report (report.md, summary.csv, games.csv, report.json, means.png)
goes to --out, and its Markdown table is printed at the end.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from pokerzoo.evaluation import history, report
from pokerzoo.evaluation.tournament import Tournament, parse_config_pairs, run_tournament


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game name, e.g. caribbean_stud (with or without _v0)")
    parser.add_argument(
        "--agents",
        nargs="+",
        required=True,
        metavar="AGENT",
        help="agent specs: scripted names, 'bidder+player' composites, 'policy:PATH'",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=200,
        metavar="N",
        help="number of deals; each is played once per seating (default 200)",
    )
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    parser.add_argument("--out", metavar="DIR", help="report folder (default runs/evaluate/GAME-seedS-TIME)")
    parser.add_argument(
        "--config",
        nargs="*",
        default=[],
        metavar="KEY=VALUE",
        help="game options, values read as YAML (e.g. boxes=2 'ante_choices=[1,2]')",
    )
    parser.add_argument("--workers", type=int, default=0, help="worker processes (default 0 = all cores)")
    parser.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDR",
        help="play the deals as Ray tasks: on the cluster at ADDR (e.g. 10.0.0.5:6379, or auto), or without "
        "ADDR on a private local Ray; same results as a local run (needs the 'ray' extra)",
    )
    parser.add_argument(
        "--no-duplicate",
        dest="duplicate",
        action="store_false",
        help="give every game its own seed instead of replaying each deal's seed",
    )
    parser.add_argument(
        "--seating",
        choices=("auto", "rotations", "permutations"),
        default="auto",
        help="how agents are placed on the seats per deal (default auto)",
    )
    parser.add_argument(
        "--record", metavar="FILE", help="write every game's hand history to FILE (JSON lines)"
    )
    parser.add_argument(
        "--no-progress",
        dest="progress",
        action="store_false",
        help="no progress bar (it is shown only when stderr is a terminal anyway)",
    )
    parser.add_argument("--no-plot", dest="plot", action="store_false", help="skip the matplotlib figure")


def run(args: argparse.Namespace) -> int:
    t = Tournament(
        game=args.game,
        agents=tuple(args.agents),
        deals=args.games,
        seed=args.seed,
        config=parse_config_pairs(args.config),
        duplicate=args.duplicate,
        seating=args.seating,
        record=bool(args.record),
    )
    out = (
        Path(args.out)
        if args.out
        else Path("runs", "evaluate", f"{t.game}-seed{t.seed}-{time.strftime('%Y%m%d-%H%M%S')}")
    )
    writer = history.HistoryWriter(args.record) if args.record else None

    def write_histories(records) -> None:
        for rec in records:
            writer.write(rec.history)

    try:
        result = run_tournament(
            t,
            workers=args.workers,
            progress=None if args.progress else False,
            on_deal=write_histories if writer is not None else None,
            keep_histories=False,
            ray=args.ray,
        )
    finally:
        if writer is not None:
            writer.close()
    summary = report.summarize(result)
    paths = report.write_all(result, out, summary, figure=args.plot)
    print(report.markdown(summary))
    print(
        f"report: {paths['markdown']} (also {', '.join(p.name for k, p in paths.items() if k != 'markdown')})"
    )
    if writer is not None:
        print(
            f"hand histories: {args.record} ({writer.count} games; "
            f"check with `pokerzoo replay {args.record}`)"
        )
    return 0
