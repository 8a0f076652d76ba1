"""Batched Breed the Heifer against the scalar game: the compiled evaluator and the differential kit.

Every option is covered (2-7 players, both ``wild_pairs`` rules, both flush
rules, antes from none to most of a stack, small and big bets, raise caps
from 0 to 10, equal and per-seat stacks with side pots, busted seats sitting
out, several hands per episode, chip counts up to the 10^9 limit, the
observation's action counts); the rule
tests' stacked decks are replayed on both engines; under ``slow`` each
configuration runs >= 100,000 steps and the evaluator sees every hand class
and 10^6 random hands.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from heifer_helpers import stacked

from pokerzoo.envs import batched
from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.batched.core import PARALLEL_MIN_ROWS
from pokerzoo.envs.batched.testing import differential_play
from pokerzoo.envs.breed_the_heifer import encoding
from pokerzoo.envs.breed_the_heifer.game import BreedTheHeiferGame
from pokerzoo.envs.breed_the_heifer.kernel import HeiferKernel
from pokerzoo.envs.breed_the_heifer.kernel_hands import (
    add_cards,
    category_of_words,
    heifer_key,
    key_in_category,
    straight_table,
)
from pokerzoo.envs.breed_the_heifer.ranking import CATEGORIES, ranker
from pokerzoo.envs.engine.betting import BET, CALL, CHECK, FOLD, RAISE
from pokerzoo.envs.engine.cards import ScriptedChance
from pokerzoo.envs.engine.hands import get_system
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS
from pokerzoo.envs.engine.options import ConfigError

# (options, rows, steps) of random legal play; together they cover every option
CONFIGS = [
    ({}, 48, 64),
    ({"num_players": 2, "action_counts": True}, 48, 64),
    ({"num_players": 3, "wild_pairs": "any_player"}, 48, 64),
    ({"num_players": 4, "double_ace_flush": True, "max_raises": 1}, 48, 64),
    ({"num_players": 6, "ante": 0, "small_bet": 3, "big_bet": 3}, 32, 96),
    ({"num_players": 7, "wild_pairs": "any_player", "double_ace_flush": True, "max_raises": 0}, 32, 96),
    ({"num_players": 4, "stacks": [3, 7, 50, 50], "num_hands": 5, "action_counts": True}, 48, 64),  # all-ins, side pots
    (  # a seat all in on the ante, busts, seats sitting out, a raise cap no stack reaches
        {
            "num_players": 5,
            "stacks": [1, 2, 5, 12, 40],
            "num_hands": 20,
            "small_bet": 1,
            "big_bet": 10,
            "max_raises": 10,
            "action_counts": True,
        },
        48,
        64,
    ),
    ({"num_players": 3, "stacks": 12, "ante": 5, "num_hands": 10}, 48, 64),  # hands no one can bet in
    (
        {"num_players": 2, "stacks": 1_000_000_000, "ante": 999_999, "small_bet": 333_333, "big_bet": 1_000_000},
        48,
        64,
    ),
    ({"num_players": 7, "stacks": [5, 10, 15, 20, 25, 30, 35], "num_hands": 4, "wild_pairs": "any_player"}, 32, 96),
    ({"num_players": 2, "stacks": 3, "num_hands": 10_000, "double_ace_flush": True}, 48, 64),
]


def _id(config) -> str:
    return ",".join(f"{k}={v}" for k, v in config[0].items()) or "defaults"


# ---------------------------------------------------------------- the compiled evaluator
@kernel
def _keys(table, cards, sizes, wilds, double_ace_flush, out):
    for r in range(cards.shape[0]):
        out[r] = heifer_key(table, cards[r], sizes[r], wilds[r], double_ace_flush)


def compiled_keys(hands: list[list[int]], wilds: list[int], double_ace_flush: bool) -> np.ndarray:
    cards = np.zeros((len(hands), 7), dtype=np.int8)
    for r, h in enumerate(hands):
        cards[r, : len(h)] = h
    sizes = np.array([len(h) for h in hands], dtype=np.int64)
    out = np.empty(len(hands), dtype=np.int64)
    _keys(straight_table(), cards, sizes, np.array(wilds, dtype=np.int64), double_ace_flush, out)
    return out


def rank_classes(wild: int) -> list[list[int]]:
    """One hand of 1-7 cards for every (multiset of natural ranks, number of wild cards) with ``wild`` wild.

    A rank's copies get distinct suits (suits cycle), the wild cards the
    first suits of the wild rank; these are the classes of the suit-blind part
    of the key (``ranking.nonflush_key``).
    """
    ranks = [r for r in range(13) if r != wild]
    hands = []
    for n in range(1, 8):
        for w in range(min(4, n) + 1) if wild >= 0 else (0,):
            for combo in itertools.combinations_with_replacement(ranks, n - w):
                if combo and max(combo.count(r) for r in set(combo)) > 4:
                    continue
                hand = [(k % 4) * 13 + r for k, r in enumerate(combo)]
                hands.append(hand + [s * 13 + wild for s in range(w)])
    return hands


def flush_classes(wild: int) -> list[list[int]]:
    """Every rank set of one suit (diamonds) that makes a flush with 0-4 wild cards, in hands of 5-7 cards."""
    ranks = [r for r in range(13) if r != wild]
    hands = []
    for w in range(5) if wild >= 0 else (0,):
        for size in range(max(1, 5 - w), 8 - w):
            for combo in itertools.combinations(ranks, size):
                hands.append([2 * 13 + r for r in combo] + [s * 13 + wild for s in (0, 1, 3, 2)[:w]])
    return hands


def check_against_the_ranker(hands: list[list[int]], wilds: list[int]) -> None:
    for double_ace_flush in (False, True):
        keys = compiled_keys(hands, wilds, double_ace_flush).tolist()
        scalar = ranker(double_ace_flush)
        expected = [scalar.key(h, w) for h, w in zip(hands, wilds)]
        bad = [(h, w, hex(e), hex(k)) for h, w, e, k in zip(hands, wilds, expected, keys) if e != k]
        assert not bad, f"double_ace_flush={double_ace_flush}: {len(bad)} keys differ, e.g. {bad[:3]}"


def random_hands(count: int, seed: int) -> tuple[list[list[int]], list[int]]:
    """1-7 distinct cards and a wild rank (or none); half of the hands from two suits, where flushes are common."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 8, count)
    wilds = rng.integers(-1, 13, count)
    hands = []
    for r in range(count):
        if r % 2:
            hands.append(rng.permutation(52)[: sizes[r]].tolist())
        else:
            low = 13 * int(rng.integers(0, 3))
            hands.append((rng.permutation(26)[: sizes[r]] + low).tolist())
    return hands, wilds.tolist()


