"""Batched tables that show each policy what it reads: view-only options (``Option.view_only``, Breed the
Heifer's ``action_counts``) are turned on at a batched table for the policies trained with them.

* ``table_options`` turns an option on only for a policy whose observation the table's does not begin with,
  and never for scripted agents or policies trained without it (they read the first entries);
* a table may differ from the game only by such options (``table_config``): a rule never changes;
* ``pokerzoo evaluate --engine batched`` at the rules as written seats a policy trained with the counts beside
  one trained without, and plays exactly the games of the counts' tables, keeping the game's options in the
  report;
* a training run without the option whose league holds a policy trained with it: the rows show the counts,
  the learner reads the first entries (its network, buffer and policy file keep the run's own size).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from pokerzoo.cli.main import main
from pokerzoo.evaluation.batched import table_config
from pokerzoo.training.config import ConfigError, load_config
from pokerzoo.training.engines import make_trainer
from pokerzoo.training.policy_export import policy_document, save_policy
from pokerzoo.training.selfplay.league import table_options
from pokerzoo.training.selfplay.loop import SelfPlay

sys.path.insert(0, str(Path(__file__).parent))
from test_selfplay_trainer import tiny  # (the trainer tests' tiny run)

HEIFER = {"game": "breed_the_heifer_v0", "eval__baselines": ["random"], "league__snapshot_every": 0,
          "ppo__net_arch": [16, 8], "eval__every": 0, "checkpoint_every": 0}  # fmt: skip
COUNTS = {"action_counts": True}


@pytest.fixture(scope="module")
def policies(tmp_path_factory) -> dict[str, str]:
    """Two new Breed the Heifer policy files (random weights): one trained without the counts, one with."""
    tmp = tmp_path_factory.mktemp("policies")
    out = {}
    for name, options in (("plain", {}), ("counts", COUNTS)):
        cfg = load_config(tiny(**HEIFER, league__scripted=["random"], options=options, eval__options=options))
        out[name] = f"policy:{save_policy(SelfPlay(cfg).model, tmp / name, policy_document(cfg, 0))}"
    return out


def test_the_option_is_turned_on_only_for_a_policy_that_reads_it(policies):
    plain, counts = policies["plain"], policies["counts"]
    assert table_options("breed_the_heifer", {}, [plain, counts, "equity(sampler=fast)"]) == COUNTS
    assert table_options("breed_the_heifer", {}, [f"{counts}@sample"]) == COUNTS
    assert table_options("breed_the_heifer", {}, [plain, "random", "pimc(budget=900)"]) == {}
    assert table_options("breed_the_heifer", COUNTS, [plain]) == COUNTS  # never turned off
    assert table_options("breed_the_heifer", {"ante": 2}, [counts]) == {"ante": 2, **COUNTS}
    assert table_options("raspisnoy_poker", {"schedule": "single"}, ["ppo"]) == {"schedule": "single"}
    # a policy of other sizes (four players) leaves the table as it is: building it names the sizes
    assert table_options("breed_the_heifer", {"num_players": 4}, [plain, counts]) == {"num_players": 4}
    assert table_options("breed_the_heifer", {"num_players": 4, **COUNTS}, [plain]) == {"num_players": 4, **COUNTS}


def test_a_table_adds_only_what_the_seats_are_shown():
    assert table_config("breed_the_heifer_v0", {}, COUNTS) == COUNTS
    assert table_config("breed_the_heifer_v0", {"ante": 2}, None) == {"ante": 2}
    with pytest.raises(ValueError, match=r"these change the rules: ante=2"):
        table_config("breed_the_heifer_v0", {}, {"ante": 2, **COUNTS})


def test_a_batched_tournament_seats_a_counts_policy_at_the_rules_as_written(policies, tmp_path, capsys):
    agents = [policies["counts"], policies["plain"], "equity(sampler=fast)", "calling_station", "random"]
    common = ["evaluate", "breed_the_heifer", "--agents", *agents, "--engine", "batched", "--games", "6",
              "--seed", "4", "--no-progress", "--no-plot"]  # fmt: skip
    assert main([*common, "--out", str(tmp_path / "plain")]) == 0
    assert "the table also shows action_counts=True, which its policies were trained to read" in capsys.readouterr().out
    assert main([*common, "--config", "action_counts=true", "--out", str(tmp_path / "counts")]) == 0
    assert (tmp_path / "plain" / "games.csv").read_text() == (tmp_path / "counts" / "games.csv").read_text()
    assert json.loads((tmp_path / "plain" / "report.json").read_text())["config"] == {}


def test_a_run_without_the_option_trains_beside_a_league_policy_that_reads_it(policies, tmp_path):
    cfg = load_config(tiny(**HEIFER, league__scripted=[policies["counts"], "random"], options={}, eval__options={},
                           total_timesteps=300))  # fmt: skip
    loop = SelfPlay(cfg)
    assert loop.env.observation_size == 403 and loop.observation_size == 388
    assert loop.model.observation_size == 388 and loop.buffer.obs.shape[1] == 388
    run = tmp_path / "run"
    make_trainer(cfg, run, progress=False).train()
    assert json.loads((run / "final" / "policy.json").read_text())["observation_size"] == 388


def test_a_run_whose_league_policy_cannot_be_shown_what_it_reads_is_refused(policies):
    with pytest.raises(ConfigError, match=r"league: member 'policy:.*': .*takes 403 observation entries .* has 328"):
        load_config(tiny(**HEIFER, league__scripted=[policies["counts"]], options={"num_players": 4},
                         eval__options={"num_players": 4}))  # fmt: skip


def test_the_learner_reads_the_first_entries_of_the_rows(policies):
    cfg = load_config(tiny(**HEIFER, league__scripted=[policies["counts"]], options={}, eval__options={}))
    loop = SelfPlay(cfg)
    loop.start()
    buffer, shown = loop.buffer, []
    for _ in range(8):  # (the buffer holds about two rollouts)
        before, first = loop.env.obs.copy(), buffer.size
        with torch.inference_mode():  # as the rollout steps
            loop.collector.step()
        rows = buffer.row[first : buffer.size]
        np.testing.assert_array_equal(buffer.obs[first : buffer.size], before[rows, :388])
        shown.append(before[rows, 388:].any())
    assert any(shown)  # the counts were there, and the learner read past none of them
