"""The RLlib backend on a local Ray: the league env's rewards, one short run per game, a run killed and resumed.

Needs the 'ray' extra (RLlib). One local Ray instance serves the whole module
(module-scoped fixture); the configs are tiny (a few hundred learner steps):
these tests check the machinery (the run folder, the policy file, the
checkpoints, the reward attribution), not learning.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import yaml

pytest.importorskip("ray.rllib", reason="the 'ray' extra is not installed")

import ray  # after the skip: Ray is optional
from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner

from pokerzoo.agents.batched import batched_agents
from pokerzoo.agents.policy import PolicyAgent
from pokerzoo.agents.policy_file import read_policy, write_policy
from pokerzoo.agents.registry import agent_names
from pokerzoo.cli.main import main
from pokerzoo.envs import env_module
from pokerzoo.envs.batched import BATCHED_GAMES
from pokerzoo.evaluation.tournament import installed_games
from pokerzoo.training.config import load_config
from pokerzoo.training.policy_export import mlp_architecture, policy_document
from pokerzoo.training.rllib import settings
from pokerzoo.training.rllib.checkpoint import find_intact
from pokerzoo.training.rllib.env import LEARNER, LeagueEnv
from pokerzoo.training.rllib.trainer import RllibTrainer, _empty_net, algorithm_config

GAMES = installed_games()
OPTIONS = {"mexican_poker_v0": {"rounds": 2}, "raspisnoy_poker_v0": {"schedule": "single"}}
LEAGUE_GAME = "perico_v0" if "perico_v0" in GAMES else GAMES[-1]
REPO = Path(__file__).resolve().parents[2]


def tiny(game: str, **changes) -> dict:
    cfg = {
        "game": game,
        "engine": "aec",  # the RLlib backend trains engine: aec configs
        "options": OPTIONS.get(game, {}),
        "seed": 3,
        "total_timesteps": 192,
        "n_envs": 2,
        "checkpoint_every": 96,
        "keep_checkpoints": 10,
        "ppo": {"n_steps": 48, "batch_size": 48, "n_epochs": 1, "net_arch": [8],
                "learning_rate": {"start": 1e-3, "end": 1e-4}},
        "opponents": {"scripted": {"random": 1.0}, "self_play": 1.0, "snapshot_every": 96, "max_snapshots": 2},
        "eval": {"every": 0, "deals": 4, "baselines": ["random"], "final_deals": 4, "final_workers": 1,
                 "composites": False},
    }  # fmt: skip
    for key, value in changes.items():
        node = cfg
        parts = key.split("__")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return load_config(cfg)


def _rows(path: Path) -> list[dict]:
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture(scope="module")
def local_ray():
    if not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield ray
    ray.shutdown()


# --------------------------------------------------------------------------- the env, without Ray
@pytest.mark.parametrize("game", GAMES)
def test_learner_rewards_sum_to_the_games_total_for_its_seat(game):
    """Every RLModule seat's rewards over an episode are the scalar game's total for that seat (reward_scale off)."""
    env = LeagueEnv({**settings.env_config(tiny(game)), "reward_scale": 2.0})
    env.set_league([0, 1])  # snapshots in the league: several RLModule seats per game
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=11)
    returns: dict[str, float] = {}
    checked = 0
    while checked < 12:
        (agent, o), = obs.items()
        legal = np.flatnonzero(o["action_mask"])
        assert o["observations"].dtype == np.float32 and legal.size
        obs, rewards, terminated, truncated, infos = env.step({agent: int(rng.choice(legal))})
        for a, r in rewards.items():
            returns[a] = returns.get(a, 0.0) + r / (2.0 if a == LEARNER else 1.0)
        if terminated["__all__"] or truncated["__all__"]:
            assert infos, "the RLModule seats that acted get their end of game"
            for a, info in infos.items():
                assert returns[a] == pytest.approx(info["game_total"], abs=1e-9), (game, a)
            checked += 1
            returns = {}
            obs, _ = env.reset()


def test_rllib_episode_returns_are_the_games_totals():
    """Through RLlib's own env runner and episodes (its reward bookkeeping): returns equal the games' totals."""
    cfg = tiny(LEAGUE_GAME)
    runner = MultiAgentEnvRunner(config=algorithm_config(cfg, 0, "aec"))
    runner.env.envs[0].unwrapped.set_league([0])
    episodes = [e for e in runner.sample(num_episodes=6, random_actions=False) if e.is_done]
    assert episodes
    for episode in episodes:
        for single in episode.agent_episodes.values():
            if len(single) == 0:
                continue
            last = single.get_infos(-1)
            assert single.get_return() == pytest.approx(last["game_total"], abs=1e-9)  # reward_scale 1
    runner.stop()


def test_the_league_draws_scripted_agents_and_snapshots_as_the_pool_does():
    env = LeagueEnv(settings.env_config(tiny(LEAGUE_GAME, opponents__scripted={"random": 1.0, "heuristic": 1.0})))
    assert env.probabilities() == pytest.approx({"random": 0.5, "heuristic": 0.5})
    env.set_league([1, 0])
    assert env.probabilities() == pytest.approx(
        {"random": 1 / 3, "heuristic": 1 / 3, "snapshot1": 1 / 6, "snapshot0": 1 / 6}
    )
    seen = set()
    for i in range(40):
        env.reset(seed=i)
        seen.update(r if isinstance(r, str) else r.name for r in env.seat_roles)
    assert {"learner", "random", "heuristic"} <= seen
    assert any(s.startswith("snapshot1@") for s in seen) and any(s.startswith("snapshot0@") for s in seen)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"ppo__target_kl": 0.02}, "ppo.target_kl"),
        ({"ppo__normalize_advantage": False}, "normalize_advantage"),
        ({"pretrain__teacher": "random"}, "pretrain"),
        ({"workers": 2}, "--env-runners"),
        ({"n_envs": 3}, "cannot be shared evenly by 2 env runners"),
    ],
)
def test_keys_rllib_cannot_honour_are_refused_by_name(changes, message, tmp_path):
    with pytest.raises(settings.RllibConfigError, match=message.replace(".", r"\.")):
        RllibTrainer(tiny(LEAGUE_GAME, **changes), tmp_path, env_runners=2)
    assert not any(tmp_path.iterdir()), "nothing is written before the config is accepted"


def test_a_batched_engine_config_is_refused_with_the_way_to_an_aec_one(tmp_path):
    cfg = load_config({"game": "caribbean_stud_v0", "engine": "batched", "total_timesteps": 192})
    with pytest.raises(settings.RllibConfigError, match="engine: batched is the batched self-play trainer's"):
        RllibTrainer(cfg, tmp_path, env_runners=0)
    assert not any(tmp_path.iterdir())


def test_cli_flags_of_the_rllib_backend_are_checked(tmp_path, capsys):
    config = REPO / "configs" / "high_card" / "ppo.yaml"
    assert main(["train", str(config), "--env-runners", "2", "--out", str(tmp_path / "a")]) == 2
    assert "--env-runners goes with --backend rllib" in capsys.readouterr().err
    code = main(["train", str(config), "--backend", "rllib", "--set", "ppo.target_kl=0.01",
                 "--out", str(tmp_path / "b")])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and "ppo.target_kl" in err and "Traceback" not in err


# --------------------------------------------------------------------------- runs on the local Ray
@pytest.mark.parametrize("game", GAMES)
def test_a_short_run_per_game_writes_the_run_folder(local_ray, tmp_path, game):
    run = tmp_path / "run"
    report = RllibTrainer(tiny(game), run, progress=False).train()
    for name in ("config.yaml", "progress.csv", "rllib.json", "final/policy.json", "final/policy.safetensors",
                 "final/report.md", "final/report.json", "final/learning_curve.png"):  # fmt: skip
        assert (run / name).is_file(), name
    assert any((run / "tb").iterdir())
    rows = _rows(run / "progress.csv")
    steps = [int(r["time/total_timesteps"]) for r in rows]
    assert steps == sorted(steps) and steps[-1] >= 192
    assert report["throughput"]["backend"] == "rllib" and report["final"][0]["baseline"] == "random"
    assert "PPO on Ray RLlib" in (run / "final" / "report.md").read_text()
    checkpoints = sorted(p.name for p in (run / "checkpoints").iterdir() if p.name.startswith("step_"))
    assert len(checkpoints) >= 2 and find_intact(run)[0].step == steps[-1]
    snapshots = sorted((run / "snapshots").glob("*.json"))
    assert snapshots, "the league took snapshots of the learner"
    policy = read_policy(run / "final" / "policy.json")
    assert policy.document["provenance"]["backend"] == "rllib"
    assert any(k.startswith("mlp_extractor.value_net") for k in policy.tensors), "the critic travels too"
    # The policy file plays through the project's numpy agent, legally.
    agent = PolicyAgent(str(run), env_name=game)
    aec = env_module(game).raw_env(**OPTIONS.get(game, {}))
    aec.reset(seed=1)
    mask = aec.game.legal_mask()
    assert mask[agent.act(aec.game.view(aec.game.current_player), mask, aec.game)]


def test_policy_run_plays_in_evaluate(local_ray, tmp_path):
    run = tmp_path / "run"
    RllibTrainer(tiny(LEAGUE_GAME, opponents__self_play=0.0, checkpoint_every=0), run, progress=False).train()
    out = tmp_path / "eval"
    code = main(["evaluate", LEAGUE_GAME, "--agents", f"policy:{run}", "random", "--games", "4", "--no-progress",
                 "--no-plot", "--workers", "1", "--out", str(out)])  # fmt: skip
    assert code == 0 and "policy:" in (out / "summary.csv").read_text()


def test_a_killed_run_resumes_from_its_checkpoint(local_ray, tmp_path):
    """A run on the test's Ray cluster (--address) is SIGKILLed after a checkpoint, then resumed with --resume."""
    run = tmp_path / "run"
    config = tmp_path / "cfg.yaml"
    cfg = tiny(LEAGUE_GAME, total_timesteps=100_000, checkpoint_every=96)
    config.write_text(yaml.safe_dump({k: v for k, v in cfg.items() if k != "name"}, sort_keys=False))
    address = ray.get_runtime_context().gcs_address
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pokerzoo.cli.main", "train", str(config), "--backend", "rllib", "--address", address,
         "--out", str(run), "--no-progress"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            found = [p for p in (run / "checkpoints").glob("step_*") if (p / "checkpoint.json").is_file()]
            if len(found) >= 2:
                break
            time.sleep(0.2)
    finally:
        proc.send_signal(signal.SIGKILL)
        _, err = proc.communicate()
    assert len(found) >= 2, f"no checkpoints before the deadline: {err.decode()[-2000:]}"
    killed_at, _ = find_intact(run)
    assert not (run / "final").exists()

    trainer = RllibTrainer.resume(run, total_timesteps=killed_at.step + 96, progress=False)
    assert trainer._checkpoint.step == killed_at.step
    report = trainer.train()
    assert report["throughput"]["resumes"] == 1
    assert trainer.state["steps"] >= killed_at.step + 96
    rows = _rows(run / "progress.csv")
    steps = [int(r["time/total_timesteps"]) for r in rows]
    assert steps == sorted(steps) and len(steps) == len(set(steps)), "rows after the checkpoint were dropped"
    # The learner went on from the checkpoint's weights and Adam state, not from scratch.
    saved = killed_at.state["algorithm"]["learner_group"]["learner"]
    resumed = find_intact(run)[0].state["algorithm"]["learner_group"]["learner"]
    step_of = lambda s: s["optimizer"]["learner_default_optimizer"]["state"]["state"][0]["step"]  # noqa: E731
    assert float(step_of(resumed)) > float(step_of(saved)) > 0
    assert json.loads((run / "rllib.json").read_text())["backend"] == "rllib"
    assert len(trainer.state["snapshots"]) == 2, "the league came back with its snapshots"


