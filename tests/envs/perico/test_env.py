"""Perico through the shared invariant kit (every player count, both variants), the AEC env, observations."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerzoo.envs import make, perico_v0
from pokerzoo.envs.engine.cards import ScriptedChance, parse_cards
from pokerzoo.envs.perico import encoding
from pokerzoo.envs.perico.actions import CONTINUE, DISCARD0, DRAW
from pokerzoo.envs.perico.game import PericoGame
from pokerzoo.envs.testing import (
    check_hidden_information,
    check_random_play,
)


def test_options_through_random_play():
    configs = [
        {"reward": "win", "num_players": 3},
        {"jokers_in_five_of_a_kind": False, "six_card": True, "num_players": 3},
        {"deck": "56", "num_players": 6},
        {"deck": "54", "six_card": True, "num_players": 5},
        {"max_turns_per_round": 3, "target_score": 3},
        {"max_rounds": 2, "reward": "win"},
    ]
    assert check_random_play(PericoGame, configs, range(3)) > 0


def test_win_rewards_sum_to_zero_and_truncation_is_flagged():
    for seed in range(5):
        game = PericoGame(seed=seed, num_players=4, reward="win", max_rounds=3)
        rng = np.random.default_rng(seed)
        while not game.is_over:
            game.apply(int(rng.choice(np.flatnonzero(game.legal_mask()))))
        assert abs(game.total_rewards.sum()) < 1e-9
        assert game.is_truncated == (max(game.scores) < game.target)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(2, 6), six=st.booleans())
def test_property_random_play(seed, n, six):
    config = {"num_players": min(n, 5) if six else n, "six_card": six}
    check_random_play(PericoGame, [config], [seed])


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31), six=st.booleans())
def test_property_hidden_information(seed, six):
    check_hidden_information(PericoGame, {"num_players": 3, "six_card": six}, seed, samples=1, every=3)


def test_observation_layout():
    hands = ["2c 3d 4h 6s 8c", "Kd Kh 7s 2s RJ", "2h 3s 4c 6d 8h"]
    order = parse_cards(" ".join(hands[1:] + hands[:1]) + " Td 9c")  # dealer 0 deals from seat 1
    game = PericoGame(chance=ScriptedChance(shuffles=[order], integers=[0]), num_players=3)
    game.apply(DRAW)  # seat 1 draws the 9c
    obs = game.observe(1)
    assert obs.shape == (encoding.SCHEMA.size,) and obs.dtype == np.float32
    hand = sorted(parse_cards("2s 7s Kh Kd"))
    assert np.flatnonzero(obs[0:56]).tolist() == [*hand, 52]  # the red joker sits at slot 52
    assert np.flatnonzero(obs[56:112]).tolist() == parse_cards("9c")
    assert np.flatnonzero(obs[112:168]).tolist() == parse_cards("Td")
    assert np.flatnonzero(obs[168:224]).tolist() == parse_cards("Td")
    # slot 0 = 2s (rank 2, suit s); slot 4 = the joker; slot 5 = the drawn 9c
    assert obs[224 + 0] == 1 and obs[224 + 14] == 1 and obs[224 + 4 * 18 + 13] == 1
    assert obs[224 + 5 * 18 + 7] == 1 and obs[224 + 5 * 18 + 14 + 3] == 1
    assert obs[350] == pytest.approx((54 - 15 - 1 - 1) / 54) and obs[351] == pytest.approx(1 / 54)
    # seats relative to the observer: seat 1 (me) is to act, seat 0 (two to my left) deals
    assert obs[352] == 1 and obs[352 + 7] == 1 and obs[352 + 2 * 8 + 6] == 1 and obs[352 + 3 * 8] == 0
    assert obs[400:403].tolist() == [0, 0, 1]  # discard phase
    assert obs[405 + 3] == 1  # three kings with the joker: category index 3 = three of a kind
    assert obs[420] == 0.25 and obs[421] == 0 and obs[422] == pytest.approx(0.5)
    assert obs.min() >= 0 and obs.max() <= 1
    other = game.observe(0)
    assert not other[56:112].any()  # the drawn card is seen only by its owner
    game.apply(DISCARD0 + 5)
    obs = game.observe(1)
    assert obs[352 + 1] == 1 and obs[352 + 2] == pytest.approx(0.1) and obs[352 + 4] == pytest.approx(0.2)


def test_ansi_render_shows_only_what_the_viewer_sees():
    env = make("perico_v0", num_players=3, render_mode="ansi")
    chance = ScriptedChance(shuffles=[parse_cards("2c 3d 4h 6s 8c Kd Kh 7s 2s RJ")], integers=[0])
    env.reset(options={"chance": chance})
    text = env.render()
    assert "Perico — round 1" in text and "P1 hand: 2c 3d 4h 6s 8c [high card]" in text
    assert "Kd" not in text and "Legal: 2 draw" in text
    env.unwrapped.render_viewer = 2
    assert "P2 hand: 2s 7s Kh Kd RJ [three of a kind]" in env.render()


def test_env_infos_and_knock_through_the_wrapped_env():
    env = perico_v0.env(num_players=2, target_score=1)
    env.reset(seed=3)
    steps = 0
    for _agent in env.agent_iter():
        obs, _reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        steps += 1
        env.step(0 if mask[0] else DRAW if mask[DRAW] else int(np.flatnonzero(mask)[-1]))
    assert steps and info["winners"] and info["scores"][info["winners"][0]] == 1


def test_knocking_is_a_bidding_phase_for_composite_agents():
    assert {"knock"} == PericoGame.BIDDING_PHASES
    game = PericoGame(seed=1, num_players=2)
    while game.phase != "knock":
        game.apply(DRAW)
        game.apply(DISCARD0 + game.hand_size)
    assert game.view(game.current_player).knock_allowed and game.legal_mask()[CONTINUE]
