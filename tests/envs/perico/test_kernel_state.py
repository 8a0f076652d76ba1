"""Scalar Perico games loaded into batched rows (``kernel_state``), against the scalar game step by step.

Games are taken mid-round and mid-game (random legal play from many seeds,
knocking rarely so that rounds run long and stocks run out, stopped at random
depths), loaded, and then every row and its scalar game take the same random
legal actions to the end of the game: the player to act, the mask and the
observation must agree bitwise at every step, and every step's rewards
(``testing.differential_from_games``). Every option is covered, both variants;
under ``slow`` thousands of states per option.
"""

from __future__ import annotations

import numpy as np
import pytest

from pokerzoo.envs import batched
from pokerzoo.envs.batched import loading, testing
from pokerzoo.envs.batched.testing import differential_from_games
from pokerzoo.envs.engine.cards import ScriptedChance, parse_cards
from pokerzoo.envs.perico import kernel_state
from pokerzoo.envs.perico.actions import KNOCK
from pokerzoo.envs.perico.game import PericoGame

# the options of test_batched.py's differential: every option, every player count of both variants
CONFIGS = [
    {},
    {"num_players": 2},
    {"num_players": 3, "deck": "56", "reward": "win"},
    {"num_players": 5, "jokers_in_five_of_a_kind": False, "target_score": 2},
    {"num_players": 6, "max_turns_per_round": 4, "reward": "win"},
    {"num_players": 6},
    {"num_players": 3, "target_score": 1, "max_rounds": 3, "reward": "win"},
    {"num_players": 4, "target_score": 12, "max_rounds": 9},
    {"six_card": True},
    {"six_card": True, "num_players": 2, "jokers_in_five_of_a_kind": False, "reward": "win"},
    {"six_card": True, "num_players": 3, "deck": "54", "target_score": 3},
    {"six_card": True, "num_players": 5, "max_turns_per_round": 7, "max_rounds": 4, "reward": "win"},
    {"num_players": 2, "target_score": 1, "max_turns_per_round": 1},
]


def _id(config: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in config.items()) or "defaults"


def _rare_knocks(game: PericoGame, legal: np.ndarray, rng: np.random.Generator) -> int:
    """A random legal move, but a knock only one time in ten where it is legal (else the first other action)."""
    if game.phase == "knock":
        return KNOCK if rng.random() < 0.1 else int(legal[legal != KNOCK][0])
    return int(rng.choice(legal))


def mid_game_states(config: dict, count: int, seed: int, max_depth: int = 80) -> list[PericoGame]:
    """``count`` games of ``config`` stopped at a decision after 0..max_depth random legal moves (a knock
    only one time in ten where it is legal, so that rounds last and the stock runs out)."""
    return testing.mid_game_states(PericoGame, config, count, seed, max_depth, choose=_rare_knocks)


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_loaded_games_play_like_the_scalar_game(config):
    games = mid_game_states(config, 40, seed=len(_id(config)))
    report = differential_from_games(games, action_seed=1)
    assert report.games == len(games)
    assert report.steps >= len(games)


def test_states_cover_every_phase_later_rounds_and_reshuffles():
    """The states above are not all at the start: every phase, later rounds, scores, reshuffled stocks."""
    phases, rounds, scored, reshuffled = set(), set(), False, False
    for config in CONFIGS:
        for g in mid_game_states(config, 40, seed=len(_id(config))):
            phases.add(g.phase)
            rounds.add(g.round_number)
            scored |= max(g.scores) > 0
            reshuffled |= bool(g.recycled)
    assert phases == {"knock", "turn", "discard"}
    assert max(rounds) >= 4
    assert scored and reshuffled


def test_a_stacked_next_round_is_loaded_with_the_game():
    """The game's chance comes along (a ScriptedChance's remaining script too): round 2 is the stacked one."""
    deck = parse_cards("As Ks Qs Js 9s 2h 3h 4h 5h 7c")  # two players: a royal for no one, then the stock
    second = parse_cards("Ts Js Qs Ks As 2c 3d 7h 8s 9c")  # round 2: the dealer's left is dealt a royal
    chance = ScriptedChance(shuffles=[deck, second], integers=[0])
    game = PericoGame(chance=chance, num_players=2)
    assert game.round_number == 1 and len(chance.shuffles) == 1  # the second round's stack is still to come
    for action_seed in range(4):
        report = differential_from_games([game] * 3, action_seed=action_seed)
        assert report.games == 3


