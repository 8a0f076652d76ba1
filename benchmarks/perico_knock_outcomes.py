"""Perico knocks with the real hands: how often knocking now wins the round, against playing on.

At every knock decision of heuristic self-play, the game is copied twice: in
one the player knocks, in the other it plays on, and both copies are played
to the end of the round by the heuristic (with the real hidden cards: this is
an analysis, not an agent). Decisions are grouped by the heuristic's own
estimate of its win chance against random hands, the number it knocks on
(from 0.7); the table says, per group, how often each choice really wins the
round. It shows how much a better knock rule could gain, and how far the
estimate against random hands is from the table's strength.

    .venv/bin/python benchmarks/perico_knock_outcomes.py [--games 60] [--players 4] [--seed 0]
"""

from __future__ import annotations

import argparse
import collections

from tqdm import tqdm

from pokerzoo.agents.perico import PericoHeuristicAgent, _Context
from pokerzoo.envs.perico.actions import CONTINUE, KNOCK
from pokerzoo.envs.perico.game import PericoGame


def round_reward(game: PericoGame, seat: int, first: int, agent: PericoHeuristicAgent) -> float:
    """``seat``'s reward for the rest of the round after ``first``, the heuristic playing every seat."""
    world = game.clone()
    world.silence()
    before, round_number = world.total_rewards[seat], world.round_number
    world.apply(first)
    while not world.is_over and world.round_number == round_number:
        world.apply(agent.act(world.view(world.current_player), world.legal_mask(), world))
    return world.total_rewards[seat] - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    agent = PericoHeuristicAgent(seed=args.seed + 1)
    groups: dict[int, list[float]] = collections.defaultdict(lambda: [0, 0.0, 0.0])
    for game_seed in tqdm(range(args.seed, args.seed + args.games), desc="games"):
        game = PericoGame(seed=game_seed, num_players=args.players)
        while not game.is_over:
            seat, view = game.current_player, game.view(game.current_player)
            if view.phase == "knock":
                chance = agent.win_chance(view, _Context(view, agent.rng))
                row = groups[min(int(chance * 10), 9)]
                row[0] += 1
                row[1] += round_reward(game, seat, KNOCK, agent)
                row[2] += round_reward(game, seat, CONTINUE, agent)
            game.apply(agent.act(view, game.legal_mask(), game))
    print(f"{args.players} players, {args.games} heuristic games from seed {args.seed}")
    print("| estimated win chance | decisions | wins the round: knock now | play on |")
    print("|---|---|---|---|")
    for g in sorted(groups):
        n, knock, play_on = groups[g]
        print(f"| {g / 10:.1f}–{(g + 1) / 10:.1f} | {n} | {knock / n:.3f} | {play_on / n:.3f} |")


if __name__ == "__main__":
    main()