# --------------------------------------------------------------------------- the batched env source
BATCHED = [g for g in ("caribbean_stud_v0", "raspisnoy_poker_v0") if g in GAMES]


@pytest.mark.parametrize("game", BATCHED)
def test_batched_source_returns_are_the_games_totals_replayed_on_the_scalar_game(game):
    """Driven as RLlib's runner drives it (a finished row sits out one step), each row's learner episodes
    return exactly its seat's total in the scalar game replayed from the row's seed and logged actions."""
    from pokerzoo.training.rllib.batched import BatchedLeagueVectorEnv

    n, seed = 6, 40
    vec = BatchedLeagueVectorEnv({**settings.env_config(tiny(game)), "reward_scale": 0.5}, n)
    inner = vec.seats.env
    log: list[list[int]] = [[] for _ in range(n)]
    original = inner.step

    def logged(actions, rows=None):
        idx = inner._rows(rows)
        out = original(actions, rows=rows)
        for r, a in zip(idx.tolist(), np.asarray(actions).tolist()):
            log[r].append(int(a))
        return out

    inner.step = logged
    obs, _ = vec.reset(seed=seed)
    seats = [[int(vec.seats.seat[i])] for i in range(n)]
    returns: list[list[float]] = [[0.0] for _ in range(n)]
    restart = np.zeros(n, dtype=bool)
    rng = np.random.default_rng(1)
    for _ in range(60):
        actions = [{} if restart[i] else {LEARNER: int(rng.choice(np.flatnonzero(obs[i][LEARNER]["action_mask"])))}
                   for i in range(n)]  # fmt: skip
        obs, rewards, terminated, truncated, _ = vec.step(actions)
        for i in range(n):
            if restart[i]:  # the row's next episode starts here
                seats[i].append(int(vec.seats.seat[i]))
                returns[i].append(0.0)
            returns[i][-1] += rewards[i].get(LEARNER, 0.0) / 0.5
        restart = np.array([t["__all__"] or u["__all__"] for t, u in zip(terminated, truncated)])
    assert vec.seats.skipped_episodes == 0
    checked = 0
    for i in range(n):
        aec = env_module(game).raw_env(**OPTIONS.get(game, {}))
        aec.reset(seed=seed + i)
        finished = len(returns[i]) - (0 if restart[i] else 1)
        game_index = 0
        for a in log[i]:
            aec.step(a)
            if aec.game.is_over:
                if game_index < finished:
                    seat = seats[i][game_index]
                    assert returns[i][game_index] == pytest.approx(aec.game.total_rewards[seat], abs=1e-9)
                    checked += 1
                game_index += 1
                aec.reset()
    assert checked >= n


