"""The batched Perico heuristic (``agents.batched.perico``) against the scalar ``PericoHeuristicAgent``.

With the ``"scalar"`` sampler, in every row of a batched env and a scalar env
played side by side (the differential kit proves the two states equal), the
batched decision must be the decision of the scalar agent of that seat (its
``scalar_twin``: the same parameters, the same generator) on the same view
and mask, at every step, and the two generators must be in the same state
after it. Rows play a mix of heuristic and random moves (row r: the
heuristic's move with probability 1, 0.5 or 0 by r mod 3), so the states
include the heuristic's own games and the odd states random play reaches.
Both variants, both decks, ``jokers_in_five_of_a_kind`` and 2 to 6 players
are covered, and other agent parameters; under ``slow`` each configuration
compares >= 10,000 decisions (the scalar agent takes about a millisecond a
decision).

The ``"fast"`` sampler draws its samples otherwise, so its decisions are
compared in distribution: on many states, each held by ``REPEATS`` rows with
distinct generators, every action's frequency under the fast sampler and
under the scalar one differ by less than ``Z_TOLERANCE`` standard errors of
their difference (pooled binomial); a clearly different agent fails the same
check.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest
from sb3_contrib import MaskablePPO

from pokerzoo.agents.batched.perico import HeuristicOpponent
from pokerzoo.envs import batched
from pokerzoo.envs.batched import loading
from pokerzoo.envs.batched.core import PARALLEL_MIN_ROWS
from pokerzoo.envs.batched.sb3 import BatchedVecEnv
from pokerzoo.envs.batched.seats import LearnerSeats
from pokerzoo.envs.batched.testing import (
    assert_same_decision_distribution,
    compare_opponent,
    largest_frequency_z,
    random_legal,
)
from pokerzoo.envs.batched.testing import decisions_on_shared_states as shared_states
from pokerzoo.envs.perico.actions import DISCARD0, DRAW, KNOCK
from pokerzoo.envs.perico.game import PericoGame

CONFIGS = [
    ({}, 12, 14),
    ({"num_players": 2}, 12, 14),
    ({"num_players": 6, "deck": "56"}, 12, 10),
    ({"num_players": 3, "jokers_in_five_of_a_kind": False, "max_turns_per_round": 6}, 12, 12),
    ({"six_card": True, "num_players": 2}, 9, 12),
    ({"six_card": True, "num_players": 5, "deck": "54"}, 9, 10),
]
REPEATS = 600  # rows holding each state in the distribution test
Z_TOLERANCE = 4.5


def decision_kind(game, action: int) -> str:
    if game.phase == "knock":
        return "knock" if action == KNOCK else "play on"
    if game.phase == "discard":
        return "discard drawn" if action == DISCARD0 + game.hand_size else "discard held"
    return "draw" if action == DRAW else "exchange"


def compare_heuristics(
    options: Mapping[str, Any],
    seeds: Sequence[int],
    steps: int,
    *,
    opponent: HeuristicOpponent | None = None,
    twins: HeuristicOpponent | None = None,
    action_seed: int = 0,
) -> Counter:
    """The kit's ``compare_opponent`` against the scalar twin of the acting seat (``twins``' twins; default
    ``opponent``'s), the two generators compared after every decision; returns the decisions compared, by kind."""
    opponent = opponent or HeuristicOpponent(seed=11)
    twins = twins or opponent

    def same_generators(row: int, seat: int, agent) -> None:
        if opponent.generator_state(row, seat) != agent.rng.bit_generator.state:
            raise AssertionError(f"{dict(options)}: row {row}: the generators differ after the decision")

    return compare_opponent(
        "perico", options, seeds, steps, opponent, twins.scalar_twin, kind=decision_kind,
        check=same_generators, action_seed=action_seed,
    )  # fmt: skip


def _id(config) -> str:
    return ",".join(f"{k}={v}" for k, v in config[0].items()) or "defaults"


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_the_batched_heuristic_decides_as_the_scalar_one(config):
    options, rows, steps = config
    seen = compare_heuristics(options, range(rows), steps)
    assert sum(seen.values()) == rows * steps
    assert {"draw", "exchange", "discard held"} <= set(seen)


def test_every_kind_of_decision_and_other_parameters():
    seen = compare_heuristics({"num_players": 3}, range(24), 24)
    assert {"knock", "play on", "draw", "exchange", "discard held", "discard drawn"} <= set(seen), seen
    other = HeuristicOpponent(seed=5, knock_threshold=0.55, knock_samples=40, turn_samples=9, discard_samples=3)
    seen = compare_heuristics({"num_players": 4, "six_card": True}, range(12), 16, opponent=other)
    assert {"knock", "play on", "exchange"} <= set(seen), seen
    many = HeuristicOpponent(seed=6, knock_samples=30, turn_samples=130, discard_samples=140)  # > 128: split sums
    compare_heuristics({"num_players": 2}, range(6), 6, opponent=many)


def test_the_comparison_catches_a_different_decision():
    with pytest.raises(AssertionError, match=r"batched heuristic|generators differ"):
        compare_heuristics({"num_players": 3}, range(12), 8, twins=HeuristicOpponent(seed=12))


