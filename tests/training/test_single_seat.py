"""The single-seat gymnasium wrapper, the opponent league, the policy agent and the worker vec env.

Parametrised over every game whose rules and agents are installed, so each
game is covered as soon as it lands. The reward check replays every episode
on a fresh AEC env with the same chance and reads the learner's rewards the
PettingZoo way (``env.last()`` at each of its turns, and at its final dead
step), an independent account the wrapper's rewards must match exactly.
"""

from __future__ import annotations

import copy
import pickle
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerzoo.agents.base import Agent, RandomAgent
from pokerzoo.agents.registry import make_agent
from pokerzoo.envs import env_module, game_class
from pokerzoo.envs.engine.cards import Chance, ScriptedChance
from pokerzoo.envs.engine.game import IllegalActionError
from pokerzoo.evaluation.tournament import installed_games
from pokerzoo.training.opponents import FixedOpponents, OpponentPool, as_opponents
from pokerzoo.training.single_seat import SingleSeatEnv

GAMES = installed_games()
MULTI = [g for g in GAMES if game_class(g)(seed=0).num_players > 1]
CARIBBEAN = "caribbean_stud_v0"
# Small, fast settings per game for the property tests (options every game documents).
FAST = {
    "raspisnoy_poker_v0": {"schedule": "single"},
    "mexican_poker_v0": {"rounds": 2},
}


def fast_config(game: str) -> dict:
    cfg = dict(FAST.get(game, {}))
    try:
        game_class(game)(seed=0, **cfg)
    except ValueError:
        cfg = {}
    return cfg


def random_learner_episode(env: SingleSeatEnv, rng: np.random.Generator, **reset_kw):
    obs, info = env.reset(**reset_kw)
    rewards, actions = [], []
    while True:
        mask = env.action_masks()
        assert mask.any(), "the learner must have a legal action at every decision"
        assert np.array_equal(mask, info["action_mask"])
        a = int(rng.choice(np.flatnonzero(mask)))
        actions.append(a)
        obs, r, terminated, truncated, info = env.step(a)
        assert env.observation_space.contains(obs)
        rewards.append(r)
        if terminated or truncated:
            return rewards, info


def pettingzoo_rewards(
    game: str, config: dict, chance: Chance, history: list[int], learner: str
) -> list[float]:
    """The learner's rewards read with ``env.last()`` at each of its turns and at its final dead step."""
    ref = env_module(game).raw_env(**config)
    ref.reset(options={"chance": chance})
    seen = []
    for action in history:
        if ref.agent_selection == learner:
            seen.append(ref.last()[1])
        ref.step(action)
    assert ref.game.is_over
    while ref.agents:
        agent = ref.agent_selection
        if agent == learner:
            seen.append(ref.last()[1])
        ref.step(None)
    return seen


# --------------------------------------------------------------------------- rewards
@pytest.mark.parametrize("game", GAMES)
def test_learner_receives_exactly_its_aec_rewards(game):
    config = fast_config(game)
    env = SingleSeatEnv(game, config, opponents=["random"])
    env.reset(seed=3)
    rng = np.random.default_rng(5)
    for episode in range(4):
        seed = 1000 + episode
        rewards, info = random_learner_episode(
            env, rng, options={"chance": Chance(np.random.default_rng(seed))}
        )
        if env.skipped_episodes:
            pytest.skip("an episode without a learner decision changed the deal")
        seen = pettingzoo_rewards(
            game, config, Chance(np.random.default_rng(seed)), env.game.history, env.learner
        )
        # Step 1 carries what came before the learner's first decision; step k the rest up to its next turn.
        expected = [seen[0] + seen[1], *seen[2:]]
        assert len(rewards) == len(expected)
        np.testing.assert_allclose(rewards, expected, rtol=0, atol=1e-9)
        total = env.game.total_rewards[env.seat]
        assert sum(rewards) == pytest.approx(total, abs=1e-9)
        assert info["episode"]["r"] == pytest.approx(total, abs=1e-9)
        assert info["episode"]["l"] == len(rewards)


