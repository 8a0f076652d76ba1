"""Batched Mexican poker against the scalar game with the differential kit.

Every option is covered: 2 to 7 players, several round counts, the default,
uniform and mixed corner tables (every board size), the doubt phase on and
off, passing a doubt, both reward modes. Random legal play runs a few
thousand steps per configuration here and >= 100,000 under ``slow``; the
stacked rounds of ``test_rules.py`` are replayed on both engines through
``chances=``/``actions=`` (their moves are recorded on the scalar game, the
reference, with the rule tests' own helpers). The compiled hand evaluation
(``batched_combos``) is checked against the scalar evaluator on every card set
of 1 to 4 cards and a sample of 5-card sets (all 8.2 million under ``slow``),
and the compiled combination generator against ``combos.legal_bits``, order
and duplicates included.
"""

from __future__ import annotations

from itertools import combinations

import numba
import numpy as np
import pytest
from mexican_helpers import SUITS, bid, cards, play, stacked_chance

from pokerzoo.envs import batched
from pokerzoo.envs.batched.core import PARALLEL_MIN_ROWS
from pokerzoo.envs.batched.testing import differential_play
from pokerzoo.envs.engine.cards import ScriptedChance
from pokerzoo.envs.engine.game import IllegalActionError
from pokerzoo.envs.engine.hands import get_system
from pokerzoo.envs.engine.hands.exact import CATEGORIES, ILLEGAL
from pokerzoo.envs.engine.hands.exact import classify as scalar_classify
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS
from pokerzoo.envs.mexican_poker import MexicanPokerGame, combos, encoding
from pokerzoo.envs.mexican_poker.actions import DOUBT_BASE, PASS
from pokerzoo.envs.mexican_poker.batched_combos import MAX_COMBOS, WORK, classify, legal_combos
from pokerzoo.envs.mexican_poker.kernel import MexicanKernel, schema_offsets

SYSTEM = get_system("mexican")
MIXED_TABLE = "01234" * 13  # pair by card id mod 5: every board size, another table than the default
# (options, rows, steps): random legal play; together they cover every option value and 2..7 players
CONFIGS = [
    ({"num_players": 2}, 16, 200),
    ({"num_players": 3, "doubt_pass": True}, 16, 200),
    ({}, 8, 700),  # 4 players, 10 rounds
    ({"num_players": 5, "doubt_chips": False, "rounds": 3}, 16, 200),
    ({"num_players": 6, "reward": "win", "rounds": 2}, 16, 200),
    ({"num_players": 7, "doubt_pass": True, "reward": "win", "rounds": 1}, 16, 200),
    ({"num_players": 7, "corner_table": "0" * 65}, 8, 900),  # B = 1, H = 7: 49 cards in hands
    ({"num_players": 3, "corner_table": [(5, 3)] * 65, "reward": "win", "rounds": 2}, 16, 200),
    ({"num_players": 4, "corner_table": MIXED_TABLE, "doubt_chips": False, "reward": "win"}, 8, 700),
    ({"num_players": 2, "rounds": 1, "reward": "win", "doubt_pass": True}, 16, 200),
]


def _id(config) -> str:
    return ",".join(f"{k}={v if len(str(v)) < 12 else str(v)[:8] + '…'}" for k, v in config[0].items()) or "defaults"


