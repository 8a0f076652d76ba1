"""Batched Raspisnoy poker against the scalar game with the differential kit.

Every option is covered: both decks, the classic, single and explicit
schedules with every deal kind, the joker rules, the three obligation
switches, both whole-deck trump rules, the dark multiplier, 2 to 10 players.
Random legal play runs a few thousand steps per configuration here and
>= 100,000 under ``slow`` (long enough for whole classic games); the stacked
decks of ``test_rules.py`` are replayed on both engines through
``chances=``/``actions=``, and a few of their figures are checked on the
batched env alone.
"""

from __future__ import annotations

import numpy as np
import pytest
from raspisnoy_helpers import bid, card, joker, stack

from pokerzoo.envs import batched
from pokerzoo.envs.batched.core import PARALLEL_MIN_ROWS
from pokerzoo.envs.batched.testing import differential_play
from pokerzoo.envs.engine.cards import ScriptedChance
from pokerzoo.envs.engine.game import IllegalActionError
from pokerzoo.envs.raspisnoy_poker import actions as A
from pokerzoo.envs.raspisnoy_poker import encoding, schedule
from pokerzoo.envs.raspisnoy_poker.kernel import RaspisnoyKernel, observation_offsets

EVERY_KIND = [(5, "normal"), (4, "no_trump"), (6, "dark"), (3, "gold"), (7, "misere"), (1, "forehead")]
# (options, rows, steps): random legal play; together they cover every option value
CONFIGS = [
    ({"start_cards": 13}, 24, 160),  # 4 players: 4 normal deals, then every special deal and forehead
    ({"schedule": "single"}, 64, 60),
    ({"num_players": 2, "start_cards": 26}, 16, 200),  # whole deck (27 each), trump shown and put back
    ({"num_players": 3, "deck": "34"}, 32, 100),
    ({"num_players": 4, "deck": "34", "schedule": "single", "dark_multiplier": 1.5}, 64, 60),
    (
        {"num_players": 6, "whole_deck_trump": "dealer_last", "schedule": [(9, "normal"), (9, "dark"), (9, "gold")]},
        32,
        100,
    ),
    ({"num_players": 9, "schedule": [(6, "no_trump"), (6, "normal"), (6, "misere")], "dark_multiplier": 3}, 16, 150),
    ({"num_players": 10, "schedule": "single", "must_follow_suit": False}, 48, 80),
    ({"num_players": 5, "schedule": EVERY_KIND, "must_trump": False}, 32, 120),
    ({"schedule": [(13, "gold"), (13, "gold"), (4, "normal"), (13, "misere"), (1, "forehead")], "single_deal": True},
     64, 60),
    ({"num_players": 4, "schedule": EVERY_KIND, "joker_lead_demands_highest": True}, 32, 120),
    ({"num_players": 7, "start_cards": 7, "must_follow_suit": False, "must_trump": False}, 32, 120),
    (
        {
            "num_players": 3,
            "schedule": [(18, "dark"), (18, "no_trump"), (18, "misere")],
            "whole_deck_trump": "dealer_last",
            "dark_multiplier": 2.5,
        },
        16,
        160,
    ),
]


def _id(config) -> str:
    return ",".join(f"{k}={v}" for k, v in config[0].items()) or "defaults"


def test_offsets_come_from_the_encoder():
    for n in (2, 4, 10):
        offsets = observation_offsets(n)
        assert offsets["o_hand"] == 0 and offsets["o_remaining"] == encoding.schema(n).size - 1
        params = batched.make("raspisnoy_poker", 1, num_players=n).kernel.params
        assert all(getattr(params, k) == v for k, v in offsets.items())


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_random_play_matches_the_scalar_game(config):
    options, rows, steps = config
    report = differential_play("raspisnoy_poker", options, seeds=range(100, 100 + rows), steps=steps)
    assert report.steps == rows * steps >= 1_500


def test_whole_classic_games_match():
    report = differential_play("raspisnoy_poker", {"num_players": 3, "start_cards": 18}, seeds=range(4), steps=900)
    assert report.games >= 4  # every deal kind of the classic schedule, the score sheet carried across them


