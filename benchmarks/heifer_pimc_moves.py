"""Where Breed the Heifer's ``pimc`` and ``equity`` choose differently, heads-up.

At every decision with a choice of ``--deals`` heads-up hands (seat 0 plays
the search agent's moves, seat 1 equity's), both agents are asked; the table
counts each (equity's move, the search's move) pair.

    .venv/bin/python benchmarks/heifer_pimc_moves.py [--deals 40] [--agent pimc]
"""

from __future__ import annotations

import argparse
import collections

import numpy as np
from tqdm import tqdm

from pokerzoo.agents.registry import make_agent
from pokerzoo.envs.breed_the_heifer.game import BreedTheHeiferGame
from pokerzoo.envs.engine.betting import ACTION_NAMES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--agent", default="pimc", help="the search agent's spec (default pimc)")
    args = parser.parse_args()
    search = make_agent("breed_the_heifer", args.agent, seed=0)
    equity = make_agent("breed_the_heifer", "equity", seed=1)
    pairs: collections.Counter = collections.Counter()
    for deal in tqdm(range(args.deals), desc="hands"):
        game = BreedTheHeiferGame(seed=deal, num_players=2)
        while not game.is_over:
            p, view, mask = game.current_player, game.view(game.current_player), game.legal_mask()
            if np.count_nonzero(mask) < 2:
                game.apply(int(np.flatnonzero(mask)[0]))
                continue
            a, b = search.act(view, mask, game), equity.act(view, mask, game)
            pairs[(ACTION_NAMES[b], ACTION_NAMES[a])] += 1
            game.apply(a if p == 0 else b)
    print(f"{sum(pairs.values())} decisions of {args.deals} heads-up hands")
    print(f"| equity | {args.agent} | decisions |\n|---|---|---|")
    for (theirs, mine), n in pairs.most_common():
        print(f"| {theirs} | {mine} | {n} |")


if __name__ == "__main__":
    main()
