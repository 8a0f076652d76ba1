"""Collection: N games at once, each seat played by the learner or a league member, every step one ``env.step``.

At the start of every game (row) each seat gets a controller: with
probability ``self_play`` the learner takes every seat (parameter sharing);
otherwise it takes one random seat and one league member, drawn by PFSP,
takes all the others (a game with one seat is always the learner's). With
probability ``mixed`` such a game is a mixed table instead, as the
evaluation's are: the learner takes half the seats (``p // 2`` or
``(p + 1) // 2`` of p, either equally likely, drawn at random), the member
(drawn again among ``mixed_members`` where those are named) the rest; a
member's result is the learner seats' mean total against the member seats'
mean. With probability ``varied`` a game that is neither
seats a member drawn by PFSP in each other seat separately (as a
round-robin's tables mix opponents); each member seat's result is then the
learner seat's total against that seat's (a draw that gave every seat the
same member is that member's ordinary table). Then,
at every step:

1. the rows whose acting seat is the learner's get one batched forward pass
   (masked categorical over each row's legal actions only, ``legal``: an
   illegal action has probability 0) and one sampled action each; their
   decisions go to the buffer, each in its (row, seat) stream; with a
   privileged critic (``critic.privileged``) their values are its estimates
   from the observation and what the seat cannot see (both kept in the buffer);
   with an anchor agent (``anchor.agent``) the action it would take in each
   of those rows goes to the buffer too (the PPO loss pulls the actor toward it);
   with a prior (``prior.agent``: a residual policy over a scripted agent) its
   batched port decides those rows first, and its actions are the network's
   second input part and lift their logits (kept in the buffer for the update);
2. each member decides its rows in one batch (``act(env, rows)``);
3. one ``env.step`` of all rows; the rewards are booked per (row, seat) by
   ``SeatAccounts`` and complete the decisions they belong to (``DecisionBuffer.settle``);
4. in rows whose game ended, the learner's result against the member goes to
   the league's PFSP statistics and the next game gets its controllers.

Randomness: one generator per rollout (the learner's samples and the seat
assignments), derived from the run's seed and the rollout's number.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import torch

from pokerzoo.envs.batched.core import BatchedEnv
from pokerzoo.envs.batched.seats import SeatAccounts, Transitions
from pokerzoo.training.selfplay.buffer import DecisionBuffer
from pokerzoo.training.selfplay.league import League
from pokerzoo.training.selfplay.legal import Legal, legal_logits, prior_logits
from pokerzoo.training.selfplay.legal import log_probs as legal_log_probs
from pokerzoo.training.selfplay.network import ActorCritic, PrivilegedCritic, sample_actions
from pokerzoo.training.selfplay.sparse import SparseRows

LEARNER = -1  # controller of a seat the learner plays (else: a league member's id)
EPISODE_WINDOW = 100  # learner games in the rolling means (SB3's ep_info_buffer)
TIE = 1e-9


class RolloutStats(NamedTuple):
    decisions: int  # learner decisions made
    steps: int  # env steps (rows x steps)
    games: int  # games finished (all rows)


def _outcome(own: np.ndarray, other: np.ndarray) -> np.ndarray:
    """The learner's result against an opponent's total: 1 won, 0.5 drawn, 0 lost."""
    return np.where(own > other + TIE, 1.0, np.where(own < other - TIE, 0.0, 0.5))


class Collector:
    """Plays ``env`` with the learner ``model`` and the ``league``, filling ``buffer`` (see the module docstring)."""

    def __init__(self, env: BatchedEnv, model: ActorCritic, league: League, buffer: DecisionBuffer, *,
                 self_play: float, reward_scale: float, mixed: float = 0.0, varied: float = 0.0,
                 critic: PrivilegedCritic | None = None, anchor: Any = None, prior: Any = None,
                 prior_weight: float = 0.0, mixed_members: Sequence[str] = (),
                 observation_size: int | None = None):  # fmt: skip
        n, p = env.num_envs, env.num_players
        env.copy = False
        self.env = env
        # the learner reads each row's first ``observation_size`` entries (None: all): the rows may show more,
        # for league policies that read it (``league.table_options``)
        self.observation_size = env.observation_size if observation_size is None else int(observation_size)
        self.model = model
        self.critic = critic
        self.anchor = anchor  # a batched agent (``act(env, rows)``) or None
        self.prior = prior  # likewise: the batched port of the policy's prior, or None
        self.prior_weight = float(prior_weight)
        self.league = league
        self.buffer = buffer
        self.self_play = float(self_play)
        self.mixed = float(mixed)
        self.mixed_members = tuple(mixed_members)  # the members a mixed table draws from (empty: any)
        self.varied = float(varied)
        self.reward_scale = float(reward_scale)
        self.accounts = SeatAccounts(n, p)
        self.controller = np.full((n, p), LEARNER, dtype=np.int64)
        self.game_totals = np.zeros((n, p), dtype=np.float64)  # every seat's rewards in the current game
        self.returns = np.zeros((n, p), dtype=np.float64)  # the learner streams' rewards so far (game units)
        self.episode_returns: deque[float] = deque(maxlen=EPISODE_WINDOW)  # every learner seat's game total
        self.league_returns: deque[float] = deque(maxlen=EPISODE_WINDOW)  # ... in games against a member
        self.rng = np.random.default_rng(0)
        self.on_transitions = None  # optional hook: called with every settled ``Transitions`` (tests)
        self._actions = np.zeros(n, dtype=np.int64)

    # ------------------------------------------------------------------ games and seats
    def start(self, seeds: list[int], rng: np.random.Generator) -> None:
        """New games in every row (row i seeded ``seeds[i]``), with their controllers."""
        self.rng = rng
        self.env.reset(seed=seeds)
        self.assign(self.env.all_rows)

    def assign(self, rows: np.ndarray) -> None:
        """Controllers for the new games of ``rows``."""
        if rows.size == 0:
            return
        self.controller[rows] = LEARNER
        players = self.env.num_players
        if players == 1 or not self.league.active():
            return
        against = rows[self.rng.random(rows.size) >= self.self_play]
        if against.size == 0:
            return
        seats = self.rng.integers(players, size=against.size)
        self.controller[against] = self.league.draw(self.rng, against.size)[:, None]
        self.controller[against, seats] = LEARNER
        if self.mixed > 0 and players > 2:  # (no draws otherwise: runs without mixed tables play as before)
            mixed = against[self.rng.random(against.size) < self.mixed]
            count = np.where(self.rng.random(mixed.size) < 0.5, players // 2, (players + 1) // 2)
            rank = np.argsort(np.argsort(self.rng.random((mixed.size, players)), axis=1), axis=1)
            learner = rank < count[:, None]  # a uniformly random set of ``count`` seats
            member = self.controller[mixed].max(axis=1)
            if self.mixed_members:  # (a draw of its own: runs without mixed_members play as before)
                member = self.league.draw(self.rng, mixed.size, among=self.mixed_members)
            self.controller[mixed] = np.where(learner, LEARNER, member[:, None])
        if self.varied > 0 and players > 2:  # (likewise: no draws without varied tables)
            single = against[(self.controller[against] == LEARNER).sum(axis=1) == 1]  # not the mixed tables
            varied = single[self.rng.random(single.size) < self.varied]
            members = self.league.draw(self.rng, varied.size * players).reshape(varied.size, players)
            self.controller[varied] = np.where(self.controller[varied] == LEARNER, LEARNER, members)

    # ------------------------------------------------------------------ one rollout
    def collect(self, steps: int, rng: np.random.Generator) -> RolloutStats:
        self.rng = rng
        decisions = games = 0
        self.model.eval()
        if self.critic is not None:
            self.critic.eval()
        with torch.inference_mode():
            for _ in range(steps):
                made, ended = self.step()
                decisions += made
                games += ended
        return RolloutStats(decisions, steps * self.env.num_envs, games)

    def step(self) -> tuple[int, int]:
        """One decision in every row; returns (learner decisions, games ended)."""
        env, buffer = self.env, self.buffer
        player = env.current_player
        who = self.controller[env.all_rows, player]
        learner_rows = np.flatnonzero(who == LEARNER)
        actions = self._actions
        if learner_rows.size:
            seats = player[learner_rows]
            self._settle(self.accounts.decide(learner_rows, seats))
            where = buffer.reserve(learner_rows, seats)
            # the observations and masks go to the buffer and into sparse form in one read of them
            observations = SparseRows.from_rows(env.obs, learner_rows, out=buffer.obs[where],
                                                width=self.observation_size)  # fmt: skip
            legal = Legal.from_mask(env.mask, learner_rows, out=buffer.mask[where])
            if self.prior is None:
                logits, values = legal_logits(self.model, observations, legal)
            else:
                prior = self.prior.act(env, learner_rows)
                buffer.prior[where] = prior
                logits, values = prior_logits(self.model, observations, legal, torch.from_numpy(prior),
                                              self.prior_weight)  # fmt: skip
            if self.critic is not None:
                features = env.privileged(learner_rows, seats)  # to the buffer and into sparse form at once
                hidden = SparseRows.from_rows(features, np.arange(learner_rows.size), out=buffer.privileged[where])
                values = self.critic(observations, hidden)
            everyone = np.arange(learner_rows.size)
            log_probs = legal_log_probs(logits).numpy()
            slots = sample_actions(log_probs, self.rng.random(learner_rows.size))
            chosen = legal.table()[everyone, slots]
            buffer.action[where] = chosen
            buffer.log_prob[where] = log_probs[everyone, slots]
            buffer.value[where] = values.numpy()
            if self.anchor is not None:
                buffer.anchor[where] = self.anchor.act(env, learner_rows)
            actions[learner_rows] = chosen
        if learner_rows.size < env.num_envs:
            member_rows = np.flatnonzero(who != LEARNER)
            members = who[member_rows]
            for mid in np.unique(members).tolist():
                rows = member_rows[members == mid]
                actions[rows] = self.league.opponent(mid).act(env, rows)
        _, _, rewards, done, _ = env.step(actions)
        self.game_totals += rewards
        self._settle(self.accounts.record(env.all_rows, rewards, done))
        finished = np.flatnonzero(done)
        if finished.size:
            self._games_end(finished)
        return int(learner_rows.size), int(finished.size)

    def _settle(self, transitions: Transitions) -> None:
        if transitions.rows.size == 0:
            return
        self.buffer.settle(transitions, self.reward_scale)
        r, s = transitions.rows, transitions.seats
        self.returns[r, s] += transitions.rewards
        ended = transitions.dones
        if ended.any():
            self.episode_returns.extend(self.returns[r[ended], s[ended]].tolist())
            self.returns[r[ended], s[ended]] = 0.0
        if self.on_transitions is not None:
            self.on_transitions(transitions)

    def _games_end(self, rows: np.ndarray) -> None:
        controllers = self.controller[rows]
        against = (controllers != LEARNER).any(axis=1)
        if against.any():
            league_rows = rows[against]
            ctrl = controllers[against]
            totals = self.game_totals[league_rows]
            mine = ctrl == LEARNER
            own = (totals * mine).sum(axis=1) / mine.sum(axis=1)  # per learner seat (a mixed table has several)
            one = np.where(mine, ctrl.max(axis=1)[:, None], ctrl).min(axis=1) == ctrl.max(axis=1)  # one member
            others = (totals * ~mine).sum(axis=1) / (~mine).sum(axis=1)
            self.league.record(ctrl.max(axis=1)[one], _outcome(own[one], others[one]))
            seats = ~mine & ~one[:, None]  # a varied table: each member seat against the learner's total
            if seats.any():
                r, s = np.nonzero(seats)
                self.league.record(ctrl[r, s], _outcome(own[r], totals[r, s]))
            self.league_returns.extend(own.tolist())
        self.game_totals[rows] = 0.0
        self.assign(rows)

    # ------------------------------------------------------------------ checkpoints
    def state_dict(self) -> dict[str, Any]:
        return {
            "controller": self.controller.copy(),
            "game_totals": self.game_totals.copy(),
            "returns": self.returns.copy(),
            "pending": self.accounts.pending.copy(),
            "acted": self.accounts.acted.copy(),
            "discarded": int(self.accounts.discarded),
            "episode_returns": list(self.episode_returns),
            "league_returns": list(self.league_returns),
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        for name in ("controller", "game_totals", "returns"):
            target = getattr(self, name)
            if state[name].shape != target.shape:
                raise ValueError(f"checkpoint {name} has shape {state[name].shape}, this run {target.shape}")
            target[:] = state[name]
        self.accounts.pending[:] = state["pending"]
        self.accounts.acted[:] = state["acted"]
        self.accounts.discarded = int(state["discarded"])
        self.episode_returns = deque(state["episode_returns"], maxlen=EPISODE_WINDOW)
        self.league_returns = deque(state["league_returns"], maxlen=EPISODE_WINDOW)