@pytest.mark.parametrize("wild", [-1, 0, 8, 12])
def test_compiled_evaluator_matches_the_ranker_on_every_class(wild):
    hands = rank_classes(wild) + flush_classes(wild)
    categories = {ranker().category(int(k)) for k in compiled_keys(hands, [wild] * len(hands), False)}
    assert categories == set(CATEGORIES) - ({"five_of_a_kind"} if wild < 0 else set())
    check_against_the_ranker(hands, [wild] * len(hands))


@pytest.mark.slow
@pytest.mark.parametrize("wild", [1, 2, 3, 4, 5, 6, 7, 9, 10, 11])
def test_compiled_evaluator_matches_the_ranker_on_every_class_of_every_wild_rank(wild):
    hands = rank_classes(wild) + flush_classes(wild)
    check_against_the_ranker(hands, [wild] * len(hands))


def test_compiled_evaluator_matches_on_random_hands():
    hands, wilds = random_hands(20_000, seed=1)
    check_against_the_ranker(hands, wilds)
    # the ranker is the rank system's fast path (test_ranking.py); spot-check the system itself too
    keys = compiled_keys(hands[:1500], wilds[:1500], True).tolist()
    for h, w, k in zip(hands[:1500], wilds[:1500], keys):
        assert k == get_system("heifer", wild_rank=None if w < 0 else w, double_ace_flush=True).key(h)


@pytest.mark.slow
def test_compiled_evaluator_matches_on_a_million_random_hands():
    hands, wilds = random_hands(1_000_000, seed=2)
    check_against_the_ranker(hands, wilds)


@kernel
def _categories(table, cards, sizes, wilds, out, keys, double_ace_flush):
    """Each hand's ``category_of_words`` into ``out``, and its ``key_in_category`` of that category into ``keys``."""
    for r in range(cards.shape[0]):
        counts, suits, w = add_cards(cards[r], sizes[r], wilds[r], np.int64(0), np.int64(0), 0)
        out[r] = category_of_words(table, counts, suits, w, sizes[r])
        keys[r] = key_in_category(table, counts, suits, w, sizes[r], double_ace_flush, out[r])


@pytest.mark.parametrize("wild", [-1, 0, 5, 12])
def test_the_branch_free_category_is_the_keys_category_and_builds_the_same_key(wild):
    hands = rank_classes(wild) + flush_classes(wild)
    others, other_wilds = random_hands(20_000, seed=3)
    hands, wilds = hands + others, [wild] * len(hands) + other_wilds
    cards = np.zeros((len(hands), 7), dtype=np.int8)
    for r, h in enumerate(hands):
        cards[r, : len(h)] = h
    sizes = np.array([len(h) for h in hands], dtype=np.int64)
    categories = np.empty(len(hands), dtype=np.int64)
    category_keys = np.empty(len(hands), dtype=np.int64)
    for double_ace_flush in (False, True):
        _categories(straight_table(), cards, sizes, np.array(wilds, dtype=np.int64), categories, category_keys,
                    double_ace_flush)  # fmt: skip
        keys = compiled_keys(hands, wilds, double_ace_flush)
        bad = np.flatnonzero(categories != keys >> TIEBREAK_BITS)
        assert not bad.size, [(hands[b], wilds[b], categories[b], keys[b] >> TIEBREAK_BITS) for b in bad[:3]]
        bad = np.flatnonzero(category_keys != keys)  # the key built for the known category is the full key
        assert not bad.size, [(hands[b], wilds[b], hex(category_keys[b]), hex(keys[b])) for b in bad[:3]]


