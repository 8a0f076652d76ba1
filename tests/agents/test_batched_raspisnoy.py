"""The batched Raspisnoy heuristic (``agents.batched.raspisnoy_poker``) against the scalar ``HeuristicAgent``.

In every row of a batched env and a scalar env played side by side (the
differential kit proves the two states equal), the batched decision must be
the scalar agent's on the same view and mask, at every step. The rows play a
mix of heuristic and random moves (row r: heuristic moves with probability
1, 0.5 or 0 by r mod 3), so the states include the heuristic's own games and
the odd states random play reaches. Every deal kind, both decks, the
obligation switches and 2 to 10 players are covered; under ``slow`` each
configuration compares >= 100,000 decisions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest
from sb3_contrib import MaskablePPO

from pokerzoo.agents.batched.raspisnoy_poker import HeuristicOpponent
from pokerzoo.agents.raspisnoy_poker import LOW_CARD_SHARE, HeuristicAgent
from pokerzoo.envs import batched
from pokerzoo.envs.batched.core import PARALLEL_MIN_ROWS
from pokerzoo.envs.batched.sb3 import BatchedVecEnv
from pokerzoo.envs.batched.seats import LearnerSeats
from pokerzoo.envs.batched.testing import compare_opponent, random_legal

EVERY_KIND = [(5, "normal"), (4, "no_trump"), (6, "dark"), (3, "gold"), (7, "misere"), (1, "forehead")]
CONFIGS = [
    ({"schedule": "single"}, 48, 120),
    ({"num_players": 3, "deck": "34", "schedule": "single"}, 36, 120),
    ({"num_players": 4, "schedule": [(1, "forehead")]}, 48, 60),  # forehead bids and joker declarations
    ({"num_players": 6, "schedule": "single", "whole_deck_trump": "dealer_last", "must_trump": False}, 36, 100),
    ({"num_players": 10, "schedule": "single", "must_follow_suit": False}, 30, 100),
    ({"num_players": 5, "schedule": EVERY_KIND, "joker_lead_demands_highest": True}, 36, 160),
    ({"num_players": 2, "schedule": [(27, "normal"), (27, "no_trump"), (27, "misere")]}, 24, 150),
    (
        {"num_players": 4, "deck": "34", "schedule": [(8, "no_trump"), (8, "dark"), (8, "gold"), (1, "forehead")]},
        36,
        120,
    ),
]


def decision_kind(game) -> str:
    if game.phase == "bid":
        return f"bid:{game.kind}"
    return f"{game.phase}:{game.kind}:{'follow' if game.trick else 'lead'}"


def compare_heuristics(
    options: Mapping[str, Any],
    seeds: Sequence[int],
    steps: int,
    *,
    low_card_share: float = LOW_CARD_SHARE,
    opponent: HeuristicOpponent | None = None,
    action_seed: int = 0,
    parallel: bool = False,
) -> Counter:
    """The kit's ``compare_opponent`` (one scalar ``HeuristicAgent`` for every seat: it draws nothing); returns the
    decisions compared, by phase, deal kind and lead or follow."""
    agent = HeuristicAgent(low_card_share=low_card_share)
    return compare_opponent(
        "raspisnoy_poker", options, seeds, steps, opponent or HeuristicOpponent(low_card_share=low_card_share),
        lambda row, seat: agent, kind=lambda game, action: decision_kind(game), action_seed=action_seed,
        parallel=parallel,
    )  # fmt: skip


def _id(config) -> str:
    return ",".join(f"{k}={v}" for k, v in config[0].items())


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_the_batched_heuristic_decides_as_the_scalar_one(config):
    options, rows, steps = config
    seen = compare_heuristics(options, range(rows), steps)
    assert sum(seen.values()) == rows * steps
    kinds = {k for _, k in options["schedule"]} if isinstance(options["schedule"], list) else {"normal", "forehead"}
    assert {k.split(":")[1] for k in seen} >= kinds
    assert any(k.startswith("bid:") for k in seen) and any(k.endswith(":lead") for k in seen)


def test_forehead_decisions_are_all_covered():
    seen = compare_heuristics({"num_players": 5, "schedule": [(1, "forehead")]}, range(60), 40)
    assert {"bid:forehead", "play:forehead:lead", "declare:forehead:lead", "declare:forehead:follow"} <= set(seen)


def test_another_low_card_share():
    seen = compare_heuristics({"schedule": "single", "num_players": 3}, range(24), 60, low_card_share=0.45)
    assert seen["bid:normal"] > 0


def test_the_parallel_loop_decides_the_same():
    rows = PARALLEL_MIN_ROWS + 20  # enough rows for the parallel loop to be used
    seen = compare_heuristics({"schedule": "single", "num_players": 5}, range(rows), 8, parallel=True)
    assert sum(seen.values()) == rows * 8


def test_the_comparison_catches_a_different_decision():
    # A batched heuristic with another parameter bids differently somewhere: the check must notice.
    with pytest.raises(AssertionError, match=r"step \d+: batched \d+"):
        compare_heuristics({"schedule": [(13, "normal")]}, range(24), 8, opponent=HeuristicOpponent(low_card_share=3.0))


def test_it_plays_opponent_seats_and_only_raspisnoy():
    env = batched.make("raspisnoy_poker", 16, schedule="single")
    seats = LearnerSeats(env, HeuristicOpponent(), seat=0, seed=0)
    _, mask = seats.reset(seed=3)[:2]
    rng = np.random.default_rng(0)
    for _ in range(30):
        _, mask, *_ = seats.step(random_legal(rng, mask))
        assert (env.current_player == 0).all() and np.array_equal(mask, seats.action_masks())
    with pytest.raises(TypeError, match="plays Raspisnoy poker"):
        HeuristicOpponent().act(batched.make("caribbean_stud", 2), np.arange(2))


def test_a_tiny_maskable_ppo_run_learns_against_heuristic_opponents():
    venv = BatchedVecEnv("raspisnoy_poker", 8, opponents=HeuristicOpponent(), seed=0, schedule="single")
    model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256 and venv.seats.episodes > 0
    assert venv.observation_space.contains(venv.reset()[0])


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_the_batched_heuristic_decides_as_the_scalar_one_100k_decisions(config):
    options, rows, _ = config
    seen = compare_heuristics(options, range(5000, 5000 + 2 * rows), -(-100_000 // (2 * rows)), action_seed=1)
    assert sum(seen.values()) >= 100_000
