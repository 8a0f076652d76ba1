"""Breed the Heifer speed: hand keys (generic solver vs the game's ranker), equity-agent decisions, env steps.

The equity agent is timed both ways: its simulations in Python (``compiled=False``, the reference) and in the
batched engine's compiled evaluator (the default), which makes the same draws and decisions.

    python benchmarks/heifer_speed.py [--seconds 2] [--players 2 5]

Figures are per process and only comparable within one run (machines are
noisy); the env rows use ``pokerzoo bench``'s loop. Besides wall time the CPU
time of the process is shown, which is steadier on a shared machine.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from pokerzoo.agents.breed_the_heifer import CallingStationAgent, EquityAgent
from pokerzoo.cli.benchmarks import aec_steps_per_second
from pokerzoo.envs import breed_the_heifer_v0
from pokerzoo.envs.breed_the_heifer.game import BreedTheHeiferGame
from pokerzoo.envs.breed_the_heifer.ranking import HeiferRanker
from pokerzoo.envs.engine.hands import get_system


def _timed(fn, seconds: float) -> tuple[float, float]:
    """(units per wall second, units per CPU second) of repeated ``fn()`` calls returning units."""
    done, wall, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        done += fn()
    return done / (time.perf_counter() - wall), done / (time.process_time() - cpu)


def hand_keys(seconds: float) -> None:
    rng = np.random.default_rng(0)
    hands = [(rng.permutation(52)[:7].tolist(), int(rng.integers(-1, 13))) for _ in range(20_000)]
    systems = {w: get_system("heifer", wild_rank=None if w < 0 else w) for w in range(-1, 13)}
    fresh = HeiferRanker()

    def generic() -> int:
        for cards, w in hands[:2000]:
            systems[w].key(cards)
        return 2000

    cold_wall = time.perf_counter()
    for cards, w in hands:
        fresh.key(cards, w)
    cold = len(hands) / (time.perf_counter() - cold_wall)

    def warm() -> int:
        for cards, w in hands:
            fresh.key(cards, w)
        return len(hands)

    print("7-card heifer keys/s (wall, cpu)")
    print(f"  generic solver (hands.wild)   {_fmt(_timed(generic, seconds))}")
    print(f"  ranker, first sight           {cold:>10,.0f}")
    print(f"  ranker, memo warm             {_fmt(_timed(warm, seconds))}")


def _fmt(rates: tuple[float, float]) -> str:
    return f"{rates[0]:>10,.0f} {rates[1]:>10,.0f}"


def equity_decisions(players: int, seconds: float, compiled: bool) -> None:
    agents = [EquityAgent(seed=1, compiled=compiled)] + [CallingStationAgent(seed=2) for _ in range(players - 1)]
    counter = iter(range(10**9))

    def hand() -> int:
        g = BreedTheHeiferGame(seed=next(counter), num_players=players)
        decisions = 0
        while not g.is_over:
            p = g.current_player
            a = agents[p].act(g.view(p), g.legal_mask(), g)
            decisions += p == 0
            g.apply(a)
        return decisions

    how = "compiled" if compiled else "python  "
    print(f"equity decisions/s, {players} players (vs calling stations), {how}  {_fmt(_timed(hand, seconds))}")


def env_steps(players: int, seconds: float) -> None:
    for label, make in (("raw", breed_the_heifer_v0.raw_env), ("wrapped", breed_the_heifer_v0.env)):
        aec_steps_per_second(make(num_players=players), min(1.0, seconds))  # warm the memo tables
        wall = aec_steps_per_second(make(num_players=players), seconds, clock="wall")
        cpu = aec_steps_per_second(make(num_players=players), seconds, clock="cpu")
        print(f"env agent-steps/s, {players} players, {label:<7} {_fmt((wall, cpu))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 5])
    args = parser.parse_args()
    print("(columns: per wall second, per CPU second of this process)")
    hand_keys(args.seconds)
    for n in args.players:
        for compiled in (False, True):
            equity_decisions(n, args.seconds, compiled)
    for n in args.players:
        env_steps(n, args.seconds)


if __name__ == "__main__":
    main()
