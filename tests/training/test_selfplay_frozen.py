"""``FrozenPolicy``: a policy file's actor on the learner's fast path plays what the numpy actor plays."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from pokerzoo.agents.policy import PolicyNet
from pokerzoo.envs import batched
from pokerzoo.envs.batched.opponents import PolicyOpponent, RandomOpponent
from pokerzoo.training.selfplay.frozen import FrozenPolicy

# Raspisnoy: 2 of 87 actions legal (the head's pair path); high card: 2 of 2 (the dense path)
GAMES = [("raspisnoy_poker_v0", {"schedule": "single"}), ("high_card_v0", {"num_players": 3})]


def random_net(sizes: list[int], activations: list[str], seed: int) -> PolicyNet:
    rng = np.random.default_rng(seed)
    layers = [
        (rng.normal(0, 1 / np.sqrt(a), (a, b)).astype(np.float32), rng.normal(0, 0.1, b).astype(np.float32), act)
        for a, b, act in zip(sizes[:-1], sizes[1:], [*activations, "identity"], strict=True)
    ]
    return PolicyNet(layers, {})


def logits_gap(net: PolicyNet, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Each row's gap between its best and second-best legal logit (inf with one legal action)."""
    logits = np.where(mask, net.logits(obs).astype(np.float64), -np.inf)
    top = np.sort(logits, axis=1)[:, -2:]
    return np.where(np.isfinite(top[:, 0]), top[:, 1] - top[:, 0], np.inf)


@pytest.mark.parametrize(("game", "options"), GAMES)
@pytest.mark.parametrize("activations", [["relu", "tanh"], ["leaky_relu"], ["elu", "relu"], []])
def test_it_plays_the_numpy_actors_choice_on_every_row(game, options, activations):
    torch.set_num_threads(1)
    env = batched.make(game, num_envs=256, **options)
    env.reset(seed=list(range(256)))
    width = [env.observation_size, *[24 + 8 * i for i in range(len(activations))], env.num_actions]
    net = random_net(width, activations, seed=len(activations))
    reference, frozen = PolicyOpponent(net), FrozenPolicy(net, deterministic=True)
    mover = RandomOpponent(seed=3)
    rows = env.all_rows
    compared = 0
    for _ in range(12):
        expected, got = reference.act(env, rows), frozen.act(env, rows)
        clear = logits_gap(net, env.obs[rows], env.mask[rows]) > 1e-4  # a near tie may round either way
        np.testing.assert_array_equal(got[clear], expected[clear])
        assert env.mask[rows, got].all()
        compared += int(clear.sum())
        env.step(mover.act(env, rows))
    assert compared > 2000


def test_sampling_is_the_softmax_over_the_legal_actions_and_reproducible():
    torch.set_num_threads(1)
    n = 4096
    env = batched.make("raspisnoy_poker_v0", num_envs=n, schedule="single")
    env.reset(seed=[11] * n)  # the same game in every row
    for _ in range(3):  # into the bidding, where several actions are legal
        env.step(np.full(n, int(np.flatnonzero(env.mask[0])[0])))
    legal = np.flatnonzero(env.mask[0])
    assert legal.size >= 3
    net = random_net([env.observation_size, 32, env.num_actions], ["tanh"], seed=5)
    logits = np.linspace(0, 1.2, legal.size)  # the legal actions' logits, set through the action layer's bias
    net.layers[-1][1][legal] += (logits - net.logits(env.obs[:1])[0, legal]).astype(np.float32)
    p = np.exp(logits - logits.max())
    p /= p.sum()
    frozen = FrozenPolicy(net, deterministic=False, seed=8)
    actions = frozen.act(env, env.all_rows)
    assert np.isin(actions, legal).all()
    freq = np.array([(actions == a).mean() for a in legal])
    se = np.sqrt(p * (1 - p) / n)
    assert np.all(np.abs(freq - p) < 5 * se), (freq, p)
    np.testing.assert_array_equal(FrozenPolicy(net, deterministic=False, seed=8).act(env, env.all_rows), actions)
    assert not np.array_equal(FrozenPolicy(net, deterministic=False, seed=9).act(env, env.all_rows), actions)


def test_a_network_it_cannot_run_is_named():
    with pytest.raises(ValueError, match="activation 'softsign': expected one of tanh, relu"):
        FrozenPolicy(random_net([4, 3, 2], ["softsign"], 0), deterministic=True)
    net = random_net([4, 2], [], 0)
    net.layers[-1] = (*net.layers[-1][:2], "relu")
    with pytest.raises(ValueError, match="action layer has no activation; this one ends in 'relu'"):
        FrozenPolicy(net, deterministic=True)
