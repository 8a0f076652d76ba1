"""The learner's-seat rules and the per-(row, seat) accounts, checked against the scalar game.

As in tests/training/test_single_seat.py, the check is an independent
account: every action the batched env applied is logged, each row's games
are replayed on the scalar env from the row's seed, and the rewards a seat
must receive at each of its decisions (everything since its previous one,
what came before its first joining the first, the end of the game in its
last) are read off the replay. The multi-player test game makes seats act in
card-dependent order, skip seats entirely, and pay rewards mid-game.
"""

import numpy as np
import pytest
from batched_toy_game import ToyKernel, toy_raw_env

from pokerzoo.envs.batched.core import BatchedEnv
from pokerzoo.envs.batched.opponents import PolicyOpponent, RandomOpponent
from pokerzoo.envs.batched.seats import LearnerSeats, SeatAccounts
from pokerzoo.envs.engine.game import IllegalActionError

CONFIGS = [{"num_players": 4, "turns": 3}, {"num_players": 3, "turns": 6}, {"num_players": 2, "turns": 1}]


class LoggedEnv(BatchedEnv):
    """A batched env that logs, per row, every action applied (to replay the rows on the scalar game)."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.log: list[list[int]] = [[] for _ in range(self.num_envs)]

    def reset(self, seed=None, options=None):
        self.log = [[] for _ in range(self.num_envs)]
        return super().reset(seed=seed, options=options)

    def step(self, actions, rows=None):
        idx = self._rows(rows)
        out = super().step(actions, rows=rows)
        for r, a in zip(idx.tolist(), np.asarray(actions).tolist()):
            self.log[r].append(a)
        return out


def replay_decision_rewards(config: dict, seed: int, actions: list[int]) -> list[tuple[int, list[list[float]]]]:
    """Per finished game of the row: (first player, per seat the reward of each of its decisions)."""
    env = toy_raw_env(**config)
    env.reset(seed=seed)
    agents = env.possible_agents
    games = []
    pending = np.zeros(len(agents))
    per_seat: list[list[float]] = [[] for _ in agents]
    for a in actions:
        p = env.game.current_player
        if per_seat[p]:
            per_seat[p][-1] += pending[p]
            pending[p] = 0.0
        per_seat[p].append(0.0)
        if len(per_seat[p]) == 1:  # rewards before a seat's first decision join it
            per_seat[p][-1] += pending[p]
            pending[p] = 0.0
        env.step(a)
        pending += [env.rewards[ag] for ag in agents]
        if env.game.is_over:
            for q in range(len(agents)):
                if per_seat[q]:
                    per_seat[q][-1] += pending[q]
            totals = env.game.total_rewards
            for q in range(len(agents)):
                if per_seat[q]:
                    assert sum(per_seat[q]) == pytest.approx(totals[q], abs=1e-12)
            games.append(per_seat)
            pending = np.zeros(len(agents))
            per_seat = [[] for _ in agents]
            env.reset()
    return games


class SeatLog(LearnerSeats):
    """LearnerSeats that remembers each row's seat of every episode (one episode per game of the row)."""

    def __init__(self, *args, **kw):
        self.seat_log: list[list[int]] = []
        super().__init__(*args, **kw)

    def _new_episodes(self, rows):
        super()._new_episodes(rows)
        if not self.seat_log:
            self.seat_log = [[] for _ in range(self.num_envs)]
        for r in rows.tolist():
            self.seat_log[r].append(int(self.seat[r]))


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("fixed_seat", [None, 1])
def test_the_learner_gets_exactly_the_rewards_single_seat_env_gives(config, fixed_seat):
    n, steps = 24, 40
    env = LoggedEnv(ToyKernel, n, **config)
    seats = SeatLog(env, [RandomOpponent(seed=k) for k in range(config["num_players"] - 1)], seat=fixed_seat)
    seats.reset(seed=300)  # seat_log[i][k]: the learner's seat in row i's k-th game
    rng = np.random.default_rng(1)
    got = [[] for _ in range(n)]
    dones = [[] for _ in range(n)]
    for _ in range(steps):
        mask = seats.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        _, _, reward, terminated, truncated, info = seats.step(actions)
        assert not truncated.any()
        for i in range(n):
            got[i].append(reward[i])
            dones[i].append(bool(terminated[i]))
            if terminated[i]:  # the episode's return is the sum of its steps' rewards
                episode = got[i][len(got[i]) - info["episode_length"][i] :]
                assert info["episode_return"][i] == pytest.approx(sum(episode))
    skipped = 0
    for i in range(n):
        games = replay_decision_rewards(config, 300 + i, env.log[i])
        expected, expected_dones = [], []
        for k, per_seat in enumerate(games):
            seat = seats.seat_log[i][k]
            if fixed_seat is not None:
                assert seat == fixed_seat
            mine = per_seat[seat]
            if not mine:
                skipped += 1
                continue
            expected += mine
            expected_dones += [False] * (len(mine) - 1) + [True]
        assert got[i][: len(expected)] == pytest.approx(expected, abs=1e-12)
        assert dones[i][: len(expected)] == expected_dones
        assert not any(dones[i][len(expected) :])  # the unfinished game's decisions only
    assert skipped == seats.skipped_episodes
    if config["num_players"] == 4:
        assert skipped > 0  # this setting leaves seats without a decision: the skip path was exercised


