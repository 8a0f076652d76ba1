"""The mexican_poker_v0 env: observation layout, masks at the RL boundary, rendering, infos."""

from __future__ import annotations

import re

import numpy as np
import pytest

from pokerzoo.envs import make, mexican_poker_v0
from pokerzoo.envs.engine.cards import MEXICAN_SUIT_CHARS, ScriptedChance, format_card, parse_cards
from pokerzoo.envs.mexican_poker import MexicanPokerGame, encoding
from pokerzoo.envs.mexican_poker.actions import DOUBT_BASE, NUM_ACTIONS, combo_action

SCHEMA = encoding.SCHEMA
O = SCHEMA.offsets


def stacked_env(board: str, hands: list[str], token: int = 0, **options):
    top = [c for part in (board, *hands) for c in parse_cards(part, MEXICAN_SUIT_CHARS)]
    env = mexican_poker_v0.raw_env(num_players=len(hands), **options)
    env.reset(seed=0, options={"chance": ScriptedChance([top], [token], suit_chars=MEXICAN_SUIT_CHARS)})
    return env


def test_spaces():
    env = mexican_poker_v0.env(num_players=5)
    env.reset(seed=1)
    space = env.observation_space("player_0")
    assert space["observation"].shape == (SCHEMA.size,) == (1124,)
    assert space["observation"].low.min() == -1 and space["observation"].high.max() == 1
    low = SCHEMA.view(space["observation"].low, "scores")
    assert (low == -1).all() and space["observation"].low.sum() == -7  # only the scores can be negative
    assert env.action_space("player_3").n == NUM_ACTIONS == 1568
    assert env.possible_agents == [f"player_{i}" for i in range(5)]
    assert make("mexican_poker", num_players=3).unwrapped.num_players == 3


def test_observation_contents_during_a_round():
    env = stacked_env("6m 7m 8m 9m Tm", ["7l 2l 3l", "7b 2b 3b", "Kq Kt 4b"], token=1)
    game = env.game
    obs = env.observe("player_2")["observation"]
    hand = parse_cards("4b Kt Kq", MEXICAN_SUIT_CHARS)
    assert np.flatnonzero(obs[:65]).tolist() == sorted(hand)
    assert np.flatnonzero(obs[O["board"] : O["board"] + 65]).tolist() == sorted(game.board)
    # hand slot 0 holds the lowest card, 4b: rank 4 (index 2), suit b (index 2)
    slot0 = obs[O["hand_slots"] : O["hand_slots"] + 18]
    assert np.flatnonzero(slot0).tolist() == [2, 13 + 2]
    assert obs[O["board_size"] + 4] == 1  # B = 5
    assert obs[O["phase"]] == 1  # predict
    assert obs[O["token"] + 2] == 1  # seat 1 holds the token: two seats clockwise of seat 2
    assert obs[O["to_act"] + 2] == 1
    assert obs[O["hand_counts"] : O["hand_counts"] + 3].tolist() == pytest.approx([3 / 7] * 3)

    env.step(4)  # seat 1 predicts 4
    obs2 = env.observe("player_2")["observation"]
    assert not obs2[O["predictions"] : O["predictions"] + 49].any()  # secret
    assert obs2[O["predicted"] + 2] == 1  # ... but the chip is down
    own = env.observe("player_1")["observation"]
    assert own[O["predictions"] + 4] == 1  # own prediction, relative seat 0
    env.step(0)  # seat 2
    env.step(2)  # seat 0
    obs3 = env.observe("player_2")["observation"]
    block = obs3[O["predictions"] : O["predictions"] + 49].reshape(7, 7)
    assert block[0, 0] == 1 and block[1, 2] == 1 and block[2, 4] == 1  # self 0, seat 0 -> 2, seat 1 -> 4
    env.step(DOUBT_BASE + 1)  # seat 1 doubts seat 2
    doubts = env.observe("player_2")["observation"][O["doubts"] : O["doubts"] + 49].reshape(7, 7)
    assert doubts[2, 0] == 1  # seat 1 (two clockwise of seat 2) doubts seat 2 (relative 0)
    env.step(DOUBT_BASE + 1)
    env.step(DOUBT_BASE + 1)
    assert game.phase == "play" and game.current_player == 1
    env.step(combo_action([2], [1]))  # seat 1 plays 7b with the board's 7m
    obs4 = env.observe("player_0")["observation"]
    seat1 = obs4[O["trick_cards"] + 65 : O["trick_cards"] + 130]
    assert sorted(np.flatnonzero(seat1).tolist()) == sorted(parse_cards("7b 7m", MEXICAN_SUIT_CHARS))
    assert obs4[O["trick_category"] + 11 + 1] == 1  # a pair
    assert obs4[O["trick_winning"] + 1] == 1 and obs4[O["leader"] + 1] == 1
    assert env.observe("player_2")["action_mask"].any()  # clockwise from the leader: seat 2, then seat 0
    assert not env.observe("player_0")["action_mask"].any()