@pytest.mark.slow
@pytest.mark.parametrize("config", [*CONFIGS, ({}, 32, 0), ({"num_players": 10}, 16, 0)], ids=_id)
def test_random_play_matches_the_scalar_game_100k_steps(config):
    options, rows, _ = config
    steps = -(-100_000 // rows)
    report = differential_play("raspisnoy_poker", options, seeds=range(7000, 7000 + rows), steps=steps, action_seed=1)
    assert report.steps >= 100_000 and report.games > 0


def test_the_parallel_loop_plays_the_same_games():
    rows = PARALLEL_MIN_ROWS + 20  # enough rows for the parallel loop to be used
    report = differential_play(
        RaspisnoyKernel, {"schedule": "single", "num_players": 5}, seeds=range(rows), steps=12, parallel=True
    )
    assert report.games > 0


# ---------------------------------------------------------------- the rule tests' stacked decks
THREE = ["RJ 2s 3c", "Ad 5h 9s", "Kd Qh 4c"]
RJ_HIGH, BJ_HIGH, RJ_LOW, BJ_LOW = joker("RJ", "high"), joker("BJ", "high"), joker("RJ", "low"), joker("BJ", "low")
DEAL = [RJ_HIGH, "Ad", "Kd", "2s", "9s", "Qh", "5h", "4c", "3c"]
# (hands, turned card, dealer, deal kind, options, moves): test_rules.py's new_game(...) scenarios and their moves
DEALS = [
    (THREE, "7d", 2, "normal", {}, []),
    (["2s 3s", "4s 5s"], "BJ", 1, "normal", {}, ["bid 0", "bid 0"]),
    (["RJ 3s", "4s 5s"], "BJ", 1, "normal", {}, ["bid 1", "bid 0", joker("RJ", "high", "h")]),
    (THREE, "7d", 2, "no_trump", {}, []),
    (THREE, "7d", 2, "normal", {}, ["bid 3", "bid 3"]),
    (THREE, "7d", 2, "gold", {}, []),
    (THREE, "7d", 2, "misere", {}, []),
    (THREE, "7d", 2, "normal", {}, ["bid 1", "bid 1", "bid 0", "2s", "9s", "Kd"]),
    (["RJ 2s 3c", "Ad 5s 9s", "Kd Qh 4c"], "7d", 2, "gold", {}, ["2s"]),
    (["2s 3c 4c", "5s 9s RJ", "Kd Qh 4d"], "7d", 2, "gold", {}, ["2s", RJ_LOW]),
    (["2s 3c 4c", "5h 9d Th", "Kc Qh 4h"], "7d", 2, "gold", {}, ["2s", "9d"]),
    (["2s 3c 4c", "5s 9d Th", "Kc Qh 4h"], "7d", 2, "gold", {"must_follow_suit": False}, ["2s", "9d"]),
    (["2s 3c 4c", "5h 9d Th", "Kc Qh 4h"], "7d", 2, "gold", {"must_trump": False}, ["2s", "5h"]),
    (["2s 3c 4c", "As 9d Th", "Ks Qh 4h"], "7d", 2, "gold", {}, ["2s", "As", "Ks"]),
    (["2s 3c 4c", "5h 9d Th", "Ks Qh 4h"], "7d", 2, "gold", {}, ["2s", "9d", "Ks"]),
    (THREE, "7d", 2, "gold", {}, [RJ_HIGH, "Ad", "Kd"]),
    (["RJ 2s 3c", "Ad 5d 9s", "Kd Qh 4c"], "7d", 2, "gold", {}, [RJ_HIGH, "5d"]),
    (["RJ 2s 3c", "Ad 5d 9s", "Kd Qh 4c"], "7d", 2, "gold", {"joker_lead_demands_highest": True}, [RJ_HIGH, "Ad"]),
    (
        ["RJ 2s 3c", "Ad 5d 9s", "Kd Qh 4c"],
        "7d",
        2,
        "gold",
        {"joker_lead_demands_highest": True},
        [joker("RJ", "low", "d"), "5d"],
    ),
    *[
        (THREE, "7d", 2, "gold", {}, [joker("RJ", "low", suit), f1, f2])
        for suit, f1, f2 in [("h", "5h", "Qh"), ("s", "9s", "Kd"), ("c", "Ad", "4c"), ("d", "Ad", "Kd")]
    ],
    (["RJ 2s 3c", "5c 6c 9s", "4c 7c 8c"], "7d", 2, "gold", {}, [joker("RJ", "low", "h"), "5c", "4c"]),
    (
        ["RJ 2s 3c", "Ac 5h 9s", "Kd Qh 4c"],
        None,
        2,
        "no_trump",
        {},
        ["bid 1", "bid 1", "bid 0", joker("RJ", "high", "c"), "Ac", "4c"],
    ),
    (["Ah 2s 3c", "5h 9s BJ", "Kd Qc 4c"], "7d", 2, "gold", {}, ["Ah", BJ_HIGH, "Kd"]),
    (["Ah 2s 3c", "5h 9s RJ", "Kh Qc 4c"], None, 2, "no_trump", {}, ["bid 1", "bid 1", "bid 0", "Ah", RJ_HIGH, "Kh"]),
    (["2h 2s 3c", "5h 9s RJ", "Kc Qc 4c"], "7d", 2, "gold", {}, ["2h", RJ_LOW, "Kc"]),
    (["BJ 2s 3c", "5c 9s RJ", "Kc Qc 4c"], "7d", 2, "gold", {}, [joker("BJ", "low", "h"), RJ_LOW, "Kc"]),
    (["BJ 2s 3c", "5h 9s RJ", "Kd Qc 4c"], "7d", 2, "gold", {}, [BJ_HIGH, RJ_HIGH, "Kd"]),
    (["RJ 2s 3c", "5h 9s BJ", "Kd Qc 4c"], "7d", 2, "gold", {}, [RJ_HIGH, BJ_HIGH, "Kd"]),
    (["RJ 2s 3c", "5c 9s BJ", "Kc Qc 4c"], "7d", 2, "gold", {}, [joker("RJ", "low", "h"), BJ_LOW, "Kc"]),
    (THREE, "7d", 2, "dark", {}, ["bid 1", "bid 1", "bid 0"]),
    *[(THREE, "7d", 2, "dark", {"dark_multiplier": m}, ["bid 1", "bid 1", "bid 0", *DEAL]) for m in (2, 5, 1.5)],
    (["As", "Kd", "2c", "RJ"], "5h", 3, "forehead", {}, []),
    (
        ["As", "Kd", "2c", "RJ"],
        "5h",
        2,
        "forehead",
        {},
        ["bid 1", "bid 0", "bid 1", "bid 1", A.FOREHEAD, RJ_HIGH, A.FOREHEAD, A.FOREHEAD, A.FOREHEAD],
    ),
    (["As", "Kd", "2c", "3c"], "5h", 3, "forehead", {}, ["bid 0", "bid 1", "bid 0", "bid 1", *[A.FOREHEAD] * 4]),
    (["As", "Kd", "2c", "3c"], "5h", 3, "forehead", {}, ["bid 1", "bid 1", "bid 0", "bid 0", *[A.FOREHEAD] * 4]),
    (
        ["2s", "BJ", "3c", "4c"],
        "5h",
        3,
        "forehead",
        {},
        ["bid 1", "bid 0", "bid 0", "bid 1", A.FOREHEAD, A.FOREHEAD, BJ_LOW, A.FOREHEAD, A.FOREHEAD],
    ),
    (
        ["RJ 7s 8c", "Ad Ts 9s", "Kd Qh Jc"],
        "Ac",
        2,
        "normal",
        {"deck": "34"},
        ["bid 1", "bid 1", "bid 0", "7s", "9s", "Jc"],
    ),
    (THREE, "7d", 2, "normal", {}, ["bid 1", "bid 2", "bid 1", *DEAL]),
    (THREE, "7d", 2, "gold", {}, DEAL),
    (THREE, "7d", 2, "misere", {}, DEAL),
]


def _action(move) -> int:
    if isinstance(move, str):
        return bid(int(move.split()[1])) if move.startswith("bid") else card(move)
    return int(move)


def _replay(options: dict, chances: list, moves: list[list], extra: int = 12):
    """Every row's stacked deck and moves on both engines, then the rows' generators play on."""
    report = differential_play(
        "raspisnoy_poker",
        options,
        seeds=range(len(chances)),
        steps=max(len(m) for m in moves) + extra,
        actions=[[_action(m) for m in row] for row in moves],
        chances=chances,
    )
    assert report.games >= len(chances)
    return report


def test_the_rule_tests_stacked_deals_play_the_same_on_both_engines():
    by_options: dict[str, tuple[dict, list, list]] = {}
    for k, (hands, turned, dealer, kind, extra, moves) in enumerate(DEALS):
        options = {"num_players": len(hands), "schedule": [(len(hands[0].split()), kind)], **extra}
        chance = ScriptedChance(shuffles=[stack(hands, turned)], integers=[dealer], seed=k)
        entry = by_options.setdefault(repr(sorted(options.items())), (options, [], []))
        entry[1].append(chance)
        entry[2].append(moves)
    for options, chances, moves in by_options.values():
        _replay(options, chances, moves)


@pytest.mark.parametrize("n", [2, 3, 6, 9])
def test_whole_deck_shown_trump_goes_back_at_the_scripted_place(n):
    # test_rules: Qh on top is shown, then put back at position 5 (the second scripted integer)
    options = {"num_players": n, "schedule": [(54 // n, "normal")]}
    _replay(options, [ScriptedChance(shuffles=[["Qh"]], integers=[0, 5]), None], [[], []], extra=3 * n * (54 // n))


def test_whole_deck_special_draws():
    seat0 = [f"{r}{x}" for x in "cd" for r in "23456789TJQKA"] + ["As"]
    seat1 = [f"{r}s" for r in "23456789TJQK"] + ["RJ", "BJ"] + [f"{r}h" for r in "23456789TJQA"] + ["Kh"]
    dealer_last = {"num_players": 2, "schedule": [(27, "normal")], "whole_deck_trump": "dealer_last"}
    _replay(
        dealer_last,
        [ScriptedChance(shuffles=[seat0 + seat1], integers=[1])],
        [["bid 0", "bid 0", "As", "2s", "2c", "Kh"]],
        extra=60,
    )
    shown_joker = {"num_players": 2, "schedule": [(27, "dark")]}
    _replay(shown_joker, [ScriptedChance(shuffles=[["RJ"]], integers=[0, 0])], [[]], extra=60)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 10])
def test_bidding_order_and_the_hook_for_every_dealer_position(n):
    chances = [ScriptedChance(integers=[dealer], seed=dealer) for dealer in range(n)]
    moves = [[f"bid {i % 2}" for i in range(n - 1)] for _ in range(n)]
    _replay({"num_players": n, "schedule": [(3, "normal")]}, chances, moves, extra=4 * n + 4)


def test_dealer_rotation_and_the_single_schedule_draw():
    _replay({"num_players": 3, "schedule": [1, 1, 1, 1]}, [ScriptedChance(integers=[2])], [[]], extra=24)
    last = len(schedule.classic(4, 54, 3)) - 1
    chances = [ScriptedChance(integers=[1, index], seed=index) for index in (0, 45, last)]
    _replay({"num_players": 4, "schedule": "single"}, chances, [[], [], []], extra=120)


# ---------------------------------------------------------------- the rule tests' figures, on the batched env alone
def _stacked_env(hands, turned, dealer, kind, rows=1, **options):
    env = batched.make(
        "raspisnoy_poker", rows, num_players=len(hands), schedule=[(len(hands[0].split()), kind)], **options
    )
    chance = [ScriptedChance(shuffles=[stack(hands, turned)], integers=[dealer]) for _ in range(rows)]
    return env, env.reset(seed=0, options={"chance": chance})


@pytest.mark.parametrize("multiplier", [2, 5, 1.5])
def test_dark_deal_rewards_are_the_rule_tests_figures(multiplier):
    env, _ = _stacked_env(THREE, "7d", 2, "dark", dark_multiplier=multiplier)
    total = np.zeros(3)
    for move in ["bid 1", "bid 1", "bid 0", *DEAL]:
        _, _, rewards, done, _ = env.step([_action(move)])
        total += rewards[0]
    assert done[0] and total.tolist() == [10 * multiplier, 2 * multiplier, 5 * multiplier]


def test_forehead_play_is_blind_and_a_revealed_joker_waits_for_its_declaration():
    env, (obs, mask, info) = _stacked_env(["As", "Kd", "2c", "RJ"], "5h", 2, "forehead")
    for move in ["bid 1", "bid 0", "bid 1", "bid 1"]:
        obs, mask, _, _, info = env.step([_action(move)])
    assert np.flatnonzero(mask[0]).tolist() == [A.FOREHEAD]
    obs, mask, _, _, info = env.step([A.FOREHEAD])
    o = encoding.schema(4).offsets
    assert info["current_player"][0] == 3 and obs[0, o["phase"] + 2] == 1.0 and obs[0, o["trick"] + 52] == 1.0
    assert np.flatnonzero(mask[0]).tolist() == sorted([RJ_HIGH] + [joker("RJ", "low", s) for s in "shdc"])
    total = np.zeros(4)
    for move in [RJ_HIGH, A.FOREHEAD, A.FOREHEAD, A.FOREHEAD]:
        _, _, rewards, done, _ = env.step([move])
        total += rewards[0]
    assert done[0] and total.tolist() == [5, -50, -50, 50]


def test_an_illegal_action_names_the_legal_ones_and_changes_nothing():
    env, _ = _stacked_env(THREE, "7d", 2, "normal", rows=2)
    env.step([_action("bid 1")] * 2)
    env.step([_action("bid 1")] * 2)
    before = [a.copy() for a in env.state], env.obs.copy(), env.mask.copy()
    # the dealer may not bid 1: the bids would add up to the 3 tricks
    legal = "legal now: 73:bid 0, 75:bid 2, 76:bid 3"
    with pytest.raises(IllegalActionError, match=r"row 1: illegal action 74 \(bid 1\).*" + legal):
        env.step([_action("bid 0"), _action("bid 1")])
    assert all(np.array_equal(a, b) for a, b in zip(env.state, before[0], strict=True))
    assert np.array_equal(env.obs, before[1]) and np.array_equal(env.mask, before[2])
