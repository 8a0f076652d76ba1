"""``pokerzoo pool``: tournaments of one match on different seeds pooled into one report (``evaluation/pooling.py``).

The pool must be exactly the report of the pieces' games together (every
statistic, bids and betting included), and anything that is not the same
match on different deals must be refused by name, with nothing written.
"""

from __future__ import annotations

import csv
import json
from dataclasses import replace

import pytest

from pokerzoo.cli.main import main
from pokerzoo.evaluation import report
from pokerzoo.evaluation.pooling import pool, read_piece
from pokerzoo.evaluation.tournament import Tournament, run_tournament

RASPISNOY = {"schedule": "single"}  # bids, tricks and four seats in 0.1 s a deal


def _piece(tmp_path, name, seed, agents=("random", "heuristic"), deals=6, config=RASPISNOY):
    t = Tournament("raspisnoy_poker_v0", agents, deals=deals, seed=seed, config=config)
    result = run_tournament(t, workers=1, progress=False)
    report.write_all(result, tmp_path / name, figure=False)
    return result


def _without_volatile(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in ("seed", "pooled_from", "seconds", "workers")}


def test_the_pool_is_the_report_of_all_the_pieces_games(tmp_path):
    a, b = _piece(tmp_path, "a", 1), _piece(tmp_path, "b", 2, deals=4)
    result, summary = pool([tmp_path / "a", tmp_path / "b"])
    shifted = [replace(r, deal=r.deal + a.deals, history=None) for r in b.records]
    together = replace(a, records=[replace(r, history=None) for r in a.records] + shifted, deals=a.deals + b.deals)
    expected = report.summarize(together)
    assert _without_volatile(summary) == _without_volatile(expected)
    assert summary["deals"] == 10 and summary["seed"] == [1, 2]
    assert [p["deals"] for p in summary["pooled_from"]] == [6, 4]
    assert summary["agents"][1]["bidding"]["bids"] > 0  # the pool keeps the bids (from games.csv's tallies)
    assert result.records == together.records  # read back from games.csv: bids, decisions, betting and all


def test_one_folder_is_re_read_with_every_figure_unchanged(tmp_path, capsys):
    a = _piece(tmp_path, "a", 1, agents=("random", "heuristic", "random", "heuristic", "random"))
    summary = json.loads((tmp_path / "a" / "report.json").read_text())
    del summary["tablemate_effects"]  # as a report written before the section existed
    (tmp_path / "a" / "report.json").write_text(json.dumps(summary))
    result, again = pool([tmp_path / "a"])
    expected = report.summarize(replace(a, records=[replace(r, history=None) for r in a.records]))
    assert _without_volatile(again) == _without_volatile(expected)
    assert again["tablemate_effects"] is not None and result.deals == a.deals
    assert main(["pool", str(tmp_path / "a"), "--out", str(tmp_path / "re"), "--no-plot"]) == 0
    assert "seed 1, re-read from" in capsys.readouterr().out


def test_games_csv_round_trips_every_record(tmp_path):
    written = _piece(tmp_path, "a", 5, agents=("heuristic", "random", "heuristic"))
    piece = read_piece(tmp_path / "a")
    assert piece.tallies
    assert sorted(piece.records, key=lambda r: (r.deal, r.lineup)) == sorted(
        (replace(r, history=None) for r in written.records), key=lambda r: (r.deal, r.lineup)
    )


def test_pieces_without_the_tally_columns_pool_their_rewards_only(tmp_path):
    _piece(tmp_path, "a", 1)
    _piece(tmp_path, "b", 2)
    games = tmp_path / "b" / "games.csv"
    rows = list(csv.reader(games.open()))
    with games.open("w", newline="") as fh:  # the columns games.csv had before the tallies
        csv.writer(fh).writerows(r[: len(report.GAMES_CSV_COLUMNS)] for r in rows)
    _, summary = pool([tmp_path / "a", tmp_path / "b"])
    assert [p["tallies"] for p in summary["pooled_from"]] == [True, False]
    assert all("bidding" not in a and "betting" not in a and "play_decisions" not in a for a in summary["agents"])
    assert "Bidding and betting statistics left out" in report.markdown(summary)
    assert summary["paired_differences"][0]["deals"] == 12


