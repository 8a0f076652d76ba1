"""An ``Agent`` backed by a trained MaskablePPO checkpoint, and where the shipped ones are found.

A checkpoint is the ordinary sb3-contrib ``MaskablePPO`` zip (``MaskablePPO.load``
reads it), with the pokerzoo facts it was trained on (game, options,
observation size, the command that produced it) stored in the model as its
``pokerzoo`` attribute. Playing needs only the actor, so on loading the
actor's layers are copied out into numpy and every decision is one small
matrix product there: no torch call per move, which matters when snapshots
play opponent seats thousands of times a second inside training envs, and
the copy is checked against torch's own logits once at load time.

Where a policy comes from (the specs are parsed by ``pokerzoo.agents.registry``):
``policy:PATH`` is a checkpoint zip, or a folder holding ``policy.zip`` (a
training run folder works too: its ``final/policy.zip``, else its latest
checkpoint); a shipped name, e.g. ``ppo``, is ``agents/policies/<game>/<name>.zip``
(``<game>`` the registry's short name, ``GameSpec.name``).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from pokerzoo.agents.base import Agent, details
from pokerzoo.envs import game_class
from pokerzoo.envs.engine.game import Game, View
from pokerzoo.envs.registry import canonical, spec

POLICY_DIR = Path(__file__).resolve().parent / "policies"
SAMPLE_SUFFIX = "@sample"
_ACTIVATIONS = {
    "Tanh": np.tanh,
    "ReLU": lambda x: np.maximum(x, 0.0),
    "LeakyReLU": lambda x: np.where(x > 0, x, 0.01 * x),
    "ELU": lambda x: np.where(x > 0, x, np.expm1(np.minimum(x, 0.0))),
    "Identity": lambda x: x,
}


class PolicyNet:
    """The actor of a MaskablePPO MLP policy, in numpy: observation -> action logits."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray, str]], meta: dict):
        self.layers = layers  # (weight [in, out], bias [out], activation name after it)
        self.meta = meta
        self.observation_size = int(layers[0][0].shape[0])
        self.num_actions = int(layers[-1][0].shape[1])

    def logits(self, obs: np.ndarray) -> np.ndarray:
        x = np.asarray(obs, dtype=np.float32)
        for w, b, act in self.layers:
            x = _ACTIVATIONS[act](x @ w + b)
        return x


def _actor_layers(policy) -> list[tuple[np.ndarray, np.ndarray, str]]:
    """Copy the actor's Linear layers and activations out of an SB3 actor-critic policy."""
    # Deferred: torch and SB3 take ~3 s to import; only reading an SB3 zip needs them, not playing.
    import torch.nn as nn
    from stable_baselines3.common.torch_layers import FlattenExtractor

    extractor = getattr(policy, "pi_features_extractor", policy.features_extractor)
    if not isinstance(extractor, FlattenExtractor):
        raise ValueError(
            f"only MLP policies on flat observations are supported, got {type(extractor).__name__}"
        )
    modules = [*policy.mlp_extractor.policy_net, policy.action_net]
    layers: list[tuple[np.ndarray, np.ndarray, str]] = []
    for m in modules:
        if isinstance(m, nn.Linear):
            w = m.weight.detach().cpu().numpy().T.astype(np.float32)
            b = m.bias.detach().cpu().numpy().astype(np.float32)
            layers.append((np.ascontiguousarray(w), b, "Identity"))
        elif type(m).__name__ in _ACTIVATIONS and layers:
            w, b, _ = layers[-1]
            layers[-1] = (w, b, type(m).__name__)
        else:
            raise ValueError(f"unsupported layer in the policy network: {m!r}")
    return layers


def load_model(path: str | Path, env=None):
    """``MaskablePPO.load`` on the CPU, without unpickling the training schedules (not needed to play)."""
    # Deferred: torch and SB3 take ~3 s to import; only reading an SB3 zip needs them, not playing.
    from sb3_contrib import MaskablePPO

    custom = {"learning_rate": 0.0, "lr_schedule": lambda _: 0.0, "clip_range": lambda _: 0.0}
    return MaskablePPO.load(str(path), env=env, device="cpu", custom_objects=custom)


_CACHE: dict[tuple[str, int], PolicyNet] = {}
_LOCK = threading.Lock()