# ---------------------------------------------------------------- the kernel's contract
def test_offsets_come_from_the_encoders_schema():
    for n, action_counts in itertools.product(range(2, 8), (False, True)):
        env = batched.make("breed_the_heifer", 1, num_players=n, action_counts=action_counts)
        offsets = encoding.schema(n, action_counts).offsets
        assert {k: getattr(env.kernel.params, f"o_{k}") for k in offsets} == offsets
        assert env.observation_size == encoding.schema(n, action_counts).size
        assert env.kernel.params.o_actions == offsets.get("actions", -1)


@pytest.mark.parametrize(
    "options",
    [
        {"stacks": 1},
        {"num_players": 2, "ante": 100, "stacks": 100},
        {"num_players": 3, "ante": 10, "stacks": [50, 10, 5]},
    ],
)
def test_options_whose_first_hand_has_no_decision_are_refused_naming_them(options):
    BreedTheHeiferGame(seed=0, **options)  # the scalar game plays them
    with pytest.raises(ConfigError, match=r"ante=\d+ leaves fewer than two seats with chips behind"):
        batched.make("breed_the_heifer", 4, **options)


def test_a_seat_all_in_on_the_ante_is_batched():
    report = differential_play("breed_the_heifer", {"num_players": 3, "stacks": [1, 40, 40]}, seeds=range(8), steps=30)
    assert report.games > 0


# ---------------------------------------------------------------- random legal play
@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_random_play_matches_the_scalar_game(config):
    options, rows, steps = config
    report = differential_play("breed_the_heifer", options, seeds=range(100, 100 + rows), steps=steps)
    assert report.steps == rows * steps >= 3_000 and report.games > 0


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_random_play_matches_the_scalar_game_100k_steps(config):
    options = config[0]
    report = differential_play("breed_the_heifer", options, seeds=range(5000, 5256), steps=400, action_seed=1)
    assert report.steps >= 100_000


def test_the_parallel_loop_plays_the_same_games():
    config = {"num_players": 4, "stacks": [3, 7, 50, 50], "num_hands": 3, "wild_pairs": "any_player"}
    rows = PARALLEL_MIN_ROWS + 20  # enough rows for the parallel loop to be used
    report = differential_play(HeiferKernel, config, seeds=range(rows), steps=12, parallel=True)
    assert report.games > 0


# ---------------------------------------------------------------- the rule tests' stacked decks
SEVEN = {
    0: "2c 3d 7s 7h 2d 4h 9c",
    1: "4c 5d Kd Jc Kc 8c Tc",
    2: "6c 8d 9s Qh 5s Qs Ad",
}
SHOWING_TIES = {1: "5c 7c 3c 2d 4h 6s", 2: "8h Kd Ah 9c Td Jd", 0: "Ks 2s As 9d Tc Jh"}
SIDE_POTS = {
    0: "2h 6h 8h 9h 4h Ks 3d",
    1: "2d 3h 5c 6d 8c Jc 9s",
    2: "As Kd Qc Jh Th 4s 2c",
    3: "Ah Kc Qd Js Tc 5h 3c",
}
ODD_CHIP = {1: "As Kd Qc Jh Th 4s 2c", 2: "Ah Kc Qd Js Tc 5h 3c", 0: "2d 3h 5c 6d 8c Jc 9s"}
# (num_players, chance, options, script): a script is actions, and ("to", street) for checking and calling until
# that street; whatever a script leaves is played out by checking and calling (as test_rules.py's ``passive``)
STACKED = [
    (3, stacked(3, 2, {0: "2c 3d 7s 7h", 1: "4c 5d Kd Jc", 2: "6c 8d 9s Qh"}), {}, []),
    (3, stacked(3, 2, {0: "2c 3d 7s 7d", 1: "4c 5d 7h Ac", 2: "6c 8d Jc Qh"}), {}, []),
    (3, stacked(3, 2, {0: "2c 3d 7s 7d", 1: "4c 5d 7h Ac", 2: "6c 8d Jc Qh"}), {"wild_pairs": "any_player"}, []),
    (3, stacked(3, 2, SEVEN), {}, []),
    (3, stacked(3, 2, {0: "2c 3d 7s 7h", 1: "4c 5d Kd Kc", 2: "6c 8d 9s Qh"}), {}, []),
    (2, stacked(2, 1, {0: "Qd As Kc Kd 2h 9c Qs", 1: "Jc Jd 5s Qh 6h 8s Ts"}), {}, []),
    (3, stacked(3, 2, {0: "2c 3d Qs Qh", 1: "4c 6d Kc 5d", 2: "6c 8d Ac Jd"}), {}, []),
    (3, stacked(3, 0, SHOWING_TIES), {}, [("to", 6), CHECK, BET, CALL, FOLD]),
    (3, stacked(3, 0, SHOWING_TIES), {}, []),
    (
        3,
        ScriptedChance(integers=[2], seed=5),
        {"action_counts": True},  # the raise cap, counted
        [BET, RAISE, RAISE, RAISE, CALL, CALL, ("to", 5), BET],
    ),
    (3, ScriptedChance(integers=[2], seed=5), {"max_raises": 1}, [BET, RAISE]),
    (
        4,
        stacked(4, 3, SIDE_POTS),
        {"stacks": [3, 7, 50, 50]},
        [BET, RAISE, CALL, CALL, CHECK, CHECK, BET, CALL, CALL, BET, CALL],
    ),
    (3, stacked(3, 0, ODD_CHIP), {}, []),
    (3, stacked(3, 1, ODD_CHIP), {}, []),
    (3, stacked(3, 2, {0: "2c 3d 7s", 1: "4c 5d Kd", 2: "6c 8d 9s"}), {}, [BET, FOLD, FOLD]),
]


