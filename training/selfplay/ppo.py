"""The PPO update: clipped objective, value loss, entropy bonus, Adam, minibatches, epochs, target-KL stop.

What sb3-contrib's ``MaskablePPO.train`` computes, on a ``Batch`` of complete
decisions, with the config's ``ppo:`` keys meaning what they mean there:
advantages normalised per minibatch (``normalize_advantage``), the policy loss
``-min(A r, A clip(r, 1 - clip_range, 1 + clip_range))``, the value loss
``mse(returns, V)`` weighted by ``vf_coef``, the entropy of the masked
distribution weighted by ``ent_coef``, gradients clipped to ``max_grad_norm``,
and the epochs stop early when a minibatch's approximate KL exceeds
``1.5 * target_kl`` (before its step). Schedules (``learning_rate``,
``ent_coef``: a number or ``{start, end}``) are linear in the share of
``total_timesteps`` done. The minibatch order comes from the generator the
caller passes (derived from the run's seed and the update's number).

With a privileged critic (``critic.privileged``) the batch's values and
advantages are its estimates; it is fitted to the returns with the same
weight and optimizer, and so is the network's own critic (the one a policy
file keeps), from the seat's observation alone. ``actor_frozen`` (the
critics' warm-up updates, ``critic.warmup_updates``) leaves out the policy
and entropy losses, and the network's own critic where it shares layers with
the actor: only the critics learn, and the actor stays exactly as it is.

With a prior (``prior.agent``) the logits are the residual policy's
(``legal.prior_logits``: the prior's actions recorded at collection).

With an anchor (``anchor.agent``, ``anchor.coef``) the actor's loss also has
``coef`` times the cross-entropy of the policy to the anchor agent's action
at each decision (recorded at collection: ``Batch.anchor_actions``): a pull
toward a fixed, robust agent that PPO's gains must outweigh, as AlphaStar
kept its agents near their supervised policy. ``train/anchor_loss`` logs
that cross-entropy and ``train/anchor_agreement`` the share of decisions
where the policy's most likely action is the anchor's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from pokerzoo.training.selfplay.buffer import Batch
from pokerzoo.training.selfplay.legal import Legal, legal_logits, prior_logits
from pokerzoo.training.selfplay.legal import entropy as legal_entropy
from pokerzoo.training.selfplay.legal import log_probs as legal_log_probs
from pokerzoo.training.selfplay.network import ActorCritic, PrivilegedCritic
from pokerzoo.training.selfplay.sparse import SparseRows

ADAM_EPS = 1e-5  # SB3's


def scheduled(value: float | Mapping[str, float], done: float) -> float:
    """A config schedule at ``done`` (0..1 of the run): a constant, or linear from ``start`` to ``end``."""
    if not isinstance(value, Mapping):
        return float(value)
    done = min(max(done, 0.0), 1.0)
    return value["start"] + done * (value["end"] - value["start"])


def make_optimizer(
    model: ActorCritic, learning_rate: float, critic: PrivilegedCritic | None = None
) -> torch.optim.Adam:
    """Adam over the network's parameters and, in a second group (its own step size), the privileged critic's."""
    groups = [{"params": list(model.parameters())}]
    if critic is not None:
        groups.append({"params": list(critic.parameters())})
    return torch.optim.Adam(groups, lr=learning_rate, eps=ADAM_EPS)


def explained_variance(predicted: np.ndarray, target: np.ndarray) -> float:
    var = float(np.var(target))
    return float("nan") if var == 0 else float(1 - np.var(target - predicted) / var)


def update(
    model: ActorCritic,
    optimizer: torch.optim.Optimizer,
    batch: Batch,
    ppo: Mapping[str, Any],
    *,
    learning_rate: float,
    ent_coef: float,
    rng: np.random.Generator,
    critic: PrivilegedCritic | None = None,
    actor_frozen: bool = False,
    critic_learning_rate: float | None = None,
    anchor_coef: float = 0.0,
    prior_weight: float = 0.0,
) -> dict[str, float]:
    """One PPO update on ``batch``; returns SB3's ``train/*`` figures (and ``train/own_value_loss``, the
    network's own critic, with a privileged one)."""
    n = batch.actions.shape[0]
    for i, group in enumerate(optimizer.param_groups):  # the second group: the privileged critic's
        group["lr"] = learning_rate if i == 0 or critic_learning_rate is None else critic_learning_rate
    stats: dict[str, list[float]] = {"pg": [], "value": [], "own_value": [], "entropy": [], "clip": [], "kl": [],
                                     "anchor": [], "agreement": []}  # fmt: skip
    if n == 0:
        return {"train/learning_rate": learning_rate, "train/n_epochs_done": 0, "train/decisions": 0}
    actions = torch.from_numpy(batch.actions)
    old_log_probs = torch.from_numpy(batch.log_probs)
    advantages = torch.from_numpy(batch.advantages)
    returns = torch.from_numpy(batch.returns)
    anchored = batch.anchor_actions is not None
    anchor_actions = torch.from_numpy(batch.anchor_actions) if anchored else None
    clip, size = ppo["clip_range"], ppo["batch_size"]
    epochs_done = 0
    keep_going = True
    model.train()
    if critic is not None:
        critic.train()
    shared = model.mlp_extractor.shared_net is not None
    parameters = [p for group in optimizer.param_groups for p in group["params"]]  # the network's and the critic's
    for _ in range(ppo["n_epochs"]):
        order = torch.from_numpy(rng.permutation(n))
        for start in range(0, n, size):
            idx = order[start : start + size]
            rows = batch.index[idx.numpy()]  # in the buffer: observations and legal actions read from there
            legal = Legal.from_mask(batch.mask, rows)
            seen = SparseRows.from_rows(batch.obs, rows)
            if batch.prior_actions is None:
                logits, values = legal_logits(model, seen, legal)
            else:
                prior = torch.from_numpy(batch.prior_actions[idx.numpy()])
                logits, values = prior_logits(model, seen, legal, prior, prior_weight)
            log_probs = legal_log_probs(logits)
            new = log_probs.view(-1)[legal.slots_of(actions[idx])]
            entropy = legal_entropy(log_probs)
            adv = advantages[idx]
            if ppo["normalize_advantage"] and adv.shape[0] > 1:
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            log_ratio = new - old_log_probs[idx]
            ratio = torch.exp(log_ratio)
            pg_loss = -torch.min(adv * ratio, adv * torch.clamp(ratio, 1 - clip, 1 + clip)).mean()
            value_loss = own_value_loss = F.mse_loss(returns[idx], values)
            entropy_loss = -entropy.mean()
            actor = 0.0 if actor_frozen else pg_loss + ent_coef * entropy_loss
            if anchored:
                anchor_slots = legal.slots_of(anchor_actions[idx])
                anchor_loss = -log_probs.view(-1)[anchor_slots].mean()
                if not actor_frozen and anchor_coef > 0:
                    actor = actor + anchor_coef * anchor_loss
            critics = 0.0 if actor_frozen and shared else own_value_loss
            if critic is not None:
                hidden = SparseRows.from_rows(batch.privileged, rows)
                value_loss = F.mse_loss(returns[idx], critic(seen, hidden))
                critics = critics + value_loss
            loss = actor + ppo["vf_coef"] * critics
            with torch.no_grad():
                approx_kl = ((ratio - 1) - log_ratio).mean().item()
            stats["kl"].append(approx_kl)
            if ppo["target_kl"] is not None and approx_kl > 1.5 * ppo["target_kl"]:
                keep_going = False
                break
            stats["pg"].append(pg_loss.item())
            stats["value"].append(value_loss.item())
            stats["own_value"].append(own_value_loss.item())
            stats["entropy"].append(entropy_loss.item())
            stats["clip"].append((torch.abs(ratio - 1) > clip).float().mean().item())
            if anchored:
                stats["anchor"].append(anchor_loss.item())
                stats["agreement"].append(_agreement(log_probs, anchor_slots))
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(parameters, ppo["max_grad_norm"])
            optimizer.step()
        if not keep_going:
            break
        epochs_done += 1
    own = {"train/own_value_loss": _mean(stats["own_value"])} if critic is not None else {}
    if anchored:
        own |= {"train/anchor_loss": _mean(stats["anchor"]), "train/anchor_agreement": _mean(stats["agreement"])}
    return {
        "train/policy_gradient_loss": _mean(stats["pg"]),
        "train/value_loss": _mean(stats["value"]),
        **own,
        "train/entropy_loss": _mean(stats["entropy"]),
        "train/clip_fraction": _mean(stats["clip"]),
        "train/approx_kl": _mean(stats["kl"]),
        "train/explained_variance": explained_variance(batch.values, batch.returns),
        "train/learning_rate": learning_rate,
        "train/n_epochs_done": epochs_done,
        "train/decisions": n,
    }


def _agreement(log_probs: torch.Tensor, anchor_slots: torch.Tensor) -> float:
    """The share of decisions whose most likely slot is the anchor's (flat places: decision × width + slot)."""
    k, width = log_probs.shape
    best = log_probs.argmax(dim=1) + torch.arange(k) * width
    return (best == anchor_slots).float().mean().item()


def _mean(values: list[float]) -> float:
    return float(np.mean(values)) if values else float("nan")