def test_a_short_run_on_the_batched_source(local_ray, tmp_path):
    game = BATCHED[0] if BATCHED else pytest.skip("no batched game installed")
    cfg = tiny(game, opponents__self_play=0.0, n_envs=4)
    report = RllibTrainer(cfg, tmp_path / "run", env_source="batched", progress=False).train()
    assert report["throughput"]["vec_env"].startswith("rllib (batched")
    assert json.loads((tmp_path / "run" / "rllib.json").read_text())["env_source"] == "batched"
    assert read_policy(tmp_path / "run" / "final" / "policy.json").document["game"] == game


def test_the_batched_source_seats_a_scripted_agents_batched_port():
    from pokerzoo.agents.batched.raspisnoy_poker import HeuristicOpponent
    from pokerzoo.training.rllib.batched import BatchedLeagueVectorEnv

    if "raspisnoy_poker_v0" not in BATCHED:
        pytest.skip("Raspisnoy has no batched engine here")
    cfg = tiny("raspisnoy_poker_v0", opponents__scripted={"heuristic": 1.0}, opponents__self_play=0.0)
    settings.check(cfg, 0, "batched")
    vec = BatchedLeagueVectorEnv(settings.env_config(cfg), 2)
    assert isinstance(vec.seats.opponents[0], HeuristicOpponent)


