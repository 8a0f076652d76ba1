"""The trainer: config validation, a tiny run end to end, exact resume (simulated and after SIGKILL), the CLI.

The runs here are tiny (a few thousand learner steps, envs in-process) so the
module stays fast; they check the machinery (files, numbers carried across a
resume bit for bit, reports), not learning. Learning is measured by the
shipped policies' reports (docs/training.md).
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import yaml

from pokerzoo.envs import canonical
from pokerzoo.envs.engine.options import ConfigError
from pokerzoo.evaluation.tournament import installed_games
from pokerzoo.training.config import load_config
from pokerzoo.training.resume import rng_preserved, truncate_csv
from pokerzoo.training.train import Trainer

GAMES = installed_games()
CARIBBEAN = "caribbean_stud_v0"
# A multi-player game for the self-play checks (its opponents' state must survive a resume).
LEAGUE_GAME = next((g for g in ("perico_v0", "breed_the_heifer_v0", "mexican_poker_v0") if g in GAMES), CARIBBEAN)
LEAGUE_OPTIONS = {"mexican_poker_v0": {"rounds": 2}}.get(LEAGUE_GAME, {})


def tiny(game: str = CARIBBEAN, **changes) -> dict:
    cfg = {
        "game": game,
        "engine": "aec",  # these tests are the MaskablePPO trainer's (tests/training/test_selfplay_*: the batched one)
        "options": LEAGUE_OPTIONS if game == LEAGUE_GAME else {},
        "seed": 3,
        "total_timesteps": 1024,
        "n_envs": 4,
        "vec_env": "dummy",
        "checkpoint_every": 256,
        "keep_checkpoints": 20,
        "ppo": {
            "n_steps": 32,
            "batch_size": 64,
            "n_epochs": 2,
            "net_arch": [16],
            "learning_rate": {"start": 1e-3, "end": 1e-4},
            "ent_coef": {"start": 0.02, "end": 0.0},
        },
        "eval": {"every": 512, "deals": 6, "baselines": ["random"], "final_deals": 8, "final_workers": 1},
    }
    if game != CARIBBEAN:
        cfg["opponents"] = {"scripted": {"random": 1.0}, "self_play": 1.0, "snapshot_every": 256}
    for key, value in changes.items():
        node = cfg
        parts = key.split("__")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return cfg


def policy_params(path: Path) -> dict[str, np.ndarray]:
    from pokerzoo.agents.policy_file import read_policy

    return read_policy(path).tensors


def assert_same_params(a: Path, b: Path) -> None:
    pa, pb = policy_params(a), policy_params(b)
    assert pa.keys() == pb.keys()
    for k in pa:
        np.testing.assert_array_equal(pa[k], pb[k], err_msg=f"parameter {k} differs")


def csv_rows(path: Path, drop_prefix: tuple[str, ...] = ("time/",)) -> list[dict]:
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    return [{k: v for k, v in r.items() if not k.startswith(drop_prefix)} for r in rows]


# --------------------------------------------------------------------------- config
def test_config_defaults_and_overrides():
    cfg = load_config(tiny(), {"ppo.n_epochs": 3, "eval.deals": 9})
    assert cfg["ppo"]["n_epochs"] == 3 and cfg["eval"]["deals"] == 9
    assert cfg["game"] == CARIBBEAN and cfg["name"] == CARIBBEAN
    assert cfg["ppo"]["learning_rate"] == {"start": 1e-3, "end": 1e-4}
    assert cfg["opponents"]["scripted"] == {"random": 1.0}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"epochs": 3}, "unknown option epochs"),
        ({"ppo__n_step": 3}, "section ppo: unknown option n_step"),
        ({"ppo__gamma": 1.5}, "gamma=1.5 is out of range"),
        ({"ppo__activation": "gelu"}, "activation='gelu' is not allowed"),
        ({"ppo__net_arch": [0]}, "layer sizes"),
        ({"ppo__ent_coef": {"start": 0.1}}, "schedule"),
        ({"ppo__batch_size": 4096}, "batch_size 4096 exceeds a rollout"),
        ({"options": {"boxs": 2}}, "options: unknown option boxs"),
        ({"eval__baselines": ["nobody"]}, "agent 'nobody'"),
        ({"opponents__scripted": {"random": -1}}, "weight"),
        ({"opponents__scripted": {"random(depth=2)": 1}}, "opponents: agent 'random\\(depth=2\\)'"),
        ({"vec_env": "threads"}, "vec_env='threads'"),
        ({"game": "go_fish"}, "unknown game 'go_fish'"),
        # a policy trained with more actions (ante choices) cannot play the evaluations' default game: refused
        # before the run, not after it
        (
            {"options": {"ante_choices": [1, 2]}},
            r"eval.options: caribbean_stud_v0 with these options has 2 actions .* the training env \(options "
            r"\{'ante_choices': \[1, 2\]\}\) 4 and 179: the trained policy could not play there",
        ),
        (
            {"options": {"ante_choices": [1, 2]}, "eval__options": {"ante_choices": [1, 2]}, "eval__final_options": {}},
            "eval.final_options: caribbean_stud_v0 with these options has 2 actions",
        ),
    ],
)
def test_bad_configs_are_named(changes, message):
    with pytest.raises((ConfigError, ValueError), match=message):
        load_config(tiny(**changes))


def test_config_file_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="not found"):
        load_config(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: [unclosed\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(bad)
    no_game = tmp_path / "no_game.yaml"
    no_game.write_text("seed: 1\n")
    with pytest.raises(ConfigError, match="'game' is required"):
        load_config(no_game)


@pytest.mark.parametrize(
    "path",
    sorted(Path(__file__).parents[2].joinpath("configs").glob("*/*.yaml")),
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_shipped_configs_are_valid(path):
    game = path.parent.name
    assert canonical(game) == f"{game}_v0", f"configs/{game}/ is named after no registered game"
    cfg = load_config(path)
    assert cfg["game"] == f"{game}_v0"


# --------------------------------------------------------------------------- a tiny run
@pytest.fixture(scope="module")
def league_run(tmp_path_factory):
    """An uninterrupted tiny self-play run (the reference of the resume tests)."""
    run = tmp_path_factory.mktemp("league") / "run"
    report = Trainer(load_config(tiny(LEAGUE_GAME)), run, progress=False).train()
    return run, report


def test_tiny_run_writes_logs_checkpoints_and_a_report(league_run):
    from pokerzoo.agents.registry import make_agent
    from pokerzoo.envs import game_class
    from pokerzoo.evaluation.tournament import play_game

    run, report = league_run
    for name in (
        "config.yaml",
        "progress.csv",
        "evals.csv",
        "final/policy.json",
        "final/policy.safetensors",
        "final/report.md",
        "final/report.json",
        "final/learning_curve.png",
        "final/config.yaml",
    ):
        assert (run / name).is_file(), name
    assert any((run / "tb").iterdir())
    progress = csv_rows(run / "progress.csv", ())
    assert [int(r["time/total_timesteps"]) for r in progress] == list(range(128, 1025, 128))
    assert all(float(r["time/collect_steps_per_s"]) > 0 for r in progress)
    evals = csv_rows(run / "evals.csv")
    assert [int(r["timesteps"]) for r in evals] == [0, 512]  # before the first update, then every 512
    if LEAGUE_GAME != CARIBBEAN:
        assert len(list((run / "snapshots").glob("*.json"))) == 3  # at 256, 512, 768 (1024 is the end)
        assert len(list((run / "snapshots").glob("*.safetensors"))) == 3
    assert not (run / "evals").exists() or not any((run / "evals").iterdir())  # evaluated policies are removed
    assert report["throughput"]["timesteps"] == 1024
    assert report["final"][0]["baseline"] == "random" and report["final"][0]["deals"] == 8
    text = (run / "final" / "report.md").read_text()
    assert "paired difference" in text and "learning_curve.png" in text
    # The final policy plays as an agent, by run folder.
    agent = make_agent(LEAGUE_GAME, f"policy:{run}")
    game = game_class(LEAGUE_GAME)(seed=0, **LEAGUE_OPTIONS)
    n = game.num_players
    play_game(game, [agent] + [make_agent(LEAGUE_GAME, "random", seed=s) for s in range(1, n)])
    assert game.is_over
    assert agent.meta["game"] == LEAGUE_GAME and agent.meta["provenance"]["timesteps"] == 1024
    assert agent.meta["provenance"]["config"]["seed"] == 3  # the training config travels with the policy


def test_resume_from_a_mid_run_checkpoint_gives_the_same_run(league_run, tmp_path):
    """Simulated kill right after the checkpoint at step 512: the resumed run ends bit-for-bit the same."""
    run, _ = league_run
    copy = tmp_path / "copy"
    shutil.copytree(run, copy)
    shutil.rmtree(copy / "final")
    for ckpt in (copy / "checkpoints").iterdir():
        if ckpt.is_dir() and int(ckpt.name.split("_")[1]) > 512:
            shutil.rmtree(ckpt)
    (copy / "checkpoints" / "latest").write_text(f"step_{512:012d}\n")
    for extra in (copy / "snapshots").glob("step_*"):  # the killed run had not made these yet
        if int(extra.stem.split("_")[1]) > 512:
            extra.unlink()
    trainer = Trainer.resume(copy, progress=False)
    trainer.train()
    assert_same_params(run / "final" / "policy.json", copy / "final" / "policy.json")
    assert csv_rows(copy / "progress.csv") == csv_rows(run / "progress.csv")
    assert csv_rows(copy / "evals.csv", ("seconds",)) == csv_rows(run / "evals.csv", ("seconds",))
    assert trainer.state["resumes"] == 1


def test_resume_after_sigkill_continues_from_the_checkpoint(league_run, tmp_path):
    """A real kill (SIGKILL) of `pokerzoo train` after its first checkpoint, then a resume: the same
    final policy and logs as the uninterrupted run of the same config."""
    reference, _ = league_run
    config = tmp_path / "tiny.yaml"
    config.write_text(yaml.safe_dump(tiny(LEAGUE_GAME)))
    killed = tmp_path / "killed"
    cmd = [
        sys.executable,
        "-m",
        "pokerzoo.cli.main",
        "train",
        str(config),
        "--out",
        str(killed),
        "--no-progress",
    ]
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
    stopped_at = latest.read_text().strip()
    assert stopped_at != f"step_{1024:012d}"

    trainer = Trainer.resume(killed, progress=False)
    assert trainer._resume_from.name == stopped_at
    trainer.train()
    assert_same_params(reference / "final" / "policy.json", killed / "final" / "policy.json")
    assert csv_rows(killed / "progress.csv") == csv_rows(reference / "progress.csv")


@pytest.mark.slow
def test_a_checkpoint_resumes_exactly_in_worker_processes(tmp_path):
    """Checkpoint of an in-process run at step 256, resumed with the envs in two worker processes:
    the env states travel through the workers and the run ends exactly like the uninterrupted one."""
    a = tmp_path / "a"
    Trainer(load_config(tiny(total_timesteps=512, eval__every=0)), a, progress=False).train()
    b = tmp_path / "b"
    shutil.copytree(a, b)
    shutil.rmtree(b / "final")
    shutil.rmtree(b / "checkpoints" / f"step_{512:012d}")
    (b / "checkpoints" / "latest").write_text(f"step_{256:012d}\n")
    cfg = yaml.safe_load((b / "config.yaml").read_text())
    cfg.update(vec_env="subproc", workers=2)
    (b / "config.yaml").write_text(yaml.safe_dump(cfg))
    Trainer.resume(b, progress=False).train()
    assert_same_params(a / "final" / "policy.json", b / "final" / "policy.json")


def test_a_finished_run_is_not_overwritten(league_run):
    run, _ = league_run
    with pytest.raises(ValueError, match="--resume"):
        Trainer(load_config(tiny(LEAGUE_GAME)), run, progress=False).train()


# --------------------------------------------------------------------------- helpers
def test_rng_preserved_restores_the_global_generators():
    import random

    import torch

    np.random.seed(0)
    torch.manual_seed(0)
    random.seed(0)
    expected = (np.random.random(), torch.rand(1).item(), random.random())
    np.random.seed(0)
    torch.manual_seed(0)
    random.seed(0)
    with rng_preserved():
        np.random.random(5)
        torch.rand(5)
        random.random()
    assert (np.random.random(), torch.rand(1).item(), random.random()) == expected


def test_truncate_csv_keeps_rows_up_to_the_checkpoint(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("a,step\n1,100\n2,200\n3,300\n")
    truncate_csv(path, "step", 200)
    assert path.read_text().splitlines() == ["a,step", "1,100", "2,200"]
    truncate_csv(tmp_path / "missing.csv", "step", 1)  # nothing to do


# --------------------------------------------------------------------------- the command
def test_cli_train_and_errors(tmp_path, capsys):
    from pokerzoo.cli.main import main

    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump(tiny(total_timesteps=256, checkpoint_every=0, eval__every=0)))
    out = tmp_path / "run"
    assert (
        main(
            [
                "train",
                str(config),
                "--out",
                str(out),
                "--timesteps",
                "128",
                "--set",
                "ppo.n_epochs=1",
                "--no-progress",
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "paired difference" in text and f"policy:{out}" in text
    saved = yaml.safe_load((out / "config.yaml").read_text())
    assert saved["total_timesteps"] == 128 and saved["ppo"]["n_epochs"] == 1
    assert "pokerzoo train" in (out / "commands.txt").read_text()
    # Resuming a finished run to a longer total continues it.
    assert main(["train", "--resume", str(out), "--timesteps", "256", "--no-progress"]) == 0
    assert yaml.safe_load((out / "config.yaml").read_text())["total_timesteps"] == 256
    assert "--resume" in (out / "commands.txt").read_text()
    capsys.readouterr()
    assert main(["train"]) == 2
    assert "give a config file" in capsys.readouterr().err
    assert main(["train", str(config), "--resume", str(out)]) == 2
    assert main(["train", str(tmp_path / "none.yaml")]) == 2
    assert "not found" in capsys.readouterr().err
    assert main(["train", "--resume", str(tmp_path)]) == 2
    assert "not a training run folder" in capsys.readouterr().err


def test_demo_trains_then_compares_with_the_baselines(tmp_path, capsys):
    from pokerzoo.cli import demo
    from pokerzoo.cli.main import main

    config = tmp_path / "demo.yaml"
    config.write_text(yaml.safe_dump(tiny(total_timesteps=256, checkpoint_every=0, eval__every=0)))
    assert (
        main(
            [
                "demo",
                "--config",
                str(config),
                "--games",
                "30",
                "--workers",
                "1",
                "--out",
                str(tmp_path),
                "--no-progress",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    run = next(tmp_path.glob("caribbean_stud-train-*"))
    assert f"policy:{run}" in out and "rules_of_thumb" in out and "Paired differences" in out
    assert (run / "demo_evaluation" / "report.md").is_file() and (run / "final" / "policy.json").is_file()
    assert "exact_ev" not in demo.training_baselines(CARIBBEAN)
    # The scripted evaluation of every game is still there, shipped policies included.
    assert (
        main(
            [
                "demo",
                "--scripted",
                "--only",
                "caribbean_stud",
                "--games",
                "5",
                "--workers",
                "1",
                "--out",
                str(tmp_path / "scripted"),
            ]
        )
        == 0
    )
    assert "rules_of_thumb" in capsys.readouterr().out
    assert (tmp_path / "scripted" / CARIBBEAN / "report.md").is_file()


def test_docs_describe_every_config_key():
    from pokerzoo.training import config as train

    doc = (Path(__file__).parents[2] / "docs" / "training.md").read_text()
    for options in (train.TOP, *train.SECTIONS.values()):
        for name, *_ in options.describe():
            assert f"`{name}`" in doc, f"docs/training.md does not describe config key {name}"


def test_ship_policy_copies_the_policy_with_its_provenance(league_run, tmp_path, monkeypatch):
    from pokerzoo.agents import policy as policy_agent
    from pokerzoo.agents.registry import make_agent
    from pokerzoo.training.shipping import ship_policy, write_policies_readme

    run, _ = league_run
    (run / "commands.txt").write_text("2026-01-01 00:00:00 pokerzoo train tiny.yaml\n")
    path = ship_policy(run, "tiny", dest=tmp_path)
    folder = tmp_path / LEAGUE_GAME.removesuffix("_v0")
    assert path == folder / "tiny.json" and (folder / "tiny.safetensors").is_file()
    assert (folder / "tiny.yaml").is_file() and (folder / "__init__.py").is_file()
    document = json.loads((folder / "tiny.json").read_text())
    meta = document["provenance"]
    assert meta["training_commands"] == ["pokerzoo train tiny.yaml"]
    assert meta["config"]["seed"] == 3 and meta["timesteps"] == 1024
    assert meta["evaluation"][0]["command"].startswith(f"pokerzoo evaluate {LEAGUE_GAME} --agents tiny random")
    assert "pokerzoo train tiny.yaml" in (folder / "README.md").read_text()
    # Evaluations made after shipping are kept in the .json and rendered with their commands.
    row = {"baseline": "random", "deals": 50, "difference": 1.5, "difference_low": 0.5, "difference_high": 2.5}
    meta["further_evaluations"] = [{"why": "more deals", "rows": [{**row, "command": "pokerzoo evaluate x"}]}]
    (folder / "tiny.json").write_text(json.dumps(document))  # provenance is outside the weights' hash
    write_policies_readme(folder)
    readme = (folder / "README.md").read_text()
    assert "Further evaluation: more deals" in readme and "| `random` | 50 | +1.5000 ± 1.0000 |" in readme
    assert "pokerzoo evaluate x" in readme
    monkeypatch.setattr(policy_agent, "POLICY_DIR", tmp_path)
    assert make_agent(LEAGUE_GAME, "tiny").name == "tiny"
    with pytest.raises(FileNotFoundError, match="final report"):
        ship_policy(tmp_path, "x", dest=tmp_path)


def test_shipping_with_float16_weights_halves_the_file_and_still_loads(league_run, tmp_path):
    from pokerzoo.agents.policy import load_policy_net
    from pokerzoo.agents.policy_file import read_policy
    from pokerzoo.training.shipping import ship_policy

    run, _ = league_run
    full = ship_policy(run, "full", dest=tmp_path)
    half = ship_policy(run, "half", dest=tmp_path, weights="float16")
    size = lambda p: p.with_suffix(".safetensors").stat().st_size  # noqa: E731
    assert size(half) < 0.75 * size(full)
    original, stored = read_policy(full), read_policy(half)
    assert {t.dtype for t in stored.tensors.values()} == {np.dtype(np.float16)}
    # The weights are the original's rounded to float16, and play in float32.
    for key, value in original.tensors.items():
        np.testing.assert_array_equal(stored.tensors[key], value.astype(np.float16))
    net_full, net_half = load_policy_net(full), load_policy_net(half)
    assert {w.dtype for w, _, _ in net_half.layers} == {np.dtype(np.float32)}
    obs = np.random.default_rng(1).random((64, net_full.observation_size), dtype=np.float32)
    np.testing.assert_allclose(net_half.logits(obs), net_full.logits(obs), atol=0.05)
    folder = half.parent
    assert json.loads((folder / "half.json").read_text())["weights"]["dtype"] == "float16"
    assert "Weights stored as float16 (half the file" in (folder / "README.md").read_text()
    with pytest.raises(ValueError, match="weights='int8': expected one of float32, float16"):
        ship_policy(run, "bad", dest=tmp_path, weights="int8")
    assert not (folder / "bad.json").exists()


def test_pretraining_imitates_the_teacher(tmp_path):
    """With PPO's learning rate at zero, the final policy is the imitation alone: it plays like the teacher."""
    from pokerzoo.agents.registry import make_agent
    from pokerzoo.envs import game_class

    cfg = tiny(
        total_timesteps=128,
        checkpoint_every=0,
        eval__every=0,
        ppo__learning_rate=0.0,
        pretrain={"teacher": "raise_pair_plus", "samples": 3000, "epochs": 6, "learning_rate": 3e-3},
    )
    cfg["ppo"]["net_arch"] = [64]
    run = tmp_path / "run"
    report = Trainer(load_config(cfg), run, progress=False).train()
    p = report["throughput"]["pretrain"]
    assert p["teacher"] == "raise_pair_plus" and p["samples"] == 3000 and p["agreement"] > 0.9
    assert "Kick-started by imitating `raise_pair_plus`" in (run / "final" / "report.md").read_text()
    learned, teacher = make_agent(CARIBBEAN, f"policy:{run}"), make_agent(CARIBBEAN, "raise_pair_plus")
    agree = 0
    for seed in range(300):
        game = game_class(CARIBBEAN)(seed=seed)
        view, mask = game.view(0), game.legal_mask()
        agree += learned.act(view, mask, game) == teacher.act(view, mask, game)
    assert agree / 300 > 0.85