def load_policy_net(path: str | Path) -> PolicyNet:
    """The numpy actor of checkpoint ``path`` (cached per file and modification time)."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"policy checkpoint {str(path)!r} not found")
    key = (str(path.resolve()), path.stat().st_mtime_ns)
    with _LOCK:
        net = _CACHE.get(key)
    if net is not None:
        return net
    # Deferred: torch and SB3 take ~3 s to import; only reading an SB3 zip needs them, not playing.
    import torch

    # Building a model draws from the global generators (weight initialisation, seeding);
    # loading a policy must not move them under the caller (a trainer's exact resume).
    saved = (torch.get_rng_state(), np.random.get_state(), random.getstate())
    try:
        model = load_model(path)
    finally:
        torch.set_rng_state(saved[0])
        np.random.set_state(saved[1])
        random.setstate(saved[2])
    meta = dict(getattr(model, "pokerzoo", None) or {})
    net = PolicyNet(_actor_layers(model.policy), meta)
    # The numpy copy must give torch's logits: checked once on random observations.
    probe = np.random.default_rng(0).random((4, net.observation_size), dtype=np.float32)
    with torch.no_grad():
        dist = model.policy.get_distribution(torch.as_tensor(probe))
        expected = dist.distribution.logits.numpy()
    got = net.logits(probe)
    got = (
        got
        - np.log(np.exp(got - got.max(1, keepdims=True)).sum(1, keepdims=True))
        - got.max(1, keepdims=True)
    )
    if not np.allclose(got, expected, atol=1e-4, rtol=1e-4):
        raise ValueError(
            f"{path}: the numpy copy of the policy disagrees with torch; unsupported architecture"
        )
    with _LOCK:
        _CACHE[key] = net
    return net


def resolve_policy_path(path: str | Path) -> Path:
    """A checkpoint file from a file, a folder with ``policy.zip``, or a training run folder."""
    p = Path(path).expanduser()
    if p.is_file():
        return p
    if p.is_dir():
        for candidate in (p / "policy.zip", p / "final" / "policy.zip"):
            if candidate.is_file():
                return candidate
        latest = p / "checkpoints" / "latest"
        if latest.is_file():
            step_dir = p / "checkpoints" / latest.read_text().strip()
            if (step_dir / "model.zip").is_file():
                return step_dir / "model.zip"
        raise FileNotFoundError(f"no policy.zip, final/policy.zip or checkpoint in folder {str(p)!r}")
    raise FileNotFoundError(f"policy checkpoint {str(p)!r} not found")


def shipped_policies(env_name: str) -> dict[str, Path]:
    """The trained policies shipped for a game (``agents/policies/<name>/``): name -> file."""
    folder = POLICY_DIR / spec(env_name).name
    if not folder.is_dir():
        return {}
    return {p.stem: p for p in sorted(folder.glob("*.zip"))}


class PolicyAgent(Agent):
    """Plays the most likely legal action of a trained policy (or samples, ``deterministic=False``).

    ``env_name`` is checked against the game the checkpoint was trained on. The
    observation is the game's own ``encode(view)``, the same vector the
    learner saw; when ``act`` gets no ``game``, one is built from the options
    stored in the checkpoint to encode the view.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        env_name: str | None = None,
        deterministic: bool = True,
        seed: int | None = None,
        name: str | None = None,
    ):
        super().__init__(seed)
        self.path = str(resolve_policy_path(path))
        self.deterministic = deterministic
        self.name = name or f"policy:{path}"
        self.env_name = env_name
        self._net: PolicyNet | None = None
        self._encoder: Game | None = None
        self._last: tuple[np.ndarray, np.ndarray] | None = None  # (legal actions, their logits) of the latest act
        self._load()

    def _load(self) -> None:
        net = load_policy_net(self.path)
        trained_on = net.meta.get("game")
        if self.env_name is not None and trained_on is not None:
            want = canonical(self.env_name)
            if trained_on != want:
                raise ValueError(f"policy {self.path} was trained on {trained_on}, not {want}")
        self._net = net

    @property
    def meta(self) -> dict:
        return self._net.meta

    def logits(self, view: View, game: Game | None = None) -> np.ndarray:
        obs = self._encode(view, game)
        if obs.shape != (self._net.observation_size,):
            raise ValueError(
                f"policy {self.path} expects observations of size {self._net.observation_size}, "
                f"the game gives {obs.shape[0]} (different game options?)"
            )
        return self._net.logits(obs)

    def act(self, view: View, mask: np.ndarray, game: Game | None = None) -> int:
        logits = self.logits(view, game)
        mask = np.asarray(mask, dtype=bool)
        if mask.shape != logits.shape:
            raise ValueError(f"policy {self.path} has {logits.size} actions, the game's mask {mask.size}")
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("no legal action: the mask is all zeros")
        z = logits[legal]
        self._last = (legal, z)
        if self.deterministic:
            return int(legal[int(np.argmax(z))])
        p = np.exp(z - z.max())
        p /= p.sum()
        return int(
            legal[min(int(np.searchsorted(np.cumsum(p), self.rng.random() * p.sum())), legal.size - 1)]
        )

    def decision_details(self) -> dict | None:
        """The policy's probabilities over the legal actions of the latest decision (softmax of their logits)."""
        if self._last is None:
            return None
        legal, z = self._last
        p = np.exp(z - z.max())
        p /= p.sum()
        return details("probabilities", legal.tolist(), p.tolist())

    def _encode(self, view: View, game: Game | None) -> np.ndarray:
        if game is None:
            if self._encoder is None:
                self._encoder = _probe_game(self._net.meta, self.env_name)
            game = self._encoder
        return np.asarray(game.encode(view), dtype=np.float32)

    # Snapshots travel to worker processes and into checkpoints by path, not by weights.
    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_net"] = None
        state["_encoder"] = None
        state["_last"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._load()


def _probe_game(meta: Mapping[str, Any], env_name: str | None) -> Game:
    name = meta.get("game") or env_name
    if name is None:
        raise ValueError("cannot encode a view without the game: pass game= to act()")
    return game_class(name)(seed=0, **dict(meta.get("config") or {}))
