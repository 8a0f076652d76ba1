"""Heads-up sweep of the Perico heuristic's knock threshold against a baseline heuristic.

    python benchmarks/perico_knock_threshold.py [--games 400] [--thresholds 0.4 0.5 0.7 0.8]
                                                [--baseline 0.6] [--six-card]

Each threshold plays ``--games`` games against the heuristic with the
baseline threshold; game g uses seed g for the deck and the agents, and the
seats alternate, so every threshold meets the same deals. Prints the tested
threshold's win rate with a 95% normal interval (0.5 = as good as the
baseline). The default threshold (0.7) was chosen with this script.
"""

from __future__ import annotations

import argparse
import math
import time

from pokerzoo.agents.perico import PericoHeuristicAgent
from pokerzoo.envs.perico.game import PericoGame


def play(seed: int, agents, **config) -> list[int]:
    game = PericoGame(seed=seed, num_players=len(agents), **config)
    while not game.is_over:
        p = game.current_player
        game.apply(agents[p].act(game.view(p), game.legal_mask(), game))
    return game.winners


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--thresholds", type=float, nargs="*", default=[0.4, 0.5, 0.7, 0.8])
    parser.add_argument("--baseline", type=float, default=0.6)
    parser.add_argument("--six-card", action="store_true")
    args = parser.parse_args()
    print(f"| knock threshold | games | win rate vs {args.baseline} (95% CI) |\n|---|---|---|")
    for threshold in args.thresholds:
        start, wins = time.perf_counter(), 0.0
        for g in range(args.games):
            seat = g % 2
            base = PericoHeuristicAgent(seed=g, knock_threshold=args.baseline)
            agents = [base, base]
            agents[seat] = PericoHeuristicAgent(seed=g + 1, knock_threshold=threshold)
            winners = play(g, agents, six_card=args.six_card)
            wins += (seat in winners) / len(winners)
        p = wins / args.games
        half = 1.96 * math.sqrt(p * (1 - p) / args.games)
        print(f"| {threshold} | {args.games} | {p:.3f} ± {half:.3f} | ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
