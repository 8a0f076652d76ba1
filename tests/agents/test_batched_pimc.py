"""``pimc`` for every row at once (``agents/batched/search.py``), Breed the Heifer.

Its worlds are re-dealt in the env's own rows, so the first check is that a
world made there is the scalar ``determinize``'s world loaded (every field,
the keys, observation and mask), given the same draws. Then, with the scalar
sampler, every decision of batched self-play must be the scalar ``pimc``'s
deciding the same row's states with the same seed (``scripted_agent_rates``,
the benchmark's check of every port against its scalar twin); and the errors.
"""

from __future__ import annotations

import numpy as np
import pytest

from pokerzoo.agents.batched import batched_agents, search
from pokerzoo.agents.batched.breed_the_heifer import HeiferPimcOpponent
from pokerzoo.agents.registry import make_agent
from pokerzoo.cli.batched_benchmarks import scripted_agent_rates
from pokerzoo.envs import batched
from pokerzoo.envs.breed_the_heifer import kernel_state
from pokerzoo.envs.breed_the_heifer.game import BreedTheHeiferGame
from pokerzoo.training.selfplay.league import member_opponent

GAME = "breed_the_heifer"
CONFIGS = [{"num_players": 2}, {"num_players": 5}, {"num_players": 4, "wild_pairs": "any_player", "num_hands": 3}]


def random_decisions(config: dict, count: int) -> list[BreedTheHeiferGame]:
    """Decisions at every street (and later hands), reached by random legal play."""
    rng = np.random.default_rng(11)
    states, seed = [], 0
    while len(states) < count:
        g = BreedTheHeiferGame(seed=seed, **config)
        seed += 1
        while not g.is_over:
            if rng.random() < 0.3:
                states.append(g.clone())
            g.apply(int(rng.choice(np.flatnonzero(g.legal_mask()))))
    return states[:count]


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_a_world_re_dealt_in_rows_is_the_scalar_determinize_loaded(config):
    for n, g in enumerate(random_decisions(config, 12)):
        me = g.current_player
        env = batched.make(GAME, 1, copy=False, **config)
        kernel_state.load_games(env, [0], [g])
        worlds = batched.make(GAME, 2, copy=False, **config)
        kernel_state.load_games(worlds, [1], [g.determinize(me, np.random.default_rng(n))], chance=False)
        draws = np.random.default_rng(n)
        kernel_state.copy_rows(env, np.array([0]), worlds, np.array([0]))
        places = kernel_state.hidden_places(env, 0, me)
        pool = np.sort(kernel_state.hidden_cards(env, 0, places))
        draws.integers(2**63 - 1)  # determinize's seed for the world's chance
        kernel_state.write_hidden(worlds, np.array([0]), places, pool[draws.permutation(pool.size)][None])
        kernel_state.finish_rows(worlds, np.array([0]))
        for name in kernel_state.FIELDS:
            np.testing.assert_array_equal(getattr(worlds.state, name)[0], getattr(worlds.state, name)[1], name)
        live = worlds.state.folded[0] == 0  # the kernel keeps the keys of the seats still in only
        np.testing.assert_array_equal(worlds.state.key[0, live], worlds.state.key[1, live])
        np.testing.assert_array_equal(worlds.out.obs[0], worlds.out.obs[1])
        np.testing.assert_array_equal(worlds.out.mask[0], worlds.out.mask[1])
        assert worlds.out.player[0] == worlds.out.player[1] == me
        # and the re-deal moved only hidden cards: the seat's own cards and every up card stay
        assert (worlds.state.cards[0, me] == env.state.cards[0, me]).all()
        assert (worlds.state.cards[0, :, 2:6] == env.state.cards[0, :, 2:6]).all()


def test_with_the_scalar_sampler_every_decision_is_the_scalar_pimcs():
    # 6 rows of batched self-play, 5 steps: each decision must be make_agent("pimc", seed=1000 + row)'s there
    rates = scripted_agent_rates(GAME, 6, 5, agent="pimc", variant={"sampler": "scalar"}, seconds=1e9)
    assert rates["scalar_decisions"] == 30


