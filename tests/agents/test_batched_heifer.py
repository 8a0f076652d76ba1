"""The batched Heifer equity agent (``agents.batched.breed_the_heifer``) against the scalar ``EquityAgent``.

Row r of a batched env and a scalar env play side by side (the differential
kit proves the two states equal); at every step the batched opponent decides
every row and row r's scalar ``EquityAgent(seed=s + r)`` decides the same
state: the two must choose the same action from the same equity estimate,
bit for bit, because the batched agent draws from row r's generator exactly
what the scalar agent draws. The rows play a mix of the agent's moves and
random ones (row r: the agent's with probability 1, 0.5 or 0 by r mod 3), so
the states include its own games and the odd states random play reaches.
Every street, both wild rules, both flush rules, 2 to 7 players, short stacks
(all-ins, side pots) and several hands per episode are covered; under
``slow`` the agent runs its default 200 simulations and each configuration
compares >= 10,000 decisions.

The ``"fast"`` sampler deals its simulations otherwise, so its decisions are
compared in distribution with the scalar sampler's (which are the scalar
agent's, bit for bit, by the tests above): on many states, each held by
``REPEATS`` rows with distinct generators, every action's frequency under
the two samplers differs by less than ``Z_TOLERANCE`` standard errors of the
difference (pooled binomial); a clearly different agent fails the same check.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest

from pokerzoo.agents.batched import batched_agents
from pokerzoo.agents.batched.breed_the_heifer import STOP_Z, CallingStationOpponent, EquityOpponent
from pokerzoo.agents.breed_the_heifer import CallingStationAgent, EquityAgent
from pokerzoo.envs import batched
from pokerzoo.envs.batched import rng
from pokerzoo.envs.batched.core import PARALLEL_MIN_ROWS
from pokerzoo.envs.batched.sb3 import BatchedVecEnv
from pokerzoo.envs.batched.testing import (
    assert_same_decision_distribution,
    compare_opponent,
    largest_frequency_z,
    scalar_env_class,
)
from pokerzoo.envs.batched.testing import decisions_on_shared_states as shared_states
from pokerzoo.envs.breed_the_heifer.kernel import HeiferKernel

CONFIGS = [
    ({}, 30, 40),
    ({"num_players": 2}, 30, 40),
    ({"num_players": 3, "wild_pairs": "any_player", "double_ace_flush": True}, 30, 40),
    ({"num_players": 7, "wild_pairs": "any_player"}, 21, 40),
    ({"num_players": 4, "stacks": [3, 7, 50, 50], "num_hands": 5, "max_raises": 1}, 30, 40),
    ({"num_players": 6, "stacks": [4, 9, 15, 2, 30, 12], "num_hands": 8, "ante": 2, "small_bet": 1}, 30, 40),
]
GAME = "breed_the_heifer"
REPEATS = 600  # rows holding each state in the distribution tests
Z_TOLERANCE = 4.5


def _id(config) -> str:
    return ",".join(f"{k}={v}" for k, v in config[0].items()) or "defaults"


def compare_agents(
    options: Mapping[str, Any],
    seeds: Sequence[int],
    steps: int,
    *,
    simulations: int,
    agent_seed: int = 1000,
    action_seed: int = 0,
    parallel: bool = False,
) -> Counter:
    """The kit's ``compare_opponent`` against one scalar ``EquityAgent`` per row (seeded as the batched agent seeds
    that row), the equity estimates compared bit for bit after every decision; returns the decisions compared, by
    street and situation."""
    opponent = EquityOpponent(seed=agent_seed, simulations=simulations)
    agents: dict[int, EquityAgent] = {}

    def row_agent(row: int, seat: int) -> EquityAgent:
        return agents.setdefault(row, EquityAgent(seed=agent_seed + row, simulations=simulations, compiled=False))

    def same_equity(row: int, seat: int, agent: EquityAgent) -> None:
        assert opponent.last_equity[row] == agent.last_equity, (
            f"{dict(options)} row {row}: equity: scalar {agent.last_equity!r}, batched {opponent.last_equity[row]!r}"
        )

    def situation(game, action: int) -> str:
        return f"street {game.street}, {'check' if game.legal_mask()[0] == 0 else 'facing a bet'}"

    return compare_opponent(
        "breed_the_heifer", options, seeds, steps, opponent, row_agent, kind=situation, check=same_equity,
        action_seed=action_seed, parallel=parallel,
    )  # fmt: skip


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_the_same_decisions_as_the_scalar_agent_on_the_same_states(config):
    options, rows, steps = config
    seen = compare_agents(options, range(100, 100 + rows), steps, simulations=16)
    assert sum(seen.values()) == rows * steps
    assert {int(k.split()[1][0]) for k in seen} >= {3, 4, 5}, seen


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_the_same_decisions_with_200_simulations(config):
    options = config[0]
    seen = compare_agents(options, range(7000, 7000 + 64), 160, simulations=200, action_seed=3)
    assert sum(seen.values()) >= 10_000
    assert {int(k.split()[1][0]) for k in seen} == {3, 4, 5, 6, 7}, seen


@pytest.mark.slow
def test_the_parallel_decisions_are_the_serial_ones():
    rows = PARALLEL_MIN_ROWS + 20
    seen = compare_agents({"num_players": 4}, range(rows), 6, simulations=8, parallel=True)
    assert sum(seen.values()) == rows * 6


def test_seeds_give_each_row_the_scalar_agents_generator():
    env = batched.make("breed_the_heifer", 3)
    env.reset(seed=5)  # rows 0, 1, 2: seeds 5, 6, 7
    games = [scalar_env_class(HeiferKernel)() for _ in range(3)]
    for row, scalar in enumerate(games):
        scalar.reset(seed=5 + row)
    for seed, row_seeds in ((7, [7, 8, 9]), ([4, 40, 400], [4, 40, 400])):
        opponent = EquityOpponent(seed=seed, simulations=3)
        opponent.act(env, np.array([0, 2]))  # row 1 is not asked: its generator does not move
        for row, s in enumerate(row_seeds):
            agent = EquityAgent(seed=s, simulations=3, compiled=False)
            if row != 1:
                game = games[row].game
                agent.act(game.view(game.current_player), game.legal_mask(), game)
            assert rng.state_from_words(opponent._words[row]) == agent.rng.bit_generator.state
    assert EquityOpponent(seed=None, simulations=1).act(env, env.all_rows).shape == (3,)
    # seeds beyond one 64-bit key are seeded one by one, as numpy seeds them
    words = EquityOpponent(seed=[2**64 - 1, 2**64, 2**70])._generators(3)
    assert all(rng.state_from_words(w) == np.random.default_rng(s).bit_generator.state
               for w, s in zip(words, (2**64 - 1, 2**64, 2**70)))  # fmt: skip


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="simulations"):
        EquityOpponent(simulations=0)
    with pytest.raises(TypeError, match="plays Breed the Heifer"):
        EquityOpponent().act(batched.make("caribbean_stud", 2), np.arange(2))
    with pytest.raises(ValueError, match="2 seeds given"):
        env = batched.make("breed_the_heifer", 3)
        env.reset(seed=0)
        EquityOpponent(seed=[1, 2]).act(env, np.array([2]))


def test_it_plays_the_opponent_seats_of_the_sb3_adapter():
    venv = BatchedVecEnv("breed_the_heifer", 8, opponents=EquityOpponent(seed=3, simulations=8), seed=0, num_players=3)
    venv.reset()
    for _ in range(20):
        masks = venv.action_masks()
        actions = np.array([np.flatnonzero(m)[0] for m in masks])
        venv.step_async(actions)
        venv.step_wait()
    assert venv.seats.episodes > 0


# ---------------------------------------------------------------- the fast sampler, in distribution
def decisions_on_shared_states(options: dict, seed: int, states: int, opponents: list[EquityOpponent]) -> list:
    return shared_states(GAME, options, seed, states, opponents, REPEATS)


DISTRIBUTION_OPTIONS = [
    {},
    {"num_players": 2},
    {"num_players": 7, "wild_pairs": "any_player", "double_ace_flush": True},
    {"num_players": 4, "stacks": [3, 7, 50, 50], "num_hands": 3},
]


@pytest.mark.parametrize("options", DISTRIBUTION_OPTIONS, ids=str)
def test_the_fast_sampler_decides_with_the_scalar_samplers_distribution(options):
    """Few simulations (12) make most decisions a draw of chance, which is what the check needs to see."""
    exact = EquityOpponent(seed=1, simulations=12)
    fast = EquityOpponent(seed=100_000, simulations=12, sampler="fast")
    other = EquityOpponent(seed=200_000, simulations=12, sampler="fast", bet_factor=1.6, raise_factor=2.0)
    states = [s for seed in (0, 1) for s in decisions_on_shared_states(options, seed, 24, [exact, fast, other])]
    assert_same_decision_distribution(states, Z_TOLERANCE, min_spread=10)


@pytest.mark.parametrize("stop_z", [0, STOP_Z])
def test_the_fast_sampler_with_200_simulations_and_its_early_stops(stop_z):
    """The default 200 simulations: the same distribution with the settled stop alone (stop_z 0) and with the
    statistical stop beside it, and both stop early."""
    exact = EquityOpponent(seed=1)
    fast = EquityOpponent(seed=100_000, sampler="fast", stop_z=stop_z)
    z, stopped = [], 0
    for e, f in decisions_on_shared_states({"num_players": 3}, 2, 20, [exact, fast]):
        z.append(largest_frequency_z(e, f))
        stopped += int((fast.last_simulations < 200).sum())
    assert max(z) < Z_TOLERANCE, z
    assert stopped > 0


def test_the_statistical_stop_changes_a_small_fraction_of_the_decisions_of_the_same_run():
    """The stated tolerance of ``STOP_Z``: on the same random stream, the run stopped by the statistical test
    decides as the run of all 200 simulations (stop_z 0: stopped only where no completion can change the
    decision) in all but at most 0.5% of decisions (about 0.2% measured), with at least a fifth fewer
    simulations; two independent full runs on the same states disagree twenty times as often (5-11%)."""
    rows, steps = 128, 24
    env = batched.make(GAME, rows)
    env.reset(seed=list(range(rows)))
    moves = np.random.default_rng(0)
    full, stopped, other = (EquityOpponent(sampler="fast", stop_z=z) for z in (0, STOP_Z, 0))
    decided = changed = disagree = 0
    runs = {"full": 0, "stopped": 0}
    for step in range(steps):
        for opponent, seed in ((full, 7), (stopped, 7), (other, 8)):
            opponent.seed(seed * 10**6 + step * rows)  # the same stream for full and stopped at every state
        a, b, c = (opponent.act(env, env.all_rows) for opponent in (full, stopped, other))
        live = full.last_simulations > 0
        decided += int(live.sum())
        changed += int((a != b).sum())
        disagree += int((a != c).sum())
        runs["full"] += int(full.last_simulations.sum())
        runs["stopped"] += int(stopped.last_simulations.sum())
        assert np.all(stopped.last_simulations <= full.last_simulations)
        env.step(np.array([moves.choice(np.flatnonzero(m)) for m in env.mask]))
    assert decided > 2000
    assert changed <= 0.005 * decided, (changed, decided)
    assert disagree >= 20 * max(changed, 1), (disagree, changed)
    assert runs["stopped"] <= 0.8 * runs["full"], runs


@pytest.mark.parametrize("stop_z", [-1, float("nan"), True, "3", 2e6])
def test_a_bad_stop_z_is_named(stop_z):
    with pytest.raises(ValueError, match=r"stop_z must be a number in 0..1e6"):
        EquityOpponent(sampler="fast", stop_z=stop_z)


@pytest.mark.slow
@pytest.mark.parametrize("options", [*DISTRIBUTION_OPTIONS, {"num_players": 5, "wild_pairs": "any_player"}], ids=str)
def test_the_fast_sampler_decides_with_the_scalar_samplers_distribution_on_many_states(options):
    exact, fast = EquityOpponent(seed=1, simulations=40), EquityOpponent(seed=10**6, simulations=40, sampler="fast")
    z = [
        largest_frequency_z(e, f)
        for seed in range(10, 16)
        for e, f in decisions_on_shared_states(options, seed, 40, [exact, fast])
    ]
    assert max(z) < Z_TOLERANCE, z


def test_a_bad_sampler_is_named():
    with pytest.raises(ValueError, match=r"sampler='exact': expected one of scalar, fast"):
        EquityOpponent(sampler="exact")


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_the_calling_station_decides_as_the_scalar_one(config):
    """The port checks or calls exactly where ``CallingStationAgent`` does, on every street and table of ``CONFIGS``
    (the rows' other moves random, so bets come up for it to call)."""
    options, rows, steps = config
    opponent = CallingStationOpponent(seed=0)
    seen = compare_opponent(
        GAME, options, range(300, 300 + rows), steps, opponent, lambda row, seat: CallingStationAgent(seed=row),
        kind=lambda game, action: "check" if game.legal_mask()[0] == 0 else f"facing a bet: {action}",
    )  # fmt: skip
    assert sum(seen.values()) == rows * steps
    assert {"check", "facing a bet: 2"} <= set(seen), seen  # checks and calls both compared


def test_the_calling_station_is_a_league_member_and_refuses_another_game():
    assert batched_agents(GAME)["calling_station"] is CallingStationOpponent
    env = batched.make("raspisnoy_poker", 2)
    env.reset(seed=0)
    with pytest.raises(TypeError, match="plays Breed the Heifer"):
        CallingStationOpponent(seed=0).act(env, env.all_rows)
