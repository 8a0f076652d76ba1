"""PIMC decision speed in Raspisnoy poker: decisions/s of ``pimc`` seated against ``heuristic``.

Plays ``--deals`` single deals (the training schedule) with PIMC in seat 0 and
the heuristic elsewhere, and reports the CPU time per PIMC decision, split into
searched decisions (more than one candidate) and forced ones (one legal action).

    .venv/bin/python benchmarks/raspisnoy_pimc_speed.py [--deals 200] [--players 4] [--budget 48]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from pokerzoo.agents.raspisnoy_poker import HeuristicAgent, PimcAgent
from pokerzoo.envs.raspisnoy_poker.game import RaspisnoyPokerGame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--budget", type=int, default=128, help="playouts per play decision")
    parser.add_argument("--bid-budget", type=int, default=48, help="playouts per bid decision")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    pimc = PimcAgent(seed=args.seed, budget=args.budget, bid_budget=args.bid_budget)
    others = HeuristicAgent()
    counts = {"bid": [0, 0.0], "play": [0, 0.0], "forced": [0, 0.0]}
    for deal in range(args.deals):
        game = RaspisnoyPokerGame(
            seed=args.seed * 100_003 + deal, num_players=args.players, schedule="single"
        )
        while not game.is_over:
            p = game.current_player
            view, mask = game.view(p), game.legal_mask()
            if p != 0:
                game.apply(others.act(view, mask, game))
                continue
            kind = "bid" if view.phase == "bid" else ("forced" if np.count_nonzero(mask) == 1 else "play")
            start = time.process_time()
            action = pimc.act(view, mask, game)
            counts[kind][0] += 1
            counts[kind][1] += time.process_time() - start
            game.apply(action)
    total = sum(c[0] for c in counts.values())
    seconds = sum(c[1] for c in counts.values())
    print(f"{args.deals} single deals, {args.players} players, PIMC budget {args.budget}/{args.bid_budget}")
    for kind, (n, s) in counts.items():
        if n:
            print(f"  {kind:>6}: {n:6d} decisions, {n / s if s else float('inf'):10,.1f} decisions/s CPU")
    print(f"  all   : {total:6d} decisions, {total / seconds:10,.1f} decisions/s CPU ({seconds:.1f} s CPU)")


if __name__ == "__main__":
    main()