def test_caribbean_reward_is_the_hand_net_on_a_stacked_deck():
    # Box: pair of aces; dealer A-K high qualifies; raise wins ante 1 + raise 2 x pay 1 = +3.
    chance = ScriptedChance(shuffles=[["As", "Ad", "7c", "5h", "2d", "Ks", "Qh", "9d", "6c", "Ah"]])
    env = SingleSeatEnv(CARIBBEAN)
    env.reset(seed=0, options={"chance": chance})
    assert env.action_masks().tolist() == [True, True]
    _, r, terminated, truncated, _ = env.step(1)
    assert (r, terminated, truncated) == (3.0, True, False)
    chance = ScriptedChance(shuffles=[["As", "Ad", "7c", "5h", "2d", "Ks", "Qh", "9d", "6c", "Ah"]])
    env.reset(options={"chance": chance})
    assert env.step(0)[1] == -1.0


# --------------------------------------------------------------------------- masks and illegal actions
@pytest.mark.parametrize("game", GAMES)
def test_masks_are_the_games_legal_actions_and_illegal_actions_are_refused(game):
    env = SingleSeatEnv(game, fast_config(game), illegal_action="raise")
    env.reset(seed=1)
    rng = np.random.default_rng(2)
    checked = 0
    for _ in range(30):
        game_obj = env.game
        assert game_obj.current_player == env.seat
        mask = env.action_masks()
        np.testing.assert_array_equal(mask, game_obj.legal_mask())
        illegal = np.flatnonzero(~mask)
        if illegal.size:
            before = (list(game_obj.history), game_obj.total_rewards.tolist())
            with pytest.raises(IllegalActionError, match="legal now"):
                env.step(int(illegal[0]))
            assert (list(game_obj.history), game_obj.total_rewards.tolist()) == before
            checked += 1
        _, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            assert not env.action_masks().any()
            env.reset()
    if game_class(game)(seed=0).num_actions > 2:
        assert checked > 0


@pytest.mark.parametrize("game", [g for g in GAMES if game_class(g)(seed=0).num_actions > 2])
def test_illegal_action_terminates_with_the_penalty_by_default(game):
    env = SingleSeatEnv(game, fast_config(game), illegal_reward=-7.5)
    env.reset(seed=4)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, r, terminated, truncated, info = env.step(illegal)
    assert terminated and not truncated
    assert info["illegal_action"] == illegal
    # The penalty, plus whatever the AEC env gave the learner before this, its first decision.
    assert r == pytest.approx(-7.5 + env.game.total_rewards[env.seat], abs=1e-9)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


@pytest.mark.parametrize("game", GAMES)
def test_masked_policy_only_ever_picks_legal_actions(game):
    from sb3_contrib import MaskablePPO

    env = SingleSeatEnv(game, fast_config(game), illegal_action="raise")
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=16, batch_size=16, seed=0, device="cpu", policy_kwargs={"net_arch": [16]}
    )
    obs, _ = env.reset(seed=0)
    for _ in range(60):
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=False)
        assert env.action_masks()[int(action)]
        obs, _, terminated, truncated, _ = env.step(int(action))  # "raise" mode: illegal would raise
        if terminated or truncated:
            obs, _ = env.reset()


# --------------------------------------------------------------------------- SB3 compatibility, seats, state
@pytest.mark.parametrize("game", GAMES)
def test_passes_sb3_check_env(game):
    from stable_baselines3.common.env_checker import check_env

    env = SingleSeatEnv(game, fast_config(game))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unbounded Box warnings for games without observation bounds
        check_env(env, warn=True)
    assert env.observation_space.shape == (game_class(game)(seed=0).observation_size,)
    assert env.action_space.n == game_class(game)(seed=0).num_actions


