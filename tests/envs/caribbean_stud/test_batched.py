"""Batched Caribbean stud against the scalar game: the compiled evaluator and the differential kit.

Every option is covered (1-3 boxes, one ante value or a choice of antes,
several hands per episode); the rule tests' stacked decks are replayed on
both engines; under ``slow`` each configuration runs >= 100,000 steps and the
evaluator sees all 2,598,960 hands.
"""

import itertools

import numpy as np
import pytest

from pokerzoo.envs import batched
from pokerzoo.envs.batched import hands
from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.batched.core import PARALLEL_MIN_ROWS
from pokerzoo.envs.batched.testing import differential_play
from pokerzoo.envs.caribbean_stud.game import FIRST_ANTE_ACTION, FOLD, RAISE
from pokerzoo.envs.caribbean_stud.kernel import CaribbeanKernel
from pokerzoo.envs.engine.cards import ScriptedChance
from pokerzoo.envs.engine.hands import get_system, standard
from pokerzoo.envs.engine.hands.standard import key5

CARIBBEAN = get_system("caribbean")
CONFIGS = [
    {},
    {"boxes": 2},
    {"boxes": 3, "num_hands": 2},
    {"ante_choices": 3},
    {"ante_choices": [1, 4], "num_hands": 5},
    {"boxes": 2, "ante_choices": [1, 2, 5], "num_hands": 3},
    {"boxes": 3, "ante_choices": [2, 7]},
]
TABLES = hands.standard_tables(5)


@kernel
def _keys(tables, cards, out):
    for r in range(cards.shape[0]):
        out[r] = hands.standard_key(tables, cards[r], 5)


def compiled_keys(cards: np.ndarray) -> np.ndarray:
    out = np.empty(len(cards), dtype=np.int64)
    _keys(TABLES, np.ascontiguousarray(cards, dtype=np.int64), out)
    return out


def hand_classes() -> np.ndarray:
    """One hand of each of the 7,462 standard classes: every rank multiset off-suit, every rank set suited."""
    hands_ = []
    for combo in itertools.combinations_with_replacement(range(13), 5):
        counts = np.bincount(combo, minlength=13)
        if counts.max() > 4:
            continue
        # suits cycle 0,1,2,3,0: a rank's copies get distinct suits and no five cards share one
        hands_.append([(k % 4) * 13 + r for k, r in enumerate(combo)])
    for ranks in itertools.combinations(range(13), 5):
        hands_.append([2 * 13 + r for r in ranks])  # all diamonds
    return np.array(hands_, dtype=np.int64)


def test_compiled_evaluator_matches_the_scalar_one_on_every_hand_class():
    classes = hand_classes()
    assert len(classes) == 7462
    assert all(len(set(h)) == 5 for h in classes.tolist())
    keys = compiled_keys(classes)
    expected = [CARIBBEAN.key(h) for h in classes.tolist()]
    assert keys.tolist() == expected
    assert len(set(expected)) == 7462
    names = [CARIBBEAN.categories[hands.caribbean_category(int(k))] for k in keys]
    assert names == [CARIBBEAN.category_of(k) for k in expected]
    assert {"ace_king", "high_card", "royal_flush"} <= set(names)


@pytest.mark.slow
def test_compiled_evaluator_matches_on_all_2598960_hands():
    cards = np.array(list(itertools.combinations(range(52), 5)), dtype=np.int64)
    keys = compiled_keys(cards)
    assert keys.tolist() == [key5(*h) for h in cards.tolist()]
    assert np.array_equal(keys, standard.keys_batch(cards))


@pytest.mark.parametrize("config", CONFIGS)
def test_random_play_matches_the_scalar_game(config):
    report = differential_play("caribbean_stud", config, seeds=range(100, 164), steps=60)
    assert report.steps == 64 * 60 and report.games > 0


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS)
def test_random_play_matches_the_scalar_game_100k_steps(config):
    report = differential_play("caribbean_stud", config, seeds=range(5000, 5256), steps=400, action_seed=1)
    assert report.steps >= 100_000


