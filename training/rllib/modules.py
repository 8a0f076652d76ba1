"""The RLModules of an RLlib run: the masked actor-critic that is trained, and a masked random player.

``MaskedMLPModule`` is the MaskablePPO trainer's network in RLlib's clothes:
separate actor and critic MLPs (``ppo.net_arch``, ``ppo.activation``) over the
game's observation vector, the actor's logits of illegal actions pushed to
RLlib's ``FLOAT_MIN`` with the mask that travels in the observation
(``{"observations": ..., "action_mask": float32}``). Its torch modules carry
Stable-Baselines3's names (``mlp_extractor.policy_net``, ``action_net``,
``mlp_extractor.value_net``, ``value_net``) and initialisation (orthogonal,
gains sqrt(2), 0.01 and 1), so ``net.state_dict()`` is exactly the state dict
of an SB3 ``MlpPolicy`` of that shape: the project's policy files hold it as
they hold the MaskablePPO trainer's, and ``init_from`` reads either.

Frozen snapshots of the learner in the league are this module too (not
trained: ``policies_to_train`` names only the learner); with
``model_config["deterministic"]`` they play their most likely legal action.

``MaskedRandomModule`` plays a uniformly random legal action: RLlib's
``RandomRLModule`` samples the whole action space and ignores the mask. It
has no weights; the sampling benchmark uses it to measure the env source alone.
"""

from __future__ import annotations

import math
from typing import Any

import torch
import torch.nn as nn
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.utils.torch_utils import FLOAT_MIN

OBS_KEY, MASK_KEY = "observations", "action_mask"
ACTIVATION_MODULES = {"tanh": nn.Tanh, "relu": nn.ReLU}


def _mlp(sizes: list[int], width: int, activation: type[nn.Module]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for size in sizes:
        layers += [nn.Linear(width, size), activation()]
        width = size
    return nn.Sequential(*layers)


class _Extractor(nn.Module):
    """SB3's ``MlpExtractor`` layout: ``policy_net`` and ``value_net`` side by side."""

    def __init__(self, width: int, pi: list[int], vf: list[int], activation: type[nn.Module]):
        super().__init__()
        self.policy_net = _mlp(pi, width, activation)
        self.value_net = _mlp(vf, width, activation)


class ActorCritic(nn.Module):
    """The network, with SB3 ``MlpPolicy``'s module names and initialisation (see the module docstring)."""

    def __init__(self, observation_size: int, num_actions: int, net_arch: Any, activation: str):
        super().__init__()
        arch = net_arch if isinstance(net_arch, dict) else {"pi": list(net_arch), "vf": list(net_arch)}
        act = ACTIVATION_MODULES[activation]
        self.mlp_extractor = _Extractor(observation_size, arch["pi"], arch["vf"], act)
        self.action_net = nn.Linear(arch["pi"][-1] if arch["pi"] else observation_size, num_actions)
        self.value_net = nn.Linear(arch["vf"][-1] if arch["vf"] else observation_size, 1)
        for module, gain in ((self.mlp_extractor, math.sqrt(2)), (self.action_net, 0.01), (self.value_net, 1.0)):
            for m in module.modules():
                if isinstance(m, nn.Linear):
                    nn.init.orthogonal_(m.weight, gain=gain)
                    nn.init.zeros_(m.bias)

    def logits(self, obs: torch.Tensor) -> torch.Tensor:
        return self.action_net(self.mlp_extractor.policy_net(obs))

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.value_net(self.mlp_extractor.value_net(obs)).squeeze(-1)


def masked(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Logits with the illegal actions' pushed to ``FLOAT_MIN`` (Categorical never draws them)."""
    return logits + torch.clamp(torch.log(mask), min=FLOAT_MIN)


class MaskedMLPModule(TorchRLModule, ValueFunctionAPI):
    """The masked actor-critic (module docstring). ``model_config``: net_arch, activation, deterministic."""

    def setup(self) -> None:
        cfg = dict(self.model_config or {})
        self.deterministic = bool(cfg.get("deterministic", False))
        self.net = ActorCritic(
            self.observation_space[OBS_KEY].shape[0],
            self.action_space.n,
            cfg.get("net_arch", [64, 64]),
            cfg.get("activation", "tanh"),
        )

    def _forward(self, batch: dict, **kwargs) -> dict:
        obs = batch[Columns.OBS]
        logits = masked(self.net.logits(obs[OBS_KEY]), obs[MASK_KEY])
        if self.deterministic:  # a frozen snapshot that plays its most likely legal action
            best = logits.argmax(-1, keepdim=True)
            logits = torch.full_like(logits, FLOAT_MIN).scatter(-1, best, 0.0)
        return {Columns.ACTION_DIST_INPUTS: logits}

    def compute_values(self, batch: dict, embeddings: Any = None) -> torch.Tensor:
        return self.net.value(batch[Columns.OBS][OBS_KEY])


class MaskedRandomModule(TorchRLModule):
    """A uniformly random legal action (module docstring); never trained."""

    def setup(self) -> None:
        pass

    def _forward(self, batch: dict, **kwargs) -> dict:
        mask = batch[Columns.OBS][MASK_KEY]
        return {Columns.ACTION_DIST_INPUTS: torch.clamp(torch.log(mask), min=FLOAT_MIN)}

    def _forward_train(self, batch: dict, **kwargs) -> dict:
        raise NotImplementedError("MaskedRandomModule is not trained: leave it out of policies_to_train")
