"""Round-robins split by the kind of table: who wins where, and what reading the table could be worth.

A round-robin's mean mixes the tables an agent sat at. Two agents tied at the
top can tie by different routes: one ahead at the tables where the weak
agents sit, the other where they do not (the report's tablemates matrix
shows each tablemate's effect alone). This reads the ``games.csv`` of
``pokerzoo evaluate`` runs of one match (several pieces pool their deals, as
``pokerzoo pool`` does) and sorts every seat-game by its *kind*: how many of
the ``--count`` agents sit at the table besides the agent itself. It prints

* each agent's reward per seat-game by kind, with its 95% interval over deals
  (a deal's mean of the agent's games of that kind), and the share of its games;
* with ``--a`` and ``--b``: their paired difference by kind (deals where both
  sat at a table of that kind; across all kinds it is the report's), and what
  ``a`` would gain if it played like ``b`` at the kinds where ``b`` is ahead.

The last figure bounds a policy that reads the table and switches between
the two agents' play: a policy that knew the kind before its first decision
and played each agent's way where that agent is ahead. It is an estimate
from the means, not a tournament, and an optimistic one (the kinds are
picked where the sample says ``b`` is ahead); its interval is for the kinds
so picked. An agent never counts itself, so for an agent named in ``--count``
a kind means one tablemate fewer; a kind that only one of ``a`` and ``b`` can
sit at reads n/a.

    .venv/bin/python benchmarks/table_kinds.py runs/heifer_res/brr7_a16_48 runs/heifer_res/brr7_a16_48_s80 \
        --count calling_station random --a policy:runs/avg/a16_48/policy.json --b ppo
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from pokerzoo.evaluation.pooling import combine
from pokerzoo.evaluation.report import mean_ci


def kind_sums(runs: list[Path], count: list[str]) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(agents, reward[deal, agent, kind], games[deal, agent, kind]) over every deal of ``runs``.

    A seat-game's kind is how many seats of its table hold one of ``count``, the agent's own seat not counted.
    The runs are pooled as ``pokerzoo pool`` pools them (pieces of one match, on different deals).
    """
    try:
        result, _ = combine(runs)
    except ValueError as exc:
        raise SystemExit(f"the runs are not one match that pokerzoo pool could pool: {exc}") from None
    labels = result.labels
    missing = [c for c in count if c not in labels]
    if missing:
        raise SystemExit(f"--count {' '.join(missing)}: not in {runs[0]}; agents: {', '.join(labels)}")
    counted = np.array([name in count for name in labels])
    # kinds 0 .. num_players - 1: counted tablemates
    reward = np.zeros((result.deals, len(labels), result.num_players))
    games = np.zeros_like(reward)
    for rec in result.records:
        at_table = int(counted[np.asarray(rec.seats)].sum())
        for seat, agent in enumerate(rec.seats):
            kind = at_table - int(counted[agent])
            reward[rec.deal, agent, kind] += rec.rewards[seat]
            games[rec.deal, agent, kind] += 1
    return labels, reward, games


def per_deal_mean(reward: np.ndarray, games: np.ndarray) -> np.ndarray:
    """Each deal's mean reward per seat-game (NaN where the deal has no such game)."""
    return np.divide(reward, games, out=np.full_like(reward, np.nan), where=games > 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="pokerzoo evaluate run folders of one match")
    parser.add_argument("--count", nargs="+", required=True, help="the agents whose seats at a table make its kind")
    parser.add_argument("--a", help="with --b: the agent whose paired difference and switching bound are shown")
    parser.add_argument("--b", help="the agent --a is compared with")
    args = parser.parse_args()
    if (args.a is None) != (args.b is None):
        parser.error("--a and --b go together")
    labels, reward, games = kind_sums(args.runs, args.count)
    mean = per_deal_mean(reward, games)
    kinds = [k for k in range(games.shape[2]) if games[:, :, k].sum() > 0]
    deals = reward.shape[0]
    print(f"{deals} deals; a table's kind: how many of {', '.join(args.count)} sit there besides the agent\n")
    print("| agent | " + " | ".join(f"kind {k}: reward/game (share)" for k in kinds) + " | all |")
    print("|---|" + "---|" * (len(kinds) + 1))
    for i, label in enumerate(labels):
        total = games[:, i].sum()
        cells = []
        for k in kinds:
            column = mean[:, i, k]
            share = games[:, i, k].sum() / total
            cells.append(f"{mean_ci(column[~np.isnan(column)]).text(digits=2)} ({share:.0%})" if share else "")
        overall = mean_ci(reward[:, i].sum(axis=1) / games[:, i].sum(axis=1)).text(digits=2)
        print(f"| `{label}` | " + " | ".join(cells) + f" | {overall} |")
    if args.a is None:
        return
    for name in (args.a, args.b):
        if name not in labels:
            raise SystemExit(f"{name!r} did not play; agents: {', '.join(labels)}")
    a, b = labels.index(args.a), labels.index(args.b)
    weights = games[:, a].sum(axis=0) / games[:, a].sum()
    print(f"\n| kind | `{args.a}` − `{args.b}` per game (95% CI, deals with both) | share of `{args.a}`'s games |")
    print("|---|---|---|")
    gain, half = 0.0, 0.0  # playing like b at the kinds where it is ahead: sum of share x difference
    b_ahead = []
    for k in kinds:
        both = ~np.isnan(mean[:, a, k]) & ~np.isnan(mean[:, b, k])
        est = mean_ci(mean[both, a, k] - mean[both, b, k])
        if est.mean < 0:
            b_ahead.append(str(k))
            gain -= weights[k] * est.mean
            half = float(np.hypot(half, weights[k] * est.half_width))
        print(f"| {k} | {est.text(digits=2)} | {weights[k]:.1%} |")
    overall = reward[:, a].sum(axis=1) / games[:, a].sum(axis=1) - reward[:, b].sum(axis=1) / games[:, b].sum(axis=1)
    print(f"| all | {mean_ci(overall).text(digits=2)} | 100% |")
    print(
        f"\nPlaying like `{args.b}` at the kinds where it is ahead ({', '.join(b_ahead) or 'none'}) would add "
        f"{gain:+.2f} ± {half:.2f} a game to `{args.a}` (optimistic: the kinds are picked by the sample; the "
        "interval treats the kinds as independent)"
    )


if __name__ == "__main__":
    main()