@pytest.mark.slow
def test_the_parallel_loop_decides_the_same():
    rows = PARALLEL_MIN_ROWS + 20  # enough rows for the parallel loop to be used
    serial, parallel = batched.make("perico", rows), batched.make("perico", rows, parallel=True)
    a, b = HeuristicOpponent(seed=3), HeuristicOpponent(seed=3)
    serial.reset(seed=0)
    parallel.reset(seed=0)
    for _ in range(6):
        chosen = a.act(serial, serial.all_rows)
        assert np.array_equal(chosen, b.act(parallel, parallel.all_rows))
        serial.step(chosen)
        parallel.step(chosen)
    assert np.array_equal(a.generators(rows), b.generators(rows))


# ---------------------------------------------------------------- the fast sampler, in distribution
def decisions_on_shared_states(options: dict, seed: int, states: int, opponents: list[HeuristicOpponent]):
    return shared_states("perico", options, seed, states, opponents, REPEATS)


@pytest.mark.parametrize("options", [{"num_players": 3}, {"six_card": True, "num_players": 2}], ids=str)
def test_the_fast_sampler_decides_with_the_scalar_samplers_distribution(options):
    exact, fast = HeuristicOpponent(seed=1), HeuristicOpponent(seed=2, sampler="fast")
    other = HeuristicOpponent(seed=3, sampler="fast", knock_samples=3, turn_samples=2, discard_samples=1)
    states = [s for seed in (0, 1) for s in decisions_on_shared_states(options, seed, 10, [exact, fast, other])]
    assert_same_decision_distribution(states, Z_TOLERANCE)


@pytest.mark.slow
@pytest.mark.parametrize("options", [{}, {"num_players": 6}, {"six_card": True, "num_players": 4}], ids=str)
def test_the_fast_sampler_decides_with_the_scalar_samplers_distribution_on_many_states(options):
    exact, fast = HeuristicOpponent(seed=1), HeuristicOpponent(seed=2, sampler="fast")
    states = [pair for seed in range(6) for pair in decisions_on_shared_states(options, seed, 25, [exact, fast])]
    z = [largest_frequency_z(e, f) for e, f in states]
    assert max(z) < Z_TOLERANCE, z


# ---------------------------------------------------------------- as an opponent
def test_it_plays_opponent_seats_and_only_perico():
    env = batched.make("perico", 16, num_players=3)
    seats = LearnerSeats(env, HeuristicOpponent(sampler="fast"), seat=0, seed=0)
    _, mask = seats.reset(seed=3)[:2]
    rng = np.random.default_rng(0)
    for _ in range(30):
        _, mask, *_ = seats.step(random_legal(rng, mask))
        assert (env.current_player == 0).all() and np.array_equal(mask, seats.action_masks())
    with pytest.raises(TypeError, match="plays Perico"):
        HeuristicOpponent().act(batched.make("caribbean_stud", 2), np.arange(2))


def test_bad_parameters_are_named():
    with pytest.raises(ValueError, match="sampler='exact'"):
        HeuristicOpponent(sampler="exact")
    with pytest.raises(ValueError, match="knock_threshold"):
        HeuristicOpponent(knock_threshold=1.5)
    with pytest.raises(ValueError, match="turn_samples must be an int >= 1"):
        HeuristicOpponent(turn_samples=0)


def test_a_tiny_maskable_ppo_run_learns_against_heuristic_opponents():
    venv = BatchedVecEnv("perico", 8, opponents=HeuristicOpponent(sampler="fast"), seed=0, num_players=2)
    model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    assert venv.observation_space.contains(venv.reset()[0])


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_the_batched_heuristic_decides_as_the_scalar_one_10k_decisions(config):
    options, rows, _ = config
    seen = compare_heuristics(options, range(5000, 5000 + 2 * rows), -(-10_000 // (2 * rows)), action_seed=1)
    assert sum(seen.values()) >= 10_000


def test_row_seeds_give_each_row_one_generator_like_one_scalar_agent_playing_every_seat():
    """``seed([s0, s1, ...])``: row r decides as one ``PericoHeuristicAgent`` seeded ``s_r`` deciding every seat
    of its game in turn (a search's rollout agent), its generator left in the same state."""
    games = [PericoGame(seed=40 + r, num_players=n) for r, n in enumerate((4, 4, 4))]
    seeds = [7, 2**64 - 1, 123456789]
    opponent = HeuristicOpponent(seed=seeds, knock_samples=30, turn_samples=6, discard_samples=3)
    scalars = [opponent.scalar_twin(r, 0) for r in range(3)]
    env = batched.make("perico", 3, num_players=4)
    loading.load_games(env, env.all_rows, [g.clone() for g in games])
    seen = set()
    for _ in range(40):
        chosen = opponent.act(env, env.all_rows)
        for r, g in enumerate(games):
            assert chosen[r] == scalars[r].act(g.view(g.current_player), g.legal_mask(), g)
            assert opponent.generator_state(r, g.current_player) == scalars[r].rng.bit_generator.state
            seen.add(g.phase)
            g.apply(int(chosen[r]))
        env.step(chosen)
    assert seen == {"knock", "turn", "discard"}
    with pytest.raises(ValueError, match="2 row seeds given for an env of 3 rows"):
        HeuristicOpponent(seed=[1, 2]).act(env, env.all_rows)
    with pytest.raises(ValueError, match=r"row seeds must be ints in 0\.\.2"):
        HeuristicOpponent(seed=[-1])