def test_observations_stay_in_bounds_and_masks_match_the_game():
    env = mexican_poker_v0.raw_env(num_players=4, rounds=3)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        o = obs["observation"]
        assert o.dtype == np.float32 and o.min() >= -1 and o.max() <= 1
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert np.array_equal(mask.astype(bool), env.game.legal_mask())
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert env.game.is_over


def test_infos_carry_round_scores_and_the_final_result():
    env = mexican_poker_v0.env(num_players=3, rounds=2)
    env.reset(seed=9)
    rng = np.random.default_rng(0)
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        rewards[agent] += reward
        if term or trunc:
            final = info
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert set(final) >= {"scores", "last_round", "final_scores", "winners", "draw"}
    assert [rewards[a] for a in env.possible_agents] == final["final_scores"]


def test_render_shows_board_own_hand_trick_and_score_sheet_but_no_hidden_card():
    env = stacked_env("6m 7m 8m 9m Tm", ["7l 2l 3l", "7b 2b 3b", "Kq Kt 4b"], token=0)
    env.render_mode = "ansi"
    env.render_viewer = 1
    text = env.render()
    assert "Board: 6m 7m 8m 9m Tm" in text
    assert "Your hand (P1): 2b 3b 7b" in text
    assert "Score sheet" in text
    words = set(re.findall(r"\b\w+\b", text))
    for hidden in ("7l", "2l", "3l", "Kq", "Kt", "4b"):
        assert hidden not in words
    for p in (1, 2, 0):
        env.step(p)
    text = env.render()
    assert re.search(r"P0\s+3\s+1\s", text)  # predictions revealed on the sheet
    for _ in range(3):
        env.step(DOUBT_BASE + 1)
    env.step(combo_action([2], [1]))  # seat 0 plays 7l with 7m
    text = env.render()
    assert "Trick 1, led by P0" in text and "P0: 7l + board 7m (pair) <- winning" in text
    human = mexican_poker_v0.raw_env(num_players=2, render_mode="human")
    human.reset(seed=0)
    assert human.render() is None
    with pytest.raises(ValueError, match="render_mode"):
        mexican_poker_v0.raw_env(render_mode="rgb_array")


def test_render_hides_face_down_predictions():
    game = MexicanPokerGame(seed=2, num_players=3)
    token = game.token
    game.apply(5)
    other = (token + 1) % 3
    assert "chip down" in game.render(other)
    assert re.search(rf"P{token}\s+\d+\s+5\s", game.render(token))
    assert not re.search(rf"P{token}\s+\d+\s+5\s", game.render(other))


def test_docstring_is_the_documentation_page():
    doc = mexican_poker_v0.__doc__
    options = ("num_players", "rounds", "corner_table", "doubt_chips", "doubt_pass", "reward")
    for needle in (*options, "Discrete(1568)"):
        assert needle in doc
    assert mexican_poker_v0.raw_env.__doc__ == doc
    assert format_card(parse_cards("Tq", MEXICAN_SUIT_CHARS)[0], MEXICAN_SUIT_CHARS) == "Tq"


def test_fast_views_are_complete_frozen_dataclasses():
    import dataclasses

    game = MexicanPokerGame(seed=4, num_players=3)
    rng = np.random.default_rng(4)
    for _ in range(15):
        for p in range(3):
            view = game.view(p)
            assert dataclasses.replace(view) == view  # every field present, equal to a normally built view
            assert set(vars(view)) == {f.name for f in dataclasses.fields(view)}
            with pytest.raises(dataclasses.FrozenInstanceError):
                view.hand = ()  # type: ignore[misc]
        game.apply(int(rng.choice(game.legal_actions())))
