"""Policies at tables whose observation is longer than theirs: an option that only appends observation pieces
(Breed the Heifer's ``action_counts``) lets every policy sit at every table of the game.

A policy trained without the option reads the first entries of the option's observation, exactly what it was
trained on (scalar ``PolicyAgent`` and batched ``FrozenPolicy`` alike); a policy trained with it plays scalar
games without it from the view, which carries the counts either way. Anything else that changes the layout is
refused with the sizes named.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from pokerzoo.agents.policy import PolicyAgent, check_observation
from pokerzoo.envs import batched
from pokerzoo.envs.breed_the_heifer.encoding import schema
from pokerzoo.envs.breed_the_heifer.game import BreedTheHeiferGame
from pokerzoo.training.policy_export import save_policy
from pokerzoo.training.selfplay.league import member_opponent
from pokerzoo.training.selfplay.network import ActorCritic
from pokerzoo.training.selfplay.sparse import SparseRows

COUNTS = {"action_counts": True}


def heifer_policy(tmp_path, options: dict, seed: int) -> str:
    """A policy file of random weights (64 hidden units) for Breed the Heifer with ``options``."""
    torch.manual_seed(seed)
    game = BreedTheHeiferGame(seed=0, **options)
    document = {"game": "breed_the_heifer_v0", "options": options, "observation_size": game.observation_size,
                "num_actions": game.num_actions}  # fmt: skip
    path = tmp_path / f"p{seed}.json"
    model = ActorCritic(game.observation_size, game.num_actions, [64], "relu")
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0.0, 0.5)  # spread logits, so that decisions differ from seat to seat and street to street
    return str(save_policy(model, path, document))


def test_the_option_appends_its_piece_after_the_others():
    plain, counted = schema(5), schema(5, action_counts=True)
    assert counted.starts_with(plain) and plain.starts_with(plain) and not plain.starts_with(counted)
    assert counted.names[-1] == "actions" and counted.size == plain.size + 15
    assert not schema(4).starts_with(schema(5)) and not schema(5, action_counts=True).starts_with(schema(4))


def test_the_check_takes_a_prefix_and_names_the_sizes_of_anything_else():
    plain, counted = BreedTheHeiferGame(seed=0), BreedTheHeiferGame(seed=0, **COUNTS)
    check_observation(plain, counted, "policy p")
    check_observation(plain, BreedTheHeiferGame(seed=0, small_bet=1), "policy p")  # the same layout
    with pytest.raises(ValueError, match=r"policy p takes 403 observation entries and 5 actions; breed_the_heifer_v0 "
                                         r"with these options has 388 and 5, and its observation does not begin"):
        check_observation(counted, plain, "policy p")
    with pytest.raises(ValueError, match=r"takes 388 observation entries .* has 328 and 5"):
        check_observation(plain, BreedTheHeiferGame(seed=0, num_players=4), "policy p")


def play_both(path: str, options: list[dict], decisions: int) -> list[int]:
    """The policy (sampling, seeded) decides every seat of games of each of ``options``, all dealt alike and
    stepped alike; every decision must be the same in all of them. Returns the actions."""
    agents = [PolicyAgent(path, deterministic=False, seed=7) for _ in options]
    games = [BreedTheHeiferGame(seed=0, **o) for o in options]
    actions = []
    for _ in range(decisions):
        if games[0].is_over:
            games = [BreedTheHeiferGame(seed=len(actions), **o) for o in options]
        chosen = set()
        logits = []
        for agent, g in zip(agents, games, strict=True):
            view, mask = g.view(g.current_player), g.legal_mask()
            logits.append(agent.logits(view, g, mask))
            chosen.add(agent.act(view, mask, g))
        np.testing.assert_array_equal(logits[0], logits[1])
        assert len(chosen) == 1
        action = chosen.pop()
        actions.append(action)
        for g in games:
            g.apply(action)
    return actions


def test_a_policy_without_the_option_plays_the_options_scalar_games_as_it_plays_its_own(tmp_path):
    path = heifer_policy(tmp_path, {}, seed=1)
    actions = play_both(path, [{}, COUNTS], 300)
    assert len(set(actions)) >= 3


def test_a_policy_with_the_option_plays_scalar_games_without_it_from_the_view(tmp_path):
    path = heifer_policy(tmp_path, COUNTS, seed=2)
    actions = play_both(path, [COUNTS, {}], 300)
    assert len(set(actions)) >= 3


def test_a_batched_policy_without_the_option_reads_the_first_entries(tmp_path):
    torch.set_num_threads(1)
    path = heifer_policy(tmp_path, {}, seed=5)
    envs = [batched.make("breed_the_heifer", 256), batched.make("breed_the_heifer", 256, **COUNTS)]
    players = [member_opponent("breed_the_heifer", options, f"policy:{path}", deterministic=True)
               for options in ({}, COUNTS)]  # fmt: skip
    for env in envs:
        env.reset(seed=list(range(256)))
    assert envs[1].observation_size == envs[0].observation_size + 15
    seen = set()
    for _ in range(40):
        np.testing.assert_array_equal(envs[1].obs[:, : envs[0].observation_size], envs[0].obs)
        chosen = [p.act(env, env.all_rows) for p, env in zip(players, envs, strict=True)]
        np.testing.assert_array_equal(chosen[0], chosen[1])
        seen.update(chosen[0].tolist())
        for env in envs:
            env.step(chosen[0])
    assert len(seen) >= 3


def test_a_batched_policy_with_the_option_is_refused_at_a_table_without_it(tmp_path):
    path = heifer_policy(tmp_path, COUNTS, seed=6)
    with pytest.raises(ValueError, match=r"trained with options \{'action_counts': True\}\) takes 403 observation "
                                         r"entries and 5 actions; breed_the_heifer_v0 with these options has 388"):
        member_opponent("breed_the_heifer", {}, f"policy:{path}", deterministic=True)


@pytest.mark.parametrize("width", [12, 13, 30, 0])
def test_sparse_rows_read_to_a_width_are_the_dense_rows_prefix(width):
    # 12 and 30 floats are whole 8-byte words (read as uint64), 13 is not (read entry by entry)
    rng = np.random.default_rng(0)
    matrix = np.where(rng.random((50, 30)) < 0.3, rng.random((50, 30)), 0.0).astype(np.float32)
    matrix[7] = 0.0  # a row with no entries at all
    matrix[9, 12:] = 0.0  # one with none past the cut
    rows = np.array([3, 7, 9, 0, 49, 7])
    out = np.full((rows.size, width), -1.0, dtype=np.float32)
    cut = SparseRows.from_rows(matrix, rows, out=out, width=width)
    assert cut.width == width
    np.testing.assert_array_equal(out, matrix[rows, :width])
    np.testing.assert_array_equal(cut.dense().numpy(), matrix[rows, :width])
    nonzero = (matrix[rows, :width] != 0).sum(1)
    np.testing.assert_array_equal(cut.offsets.numpy(), np.cumsum(nonzero) - nonzero)
    strided = np.full((rows.size, 2 * width), -1.0, dtype=np.float32)[:, ::2]  # not contiguous: copied by numpy
    SparseRows.from_rows(matrix, rows, out=strided, width=width)
    np.testing.assert_array_equal(strided, matrix[rows, :width])


def test_sparse_rows_refuse_a_width_past_the_rows():
    with pytest.raises(ValueError, match=r"width=31: expected 0..30"):
        SparseRows.from_rows(np.zeros((4, 30), dtype=np.float32), np.arange(2), width=31)
