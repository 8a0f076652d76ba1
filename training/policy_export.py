"""From torch to policy files and back: the trainer's saves, ``init_from``, and converting trusted SB3 zips.

The files are ``pokerzoo.agents.policy_file``'s (a JSON document and
safetensors weights, no code). This module is the torch side: it writes the
whole actor-critic state dict of an SB3 policy with a document describing
its actor and critic, loads such a file back into a torch policy (fine-tuning
with ``init_from``, exact resume), and converts a Stable-Baselines3 zip,
which is the one place a pickle is ever opened, and only when the user says
the file is trusted (``pokerzoo policy convert --trust FILE``).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn as nn
from stable_baselines3.common.torch_layers import FlattenExtractor

from pokerzoo.agents.policy import PolicyNet, check_observation, probe_game, resolve_policy_path
from pokerzoo.agents.policy_file import PolicyFile, PolicyFileError, read_policy, write_policy
from pokerzoo.envs import game_class
from pokerzoo.envs.registry import canonical
from pokerzoo.evaluation.history import to_jsonable
from pokerzoo.training.config import prior_document

# torch module class -> the activation name in a policy document
ACTIVATION_NAMES = {nn.Tanh: "tanh", nn.ReLU: "relu", nn.LeakyReLU: "leaky_relu", nn.ELU: "elu"}
TRUST_NOTE = (
    "A Stable-Baselines3 zip stores parts of the model as pickled Python objects (policy_class, "
    "policy_kwargs, the observation and action spaces, the schedules, the rollout buffer class), and "
    "MaskablePPO.load unpickles them with cloudpickle: a crafted zip runs whatever code it carries, with "
    "your permissions, the moment it is loaded. Trusting a file means you know who made it and that it "
    "was not changed since (your own training run, say). The converted files (JSON + safetensors) hold "
    "no code and are safe to share."
)


def _linear_layers(modules, names: dict[int, str], where: str) -> list[dict]:
    """Linear layers of ``modules`` in order, each with the activation that follows it."""
    layers: list[dict] = []
    for m in modules:
        if isinstance(m, nn.Linear):
            if m.bias is None:
                raise ValueError(f"{where}: a Linear layer without bias is not supported")
            name = names[id(m)]
            layers.append({"weight": f"{name}.weight", "bias": f"{name}.bias", "activation": "identity"})
        elif type(m) in ACTIVATION_NAMES and layers and layers[-1]["activation"] == "identity":
            if isinstance(m, nn.LeakyReLU) and m.negative_slope != 0.01:
                raise ValueError(f"{where}: LeakyReLU with slope {m.negative_slope} is not supported (only 0.01)")
            if isinstance(m, nn.ELU) and m.alpha != 1.0:
                raise ValueError(f"{where}: ELU with alpha {m.alpha} is not supported (only 1.0)")
            layers[-1]["activation"] = ACTIVATION_NAMES[type(m)]
        else:
            raise ValueError(f"{where}: unsupported layer in the policy network: {m!r}")
    return layers


def architecture(policy) -> dict:
    """The actor and critic of an SB3 MLP actor-critic policy, as a policy document describes them."""
    for extractor in {id(x): x for x in (policy.features_extractor, getattr(policy, "pi_features_extractor", None),
                                         getattr(policy, "vf_features_extractor", None)) if x is not None}.values():
        if not isinstance(extractor, FlattenExtractor):
            raise ValueError(
                f"only MLP policies on flat observations are supported, got {type(extractor).__name__}"
            )
    return mlp_architecture(policy)


def mlp_architecture(net) -> dict:
    """The document's architecture of a torch module laid out as SB3's actor-critic.

    ``net`` has ``mlp_extractor.policy_net`` / ``.value_net`` (Sequentials of Linear
    layers and activations; optionally ``shared_net``, layers before the split, the
    batched trainer's option), ``action_net`` and ``value_net``: an SB3 policy, the
    batched trainer's network, or the RLlib backend's ``ActorCritic``
    (``training.rllib.modules``), which have the same names.
    """
    names = {id(m): name for name, m in net.named_modules()}
    mlp = net.mlp_extractor
    shared = list(getattr(mlp, "shared_net", None) or [])
    return {
        "kind": "mlp",
        "actor": _linear_layers([*shared, *mlp.policy_net, net.action_net], names, "actor"),
        "critic": _linear_layers([*shared, *mlp.value_net, net.value_net], names, "critic"),
    }  # fmt: skip


def policy_tensors(policy) -> dict[str, np.ndarray]:
    """Every tensor of the policy's state dict as a float32 numpy copy."""
    return {k: v.detach().cpu().numpy().astype(np.float32, copy=True) for k, v in policy.state_dict().items()}


def policy_document(cfg: Mapping, steps: int, extra: Mapping | None = None) -> dict:
    """The document of a policy trained with config ``cfg`` for ``steps`` steps (weights added on writing)."""
    game = game_class(cfg["game"])(seed=0, **cfg["options"])
    prior = prior_document(cfg)
    return {
        "game": cfg["game"],
        "options": to_jsonable(cfg["options"]),
        "observation_size": int(game.observation_size),
        "num_actions": int(game.num_actions),
        **({"prior": prior} if prior else {}),
        "provenance": {"run": cfg["name"], "timesteps": int(steps), "config": to_jsonable(cfg), **dict(extra or {})},
    }


def save_policy(policy, path: Path, document: Mapping, dtype: str = "float32") -> Path:
    """Write ``policy`` (an SB3 actor-critic policy, or a model holding one) as ``PATH.json`` + ``PATH.safetensors``."""
    policy = getattr(policy, "policy", policy)
    return write_policy(path, {**document, "architecture": architecture(policy)}, policy_tensors(policy), dtype)


def extra_inputs(document: Mapping[str, Any], game: str, options: Mapping[str, Any], sizes: tuple[int, int],
                 what: str) -> int:  # fmt: skip
    """How many observation entries a run of ``game`` with ``options`` (its observation and action ``sizes``) has
    beyond those of the policy ``document`` it starts from: 0 for the same sizes, more where the run's observation
    begins with the policy's (``agents.policy.check_observation``); else a ValueError naming ``what`` and both."""
    if (int(document["observation_size"]), int(document["num_actions"])) != tuple(sizes):
        live = game_class(game)(seed=0, **dict(options))
        check_observation(probe_game(document, game), live, f"{what}: its policy")
    return int(sizes[0]) - int(document["observation_size"])


def init_policy_weights(policy, source: str | Path, cfg: Mapping[str, Any], sizes: tuple[int, int]) -> Path:
    """Start the torch ``policy`` of a run with config ``cfg`` (its observation and action ``sizes``) from the
    policy file of ``source`` (a policy, a checkpoint or a run folder): ``init_from``, the one rule all trainers
    share. The file's observation may be a beginning of the run's (``extra_inputs``), its hidden layers narrower
    (``load_policy_weights``'s ``may_widen``). It must play on top of the run's prior, or of none: a policy without
    a prior starts a run with one by reading the prior's one-hot at zero weights (``prior_inputs``), so with
    ``prior.weight`` 0 the run starts as exactly that policy and learns what the prior's action is worth. Every
    check runs before a weight is copied, so a refused file leaves ``policy`` as it was."""
    what = f"init_from {str(source)!r}"
    try:
        path = resolve_policy_path(source)
    except FileNotFoundError as exc:
        raise FileNotFoundError(f"{what}: {exc}") from None
    pf = read_policy(path)
    extra = extra_inputs(pf.document, cfg["game"], cfg["options"], sizes, what)
    theirs, mine = pf.document.get("prior"), prior_document(cfg)
    if theirs is not None and theirs != mine:
        raise ValueError(
            f"{what}: its policy plays on top of {theirs}, this run on top of {mine or 'no prior'} (the prior "
            "section); they must be the same (a policy without a prior may start a run with one)"
        )
    prior_inputs = int(sizes[1]) if theirs is None and mine is not None else 0
    _load_weights(policy, pf, what, extra, may_widen=True, prior_inputs=prior_inputs)
    return pf.path


def load_policy_weights(
    policy, path: str | Path, what: str = "policy", *, extra_inputs: int = 0, may_widen: bool = False
) -> Path:
    """Copy the weights of policy file ``path`` into the torch ``policy`` (same architecture, unless widened).

    ``extra_inputs``: the run's observation is the file's followed by that many
    more entries (an option that only appends pieces, such as Breed the Heifer's
    ``action_counts``; ``agents.policy.check_observation`` says when that holds).
    The layers that read the observation get that many more input columns, at
    zero, right after the file's observation (before a residual policy's one-hot
    of its prior's action), so the network computes exactly the file's function
    until training moves them: fine-tuning a policy on what it could not see before.

    ``may_widen`` (``init_from``; never a resume): the run's hidden layers may be
    wider than the file's, the same number of them. The file's units keep their
    weights and read nothing new (zero columns for the new units below them);
    the new units keep the run's own initialisation for what they read, and
    the layer above reads them with zero weights. So the wider network computes
    exactly the file's function at the start, and the new units, which start
    different from one another, learn from the first update (their outgoing
    weights get gradients at once): Net2Net's function-preserving widening
    (Chen et al., 2016) with zero outgoing weights in place of split copies,
    which would stay identical under gradient descent.
    """
    pf = read_policy(path)
    _load_weights(policy, pf, what, extra_inputs, may_widen)
    return pf.path


def _load_weights(policy, pf: PolicyFile, what: str, extra_inputs: int, may_widen: bool, prior_inputs: int = 0) -> None:
    """``load_policy_weights`` on the policy file ``pf`` already read (``init_policy_weights`` reads it once);
    ``prior_inputs``: the run reads a prior's one-hot of that many entries the file's network has not (its
    columns come last, at zero)."""
    mine = policy.state_dict()
    if set(pf.tensors) != set(mine):
        missing, extra = sorted(set(mine) - set(pf.tensors)), sorted(set(pf.tensors) - set(mine))
        raise ValueError(
            f"{what} ({pf.path}): its network does not match ppo.net_arch/activation of this run (missing "
            f"tensors {missing[:4]}, unexpected {extra[:4]}; a file without the critic cannot be trained on)"
        )
    inputs = int(pf.document["observation_size"])
    readers = {layers[0].weight for layers in (pf.actor, pf.critic) if layers}  # the layers that read the observation
    loaded: dict[str, torch.Tensor] = {}
    for k, t in pf.tensors.items():
        weights = torch.from_numpy(np.array(t, dtype=np.float32))
        if (extra_inputs or prior_inputs) and k in readers:
            new, hot = (torch.zeros((t.shape[0], n), dtype=torch.float32) for n in (extra_inputs, prior_inputs))
            weights = torch.cat([weights[:, :inputs], new, weights[:, inputs:], hot], dim=1)
        loaded[k] = _placed(weights, mine[k], may_widen, f"{what} ({pf.path})", f"{k} is {tuple(t.shape)}")
    policy.load_state_dict(loaded)


def _placed(weights: torch.Tensor, fresh: torch.Tensor, may_widen: bool, what: str, stored: str) -> torch.Tensor:
    """The file's tensor ``weights`` (``stored``: its name and shape in the file) as the run's tensor ``fresh``
    (its own initialisation): the same shape, or, with ``may_widen``, in the leading block of a larger one
    (``load_policy_weights`` says why the rest is so)."""
    have, wanted = tuple(weights.shape), tuple(fresh.shape)
    if have == wanted:
        return weights
    if not may_widen or len(have) != len(wanted) or any(h > w for h, w in zip(have, wanted)):
        how = " or wider (init_from)" if may_widen else ""
        raise ValueError(
            f"{what}: its network does not match ppo.net_arch/activation of this run: tensor {stored}, "
            f"this network's {wanted}; a run takes the file's layers at their widths{how}"
        )
    out = fresh.detach().clone()
    if weights.ndim == 2:
        out[: have[0]] = 0.0  # the file's units read nothing that is new
        out[: have[0], : have[1]] = weights
    else:
        out[: have[0]] = weights
    return out


def numpy_actor(policy) -> list[tuple[np.ndarray, np.ndarray, str]]:
    """The actor copied out of a torch policy exactly as the zip-reading agent did (the tests' reference).

    Weight ``[in, out]`` float32 C-contiguous, bias float32, activation name per layer.
    """
    layers: list[tuple[np.ndarray, np.ndarray, str]] = []
    for m in [*policy.mlp_extractor.policy_net, policy.action_net]:
        if isinstance(m, nn.Linear):
            w = m.weight.detach().cpu().numpy().T.astype(np.float32)
            b = m.bias.detach().cpu().numpy().astype(np.float32)
            layers.append((np.ascontiguousarray(w), b, "identity"))
        elif type(m) in ACTIVATION_NAMES and layers:
            w, b, _ = layers[-1]
            layers[-1] = (w, b, ACTIVATION_NAMES[type(m)])
        else:
            raise ValueError(f"unsupported layer in the policy network: {m!r}")
    return layers


def load_sb3_zip_trusted(path: str | Path, env=None):
    """``MaskablePPO.load`` on the CPU: UNPICKLES code from the zip. Only for files the user trusts.

    The training schedules are replaced (not needed to play); the global RNGs
    are saved and restored around the load, which draws from them.
    """
    # Deferred: sb3-contrib takes a while to import, and only conversion reads its zips.
    from sb3_contrib import MaskablePPO

    custom = {"learning_rate": 0.0, "lr_schedule": lambda _: 0.0, "clip_range": lambda _: 0.0}
    saved = (torch.get_rng_state(), np.random.get_state(), random.getstate())
    try:
        return MaskablePPO.load(str(path), env=env, device="cpu", custom_objects=custom)
    finally:
        torch.set_rng_state(saved[0])
        np.random.set_state(saved[1])
        random.setstate(saved[2])


def convert_sb3_zip(
    source: str | Path,
    dest: str | Path,
    *,
    trust: bool,
    game: str | None = None,
    options: Mapping[str, Any] | None = None,
    dtype: str = "float32",
    provenance: Mapping[str, Any] | None = None,
) -> Path:
    """Convert the SB3 zip ``source`` (trusted: see ``TRUST_NOTE``) into the policy files ``dest``.

    The game and options come from the zip's ``pokerzoo`` attribute (written
    by pokerzoo's trainer before the new format) or from ``game``/``options``.
    The numpy actor of the written file is checked against torch's own logits.
    """
    if not trust:
        raise PolicyFileError(f"refusing to convert {source} without --trust. {TRUST_NOTE}")
    source = Path(source)
    if not source.is_file():
        raise FileNotFoundError(f"{str(source)!r} not found")
    model = load_sb3_zip_trusted(source)
    meta = dict(getattr(model, "pokerzoo", None) or {})
    name = canonical(game or meta.get("game") or "")
    opts = dict(options if options is not None else meta.get("config") or {})
    probe = game_class(name)(seed=0, **opts)
    obs_shape, n_actions = model.observation_space.shape, getattr(model.action_space, "n", None)
    if obs_shape != (probe.observation_size,) or n_actions != probe.num_actions:
        raise PolicyFileError(
            f"{source}: the model takes observations {obs_shape} and {n_actions} actions; {name} with options "
            f"{opts} has ({probe.observation_size},) and {probe.num_actions}"
        )
    extra = {k: v for k, v in meta.items() if k not in ("format", "game", "config", "observation_size", "num_actions")}
    document = {
        "game": name,
        "options": to_jsonable(opts or probe.config),
        "observation_size": probe.observation_size,
        "num_actions": probe.num_actions,
        "provenance": {
            **to_jsonable(extra),
            **to_jsonable(dict(provenance or {})),
            "converted_from": {"file": source.name, "sha256": hashlib.sha256(source.read_bytes()).hexdigest()},
        },
    }
    out = save_policy(model.policy, Path(dest), document, dtype)
    check_against_torch(model.policy, out)
    return out


def check_against_torch(policy, path: Path, samples: int = 256) -> None:
    """The numpy actor of policy file ``path`` gives the torch policy's logits (up to float16 rounding)."""
    pf = read_policy(path)
    net = PolicyNet(pf.actor_arrays(), pf.document)
    probe = np.random.default_rng(0).random((samples, net.observation_size), dtype=np.float32)
    with torch.no_grad():
        expected = policy.get_distribution(torch.as_tensor(probe)).distribution.logits.numpy()
    got = net.logits(probe)
    got = got - got.max(1, keepdims=True)
    got = got - np.log(np.exp(got).sum(1, keepdims=True))
    tol = 1e-4 if pf.document["weights"]["dtype"] == "float32" else 5e-2
    if not np.allclose(got, expected, atol=tol, rtol=tol):
        worst = float(np.abs(got - expected).max())
        raise PolicyFileError(f"{path}: the numpy actor disagrees with torch by {worst:.3g}; unsupported network")
