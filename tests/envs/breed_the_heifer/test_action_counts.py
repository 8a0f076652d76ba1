"""The option ``action_counts``: each seat's checks, calls, and bets or raises this hand, the observation's last piece.

A scripted two-hand episode checks the exact counts on both engines (and their
reset at the second hand); random play checks that the observation with the
option is the observation without it followed by the counts, on both engines;
a short-stack hand checks the cap at 1. The differential tests against the
scalar game (``test_batched.py``, ``test_kernel_state.py``) cover the option too.
"""

from __future__ import annotations

import numpy as np
import pytest
from heifer_helpers import deal, stacked

from pokerzoo.envs import batched
from pokerzoo.envs.batched.testing import differential_play, random_legal
from pokerzoo.envs.breed_the_heifer import encoding
from pokerzoo.envs.breed_the_heifer.game import BreedTheHeiferGame
from pokerzoo.envs.engine.betting import BET, CALL, CHECK, FOLD, RAISE
from pokerzoo.envs.engine.schema import symbolic_table
from pokerzoo.envs.observation_docs import DOCS


def test_the_option_appends_one_piece_last_and_is_off_by_default():
    off, on = encoding.schema(5), encoding.schema(5, action_counts=True)
    assert (off.size, on.size) == (388, 403)
    assert on.pieces[: len(off.pieces)] == off.pieces and on.names[-1] == "actions" and on["actions"].dims == (5, 3)
    assert encoding.schema(5) is encoding.schema(5, False) is encoding.schema(5, action_counts=False)
    assert "actions" not in off and BreedTheHeiferGame(seed=0).config["action_counts"] is False
    assert BreedTheHeiferGame(seed=0).observation_schema is off
    game = BreedTheHeiferGame(seed=0, action_counts=True)
    assert game.observation_schema is on and game.observation_size == 403
    assert game.encoder is encoding.encoder_for(5, True) is not encoding.encoder_for(5)
    assert batched.make("breed_the_heifer", 1, action_counts=True).observation_size == 403
    assert batched.make("breed_the_heifer", 1).kernel.params.o_actions == -1


def test_the_docs_describe_the_piece_where_the_schema_puts_it():
    """The rules page's row for ``actions`` is the one the schema renders (the generated table shows the
    default layout, so this row is checked here)."""
    table = symbolic_table(lambda n: encoding.schema(n, action_counts=True), "N")
    row = next(line for line in table.splitlines() if encoding.schema(2, True)["actions"].meaning in line)
    assert row.startswith("| 88+60N | N×3 |")
    page = (DOCS / "breed_the_heifer.md").read_text(encoding="utf-8")
    assert row in page and "`action_counts`" in page


def assert_actions_piece(obs: np.ndarray, counts: list, scale: int = 20) -> None:
    """The ``actions`` piece of ``obs`` is ``counts`` (one row per relative seat) / ``scale``, to the bit."""
    piece = encoding.schema(len(counts), True).view(obs, "actions")
    np.testing.assert_array_equal(piece, (np.array(counts, dtype=np.float64) / scale).astype(np.float32))


# Dealer 2 of 3, p0 opens 3rd street; on 4th street p1's K-J shows best (p0 7-8, p2 9-Q), nothing wild.
HANDS = {0: "2c 3d 7s 8h", 1: "4c 5d Kd Jc", 2: "6c 8d 9s Qh"}


def scripted_episode() -> tuple[BreedTheHeiferGame, list[tuple[int, int, tuple]]]:
    """Two hands: a 3rd and a 4th street of known actions, a bet and a fold on 5th, then one check of hand 2.

    Returns the game and, after each action, (the seat that acted, the action, the counts then)."""
    g = deal(3, 2, HANDS, num_hands=2, action_counts=True)
    steps = []
    script = [
        (0, BET), (1, RAISE), (2, CALL), (0, CALL),  # 3rd street
        (1, CHECK), (2, CHECK), (0, BET), (1, FOLD), (2, CALL),  # 4th street
    ]  # fmt: skip
    for seat, action in script:
        assert g.current_player == seat and g.street == (3 if len(steps) < 4 else 4)
        g.apply(action)
        steps.append((seat, action, g.action_counts))
    assert g.street == 5 and g.hand_number == 0
    for action in (BET, FOLD):  # 5th street: whoever opens bets, the other folds: hand 1 is over
        seat = g.current_player
        g.apply(action)
        steps.append((seat, action, g.action_counts))
    assert g.hand_number == 1 and g.street == 3 and g.dealer == 0
    seat = g.current_player
    g.apply(CHECK)
    steps.append((seat, CHECK, g.action_counts))
    return g, steps


