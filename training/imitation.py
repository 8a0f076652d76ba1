"""Imitation before PPO: fit the actor to a teacher's recorded decisions and the critic to its returns.

PPO from a random network needs millions of steps to reach what a scripted
agent does at once; copying the teacher first lets PPO start from the
teacher's play and spend its steps on what the teacher gets wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
import torch


def discounted_returns(rewards: np.ndarray, dones: np.ndarray, gamma: float) -> np.ndarray:
    """Discounted return from every step to its episode's end (an unfinished last episode counts as ended)."""
    out = np.zeros(len(rewards), dtype=np.float64)
    running = 0.0
    for t in range(len(rewards) - 1, -1, -1):
        running = rewards[t] + (0.0 if dones[t] else gamma * running)
        out[t] = running
    return out


def logits_and_values(policy, obs, masks):
    """The actor's masked logits and the critic's values of an SB3 actor-critic policy, differentiably."""
    features = policy.extract_features(obs)
    if isinstance(features, tuple):  # separate actor and critic feature extractors
        latent_pi = policy.mlp_extractor.forward_actor(features[0])
        latent_vf = policy.mlp_extractor.forward_critic(features[1])
    else:
        latent_pi, latent_vf = policy.mlp_extractor(features)
    logits = policy.action_net(latent_pi).masked_fill(~masks, -1e8)
    return logits, policy.value_net(latent_vf).squeeze(-1)


def fit_to_teacher(
    policy,
    obs: np.ndarray,
    masks: np.ndarray,
    actions: np.ndarray,
    returns: np.ndarray,
    settings: Mapping,
    *,
    vf_coef: float,
    max_grad_norm: float | None,
    progress: Callable[[int], None] | None = None,
) -> dict:
    """Train ``policy`` on the teacher's decisions; returns how often it then agrees and its value error.

    ``settings`` is the config's ``pretrain`` section (epochs, batch size,
    learning rate, whether to fit the critic). A fresh Adam is used, so PPO
    starts with its own optimiser state. The torch RNG drives the minibatch
    order, so a seeded run imitates the same way every time.
    """

    policy.set_training_mode(True)
    opt = torch.optim.Adam(policy.parameters(), lr=settings["learning_rate"])
    t_obs, t_masks = torch.as_tensor(obs), torch.as_tensor(masks)
    t_actions, t_returns = torch.as_tensor(actions), torch.as_tensor(returns, dtype=torch.float32)
    n, batch = len(actions), settings["batch_size"]
    for _ in range(settings["epochs"]):
        order = torch.randperm(n)
        for i in range(0, n, batch):
            idx = order[i : i + batch]
            logits, values = logits_and_values(policy, t_obs[idx], t_masks[idx])
            loss = torch.nn.functional.cross_entropy(logits, t_actions[idx])
            if settings["value"]:
                loss = loss + vf_coef * torch.nn.functional.mse_loss(values, t_returns[idx])
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), max_grad_norm or 1e9)
            opt.step()
            if progress is not None:
                progress(1)
    policy.set_training_mode(False)
    agree, value_err = 0, 0.0
    with torch.no_grad():
        for i in range(0, n, 8192):
            logits, values = logits_and_values(policy, t_obs[i : i + 8192], t_masks[i : i + 8192])
            agree += int((logits.argmax(1) == t_actions[i : i + 8192]).sum())
            value_err += float(((values - t_returns[i : i + 8192]) ** 2).sum())
    return {"agreement": agree / n, "value_mse": value_err / n}
