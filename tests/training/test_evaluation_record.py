"""``pokerzoo policy record``: an evaluation made after shipping, copied from the reports into the policy's
document with each report's command, checked whole before anything is written."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest

from pokerzoo.cli.main import main
from pokerzoo.training import evaluation_record
from pokerzoo.training.evaluation_record import record_evaluation
from pokerzoo.training.shipping import write_policies_readme

SHIPPED = Path(__file__).parents[2] / "agents" / "policies" / "caribbean_stud"


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A copy of the shipped Caribbean policy in a shipped-policies folder, and three short matches with it:
    two pieces of one match (seeds 1 and 2), their pool, one with the agents the other way round, and one
    with the shipped policy by its name."""
    root = tmp_path_factory.mktemp("record")
    folder = root / "caribbean_stud"
    folder.mkdir()
    for name in ("ppo.json", "ppo.safetensors"):
        shutil.copy(SHIPPED / name, folder / name)
    write_policies_readme(folder)
    spec = f"policy:{folder / 'ppo.json'}"
    commands = {
        "a1": ["evaluate", "caribbean_stud", "--agents", spec, "random", "--games", "40", "--seed", "1"],
        "a2": ["evaluate", "caribbean_stud", "--agents", spec, "random", "--games", "30", "--seed", "2"],
        "b": ["evaluate", "caribbean_stud", "--agents", "random", spec, "--games", "30", "--seed", "3"],
        "shipped": ["evaluate", "caribbean_stud", "--agents", "ppo", "random", "--games", "20", "--seed", "4"],
    }
    for name, argv in commands.items():
        argv += ["--workers", "1", "--no-plot", "--out", str(root / name)]
        assert main(argv) == 0
    pool = ["pool", str(root / "a1"), str(root / "a2"), "--no-plot", "--out", str(root / "pooled")]
    assert main(pool) == 0
    commands["pooled"] = pool
    return folder / "ppo.json", root, {k: shlex.join(["pokerzoo", *v]) for k, v in commands.items()}


def _paired(run: Path) -> dict:
    return json.loads((run / "report.json").read_text())["paired_differences"][0]


def test_reports_record_the_command_that_wrote_them(played):
    _, root, commands = played
    for name in ("a1", "b", "pooled"):
        assert json.loads((root / name / "report.json").read_text())["command"] == commands[name]


def test_rows_are_copied_with_their_commands_and_the_readme_follows(played, tmp_path):
    policy, root, commands = played
    weights = policy.with_suffix(".safetensors").read_bytes()
    rows = record_evaluation(policy, [root / "a1", root / "pooled"], "two seeds, pooled")
    pooled = _paired(root / "pooled")
    assert [r["deals"] for r in rows] == [40, 70] and pooled["deals"] == 70
    assert rows[1]["baseline"] == "random" and rows[1]["command"] == commands["pooled"]
    want = pooled["difference"]
    assert (rows[1]["difference"], rows[1]["difference_low"]) == (want["mean"], want["low"])
    document = json.loads(policy.read_text())
    assert document["provenance"]["further_evaluations"][-1] == {"why": "two seeds, pooled", "rows": rows}
    assert policy.with_suffix(".safetensors").read_bytes() == weights  # the weights are not touched
    readme = (policy.parent / "README.md").read_text()
    assert "Further evaluation: two seeds, pooled" in readme and commands["a1"] in readme
    # The policy listed second: its rows are turned round, policy minus the other agent.
    (flipped,) = record_evaluation(policy, [root / "b"], "agents the other way round")
    d = _paired(root / "b")["difference"]
    assert (flipped["difference"], flipped["difference_low"], flipped["difference_high"]) == (
        -d["mean"], -d["high"], -d["low"],
    )  # fmt: skip


def test_the_cli_records_and_prints_the_rows(played, capsys):
    policy, root, _ = played
    assert main(["policy", "record", str(policy), str(root / "a2"), "--why", "a fresh seed"]) == 0
    out = capsys.readouterr().out
    assert "recorded: random, 30 deals" in out
    assert json.loads(policy.read_text())["provenance"]["further_evaluations"][-1]["why"] == "a fresh seed"


def test_bad_input_is_named_and_nothing_is_written(played, tmp_path):
    policy, root, _ = played
    before = policy.read_bytes()
    old = tmp_path / "old"  # a report from before reports recorded their command
    old.mkdir()
    report = json.loads((root / "a1" / "report.json").read_text())
    del report["command"]
    (old / "report.json").write_text(json.dumps(report))
    other_game = tmp_path / "other"
    other_game.mkdir()
    (other_game / "report.json").write_text(json.dumps({**report, "game": "perico_v0"}))
    cases = [
        (dict(runs=[root / "a1"], why="  "), "--why is empty"),
        (dict(runs=[], why="x"), "no run folders"),
        (dict(runs=[tmp_path], why="x"), "no report.json"),
        (dict(runs=[root / "a1", old], why="x"), "does not record the command"),
        (dict(runs=[root / "a1", old], why="x", commands=["one"]), "--command given 1 times for 2"),
        (dict(runs=[other_game], why="x"), "perico_v0 report"),
        (dict(runs=[root / "a1"], why="x", agent="ppo_six_card"), "the agents there: policy:.*random"),
    ]
    for kwargs, message in cases:
        with pytest.raises(ValueError, match=message):
            record_evaluation(policy, **kwargs)
        assert policy.read_bytes() == before
    # An older report is recorded with the command given for it.
    (row,) = record_evaluation(policy, [old], "an older report", commands=["pokerzoo evaluate ..."])
    assert row["command"] == "pokerzoo evaluate ..."


def test_a_shipped_name_is_the_shipped_file_only(played, monkeypatch):
    """``ppo`` in a report is the game's shipped ``ppo``: a copy elsewhere is not it, the shipped file is."""
    policy, root, commands = played
    with pytest.raises(ValueError, match="plays in none of its paired differences; the agents there: ppo, random"):
        record_evaluation(policy, [root / "shipped"], "the shipped name")
    monkeypatch.setattr(evaluation_record, "shipped_policies", lambda game: {"ppo": policy})
    (row,) = record_evaluation(policy, [root / "shipped"], "the shipped name")
    assert row["baseline"] == "random" and row["command"] == commands["shipped"]