def test_teacher_rollout_records_what_the_learner_would_see():
    from pokerzoo.training.single_seat import SingleSeatEnv

    env = SingleSeatEnv(LEAGUE_GAME, LEAGUE_OPTIONS)
    data = env.teacher_rollout("random", 50, seed=4)
    assert data["obs"].shape == (50, env.observation_space.shape[0])
    assert all(data["masks"][t, data["actions"][t]] for t in range(50))
    again = SingleSeatEnv(LEAGUE_GAME, LEAGUE_OPTIONS).teacher_rollout("random", 50, seed=4)
    for key in data:
        np.testing.assert_array_equal(data[key], again[key])


def test_teacher_rollout_records_only_the_chosen_kind_of_decision():
    from pokerzoo.envs import game_class
    from pokerzoo.training.single_seat import SingleSeatEnv

    env = SingleSeatEnv(LEAGUE_GAME, LEAGUE_OPTIONS)
    bidding = game_class(LEAGUE_GAME).BIDDING_PHASES
    for record in ("bidding", "play"):
        data = env.teacher_rollout("random", 40, seed=5, record=record)
        assert data["recorded"].sum() == 40 and len(data["actions"]) == len(data["obs"]) >= 40
        assert len(data["rewards"]) == len(data["dones"]) == len(data["actions"])
        # Replaying the same rollout shows each step's phase: only the chosen kind is marked as recorded.
        env.reset(seed=5)
        for kept, action in zip(data["recorded"], data["actions"]):
            assert kept == ((env.game.phase in bidding) == (record == "bidding"))
            _, _, terminated, truncated, _ = env.step(int(action))
            if terminated or truncated:
                env.reset()
    caribbean = SingleSeatEnv(CARIBBEAN)  # every Caribbean decision is a bidding one
    with pytest.raises(ValueError, match=r"record='play'.*no such decision"):
        caribbean.teacher_rollout("random", 5, seed=0, record="play")


