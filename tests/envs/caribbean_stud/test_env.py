"""Caribbean stud through the shared invariant kit, the AEC env and its observation layout."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerzoo.envs import caribbean_stud_v0, make
from pokerzoo.envs.caribbean_stud import encoding
from pokerzoo.envs.caribbean_stud.game import CaribbeanStudGame
from pokerzoo.envs.engine.cards import ScriptedChance, parse_cards
from pokerzoo.envs.testing import (
    check_hidden_information,
    check_random_play,
)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31), boxes=st.integers(1, 3), hands=st.integers(1, 3))
def test_property_random_play(seed, boxes, hands):
    check_random_play(CaribbeanStudGame, [{"boxes": boxes, "num_hands": hands}], [seed])
    check_hidden_information(CaribbeanStudGame, {"boxes": boxes}, seed, samples=1)


def test_env_outcome_in_infos_and_ansi_render():
    env = make("caribbean_stud_v0", boxes=2, render_mode="ansi")
    env.reset(seed=4)
    assert env.agents == ["player_0"] and "box 2 ante 1: (not seen yet)" in env.render()
    env.step(1)
    env.step(0)
    _, reward, term, trunc, info = env.last()
    outcome = info["outcome"]
    assert term and not trunc and reward == outcome["net"]
    assert len(outcome["boxes"]) == 2 and {"cards", "category", "qualified"} <= set(outcome["dealer"])
    assert "Last hand: dealer" in env.render()


def test_observation_layout():
    top = "As Ad 7h 4s 2c  Kc Kd 8h 5s 3c  Qd Jc 7d 4c 9h"
    game = CaribbeanStudGame(chance=ScriptedChance(shuffles=[top]), boxes=2)
    game.apply(1)  # raise box 1: box 2 is now in front of the player
    obs = game.observe(0)
    assert obs.shape == (encoding.SCHEMA.size,) and obs.dtype == np.float32
    box2, box1 = parse_cards("Kc Kd 8h 5s 3c"), parse_cards("As Ad 7h 4s 2c")
    assert np.flatnonzero(obs[0:52]).tolist() == sorted(box2)
    assert np.flatnonzero(obs[52:104]).tolist() == parse_cards("9h")
    assert np.flatnonzero(obs[104:156]).tolist() == sorted(box1)
    assert obs[156:159].tolist() == [0, 1, 0] and obs[159] == 0
    assert obs[160:166].tolist() == [1, 0, 0, 0, 0, 0]  # box 1 raised
    assert obs[166] == 1.0 and obs[167 + 2] == 1  # ante 1 of max 1; category index 2 = pair
    assert obs.min() >= 0 and obs.max() <= 1


def test_stacked_deck_through_the_env():
    env = caribbean_stud_v0.env()
    env.reset(options={"chance": ScriptedChance(shuffles=["As Ks Qs Js Ts Ad Kc 7h 4c 2d"])})
    env.step(1)
    assert env.rewards["player_0"] == 201


def test_illegal_action_through_the_wrapped_env_ends_with_a_penalty():
    env = caribbean_stud_v0.env(ante_choices=[1, 2])
    env.reset(seed=1)
    assert env.action_mask().tolist() == [0, 0, 1, 1]  # antes first: fold is illegal
    env.step(0)
    _, reward, term, trunc, _ = env.last()
    assert reward == -1 and (term or trunc)


def test_raw_env_raises_on_illegal_actions_and_keeps_state():
    env = caribbean_stud_v0.raw_env(ante_choices=[1, 2])
    env.reset(seed=1)
    before = env.view("player_0")
    with pytest.raises(ValueError, match=r"illegal action 0 \(fold\).*legal now: 2:ante 1, 3:ante 2"):
        env.step(0)
    assert env.view("player_0") == before and not env.terminations["player_0"]


def test_bad_render_mode_and_options_fail_before_anything_is_built():
    with pytest.raises(ValueError, match="render_mode='rgb_array'"):
        caribbean_stud_v0.raw_env(render_mode="rgb_array")
    with pytest.raises(ValueError, match=r"boxes=0 is out of range; expected int in 1\.\.3"):
        make("caribbean_stud_v0", boxes=0)
