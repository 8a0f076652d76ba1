"""``benchmarks/raspisnoy_deal_kinds.py``: the per-kind split of a tournament adds up to its report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pokerzoo.envs.raspisnoy_poker.game import RaspisnoyPokerGame
from pokerzoo.evaluation import report
from pokerzoo.evaluation.tournament import Tournament, run_tournament

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "raspisnoy_deal_kinds.py"


def test_the_split_by_deal_kind_adds_up_to_the_reports_difference(tmp_path):
    t = Tournament("raspisnoy_poker_v0", ("heuristic", "random"), deals=12, seed=4, config={"schedule": "single"})
    result = run_tournament(t, workers=1, progress=False)
    report.write_all(result, tmp_path / "run", figure=False)
    out = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path / "run"), "--a", "heuristic"],
        capture_output=True, text=True, check=True,
    ).stdout
    table = [line.split("|") for line in out.splitlines() if line.startswith("|")][2:]  # past the header
    rows = {cells[1].strip(): cells[2:] for cells in table}
    paired = json.loads((tmp_path / "run" / "report.json").read_text())["paired_differences"][0]
    assert paired["a"] == "heuristic"
    all_deals = rows.pop("all deals")
    assert int(all_deals[0]) == 12
    assert float(all_deals[2].split("±")[0]) == round(paired["difference"]["mean"], 2)
    assert abs(sum(float(r[3]) for r in rows.values()) - paired["difference"]["mean"]) < 0.01  # contributions add up
    # every deal is in the group of the entry its seed draws
    kinds = {RaspisnoyPokerGame(seed=r.seed, schedule="single").schedule[0][1] for r in result.records}
    assert {g.split()[0] for g in rows} == kinds
    assert sum(int(r[0]) for r in rows.values()) == 12


def test_an_agent_that_did_not_play_is_named(tmp_path):
    t = Tournament("raspisnoy_poker_v0", ("heuristic", "random"), deals=2, seed=4, config={"schedule": "single"})
    report.write_all(run_tournament(t, workers=1, progress=False), tmp_path / "run", figure=False)
    done = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "run")], capture_output=True, text=True)
    assert done.returncode != 0 and "agent 'ppo' did not play; agents: heuristic, random" in done.stderr