def _seat_episodes(dones: np.ndarray) -> list[range]:
    """The step ranges of the episodes of an all-seat recording (one per seat, in seat order)."""
    ends = np.flatnonzero(dones)
    starts = np.concatenate([[0], ends[:-1] + 1])
    return [range(int(a), int(b) + 1) for a, b in zip(starts, ends, strict=True)]


def test_teacher_in_every_seat_records_each_seat_as_its_own_episode():
    from pokerzoo.training.single_seat import SingleSeatEnv

    env = SingleSeatEnv("perico_v0")
    data = env.teacher_rollout("random", 1, seed=3, seats="all")  # one decision asked: one whole game played
    game = env.game
    assert game.is_over
    episodes = _seat_episodes(data["dones"])
    assert len(episodes) == game.num_players == 4  # every Perico seat takes a turn before anyone may knock
    # Each seat's episode carries exactly that seat's rewards of the game, the last point included.
    np.testing.assert_allclose([data["rewards"][steps].sum() for steps in episodes], game.total_rewards)
    assert game.total_rewards.sum() >= 1  # the game was won, so some seat was paid
    # Every recorded action was legal where it was made.
    assert all(data["masks"][t, data["actions"][t]] for t in range(len(data["actions"])))
    assert data["recorded"].all() and len(data["actions"]) == len(data["obs"])
    again = SingleSeatEnv("perico_v0").teacher_rollout("random", 1, seed=3, seats="all")
    for key in data:
        np.testing.assert_array_equal(data[key], again[key])
    bids = env.teacher_rollout("random", 5, seed=4, record="bidding", seats="all")
    assert bids["recorded"].sum() >= 5 and not bids["recorded"].all()
    with pytest.raises(ValueError, match="seats='both': expected one of learner, all"):
        env.teacher_rollout("random", 1, seed=0, seats="both")