@pytest.mark.parametrize("game", MULTI)
def test_seat_is_random_per_episode_unless_fixed(game):
    config = fast_config(game)
    env = SingleSeatEnv(game, config)
    n = env.num_players
    seats = set()
    env.reset(seed=0)
    for _ in range(12 * n):
        seats.add(env.seat)
        env.reset()
    assert seats == set(range(n))
    fixed = SingleSeatEnv(game, config, seat=n - 1)
    fixed.reset(seed=0)
    for _ in range(5):
        assert fixed.seat == n - 1 and fixed.game.current_player == n - 1
        fixed.reset()
    with pytest.raises(ValueError, match="seat"):
        SingleSeatEnv(game, config, seat=n)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_same_seed_same_episodes(game, seed):
    def run():
        env = SingleSeatEnv(game, fast_config(game))
        rng = np.random.default_rng(seed)
        out = []
        obs, _ = env.reset(seed=seed)
        out.append(obs.tobytes())
        for _ in range(25):
            obs, r, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            out.append((obs.tobytes(), r, term, trunc, env.seat))
            if term or trunc:
                obs, _ = env.reset()
                out.append(obs.tobytes())
        return out

    assert run() == run()


@pytest.mark.parametrize("game", GAMES)
def test_state_round_trip_continues_identically(game):
    env = SingleSeatEnv(game, fast_config(game), opponents=["random"])
    env.reset(seed=9)
    rng = np.random.default_rng(1)
    for _ in range(3):
        _, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if term or trunc:
            env.reset()
    blob = env.get_state()
    copy_env = pickle.loads(pickle.dumps(SingleSeatEnv(game, fast_config(game))))
    copy_env.set_state(blob)

    def trace(e, rng):
        out = []
        for _ in range(20):
            obs, r, term, trunc, _ = e.step(int(rng.choice(np.flatnonzero(e.action_masks()))))
            out.append((obs.tobytes(), r, term, trunc))
            if term or trunc:
                out.append(e.reset()[0].tobytes())
        return out

    assert trace(env, np.random.default_rng(2)) == trace(copy_env, np.random.default_rng(2))


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="illegal_action"):
        SingleSeatEnv(CARIBBEAN, illegal_action="ignore")
    with pytest.raises(ValueError, match="unknown game"):
        SingleSeatEnv("go_fish")
    with pytest.raises(ValueError, match="unknown option"):
        SingleSeatEnv(CARIBBEAN, {"boxs": 2})
    with pytest.raises(ValueError, match="unknown agent"):
        SingleSeatEnv(CARIBBEAN, opponents=["nobody"])
    env = SingleSeatEnv(CARIBBEAN)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_accepts_a_built_env():
    wrapped = env_module(CARIBBEAN).env(boxes=2)
    env = SingleSeatEnv(wrapped)
    env.reset(seed=0)
    assert env.aec is wrapped.unwrapped and env.game.boxes == 2
    with pytest.raises(ValueError, match="already configured"):
        SingleSeatEnv(wrapped, {"boxes": 1})


# --------------------------------------------------------------------------- opponents
class Recorder(Agent):
    name = "recorder"

    def __init__(self, seed=None):
        super().__init__(seed)
        self.calls = 0

    def act(self, view, mask, game=None):
        self.calls += 1
        return int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize("game", MULTI)
def test_opponents_play_every_other_seat(game):
    rec = Recorder()
    env = SingleSeatEnv(game, fast_config(game), opponents=[rec])
    env.reset(seed=2)
    assert all(a is rec for s, a in enumerate(env.seat_agents) if s != env.seat)
    assert env.seat_agents[env.seat] is None
    rng = np.random.default_rng(0)
    for _ in range(10):
        assert env.game.current_player == env.seat
        _, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if term or trunc:
            env.reset()
    assert rec.calls > 0


def test_pool_without_snapshots_draws_scripted_agents_only():
    game = MULTI[0] if MULTI else CARIBBEAN
    pool = OpponentPool(game, {"random": 3.0}, self_play=1.0, latest_share=0.75)
    assert pool.probabilities() == {"random": 1.0}  # no snapshot yet: scripted only
    assert all(isinstance(a, RandomAgent) for a in pool.draw(np.random.default_rng(0), 5))
    with pytest.raises(ValueError, match="weight"):
        OpponentPool(game, {"random": -1})
    with pytest.raises(ValueError, match="positive total"):
        OpponentPool(game, {"random": 0})
    with pytest.raises(ValueError, match="unknown agent"):
        OpponentPool(game, {"nobody": 1})


