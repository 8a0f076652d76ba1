"""Friction a new user met, each checked where it can come back."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import numpy as np
import pytest

from pokerzoo.cli.main import COMMANDS, build_parser, main
from pokerzoo.evaluation import report
from pokerzoo.evaluation.tournament import Tournament, run_tournament

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("command", list(COMMANDS))
def test_help_shows_examples_as_lines_without_rest_markup_or_internal_names(command, capsys):
    with pytest.raises(SystemExit):
        build_parser(command).parse_args([command, "--help"])
    text = capsys.readouterr().out
    assert "``" not in text and "DEMO_OPTIONS" not in text and "demo_options" not in text
    assert not re.search(r"\S::\s*$", text, flags=re.M)
    description = re.split(r"\n(?:positional arguments|options):", text)[0]  # argparse wraps the rest
    for example in re.findall(r"^\s+(pokerzoo \S+.*)$", description, flags=re.M):
        assert example.split()[1] == command, f"an example runs into another line: {example!r}"
    if command in ("train", "demo", "evaluate", "policy"):
        assert re.search(rf"^\s{{4}}pokerzoo {command} ", text, flags=re.M), "examples on lines of their own"


def test_list_names_the_trained_policies(capsys):
    assert main(["list", "perico"]) == 0
    assert "trained policies: ppo" in capsys.readouterr().out


def test_the_header_and_the_rows_count_the_same_games(capsys, tmp_path):
    """Two agents at a four-seat table: each game seats each agent twice; the rows count seat-games."""
    t = Tournament("perico", ("heuristic", "random"), deals=3, seed=1)
    summary = report.summarize(run_tournament(t, workers=1))
    text = report.markdown(summary)
    assert f"= {summary['games']} games" in text
    assert "| agent | seat-games |" in text and "Seat-games: the agents repeat around the table" in text
    assert all(f"| `{a['agent']}` | {a['games']} |" in text for a in summary["agents"])
    assert all(a["games_in"] == summary["games"] for a in summary["agents"])
    alone = report.markdown(report.summarize(run_tournament(Tournament("caribbean_stud", ("random",), 5), workers=1)))
    assert "| agent | games |" in alone and "Seat-games" not in alone


def test_evaluate_says_what_it_plays_and_warns_of_long_default_games(capsys, tmp_path):
    argv = ["evaluate", "raspisnoy_poker", "--agents", "random", "--games", "1", "--workers", "1", "--no-plot"]
    assert main([*argv, "--out", str(tmp_path / "a"), "--config", "num_players=2", "start_cards=1"]) == 0
    out = capsys.readouterr().out
    assert "evaluate raspisnoy_poker_v0: 1 deals × 1 seatings = 1 games (random)" in out
    assert "schedule='classic'" in out and "--config schedule='single'" in out
    assert main([*argv, "--out", str(tmp_path / "b"), "--config", "schedule=single"]) == 0
    assert "note:" not in capsys.readouterr().out


def test_the_readme_evaluates_raspisnoy_with_single_deals():
    text = (ROOT / "README.md").read_text()
    for line in re.findall(r"^pokerzoo evaluate raspisnoy_poker.*$", text, flags=re.M):
        assert "schedule" in line, line


def test_the_demo_prints_where_its_reports_went(capsys, tmp_path):
    assert main(["demo", "--scripted", "--only", "caribbean_stud", "--games", "3", "--workers", "1",
                 "--out", str(tmp_path)]) == 0  # fmt: skip
    assert f"report: {tmp_path / 'caribbean_stud_v0' / 'report.md'}" in capsys.readouterr().out


def test_means_png_makes_room_for_long_labels_and_titles(tmp_path):
    long = ["pimc(bid_budget=128, play_budget=64)+heuristic(knock_threshold=0.55)", "random", "ppo+heuristic"]
    t = Tournament("perico", tuple(["heuristic", "random", "heuristic+random"]), deals=2, seed=0)
    summary = report.summarize(run_tournament(t, workers=1))
    for a, label in zip(summary["agents"], long):
        a["agent"] = label
    fig = report.figure(summary)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box = fig.bbox
    axes = fig.axes
    for ax in axes:
        for text in [ax.title, *ax.get_yticklabels()]:
            if not text.get_visible() or not text.get_text():
                continue
            extent = text.get_window_extent(renderer)
            assert extent.x0 >= box.x0 - 1 and extent.x1 <= box.x1 + 1, f"clipped: {text.get_text()!r}"
    titles = [ax.title.get_window_extent(renderer) for ax in axes]
    assert all(a.x1 <= b.x0 + 1 for a, b in itertools.pairwise(titles)), "panel titles overlap"
    labels_right = max(t.get_window_extent(renderer).x1 for t in axes[0].get_yticklabels())
    assert labels_right <= axes[0].get_window_extent(renderer).x0 + 1, "labels run into the panel"
    import matplotlib.pyplot as plt

    plt.close(fig)


def test_a_total_that_is_not_whole_rollouts_is_said(capsys, tmp_path):
    from pokerzoo.training.config import load_config, rounding_note, trained_steps

    cfg = load_config({"game": "caribbean_stud", "engine": "aec", "total_timesteps": 2000})
    assert trained_steps(cfg) == 8192
    assert rounding_note(cfg) == ("note: total_timesteps 2,000 rounds up to 8,192: PPO collects whole rollouts of "
                                  "n_steps × n_envs = 512 × 16 = 8,192 steps")  # fmt: skip
    assert rounding_note(load_config({"game": "caribbean_stud", "engine": "aec", "total_timesteps": 8192})) is None
    assert trained_steps(cfg, done=8192) == 8192 and rounding_note(cfg, done=8192) is None


def test_imitation_reports_progress_from_the_workers():
    """teacher_rollout tells its progress callback of every decision it records, in and out of workers."""
    from pokerzoo.training.single_seat import SingleSeatEnv
    from pokerzoo.training.vec_env import WorkerVecEnv

    seen = []
    env = SingleSeatEnv("perico", {"num_players": 3})
    env.teacher_rollout("heuristic", 40, seed=1, progress=seen.append)
    assert sum(seen) >= 40
    seen.clear()
    env.teacher_rollout("heuristic", 40, seed=1, seats="all", progress=seen.append)
    assert sum(seen) >= 40
    venv = WorkerVecEnv([lambda: SingleSeatEnv("perico", {"num_players": 3})] * 2, workers=2, start_method="fork")
    try:
        got = []
        parts = venv.call_each("teacher_rollout", [("heuristic", 30, s) for s in (1, 2)], got.append)
        assert sum(got) == sum(int(p["recorded"].sum()) for p in parts) >= 60
    finally:
        venv.close()


def test_a_report_folder_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    t = Tournament("caribbean_stud", ("random",), deals=4)
    result = run_tournament(t, workers=1)
    out = tmp_path / "report"
    paths = report.write_all(result, out, figure=False)
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in paths.values())
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    def fail(*_):
        raise OSError("disk full")

    monkeypatch.setattr(report, "write_games_csv", fail)
    with pytest.raises(OSError, match="disk full"):
        report.write_all(result, out, figure=False)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before, "the old report stays as it was"
    with pytest.raises(OSError, match="disk full"):
        report.write_all(result, tmp_path / "new", figure=False)
    assert not (tmp_path / "new").exists() and [p.name for p in tmp_path.iterdir()] == ["report"]


def test_evaluate_checks_everything_before_the_first_game(tmp_path, capsys, monkeypatch):
    from pokerzoo.evaluation import tournament

    played = []
    monkeypatch.setattr(tournament, "play_game", lambda *a, **k: played.append(1))
    blocker = tmp_path / "file"
    blocker.write_text("")
    for extra in (["--out", str(blocker / "x")], ["--record", str(blocker / "x.jsonl")],
                  ["--config", "boxes=7"], ["--agents", "random", "nobody"]):  # fmt: skip
        argv = ["evaluate", "caribbean_stud", "--agents", "random", "--games", "5", "--workers", "1", *extra]
        assert main(argv) == 2
        assert not played and "error" in capsys.readouterr().err


def test_nan_options_never_reach_the_report(tmp_path, capsys):
    argv = ["evaluate", "raspisnoy_poker", "--agents", "random", "--games", "2", "--out", str(tmp_path / "r"),
            "--config", "schedule=single", "dark_multiplier=.nan"]  # fmt: skip
    assert main(argv) == 2
    assert "dark_multiplier=nan: expected a finite number" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()
    assert np.isnan(float("nan"))  # the YAML value .nan is what reached the option check