def test_the_batched_source_refuses_what_it_cannot_play(tmp_path):
    unported = next(a for a in agent_names("caribbean_stud_v0") if a not in batched_agents("caribbean_stud_v0"))
    with pytest.raises(settings.RllibConfigError, match="batched port"):
        RllibTrainer(tiny("caribbean_stud_v0", opponents__scripted={unported: 1.0}), tmp_path, env_source="batched")
    unbatched = [g for g in GAMES if g not in BATCHED_GAMES]
    for game in unbatched[:1]:  # while a game has no kernel
        with pytest.raises(settings.RllibConfigError, match="no batched engine"):
            RllibTrainer(tiny(game), tmp_path, env_source="batched")


# --------------------------------------------------------------------------- weights in and out
def _started_from_a_fresh_policy(tmp_path, cfg: dict) -> tuple[dict, dict]:
    """A run of ``cfg`` (Breed the Heifer) started by init_from a fresh policy of the tiny default config: the file's
    tensors and the learner's after ``init_weights``."""
    narrow = tiny("breed_the_heifer_v0")
    net = _empty_net(narrow)
    document = {**policy_document(narrow, 0), "architecture": mlp_architecture(net)}
    source = write_policy(tmp_path / "source", document, {k: v.detach().numpy() for k, v in net.state_dict().items()})
    trainer = RllibTrainer(cfg, tmp_path / "run", progress=False)
    trainer._build()
    try:
        trainer.init_weights(source)
        got = {k: v.detach().numpy() for k, v in trainer.learner_net().state_dict().items()}
    finally:
        trainer.algo.stop()
    return read_policy(source).tensors, got


