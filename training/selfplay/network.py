"""The learner's network: an MLP actor-critic in torch, laid out exactly like Stable-Baselines3's ``MlpPolicy``.

Same module names (``mlp_extractor.policy_net.*``, ``mlp_extractor.value_net.*``,
``action_net``, ``value_net``), same separate actor and critic, same orthogonal
initialisation. So ``pokerzoo.training.policy_export`` writes it as a policy
file (``save_policy``) and loads policy files into it (``load_policy_weights``)
unchanged, and ``init_from`` can start from any policy the MaskablePPO trainer
made (the shipped ones included). The numpy ``PolicyNet`` plays its files.

The action distribution is a masked categorical: illegal logits are set to
``MASKED_LOGIT`` (a large negative number, as sb3-contrib's ``MaskableCategorical``
does), so an illegal action has probability exactly 0 and adds nothing to the entropy.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import torch
import torch.nn as nn
from gymnasium import spaces
from stable_baselines3.common.torch_layers import FlattenExtractor

from pokerzoo.training.selfplay.sparse import SparseRows, apply_mlp

MASKED_LOGIT = -1e8
ACTIVATION_MODULES = {"tanh": nn.Tanh, "relu": nn.ReLU}


def split_arch(net_arch: Sequence[int] | Mapping[str, Sequence[int]]) -> tuple[list[int], list[int], list[int]]:
    """``[64, 64]`` (the same for both), ``{pi: [...], vf: [...]}`` or ``{shared: [...], pi: [...], vf: [...]}``
    -> (shared layers, actor layers, critic layers)."""
    if isinstance(net_arch, Mapping):
        return list(net_arch.get("shared") or []), list(net_arch["pi"]), list(net_arch["vf"])
    return [], list(net_arch), list(net_arch)


def _mlp(inputs: int, layers: Sequence[int], activation: type[nn.Module]) -> nn.Sequential:
    modules: list[nn.Module] = []
    for width in layers:
        modules += [nn.Linear(inputs, width), activation()]
        inputs = width
    return nn.Sequential(*modules)


class _Extractor(nn.Module):
    """Holds the hidden layers under SB3's names: ``shared_net`` (none by default), then ``policy_net`` and
    ``value_net``."""

    def __init__(self, inputs: int, shared: Sequence[int], pi: Sequence[int], vf: Sequence[int],
                 activation: type[nn.Module]):  # fmt: skip
        super().__init__()
        self.shared_net = _mlp(inputs, shared, activation) if shared else None
        width = shared[-1] if shared else inputs
        self.policy_net = _mlp(width, pi, activation)
        self.value_net = _mlp(width, vf, activation)


class ActorCritic(nn.Module):
    """obs float32[k, D] -> (logits float32[k, A], values float32[k])."""

    def __init__(
        self,
        observation_size: int,
        num_actions: int,
        net_arch: Sequence[int] | Mapping[str, Sequence[int]],
        activation: str,
    ):
        super().__init__()
        shared, pi, vf = split_arch(net_arch)
        act = ACTIVATION_MODULES[activation]
        box = spaces.Box(-np.inf, np.inf, (observation_size,), np.float32)
        self.features_extractor = FlattenExtractor(box)  # no parameters: what policy_export checks for
        self.mlp_extractor = _Extractor(observation_size, shared, pi, vf, act)
        width = shared[-1] if shared else observation_size
        self.action_net = nn.Linear(pi[-1] if pi else width, num_actions)
        self.value_net = nn.Linear(vf[-1] if vf else width, 1)
        self.observation_size = observation_size
        self.num_actions = num_actions
        self._init_weights()

    def _init_weights(self) -> None:
        """SB3's ``ActorCriticPolicy`` initialisation: orthogonal, gains sqrt(2) / 0.01 / 1, zero biases."""
        gains = [(self.mlp_extractor, math.sqrt(2)), (self.action_net, 0.01), (self.value_net, 1.0)]
        for module, gain in gains:
            for m in module.modules():
                if isinstance(m, nn.Linear):
                    nn.init.orthogonal_(m.weight, gain=gain)
                    m.bias.data.fill_(0.0)

    def latent(self, obs: torch.Tensor | SparseRows) -> tuple[torch.Tensor, torch.Tensor]:
        """(the actor's last hidden layer ``[k, H]``, values ``[k]``): everything but the action layer.

        ``obs`` dense, or by its nonzero entries (``SparseRows``: the same
        function, the first layer computed on those only).
        """
        mlp = self.mlp_extractor
        if mlp.shared_net is not None:
            obs = apply_mlp(mlp.shared_net, obs)
        values = self.value_net(apply_mlp(mlp.value_net, obs)).squeeze(-1)
        return apply_mlp(mlp.policy_net, obs), values

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        latent, values = self.latent(obs)
        return self.action_net(latent), values


