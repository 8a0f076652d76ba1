"""The batched self-play trainer end to end: a tiny run (seconds), exact resume (simulated and after SIGKILL),
fallback past a corrupt checkpoint, the CLI, and the config errors of the engine choice.

Three-card high card (the example game, three seats, batched) gives a league
with snapshots and scripted members whose state must survive a resume; the
runs check the machinery, not learning (the demo and docs/training.md show that).
"""

from __future__ import annotations

import csv
import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np
import pytest
import torch
import yaml

from pokerzoo.agents.policy_file import read_policy
from pokerzoo.envs.engine.options import ConfigError
from pokerzoo.training import checkpoint as ckpt
from pokerzoo.training.config import load_config
from pokerzoo.training.engines import make_trainer, resume_trainer
from pokerzoo.training.selfplay import checkpoint as sp_ckpt
from pokerzoo.training.selfplay.loop import SelfPlay
from pokerzoo.training.selfplay.trainer import SelfPlayTrainer

GAME, OPTIONS = "high_card_v0", {"num_players": 3}
TOTAL, EVERY = 3000, 1024


def tiny(**changes) -> dict:
    cfg = {
        "game": GAME,
        "options": OPTIONS,
        "seed": 5,
        "total_timesteps": TOTAL,
        "n_envs": 48,
        "checkpoint_every": 600,
        "keep_checkpoints": 50,
        "league": {"self_play": 0.5, "scripted": ["random"], "snapshot_every": 2, "max_snapshots": 2},
        "ppo": {"n_steps": 5, "batch_size": 64, "n_epochs": 2, "net_arch": [16],
                "learning_rate": {"start": 1e-3, "end": 1e-4}, "ent_coef": {"start": 0.02, "end": 0.0}},
        "eval": {"every": EVERY, "deals": 6, "baselines": ["random", "threshold"], "final_deals": 8,
                 "final_workers": 1},
    }  # fmt: skip
    for key, value in changes.items():
        node = cfg
        parts = key.split("__")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return cfg


def csv_rows(path: Path, drop: tuple[str, ...] = ("time/",)) -> list[dict]:
    with open(path, newline="") as fh:
        return [{k: v for k, v in r.items() if not k.startswith(drop)} for r in csv.DictReader(fh)]


def assert_same_params(a: Path, b: Path) -> None:
    pa, pb = read_policy(a).tensors, read_policy(b).tensors
    assert pa.keys() == pb.keys()
    for k in pa:
        np.testing.assert_array_equal(pa[k], pb[k], err_msg=f"parameter {k} differs")