def script_actions(n: int, chance: ScriptedChance, options: dict, script: list) -> list[int]:
    """The whole game's actions: ``script`` played on the scalar game, then checks and calls to the end."""
    game = BreedTheHeiferGame(chance=chance.copy(), num_players=n, **options)
    for item in script:
        if isinstance(item, tuple):
            while game.street < item[1]:
                game.apply(CHECK if game.legal_mask()[CHECK] else CALL)
        else:
            game.apply(item)
    while not game.is_over:
        game.apply(CHECK if game.legal_mask()[CHECK] else CALL)
    return list(game.history)


def test_the_rule_tests_stacked_decks_play_the_same_on_both_engines():
    groups: dict[tuple, list] = {}
    for n, chance, options, script in STACKED:
        groups.setdefault((n, tuple(sorted((k, str(v)) for k, v in options.items()))), []).append(
            (chance, script_actions(n, chance, options, script), options)
        )
    for (n, _), cases in groups.items():
        report = differential_play(
            "breed_the_heifer",
            {"num_players": n, **cases[0][2]},
            seeds=range(len(cases)),
            steps=max(len(actions) for _, actions, _ in cases) + 3,  # the scripted game, then the rows' own draws
            actions=[actions for _, actions, _ in cases],
            chances=[chance.copy() for chance, _, _ in cases],  # the kit's scalar envs use up a script
        )
        assert report.games >= len(cases)


def _play_scripted(env, chance: ScriptedChance, actions: list[int]) -> np.ndarray:
    """Rewards per seat of the first game of a one-row env on ``chance``, played with ``actions``."""
    env.reset(seed=0, options={"chance": [chance.copy()]})
    total = np.zeros(env.num_players)
    for a in actions:
        _, _, rewards, done, _ = env.step(np.array([a]))
        total += rewards[0]
    assert done[0]
    return total


def test_stacked_rewards_are_the_rule_tests_figures():
    n, chance, options, script = STACKED[11]  # two side pots and a split
    env = batched.make("breed_the_heifer", 1, num_players=n, **options)
    assert _play_scripted(env, chance, script_actions(n, chance, options, script)).tolist() == [9, -7, -1, -1]
    env = batched.make("breed_the_heifer", 1, num_players=3)
    for (_, chance, _, _), nets in zip(STACKED[12:14], ([-1, 1, 0], [-1, 0, 1])):  # the odd chip, by the dealer
        assert _play_scripted(env, chance, script_actions(3, chance, {}, [])).tolist() == nets
    _, chance, _, script = STACKED[14]  # folds to one player
    assert _play_scripted(env, chance, script).tolist() == [2, -1, -1]


@pytest.mark.parametrize(
    ("seed", "options"),
    [
        (11, {"num_players": 4, "stacks": [2, 30, 30, 30], "num_hands": 6}),  # buttons, carried stacks, busts
        (3, {"num_players": 3, "stacks": [1, 40, 40], "num_hands": 3}),  # a seat without chips is not dealt in
    ],
)
def test_the_rule_tests_seeded_episodes_play_the_same(seed, options):
    report = differential_play("breed_the_heifer", options, seeds=[seed] * 4, steps=150, action_seed=seed)
    assert report.games >= 4
