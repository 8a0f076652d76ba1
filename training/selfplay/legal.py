"""The legal actions of a batch of decisions as lists, so the policy head costs what the legal actions cost.

A decision has a handful of legal actions out of the game's whole action
space (Mexican poker: about 4 of 1,568 on average, at most a few dozen;
Raspisnoy: 2 of 87). The dense masked categorical computes every logit,
masks it, and runs the softmax, the entropy and their gradients over all
of them: for Mexican poker that was most of an iteration's time. Here the
head computes the logits of the legal (decision, action) pairs only (one
dot product each with the action layer's row of that action) and lays them
out in a padded table ``[k, width]`` (``width``: the most legal actions of
any of the k decisions; the padding gets ``MASKED_LOGIT``, so its probability
is exactly 0, as an illegal action's is in the dense form). The log-softmax,
the entropy, the sampling and the chosen actions' log-probabilities then run
on that small table. It is the same distribution as the dense masked one; the
numbers agree to rounding (the sums run over fewer terms).

``Legal.from_mask`` builds the lists of k decisions from rows of their masks
(the rollout buffer's, picked by index, without a gathered copy).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import torch
import torch.nn as nn

from pokerzoo.envs.batched.compile import kernel
from pokerzoo.training.selfplay.network import MASKED_LOGIT, ActorCritic
from pokerzoo.training.selfplay.sparse import SparseRows, nonzero_rows

PAIR_COST = 8  # a compiled dot product per pair costs 5-13 of BLAS's dense multiply-adds each (measured)


class Legal(NamedTuple):
    """The legal (decision, action) pairs of k decisions, in row-major order (each decision's actions ascending)."""

    rows: torch.Tensor  # int64 [n]: the decision (0..k-1) of each pair
    actions: torch.Tensor  # int64 [n]: its action
    flat: torch.Tensor  # int64 [n]: its place in the padded table, rows * width + slot
    count: int  # k
    width: int  # the most legal actions of one decision (at least 1)

    @classmethod
    def from_mask(cls, mask: np.ndarray, rows: np.ndarray | None = None, out: np.ndarray | None = None) -> Legal:
        """The decisions ``mask[rows]`` (bool ``[*, A]``; all rows if None); each needs a legal action.
        ``out``: ``mask[rows]`` is copied there too."""
        if rows is None:
            rows = np.arange(mask.shape[0], dtype=np.int64)
        counts, actions, _ = nonzero_rows(mask, rows, out)
        if counts.size and counts.min() == 0:
            raise ValueError(f"decision {int(np.argmin(counts))} has no legal action")
        width = max(int(counts.max()) if counts.size else 1, 1)
        starts = np.cumsum(counts) - counts
        pair_rows = np.repeat(np.arange(counts.shape[0], dtype=np.int64), counts)
        slot = np.arange(actions.shape[0], dtype=np.int64) - starts[pair_rows]
        return cls(
            rows=torch.from_numpy(pair_rows),
            actions=torch.from_numpy(actions),
            flat=torch.from_numpy(pair_rows * width + slot),
            count=int(counts.shape[0]),
            width=width,
        )

    def table(self) -> np.ndarray:
        """int64 ``[k, width]``: the j-th legal action of each decision (padding: action 0, never drawn)."""
        out = np.zeros(self.count * self.width, dtype=np.int64)
        out[self.flat.numpy()] = self.actions.numpy()
        return out.reshape(self.count, self.width)

    def slots_of(self, actions: torch.Tensor) -> torch.Tensor:
        """Each decision's place of ``actions[i]`` in the padded table (flat); refuses an illegal one."""
        hit = self.actions == actions[self.rows]
        found = torch.bincount(self.rows[hit], minlength=self.count)
        if not bool((found == 1).all()):
            bad = int(torch.nonzero(found != 1)[0, 0])
            raise ValueError(f"decision {bad}: action {int(actions[bad])} is not among its legal actions")
        return self.flat[hit]


@kernel
def _pair_logits(weight, bias, latent, rows, actions, out):
    for n in range(rows.shape[0]):
        r, a = rows[n], actions[n]
        x = bias[a]
        for j in range(latent.shape[1]):
            x += weight[a, j] * latent[r, j]
        out[n] = x


@kernel
def _pair_logits_grad(grad, weight, latent, rows, actions, grad_weight, grad_bias, grad_latent):
    for n in range(rows.shape[0]):
        r, a, g = rows[n], actions[n], grad[n]
        grad_bias[a] += g
        for j in range(latent.shape[1]):
            grad_weight[a, j] += g * latent[r, j]
            grad_latent[r, j] += g * weight[a, j]


class _PairLogits(torch.autograd.Function):
    """``(latent @ weight.T + bias)[rows, actions]`` without the other logits: one dot product per pair."""

    @staticmethod
    def forward(ctx, weight, bias, latent, legal: Legal):
        weight, bias, latent = weight.detach().contiguous(), bias.detach(), latent.detach().contiguous()
        ctx.save_for_backward(weight, latent)
        ctx.legal = legal
        out = np.empty(legal.rows.shape[0], dtype=np.float32)
        _pair_logits(weight.numpy(), bias.numpy(), latent.numpy(), legal.rows.numpy(), legal.actions.numpy(), out)
        return torch.from_numpy(out)

    @staticmethod
    def backward(ctx, grad):
        weight, latent = ctx.saved_tensors
        legal: Legal = ctx.legal
        grad_weight = np.zeros(weight.shape, dtype=np.float32)
        grad_bias = np.zeros(weight.shape[0], dtype=np.float32)
        grad_latent = np.zeros(latent.shape, dtype=np.float32)
        _pair_logits_grad(grad.contiguous().numpy(), weight.numpy(), latent.numpy(), legal.rows.numpy(),
                          legal.actions.numpy(), grad_weight, grad_bias, grad_latent)  # fmt: skip
        return torch.from_numpy(grad_weight), torch.from_numpy(grad_bias), torch.from_numpy(grad_latent), None


def pair_logits(head: nn.Linear, latent: torch.Tensor, legal: Legal) -> torch.Tensor:
    """The logits of the legal pairs ``[n]``: ``head(latent)[legal.rows, legal.actions]``.

    Where the pairs are few against the whole table (``PAIR_COST`` x pairs below
    decisions x actions: Mexican poker, Raspisnoy poker) one dot product per pair
    (compiled, forward and backward); elsewhere (Perico's 24 legal actions of 40)
    the dense layer, then the pairs picked from it. Same numbers to rounding.
    """
    if PAIR_COST * legal.rows.shape[0] < legal.count * head.out_features:
        return _PairLogits.apply(head.weight, head.bias, latent, legal)
    return head(latent)[legal.rows, legal.actions]


def legal_logits(model: ActorCritic, obs: torch.Tensor | SparseRows, legal: Legal) -> tuple[torch.Tensor, torch.Tensor]:
    """(logits ``[k, width]`` of the legal actions, ``MASKED_LOGIT`` in the padding; values ``[k]``).

    The same network as ``model(obs)``; only the action layer's rows of the
    legal actions are used.
    """
    latent, values = model.latent(obs)
    return padded_table(pair_logits(model.action_net, latent, legal), legal), values


def padded_table(pairs: torch.Tensor, legal: Legal) -> torch.Tensor:
    """The pairs' values laid out ``[k, width]`` by decision and slot, ``MASKED_LOGIT`` in the padding."""
    table = torch.full((legal.count * legal.width,), MASKED_LOGIT, dtype=pairs.dtype)
    table = table.index_put((legal.flat,), pairs)
    return table.view(legal.count, legal.width)


def log_probs(logits: torch.Tensor) -> torch.Tensor:
    """Log-probabilities over the table's slots (the padding: probability exactly 0)."""
    return torch.log_softmax(logits, dim=-1)


def entropy(log_probs: torch.Tensor) -> torch.Tensor:
    """The entropy over the legal actions: a padding slot's probability is exactly 0, its term 0 x log p is 0."""
    return -(log_probs.exp() * log_probs).sum(-1)


def prior_part(actions: torch.Tensor, num_actions: int) -> SparseRows:
    """The one-hot rows of a prior's actions (one per decision) in sparse form: the second input part of a
    policy with a prior (``agents.policy.PolicyNet``), beside the observation's rows."""
    k = int(actions.shape[0])
    return SparseRows(
        columns=actions.to(torch.int64),
        values=torch.ones(k, dtype=torch.float32),
        offsets=torch.arange(k, dtype=torch.int64),
        entry_rows=torch.arange(k, dtype=torch.int64),
        width=num_actions,
    )


def add_prior(logits: torch.Tensor, legal: Legal, actions: torch.Tensor, weight: float) -> torch.Tensor:
    """``logits`` (the padded table) with ``weight`` added at each decision's prior action (a legal one)."""
    bonus = torch.zeros(legal.count * legal.width, dtype=logits.dtype)
    bonus[legal.slots_of(actions)] = weight
    return logits + bonus.view(legal.count, legal.width)


def prior_logits(model: ActorCritic, obs: SparseRows, legal: Legal, actions: torch.Tensor,
                 weight: float) -> tuple[torch.Tensor, torch.Tensor]:  # fmt: skip
    """``legal_logits`` of a policy with a prior: the network reads the observation and the prior's one-hot
    side by side, and the prior's action gets ``weight`` more."""
    logits, values = legal_logits(model, (obs, prior_part(actions, model.num_actions)), legal)
    return add_prior(logits, legal, actions, weight), values
