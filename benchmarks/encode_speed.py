"""Observation encoders alone: encodes/s of ``game.encode(view)`` per game, over views of random play.

    python benchmarks/encode_speed.py [--seconds 2] [--views 4000]

The views are collected first (every seat's view at every decision of random
games, in play order, so per-street caches behave as in play); then the
encoder runs over that list again and again. Rates count this process's CPU
time, steadier than wall time on a shared machine; compare figures within
one run or across runs of the same conditions only.
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np

from pokerzoo.envs import game_class

CONFIGS = {
    "caribbean_stud": [{}, {"boxes": 3, "num_hands": 3}],
    "mexican_poker": [{"num_players": 2}, {"num_players": 7}],
    "perico": [{}, {"six_card": True, "num_players": 5}],
    "breed_the_heifer": [{"num_players": 2}, {"num_players": 7}],
    "raspisnoy_poker": [{"num_players": 4}, {"num_players": 10, "schedule": "single"}],
}


def collect_views(name: str, config: dict, count: int) -> tuple[object, list]:
    """(a game of that config, ``count`` views of random play) ."""
    cls = game_class(name)
    views: list = []
    for seed in itertools.count():
        game = cls(seed=seed, **config)
        rng = np.random.default_rng(seed)
        while len(views) < count:
            views += [game.view(p) for p in range(game.num_players)]
            if game.is_over:
                break
            legal = np.flatnonzero(game.legal_mask())
            game.apply(int(legal[rng.integers(legal.size)]))
        if len(views) >= count:
            return game, views[:count]
    raise AssertionError("unreachable")


def encodes_per_second(game, views: list, seconds: float) -> float:
    encode = game.encode
    for v in views[:200]:  # warm-up: lazily built tables
        encode(v)
    done, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for v in views:
            encode(v)
        done += len(views)
    return done / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--views", type=int, default=4000)
    args = parser.parse_args()
    print("| game | options | observation size | encodes/s (CPU) |\n|---|---|---|---|")
    for name, configs in CONFIGS.items():
        for config in configs:
            game, views = collect_views(name, config, args.views)
            rate = encodes_per_second(game, views, args.seconds)
            options = " ".join(f"{k}={v}" for k, v in config.items()) or "defaults"
            print(f"| {name} | {options} | {game.observation_size} | {rate:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
