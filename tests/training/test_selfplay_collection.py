"""The batched trainer's collection, checked against the scalar games: rewards per (row, seat) stream, masks,
decisions carried across rollouts, GAE along each stream, and the PFSP results per league member.

As in tests/envs/batched/test_seats.py the check is an independent account:
every action the batched env applied is logged with the seat that made it and
the seats' controllers, each row's games are replayed on the scalar env from
the row's seed, and the reward each learner decision must receive (what its
seat earns until its next decision or the game's end, the rewards before its
first decision joining the first) is read off the replay. The multi-player
test game (tests/envs/batched/batched_toy_game.py) makes seats act in
card-dependent order, skip seats and pay rewards mid-game; three-card high
card and Caribbean stud are real registered games (several seats, one seat).
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerzoo.envs.batched import kernel_class
from pokerzoo.envs.batched.core import BatchedEnv
from pokerzoo.envs.batched.opponents import PolicyOpponent, RandomOpponent
from pokerzoo.envs.batched.testing import scalar_env_class
from pokerzoo.training.config import LEAGUE
from pokerzoo.training.selfplay.buffer import DecisionBuffer
from pokerzoo.training.selfplay.collector import LEARNER, Collector
from pokerzoo.training.selfplay.league import League
from pokerzoo.training.selfplay.network import ActorCritic, masked_entropy, masked_log_probs, sample_actions

sys.path.insert(0, str(Path(__file__).parents[1] / "envs" / "batched"))
from batched_toy_game import ToyKernel

SCALE, GAMMA, LAM = 0.5, 0.9, 0.8


class LoggedEnv(BatchedEnv):
    """Logs, per row, every action applied with the seat to act and the seats' controllers at that moment."""

    collector: Collector

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.log: list[list[tuple[int, int, np.ndarray]]] = [[] for _ in range(self.num_envs)]

    def step(self, actions, rows=None):
        assert rows is None, "the collector steps every row at once"
        player = self.current_player.copy()
        controllers = self.collector.controller.copy()
        out = super().step(actions)
        for r in range(self.num_envs):
            self.log[r].append((int(actions[r]), int(player[r]), controllers[r]))
        return out


def replay(raw_env, options: dict, seed: int, log) -> list[tuple[np.ndarray, list[list[float]], np.ndarray]]:
    """Per finished game of a row: (controllers, per seat the reward of each of its decisions, seat totals)."""
    env = raw_env(**options)
    env.reset(seed=seed)
    agents = env.possible_agents
    games = []
    pending = np.zeros(len(agents))
    per_seat: list[list[float]] = [[] for _ in agents]
    controllers = None
    for action, player, ctrl in log:
        if controllers is None:
            controllers = ctrl
        assert (ctrl == controllers).all(), "a seat changed controller within a game"
        p = env.game.current_player
        assert p == player
        if per_seat[p]:
            per_seat[p][-1] += pending[p]
            pending[p] = 0.0
        per_seat[p].append(0.0)
        if len(per_seat[p]) == 1:  # rewards before a seat's first decision join it
            per_seat[p][-1] += pending[p]
            pending[p] = 0.0
        env.step(action)
        pending += [env.rewards[a] for a in agents]
        if env.game.is_over:
            totals = np.array(env.game.total_rewards, dtype=float)
            for q in range(len(agents)):
                if per_seat[q]:
                    per_seat[q][-1] += pending[q]
                    assert sum(per_seat[q]) == pytest.approx(totals[q], abs=1e-9)
            games.append((controllers, per_seat, totals))
            pending = np.zeros(len(agents))
            per_seat = [[] for _ in agents]
            controllers = None
            env.reset()
    return games


def reference_advantages(buffer: DecisionBuffer) -> np.ndarray:
    """GAE along each (row, seat) stream, computed stream by stream from the decisions in time order."""
    n = buffer.size
    out = np.zeros(n)
    streams = defaultdict(list)
    for d in range(n):
        streams[(buffer.row[d], buffer.seat[d])].append(d)
    for ds in streams.values():
        after = 0.0  # advantage of the decision after this one, while complete
        nxt = None
        for d in reversed(ds):
            if not buffer.complete[d]:
                after, nxt = 0.0, d
                continue
            if buffer.done[d]:
                out[d] = buffer.reward[d] - buffer.value[d]
            else:
                assert nxt is not None and buffer.successor[d] == nxt, "a decision's successor is its seat's next"
                bootstrap = buffer.value[nxt]
                out[d] = buffer.reward[d] + GAMMA * bootstrap - buffer.value[d] + GAMMA * LAM * after
            after, nxt = out[d], d
    return out


