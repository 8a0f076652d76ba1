"""The batched Mexican heuristic (``agents.batched.mexican_poker``) against the scalar ``MexicanHeuristicAgent``.

Row r, seat s of the batched opponent draws from ``default_rng([seed, r, s])``;
beside it, a scalar agent per (row, seat) whose ``rng`` is that generator sees
the same view (the differential kit proves the two states equal, and this
test checks the player and the mask again) and must make the same decision at
every step: predictions and doubts from the same sampled play-outs, plays by
the same ties. The rows mix heuristic and random moves (row r: the heuristic's
move with probability 1, 0.5 or 0 by r mod 3), so the states include the
heuristic's own rounds and the odd states random play reaches; both sides
decide at every step, so their generators stay in step. Every option and 2 to
7 players are covered; under ``slow`` each configuration compares >= 100,000
decisions.

The ``"fast"`` sampler deals its samples otherwise (only the opponents' cards,
from fewer draws), so its predictions and doubts are compared in
distribution: on many prediction and doubt states, each held by ``REPEATS``
rows with distinct generators, every action's frequency under the fast
sampler and under the scalar one differ by less than ``Z_TOLERANCE``
standard errors of their difference (pooled binomial); a clearly different
agent (fewer samples) fails the same check. Plays draw nothing: the fast
sampler plays as the scalar one, checked decision by decision.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest

from pokerzoo.agents.batched import batched_agents
from pokerzoo.agents.batched.mexican_poker import HeuristicOpponent, new_scratch, row_generator, set_order
from pokerzoo.agents.mexican_poker import MexicanHeuristicAgent
from pokerzoo.envs import batched
from pokerzoo.envs.batched.core import PARALLEL_MIN_ROWS
from pokerzoo.envs.batched.seats import LearnerSeats
from pokerzoo.envs.batched.testing import (
    assert_same_decision_distribution,
    compare_opponent,
    largest_frequency_z,
    random_legal,
)
from pokerzoo.envs.mexican_poker import combos
from pokerzoo.envs.mexican_poker.kernel import DOUBT, PREDICT

CONFIGS = [
    ({"num_players": 2, "rounds": 3}, 24, 80),
    ({"num_players": 3, "doubt_pass": True, "rounds": 2}, 24, 80),
    ({"rounds": 2}, 24, 80),
    ({"num_players": 5, "doubt_chips": False, "rounds": 2, "reward": "win"}, 18, 80),
    ({"num_players": 7, "doubt_pass": True, "rounds": 1}, 12, 100),
    ({"num_players": 6, "corner_table": "0" * 65, "rounds": 1}, 12, 100),  # seven-card hands
    ({"num_players": 4, "corner_table": [(5, 3)] * 65, "rounds": 2}, 24, 80),  # five-card boards
]


def compare_heuristics(
    options: Mapping[str, Any],
    seeds: Sequence[int],
    steps: int,
    *,
    samples: int = 4,
    seed: int = 0,
    opponent: HeuristicOpponent | None = None,
    action_seed: int = 0,
    parallel: bool = False,
) -> Counter:
    """The kit's ``compare_opponent`` against the scalar twin of each (row, seat); returns the decisions compared,
    by phase (plays as lead or follow)."""
    return compare_opponent(
        "mexican_poker", options, seeds, steps, opponent or HeuristicOpponent(seed=seed, samples=samples),
        HeuristicOpponent(seed, samples).scalar_twin, kind=_phase, action_seed=action_seed, parallel=parallel,
    )  # fmt: skip


REPEATS = 500  # rows holding each state in the distribution test
Z_TOLERANCE = 4.5


def _phase(game, action: int) -> str:
    return game.phase if game.phase != "play" else ("play:lead" if not game.trick else "play:follow")


def _id(config) -> str:
    return ",".join(f"{k}={v if len(str(v)) < 12 else str(v)[:8] + '…'}" for k, v in config[0].items())


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_the_batched_heuristic_decides_as_the_scalar_one(config):
    options, rows, steps = config
    seen = compare_heuristics(options, range(rows), steps)
    assert sum(seen.values()) == rows * steps
    assert seen["predict"] > 0 and seen["play:lead"] > 0 and seen["play:follow"] > 0
    assert (seen["doubt"] > 0) == options.get("doubt_chips", True)


def test_the_default_sample_count_decides_the_same():
    seen = compare_heuristics({"num_players": 4, "rounds": 1}, range(12), 40, samples=16, seed=7)
    assert seen["predict"] > 0 and seen["doubt"] > 0


def test_the_parallel_loop_decides_the_same():
    rows = PARALLEL_MIN_ROWS + 20  # enough rows for the parallel loop to be used
    seen = compare_heuristics({"num_players": 3, "rounds": 1}, range(rows), 8, parallel=True)
    assert sum(seen.values()) == rows * 8


def test_the_comparison_catches_a_different_decision():
    # The same agent from other generators predicts differently somewhere: the check must notice.
    with pytest.raises(AssertionError, match=r"step \d+: batched \d+"):
        compare_heuristics({"num_players": 3}, range(24), 8, opponent=HeuristicOpponent(seed=1, samples=4))


def test_the_twins_are_the_scalar_agent_on_the_row_seat_generators():
    twin = HeuristicOpponent(seed=5, samples=3).scalar_twin(2, 1)
    assert isinstance(twin, MexicanHeuristicAgent) and twin.samples == 3
    assert twin.rng.bit_generator.state == row_generator(5, 2, 1).bit_generator.state
    assert batched_agents("mexican_poker")["heuristic"] is HeuristicOpponent


def test_set_order_is_cpythons():
    rng = np.random.default_rng(0)
    sc = new_scratch(1, 1)
    for trial in range(300):
        board_size = 1 + trial % 5
        dealt = rng.choice(np.arange(65).reshape(5, 13)[:, : 4 + trial % 9].ravel(), 8, replace=False)
        hand = sorted(dealt[: 8 - board_size].tolist(), key=lambda c: (c % 13, c // 13))
        board = sorted(dealt[8 - board_size :].tolist(), key=lambda c: (c % 13, c // 13))
        bits = combos.legal_bits(hand, board)
        table = np.zeros((len(bits), 2), dtype=np.int64)
        table[:, 0] = bits
        m = set_order(table, len(bits), sc.table[0], sc.where[0], sc.order[0])
        assert [bits[k] for k in sc.order[0, :m]] == list(set(bits))


def test_it_plays_opponent_seats_and_only_mexican_poker():
    env = batched.make("mexican_poker", 16, num_players=3)
    seats = LearnerSeats(env, HeuristicOpponent(seed=0, samples=2), seat=0, seed=0)
    _, mask = seats.reset(seed=3)[:2]
    rng = np.random.default_rng(0)
    for _ in range(30):
        _, mask, *_ = seats.step(random_legal(rng, mask))
        assert (env.current_player == 0).all() and np.array_equal(mask, seats.action_masks())
    with pytest.raises(TypeError, match="plays Mexican poker"):
        HeuristicOpponent().act(batched.make("caribbean_stud", 2), np.arange(2))
    for bad in (0, True, 2.5):
        with pytest.raises(ValueError, match="samples"):
            HeuristicOpponent(samples=bad)
    with pytest.raises(ValueError, match="sampler='exact': expected one of scalar, fast"):
        HeuristicOpponent(sampler="exact")
    with pytest.raises(ValueError, match="seed"):
        HeuristicOpponent(seed=-1)


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_the_batched_heuristic_decides_as_the_scalar_one_100k_decisions(config):
    options, rows, _ = config
    seen = compare_heuristics(options, range(5000, 5000 + 2 * rows), -(-100_000 // (2 * rows)), action_seed=1, seed=3)
    assert sum(seen.values()) >= 100_000


# ---------------------------------------------------------------- the fast sampler, in distribution
def decisions_on_shared_states(options: dict, seed: int, states: int, opponents: list[HeuristicOpponent]):
    """Each opponent's decisions on the first ``states`` prediction and doubt states of games from ``seed``, each
    state held by ``REPEATS`` rows (the same seed, the same random legal actions) with the opponent's distinct
    (row, seat) generators."""
    env = batched.make("mexican_poker", REPEATS, **options)
    env.reset(seed=[seed] * REPEATS)
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < states:
        if env.state.phase[0] in (PREDICT, DOUBT):
            out.append([opponent.act(env, env.all_rows) for opponent in opponents])
        env.step(np.full(REPEATS, int(rng.choice(np.flatnonzero(env.mask[0])))))
    return out


@pytest.mark.parametrize("options", [{"num_players": 4, "rounds": 2}, {"num_players": 3, "doubt_pass": True}], ids=str)
def test_the_fast_sampler_decides_with_the_scalar_samplers_distribution(options):
    exact, fast = HeuristicOpponent(seed=1), HeuristicOpponent(seed=2, sampler="fast")
    other = HeuristicOpponent(seed=3, sampler="fast", samples=1)
    states = [s for seed in (0, 1, 2) for s in decisions_on_shared_states(options, seed, 8, [exact, fast, other])]
    assert_same_decision_distribution(states, Z_TOLERANCE)


@pytest.mark.slow
@pytest.mark.parametrize("options", [{}, {"num_players": 7, "doubt_pass": True}, {"num_players": 2}], ids=str)
def test_the_fast_sampler_decides_with_the_scalar_samplers_distribution_on_many_states(options):
    exact, fast = HeuristicOpponent(seed=1), HeuristicOpponent(seed=2, sampler="fast")
    states = [pair for seed in range(8) for pair in decisions_on_shared_states(options, seed, 14, [exact, fast])]
    z = [largest_frequency_z(e, f) for e, f in states]
    assert max(z) < Z_TOLERANCE, z


def test_the_fast_sampler_plays_as_the_scalar_one():
    env = batched.make("mexican_poker", 64, num_players=4)
    env.reset(seed=5)
    exact, fast = HeuristicOpponent(seed=1), HeuristicOpponent(seed=1, sampler="fast")
    plays = 0
    for _ in range(60):
        a, b = exact.act(env, env.all_rows), fast.act(env, env.all_rows)
        playing = (env.state.phase != PREDICT) & (env.state.phase != DOUBT)
        assert np.array_equal(a[playing], b[playing])
        plays += playing.sum()
        env.step(a)
    assert plays > 1000
