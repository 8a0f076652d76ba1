"""Raspisnoy tournaments split by deal kind: where does one agent gain or lose against another?

A tournament's report gives one paired difference over all its deals. Under
``schedule="single"`` a deal is any entry of the classic list (normal deals of
3 to 13 cards, no-trump, dark, gold, misère, forehead), and an agent can be
ahead on some kinds and behind on others. This reads the ``games.csv`` of
``pokerzoo evaluate`` runs (duplicate, two agents), rebuilds every deal's
game from its recorded seed and the run's config to learn its entry (the
same draw the tournament made), and prints the paired difference per deal
group with its 95% interval: the same statistic as the report's, per group.
Several runs of one match pool their deals.

    .venv/bin/python benchmarks/raspisnoy_deal_kinds.py runs/rasp_ismcts/piece_a [RUN ...] [--a ppo]
"""

from __future__ import annotations

import argparse
import collections
import csv
import json
import math
from pathlib import Path

import numpy as np
from tqdm import tqdm

from pokerzoo.envs.raspisnoy_poker.game import RaspisnoyPokerGame


def group_of(cards: int, kind: str) -> str:
    """The deal groups the table reports: the special kinds, and normal deals by size."""
    if kind != "normal":
        return kind
    return "normal 3-5 cards" if cards <= 5 else "normal 6-9 cards" if cards <= 9 else "normal 10-13 cards"


def deal_differences(run: Path, a: str) -> list[tuple[str, float]]:
    """(group, paired difference of ``a`` over the other agent) for every deal of one run."""
    report = json.loads((run / "report.json").read_text())
    if not report.get("duplicate") or len(report["agents"]) != 2:
        raise SystemExit(f"{run}: expected a duplicate tournament of two agents")
    config = report["config"]
    games: dict[tuple[int, int], list[dict]] = collections.defaultdict(list)
    with open(run / "games.csv", newline="") as f:
        for row in csv.DictReader(f):
            games[(int(row["deal"]), int(row["seating"]))].append(row)
    agents = {row["agent"] for rows in games.values() for row in rows}
    if a not in agents:
        raise SystemExit(f"{run}: agent {a!r} did not play; agents: {', '.join(sorted(agents))}")
    per_deal: dict[int, list[float]] = collections.defaultdict(list)
    group: dict[int, str] = {}
    for (deal, _), rows in tqdm(sorted(games.items()), desc=run.name, unit="game"):
        ours = [float(r["reward"]) for r in rows if r["agent"] == a]
        theirs = [float(r["reward"]) for r in rows if r["agent"] != a]
        per_deal[deal].append(np.mean(ours) - np.mean(theirs))
        if deal not in group:
            game = RaspisnoyPokerGame(seed=int(rows[0]["seed"]), **config)
            group[deal] = group_of(*game.schedule[0])
    return [(group[d], float(np.mean(v))) for d, v in per_deal.items()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="pokerzoo evaluate run folders of one match")
    parser.add_argument("--a", default="ppo", help="the agent whose advantage is reported (default ppo)")
    args = parser.parse_args()
    rows = [d for run in args.runs for d in deal_differences(run, args.a)]
    by_group: dict[str, list[float]] = collections.defaultdict(list)
    for g, d in rows:
        by_group[g].append(d)
    by_group["all deals"] = [d for _, d in rows]
    print(f"| deals | count | share | {args.a} − other per deal (95% CI) | contribution per deal |")
    print("|---|---|---|---|---|")
    for g, values in sorted(by_group.items(), key=lambda kv: (kv[0] == "all deals", kv[0])):
        v = np.asarray(values)
        half = 1.96 * v.std(ddof=1) / math.sqrt(len(v)) if len(v) > 1 else float("nan")
        share = len(v) / len(rows)
        print(f"| {g} | {len(v)} | {share:.1%} | {v.mean():+.2f} ± {half:.2f} | {v.mean() * share:+.3f} |")


if __name__ == "__main__":
    main()
