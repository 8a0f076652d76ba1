"""``benchmarks/table_kinds.py``: a round-robin split by the kind of table adds up to its report."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from pokerzoo.evaluation import report
from pokerzoo.evaluation.tournament import Tournament, run_tournament

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "table_kinds.py"
AGENTS = ("calling_station", "random", "equity(simulations=40)", "equity(simulations=40, raise_factor=2.0)")


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """Four agents at three seats, shuffled: every table leaves one agent out, so tables differ in kind."""
    folder = tmp_path_factory.mktemp("kinds") / "run"
    t = Tournament("breed_the_heifer_v0", AGENTS, deals=6, seed=3, config={"num_players": 3}, seating="shuffled")
    report.write_all(run_tournament(t, workers=1, progress=False), folder, figure=False)
    return folder


def table_rows(out: str) -> list[list[str]]:
    return [[c.strip() for c in line.split("|")[1:-1]] for line in out.splitlines() if line.startswith("|")]


def kinds_script(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)


def test_the_shares_are_the_kinds_counted_from_the_games_and_the_difference_is_the_reports(run):
    a, b = AGENTS[2], AGENTS[3]
    done = kinds_script(str(run), "--count", "calling_station", "random", "--a", a, "--b", b)
    assert done.returncode == 0, done.stderr
    rows = table_rows(done.stdout)
    # the shares, counted here from games.csv: a seat-game's kind is the counted agents at its table, itself aside
    tables = defaultdict(list)
    with open(run / "games.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            tables[(row["deal"], row["seating"])].append(row["agent"])
    kinds: dict[str, Counter] = defaultdict(Counter)
    for seated in tables.values():
        counted = sum(agent in ("calling_station", "random") for agent in seated)
        for agent in seated:
            kinds[agent][counted - (agent in ("calling_station", "random"))] += 1
    header, per_agent = rows[0], {r[0].strip("`"): r for r in rows[2 : 2 + len(AGENTS)]}
    assert header[1:4] == [f"kind {k}: reward/game (share)" for k in range(3)]
    for agent, counts in kinds.items():
        total = sum(counts.values())
        for k in range(3):
            cell = per_agent[agent][1 + k]
            assert (cell == "") == (counts[k] == 0)
            if counts[k]:
                assert cell.endswith(f"({counts[k] / total:.0%})")
    # the weak agents never count themselves: at most one other weak agent shares a table of three
    assert set(kinds["random"]) <= {0, 1} and set(kinds["calling_station"]) <= {0, 1}
    # the paired difference over all kinds is the report's
    paired = json.loads((run / "report.json").read_text())["paired_differences"]
    pair = next(p for p in paired if {p["a"], p["b"]} == {a, b})
    sign = 1 if pair["a"] == a else -1
    all_row = next(r for r in rows if r[0] == "all")
    assert float(all_row[1].split("±")[0]) == pytest.approx(sign * pair["difference"]["mean"], abs=0.006)
    assert f"Playing like `{b}` at the kinds where it is ahead" in done.stdout


def test_bad_arguments_are_named(run, tmp_path):
    done = kinds_script(str(run), "--count", "heuristic")
    assert done.returncode != 0 and "--count heuristic: not in" in done.stderr
    assert "agents: calling_station, random" in done.stderr
    done = kinds_script(str(run), "--count", "random", "--a", "random")
    assert done.returncode != 0 and "--a and --b go together" in done.stderr
    done = kinds_script(str(run), "--count", "random", "--a", "random", "--b", "ppo")
    assert done.returncode != 0 and "'ppo' did not play" in done.stderr
    other = tmp_path / "other"
    t = Tournament("breed_the_heifer_v0", AGENTS[:3], deals=1, seed=5, config={"num_players": 3})
    report.write_all(run_tournament(t, workers=1, progress=False), other, figure=False)
    done = kinds_script(str(run), str(other), "--count", "random")
    assert done.returncode != 0 and "not one match" in done.stderr
