"""Scalar Breed the Heifer games loaded into batched rows (``kernel_state``), against the scalar game step by step.

Games are taken mid-hand and mid-episode (random legal play from many seeds,
stopped at random depths), loaded, and then every row and its scalar game take
the same random legal actions to the end of the episode: the player to act,
the mask and the observation must agree bitwise at every step, and every
step's rewards (``testing.differential_from_games``). Every option that the
state depends on is covered; under ``slow`` thousands of states per option.
"""

from __future__ import annotations

import numpy as np
import pytest

from pokerzoo.envs import batched
from pokerzoo.envs.batched import loading, testing
from pokerzoo.envs.batched.testing import differential_from_games
from pokerzoo.envs.breed_the_heifer import kernel_state
from pokerzoo.envs.breed_the_heifer.game import BreedTheHeiferGame
from pokerzoo.envs.engine.cards import ScriptedChance

# options of the games loaded; together they cover every option (and hands no one can bet in, side pots, busts)
CONFIGS = [
    {"num_players": 2},
    {"num_players": 3, "wild_pairs": "any_player"},
    {"num_players": 4, "double_ace_flush": True, "max_raises": 1},
    {"num_players": 5},
    {"num_players": 5, "wild_pairs": "any_player", "num_hands": 4, "max_raises": 0, "action_counts": True},
    {"num_players": 6, "ante": 0, "small_bet": 3, "big_bet": 3},
    {"num_players": 7, "wild_pairs": "any_player", "double_ace_flush": True, "max_raises": 10},
    {"num_players": 4, "stacks": [3, 7, 50, 50], "num_hands": 5, "action_counts": True},
    {"num_players": 5, "stacks": [1, 2, 5, 12, 40], "num_hands": 20, "small_bet": 1, "big_bet": 10, "max_raises": 10},
    {"num_players": 3, "stacks": 12, "ante": 5, "num_hands": 10},
    {"num_players": 2, "stacks": 1_000_000_000, "ante": 999_999, "small_bet": 333_333, "big_bet": 1_000_000},
    {"num_players": 2, "stacks": 3, "num_hands": 50, "double_ace_flush": True},
]


def _id(config: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in config.items())


def mid_game_states(config: dict, count: int, seed: int, max_depth: int = 60) -> list[BreedTheHeiferGame]:
    """``count`` games of ``config`` stopped at a decision after 0..max_depth random legal moves."""
    return testing.mid_game_states(BreedTheHeiferGame, config, count, seed, max_depth)


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_loaded_games_play_like_the_scalar_game(config):
    games = mid_game_states(config, 40, seed=len(_id(config)))
    report = differential_from_games(games, action_seed=1)
    assert report.games == len(games)
    assert report.steps >= len(games)


def test_states_cover_later_streets_and_hands():
    """The states above are not all at the start: later streets, later hands, folded seats and all-ins."""
    streets, hands, folded, all_in = set(), set(), False, False
    for config in CONFIGS:
        for g in mid_game_states(config, 40, seed=len(_id(config))):
            streets.add(g.street)
            hands.add(g.hand_number)
            folded |= any(g.betting.folded[p] and g.in_hand[p] for p in range(g.num_players))
            all_in |= any(g.betting.is_all_in(p) for p in range(g.num_players))
    assert streets == {3, 4, 5, 6, 7}
    assert max(hands) >= 3
    assert folded and all_in


def test_a_stacked_next_hand_is_loaded_with_the_game():
    """The game's chance comes along (a ScriptedChance's remaining script too): hand 2 is the stacked one."""
    config = {"num_players": 2, "num_hands": 2}
    chance = ScriptedChance(shuffles=[["As", "Ks", "Qs"], ["2c", "3d", "7h", "8s", "Tc", "Td", "Ah"]], integers=[0])
    game = BreedTheHeiferGame(chance=chance, **config)
    game.apply(int(np.flatnonzero(game.legal_mask())[0]))
    assert len(chance.shuffles) == 1  # the second hand's stack is still to come
    for action_seed in range(4):
        report = differential_from_games([game] * 3, action_seed=action_seed)
        assert report.games == 3  # to the end of the episode: through the second, stacked hand


