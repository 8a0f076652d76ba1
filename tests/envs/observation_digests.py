"""Digests of the observation vectors of random play, per game and option set.

``observation_digests.json`` beside this file was written from the encoders
as they were before the observation schema replaced their hand-written
layouts; ``test_observation_digests.py`` replays the same games and checks
that every vector is still bitwise the same. Refresh the file only when a
layout changes on purpose (and say so in the commit):

    .venv/bin/python tests/envs/observation_digests.py --write

Each episode plays seed ``s`` with uniformly random legal actions drawn from
``default_rng(s)``; at every decision, and once more at the end, it encodes
the view of every seat. The digests are SHA-256 over the float32 bytes of
those vectors in order, one per block of ``BLOCK`` vectors, so that a
mismatch names the seed and decision where its block starts.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
from pathlib import Path

import numpy as np

from pokerzoo.envs import game_class

PATH = Path(__file__).with_name("observation_digests.json")
OBSERVATIONS_PER_CONFIG = 4000
BLOCK = 500

# Option sets chosen to reach every block: seat counts at both ends, variants, decks, special deals.
CONFIGS: dict[str, list[dict]] = {
    "caribbean_stud": [
        {},
        {"boxes": 3, "ante_choices": [1, 2, 5], "num_hands": 3},
        {"boxes": 2, "num_hands": 2},
    ],
    "mexican_poker": [
        {"num_players": 2, "rounds": 4},
        {"rounds": 3},
        {"num_players": 7, "doubt_pass": True, "rounds": 2},
        {"num_players": 3, "doubt_chips": False, "rounds": 3, "reward": "win"},
    ],
    "perico": [
        {"num_players": 2},
        {},
        {"num_players": 6, "max_turns_per_round": 12},
        {"num_players": 5, "six_card": True},
        {"num_players": 3, "six_card": True, "deck": "54", "max_rounds": 5},
        {"num_players": 2, "deck": "56", "jokers_in_five_of_a_kind": False, "target_score": 2},
    ],
    "breed_the_heifer": [
        {"num_players": 2},
        {},
        {"num_players": 7, "wild_pairs": "any_player", "num_hands": 3},
        {"num_players": 4, "stacks": [10, 30, 5, 60], "num_hands": 4, "double_ace_flush": True},
        {"num_players": 3, "ante": 0, "small_bet": 3, "big_bet": 5, "max_raises": 0},
    ],
    "raspisnoy_poker": [
        {"num_players": 2, "schedule": "single"},
        {},
        {"num_players": 3, "deck": "34", "start_cards": 9},
        {"num_players": 10, "schedule": "single"},
        {
            "num_players": 4,
            "whole_deck_trump": "dealer_last",
            "schedule": [[13, "normal"], [2, "dark"], [3, "gold"], [4, "misere"], [5, "no_trump"], [1, "forehead"]],
            "joker_lead_demands_highest": True,
        },
    ],
}


def observations(game_name: str, config: dict):
    """``(seed, decision, obs)``: every seat's observation at every decision of random games, seeds 0, 1, ..."""
    cls = game_class(game_name)
    for seed in itertools.count():
        game = cls(seed=seed, **config)
        rng = np.random.default_rng(seed)
        for decision in itertools.count():
            for p in range(game.num_players):
                yield seed, decision, game.encode(game.view(p))
            if game.is_over:
                break
            legal = np.flatnonzero(game.legal_mask())
            game.apply(int(legal[rng.integers(legal.size)]))


def digests(game_name: str, config: dict, budget: int = OBSERVATIONS_PER_CONFIG) -> list[str]:
    """``"seed/decision sha256"`` per block of ``BLOCK`` observations (where the block starts), ``budget`` in all."""
    starts: list[str] = []
    hashes: list[hashlib._Hash] = []
    for i, (seed, decision, obs) in enumerate(itertools.islice(observations(game_name, config), budget)):
        if obs.dtype != np.float32 or obs.ndim != 1:
            raise AssertionError(f"{game_name} {config}: observation {obs.dtype} {obs.shape}, seed {seed}")
        if i % BLOCK == 0:
            starts.append(f"{seed}/{decision}")
            hashes.append(hashlib.sha256())
        hashes[-1].update(obs.tobytes())
    return [f"{start} {h.hexdigest()}" for start, h in zip(starts, hashes)]


def config_key(config: dict) -> str:
    return json.dumps(config, sort_keys=True)


def compute_all() -> dict:
    return {
        game: {config_key(c): digests(game, c) for c in configs} for game, configs in CONFIGS.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help=f"write {PATH.name}")
    args = parser.parse_args()
    data = compute_all()
    if args.write:
        PATH.write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {PATH}")
    else:
        print(json.dumps(data, indent=1))


if __name__ == "__main__":
    main()