def test_the_defaults_are_the_scalar_pimcs_and_the_league_seats_it():
    scalar, port = make_agent(GAME, "pimc"), HeiferPimcOpponent()
    assert (port.budget, port.min_samples, port.rollout, port.sampler) == (
        scalar.budget, scalar.min_samples, scalar.rollout.name, "fast",
    )  # fmt: skip
    assert scalar.paired_rollouts and batched_agents(GAME)["pimc"] is HeiferPimcOpponent
    member = member_opponent(GAME, {}, "pimc(budget=8)")
    env = batched.make(GAME, 5, copy=False)
    env.reset(seed=4)
    actions = member.act(env, env.all_rows)
    assert all(env.out.mask[r, a] for r, a in zip(env.all_rows, actions, strict=True))
    assert member.last_rows == sum(max(4, 8 // int(m.sum())) * int(m.sum()) for m in env.out.mask)


def test_it_is_reproducible_from_its_seed_and_rows_differ():
    env = batched.make(GAME, 64, copy=False)
    env.reset(seed=1)
    runs = [HeiferPimcOpponent(seed=s, budget=12).act(env, env.all_rows) for s in (5, 5, 6)]
    np.testing.assert_array_equal(runs[0], runs[1])
    assert not np.array_equal(runs[0], runs[2])  # 64 searches of 4 worlds: some decisions change with the seed


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"budget": 0}, "budget=0"),
        ({"min_samples": 1.5}, "min_samples=1.5"),
        ({"paired_rollouts": False}, "paired_rollouts=False"),
        ({"rollout": 3}, "rollout=3"),
        ({"sampler": 2}, "sampler=2"),
    ],
)
def test_bad_arguments_are_refused_by_name(kwargs, message):
    with pytest.raises(ValueError, match=message):
        HeiferPimcOpponent(**kwargs)


def test_a_rollout_without_a_port_and_a_game_without_re_deals_are_refused_by_name():
    env = batched.make(GAME, 2, copy=False)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"pimc: rollout 'ismcts' has no batched port.*ported agents: equity"):
        HeiferPimcOpponent(rollout="ismcts").act(env, env.all_rows)
    perico = batched.make("perico", 2, copy=False)
    perico.reset(seed=0)
    with pytest.raises(ValueError, match="perico_v0's batched rows cannot be re-dealt"):
        HeiferPimcOpponent().act(perico, perico.all_rows)


def test_it_reads_only_what_its_seat_sees():
    # the same view with the hidden cards dealt otherwise (determinize): the same worlds, so the same decisions
    for n, g in enumerate(random_decisions({"num_players": 4}, 6)):
        me = g.current_player
        other = g.determinize(me, np.random.default_rng(100 + n))
        decided = []
        for game in (g, other):
            env = batched.make(GAME, 1, copy=False, num_players=4)
            kernel_state.load_games(env, [0], [game])
            port = HeiferPimcOpponent(seed=n, budget=16)
            decided.append((port.act(env, env.all_rows).tolist(), port.last_returns))
        assert decided[0][0] == decided[1][0]
        np.testing.assert_array_equal(decided[0][1], decided[1][1])  # every playout's return alike
        assert decided[0][1].size >= 8 and np.unique(decided[0][1]).size > 1


def test_searches_beyond_the_row_limit_are_played_in_turn_alike(monkeypatch):
    env = batched.make(GAME, 16, copy=False)
    env.reset(seed=2)
    whole = HeiferPimcOpponent(seed=3, budget=12)
    decided = whole.act(env, env.all_rows)
    monkeypatch.setattr(search, "MAX_ROWS", 40)  # a few decisions (12 to 24 rows each) per playout
    split = HeiferPimcOpponent(seed=3, budget=12)
    np.testing.assert_array_equal(split.act(env, env.all_rows), decided)
    np.testing.assert_array_equal(split.last_returns, whole.last_returns)
    assert split.last_rows == whole.last_rows > 40
    with pytest.raises(ValueError, match="one decision of 300 rows is over the limit of 40; lower budget"):
        HeiferPimcOpponent(budget=300).act(env, env.all_rows)