def test_without_chance_the_rows_keep_their_generators_and_the_hand_plays_alike():
    games = mid_game_states({"num_players": 3, "num_hands": 3}, 30, seed=7)
    env = batched.make("breed_the_heifer", 30, **games[0].config)
    env.reset(seed=11)
    own = [env.row_generator_state(i) for i in range(30)]
    loading.load_games(env, env.all_rows, games, chance=False)
    assert [env.row_generator_state(i) for i in range(30)] == own
    assert not env.chance.injected.any()
    assert env.current_player.tolist() == [g.current_player for g in games]
    for i, g in enumerate(games):
        assert np.array_equal(env.mask[i], g.legal_mask())
        assert env.obs[i].tobytes() == g.encode(g.view(g.current_player)).tobytes()
    assert np.array_equal(loading.unit_index(env, env.all_rows), [g.unit_index for g in games])


def test_repeat_loads_each_game_into_consecutive_rows():
    games = mid_game_states({"num_players": 2}, 3, seed=3)
    env = batched.make("breed_the_heifer", 6, num_players=2)
    env.reset(seed=0)
    kernel_state.load_games(env, np.arange(6), games, repeat=2, chance=False)
    for k in range(6):
        g = games[k // 2]
        assert env.obs[k].tobytes() == g.encode(g.view(g.current_player)).tobytes()
        assert env.state.stock[k].tolist() == g.stock


def test_a_broken_loader_is_caught(monkeypatch):
    """The check has the power to see a wrong load: a stock loaded in the wrong order fails it."""
    original = kernel_state.field_arrays

    def reversed_stock(games):
        arrays = original(games)
        arrays["stock"] = arrays["stock"][:, ::-1].copy()
        return arrays

    monkeypatch.setattr(kernel_state, "field_arrays", reversed_stock)
    with pytest.raises(AssertionError):
        differential_from_games(mid_game_states({"num_players": 4}, 20, seed=5, max_depth=4), action_seed=1)


@pytest.mark.parametrize(
    ("make_env", "games", "message"),
    [
        (lambda: batched.make("breed_the_heifer", 2, num_players=3), None, "option num_players=2"),
        (lambda: batched.make("breed_the_heifer", 2, num_players=2, max_raises=1), None, "option max_raises=3"),
        (lambda: batched.make("caribbean_stud", 2), None, "not caribbean_stud_v0"),
    ],
)
def test_other_games_or_options_are_refused(make_env, games, message):
    env = make_env()
    env.reset(seed=0)
    with pytest.raises(ValueError, match=message):
        kernel_state.load_games(env, [0], mid_game_states({"num_players": 2}, 1, seed=1))


def test_bad_loads_are_refused_and_nothing_is_written():
    env = batched.make("breed_the_heifer", 4, num_players=2)
    env.reset(seed=0)
    before = env.state_arrays()
    games = mid_game_states({"num_players": 2}, 2, seed=2)
    over = BreedTheHeiferGame(seed=0, num_players=2)
    while not over.is_over:
        over.apply(int(np.flatnonzero(over.legal_mask())[0]))
    cases = [
        ([0, 1], [games[0], over], "the game is over"),
        ([0, 1, 2], games, "3 rows for 2"),
        ([0, 0], games, "listed more than once"),
        ([0, 9], games, "row 9 is not in 0..3"),
        ([[0, 1]], games, "1-d array"),
    ]
    for rows, gs, message in cases:
        with pytest.raises(ValueError, match=message):
            kernel_state.load_games(env, rows, gs)
        after = env.state_arrays()
        assert all(np.array_equal(before[k], after[k]) for k in before), message
    with pytest.raises(ValueError, match="repeat=0"):
        kernel_state.load_games(env, [0], games[:1], repeat=0)
    with pytest.raises(ValueError, match="cannot load a scalar game yet"):
        loading.loader("raspisnoy_poker")


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_loaded_games_play_like_the_scalar_game_many(config):
    for seed in range(10):
        differential_from_games(mid_game_states(config, 300, seed=1000 + seed, max_depth=120), action_seed=seed)
