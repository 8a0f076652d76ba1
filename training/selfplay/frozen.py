"""Frozen policies in the league (shipped policies, ``policy:PATH``, the learner's snapshots), run as the learner runs.

A league game seats one member in every seat but the learner's, so in most
rows most decisions are a member's; when that member is a policy file, its
forward pass is most of the rollout. The generic ``PolicyOpponent`` (numpy,
any policy kind) computes every logit of the game's whole action space for
every observation entry, then masks them: in Mexican poker, 1,124 inputs and
1,568 actions for a decision that reads about 50 nonzero entries and has
about 4 legal actions, half of an iteration's CPU. ``FrozenPolicy`` runs the
learner's fast path instead (``training/selfplay/sparse.py``: the first
layer over the nonzero entries; ``legal.py``: the logits of the legal actions
only), in torch, on the actor's layers of the file. The same policy: it
plays the most likely legal action (``deterministic``) or samples one from
the softmax over the legal actions (Gumbel-max, its own seeded generator).
A policy with a prior (a residual policy over a scripted agent) asks that
agent's batched port (``prior``) for its actions in the rows first: they
are the network's second input part and lift their logits by the prior's
weight (``legal.prior_part``, ``legal.add_prior``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
import torch.nn as nn

from pokerzoo.agents.policy import PolicyNet
from pokerzoo.envs.batched.core import BatchedEnv
from pokerzoo.training.selfplay.legal import Legal, add_prior, padded_table, pair_logits, prior_part
from pokerzoo.training.selfplay.sparse import SparseRows, apply_mlp

# the activations a policy document may name, as torch modules with the numpy actor's parameters
ACTIVATION_MODULES = {
    "tanh": nn.Tanh,
    "relu": nn.ReLU,
    "leaky_relu": lambda: nn.LeakyReLU(0.01),
    "elu": nn.ELU,
    "identity": nn.Identity,
}


def _linear(weight: np.ndarray, bias: np.ndarray) -> nn.Linear:
    """A float32 ``nn.Linear`` of a numpy actor's layer (``x @ weight + bias``, weight ``[in, out]``)."""
    layer = nn.Linear(weight.shape[0], weight.shape[1])
    with torch.no_grad():
        layer.weight.copy_(torch.from_numpy(np.ascontiguousarray(weight.T, dtype=np.float32)))
        layer.bias.copy_(torch.from_numpy(np.asarray(bias, dtype=np.float32)))
    layer.requires_grad_(False)
    return layer


class FrozenPolicy:
    """A policy file's actor as a batched league member (``act(env, rows)``, ``seed``; module docstring)."""

    def __init__(self, net: PolicyNet, *, deterministic: bool, seed: int | None = None, prior: Any = None):
        if (prior is None) != (net.prior is None):
            raise ValueError(
                f"this policy plays on top of {net.prior['batched']!r}: give its batched agent (prior)"
                if net.prior else "this policy has no prior: give no prior agent"
            )
        self.prior = prior  # the prior's batched agent (``act(env, rows)``) or None
        self.prior_weight = float(net.prior["weight"]) if net.prior else 0.0
        *hidden, (weight, bias, last) = net.layers
        if last != "identity":
            raise ValueError(f"a policy's action layer has no activation; this one ends in {last!r}")
        body: list[nn.Module] = []
        for w, b, act in hidden:
            if act not in ACTIVATION_MODULES:
                raise ValueError(f"activation {act!r}: expected one of {', '.join(ACTIVATION_MODULES)}")
            body += [_linear(w, b), ACTIVATION_MODULES[act]()]
        self.body = nn.Sequential(*body)
        self.head = _linear(weight, bias)
        self.observation_size = net.observation_size
        self.num_actions = net.num_actions
        self.deterministic = deterministic
        self.seed(seed)

    def seed(self, seed: int | None) -> None:
        self._rng = np.random.default_rng(seed)
        if self.prior is not None:
            self.prior.seed(None if seed is None else seed + 1)

    def logits(self, obs: np.ndarray, mask: np.ndarray, rows: np.ndarray,
               prior_actions: np.ndarray | None = None) -> tuple[np.ndarray, Legal]:  # fmt: skip
        """(the logits of the legal actions of ``rows``, ``[k, width]`` padded with ``MASKED_LOGIT``; their lists);
        ``prior_actions``: the prior's action in each of ``rows``, exactly when the policy has a prior."""
        if (prior_actions is None) != (self.prior is None):
            raise ValueError("pass prior_actions exactly when the policy has a prior")
        with torch.inference_mode():
            legal = Legal.from_mask(mask, rows)
            # the env's observation may go on past the policy's (``agents.policy.check_observation``)
            seen = SparseRows.from_rows(obs, rows, width=min(self.observation_size, obs.shape[1]))
            if prior_actions is not None:
                actions = torch.from_numpy(np.asarray(prior_actions, dtype=np.int64))
                seen = (seen, prior_part(actions, self.num_actions))
            table = padded_table(pair_logits(self.head, apply_mlp(self.body, seen), legal), legal)
            if prior_actions is not None:
                table = add_prior(table, legal, actions, self.prior_weight)
            return table.numpy(), legal

    def act(self, env: BatchedEnv, rows: np.ndarray) -> np.ndarray:
        prior = None if self.prior is None else self.prior.act(env, rows)
        logits, legal = self.logits(env.obs, env.mask, rows, prior)
        if not self.deterministic:  # Gumbel-max: a sample of the softmax (the padding stays far below)
            logits = logits + self._rng.gumbel(size=logits.shape).astype(np.float32)
        slots = np.argmax(logits, axis=1)
        return legal.table()[np.arange(slots.shape[0]), slots]