def test_the_parallel_loop_plays_the_same_games():
    config = {"boxes": 2, "ante_choices": [1, 2, 5], "num_hands": 2}
    rows = PARALLEL_MIN_ROWS + 20  # enough rows for the parallel loop to be used
    report = differential_play(CaribbeanKernel, config, seeds=range(rows), steps=10, parallel=True)
    assert report.games > 0


AK_DEALER = "Ad Kc 6d 4c 2d"
# (boxes, dealer, actions, options): the stacked decks and decisions of test_rules.py
STACKED = [
    (["As Ks Qs Js Ts"], AK_DEALER, [RAISE], {}),
    (["9h 8h 7h 6h 5h"], AK_DEALER, [RAISE], {}),
    (["7c 7d 7h 7s 3c"], AK_DEALER, [RAISE], {}),
    (["8c 8d 8h 3s 3c"], AK_DEALER, [RAISE], {}),
    (["Kh 9h 8h 5h 3h"], AK_DEALER, [RAISE], {}),
    (["9c 8d 7h 6s 5c"], AK_DEALER, [RAISE], {}),
    (["Qc Qd Qh 5s 3c"], AK_DEALER, [RAISE], {}),
    (["Jc Jd 5h 5s 3c"], AK_DEALER, [RAISE], {}),
    (["Tc Td 8h 6s 3c"], AK_DEALER, [RAISE], {}),
    (["Ac Kd Qh 5s 3c"], AK_DEALER, [RAISE], {}),
    (["Ah Kd 6c 4s 2c"], AK_DEALER, [RAISE], {}),  # push
    (["9c 8d 5h 4s 2c"], "Qd Jc 7h 4c 3d", [RAISE], {}),  # dealer does not qualify
    (["Ac Qd Jh 5s 3c"], AK_DEALER, [RAISE], {}),
    (["As Ks Qs Js Ts"], AK_DEALER, [FOLD], {}),
    (["Qs Jd 9h 6s 5c"], "Ah Kc 4h 3c 2d", [RAISE], {}),  # the lowest qualifier
    (["Qs Jd 9h 6s 5c"], "Ah Qc 4h 3c 2d", [RAISE], {}),
    (["Ac Ah 7h 4s 2c", "Kh Kd 8h 5s 3c", "9c 8d 6h 5d 3h"], AK_DEALER, [RAISE, FOLD, RAISE], {}),
    (
        ["Ac Ah 7h 4s 2c", "9c 8d 6h 5s 3h"],
        AK_DEALER,
        [FIRST_ANTE_ACTION + 2, FIRST_ANTE_ACTION, RAISE, RAISE],
        {"ante_choices": [5, 1, 2]},
    ),
]


def test_the_rule_tests_stacked_decks_play_the_same_on_both_engines():
    by_options: dict[tuple, list] = {}
    for boxes, dealer, actions, options in STACKED:
        key = (len(boxes), tuple(sorted((k, str(v)) for k, v in options.items())))
        by_options.setdefault(key, []).append((boxes, dealer, actions, options))
    for (n_boxes, _), cases in by_options.items():
        options = {"boxes": n_boxes, **cases[0][3]}
        chances = [ScriptedChance(shuffles=[" ".join(b) + " " + d], seed=k) for k, (b, d, _, _) in enumerate(cases)]
        report = differential_play(
            "caribbean_stud",
            options,
            seeds=range(len(cases)),
            steps=len(cases[0][2]) + 3,  # the scripted hand, then the rows' own generators take over
            actions=[a for _, _, a, _ in cases],
            chances=chances,
        )
        assert report.games >= len(cases)


def test_stacked_rewards_are_the_rule_tests_figures():
    env = batched.make("caribbean_stud", 3)
    chances = [
        ScriptedChance(shuffles=["As Ks Qs Js Ts " + AK_DEALER]),  # royal flush raised: 1 + 2 x 100
        ScriptedChance(shuffles=["9c 8d 5h 4s 2c Qd Jc 7h 4c 3d"]),  # dealer without Ace-King: +1
        ScriptedChance(shuffles=["Ah Kd 6c 4s 2c " + AK_DEALER]),  # tie: push
    ]
    env.reset(seed=0, options={"chance": chances})
    _, _, rewards, done, _ = env.step(np.array([RAISE, RAISE, RAISE]))
    assert rewards[:, 0].tolist() == [201.0, 1.0, 0.0] and done.all()