class FakePolicy(Agent):
    """Stands in for a snapshot's PolicyAgent (no checkpoint file needed)."""

    def __init__(self, path, **kw):
        super().__init__()
        self.path = path
        self.name = f"policy:{path}"


def test_pool_probabilities_with_snapshots(monkeypatch):
    from pokerzoo.training import opponents

    monkeypatch.setattr(opponents, "PolicyAgent", FakePolicy)
    pool = OpponentPool(CARIBBEAN, {"random": 2.0}, self_play=2.0, latest_share=0.5, max_snapshots=3)
    for p in ("a", "b", "c", "d"):
        pool.add_snapshot(p)
    assert pool.snapshots == ["b", "c", "d"]  # oldest dropped
    probs = pool.probabilities()
    assert probs == pytest.approx({"random": 0.5, "policy:b": 0.125, "policy:c": 0.125, "policy:d": 0.25})
    draws = pool.draw(np.random.default_rng(0), 20_000)
    counts = {}
    for a in draws:
        counts[a.name] = counts.get(a.name, 0) + 1
    for label, p in probs.items():
        assert counts[label] / 20_000 == pytest.approx(p, abs=0.015)
    clone = pickle.loads(pickle.dumps(pool))
    assert clone.snapshots == pool.snapshots


def test_scripted_opponents_with_arguments():
    from pokerzoo.training.opponents import build_agent

    if "breed_the_heifer_v0" in GAMES:
        agent = build_agent("breed_the_heifer_v0", "equity(simulations=40)")
        assert agent.simulations == 40 and agent.name == "equity(simulations=40)"
        pool = OpponentPool("breed_the_heifer_v0", {"equity(simulations=12)": 1.0})
        assert pool.draw(np.random.default_rng(0), 1)[0].simulations == 12
    agent = build_agent(CARIBBEAN, "random()")
    assert isinstance(agent, RandomAgent)
    with pytest.raises(ValueError, match="key=value"):
        build_agent(CARIBBEAN, "random(3)")
    with pytest.raises(ValueError, match="random has no argument 'depth'"):
        build_agent(CARIBBEAN, "random(depth=3)")
    with pytest.raises(ValueError, match="unknown agent 'nobody'"):
        build_agent(CARIBBEAN, "nobody(x=1)")
    if "raspisnoy_poker_v0" in GAMES:  # composites take arguments on either side
        from pokerzoo.agents.base import CompositeAgent

        agent = build_agent("raspisnoy_poker_v0", "pimc(bid_budget=7)+heuristic(low_card_share=0.5)")
        assert isinstance(agent, CompositeAgent) and agent.name == "pimc(bid_budget=7)+heuristic(low_card_share=0.5)"
        assert agent.bidder.bid_budget == 7 and agent.player.low_card_share == 0.5
        with pytest.raises(ValueError, match="pimc has no argument 'depth'"):
            build_agent("raspisnoy_poker_v0", "heuristic+pimc(depth=2)")


def test_as_opponents_forms():
    assert isinstance(as_opponents(CARIBBEAN, None), FixedOpponents)
    assert isinstance(as_opponents(CARIBBEAN, "always_raise").agents[0], Agent)
    pool = as_opponents(CARIBBEAN, {"scripted": {"random": 1.0}})
    assert isinstance(pool, OpponentPool)
    fixed = FixedOpponents(CARIBBEAN, ["random", "always_raise"])
    assert [a.name for a in fixed.draw(np.random.default_rng(0), 3)] == ["random", "always_raise", "random"]
    with pytest.raises(ValueError, match="snapshots"):
        fixed.add_snapshot("x")


