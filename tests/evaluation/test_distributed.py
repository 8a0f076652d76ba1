"""Tournaments as Ray tasks give exactly the local run's results (needs the 'ray' extra)."""

from __future__ import annotations

import pytest

from pokerzoo.cli.main import main
from pokerzoo.evaluation.distributed import chunks

ray = pytest.importorskip("ray", reason="the 'ray' extra is not installed")


def test_chunks_cover_every_deal_once_in_order():
    for deals, cpus in ((1, 4), (7, 2), (100, 3), (1000, 16)):
        parts = chunks(deals, cpus)
        assert [d for part in parts for d in part] == list(range(deals))
        assert len(parts) <= max(1, cpus * 4)


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield
    ray.shutdown()


@pytest.mark.parametrize(
    ("game", "agents", "config"),
    [
        ("caribbean_stud", ["rules_of_thumb", "random"], []),
        ("raspisnoy_poker", ["heuristic", "random"], ["schedule=single"]),
    ],
)
def test_ray_tournament_equals_the_local_one(local_ray, tmp_path, game, agents, config):
    common = ["evaluate", game, "--agents", *agents, "--games", "30", "--seed", "5", "--no-progress", "--no-plot"]
    if config:
        common += ["--config", *config]
    assert main([*common, "--workers", "1", "--out", str(tmp_path / "local")]) == 0
    assert main([*common, "--ray", "--out", str(tmp_path / "ray")]) == 0
    local = (tmp_path / "local" / "summary.csv").read_text()
    distributed = (tmp_path / "ray" / "summary.csv").read_text()
    assert local == distributed and local.count("\n") >= 3
    assert (tmp_path / "local" / "games.csv").read_text() == (tmp_path / "ray" / "games.csv").read_text()


def test_unreachable_cluster_is_a_clear_error(tmp_path, capsys):
    if ray.is_initialized():
        ray.shutdown()
    code = main(["evaluate", "caribbean_stud", "--agents", "random", "--games", "2", "--ray", "127.0.0.1:1",
                 "--out", str(tmp_path), "--no-progress"])  # fmt: skip
    assert code == 2
    err = capsys.readouterr().err
    assert "--ray 127.0.0.1:1" in err and "Traceback" not in err
