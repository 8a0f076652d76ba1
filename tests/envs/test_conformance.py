"""Every registered game through one table: the shared invariant kit, PettingZoo's API and seed
tests, and pickling mid-game, raw and wrapped (PettingZoo's ``test/pickle_test.py``, extended).

``KIT`` lists, per game, the option sets the kit plays and how hard; a game missing from it
(a newly registered one) runs with its default options, so registering a game is enough for it to
be checked. Game-specific properties (option variants, special deals) stay in the game's own tests.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field

import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence

from pokerzoo.envs import GAMES, make, spec
from pokerzoo.envs.testing import (
    check_clone_continuation,
    check_determinism,
    check_env,
    check_hidden_information,
    check_illegal_actions,
    check_random_play,
)


@dataclass(frozen=True)
class Case:
    """One option set of a game and the kit's effort on it."""

    config: dict
    seeds: int = 6  # random-play games
    hidden_samples: int = 1  # determinised worlds per checked decision
    hidden_every: int = 2  # check every k-th decision
    illegal_every: int = 3
    env: bool = False  # also run PettingZoo's api_test and seed_test on it
    cycles: int = 60

    @property
    def id(self) -> str:
        short = {k: (f"{v}"[:10] + "..." if len(f"{v}") > 12 else v) for k, v in self.config.items()}
        return "-".join(f"{k}={v}" for k, v in short.items()) or "defaults"


def _cases(configs, **kw) -> list[Case]:
    return [Case(c, **kw) for c in configs]


_HEIFER = [{"num_players": n, "wild_pairs": w} for n in range(2, 8) for w in ("same_player", "any_player")]
_MEXICAN_VARIANTS = [
    {},
    {"doubt_chips": False},
    {"doubt_pass": True},
    {"reward": "win"},
    {"corner_table": "0" * 65},  # every deal (1, 7): the largest hands
    {"corner_table": "4" * 65},  # every deal (5, 3): the largest board
]
_RASPISNOY = [(2, "54"), (3, "54"), (3, "34"), (4, "54"), (4, "34"), (6, "54"), (10, "54")]

KIT: dict[str, list[Case]] = {
    "caribbean_stud_v0": [
        Case({}, seeds=60, hidden_samples=2, hidden_every=1, illegal_every=1, env=True, cycles=50),
        Case({"boxes": 3}, seeds=60, hidden_samples=2, hidden_every=1, illegal_every=1, env=True, cycles=50),
        Case({"boxes": 2, "ante_choices": [1, 2, 5], "num_hands": 3}, seeds=60, hidden_samples=2, hidden_every=1,
             illegal_every=1, env=True, cycles=50),
    ],
    "mexican_poker_v0": [
        *(Case({"num_players": n, "rounds": 3, **v}, seeds=2, env=n in (2, 3, 7) and not v, cycles=100)
          for n in range(2, 8) for v in _MEXICAN_VARIANTS),
    ],
    "perico_v0": [
        *_cases([{"num_players": n} for n in range(2, 7)], illegal_every=4, env=True),
        *_cases([{"num_players": n, "six_card": True} for n in range(2, 6)], illegal_every=4, env=True),
    ],
    "breed_the_heifer_v0": [
        *_cases(_HEIFER, seeds=12, illegal_every=2, env=True),
        Case({"num_players": 4, "stacks": [6, 12, 3, 40], "num_hands": 5}, seeds=12, illegal_every=2, env=True),
    ],
    "raspisnoy_poker_v0": [
        *(Case({"num_players": n, "deck": d, "schedule": "single"}, seeds=20, hidden_every=3, illegal_every=3,
               env=(n, d) in ((4, "54"), (3, "34"), (10, "54")), cycles=300) for n, d in _RASPISNOY),
        Case({}, seeds=1, hidden_every=40, illegal_every=60, env=True, cycles=300),  # one whole classic game
    ],
}  # fmt: skip


def cases(want_env: bool = False) -> list[tuple[str, Case]]:
    out = []
    for env_id in GAMES:
        for case in KIT.get(env_id, [Case({}, env=True)]):
            if case.env or not want_env:
                out.append((env_id, case))
    return out


def _ids(pairs):
    return [f"{env_id}[{case.id}]" for env_id, case in pairs]


KIT_CASES = cases()
ENV_CASES = cases(want_env=True)


def test_the_table_names_registered_games_only():
    assert set(KIT) <= set(GAMES), sorted(set(KIT) - set(GAMES))


@pytest.mark.parametrize("env_id", list(GAMES))
def test_registry_entry_matches_the_game(env_id):
    entry = spec(env_id)
    module = entry.env_module()
    assert module.Game is entry.game_class() and module.raw_env.game_class is module.Game
    assert module.raw_env.metadata["name"] == env_id
    assert module.__doc__ and env_id in module.__doc__.splitlines()[0], "the module docstring is the env's page"
    assert isinstance(entry.agents_module().AGENTS, dict)


@pytest.mark.parametrize(("env_id", "case"), KIT_CASES, ids=_ids(KIT_CASES))
def test_random_play_invariants(env_id, case):
    assert check_random_play(spec(env_id).game_class(), [case.config], range(case.seeds)) > 0