def test_init_from_gives_a_policy_the_action_counts_with_zero_weights(local_ray, tmp_path):
    """init_from a policy trained without an option that appends pieces: the new columns start at zero."""
    counts = {"action_counts": True}
    stored, got = _started_from_a_fresh_policy(tmp_path, tiny("breed_the_heifer_v0", options=counts,
                                                                eval__options=counts))  # fmt: skip
    for k, v in stored.items():
        if k.endswith("net.0.weight"):  # the actor's and the critic's first layers: 15 more inputs, at zero
            np.testing.assert_array_equal(got[k], np.concatenate([v, np.zeros((v.shape[0], 15))], axis=1))
        else:
            np.testing.assert_array_equal(got[k], v, err_msg=k)


def test_init_from_widens_the_hidden_layer_keeping_the_policys_function(local_ray, tmp_path):
    """init_from a policy of a narrower hidden layer: its units in the leading block, the new ones read at zero."""
    stored, got = _started_from_a_fresh_policy(tmp_path, tiny("breed_the_heifer_v0", ppo__net_arch=[12]))
    for k, v in stored.items():
        if k.endswith("net.0.weight") or k.endswith("net.0.bias"):  # 8 -> 12 units: the file's first
            np.testing.assert_array_equal(got[k][:8], v, err_msg=k)
        elif v.ndim == 2:  # the output layers read the 4 new units at zero
            np.testing.assert_array_equal(got[k], np.concatenate([v, np.zeros((v.shape[0], 4))], axis=1))
        else:
            np.testing.assert_array_equal(got[k], v, err_msg=k)