def test_without_chance_the_rows_keep_their_generators_and_the_round_plays_alike():
    games = mid_game_states({"num_players": 3}, 30, seed=7)
    env = batched.make("perico", 30, **games[0].config)
    env.reset(seed=11)
    own = [env.row_generator_state(i) for i in range(30)]
    loading.load_games(env, env.all_rows, games, chance=False)
    assert [env.row_generator_state(i) for i in range(30)] == own
    assert not env.chance.injected.any()
    assert env.current_player.tolist() == [g.current_player for g in games]
    for i, g in enumerate(games):
        assert np.array_equal(env.mask[i], g.legal_mask())
        assert env.obs[i].tobytes() == g.encode(g.view(g.current_player)).tobytes()
        assert env.state.keys[i, : g.num_players].tolist() == g.hand_keys  # the kernel's ranks are the game's
    assert np.array_equal(loading.unit_index(env, env.all_rows), [g.unit_index for g in games])


def test_repeat_loads_each_game_into_consecutive_rows():
    games = mid_game_states({"num_players": 2, "six_card": True}, 3, seed=3)
    env = batched.make("perico", 6, num_players=2, six_card=True)
    env.reset(seed=0)
    kernel_state.load_games(env, np.arange(6), games, repeat=2, chance=False)
    for k in range(6):
        g = games[k // 2]
        assert env.obs[k].tobytes() == g.encode(g.view(g.current_player)).tobytes()
        assert env.state.stock[k, : len(g.stock)].tolist() == g.stock


@pytest.mark.parametrize("field", ["stock", "dealer"])
def test_a_broken_loader_is_caught(monkeypatch, field):
    """The check has the power to see a wrong load: a stock in the wrong order, or the wrong dealer, fails it."""
    original = kernel_state.field_arrays

    def broken(games):
        arrays = original(games)
        if field == "stock":
            for r, g in enumerate(games):
                arrays["stock"][r, : len(g.stock)] = arrays["stock"][r, : len(g.stock)][::-1]
        else:
            arrays["dealer"] = (arrays["dealer"] + 1) % games[0].num_players
        return arrays

    monkeypatch.setattr(kernel_state, "field_arrays", broken)
    with pytest.raises(AssertionError):
        differential_from_games(mid_game_states({"num_players": 4}, 20, seed=5, max_depth=6), action_seed=1)


@pytest.mark.parametrize(
    ("make_env", "message"),
    [
        (lambda: batched.make("perico", 2, num_players=3), "option num_players=2"),
        (lambda: batched.make("perico", 2, num_players=2, six_card=True), "option six_card=False"),
        (lambda: batched.make("perico", 2, num_players=2, max_turns_per_round=9), "option max_turns_per_round=100"),
        (lambda: batched.make("caribbean_stud", 2), "not caribbean_stud_v0"),
    ],
)
def test_other_games_or_options_are_refused(make_env, message):
    env = make_env()
    env.reset(seed=0)
    with pytest.raises(ValueError, match=message):
        kernel_state.load_games(env, [0], mid_game_states({"num_players": 2}, 1, seed=1))


def test_bad_loads_are_refused_and_nothing_is_written():
    env = batched.make("perico", 4, num_players=2)
    env.reset(seed=0)
    before = env.state_arrays()
    games = mid_game_states({"num_players": 2}, 2, seed=2)
    over = PericoGame(seed=0, num_players=2)
    while not over.is_over:
        over.apply(int(np.flatnonzero(over.legal_mask())[0]))

    class OtherChance:
        pass

    odd = games[0].clone()
    odd.chance = OtherChance()
    cases = [
        ([0, 1], [games[0], over], "the game is over"),
        ([0, 1, 2], games, "3 rows for 2"),
        ([0, 0], games, "listed more than once"),
        ([0, 9], games, "row 9 is not in 0..3"),
        ([[0, 1]], games, "1-d array"),
        ([0, 1], [games[0], odd], "the game's chance is a OtherChance, not a Chance"),
    ]
    for rows, gs, message in cases:
        with pytest.raises(ValueError, match=message):
            kernel_state.load_games(env, rows, gs)
        after = env.state_arrays()
        assert all(np.array_equal(before[k], after[k]) for k in before), message
    with pytest.raises(ValueError, match="repeat=0"):
        kernel_state.load_games(env, [0], games[:1], repeat=0)
    with pytest.raises(ValueError, match="expected a PericoGame"):
        kernel_state.load_games(env, [0], [object()])


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_loaded_games_play_like_the_scalar_game_many(config):
    for seed in range(10):
        differential_from_games(mid_game_states(config, 300, seed=1000 + seed, max_depth=160), action_seed=seed)