# --------------------------------------------------------------------------- policy agent
@pytest.fixture(scope="module")
def tiny_policy(tmp_path_factory):
    """A MaskablePPO model saved the way the trainer saves policies (untrained: weights only matter)."""
    from sb3_contrib import MaskablePPO

    from pokerzoo.training.config import load_config
    from pokerzoo.training.policy_export import policy_document, save_policy

    cfg = load_config({"game": "caribbean_stud", "n_envs": 1, "ppo": {"n_steps": 8, "batch_size": 8}})
    env = SingleSeatEnv(CARIBBEAN)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=8, batch_size=8, seed=3, device="cpu", policy_kwargs={"net_arch": [32, 16]}
    )
    path = tmp_path_factory.mktemp("policy") / "policy.json"
    save_policy(model, path, policy_document(cfg, 0))
    return path, model


def test_policy_agent_matches_torch_and_respects_masks(tiny_policy):
    import torch

    from pokerzoo.agents.policy import PolicyAgent, load_policy_net

    path, model = tiny_policy
    net = load_policy_net(path)
    obs = np.random.default_rng(0).random((8, net.observation_size), dtype=np.float32)
    with torch.no_grad():
        want = model.policy.get_distribution(torch.as_tensor(obs)).distribution.probs.numpy()
    z = net.logits(obs)
    got = np.exp(z - z.max(1, keepdims=True))
    got /= got.sum(1, keepdims=True)
    np.testing.assert_allclose(got, want, atol=1e-5)

    agent = PolicyAgent(path, env_name=CARIBBEAN)
    game = game_class(CARIBBEAN)(seed=5)
    view = game.view(0)
    for mask in ([True, False], [False, True]):
        assert agent.act(view, np.array(mask), game) == mask.index(True)
    best = int(np.argmax(agent.logits(view, game)))
    assert agent.act(view, np.array([True, True]), game) == best
    assert agent.act(view, np.array([True, True])) == best  # encodes with a probe game when none is given
    clone = pickle.loads(pickle.dumps(agent))
    assert clone.act(view, np.array([True, True]), game) == best


def test_policy_specs_resolve_through_the_registry(tiny_policy, tmp_path, monkeypatch):
    from pokerzoo.agents import policy as policy_agent
    from pokerzoo.agents.base import CompositeAgent

    path, _ = tiny_policy
    agent = make_agent(CARIBBEAN, f"policy:{path}")
    assert isinstance(agent, policy_agent.PolicyAgent) and agent.deterministic
    assert not make_agent(CARIBBEAN, f"policy:{path}@sample").deterministic
    assert isinstance(make_agent(CARIBBEAN, f"policy:{path.parent}"), policy_agent.PolicyAgent)
    comp = make_agent(CARIBBEAN, f"policy:{path}+always_raise")
    assert isinstance(comp, CompositeAgent) and comp.player.name == "always_raise"
    comp = make_agent(CARIBBEAN, f"always_raise+policy:{path}")
    assert isinstance(comp.player, policy_agent.PolicyAgent)
    with pytest.raises(FileNotFoundError, match="not found"):
        make_agent(CARIBBEAN, f"policy:{tmp_path / 'missing.zip'}")
    if MULTI:
        with pytest.raises(ValueError, match="trained on caribbean_stud_v0"):
            make_agent(MULTI[0], f"policy:{path}")
    # Shipped policies are found by name in agents/policies/<game>/<name>.json (+ .safetensors).
    shipped = tmp_path / "policies" / "caribbean_stud"
    shipped.mkdir(parents=True)
    (shipped / "mine.json").write_bytes(path.read_bytes())
    (shipped / "policy.safetensors").write_bytes(path.with_suffix(".safetensors").read_bytes())
    monkeypatch.setattr(policy_agent, "POLICY_DIR", tmp_path / "policies")
    assert make_agent(CARIBBEAN, "mine").name == "mine"
    assert make_agent(CARIBBEAN, "mine+rules_of_thumb").bidder.name == "mine"
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent(CARIBBEAN, "theirs")


