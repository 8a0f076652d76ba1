"""Game options, for every registered game: NaN and infinities refused naming the option, numpy scalars
accepted wherever Python numbers are, and options that must be ordered checked against each other."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pokerzoo.envs import GAMES, make, spec
from pokerzoo.envs.engine.options import ConfigError

OPTIONS = [(env_id, o) for env_id in GAMES for o in spec(env_id).game_class().OPTIONS]


def _kinds(option) -> tuple:
    return option.kind if isinstance(option.kind, tuple) else (option.kind,)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, np.float64("nan"), np.float32("inf")],
                         ids=["nan", "inf", "-inf", "np-nan", "np-inf"])  # fmt: skip
@pytest.mark.parametrize(("env_id", "option"), OPTIONS, ids=[f"{e}.{o.name}" for e, o in OPTIONS])
def test_every_option_refuses_non_finite_numbers_naming_itself(env_id, option, value):
    with pytest.raises(ConfigError, match=rf"\b{option.name}\b"):
        spec(env_id).game_class()(seed=0, **{option.name: value})


INT_DEFAULTS = [(e, o) for e, o in OPTIONS if isinstance(o.default, int) and not isinstance(o.default, bool)]


@pytest.mark.parametrize("to_numpy", [np.int64, np.int32, np.uint8], ids=["int64", "int32", "uint8"])
@pytest.mark.parametrize(("env_id", "option"), INT_DEFAULTS, ids=[f"{e}.{o.name}" for e, o in INT_DEFAULTS])
def test_numpy_integers_are_accepted_where_ints_are(env_id, option, to_numpy):
    game = spec(env_id).game_class()(seed=0, **{option.name: to_numpy(option.default)})
    assert game.config[option.name] == option.default and type(game.config[option.name]) is type(option.default)


def test_numpy_values_inside_lists_and_floats_are_accepted():
    env = make("breed_the_heifer_v0", num_players=np.int64(3), stacks=[np.int64(5), np.int16(20), 30])
    assert env.unwrapped.game.config["stacks"] == (5, 20, 30)
    env = make("raspisnoy_poker_v0", num_players=np.int64(4), dark_multiplier=np.float32(1.5))
    assert env.unwrapped.game.config["dark_multiplier"] == 1.5
    assert make("caribbean_stud_v0", ante_choices=np.arange(1, 4).tolist()).unwrapped.num_actions == 5
    assert make("perico_v0", six_card=np.bool_(True)).unwrapped.game.config["six_card"] is True


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"small_bet": 5, "big_bet": 2}, "small_bet=5 is above big_bet=2"),
        ({"small_bet": 1_000_000, "big_bet": 999_999}, "small_bet=1000000 is above big_bet=999999"),
    ],
)
def test_heifer_options_that_must_be_ordered_are_checked_against_each_other(options, match):
    with pytest.raises(ConfigError, match=match):
        make("breed_the_heifer_v0", **options)
    make("breed_the_heifer_v0", small_bet=3, big_bet=3)  # equal is fine
    make("breed_the_heifer_v0", ante=100, stacks=100)  # everyone all in on the ante: a hand with no decision


@pytest.mark.parametrize(
    ("env_id", "options", "match"),
    [
        ("mexican_poker_v0", {"doubt_pass": True, "doubt_chips": False}, "doubt_pass=True needs doubt_chips"),
        ("perico_v0", {"six_card": True, "num_players": 6}, "Six-card Perico seats 2..5"),
        ("raspisnoy_poker_v0", {"deck": "34", "num_players": 6}, "deck='34' is for 3 or 4 players"),
        ("raspisnoy_poker_v0", {"num_players": 10, "start_cards": 9}, "start_cards"),
        ("caribbean_stud_v0", {"ante_choices": [2, 2]}, "distinct"),
    ],
)
def test_the_other_games_cross_option_checks(env_id, options, match):
    with pytest.raises(ConfigError, match=match):
        make(env_id, **options)
