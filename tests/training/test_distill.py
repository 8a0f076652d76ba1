"""Distillation (``training.distill``, ``pokerzoo policy distill``): only the teacher's decisions are recorded, in
step with what its seat saw; the fitted policy plays as the teacher; bad input fails before anything is written."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pokerzoo.agents.policy import shipped_policies
from pokerzoo.agents.policy_file import read_policy
from pokerzoo.cli.main import main
from pokerzoo.envs.batched import make
from pokerzoo.training import distill
from pokerzoo.training.distill import TeacherTables, distill_policy, record_decisions
from pokerzoo.training.selfplay.league import batched_agent

GAME = "breed_the_heifer"
CHECK, CALL = 1, 2  # Breed the Heifer's actions: fold, check, call, bet, raise


def calling_station_rule(mask: np.ndarray) -> np.ndarray:
    """What the calling station chooses: check where it may, else call."""
    return np.where(mask[:, CHECK], CHECK, CALL)


def test_only_the_teachers_decisions_are_recorded_with_their_own_masks():
    # random holds about half the seats; had one of its decisions slipped in, or a mask come from another
    # step, some action would not be the calling station's choice under its mask
    tables = TeacherTables("calling_station", ("random",), teacher_share=0.5, rows=32, seed=1)
    data = record_decisions(GAME, tables, 600)
    assert len(data) == 600
    assert data.obs.shape == (600, make(GAME, 1).observation_size) and data.obs.dtype == np.float32
    assert np.array_equal(data.action, calling_station_rule(data.mask))
    assert (data.action == CALL).any() and (data.action == CHECK).any()


def test_the_same_seed_records_the_same_decisions():
    def tables(seed: int) -> TeacherTables:
        return TeacherTables("equity(sampler=fast)", ("random",), teacher_share=0.5, rows=16, seed=seed)

    a, b, c = (record_decisions(GAME, tables(seed), 300) for seed in (3, 3, 4))
    assert all(np.array_equal(x, y) for x, y in zip((a.obs, a.mask, a.action), (b.obs, b.mask, b.action)))
    assert not np.array_equal(a.obs, c.obs)


def test_a_distilled_calling_station_plays_as_the_calling_station(tmp_path):
    out = tmp_path / "clone.json"
    tables = TeacherTables("calling_station", rows=64)
    written, summary = distill_policy(GAME, tables, out, decisions=3000, epochs=6, net_arch=(32,))
    assert written == out and out.with_suffix(".safetensors").exists()
    assert summary["decisions"] == 3000 and summary["held_out"] == 150
    assert summary["held_out_agreement"] == 1.0
    distilled = json.loads(out.read_text())["provenance"]["distilled"]
    assert distilled["teacher"] == "calling_station" and distilled["held_out_agreement"] == 1.0
    # on fresh tables, played as any policy member (its most likely action), every row's choice is the rule's
    clone = batched_agent(GAME, {}, f"policy:{out}")
    env = make(GAME, 64)
    env.reset(seed=99)
    for _ in range(8):
        chosen = clone.act(env, env.all_rows)
        assert np.array_equal(chosen, calling_station_rule(env.mask))
        env.step(chosen)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"decisions": 0}, r"decisions=0: expected an int >= 1"),
        ({"teacher_share": 0.5}, r"teacher_share=0.5 leaves 50% of the seats to tablemates, and none are given"),
        ({"tablemates": ("random",)}, r"with teacher_share 1 the teacher takes every seat"),
        ({"teacher_share": 1.5, "tablemates": ("random",)}, r"teacher_share=1.5: expected a share in \(0, 1\]"),
        ({"tablemates": ("calling_station",), "teacher_share": 0.5}, r"'calling_station' is the teacher"),
        ({"rows": 0}, r"rows=0: expected an int >= 1"),
        ({"teacher": "nonsense"}, r"'nonsense' is not a batched agent of breed_the_heifer_v0.*calling_station"),
        ({"net_arch": [0]}, r"net_arch=\[0\]: expected one or more layer widths >= 1"),
        ({"init_from": "missing/policy.json"}, r"init_from 'missing/policy.json'"),
    ],
)
def test_bad_input_names_the_problem_and_writes_nothing(tmp_path, kwargs, message):
    out = tmp_path / "clone.json"
    table_keys = {"teacher", "tablemates", "teacher_share", "rows"}
    table_args = {"teacher": "calling_station", "rows": 8, **{k: v for k, v in kwargs.items() if k in table_keys}}
    run_args = {"decisions": 100, **{k: v for k, v in kwargs.items() if k not in table_keys}}
    with pytest.raises((ValueError, FileNotFoundError), match=message):
        distill_policy(GAME, TeacherTables(**table_args), out, **run_args)
    assert list(tmp_path.iterdir()) == []


def test_an_existing_policy_is_kept_without_force(tmp_path):
    out = tmp_path / "clone.json"
    tables = TeacherTables("calling_station", rows=8)
    distill_policy(GAME, tables, out, decisions=40, epochs=1, net_arch=(8,))
    before = out.read_bytes()
    with pytest.raises(ValueError, match="exists; give another --out or --force"):
        distill_policy(GAME, tables, out, decisions=40, epochs=1, net_arch=(8,))
    assert out.read_bytes() == before


def test_the_command_writes_a_playable_policy(tmp_path, capsys):
    out = tmp_path / "c.json"
    code = main(["policy", "distill", GAME, "calling_station", "--decisions", "200", "--rows", "16", "--epochs", "2",
                 "--net-arch", "16", "--out", str(out), "--no-progress"])  # fmt: skip
    assert code == 0
    text = capsys.readouterr().out
    assert "recorded 200 decisions of calling_station" in text and f"play it with: --agents policy:{out}" in text
    assert main(["policy", "show", str(out)]) == 0
    assert main(["policy", "distill", GAME, "calling_station", "--decisions", "200", "--out", str(tmp_path / "d.json"),
                 "--teacher-share", "0.5"]) == 2  # fmt: skip
    assert "leaves 50% of the seats to tablemates" in capsys.readouterr().err


def test_init_from_a_shipped_name_starts_from_its_network_and_weights(tmp_path):
    out = tmp_path / "clone.json"
    tables = TeacherTables("calling_station", rows=16)
    _, summary = distill_policy(GAME, tables, out, decisions=200, epochs=1, learning_rate=1e-12, init_from="ppo")
    assert summary["net_arch"] == [128, 128] and summary["activation"] == "relu"
    mine, shipped = read_policy(out), read_policy(shipped_policies("breed_the_heifer_v0")["ppo"])
    assert set(mine.tensors) == set(shipped.tensors)
    assert all(np.allclose(mine.tensors[k], shipped.tensors[k], atol=1e-6) for k in shipped.tensors)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"epochs": 0}, r"epochs=0: expected an int >= 1"),
        ({"learning_rate": 0.0}, r"learning_rate=0.0: expected a positive step size"),
    ],
)
def test_a_bad_fit_setting_fails_before_the_recording_starts(tmp_path, monkeypatch, kwargs, message):
    def no_recording(*args, **kw):
        raise AssertionError("recorded before the fit's settings were checked")

    monkeypatch.setattr(distill, "record_decisions", no_recording)
    with pytest.raises(ValueError, match=message):
        distill_policy(GAME, TeacherTables("calling_station", rows=8), tmp_path / "c.json", decisions=100, **kwargs)
    assert list(tmp_path.iterdir()) == []