def test_offsets_come_from_the_encoder():
    offsets = schema_offsets()
    assert offsets["o_hand"] == 0 and len(offsets) == len(encoding.SCHEMA.offsets)
    params = batched.make("mexican_poker", 1).kernel.params
    assert all(getattr(params, k) == v for k, v in offsets.items())


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_random_play_matches_the_scalar_game(config):
    options, rows, steps = config
    report = differential_play("mexican_poker", options, seeds=range(100, 100 + rows), steps=steps)
    assert report.steps == rows * steps >= 3_000 and report.games_per_row.count(0) < rows


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_random_play_matches_the_scalar_game_100k_steps(config):
    options, rows, _ = config
    rows *= 2
    steps = -(-100_000 // rows)
    report = differential_play("mexican_poker", options, seeds=range(7000, 7000 + rows), steps=steps, action_seed=1)
    assert report.steps >= 100_000 and report.games > 0


def test_the_parallel_loop_plays_the_same_games():
    rows = PARALLEL_MIN_ROWS + 20  # enough rows for the parallel loop to be used
    report = differential_play(
        MexicanKernel, {"num_players": 3, "rounds": 1}, seeds=range(rows), steps=25, parallel=True
    )
    assert report.games > 0


# ---------------------------------------------------------------- the rule tests' stacked rounds
BOARD5 = "6m 7m 8m 9m Tm"
THREE = ["Ql Qb Qt", "Al Ab 2t", "2b 3b 4b"]


def _three_player_round(game):
    play(game, "Ql Qb Qt")
    play(game, "Al Ab")
    play(game, "2b")
    play(game, "2t")
    play(game, "3b")
    play(game, "4b")


def _apply_all(*actions):
    def script(game):
        for a in actions:
            game.apply(a)

    return script


def _then(*steps):
    def script(game):
        for step in steps:
            step(game)

    return script


D3 = [2, 0, 1]  # the three-player round's doubts by seat
LONE = ["Ql Qb Qt", "2l 3l 4l"]  # seat 0 empties its hand in one trick; seat 1 is left alone
LONE_SCRIPT = _then(
    lambda g: bid(g, [1, 0], doubts=[1, 0]), *[lambda g, c=c: play(g, c) for c in ("Ql Qb Qt", "2l", "3l", "4l")]
)
# (board, hands, token, options, script): test_rules.py's stacked(...) rounds and what the tests play on them
SCENARIOS = [
    (BOARD5, ["2l 3l 4l", "2b 3b 4b", "2t 3t 4t"], 1, {}, _apply_all(5, 2, 6)),
    (BOARD5, ["2l 3l 4l", "2b 3b 4b", "2t 3t 4t"], 0, {}, _apply_all(1, 1, 1, *(DOUBT_BASE + k for k in (2, 1, 1)))),
    (BOARD5, ["2l 3l 4l", "2b 3b 4b"], 1, {"doubt_pass": True}, lambda g: bid(g, [0, 0], doubts=[-1, 0])),
    (BOARD5, ["2l 3l 4l", "2b 3b 4b"], 1, {"doubt_chips": False}, _apply_all(1, 1)),
    (BOARD5, ["7l 7b 9l", "2b 3b 4b"], 0, {}, lambda g: bid(g, [0, 0])),
    (
        BOARD5,
        ["7l 2l 3l", "7b 2b 3b"],
        0,
        {},
        _then(lambda g: bid(g, [0, 0]), lambda g: play(g, "7l", "7m"), lambda g: play(g, "7b", "7m")),
    ),
    (
        "Qq Qm Ql 2b 3b",
        ["4b 5b 6b", "Qb Qt 9l"],
        0,
        {},
        _then(lambda g: bid(g, [0, 0]), lambda g: play(g, "4b 5b 6b", "2b 3b"), lambda g: play(g, "Qb Qt", "Qq Qm Ql")),
    ),
    (
        "Ab Kb 7m 7l 7q",
        ["7b 7t 2m", "Tb Jb Qb"],
        0,
        {},
        _then(lambda g: bid(g, [0, 0]), lambda g: play(g, "7b 7t", "7m 7l 7q"), lambda g: play(g, "Tb Jb Qb", "Kb Ab")),
    ),
    (
        "6m Am 2l 3b 4t",
        ["5q 9m 9l", "5l Kt 2m"],
        0,
        {},
        _then(lambda g: bid(g, [0, 0]), lambda g: play(g, "5q", "Am 2l 3b 4t"), lambda g: play(g, "5l", "2l 3b 4t 6m")),
    ),
    *[
        (
            BOARD5,
            ["7l 2l 3l", "7b 2b 3b"],
            token,
            {},
            _then(lambda g: bid(g, [0, 0]), lambda g, c=first: play(g, c, "7m"), lambda g, c=second: play(g, c, "7m")),
        )
        for token, first, second in [(0, "7l", "7b"), (1, "7b", "7l")]
    ],
    (BOARD5, THREE, 0, {}, _then(lambda g: bid(g, [1, 0, 1], doubts=D3), _three_player_round)),
    *[
        (BOARD5, THREE, 0, {"rounds": 2}, _then(lambda g, p=p, d=d: bid(g, p, d), _three_player_round))
        for p, d in [([1, 0, 1], D3), ([0, 2, 3], D3)]
    ],
    *[
        (BOARD5, THREE, 0, {"rounds": 1, "reward": "win"}, _then(lambda g, p=p: bid(g, p, D3), _three_player_round))
        for p in ([1, 0, 1], [0, 2, 3])
    ],
    (BOARD5, LONE, 0, {"rounds": 1}, LONE_SCRIPT),
]


def _recorded(chance: ScriptedChance, options: dict, script) -> list[int]:
    """The actions ``script`` takes on the scalar game dealt by ``chance`` (the reference records the moves)."""
    game = MexicanPokerGame(chance=chance.copy(), **options)
    script(game)
    return list(game.history)


def _replay(options: dict, chances: list, moves: list[list[int]], extra: int = 40):
    report = differential_play(
        "mexican_poker",
        options,
        seeds=range(len(chances)),
        steps=max(len(m) for m in moves) + extra,
        actions=moves,
        chances=chances,
    )
    assert report.steps > 0
    return report


def test_the_rule_tests_stacked_rounds_play_the_same_on_both_engines():
    by_options: dict[str, tuple[dict, list, list]] = {}
    for board, hands, token, extra, script in SCENARIOS:
        options = {"num_players": len(hands), **extra}
        chance = stacked_chance(board, hands, token)
        entry = by_options.setdefault(repr(sorted(options.items())), (options, [], []))
        entry[1].append(chance)
        entry[2].append(_recorded(chance, options, script))
    assert sum(len(e[1]) for e in by_options.values()) == len(SCENARIOS)
    for options, chances, moves in by_options.values():
        _replay(options, chances, moves)


# the revealed card of each corner pair under the default table (test_rules.REVEAL)
REVEAL = {0: "2m", 1: "3m", 2: "4m", 3: "5m", 4: "6m"}


@pytest.mark.parametrize("pair", range(5))
def test_every_board_size_from_the_revealed_card(pair):
    n = 7 if pair else 6  # 6 players x 7 cards + 1 board card fits; so does everything else
    chance = ScriptedChance(shuffles=[[REVEAL[pair]]], integers=[0], suit_chars=SUITS)
    _replay({"num_players": n, "rounds": 2}, [chance, None], [[], []], extra=60)


def test_a_mixed_corner_table_and_the_token_order():
    mixed = [4] * 65
    mixed[cards("Km")[0]] = 2
    chance = ScriptedChance(shuffles=[["Km"]], integers=[0], suit_chars=SUITS)
    _replay({"num_players": 2, "corner_table": mixed}, [chance], [[]], extra=60)
    tokens = ScriptedChance(integers=[2], suit_chars=SUITS, seed=3)
    _replay({"num_players": 3, "rounds": 4}, [tokens], [[]], extra=200)


# ---------------------------------------------------------------- figures on the batched env alone
def _stacked_env(board, hands, token=0, rows=1, **options):
    env = batched.make("mexican_poker", rows, num_players=len(hands), **options)
    chance = [stacked_chance(board, hands, token) for _ in range(rows)]
    return env, env.reset(seed=0, options={"chance": chance})


def test_lone_last_player_round_scores_the_rule_tests_figures():
    env, _ = _stacked_env(BOARD5, LONE, rounds=1)
    moves = _recorded(stacked_chance(BOARD5, LONE), {"num_players": 2, "rounds": 1}, LONE_SCRIPT)
    total = np.zeros(2)
    for move in moves:
        _, _, rewards, done, _ = env.step([move])
        total += rewards[0]
    assert done[0] and total.tolist() == [3.0, -3.0]


def test_an_illegal_action_names_the_legal_ones_and_changes_nothing():
    env, _ = _stacked_env(BOARD5, ["2l 3l 4l", "2b 3b 4b", "2t 3t 4t"], rows=2)
    for _ in range(3):
        env.step([1, 1])
    before = [a.copy() for a in env.state], env.obs.copy(), env.mask.copy()
    with pytest.raises(IllegalActionError, match=rf"row 1: illegal action {PASS}\b.*legal now"):
        env.step([DOUBT_BASE + 1, PASS])  # no passing without doubt_pass
    assert all(np.array_equal(a, b) for a, b in zip(env.state, before[0], strict=True))
    assert np.array_equal(env.obs, before[1]) and np.array_equal(env.mask, before[2])


# ---------------------------------------------------------------- compiled hand evaluation
@numba.njit(cache=False)
def _classify_rows(sets, out):
    for r in range(sets.shape[0]):
        out[r] = classify(sets[r], sets.shape[1])


def _compiled_keys(sets: np.ndarray) -> np.ndarray:
    out = np.empty(len(sets), dtype=np.int64)
    _classify_rows(np.ascontiguousarray(sets, dtype=np.int64), out)
    return out


def _all_sets(k: int) -> np.ndarray:
    return np.array(list(combinations(range(65), k)), dtype=np.int64).reshape(-1, k)


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_classify_agrees_with_the_scalar_evaluator_on_every_set(k):
    sets = _all_sets(k)
    assert np.array_equal(_compiled_keys(sets), SYSTEM.keys_batch(sets))


def test_classify_agrees_on_five_card_sets_of_every_category_in_any_order():
    rng = np.random.default_rng(0)
    sample = np.array([rng.choice(65, 5, replace=False) for _ in range(60_000)], dtype=np.int64)
    built = [  # one set of each five-card category, so that each is seen whatever the sample draws
        "2m 3m 4m 5m 6m",  # straight flush
        "Tl Jl Ql Kl Al",  # royal flush
        "Am 2l 3b 4t 5q",  # wheel
        "9m 9l 9b 9t 9q",  # five of a kind
        "2m 2l 2b 5t 5q",  # full house
        "2m 7m 9m Jm Km",  # flush
        "8m 9l Tb Jt Qq",  # straight
    ]
    sets = np.vstack([sample, np.array([cards(t) for t in built], dtype=np.int64)])
    sets = rng.permuted(sets, axis=1)  # classify takes the cards in any order
    keys = _compiled_keys(sets)
    assert np.array_equal(keys, SYSTEM.keys_batch(sets))
    assert all(scalar_classify(s.tolist()) == key for s, key in zip(sets[-len(built) :], keys[-len(built) :]))
    seen = {CATEGORIES[key >> TIEBREAK_BITS] for key in keys if key != ILLEGAL}
    assert seen >= {"straight", "flush", "full_house", "straight_flush", "five_of_a_kind", "royal_flush"}


@pytest.mark.slow
def test_classify_agrees_on_every_five_card_set():
    sets = _all_sets(5)
    assert len(sets) == 8_259_888
    assert np.array_equal(_compiled_keys(sets), SYSTEM.keys_batch(sets))


def _generated(hand: list[int], board: list[int]) -> list[tuple[int, int]]:
    work = np.zeros(WORK, dtype=np.int64)
    out = np.zeros((MAX_COMBOS, 2), dtype=np.int64)
    h = np.zeros(7, dtype=np.int64)
    b = np.zeros(5, dtype=np.int64)
    h[: len(hand)] = hand
    b[: len(board)] = board
    count = legal_combos(h, len(hand), b, len(board), work, out)
    return [(int(bits), int(key)) for bits, key in out[:count]]


@pytest.mark.parametrize("board_size", [1, 2, 3, 4, 5])
def test_the_combination_generator_is_legal_bits_in_order(board_size):
    rng = np.random.default_rng(board_size)
    for trial in range(400):
        hand_size = 8 - board_size - (trial % (8 - board_size))  # full hands and hands that lost cards
        dealt = rng.choice(65, hand_size + board_size, replace=False)
        if trial % 3 == 0:  # few ranks: many pairs, full houses, fours and fives of a kind
            dealt = rng.choice(np.arange(65).reshape(5, 13)[:, :4].ravel(), hand_size + board_size, replace=False)
        hand = sorted(dealt[:hand_size].tolist(), key=lambda c: (c % 13, c // 13))
        board = sorted(dealt[hand_size:].tolist(), key=lambda c: (c % 13, c // 13))
        generated = _generated(hand, board)
        assert [bits for bits, _ in generated] == combos.legal_bits(hand, board)
        for bits, key in generated:
            h, b = combos.cards_of(bits, hand, board)
            assert key == scalar_classify(h + b)