def test_teacher_in_every_seat_replays_as_the_game_it_recorded():
    """Replaying the recorded actions in recording order of the game's turns gives the same observations."""
    from pokerzoo.training.single_seat import SingleSeatEnv, selfplay_seeds

    env = SingleSeatEnv("perico_v0")
    data = env.teacher_rollout("random", 1, seed=8, seats="all")
    queues = [list(steps) for steps in _seat_episodes(data["dones"])]
    env.aec.reset(seed=selfplay_seeds(8, env.num_players)[0])
    replay = env.game
    while not replay.is_over:
        t = queues[replay.current_player].pop(0)
        np.testing.assert_array_equal(data["obs"][t], replay.encode(replay.view(replay.current_player)))
        env.aec.step(int(data["actions"][t]))
    assert not any(queues)


def test_pretraining_from_several_sources(tmp_path):
    cfg = tiny(
        total_timesteps=128,
        checkpoint_every=0,
        eval__every=0,
        ppo__learning_rate=0.0,
        pretrain={
            "teacher": "raise_pair_plus",
            "samples": 1000,
            "record": "bidding",
            "extra_sources": [{"teacher": "always_raise", "samples": 600, "seats": "all"}],
            "epochs": 1,
        },
    )
    report = Trainer(load_config(cfg), tmp_path / "run", progress=False).train()
    p = report["throughput"]["pretrain"]
    assert [(x["teacher"], x["recorded"]) for x in p["sources"]] == [("raise_pair_plus", 1000), ("always_raise", 600)]
    assert p["samples"] == 1600
    # The per-source counts are reported, not written into the run's config (which must still load).
    saved = yaml.safe_load((tmp_path / "run" / "final" / "config.yaml").read_text())
    assert saved["pretrain"]["extra_sources"] == [
        {"teacher": "always_raise", "samples": 600, "record": "all", "seats": "all"}
    ]
    load_config(saved)
    text = (tmp_path / "run" / "final" / "report.md").read_text()
    assert "`raise_pair_plus` on 1,000 of its bidding decisions and `always_raise` on 600 of its decisions" in text
    for bad, match in (
        ([{"samples": 5}], "entry 0: expected"),
        ([{"teacher": "random", "samples": 0}], "samples must be an int >= 1"),
        ([{"teacher": "random", "record": "some"}], "record must be one of all, bidding, play"),
        ([{"teacher": "random", "seats": "some"}], "seats must be one of learner, all"),
        ([{"teacher": "nobody"}], "teacher 'nobody'"),
    ):
        with pytest.raises(ConfigError, match=match):
            load_config(tiny(pretrain={"teacher": "random", "extra_sources": bad}))
    with pytest.raises(ConfigError, match="need a main teacher"):
        load_config(tiny(pretrain={"extra_sources": [{"teacher": "random"}]}))


