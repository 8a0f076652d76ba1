"""``pimc_batched``: PIMC with its playouts in the batched engine (``agents/search_batched.py``), Breed the Heifer.

With the scalar sampler its rollouts make the scalar equity bettor's very
draws, so it must compute the scalar ``pimc``'s values and make its choices
exactly, seeded alike: the scalar search is the brute force it is checked
against. With the fast sampler it is reproducible from its seed, and its
values agree with the scalar search's within their sampling error.
"""

from __future__ import annotations

import numpy as np
import pytest

from pokerzoo.agents.registry import make_agent
from pokerzoo.agents.search_batched import BatchedPimcAgent
from pokerzoo.envs.breed_the_heifer.game import BreedTheHeiferGame

GAME = "breed_the_heifer"


def decision_states(config: dict, count: int, seed: int = 0) -> list[BreedTheHeiferGame]:
    """Decisions with a choice, reached by the equity bettor playing every seat."""
    agent = make_agent(GAME, "equity(simulations=40)", seed=seed)
    states, game_seed = [], seed
    while len(states) < count:
        g = BreedTheHeiferGame(seed=game_seed, **config)
        game_seed += 1
        while not g.is_over and len(states) < count:
            mask = g.legal_mask()
            if np.count_nonzero(mask) > 1 and len(g.history) % 2 == 0:
                states.append(g.clone())
            g.apply(agent.act(g.view(g.current_player), mask, g))
    return states


@pytest.mark.parametrize(
    "config", [{"num_players": 2}, {"num_players": 4, "wild_pairs": "any_player", "num_hands": 3}], ids=str
)
def test_with_the_scalar_sampler_it_is_the_scalar_pimc_exactly(config):
    states = decision_states(config, 8)
    scalar = make_agent(GAME, "pimc(budget=24)", seed=3)
    batched = make_agent(GAME, "pimc_batched(budget=24, sampler=scalar)", seed=3)
    for g in states:
        view, mask = g.view(g.current_player), g.legal_mask()
        assert batched.act(view, mask, g) == scalar.act(view, mask, g)
        assert batched.decision_details() == scalar.decision_details()
        assert batched.last_worlds == scalar.last_worlds


def test_the_spec_defaults_are_the_scalar_pimcs():
    scalar, batched = make_agent(GAME, "pimc"), make_agent(GAME, "pimc_batched")
    assert isinstance(batched, BatchedPimcAgent)
    assert (batched.budget, batched.paired_rollouts, batched.rollout.name) == (
        scalar.budget,
        scalar.paired_rollouts,
        scalar.rollout.name,
    )
    assert batched.sampler == "fast"


def test_reproducible_from_its_seed():
    states = decision_states({"num_players": 3}, 6, seed=1)
    for paired in ("true", "false"):
        spec = f"pimc_batched(budget=60, paired_rollouts={paired})"
        a, b = make_agent(GAME, spec, seed=9), make_agent(GAME, spec, seed=9)
        first = []
        for g in states:
            view, mask = g.view(g.current_player), g.legal_mask()
            assert a.act(view, mask, g) == b.act(view, mask, g)
            assert a.decision_details() == b.decision_details()
            first.append(a.decision_details())
        a.seed(9)  # reseeding (as the harness does before every game) replays the same decisions
        assert [a.act(g.view(g.current_player), g.legal_mask(), g) is not None and a.decision_details()
                for g in states] == first  # fmt: skip


def test_the_fast_sampler_agrees_with_the_scalar_search_within_sampling_error():
    """Mean returns of every candidate, fast batched vs scalar pimc, over many worlds: within 5 standard errors."""
    states = decision_states({"num_players": 2}, 3, seed=4)
    scalar = make_agent(GAME, "pimc(budget=400)", seed=1)
    fast = make_agent(GAME, "pimc_batched(budget=400)", seed=2)
    for g in states:
        me = g.current_player
        candidates = np.flatnonzero(g.legal_mask()).tolist()
        worlds = 400 // len(candidates)
        a = scalar.values(g, me, candidates, 400) / worlds
        b = fast.values(g, me, candidates, 400) / worlds
        # returns of one candidate over a world spread by some 10 chips heads-up: a standard error under 1
        assert np.all(np.abs(a - b) < 5 * 12 / np.sqrt(worlds)), (a, b)


def test_plays_whole_games_as_a_player_and_in_composites():
    for spec in ("pimc_batched(budget=16)", "pimc_batched(budget=16)+equity", "equity+pimc_batched(min_samples=2)"):
        agents = [make_agent(GAME, spec, seed=0), make_agent(GAME, "equity", seed=1)]
        g = BreedTheHeiferGame(seed=5, num_players=2, num_hands=2)
        while not g.is_over:
            p = g.current_player
            g.apply(agents[p].act(g.view(p), g.legal_mask(), g))
        assert sum(g.total_rewards) == 0


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("pimc_batched(depth=3)", "pimc_batched has no argument 'depth'; its arguments: budget"),
        ("pimc_batched(budget=-3)", r"budget=-3 is out of range; expected an int in 1\.\.10000000"),
        ("pimc_batched(seconds=2)", "seconds=2: pimc_batched plays all its worlds in one batch"),
        ("pimc_batched(horizon=episode)", "horizon='episode': pimc_batched searches to the end of the unit only"),
        ("pimc_batched(paired_rollouts=3)", "paired_rollouts=3"),
        ("pimc_batched(sampler=3)", "sampler=3"),
    ],
)
def test_bad_arguments_are_named(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(GAME, spec)


def test_bad_rollouts_and_samplers_are_named_at_the_first_decision():
    g = decision_states({"num_players": 2}, 1)[0]
    view, mask = g.view(g.current_player), g.legal_mask()
    agent = make_agent(GAME, "pimc_batched(rollout=random)")
    with pytest.raises(ValueError, match="rollout 'random' has no batched port in breed_the_heifer; ported agents: "
                                         "equity, calling_station"):
        agent.act(view, mask, g)
    # the calling station has a port: it rolls out
    assert mask[make_agent(GAME, "pimc_batched(rollout=calling_station, budget=40)", seed=1).act(view, mask, g)]
    agent = make_agent(GAME, "pimc_batched(sampler=exact)")
    with pytest.raises(ValueError, match="sampler='exact': expected one of scalar, fast"):
        agent.act(view, mask, g)


def test_it_reads_no_hidden_card():
    """Two games with the same view and other hidden cards: the same values and choice, seeded alike."""
    for g in decision_states({"num_players": 3}, 4, seed=6):
        me = g.current_player
        other = g.determinize(me, np.random.default_rng(99))  # the same view, the hidden cards re-dealt
        assert other.view(me) == g.view(me) and other.down != g.down
        a, b = make_agent(GAME, "pimc_batched(budget=30)", seed=4), make_agent(GAME, "pimc_batched(budget=30)", seed=4)
        assert a.act(g.view(me), g.legal_mask(), g) == b.act(other.view(me), other.legal_mask(), other)
        assert a.decision_details() == b.decision_details()