class PrivilegedCritic(nn.Module):
    """V(observation, privileged features) -> values float32[k]: a critic that also sees what the seat cannot.

    The asymmetric actor-critic of ``critic.privileged``: its values make the
    advantages (GAE) the actor learns from; the actor never reads its input, so
    the policy file (actor and its own critic, ``ActorCritic``) is unchanged and
    plays from the seat's observation alone. Its input is the observation and
    ``envs/batched/privileged.py``'s features side by side; SB3's
    initialisation (orthogonal, gain sqrt(2), the output layer 1).
    """

    def __init__(self, observation_size: int, privileged_size: int, layers: Sequence[int], activation: str):
        super().__init__()
        self.net = _mlp(observation_size + privileged_size, layers, ACTIVATION_MODULES[activation])
        self.head = nn.Linear(layers[-1] if layers else observation_size + privileged_size, 1)
        self.observation_size = observation_size
        self.privileged_size = privileged_size
        for module, gain in ((self.net, math.sqrt(2)), (self.head, 1.0)):
            for m in module.modules():
                if isinstance(m, nn.Linear):
                    nn.init.orthogonal_(m.weight, gain=gain)
                    m.bias.data.fill_(0.0)

    def forward(self, obs: torch.Tensor | SparseRows, privileged: torch.Tensor | SparseRows) -> torch.Tensor:
        """Dense tensors, or both by their nonzero entries (``SparseRows``): then the first layer meets the two
        side by side without building their concatenation (both inputs are mostly one-hot zeros, and that
        layer is most of the critic's work), the same function as the dense one to rounding."""
        if isinstance(obs, SparseRows) and isinstance(privileged, SparseRows):
            return self.head(apply_mlp(self.net, (obs, privileged))).squeeze(-1)
        if isinstance(obs, SparseRows) or isinstance(privileged, SparseRows):
            raise TypeError("the privileged critic takes both inputs dense or both as SparseRows")
        return self.head(self.net(torch.cat([obs, privileged], dim=1))).squeeze(-1)


def masked_log_probs(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Log-probabilities of the masked categorical (illegal actions: probability 0)."""
    return torch.log_softmax(logits.masked_fill(~mask, MASKED_LOGIT), dim=-1)


def masked_entropy(log_probs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The entropy over the legal actions: an illegal one has probability exactly 0 (its log-probability
    is about ``MASKED_LOGIT``, finite), so its term 0 x log p is 0 and needs no masking; ``mask`` is
    checked in the tests, not here."""
    del mask
    return -(log_probs.exp() * log_probs).sum(-1)


def sample_actions(log_probs: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
    """One action per row from the distributions ``exp(log_probs)`` by inverse CDF on ``uniforms`` in [0, 1).

    The point is scaled by each row's total, so rounding can never send it past
    the last action; the cumulative sum only rises at actions of positive
    probability, so an illegal (probability 0) action is never drawn.
    """
    cdf = np.cumsum(np.exp(log_probs.astype(np.float64)), axis=1)
    total = cdf[:, -1]
    point = np.minimum(uniforms * total, np.nextafter(total, -np.inf))  # strictly below the total
    return (cdf > point[:, None]).argmax(axis=1).astype(np.int64)