def test_init_from_starts_with_another_runs_weights(league_run, tmp_path):
    """Fine-tuning: with PPO's rate at zero, a run started from a policy ends with exactly its weights."""
    source, _ = league_run
    cfg = tiny(LEAGUE_GAME, total_timesteps=128, checkpoint_every=0, eval__every=0, ppo__learning_rate=0.0)
    cfg["init_from"] = str(source)
    run = tmp_path / "run"
    report = Trainer(load_config(cfg), run, progress=False).train()
    assert report["throughput"]["init_from"] == str(source / "final" / "policy.json")
    assert "Started from the weights of" in (run / "final" / "report.md").read_text()
    assert_same_params(source / "final" / "policy.json", run / "final" / "policy.json")


def test_init_from_names_a_missing_or_mismatched_policy(league_run, tmp_path):
    source, _ = league_run
    cfg = tiny(LEAGUE_GAME, total_timesteps=128, checkpoint_every=0, eval__every=0)
    cfg["init_from"] = str(tmp_path / "nowhere")
    with pytest.raises(FileNotFoundError, match="not found"):
        Trainer(load_config(cfg), tmp_path / "a", progress=False).train()
    cfg["init_from"] = str(source)
    cfg["ppo"]["net_arch"] = [7]
    with pytest.raises(ValueError, match=r"does not match ppo\.net_arch"):
        Trainer(load_config(cfg), tmp_path / "b", progress=False).train()


def test_resume_of_a_complete_run_redoes_only_the_final_evaluation(league_run, tmp_path):
    """--timesteps equal to the checkpoint's step: no training, the final evaluation and report are made again."""
    run, report = league_run
    copy = tmp_path / "copy"
    shutil.copytree(run, copy)
    shutil.rmtree(copy / "final")
    again = Trainer.resume(copy, total_timesteps=1024, progress=False).train()
    assert again["throughput"]["timesteps"] == 1024
    assert (copy / "final" / "policy.json").is_file() and (copy / "final" / "report.md").is_file()
    assert [r["difference"] for r in again["final"]] == [r["difference"] for r in report["final"]]