@pytest.mark.parametrize(("env_id", "case"), KIT_CASES, ids=_ids(KIT_CASES))
def test_determinism_hidden_information_clone_and_illegal_actions(env_id, case):
    game = spec(env_id).game_class()
    check_determinism(game, case.config, 11)
    moved = check_hidden_information(
        game, case.config, 12, samples=case.hidden_samples, every=case.hidden_every
    )
    assert moved > 0
    check_clone_continuation(game, case.config, 13)
    assert check_illegal_actions(game, case.config, 14, every=case.illegal_every) > 0


@pytest.mark.parametrize(("env_id", "case"), ENV_CASES, ids=_ids(ENV_CASES))
def test_pettingzoo_api_and_seed(env_id, case):
    check_env(lambda: make(env_id, **case.config), num_cycles=case.cycles)


@dataclass
class _Trace:
    """What an env shows through the AEC interface, step by step, for comparing two copies."""

    rows: list = field(default_factory=list)

    def record(self, env) -> None:
        agent = env.agent_selection
        obs, reward, terminated, truncated, info = env.last()
        self.rows.append((agent, obs, reward, terminated, truncated, info))


def _play(env, rng: np.random.Generator, steps: int, trace: _Trace) -> None:
    for _ in range(steps):
        if not env.agents:
            return
        trace.record(env)
        obs, _, terminated, truncated, _ = env.last()
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)


@pytest.mark.parametrize("wrapped", [True, False], ids=["wrapped", "raw"])
@pytest.mark.parametrize("env_id", list(GAMES))
def test_pickle_mid_game_continues_identically(env_id, wrapped):
    """PettingZoo's pickle test, at reset and again in mid-game: the copy plays on exactly like the original."""
    env = make(env_id, wrapped=wrapped)
    copy_at_reset = pickle.loads(pickle.dumps(env))
    env.reset(seed=42)
    copy_at_reset.reset(seed=42)
    first, second = _Trace(), _Trace()
    _play(env, np.random.default_rng(0), 7, first)
    _play(copy_at_reset, np.random.default_rng(0), 7, second)
    mid_game = pickle.loads(pickle.dumps(env))
    rng = np.random.default_rng(1)
    state = rng.bit_generator.state
    _play(env, rng, 300, first)
    rng.bit_generator.state = state
    _play(mid_game, rng, 300, second)
    assert len(first.rows) == len(second.rows) and first.rows
    for a, b in zip(first.rows, second.rows, strict=True):
        assert data_equivalence(a, b), f"{env_id}: the pickled copy diverged: {a[:1]} vs {b[:1]}"


# Options under which rewards reach a player who must act again in the same game (so an illegal action
# there has a pending reward to lose): several hands, rounds or deals per episode.
PENDING_REWARDS = {
    "caribbean_stud_v0": {"num_hands": 4},
    "mexican_poker_v0": {"rounds": 3},
    "perico_v0": {},
    "breed_the_heifer_v0": {"num_hands": 4},
    "raspisnoy_poker_v0": {},
}
NOT_ACTIONS = (-1, None, "1", 1.5, True, [0])


def _illegal_choices(mask: np.ndarray, rng: np.random.Generator) -> list:
    illegal = np.flatnonzero(mask == 0)
    picked = [int(a) for a in rng.choice(illegal, size=min(3, illegal.size), replace=False)] if illegal.size else []
    return [*picked, np.int64(picked[0]) if picked else len(mask), len(mask), *NOT_ACTIONS]


@pytest.mark.parametrize("env_id", list(GAMES))
def test_illegal_actions_on_the_raw_env_change_nothing(env_id):
    """An illegal action raises and leaves the whole env as it was: rewards (pending ones too), cumulative
    rewards, terminations, truncations, infos, the agent to act, observations and what ``last()`` shows."""
    from pokerzoo.envs.engine.game import IllegalActionError

    env = make(env_id, wrapped=False, **PENDING_REWARDS.get(env_id, {}))
    env.reset(seed=7)
    rng = np.random.default_rng(0)
    checked = with_pending = 0
    for step in range(3000):
        if not env.agents:
            break
        last = env.last()
        obs, reward, terminated, truncated, _ = last
        if terminated or truncated:
            env.step(None)
            continue
        if step % 5 == 0 or reward != 0:
            before = pickle.dumps(env)
            for action in _illegal_choices(obs["action_mask"], rng):
                with pytest.raises(IllegalActionError):
                    env.step(action)
                assert pickle.dumps(env) == before, f"{env_id}: illegal action {action!r} changed the env"
                assert data_equivalence(env.last(), last), f"{env_id}: illegal action {action!r} changed last()"
            checked += 1
            with_pending += reward != 0
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert checked > 0
    if env_id in PENDING_REWARDS:
        assert with_pending > 0, f"{env_id}: no illegal action was tried with a reward pending"


@pytest.mark.parametrize("env_id", list(GAMES))
def test_calls_before_reset_and_after_the_end_say_what_to_do(env_id):
    from pokerzoo.envs.aec import EnvOrderError

    env = make(env_id, wrapped=False)
    for call in (lambda: env.step(0), env.last, lambda: env.observe("player_0"), lambda: env.view("player_0")):
        with pytest.raises(EnvOrderError, match=r"before reset\(\); call env.reset\(\) first"):
            call()
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in env.agent_iter(max_iter=100_000):
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not env.agents
    for call in (lambda: env.step(0), lambda: env.step(None), env.last):
        with pytest.raises(EnvOrderError, match=r"game ended .* call env.reset\(\) to play another game"):
            call()
    env.reset(seed=4)  # and the env plays again
    assert env.agents and env.last()[0]["action_mask"].any()
