"""Raspisnoy tournaments split by deal kind: where does one agent gain or lose against another?

A tournament's report gives one paired difference over all its deals. Under
``schedule="single"`` a deal is any entry of the classic list (normal deals of
3 to 13 cards, no-trump, dark, gold, misère, forehead), and an agent can be
ahead on some kinds and behind on others. This reads the ``games.csv`` of
``pokerzoo evaluate`` runs (duplicate, two agents), rebuilds every deal's
game from its recorded seed and the run's config to learn its entry (the
same draw the tournament made), and prints the paired difference per deal
group with its 95% interval: the same statistic and interval as the
report's, per group.
Several runs of one match pool their deals.

    .venv/bin/python benchmarks/raspisnoy_deal_kinds.py runs/rasp_ismcts/piece_a [RUN ...] [--a ppo]
"""

from __future__ import annotations

import argparse
import collections
from pathlib import Path

import numpy as np

from pokerzoo.envs.raspisnoy_poker.game import RaspisnoyPokerGame
from pokerzoo.evaluation.pooling import read_piece
from pokerzoo.evaluation.report import mean_ci


def group_of(cards: int, kind: str) -> str:
    """The deal groups the table reports: the special kinds, and normal deals by size."""
    if kind != "normal":
        return kind
    return "normal 3-5 cards" if cards <= 5 else "normal 6-9 cards" if cards <= 9 else "normal 10-13 cards"


def deal_differences(run: Path, a: str) -> list[tuple[str, float]]:
    """(group, paired difference of ``a`` over the other agent) for every deal of one run.

    The run is read (and checked) as ``pokerzoo pool`` reads its pieces; a deal's difference is the report's:
    ``a``'s mean reward per seat-game on the deal minus the other agent's.
    """
    try:
        piece = read_piece(run)
    except ValueError as exc:
        raise SystemExit(str(exc)) from None
    labels = [agent["agent"] for agent in piece.summary["agents"]]
    if not piece.summary["duplicate"] or len(labels) != 2:
        raise SystemExit(f"{run}: expected a duplicate tournament of two agents")
    if a not in labels:
        raise SystemExit(f"{run}: agent {a!r} did not play; agents: {', '.join(sorted(labels))}")
    deals = piece.summary["deals"]
    reward, games, seed = np.zeros((deals, 2)), np.zeros((deals, 2)), {}
    for rec in piece.records:
        for s, agent in enumerate(rec.seats):
            reward[rec.deal, agent] += rec.rewards[s]
            games[rec.deal, agent] += 1
        seed.setdefault(rec.deal, rec.seed)
    per_game = reward / games
    ours = labels.index(a)
    difference = per_game[:, ours] - per_game[:, 1 - ours]
    config = piece.summary["config"]
    entry = {d: RaspisnoyPokerGame(seed=seed[d], **config).schedule[0] for d in range(deals)}
    return [(group_of(*entry[d]), float(difference[d])) for d in range(deals)]


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
        est, share = mean_ci(values), len(values) / len(rows)
        print(f"| {g} | {len(values)} | {share:.1%} | {est.text(digits=2)} | {est.mean * share:+.3f} |")


if __name__ == "__main__":
    main()