def test_seat_accounts_give_each_seat_its_own_trajectory():
    config = {"num_players": 4, "turns": 5}
    n = 16
    env = LoggedEnv(ToyKernel, n, copy=False, **config)
    env.reset(seed=77)
    accounts = SeatAccounts(n, 4)
    rng = np.random.default_rng(2)
    emitted = {(i, s): [] for i in range(n) for s in range(4)}

    def take(tr, finished: bool):
        for r, s, rew, d in zip(tr.rows.tolist(), tr.seats.tolist(), tr.rewards.tolist(), tr.dones.tolist()):
            game = env.games[r] - finished  # a game's end is recorded after the env counted it
            emitted[(r, s)].append((game, rew, d))

    for _ in range(60):
        rows = env.all_rows
        take(accounts.decide(rows, env.current_player[rows]), False)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.mask])
        _, _, rewards, done, _ = env.step(actions)
        take(accounts.record(rows, rewards, done), True)
    for i in range(n):
        games = replay_decision_rewards(config, 77 + i, env.log[i])
        for s in range(4):
            for k, per_seat in enumerate(games):
                mine = [(rew, d) for g, rew, d in emitted[(i, s)] if g == k]
                expected = per_seat[s]
                assert [r for r, _ in mine] == pytest.approx(expected, abs=1e-12)
                assert [d for _, d in mine] == [False] * (len(expected) - 1) + [True] * bool(expected)
    assert accounts.discarded > 0


def test_opponents_fill_the_other_seats_in_seat_order():
    """With a policy opponent per seat that always plays its own marker action, every seat's actions are its."""

    def always(action):
        return PolicyOpponent(lambda obs: np.tile(np.eye(3)[action], (len(obs), 1)))

    env = LoggedEnv(ToyKernel, 6, num_players=3, turns=6)
    # seat 0 is the learner; seat 1 gets opponent 0 (swap), seat 2 opponent 1 (stay)
    seats = LearnerSeats(env, [always(1), always(0)], seat=0)
    seats.reset(seed=5)
    for _ in range(10):
        seats.step(np.zeros(6, dtype=np.int64))
    for i in range(6):
        replay = toy_raw_env(num_players=3, turns=6)
        replay.reset(seed=5 + i)
        for a in env.log[i]:
            p = replay.game.current_player
            assert a == (0 if p == 0 else 1 if p == 1 else 0)
            replay.step(a)
            if replay.game.is_over:
                replay.reset()


def test_bad_settings_and_illegal_learner_actions():
    env = BatchedEnv(ToyKernel, 2, num_players=3)
    with pytest.raises(ValueError, match="expected 2"):
        LearnerSeats(env, [RandomOpponent()])
    with pytest.raises(ValueError, match="seat=3"):
        LearnerSeats(env, seat=3)
    seats = LearnerSeats(env, seat=1)
    with pytest.raises(RuntimeError, match="reset"):
        seats.step(np.zeros(2, dtype=np.int64))
    seats.reset(seed=0)
    illegal = np.where(~seats.action_masks()[:, 2], 2, 0)
    if (illegal == 2).any():
        before = env.obs.copy()
        with pytest.raises(IllegalActionError, match="legal now"):
            seats.step(illegal)
        assert np.array_equal(before, env.obs)
