"""Batched opponents: agents that decide the waiting decision of many rows of a batched env at once.

The protocol is one method, ``act(env, rows) -> int[len(rows)]``: a legal
action for the decision waiting in each of ``rows``. An opponent reads what
it needs from the env: ``env.obs[rows]`` and ``env.mask[rows]`` (what a
learned policy sees), ``env.current_player[rows]``, or the game's state
arrays ``env.state`` (what a batched scripted agent reasons over, e.g. a
compiled port of a game's heuristic), so any of them plugs into the
adapters' opponent seats. ``seed(seed)`` reseeds its own randomness.

* ``RandomOpponent``: uniform over the legal actions (compiled, one generator);
* ``PolicyOpponent``: a policy network run on all rows at once: a numpy actor
  (anything with ``logits(obs)``, e.g. ``pokerzoo``'s ``PolicyNet``, or a plain
  function obs -> logits), a torch module mapping observations to logits, an sb3-contrib ``MaskablePPO``
  model or its policy (``PolicyOpponent.snapshot(model)`` freezes a copy of a
  model being trained). Illegal actions are masked out; the most likely legal
  action is played, or one is sampled with ``deterministic=False``.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from pokerzoo.envs.batched import rng

if TYPE_CHECKING:
    from pokerzoo.envs.batched.core import BatchedEnv


@runtime_checkable
class BatchedOpponent(Protocol):
    def act(self, env: BatchedEnv, rows: np.ndarray) -> np.ndarray:
        """A legal action (int64) for the decision waiting in each row of ``rows``."""
        ...

    def seed(self, seed: int | None) -> None: ...


class RandomOpponent:
    """Uniformly random legal actions, drawn by the compiled ``rng.uniform_legal_actions``."""

    def __init__(self, seed: int | None = None):
        self.seed(seed)

    def seed(self, seed: int | None) -> None:
        self._words = rng.words_from_seed(seed)[None, :].copy()

    def act(self, env: BatchedEnv, rows: np.ndarray) -> np.ndarray:
        out = np.empty(rows.shape[0], dtype=np.int64)
        rng.uniform_legal_actions(self._words, env.mask[rows], out)
        return out


class PolicyOpponent:
    """A policy network deciding for all rows at once (see the module docstring for what ``policy`` may be)."""

    def __init__(self, policy: Any, *, deterministic: bool = True, seed: int | None = None):
        self.policy = policy
        self.deterministic = deterministic
        self._logits = _logits_function(policy)
        self.seed(seed)

    @classmethod
    def snapshot(cls, model: Any, **kw: Any) -> PolicyOpponent:
        """A frozen copy of an SB3 model's policy (later training of ``model`` does not change it)."""
        policy = copy.deepcopy(getattr(model, "policy", model))
        policy.set_training_mode(False)
        return cls(policy, **kw)

    def seed(self, seed: int | None) -> None:
        self._rng = np.random.default_rng(seed)

    def act(self, env: BatchedEnv, rows: np.ndarray) -> np.ndarray:
        return self.choose(env.obs[rows], env.mask[rows])

    def choose(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The policy's actions for these observations, restricted to ``mask``."""
        logits = np.asarray(self._logits(obs), dtype=np.float64)
        logits = np.where(mask, logits, -np.inf)
        if not self.deterministic:
            logits = logits + self._rng.gumbel(size=logits.shape)  # Gumbel-max: a sample from softmax(logits)
        return np.argmax(logits, axis=1).astype(np.int64)


def _logits_function(policy: Any):
    """obs (float32[k, D]) -> logits[k, A] for the policy kinds ``PolicyOpponent`` accepts."""
    if hasattr(policy, "logits") and callable(policy.logits):
        return policy.logits
    # Deferred: torch takes about a second to import; random and numpy opponents never need it
    import torch

    sb3_policy = getattr(policy, "policy", policy)
    if hasattr(sb3_policy, "get_distribution"):

        def sb3_logits(obs: np.ndarray) -> np.ndarray:
            with torch.no_grad():
                tensor, _ = sb3_policy.obs_to_tensor(obs)
                return sb3_policy.get_distribution(tensor).distribution.logits.cpu().numpy()

        return sb3_logits
    if isinstance(policy, torch.nn.Module):

        def module_logits(obs: np.ndarray) -> np.ndarray:
            with torch.no_grad():
                return policy(torch.as_tensor(obs)).cpu().numpy()

        return module_logits
    if callable(policy):
        return policy  # numpy in, logits out
    raise TypeError(
        f"a policy opponent needs an object with logits(obs), an SB3 policy or model, or a torch module; "
        f"got {type(policy).__name__}"
    )