def collect(kclass, options: dict, *, rows=24, rollouts=5, steps=7, self_play=0.4, mixed=0.0, varied=0.0,
            mixed_members=()):  # fmt: skip
    """Several rollouts with carry-over; returns what the checks need."""
    env = LoggedEnv(kclass, rows, **options)
    with torch.random.fork_rng():
        torch.manual_seed(0)
        model = ActorCritic(env.observation_size, env.num_actions, [16], "tanh")
    league = League(kclass.game_class.NAME, options, {**LEAGUE.defaults(), "scripted": []})
    league.add_member("random", RandomOpponent(seed=1))
    weights = np.random.default_rng(5).normal(size=(env.observation_size, env.num_actions))
    league.add_member("linear", PolicyOpponent(lambda obs: obs @ weights, deterministic=False, seed=2))
    buffer = DecisionBuffer(rows, env.num_players, env.observation_size, env.num_actions, rows * steps)
    collector = Collector(env, model, league, buffer, self_play=self_play, reward_scale=SCALE, mixed=mixed,
                          varied=varied, mixed_members=mixed_members)  # fmt: skip
    env.collector = collector
    settled = defaultdict(list)  # (row, seat) -> [(reward, done)] in the order the collector settled them

    def hear(t):
        for r, s, x, d in zip(t.rows.tolist(), t.seats.tolist(), t.rewards.tolist(), t.dones.tolist()):
            settled[(r, s)].append((x, d))

    collector.on_transitions = hear
    seeds = list(range(100, 100 + rows))
    collector.start(seeds, np.random.default_rng(0))
    trained = defaultdict(list)  # (row, seat) -> [(reward, done)] of the decisions each update trains on
    carried, decisions = [], 0
    for k in range(rollouts):
        decisions += collector.collect(steps, np.random.default_rng(k + 1)).decisions
        n = buffer.size
        # masks: every action taken is legal; the stored log-probability is the masked distribution's
        assert buffer.mask[np.arange(n), buffer.action[:n]].all()
        logits, _ = model(torch.from_numpy(buffer.obs[:n]))
        lp = masked_log_probs(logits, torch.from_numpy(buffer.mask[:n])).detach().numpy()
        np.testing.assert_allclose(lp[np.arange(n), buffer.action[:n]], buffer.log_prob[:n], atol=1e-5)
        batch = buffer.batch(GAMMA, LAM)
        complete = np.flatnonzero(buffer.complete[:n])
        np.testing.assert_allclose(batch.advantages, reference_advantages(buffer)[complete], atol=1e-5)
        np.testing.assert_allclose(batch.returns, batch.advantages + buffer.value[complete], atol=1e-6)
        for d in complete.tolist():
            trained[(int(buffer.row[d]), int(buffer.seat[d]))].append((float(buffer.reward[d]), bool(buffer.done[d])))
        carried.append(buffer.carry())
        assert buffer.open_decisions == buffer.size == carried[-1]
    return env, collector, seeds, settled, trained, carried, decisions


CASES = [
    pytest.param(ToyKernel, {"num_players": 4, "turns": 3}, id="toy-4-players"),
    pytest.param(ToyKernel, {"num_players": 3, "turns": 6}, id="toy-3-players"),
    pytest.param(kernel_class("high_card"), {"num_players": 3}, id="high_card"),
    pytest.param(kernel_class("caribbean_stud"), {"boxes": 2, "num_hands": 2}, id="caribbean_stud"),
]


@pytest.mark.parametrize(("mixed", "varied"), [(0.0, 0.0), (0.6, 0.0), (0.3, 0.6)],
                         ids=["one-learner-seat", "mixed-tables", "varied-tables"])  # fmt: skip
@pytest.mark.parametrize(("kclass", "options"), CASES)
def test_every_learner_decision_gets_its_seats_reward_across_rollouts(kclass, options, mixed, varied):
    env, _, seeds, settled, trained, carried, decisions = collect(kclass, options, mixed=mixed, varied=varied)
    raw_env = scalar_env_class(kclass)
    games = 0
    for r in range(env.num_envs):
        played = replay(raw_env, options, seeds[r], env.log[r])
        games += len(played)
        for s in range(env.num_players):
            expected = []
            for controllers, per_seat, _ in played:
                if controllers[s] == LEARNER and per_seat[s]:
                    expected += [(x, k == len(per_seat[s]) - 1) for k, x in enumerate(per_seat[s])]
            got = settled[(r, s)]
            assert len(got) >= len(expected)
            assert [d for _, d in got[: len(expected)]] == [d for _, d in expected]
            np.testing.assert_allclose([x for x, _ in got[: len(expected)]], [x for x, _ in expected], atol=1e-9)
            assert not any(d for _, d in got[len(expected) :]), "a game ended that the replay did not finish"
            # each settled decision is trained on exactly once, in the update after it settled, scaled
            assert [d for _, d in trained[(r, s)]] == [d for _, d in got]
            np.testing.assert_allclose([x for x, _ in trained[(r, s)]], [np.float32(x * SCALE) for x, _ in got])
    assert games > env.num_envs
    # no decision lost: those trained on and those still open are all the learner made
    assert sum(len(v) for v in trained.values()) + carried[-1] == decisions
    if kclass is not kernel_class("caribbean_stud") or options.get("num_hands", 1) > 1:
        assert max(carried) > 0, "no decision was carried over: the test does not exercise the carry"


