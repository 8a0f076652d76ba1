"""Whose decisions a learner makes in a batched env, and the rewards each one earns.

``LearnerSeats``: the learner holds one seat per row (drawn every episode, or
fixed), batched opponents play the others. It is ``SingleSeatEnv``'s
contract (``pokerzoo.training.single_seat``) over all rows at once:

* ``step(actions)`` applies the learner's action in every row, then lets the
  opponents play (in batch, only the rows waiting for them) until the learner
  must decide again in every row;
* a row's reward is everything the learner's seat earned since its previous
  decision: its own step and every opponent step after it, the end of the
  game included; rewards its seat earns before its first decision of an
  episode join that episode's first step (what the game earned as it started,
  the env's ``start_rewards``, too), so an episode's rewards sum to exactly
  the seat's total in that game;
* an episode (one game) in which the learner's seat never acts is played out
  by the opponents and discarded (``skipped_episodes`` counts them): its
  rewards cannot depend on the learner;
* a learner action that is not legal raises ``IllegalActionError`` (the batched
  env's check), with nothing changed (``SingleSeatEnv(illegal_action="raise")``).

The gymnasium and SB3 adapters (``vector.py``, ``sb3.py``) are thin layers
over this class.

**All seats (parameter sharing).** One policy deciding for every seat needs
each seat's decisions kept as that seat's own trajectory: the reward of a
decision is what that seat earns until *its* next decision, and its episode
ends with the game. A ``VecEnv`` (SB3's or gymnasium's) cannot express it:
every sub-env must produce one observation and take one action per step, in
one reward/done stream, so the decisions of the seats of one game would be
chained into one trajectory (GAE would credit seat A's decision with seat B's
rewards), and modelling (row, seat) pairs as sub-envs would force the seats
not to move to act in every step. ``SeatAccounts`` is the tested bookkeeping a
trainer with its own rollout buffer uses instead: call ``decide`` before the
players act and ``record`` after the step, and it returns, per (row, seat),
the completed transitions with their exact rewards and ends.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from pokerzoo.envs.batched import make
from pokerzoo.envs.batched.core import BatchedEnv
from pokerzoo.envs.batched.opponents import BatchedOpponent, RandomOpponent

MAX_ADVANCE = 100_000  # opponent rounds within one step: a game or seat setting where the learner never acts


class LearnerSeats:
    """The learner's seat of every row of ``env``; see the module docstring.

    ``opponents``: None (uniform random), one ``BatchedOpponent`` for every
    other seat, or a sequence of ``num_players - 1`` of them filling the other
    seats in seat order (the learner's seat skipped), as ``SingleSeatEnv`` does.
    ``seat``: the learner's seat, or None to draw it every episode. The env is
    taken over: it is switched to ``copy=False`` (this class copies what it returns).
    """

    def __init__(
        self,
        env: BatchedEnv,
        opponents: BatchedOpponent | Sequence[BatchedOpponent] | None = None,
        *,
        seat: int | None = None,
        seed: int | None = None,
    ):
        n, p = env.num_envs, env.num_players
        if seat is not None and not (isinstance(seat, int | np.integer) and 0 <= seat < p):
            raise ValueError(f"seat={seat!r}: expected None (drawn per episode) or an int in 0..{p - 1}")
        if opponents is None:
            opponents = RandomOpponent()
        if isinstance(opponents, Sequence):
            if len(opponents) != p - 1:
                raise ValueError(f"opponents: expected {p - 1} (one per other seat), got {len(opponents)}")
            self.opponents = list(opponents)
        else:
            self.opponents = [opponents]
        env.copy = False
        self.env = env
        self.fixed_seat = seat
        self.seat = np.zeros(n, dtype=np.int64)
        self.pending = np.zeros(n, dtype=np.float64)  # learner reward not yet returned
        self.acted = np.zeros(n, dtype=bool)  # the learner decided in the row's current game
        self.episode_return = np.zeros(n, dtype=np.float64)
        self.episode_length = np.zeros(n, dtype=np.int64)
        self.episode_start = np.zeros(n, dtype=np.float64)
        self.episodes = 0
        self.skipped_episodes = 0
        self._rng = np.random.default_rng(seed)
        self._started = False

    @property
    def num_envs(self) -> int:
        return self.env.num_envs

    # ------------------------------------------------------------------ API
    def reset(self, seed: int | Sequence[int] | None = None, options: dict | None = None):
        """New games in every row (``BatchedEnv.reset``'s seeds); play until the learner must act: obs, mask, info."""
        if seed is not None:
            base = int(seed) if isinstance(seed, int | np.integer) else int(np.asarray(seed).ravel()[0])
            seeds = np.random.SeedSequence(base).generate_state(1 + len(self.opponents), np.uint64)
            self._rng = np.random.default_rng(int(seeds[0]))
            for opponent, s in zip(self.opponents, seeds[1:]):
                opponent.seed(int(s))
        self.env.reset(seed=seed, options=options)
        self._new_episodes(self.env.all_rows)
        self._advance(None)
        self._started = True
        return self.env.obs.copy(), self.env.mask.copy(), {"seat": self.seat.copy()}

    def step(self, actions):
        """The learner's actions in every row: obs, mask, rewards, terminated, truncated, info.

        ``info`` holds arrays: ``seat`` (of the episode now running), and for
        the rows whose episode ended in this step ``episode_return``,
        ``episode_length`` (learner decisions) and ``episode_time`` (seconds).
        """
        if not self._started:
            raise RuntimeError("step() before reset(): call reset() first")
        env = self.env
        _, _, rewards, done, info = env.step(actions)
        rows = env.all_rows
        self.pending += rewards[rows, self.seat]
        self.acted[:] = True
        self.episode_length += 1
        ended = done.copy()
        truncated = info["truncated"] & done
        final = np.zeros(self.num_envs, dtype=np.float64)
        stats = _EpisodeStats.empty(self.num_envs)
        if ended.any():
            finished = np.flatnonzero(ended)
            final[finished] = self.pending[finished]
            self._close(finished, final, stats)
        self._advance((ended, final, truncated, stats))
        reward = np.where(ended, final, self.pending)
        self.episode_return += np.where(ended, 0.0, reward)
        self.pending[~ended] = 0.0
        terminated = ended & ~truncated
        out_info = {"seat": self.seat.copy(), **stats._asdict()}
        return env.obs.copy(), env.mask.copy(), reward, terminated, truncated, out_info

    def action_masks(self) -> np.ndarray:
        """bool[N, A]: the learner's legal actions in every row."""
        return self.env.mask.copy()

    # ------------------------------------------------------------------ internals
    def _new_episodes(self, rows: np.ndarray) -> None:
        if self.fixed_seat is not None:
            self.seat[rows] = self.fixed_seat
        else:
            self.seat[rows] = self._rng.integers(self.env.num_players, size=rows.shape[0])
        self.pending[rows] = self.env.start_rewards[rows, self.seat[rows]]  # earned as the game started
        self.acted[rows] = False
        self.episode_return[rows] = 0.0
        self.episode_length[rows] = 0
        self.episode_start[rows] = time.perf_counter()

    def _close(self, rows: np.ndarray, final: np.ndarray, stats: _EpisodeStats) -> None:
        """The learner's episodes end in ``rows`` with rewards ``final``: tally them, start the next ones."""
        stats.episode_return[rows] = self.episode_return[rows] + final[rows]
        stats.episode_length[rows] = self.episode_length[rows]
        stats.episode_time[rows] = time.perf_counter() - self.episode_start[rows]
        self.episodes += rows.shape[0]
        self._new_episodes(rows)

    def _advance(self, ending: tuple | None) -> None:
        """Opponents play every row where the learner is not to act, until it is, in every row."""
        env, p = self.env, self.env.num_players
        for _ in range(MAX_ADVANCE):
            rows = np.flatnonzero(env.current_player != self.seat)
            if rows.size == 0:
                return
            actions = self._opponent_actions(rows, p)
            _, _, rewards, done, info = env.step(actions, rows=rows)
            self.pending[rows] += rewards[rows, self.seat[rows]]
            finished = rows[done[rows]]
            if finished.size == 0:
                continue
            learner_played = self.acted[finished]
            skipped = finished[~learner_played]
            self.skipped_episodes += skipped.size
            self._new_episodes(skipped)
            closing = finished[learner_played]
            if closing.size:  # only after a learner step: a row's episode ends at most once per step
                ended, final, truncated, stats = ending
                ended[closing] = True
                final[closing] = self.pending[closing]
                truncated[closing] = info["truncated"][closing]
                self._close(closing, final, stats)
        raise RuntimeError(
            f"{env.name}: opponents played {MAX_ADVANCE} rounds without the learner's seat getting a decision"
        )

    def _opponent_actions(self, rows: np.ndarray, num_players: int) -> np.ndarray:
        if len(self.opponents) == 1:
            return self.opponents[0].act(self.env, rows)
        player = self.env.current_player[rows]
        which = player - (player > self.seat[rows])  # the opponent filling that seat, in seat order
        actions = np.empty(rows.shape[0], dtype=np.int64)
        for j, opponent in enumerate(self.opponents):
            sel = np.flatnonzero(which == j)
            if sel.size:
                actions[sel] = opponent.act(self.env, rows[sel])
        return actions


def learner_seats(
    game: str | BatchedEnv,
    num_envs: int | None,
    opponents: BatchedOpponent | Sequence[BatchedOpponent] | None,
    seat: int | None,
    seed: int | None,
    parallel: bool,
    options: dict[str, Any],
) -> LearnerSeats:
    """The adapters' ``LearnerSeats``: over ``game`` if it is a built env, else over ``make(game, num_envs, ...)``."""
    if isinstance(game, BatchedEnv):
        if num_envs is not None or options:
            raise ValueError("num_envs and options go with a game name; a BatchedEnv is already built")
        env = game
    else:
        if num_envs is None:
            raise ValueError("num_envs is needed with a game name")
        env = make(game, num_envs, parallel=parallel, **options)
    return LearnerSeats(env, opponents, seat=seat, seed=seed)


class _EpisodeStats(NamedTuple):
    episode_return: np.ndarray
    episode_length: np.ndarray
    episode_time: np.ndarray

    @classmethod
    def empty(cls, n: int) -> _EpisodeStats:
        return cls(np.zeros(n), np.zeros(n, dtype=np.int64), np.zeros(n))


class Transitions(NamedTuple):
    """Completed decisions: the decision of ``seats[k]`` in row ``rows[k]`` earned ``rewards[k]``."""

    rows: np.ndarray
    seats: np.ndarray
    rewards: np.ndarray
    dones: np.ndarray  # the decision was the seat's last of its game


class SeatAccounts:
    """Per (row, seat) rewards since that seat's previous decision: the all-seats bookkeeping.

    Use around every batched step: ``decide(rows, players)`` just before
    ``players`` act in ``rows`` (it completes each player's previous decision
    in that game), ``record(rows, rewards, done)`` right after the step (it
    adds the step's rewards and, where a game ended, completes every seat's
    last decision with ``done``). A decision's reward is what its seat earns
    from that decision up to its next one (or the end of the game); rewards
    before a seat's first decision of a game join that first decision's,
    those the game earned as it started included: pass the env's
    ``start_rewards`` to ``start`` after ``reset`` and to ``record``.
    Seats that made no decision in a game get no transition and their
    rewards are dropped (as ``SingleSeatEnv`` discards such episodes);
    ``discarded`` counts those (game, seat) pairs.
    """

    def __init__(self, num_envs: int, num_players: int):
        self.pending = np.zeros((num_envs, num_players), dtype=np.float64)
        self.acted = np.zeros((num_envs, num_players), dtype=bool)
        self.discarded = 0

    def start(self, start_rewards: np.ndarray) -> None:
        """After the env's ``reset``: every row's new game, with what it earned as it started ([N, P])."""
        self.pending[:] = start_rewards
        self.acted[:] = False

    def decide(self, rows: np.ndarray, players: np.ndarray) -> Transitions:
        rows = np.asarray(rows, dtype=np.int64)
        players = np.asarray(players, dtype=np.int64)
        again = self.acted[rows, players]
        r, s = rows[again], players[again]
        out = Transitions(r, s, self.pending[r, s].copy(), np.zeros(r.shape[0], dtype=bool))
        self.pending[r, s] = 0.0
        self.acted[rows, players] = True
        return out

    def record(
        self, rows: np.ndarray, rewards: np.ndarray, done: np.ndarray, start_rewards: np.ndarray | None = None
    ) -> Transitions:
        """``rewards``/``done``: the batched env's full [N, P] / [N] arrays of the step over ``rows``;
        ``start_rewards``: its [N, P] ``start_rewards`` (what the games started in the step earned)."""
        rows = np.asarray(rows, dtype=np.int64)
        self.pending[rows] += rewards[rows]
        ended = rows[done[rows]]
        r, s = np.nonzero(self.acted[ended])
        r = ended[r]
        out = Transitions(r, s, self.pending[r, s].copy(), np.ones(r.shape[0], dtype=bool))
        self.discarded += int((~self.acted[ended]).sum())
        self.pending[ended] = 0.0 if start_rewards is None else start_rewards[ended]
        self.acted[ended] = False
        return out

