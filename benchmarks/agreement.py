"""How often batched agents choose a reference agent's action on the same states: how close a clone is to its model.

Why: a stochastic search agent does not agree with itself (Breed the Heifer's
``pimc`` picks the same action twice on under half of the spots), so a clone's
held-out agreement with its teacher's recorded decisions (``pokerzoo policy
distill``) cannot say whether the clone plays like the teacher or like a
stronger agent of the same kind. This asks every agent for its action on the
same states, reached by ``--mover`` playing every seat of ``--rows`` batched
tables for ``--steps`` decisions, and prints each agent's share of actions equal
to the reference's, and each agent's paired difference from the first one
with a 95% interval over the states. Nothing is timed.

    .venv/bin/python benchmarks/agreement.py breed_the_heifer 'pimc(budget=900)' \
        policy:runs/distill/clone/policy.json pimc --rows 128 --steps 6 --seed 20261401
"""

from __future__ import annotations

import argparse

import numpy as np

from pokerzoo.envs.batched import make
from pokerzoo.evaluation.report import mean_ci
from pokerzoo.training.selfplay.league import batched_agent


def agreement(game: str, reference: str, agents: list[str], *, mover: str, rows: int, steps: int,
              seed: int) -> dict[str, np.ndarray]:  # fmt: skip
    """Per agent, 1.0 where its action on a state is the reference's, else 0.0 (``rows * steps`` states)."""
    players = [batched_agent(game, {}, spec) for spec in [reference, mover, *agents]]
    for i, p in enumerate(players):
        p.seed(seed + 1 + i)
    env = make(game, rows)
    env.reset(seed=seed)
    same: dict[str, list[np.ndarray]] = {a: [] for a in agents}
    for _ in range(steps):
        wanted = players[0].act(env, env.all_rows)
        for spec, p in zip(agents, players[2:]):
            same[spec].append((p.act(env, env.all_rows) == wanted).astype(np.float64))
        env.step(players[1].act(env, env.all_rows))
    return {a: np.concatenate(v) for a, v in same.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("reference", help="the batched agent whose actions the others are compared with")
    parser.add_argument("agents", nargs="+", help="batched agents (policy:PATH plays its most likely action)")
    parser.add_argument("--mover", default="equity(sampler=fast)", help="the agent whose actions move the tables")
    parser.add_argument("--rows", type=int, default=128)
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    same = agreement(args.game, args.reference, args.agents, mover=args.mover, rows=args.rows, steps=args.steps,
                     seed=args.seed)  # fmt: skip
    first = args.agents[0]
    print(f"{args.rows * args.steps} states of {args.game} (moved by {args.mover}, seed {args.seed}): "
          f"the share of each agent's actions equal to {args.reference}'s")  # fmt: skip
    for spec, s in same.items():
        line = f"  {spec}: {s.mean():.3f}"
        if spec != first:
            d = mean_ci(same[first] - s)
            line += f"; {first} minus it {d.mean:+.3f} ± {d.half_width:.3f}"
        print(line)


if __name__ == "__main__":
    main()