@pytest.mark.parametrize(
    ("second", "message"),
    [
        ({"seed": 1}, r"a and .*b were both played with seed 1: the same deals twice are not independent"),
        ({"agents": ("heuristic", "random")}, r"b is another match than .*a: its agents_given is \['heuristic', "
                                              r"'random'\], where the first has \['random', 'heuristic'\]"),
        ({"config": {"schedule": "single", "must_trump": False}}, r"b is another match than .*a: its config is"),
    ],
)
def test_another_match_or_the_same_deals_are_refused(tmp_path, second, message):
    _piece(tmp_path, "a", 1)
    kwargs = {"seed": 2, **second}
    _piece(tmp_path, "b", config=kwargs.pop("config", RASPISNOY), **kwargs)
    with pytest.raises(ValueError, match=message):
        pool([tmp_path / "a", tmp_path / "b"])


def test_a_rotations_piece_and_a_shuffled_one_are_another_match_and_old_reports_pool(tmp_path):
    agents = ("random", "heuristic", "random", "heuristic", "random", "random")  # six agents, four seats
    for name, seed, seating in (("a", 1, "rotations"), ("b", 2, "shuffled"), ("c", 3, "rotations")):
        t = Tournament("raspisnoy_poker_v0", agents, deals=2, seed=seed, config=RASPISNOY, seating=seating)
        report.write_all(run_tournament(t, workers=1, progress=False), tmp_path / name, figure=False)
    with pytest.raises(ValueError, match=r"b is another match than .*a: its seating is 'shuffled', where the first "
                                         r"has 'rotations'"):  # fmt: skip
        pool([tmp_path / "a", tmp_path / "b"])
    for name in "ac":  # reports written before the seating mode was recorded
        path = tmp_path / name / "report.json"
        summary = json.loads(path.read_text())
        del summary["seating"]
        path.write_text(json.dumps(summary))
    result, summary = pool([tmp_path / "a", tmp_path / "c"])
    assert result.seating == summary["seating"] == "rotations" and summary["deals"] == 4


def test_bad_folders_are_named(tmp_path):
    _piece(tmp_path, "a", 1)
    _piece(tmp_path, "b", 2)
    with pytest.raises(ValueError, match="pool needs at least one tournament folder, got none"):
        pool([])
    with pytest.raises(ValueError, match=r"nowhere: not a folder"):
        pool([tmp_path / "a", tmp_path / "nowhere"])
    (tmp_path / "b" / "games.csv").unlink()
    with pytest.raises(ValueError, match=r"b: no games.csv: not a folder pokerzoo evaluate wrote \(batched head-"):
        pool([tmp_path / "a", tmp_path / "b"])
    _piece(tmp_path, "c", 3)
    games = tmp_path / "c" / "games.csv"
    games.write_text(games.read_text().replace(",heuristic,", ",pimc,", 1))
    with pytest.raises(ValueError, match=r"c: games.csv row \d+: agent 'pimc' is not one of the report's"):
        pool([tmp_path / "a", tmp_path / "c"])
    _piece(tmp_path, "d", 4)
    lines = (tmp_path / "d" / "games.csv").read_text().splitlines()
    (tmp_path / "d" / "games.csv").write_text("\n".join(lines[:-1]) + "\n")  # one seat of the last game lost
    with pytest.raises(ValueError, match=r"d: games.csv: deal 5, seating \d+ has seats \['0', '1', '2'\]"):
        pool([tmp_path / "a", tmp_path / "d"])


def test_cli_pool_writes_the_report_and_refuses_a_pool_of_pools(tmp_path, capsys):
    _piece(tmp_path, "a", 1)
    _piece(tmp_path, "b", 2)
    out = tmp_path / "pooled"
    assert main(["pool", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(out), "--no-plot"]) == 0
    printed = capsys.readouterr().out
    assert "12 deals × 2 seatings = 24 games (duplicate deals, pooled from 2 tournaments, seeds 1, 2)" in printed
    assert f"report: {out / 'report.md'}" in printed
    data = json.loads((out / "report.json").read_text())
    assert data["deals"] == 12 and len(list(csv.DictReader((out / "games.csv").open()))) == 24 * 4
    assert main(["pool", str(out), str(tmp_path / "a"), "--out", str(tmp_path / "again")]) == 2
    assert "is itself a pool; pool its pieces instead" in capsys.readouterr().err
    assert not (tmp_path / "again").exists()
    assert main(["pool", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(tmp_path / "a")]) == 2
    assert "is one of the pieces" in capsys.readouterr().err