def killed_copy(run: Path, middle: Path, copy: Path) -> Path:
    """A copy of finished ``run`` as a kill right after its checkpoint ``middle`` leaves it: no final folder, no
    later checkpoints or snapshots, ``latest`` naming ``middle``."""
    step = ckpt.step_of(middle)
    shutil.copytree(run, copy)
    shutil.rmtree(copy / "final")
    for folder in ckpt.candidates(copy):
        if ckpt.step_of(folder) > step:
            shutil.rmtree(folder)
    (copy / "checkpoints" / "latest").write_text(middle.name + "\n")
    for extra in (copy / "snapshots").glob("step_*"):  # the killed run had not made these yet
        if int(extra.stem.split("_")[1]) > step:
            extra.unlink()
    return copy


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An uninterrupted tiny run: the reference of the resume tests."""
    run = tmp_path_factory.mktemp("selfplay") / "run"
    cfg = load_config(tiny())
    trainer = make_trainer(cfg, run, progress=False)
    assert isinstance(trainer, SelfPlayTrainer)
    return run, trainer.train()


def test_tiny_run_writes_the_run_folder(reference):
    from pokerzoo.agents.registry import make_agent
    from pokerzoo.envs import game_class
    from pokerzoo.evaluation.tournament import play_game

    run, report = reference
    for name in ("config.yaml", "progress.csv", "evals.csv", "final/policy.json", "final/policy.safetensors",
                 "final/report.md", "final/report.json", "final/learning_curve.png", "final/config.yaml"):  # fmt: skip
        assert (run / name).is_file(), name
    assert any((run / "tb").iterdir())
    assert yaml.safe_load((run / "config.yaml").read_text())["engine"] == "batched"
    progress = csv_rows(run / "progress.csv", ())
    steps = [int(r["time/total_timesteps"]) for r in progress]
    assert steps == sorted(steps) and steps[-1] >= TOTAL > steps[-2]
    assert all(float(r["time/loop_steps_per_s"]) > 0 and float(r["time/loop_cpu_steps_per_s"]) > 0 for r in progress)
    assert {"rollout/ep_rew_mean", "rollout/ep_rew_mean_league", "train/approx_kl", "train/value_loss",
            "league/random/win_rate", "league/min_win_rate"} <= set(progress[0])  # fmt: skip
    evals = csv_rows(run / "evals.csv")
    marks = sorted({int(r["timesteps"]) for r in evals})
    assert marks[0] == 0 and len(marks) == 1 + TOTAL // EVERY  # at the start, then past every 1024 decisions
    assert all(m // EVERY > p // EVERY for p, m in itertools.pairwise(marks))
    assert {r["baseline"] for r in evals} == {"random", "threshold"}
    updates = len(progress)
    snapshots = sorted((run / "snapshots").glob("*.json"))
    assert len(snapshots) == (updates - 1) // 2  # every second update, none at the very end
    tp = report["throughput"]
    assert tp["engine"] == "batched" and tp["timesteps"] == steps[-1] and tp["updates"] == updates
    assert tp["league"][0]["name"] == "random" and len(tp["league"]) == 3  # random + 2 snapshots
    text = (run / "final" / "report.md").read_text()
    assert "PPO on the batched engine" in text and "of CPU time" in text and "paired difference" in text
    agent = make_agent(GAME, f"policy:{run}")
    game = game_class(GAME)(seed=0, **OPTIONS)
    play_game(game, [agent, make_agent(GAME, "random", seed=1), make_agent(GAME, "threshold")])
    assert game.is_over and agent.meta["provenance"]["timesteps"] == steps[-1]


def test_resume_from_a_mid_run_checkpoint_gives_the_same_run(reference, tmp_path):
    """A kill right after a mid-run checkpoint, simulated: the resumed run ends bit for bit the same."""
    run, _ = reference
    # a mid-run checkpoint holding decisions still open (carried to the next rollout) and snapshots
    middle = next(f for f in ckpt.candidates(run)[1:] if (sp_ckpt.read(f).arrays["buffer/open"] >= 0).sum() > 0
                  and sp_ckpt.read(f).state["loop"]["league"]["next_id"] > 2)  # fmt: skip
    copy = killed_copy(run, middle, tmp_path / "copy")
    trainer = resume_trainer(copy, progress=False)
    assert isinstance(trainer, SelfPlayTrainer) and trainer._resume_from.name == middle.name
    assert trainer._checkpoint.arrays["buffer/open"].shape == (48, 3)
    trainer.train()
    assert_same_params(run / "final" / "policy.json", copy / "final" / "policy.json")
    assert csv_rows(copy / "progress.csv") == csv_rows(run / "progress.csv")
    assert csv_rows(copy / "evals.csv", ("seconds",)) == csv_rows(run / "evals.csv", ("seconds",))
    assert trainer.state["resumes"] == 1
    report = json.loads((copy / "final" / "report.json").read_text())
    assert report["throughput"]["league"] == json.loads((run / "final" / "report.json").read_text())[
        "throughput"]["league"]  # fmt: skip


def test_resume_after_sigkill_ends_with_identical_weights(reference, tmp_path):
    """A real SIGKILL of `pokerzoo train` after a checkpoint, then `--resume`: the weights and logs of the
    uninterrupted run."""
    run, _ = reference
    config = tmp_path / "tiny.yaml"
    config.write_text(yaml.safe_dump(tiny()))
    killed = tmp_path / "killed"
    cmd = [sys.executable, "-m", "pokerzoo.cli.main", "train", str(config), "--out", str(killed), "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    latest = killed / "checkpoints" / "latest"
    deadline = time.monotonic() + 600
    while not latest.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert latest.exists(), f"no checkpoint before the kill: {proc.stderr.read().decode()[-2000:]}"
    if (killed / "final").exists():
        pytest.skip("the run finished before it could be killed (machine too fast for this test)")
    from pokerzoo.cli.main import main

    assert main(["train", "--resume", str(killed), "--no-progress"]) == 0
    assert_same_params(run / "final" / "policy.json", killed / "final" / "policy.json")
    assert csv_rows(killed / "progress.csv") == csv_rows(run / "progress.csv")
    assert "--resume" in (killed / "commands.txt").read_text()


def test_resume_skips_a_corrupt_newest_checkpoint_and_names_it(reference, tmp_path):
    run, _ = reference
    copy = tmp_path / "copy"
    shutil.copytree(run, copy)
    shutil.rmtree(copy / "final")
    newest, older = ckpt.candidates(copy)[:2]
    (newest / "arrays.npz").write_bytes(b"not an archive")
    trainer = SelfPlayTrainer.resume(copy, progress=False)
    assert trainer._resume_from == older
    assert trainer.skipped_checkpoints == [(newest.name, "arrays.npz does not match its SHA-256 in checkpoint.json "
                                                         "(truncated or changed)")]  # fmt: skip
    for folder in ckpt.candidates(copy):
        (folder / "state.pt").unlink()
    with pytest.raises(ckpt.CheckpointError, match=r"no intact checkpoint.*state.pt is missing"):
        SelfPlayTrainer.resume(copy, progress=False)


def test_a_checkpoint_of_the_other_engine_is_named(reference, tmp_path):
    run, _ = reference
    folder = tmp_path / "step_000000000001"
    shutil.copytree(ckpt.candidates(run)[0], folder)
    manifest = json.loads((folder / ckpt.MANIFEST).read_text())
    (folder / ckpt.MANIFEST).write_text(json.dumps({**manifest, "format": ckpt.FORMAT}))
    with pytest.raises(ckpt.CheckpointError, match="engine aec"):
        sp_ckpt.read(folder)
    with pytest.raises(ckpt.CheckpointError):
        ckpt.read(ckpt.candidates(run)[0])  # and the other reader refuses this one


def test_a_finished_run_is_not_overwritten(reference):
    run, _ = reference
    with pytest.raises(ValueError, match="already holds a run"):
        SelfPlayTrainer(load_config(tiny()), run, progress=False).train()


def test_a_shipped_batched_run_says_which_trainer_made_it(reference, tmp_path):
    from pokerzoo.training.shipping import ship_policy

    run, _ = reference
    (run / "commands.txt").write_text("2026-01-01 00:00:00 pokerzoo train tiny.yaml\n")
    path = ship_policy(run, "tiny", dest=tmp_path)
    tp = json.loads(path.read_text())["provenance"]["throughput"]
    readme = (path.parent / "README.md").read_text()
    assert tp["engine"] == "batched" and "MaskablePPO" not in readme
    assert f"PPO on the batched engine (self-play league), {tp['timesteps']:,} learner decisions" in readme
    assert f"{tp['learner_steps_per_second']:,.0f} wall" in readme and "from scratch" in readme


def test_a_mean_of_the_runs_checkpoints_ships_with_them_named_and_no_final_evaluation(reference, tmp_path, capsys):
    from pokerzoo.agents.policy_file import read_policy
    from pokerzoo.cli.main import main
    from pokerzoo.training.policy_average import average_policies
    from pokerzoo.training.shipping import ship_policy

    run, _ = reference
    (run / "commands.txt").write_text("2026-01-01 00:00:00 pokerzoo train tiny.yaml\n")
    checkpoints = sorted((run / "checkpoints").glob("step_*/policy.json"))[-2:]
    mean = average_policies(checkpoints, tmp_path / "mean.json")
    path = ship_policy(run, "tiny", dest=tmp_path / "ship", policy=mean)
    shipped, averaged = read_policy(path), read_policy(mean)
    for k, t in averaged.tensors.items():
        np.testing.assert_array_equal(shipped.tensors[k], t)
    provenance = shipped.document["provenance"]
    assert [a["path"] for a in provenance["averaged"]] == [str(c) for c in checkpoints]
    report = json.loads((run / "final" / "report.json").read_text())
    assert provenance["evaluation"] == [] and provenance["run"] == report["run"]
    readme = (path.parent / "README.md").read_text()
    steps = ", ".join(f"{a['timesteps']:,}" for a in provenance["averaged"])
    assert f"shipped as the uniform mean of the weights of its checkpoints at {steps} decisions" in readme
    assert "| agent | vs |" not in readme  # no final evaluation copied: it was made with the final policy
    with pytest.raises(ValueError, match=r"--policy .*: it averages .*, not a checkpoint of"):
        ship_policy(_copy_run(run, tmp_path / "other"), "tiny", dest=tmp_path / "ship", policy=mean)
    with pytest.raises(ValueError, match=r"not a mean of checkpoints"):
        ship_policy(run, "tiny", dest=tmp_path / "ship", policy=checkpoints[0])
    assert main(["train", "--policy", str(mean)]) == 2
    assert f"--policy {mean} is for --ship RUN_DIR" in capsys.readouterr().err


def _copy_run(run: Path, to: Path) -> Path:
    """Another finished run folder (its config and final report, no checkpoints)."""
    (to / "final").mkdir(parents=True)
    for name in ("config.yaml", "commands.txt", "final/report.json", "final/policy.json", "final/policy.safetensors"):
        (to / name).write_bytes((run / name).read_bytes())
    return to


def test_cli_trains_on_the_batched_engine_by_default(tmp_path, capsys):
    from pokerzoo.cli.main import main

    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump(tiny(total_timesteps=300, checkpoint_every=0, eval__every=0)))
    out = tmp_path / "run"
    assert main(["train", str(config), "--out", str(out), "--no-progress", "--set", "league.self_play=1.0"]) == 0
    text = capsys.readouterr().out
    assert "(engine batched)" in text and "stops at the first rollout end past 300" in text
    assert f"policy:{out}" in text and "paired difference" in text
    assert yaml.safe_load((out / "config.yaml").read_text())["league"]["self_play"] == 1.0
    assert main(["train", "--resume", str(out), "--timesteps", "600", "--no-progress"]) == 0
    assert json.loads((out / "final" / "report.json").read_text())["throughput"]["timesteps"] >= 600


# --------------------------------------------------------------------------- config
@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"engine": "gpu"}, "engine='gpu' is not allowed"),
        ({"opponents": {"self_play": 1.0}}, "opponents is a key of engine aec; .*engine batched .the default for "
                                            "high_card_v0.: remove opponents or set engine: aec"),
        ({"vec_env": "dummy"}, "vec_env is a key of engine aec"),
        ({"pretrain": {"teacher": "threshold"}}, "pretrain is a key of engine aec"),
        ({"engine": "aec"}, "league is a key of engine batched; this config trains with engine aec: remove"),
        ({"engine": "aec", "league": {}, "n_envs": 4096}, "n_envs=4096 is out of range for engine aec"),
        ({"league": {"scripted": ["nobody"]}}, "league: member 'nobody': 'nobody' is not a batched agent of "
                                               "high_card_v0; league members and batched matches take: random"),
        ({"league": {"scripted": ["random", "random"]}}, "listed twice"),
        ({"league": {"self_play": 1.5}}, "self_play=1.5 is out of range"),
        ({"league": {"varied": -0.1}}, "section league: option varied=-0.1 is out of range"),
        ({"league": {"pfsp_power": -1}}, "pfsp_power=-1"),
        ({"league": {"snapshot_every": -1}}, "snapshot_every=-1"),
        ({"league": {"weights": {"random": 1}}}, r"league.weights: no weight for 'snapshots'; the weights name "
                                                 r"exactly the members: random, snapshots \(snapshots: when snapshot_"),
        ({"league": {"weights": {"random": 1, "ppo": 1}, "snapshot_every": 0}}, "'ppo' is not a member"),
        ({"league": {"weights": {"random": -1}}}, "weights.*weight of 'random' is -1; expected a finite number >= 0"),
        ({"league": {"weights": {"random": 0, "snapshots": 1}}}, "every scripted member weighs 0"),
        ({"league": {"weights": {"random": 0}, "snapshot_every": 0}}, "every weight is 0"),
        ({"league": {"weights": [1]}}, r"weights.*expected a mapping \{member: weight\}"),
        ({"league": {"mixed_members": ["ppo"], "mixed": 0.5}},
         r"league.mixed_members: 'ppo' is not a scripted member \(random\)"),
        ({"league": {"mixed_members": ["random"]}}, "mixed_members without mixed tables"),
        ({"n_envs": 1 << 21}, "n_envs=2097152 is out of range"),
        ({"n_envs": 1 << 20, "ppo": {"n_steps": 4096, "batch_size": 64}}, "GiB of buffer.*lower n_envs or ppo.n_steps"),
        ({"ppo": {"n_steps": 1, "batch_size": 64}, "n_envs": 8}, "batch_size 64 exceeds a rollout"),
        ({"eval": {"periodic_engine": "batched", "baselines": ["threshold"]}},
         "eval.baselines .periodic_engine batched.: 'threshold' is not a batched agent of high_card_v0"),
        ({"eval": {"periodic_engine": "gpu"}}, "periodic_engine='gpu' is not allowed"),
    ],
)
def test_bad_configs_are_named(changes, message):
    with pytest.raises(ConfigError, match=message):
        load_config(tiny(**changes))


def test_periodic_evaluations_on_the_batched_engine_fill_the_same_rows(tmp_path):
    from pokerzoo.evaluation.batched import head_to_head
    from pokerzoo.training.final_report import evaluate_pair_batched
    from pokerzoo.training.selfplay.league import batched_agent

    cfg = load_config(tiny(total_timesteps=1500, eval={"every": 1024, "deals": 300, "baselines": ["random"],
                                                       "periodic_engine": "batched", "final_deals": 8,
                                                       "final_baselines": ["random", "threshold"],
                                                       "final_workers": 1}))  # fmt: skip
    run = tmp_path / "run"
    make_trainer(cfg, run, progress=False).train()
    evals = csv_rows(run / "evals.csv")
    assert [(int(r["timesteps"]) > 0, r["baseline"], r["deals"], r["games"]) for r in evals] == [
        (False, "random", "300", "600"), (True, "random", "300", "600")]  # two lineups a deal: ABA and BAB
    assert all(r["learned_per_unit"] == "" and float(r["difference_low"]) < float(r["difference_high"])
               for r in evals)  # fmt: skip
    policy = f"policy:{run / 'final' / 'policy.json'}"
    row = evaluate_pair_batched(cfg, policy, "random", 300)["row"]
    agents = [(a, batched_agent(GAME, OPTIONS, a)) for a in (policy, "random")]
    h = head_to_head(GAME, agents, deals=300, seed=cfg["eval"]["seed"], config=OPTIONS)
    assert (row["learned"], row["baseline_reward"], row["difference"], row["difference_low"],
            row["learned_win_rate"]) == (h.reward_per_game[0].mean, h.reward_per_game[1].mean, h.difference.mean,
                                         h.difference.low, h.win_rate[0].mean)  # fmt: skip


def test_engine_defaults_follow_the_game():
    batched = load_config({"game": "high_card"})
    assert batched["engine"] == "batched" and batched["n_envs"] == 4096 and batched["ppo"]["n_steps"] == 16
    aec = load_config({"game": "high_card", "engine": "aec"})
    assert aec["n_envs"] == 16 and aec["ppo"]["n_steps"] == 512
    assert load_config({"game": "perico"})["engine"] == ("batched" if _has_kernel("perico") else "aec")
    if not _has_kernel("mexican_poker"):
        with pytest.raises(ConfigError, match=r"mexican_poker_v0 has no batched kernel yet.*use engine: aec"):
            load_config({"game": "mexican_poker", "engine": "batched"})


def test_a_run_folder_without_engine_resumes_with_the_aec_trainer(tmp_path):
    from pokerzoo.training.train import Trainer

    (tmp_path / "config.yaml").write_text(yaml.safe_dump({"game": "high_card", "n_envs": 2, "vec_env": "dummy",
                                                          "opponents": {"scripted": {"random": 1.0}}}))  # fmt: skip
    with pytest.raises(ckpt.CheckpointError, match="no intact checkpoint"):
        resume_trainer(tmp_path)
    from pokerzoo.training.config import load_run_config
    from pokerzoo.training.engines import trainer_class

    assert trainer_class(load_run_config(tmp_path)) is Trainer


def _has_kernel(game: str) -> bool:
    from pokerzoo.envs.batched import BATCHED_GAMES

    return f"{game}_v0" in BATCHED_GAMES


def test_demo_trains_on_the_batched_engine_prints_the_curve_and_the_report(tmp_path, capsys):
    from pokerzoo.cli.main import main

    config = tmp_path / "demo.yaml"
    config.write_text(yaml.safe_dump(tiny(total_timesteps=600, eval__every=300, checkpoint_every=0)))
    args = ["demo", "--config", str(config), "--games", "6", "--workers", "1", "--out", str(tmp_path), "--no-progress"]
    assert main(args) == 0
    out = capsys.readouterr().out
    run = next(tmp_path.glob("high_card-train-*"))
    assert "(engine batched)" in out and "learner decisions/s end to end" in out
    assert "| learner decisions | vs random | vs threshold |" in out and "| 0 | " in out
    assert f"policy:{run}" in out and "Paired differences" in out
    assert out.rstrip().splitlines()[-1].startswith(f"report: {run / 'demo_evaluation' / 'report.md'}")
    with pytest.raises(ValueError, match="--game perico but the config"):
        from pokerzoo.cli import demo

        demo.run_training(demo_args(config))


def demo_args(config: Path):
    import argparse

    return argparse.Namespace(config=str(config), game="perico", timesteps=None, games=None, out="x", seed=0,
                              workers=1, progress=False)  # fmt: skip


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="one numba thread on this machine")
def test_kernel_threads_play_the_same_games_and_learn_the_same_weights():
    """The parallel loops (env rows and the batched heuristic's rows on numba's threads) change nothing."""
    runs = []
    for threads in (1, 2):
        changes = {"game": "raspisnoy_poker_v0", "options": {"schedule": "single"}, "n_envs": 1024,
                   "kernel_threads": threads, "league__scripted": ["heuristic"], "eval__baselines": ["random"]}
        cfg = load_config(tiny(**changes))
        loop = SelfPlay({**cfg, "total_timesteps": 10**9})
        assert loop.env.parallel == (threads > 1)
        loop.start()
        figures = [loop.iterate() for _ in range(2)]
        runs.append((loop, [{k: v for k, v in f.items() if not k.startswith("time/")} for f in figures]))
    (serial, a), (parallel, b) = runs
    assert a == b
    np.testing.assert_array_equal(serial.env.obs, parallel.env.obs)
    for (name, x), (_, y) in zip(serial.model.state_dict().items(), parallel.model.state_dict().items(), strict=True):
        assert torch.equal(x, y), name
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


def test_more_kernel_threads_than_numba_has_are_named():
    cfg = load_config(tiny(kernel_threads=numba.config.NUMBA_NUM_THREADS + 1))
    with pytest.raises(ValueError, match=r"kernel_threads=\d+: numba has \d+ threads on this machine"):
        SelfPlay(cfg)


def test_kernel_threads_is_a_key_of_the_batched_engine():
    with pytest.raises(ConfigError, match="kernel_threads is a key of engine batched; this config trains with engine"):
        load_config({"game": "high_card", "engine": "aec", "kernel_threads": 2})


def test_kernel_threads_zero_takes_every_numba_thread():
    loop = SelfPlay(load_config(tiny(kernel_threads=0)))
    assert loop.env.parallel == (numba.config.NUMBA_NUM_THREADS > 1)
    assert numba.get_num_threads() == numba.config.NUMBA_NUM_THREADS


def test_a_member_named_with_commas_keeps_progress_csv_one_column_per_key(tmp_path):
    member = "equity(sampler=fast, stop_z=3.0)"
    cfg = load_config(tiny(game="breed_the_heifer_v0", options={}, total_timesteps=600, eval__every=0,
                           eval__baselines=["random"], eval__final_deals=4,
                           league={"scripted": [member, "random"], "snapshot_every": 0,
                                   "weights": {member: 3, "random": 1}}))  # fmt: skip
    make_trainer(cfg, tmp_path / "run", progress=False).train()
    with open(tmp_path / "run" / "progress.csv", newline="") as fh:
        rows = list(csv.reader(fh))
    assert len({len(r) for r in rows}) == 1  # every row as long as the header
    header = dict(zip(rows[0], rows[-1], strict=True))
    assert float(header["league/equity(sampler=fast; stop_z=3.0)/weight"]) == 0.75
    assert float(header["league/random/weight"]) == 0.25