@pytest.mark.parametrize(("kclass", "options"), CASES[:3])
def test_league_results_per_member_are_the_scalar_games_outcomes(kclass, options):
    env, collector, seeds, *_ = collect(kclass, options, self_play=0.3)
    raw_env = scalar_env_class(kclass)
    wins, played = defaultdict(float), defaultdict(int)
    seats_of_learner = defaultdict(int)
    for r in range(env.num_envs):
        for controllers, _, totals in replay(raw_env, options, seeds[r], env.log[r]):
            mine = controllers == LEARNER
            if mine.all():
                continue  # self-play: no member to score against
            assert mine.sum() == 1 and len(set(controllers[~mine].tolist())) == 1, "one learner seat, one member"
            member = int(controllers[~mine][0])
            own, others = totals[mine].mean(), totals[~mine].mean()
            wins[member] += 1.0 if own > others + 1e-9 else 0.5 if abs(own - others) <= 1e-9 else 0.0
            played[member] += 1
            seats_of_learner[int(np.flatnonzero(mine)[0])] += 1
    league = collector.league
    assert {m.id: m.played for m in league.members.values() if m.played} == dict(played)
    for mid, m in league.members.items():
        assert m.wins == pytest.approx(wins[mid]) and m.games == pytest.approx(played[mid])
    assert len(seats_of_learner) == env.num_players, "the learner's seat is drawn among all seats"
    share = sum(played.values()) / sum(len(replay(raw_env, options, seeds[r], env.log[r])) for r in range(env.num_envs))
    assert 0.5 < share < 0.9  # self_play 0.3: about 70% of the games against a member


@pytest.mark.parametrize(
    ("kclass", "options", "counts"),
    [
        (ToyKernel, {"num_players": 4, "turns": 3}, {2}),
        (ToyKernel, {"num_players": 3, "turns": 3}, {1, 2}),
        (kernel_class("high_card"), {"num_players": 5}, {2, 3}),
    ],
    ids=["4-players", "3-players", "5-players"],
)
def test_mixed_tables_seat_the_learner_in_half_the_seats_and_score_the_seats_means(kclass, options, counts):
    players = options["num_players"]
    env, collector, seeds, *_ = collect(kclass, options, self_play=0.0, mixed=1.0)
    raw_env = scalar_env_class(kclass)
    wins, played = defaultdict(float), defaultdict(int)
    seen_counts, seats_of_learner = defaultdict(int), defaultdict(int)
    for r in range(env.num_envs):
        for controllers, _, totals in replay(raw_env, options, seeds[r], env.log[r]):
            mine = controllers == LEARNER
            assert len(set(controllers[~mine].tolist())) == 1, "the other seats are one member's"
            seen_counts[int(mine.sum())] += 1
            for seat in np.flatnonzero(mine).tolist():
                seats_of_learner[seat] += 1
            member = int(controllers[~mine][0])
            own, others = totals[mine].mean(), totals[~mine].mean()
            wins[member] += 1.0 if own > others + 1e-9 else 0.5 if abs(own - others) <= 1e-9 else 0.0
            played[member] += 1
    assert set(seen_counts) == counts, "half the seats: p // 2 or (p + 1) // 2, both drawn"
    assert len(seats_of_learner) == players
    league = collector.league
    for mid, m in league.members.items():
        assert m.wins == pytest.approx(wins[mid]) and m.games == pytest.approx(played[mid])


def test_mixed_members_name_who_sits_at_the_mixed_tables():
    options = {"num_players": 5}
    env, collector, seeds, *_ = collect(kernel_class("high_card"), options, self_play=0.0, mixed=0.5, varied=1.0,
                                        mixed_members=("linear",))  # fmt: skip
    linear = next(m.id for m in collector.league.members.values() if m.name == "linear")
    kinds = defaultdict(set)
    for r in range(env.num_envs):
        for controllers, _, _ in replay(scalar_env_class(kernel_class("high_card")), options, seeds[r], env.log[r]):
            mine = controllers == LEARNER
            kinds["mixed" if mine.sum() > 1 else "single"] |= set(controllers[~mine].tolist())
    assert kinds["mixed"] == {linear}
    assert len(kinds["single"]) == 2, "the other tables seat both members"