@pytest.mark.parametrize("game", GAMES)
def test_shipped_policy_plays_legally(game):
    from pokerzoo.agents.policy import shipped_policies
    from pokerzoo.evaluation.tournament import play_game

    names = shipped_policies(game)
    if not names:
        pytest.skip(f"no shipped policy for {game} yet")
    for name in names:
        agent = make_agent(game, name, seed=0)
        assert agent.meta["game"] == game
        options = dict(agent.meta.get("options") or {})  # each plays the game it was trained on (six_card...)
        n = game_class(game)(seed=0, **options).num_players
        agents = [agent] + [make_agent(game, "random", seed=s) for s in range(1, n)]
        for seed in range(2):
            g = game_class(game)(seed=seed, **options)
            play_game(g, agents[seed % n :] + agents[: seed % n])  # raises on an illegal action
            assert g.is_over


# --------------------------------------------------------------------------- the worker vec env
def test_worker_vec_env_matches_the_in_process_one():
    from stable_baselines3.common.vec_env import DummyVecEnv

    from pokerzoo.training.vec_env import WorkerVecEnv

    game = MULTI[0] if MULTI else CARIBBEAN
    config = fast_config(game)
    fns = [lambda: SingleSeatEnv(game, config) for _ in range(5)]
    dummy, workers = DummyVecEnv(fns), WorkerVecEnv(fns, workers=2, start_method="fork")
    try:
        for v in (dummy, workers):
            v.seed(123)
        obs_d, obs_w = dummy.reset(), workers.reset()
        np.testing.assert_array_equal(obs_d, obs_w)
        rng = np.random.default_rng(0)
        for _ in range(40):
            masks = np.stack(dummy.env_method("action_masks"))
            np.testing.assert_array_equal(masks, np.stack(workers.env_method("action_masks")))
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            od, rd, dd, _ = dummy.step(actions)
            ow, rw, dw, _ = workers.step(actions)
            np.testing.assert_array_equal(od, ow)
            np.testing.assert_array_equal(rd, rw)
            np.testing.assert_array_equal(dd, dw)
        assert workers.get_attr("seat", indices=[4, 0]) == dummy.get_attr("seat", indices=[4, 0])
        states = workers.env_method("get_state")
        assert len(states) == 5
        workers.env_method("set_state", states[0], indices=[3])
        assert workers.get_attr("seat", indices=[3]) == workers.get_attr("seat", indices=[0])
    finally:
        workers.close()
        dummy.close()


OWNER_SCRIPT = """
import sys, time
from pokerzoo.training.single_seat import SingleSeatEnv
from pokerzoo.training.vec_env import WorkerVecEnv

if __name__ == "__main__":
    venv = WorkerVecEnv([lambda: SingleSeatEnv("caribbean_stud_v0") for _ in range(2)], workers=2)
    print(" ".join(str(p.pid) for p in venv.processes), flush=True)
    venv.env_method("teacher_rollout", "random", 10**9, 0)  # minutes of work: killed long before it ends
"""


def test_workers_exit_when_their_owner_is_killed(tmp_path):
    """A worker inside a long call (an imitation's recording) must not outlive a killed trainer."""
    import os
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "owner.py"
    script.write_text(OWNER_SCRIPT)
    owner = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        pids = [int(p) for p in owner.stdout.readline().split()]
        assert len(pids) == 2
        time.sleep(1.0)
        assert all(_alive(p) for p in pids), "the workers should be busy recording"
        os.kill(owner.pid, signal.SIGKILL)
        owner.wait()
        deadline = time.monotonic() + 20
        while any(_alive(p) for p in pids) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(_alive(p) for p in pids), "workers kept running after their owner was killed"
    finally:
        owner.kill()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_copy_of_env_is_independent():
    env = SingleSeatEnv(CARIBBEAN)
    env.reset(seed=1)
    twin = copy.deepcopy(env)
    a = env.step(1)
    b = twin.step(1)
    assert a[1] == b[1]
