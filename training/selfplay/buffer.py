"""The rollout buffer: every learner decision with its own (row, seat) stream, and decisions carried over.

A decision is stored when the learner makes it (observation, mask, action,
its log-probability and value) and becomes *complete* when its reward is
final: when the same seat of the same game decides again (its successor in
the stream is then known: ``next``) or when the game ends (``done``). The
rewards come from ``SeatAccounts`` (``pokerzoo.envs.batched.seats``): what that
seat earns from its decision to its next one or to the end of the game, the
rewards before its first decision joining the first.

At the end of a rollout some decisions are still open (their seat has not
decided again and the game goes on). They are not trained on yet: ``carry``
moves them to the front of the buffer and the next rollout completes them,
so no decision is lost and none is credited with a partial reward. Their
log-probabilities and values stay those of the policy that made them, which
is what PPO's importance ratio needs.

GAE runs along each stream (``advantages``): for a complete decision d with
successor n, delta = r + gamma V(n) - V(d) (just r - V(d) at a game's end) and
A(d) = delta + gamma lambda A(n) while n is complete too; where n is still
open the recursion stops and V(n) bootstraps, as PPO does at a rollout's end.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.batched.seats import Transitions

NO_DECISION = -1


@kernel
def _gae(size, rewards, values, dones, successor, complete, gamma, lam, out):
    """Advantages along each stream, newest first (a successor always comes later in the buffer)."""
    for d in range(size - 1, -1, -1):
        if not complete[d]:
            out[d] = 0.0
            continue
        if dones[d]:
            out[d] = rewards[d] - values[d]
            continue
        n = successor[d]
        a = rewards[d] + gamma * values[n] - values[d]
        if complete[n]:
            a += gamma * lam * out[n]
        out[d] = a


@kernel
def _compact_rows(array, keep):
    """array[i] = array[keep[i]] for ascending ``keep`` (keep[i] >= i), in place: no row is overwritten before
    it is read, and no temporary copy of the kept rows is made."""
    for i in range(keep.shape[0]):
        source = keep[i]
        if source != i:
            for j in range(array.shape[1]):
                array[i, j] = array[source, j]


class Batch(NamedTuple):
    """The complete decisions of a rollout, ready for the PPO update.

    ``obs``, ``mask`` and ``privileged`` are the buffer's own arrays, not copied:
    decision i of the batch is row ``index[i]`` of them (valid until the buffer's ``carry``).
    The other arrays are per batch decision.
    """

    obs: np.ndarray
    mask: np.ndarray
    index: np.ndarray
    actions: np.ndarray
    log_probs: np.ndarray
    values: np.ndarray
    advantages: np.ndarray
    returns: np.ndarray
    privileged: np.ndarray | None = None  # the buffer's privileged features (``critic.privileged``), or None
    anchor_actions: np.ndarray | None = None  # per batch decision: the anchor agent's action (``anchor``), or None
    prior_actions: np.ndarray | None = None  # per batch decision: the prior's action (``prior``), or None


class DecisionBuffer:
    """Decisions of up to ``rollout_decisions`` new ones plus one open decision per (row, seat).

    With ``privileged_size`` > 0 every decision also keeps what its seat could
    not see (``privileged``: the privileged critic's extra input); with
    ``anchor`` the action the anchor agent would have taken there (``anchor``);
    with ``prior`` the action of the agent the policy plays on top of (``prior``).
    """

    ARRAYS = ("obs", "mask", "action", "log_prob", "value", "reward", "done", "complete", "successor", "row", "seat")

    def __init__(self, num_envs: int, num_players: int, observation_size: int, num_actions: int,
                 rollout_decisions: int, privileged_size: int = 0, anchor: bool = False,
                 prior: bool = False):  # fmt: skip
        capacity = rollout_decisions + num_envs * num_players
        self.capacity = capacity
        optional = {"privileged": bool(privileged_size), "anchor": anchor, "prior": prior}
        self.arrays = self.ARRAYS + tuple(name for name, kept in optional.items() if kept)
        self.anchor = np.zeros(capacity, dtype=np.int64) if anchor else None
        self.prior = np.zeros(capacity, dtype=np.int64) if prior else None
        self.privileged = np.zeros((capacity, privileged_size), dtype=np.float32) if privileged_size else None
        self.obs = np.zeros((capacity, observation_size), dtype=np.float32)
        self.mask = np.zeros((capacity, num_actions), dtype=np.bool_)
        self.action = np.zeros(capacity, dtype=np.int64)
        self.log_prob = np.zeros(capacity, dtype=np.float32)
        self.value = np.zeros(capacity, dtype=np.float32)
        self.reward = np.zeros(capacity, dtype=np.float32)  # scaled (``reward_scale``)
        self.done = np.zeros(capacity, dtype=np.bool_)
        self.complete = np.zeros(capacity, dtype=np.bool_)
        self.successor = np.full(capacity, NO_DECISION, dtype=np.int64)
        self.row = np.zeros(capacity, dtype=np.int64)
        self.seat = np.zeros(capacity, dtype=np.int64)
        self.open = np.full((num_envs, num_players), NO_DECISION, dtype=np.int64)  # the open decision per stream
        self.size = 0

    # ------------------------------------------------------------------ filling
    def reserve(self, rows: np.ndarray, seats: np.ndarray) -> slice:
        """Room for the new decisions of ``seats`` in ``rows`` (one per row); links each to its predecessor.

        Call after ``settle`` of the transitions their decisions complete. The
        caller writes the observations, masks, actions, log-probabilities and
        values into the returned slice.
        """
        k = rows.shape[0]
        if self.size + k > self.capacity:
            raise RuntimeError(f"rollout buffer full ({self.capacity} decisions): a bug in the rollout size")
        where = slice(self.size, self.size + k)
        new = np.arange(self.size, self.size + k, dtype=np.int64)
        previous = self.open[rows, seats]
        linked = previous >= 0
        if linked.any():
            if not self.complete[previous[linked]].all():
                raise RuntimeError("a decision was made before the previous one of its seat was settled")
            self.successor[previous[linked]] = new[linked]
        self.open[rows, seats] = new
        self.row[where] = rows
        self.seat[where] = seats
        self.complete[where] = False
        self.done[where] = False
        self.reward[where] = 0.0
        self.successor[where] = NO_DECISION
        self.size += k
        return where

    def settle(self, transitions: Transitions, scale: float) -> np.ndarray:
        """The open decisions ``transitions`` complete get their rewards (times ``scale``); returns their indices."""
        idx = self.open[transitions.rows, transitions.seats]
        if (idx < 0).any():
            raise RuntimeError("a transition for a (row, seat) without an open decision")
        self.reward[idx] = transitions.rewards * scale
        self.done[idx] = transitions.dones
        self.complete[idx] = True
        ended = transitions.dones
        self.open[transitions.rows[ended], transitions.seats[ended]] = NO_DECISION
        return idx

    # ------------------------------------------------------------------ the update's data
    def batch(self, gamma: float, gae_lambda: float) -> Batch:
        """GAE along every stream, and the complete decisions with their advantages and returns."""
        n = self.size
        advantages = np.zeros(n, dtype=np.float32)
        _gae(n, self.reward, self.value, self.done, self.successor, self.complete, np.float32(gamma),
             np.float32(gae_lambda), advantages)  # fmt: skip
        idx = np.flatnonzero(self.complete[:n])
        adv = advantages[idx]
        values = self.value[idx]
        return Batch(
            obs=self.obs,
            mask=self.mask,
            privileged=self.privileged,
            anchor_actions=None if self.anchor is None else self.anchor[idx],
            prior_actions=None if self.prior is None else self.prior[idx],
            index=idx,
            actions=self.action[idx],
            log_probs=self.log_prob[idx],
            values=values,
            advantages=adv,
            returns=adv + values,
        )

    def carry(self) -> int:
        """Keep only the open decisions, moved to the front in the order they were made; returns how many."""
        keep = np.flatnonzero(~self.complete[: self.size])
        k = keep.shape[0]
        for name in self.arrays:
            array = getattr(self, name)
            if array.ndim == 2:
                _compact_rows(array, keep)  # the observations and masks: most of the bytes
            else:
                array[:k] = array[keep]
        self.successor[:k] = NO_DECISION  # an open decision has no successor yet
        position = np.full(self.size, NO_DECISION, dtype=np.int64)
        position[keep] = np.arange(k)
        opened = self.open >= 0
        self.open[opened] = position[self.open[opened]]
        self.size = k
        return k

    @property
    def open_decisions(self) -> int:
        return int((self.open >= 0).sum())

    # ------------------------------------------------------------------ checkpoints
    def state_dict(self) -> dict[str, np.ndarray]:
        """The carried (open) decisions and the stream table; only valid right after ``carry``."""
        if self.complete[: self.size].any():
            raise RuntimeError("the buffer is saved between rollouts only (after carry)")
        return {name: getattr(self, name)[: self.size].copy() for name in self.arrays} | {"open": self.open.copy()}

    def load_state_dict(self, state: dict[str, np.ndarray]) -> None:
        k = state["action"].shape[0]
        if state["open"].shape != self.open.shape or state["obs"].shape[1:] != self.obs.shape[1:] or k > self.capacity:
            raise ValueError("the checkpoint's open decisions do not fit this run's buffer (rows, seats or sizes)")
        # the optional arrays: (name, what it keeps, what makes a run keep it, with its article, the key asking)
        for name, kept, (a, what), key in (
            ("privileged", "privileged features", ("a", "privileged critic"), "critic.privileged"),
            ("anchor", "anchor actions", ("an", "anchor"), "anchor.agent"),
            ("prior", "prior actions", ("a", "prior"), "prior.agent"),
        ):
            if name in state and getattr(self, name) is None:
                raise ValueError(f"the checkpoint's open decisions keep {kept}; this run has no {what}")
            if name not in state and getattr(self, name) is not None:
                raise ValueError(f"the checkpoint's open decisions keep no {kept}; this run has {a} {what} ({key})")
        for name in self.arrays:
            getattr(self, name)[:k] = state[name]
        self.open[:] = state["open"]
        self.size = k