@pytest.mark.parametrize(
    ("kclass", "options"),
    [(ToyKernel, {"num_players": 4, "turns": 3}), (kernel_class("high_card"), {"num_players": 5})],
    ids=["4-players", "5-players"],
)
def test_varied_tables_draw_each_opponent_seat_and_score_each_member_seat(kclass, options):
    """``league.varied``: one learner seat, each other seat its own PFSP draw (the round-robin's tables); a
    member's result per seat it held, the learner's total against that seat's; mixed tables keep theirs."""
    players = options["num_players"]
    env, collector, seeds, *_ = collect(kclass, options, self_play=0.0, mixed=0.3, varied=1.0)
    raw_env = scalar_env_class(kclass)
    wins, played = defaultdict(float), defaultdict(int)
    kinds = defaultdict(int)

    def score(member, own, other):
        wins[member] += 1.0 if own > other + 1e-9 else 0.5 if abs(own - other) <= 1e-9 else 0.0
        played[member] += 1

    for r in range(env.num_envs):
        for controllers, _, totals in replay(raw_env, options, seeds[r], env.log[r]):
            mine = controllers == LEARNER
            members = set(controllers[~mine].tolist())
            if mine.sum() > 1:  # a mixed table: one member, the two sides' means
                kinds["mixed"] += 1
                assert len(members) == 1
                score(members.pop(), totals[mine].mean(), totals[~mine].mean())
            elif len(members) == 1:  # a varied table that drew one member throughout: scored as its table
                kinds["one member"] += 1
                score(members.pop(), totals[mine].mean(), totals[~mine].mean())
            else:
                kinds["varied"] += 1
                for seat in np.flatnonzero(~mine).tolist():
                    score(int(controllers[seat]), totals[mine][0], totals[seat])
    assert kinds["varied"] > kinds["mixed"] > 0, dict(kinds)
    league = collector.league
    for mid, m in league.members.items():
        assert m.wins == pytest.approx(wins[mid]) and m.games == pytest.approx(played[mid])
    assert sum(played.values()) > env.num_envs * (players - 2)


def test_a_game_of_one_seat_is_always_the_learners():
    _, collector, *_ = collect(kernel_class("caribbean_stud"), {}, rollouts=2)
    assert (collector.controller == LEARNER).all()
    assert all(m.played == 0 for m in collector.league.members.values())


# --------------------------------------------------------------------------- the masked distribution
@settings(max_examples=200, deadline=None)
@given(
    data=st.data(),
    rows=st.integers(1, 6),
    actions=st.integers(1, 9),
    scale=st.sampled_from([1.0, 30.0, 1e4]),
)
def test_sampling_never_draws_an_illegal_action(data, rows, actions, scale):
    seed = data.draw(st.integers(0, 2**31))
    rng = np.random.default_rng(seed)
    mask = rng.random((rows, actions)) < 0.5
    mask[np.arange(rows), rng.integers(actions, size=rows)] = True
    logits = torch.from_numpy((rng.normal(size=(rows, actions)) * scale).astype(np.float32))
    logits[~torch.from_numpy(mask)] += 1e6  # illegal actions with the largest logits of all
    log_probs = masked_log_probs(logits, torch.from_numpy(mask))
    uniforms = np.concatenate([rng.random(rows - 1), [np.nextafter(1.0, 0.0)]])  # the very top of [0, 1) too
    chosen = sample_actions(log_probs.numpy(), uniforms)
    assert mask[np.arange(rows), chosen].all()
    assert torch.isfinite(masked_entropy(log_probs, torch.from_numpy(mask))).all()
    assert (log_probs.exp()[~torch.from_numpy(mask)] == 0).all()


def test_sampling_follows_the_distribution():
    log_probs = np.log(np.array([[0.1, 0.0, 0.6, 0.3]] * 40_000) + 1e-300)
    chosen = sample_actions(log_probs, np.random.default_rng(3).random(40_000))
    share = np.bincount(chosen, minlength=4) / 40_000
    np.testing.assert_allclose(share, [0.1, 0.0, 0.6, 0.3], atol=0.01)


def test_entropy_ignores_masked_actions():
    mask = torch.tensor([[True, True, False, False]])
    log_probs = masked_log_probs(torch.tensor([[0.0, 0.0, 5.0, -3.0]]), mask)
    assert masked_entropy(log_probs, mask).item() == pytest.approx(np.log(2))
