"""How far a Caribbean stud agent is from optimal play, in expectation: its EV loss per ante, exactly per hand.

    .venv/bin/python benchmarks/caribbean_policy_gap.py --agents ppo rules_of_thumb raise_pair_plus --hands 100000

Realised returns are noisy (a raised box wins or loses 3 units, a royal flush
pays 201): telling two near-optimal strategies apart by playing needs millions
of hands. Here every sampled hand (five cards and the dealer's up card) is
scored instead by the *expected* value of each decision, enumerating all
163,185 dealer hands (``raise_ev``, the exact_ev agent's own code): the loss
of a decision is EV(best decision) − EV(agent's decision), zero when the
agent agrees with the optimal player. Averaged over random hands this is the
agent's expected shortfall against exact_ev, per ante, with a 95% interval
that reflects only which hands were sampled.

The optimal player raises every pair or better and folds every hand below
Ace-King high (checked on every sampled hand where an agent deviates), so
only Ace-King-high hands, and hands where some agent departs from that rule,
are enumerated. Any registry agent works (scripted, ``policy:PATH``, ``ppo``);
each sees the same ``CaribbeanView`` it would see in the env (one box, ante 1).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

from pokerzoo.agents.caribbean_stud import PAIR_KEY, raise_ev, single_box_view
from pokerzoo.agents.registry import make_agent
from pokerzoo.envs.caribbean_stud import simulate
from pokerzoo.envs.caribbean_stud.game import RAISE, CaribbeanStudGame
from pokerzoo.envs.caribbean_stud.payouts import SYSTEM
from pokerzoo.envs.engine.hands import standard

Z95 = 1.959963984540054
MASK = np.array([True, True])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", nargs="+", default=["rules_of_thumb", "raise_pair_plus"])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=None, help="write results.json here")
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    decks = simulate.deal_batch(rng, args.hands)
    box_cards, dealer = simulate.split(decks)
    boxes = box_cards[:, 0]
    ups = dealer[:, 4]
    keys = standard.keys_batch(boxes)
    pair_plus = keys >= PAIR_KEY
    ace_king = (keys >= SYSTEM.ACE_KING_MIN) & ~pair_plus

    game = CaribbeanStudGame(seed=0)  # encodes views for agents that want the game
    decisions = {}
    for spec in args.agents:
        agent = make_agent("caribbean_stud", spec, seed=0)
        start = time.perf_counter()
        raised = np.array(
            [agent.act(single_box_view(boxes[i].tolist(), int(ups[i])), MASK, game) == RAISE
             for i in tqdm(range(args.hands), desc=spec, unit="hand", leave=False)]
        )
        decisions[spec] = raised
        print(f"{spec}: decided {args.hands:,} hands in {time.perf_counter() - start:.1f} s", flush=True)

    rule = pair_plus.copy()  # the optimal rule outside Ace-King high
    need = ace_king.copy()
    for raised in decisions.values():
        need |= raised != rule
    idx = np.flatnonzero(need)
    ev_raise = np.full(args.hands, np.nan)
    for i in tqdm(idx, desc="enumerating dealer hands", unit="hand"):
        ev_raise[i] = raise_ev(boxes[i].tolist(), int(ups[i]))[0]
    off_rule = need & ~ace_king
    best_raise = np.where(ace_king | off_rule, ev_raise > -1.0, rule)
    checked = bool(np.all(best_raise[off_rule] == rule[off_rule]))

    rows = []
    for spec, raised in decisions.items():
        loss = np.zeros(args.hands)
        differ = raised != best_raise
        loss[differ] = np.abs(ev_raise[differ] - -1.0)
        mean = float(loss.mean())
        half = Z95 * float(loss.std(ddof=1)) / np.sqrt(args.hands)
        rows.append({
            "agent": spec,
            "ev_loss_per_ante": mean,
            "ci95": half,
            "disagreements": int(differ.sum()),
            "raise_rate": float(raised.mean()),
        })
    print(f"\nExpected loss against optimal play (exact_ev), per ante, over {args.hands:,} random hands "
          f"(seed {args.seed}); {len(idx):,} hands enumerated:\n")
    print("| agent | EV loss per ante (pp) | 95% CI | hands played differently | raise rate |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(f"| `{r['agent']}` | {100 * r['ev_loss_per_ante']:.4f} | ±{100 * r['ci95']:.4f} | "
              f"{r['disagreements']:,} | {100 * r['raise_rate']:.2f}% |")
    print(f"\nOptimal play raised every pair+ and folded below Ace-King on every enumerated hand: {checked}")
    print("Command: python benchmarks/caribbean_policy_gap.py --agents " + " ".join(args.agents)
          + f" --hands {args.hands} --seed {args.seed}")
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "results.json").write_text(json.dumps({"hands": args.hands, "seed": args.seed, "rows": rows,
                                                           "optimal_rule_checked": checked}, indent=2))


if __name__ == "__main__":
    main()