def test_snapshots_reach_the_env_runners_and_init_from_reads_an_sb3_policy(local_ray, tmp_path):
    """init_from takes a MaskablePPO policy file as it is (same layout); a snapshot's weights play in the envs."""
    import torch
    from sb3_contrib import MaskablePPO

    from pokerzoo.training.policy_export import save_policy
    from pokerzoo.training.single_seat import SingleSeatEnv

    cfg = tiny(LEAGUE_GAME)
    model = MaskablePPO("MlpPolicy", SingleSeatEnv(LEAGUE_GAME, cfg["options"]), policy_kwargs={
        "net_arch": {"pi": [8], "vf": [8]}, "activation_fn": torch.nn.Tanh}, n_steps=8, batch_size=8, device="cpu")
    document = {"game": cfg["game"], "options": cfg["options"], "observation_size": model.observation_space.shape[0],
                "num_actions": int(model.action_space.n)}  # fmt: skip
    source = save_policy(model, tmp_path / "sb3.json", document)
    trainer = RllibTrainer({**cfg, "init_from": str(source)}, tmp_path / "run", progress=False)
    trainer._build()
    try:
        trainer.init_weights(source)
        expected = read_policy(source).tensors
        got = {k: v.detach().numpy() for k, v in trainer.learner_net().state_dict().items()}
        assert expected.keys() == got.keys()
        for k in expected:
            np.testing.assert_array_equal(expected[k], got[k])
        path = trainer.snapshot()
        played = trainer.algo.env_runner.module["snapshot0"].net.state_dict()
        for k, v in read_policy(path).tensors.items():
            np.testing.assert_array_equal(v, played[k].numpy(), err_msg=k)
        league = trainer.algo.env_runner.env.envs[0].unwrapped.probabilities()
        assert league["snapshot0"] > 0
    finally:
        trainer.algo.stop()


@pytest.mark.filterwarnings("ignore:Detected pickle protocol:UserWarning")  # the hostile file's, refused anyway
def test_a_hostile_or_damaged_checkpoint_is_skipped_and_named(tmp_path):
    """The newest checkpoint's state.pt carries a pickle payload, the next one a changed byte: both are skipped,
    named, and nothing runs; the oldest, intact, is the one resume takes."""
    import hashlib
    import pickle

    import torch

    from pokerzoo.training import checkpoint as ckpt
    from pokerzoo.training.rllib.checkpoint import FILES, FORMAT
    from pokerzoo.training.rllib.modules import ActorCritic

    class Payload:
        def __reduce__(self):
            return (os.system, (f"touch {tmp_path / 'pwned'}",))

    cfg, run = tiny(LEAGUE_GAME), tmp_path / "run"
    net = ActorCritic(env_module(LEAGUE_GAME).raw_env().game.observation_size,
                      env_module(LEAGUE_GAME).raw_env().num_actions, [8], "tanh")  # fmt: skip
    folders = []
    for step in (96, 192, 288):
        folder = run / "checkpoints" / f"step_{step:012d}"
        document = {**policy_document(cfg, step), "architecture": mlp_architecture(net)}
        write_policy(folder / "policy.json", document, {k: v.detach().numpy() for k, v in net.state_dict().items()})
        torch.save(ckpt.encode({"format": FORMAT, "algorithm": {}, "trainer": {"steps": step}}), folder / "state.pt")
        folders.append(folder)
    (folders[2] / "state.pt").write_bytes(pickle.dumps(Payload()))
    for folder in folders:
        files = {n: hashlib.sha256((folder / n).read_bytes()).hexdigest() for n in FILES}
        manifest = {"format": FORMAT, "step": int(folder.name[5:]), "files": files}
        (folder / "checkpoint.json").write_text(json.dumps(manifest))
    with open(folders[1] / "policy.safetensors", "r+b") as fh:  # a changed byte after the manifest was written
        fh.seek(40)
        byte = fh.read(1)
        fh.seek(40)
        fh.write(bytes([byte[0] ^ 1]))
    found, skipped = find_intact(run)
    assert found is not None and found.step == 96
    assert [name for name, _ in skipped] == [folders[2].name, folders[1].name]
    assert "plain data" in skipped[0][1] and "SHA-256" in skipped[1][1]
    assert not (tmp_path / "pwned").exists()