def test_a_scripted_episode_counts_every_check_call_and_bet_and_resets_at_the_next_hand():
    _, steps = scripted_episode()
    after_fourth = steps[8][2]
    # p0 bet, called, bet; p1 raised, checked (its fold is not counted); p2 called, checked, called
    assert after_fourth == ((0, 1, 2), (1, 0, 1), (1, 2, 0))
    assert [s[2] for s in steps[:4]] == [
        ((0, 0, 1), (0, 0, 0), (0, 0, 0)),
        ((0, 0, 1), (0, 0, 1), (0, 0, 0)),
        ((0, 0, 1), (0, 0, 1), (0, 1, 0)),
        ((0, 1, 1), (0, 0, 1), (0, 1, 0)),
    ]
    bettor = steps[9][0]  # the 5th-street bet is counted...
    assert steps[9][2] == tuple((c, k, b + (p == bettor)) for p, (c, k, b) in enumerate(after_fourth))
    assert steps[10][2] == ((0, 0, 0),) * 3  # ...and the fold ended hand 1: hand 2 starts from zero
    opener = steps[11][0]
    assert steps[11][2] == tuple((1, 0, 0) if p == opener else (0, 0, 0) for p in range(3))
    # the observation: relative seat k is seat (observer + k) % 3, each count over 5 rounds x 4 bets
    replay = deal(3, 2, HANDS, num_hands=2, action_counts=True)
    for _, action, _ in steps[:9]:
        replay.apply(action)
    assert replay.view(2).actions == after_fourth
    assert_actions_piece(replay.observe(2), [(1, 2, 0), (0, 1, 2), (1, 0, 1)])  # p2, then p0, then p1
    assert_actions_piece(replay.observe(0), [(0, 1, 2), (1, 0, 1), (1, 2, 0)])


def test_the_scripted_episode_counts_alike_in_the_batched_engine():
    g, steps = scripted_episode()
    chance = stacked(3, 2, HANDS)
    env = batched.make("breed_the_heifer", 1, num_players=3, num_hands=2, action_counts=True)
    env.reset(seed=0, options={"chance": [chance.copy()]})
    for t, (_, action, counts) in enumerate(steps):
        env.step(np.array([action]))
        assert env.state.acts[0].tolist() == [list(c) for c in counts], f"after step {t}"
        me = int(env.current_player[0])
        assert_actions_piece(env.obs[0], [counts[(me + k) % 3] for k in range(3)])
    report = differential_play(
        "breed_the_heifer", {"num_players": 3, "num_hands": 2, "action_counts": True}, seeds=[0], steps=40,
        actions=[list(g.history)], chances=[chance],
    )  # fmt: skip
    assert report.games >= 1


OPTION_SETS = [
    {},
    {"num_players": 3, "num_hands": 4, "max_raises": 1},
    {"num_players": 6, "stacks": [3, 7, 50, 50, 9, 30], "num_hands": 5, "big_bet": 10},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_with_the_option_the_scalar_observation_is_the_one_without_it_then_the_counts(options):
    for seed in range(6):
        on = BreedTheHeiferGame(seed=seed, action_counts=True, **options)
        off = BreedTheHeiferGame(seed=seed, **options)
        size = off.observation_size
        rng = np.random.default_rng(seed)
        while not on.is_over:
            for p in range(on.num_players):  # every seat's view, the observer's own included
                a, b = on.observe(p), off.observe(p)
                assert a[:size].tobytes() == b.tobytes() and a.size == size + 3 * on.num_players
                assert on.observation_schema.out_of_bounds(a) == []
            action = int(rng.choice(np.flatnonzero(on.legal_mask())))
            on.apply(action)
            off.apply(action)
        assert on.observe(0)[:size].tobytes() == off.observe(0).tobytes()


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_with_the_option_the_batched_observation_is_the_one_without_it_then_the_counts(options):
    rows = 24
    on = batched.make("breed_the_heifer", rows, action_counts=True, **options)
    off = batched.make("breed_the_heifer", rows, **options)
    size = off.observation_size
    obs_on, mask_on, _ = on.reset(seed=list(range(rows)))
    obs_off, mask_off, _ = off.reset(seed=list(range(rows)))
    rng = np.random.default_rng(1)
    counted = False
    for _ in range(120):
        assert obs_on[:, :size].tobytes() == obs_off.tobytes() and np.array_equal(mask_on, mask_off)
        assert obs_on.shape[1] == size + 3 * on.num_players
        counted |= bool(obs_on[:, size:].any())
        actions = random_legal(rng, mask_on)
        obs_on, mask_on, rewards_on, done_on, _ = on.step(actions)
        obs_off, mask_off, rewards_off, done_off, _ = off.step(actions)
        assert np.array_equal(rewards_on, rewards_off) and np.array_equal(done_on, done_off)
    assert counted


# Seat 0 calls six times in one hand with max_raises=0 (one bet a round, so a scale of 5): twice on one
# street, where a short stack's all-in bet for less came before the bet that completed it.
SHORT = {"num_players": 5, "stacks": [30, 30, 30, 3, 5], "max_raises": 0, "big_bet": 10, "ante": 0}
SIX_CALLS = [1, 1, 3, 2, 2, 2, 2, 1, 3, 2, 2, 3, 2, 2, 2, 3, 2, 2, 2, 1, 1, 3, 2, 2, 3, 2]


def test_counts_above_the_scale_are_capped_at_one_on_both_engines():
    g = BreedTheHeiferGame(seed=3, action_counts=True, **SHORT)
    for action in SIX_CALLS:
        g.apply(action)
    assert g.action_counts[0][1] == 6 and not g.is_over
    obs = g.observe(g.current_player)
    rows = encoding.schema(5, True).view(obs, "actions")
    assert rows[(0 - g.current_player) % 5, 1] == 1.0 and g.observation_schema.out_of_bounds(obs) == []
    assert encoding.action_fraction(6, 1) == 1.0 and encoding.action_fraction(3, 1) == 3 / 5
    report = differential_play(
        "breed_the_heifer", {**SHORT, "action_counts": True}, seeds=[3], steps=len(SIX_CALLS) + 5,
        actions=[SIX_CALLS],
    )  # fmt: skip
    assert report.steps == len(SIX_CALLS) + 5
