"""Hand histories: recorded games replay through the rules to the same outcome, and tampering is caught."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from pokerzoo.cli.main import main
from pokerzoo.evaluation import history
from pokerzoo.evaluation.tournament import Tournament, installed_games, run_tournament

GAMES = installed_games()


def recorded(game: str, deals: int = 2, agents=("random", "random"), seed: int = 5, **kw) -> list[dict]:
    t = Tournament(game, agents, deals=deals, seed=seed, record=True, **kw)
    return [rec.history for rec in run_tournament(t, workers=1, progress=False).records]


@pytest.mark.parametrize("game", GAMES)
def test_recorded_histories_replay_to_the_same_outcome(game, tmp_path):
    records = recorded(game)
    path = tmp_path / "h.jsonl"
    with history.HistoryWriter(path) as w:
        for r in records:
            w.write(r)
    assert w.count == len(records)
    results = history.replay_file(path)
    assert len(results) == len(records)
    for result, r in zip(results, records):
        assert result.ok, result.describe()
        assert result.replayed.is_over and result.steps == len(r["actions"]) == r["steps"]
        assert [name for _, _, name in result.trace] == r["action_names"]
        assert r["format"] == history.FORMAT and r["game"] == game
        assert sum(r["rewards"]) == pytest.approx(sum(result.replayed.total_rewards))


def test_caribbean_history_contents():
    (r,) = recorded("caribbean_stud", deals=1, agents=("always_raise",), config={"boxes": 3})
    assert r["config"] == {"boxes": 3}
    assert r["seats"] == ["always_raise"] and r["deal"] == 0 and r["seating"] == 0
    assert r["actions"] == [1, 1, 1] and r["action_names"] == ["raise"] * 3
    assert [e["type"] for e in r["events"]] == ["deal", "decide", "decide", "decide", "showdown"]
    assert r["rewards"] == [float(r["events"][-1]["net"])]
    assert json.loads(history.dumps(r)) == r


@pytest.mark.parametrize("game", GAMES)
def test_tampered_histories_are_caught(game):
    (r,) = recorded(game, deals=1, agents=("random",) * 1)
    # a different final reward
    bad = copy.deepcopy(r)
    bad["rewards"][0] += 1
    result = history.replay(bad)
    assert not result.ok and "final rewards differ" in result.message
    # an edited event
    bad = copy.deepcopy(r)
    bad["events"][-1]["edited"] = True
    result = history.replay(bad)
    assert not result.ok and f"event {len(r['events']) - 1}" in result.message and "edited" in result.message
    # an action that is not legal at that point
    bad = copy.deepcopy(r)
    bad["actions"][0] = 10**6
    result = history.replay(bad)
    assert not result.ok and "action 0 (1000000) is illegal on replay" in result.message
    # an extra action after the end
    bad = copy.deepcopy(r)
    bad["actions"].append(0)
    result = history.replay(bad)
    assert not result.ok and "the game ended after" in result.message
    # a different seed deals other cards
    bad = copy.deepcopy(r)
    bad["seed"] += 1
    assert not history.replay(bad).ok


def test_truncated_history_is_caught():
    (r,) = recorded("caribbean_stud", deals=1, agents=("always_raise",), config={"boxes": 2})
    bad = copy.deepcopy(r)
    bad["actions"] = bad["actions"][:1]
    result = history.replay(bad)
    assert not result.ok and "events recorded" in result.message


def test_bad_options_in_a_history_are_reported():
    (r,) = recorded("caribbean_stud", deals=1, agents=("random",))
    bad = copy.deepcopy(r)
    bad["config"] = {"boxes": 99}
    result = history.replay(bad)
    assert not result.ok and "cannot rebuild the game" in result.message and "boxes" in result.message


def test_read_rejects_files_that_are_not_histories(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text('{"game": "caribbean_stud_v0"}\n')
    with pytest.raises(ValueError, match=r"x.jsonl:1: not a pokerzoo hand history \(missing config"):
        list(history.read(path))
    path.write_text("\n{not json\n")
    with pytest.raises(ValueError, match=r"x.jsonl:2: not a JSON line"):
        list(history.read(path))


def test_to_jsonable():
    value = {
        "a": (np.int64(3), np.float32(0.5)),
        "b": np.array([1, 2]),
        4: np.bool_(True),
        "c": frozenset({2, 1}),
    }
    assert history.to_jsonable(value) == {"a": [3, 0.5], "b": [1, 2], "4": True, "c": [1, 2]}
    with pytest.raises(TypeError, match="cannot be written"):
        history.to_jsonable({"x": object()})


def test_unseeded_game_cannot_be_recorded():
    from pokerzoo.envs import game_class

    game = game_class("caribbean_stud")(seed=None)
    with pytest.raises(ValueError, match="seeded"):
        history.make_record(game, "caribbean_stud_v0", {}, ["random"])


def test_cli_replay_exit_status_and_show(tmp_path, capsys):
    records = recorded("caribbean_stud", deals=3, agents=("rules_of_thumb",))
    path = tmp_path / "h.jsonl"
    with history.HistoryWriter(path) as w:
        for r in records:
            w.write(r)
    assert main(["replay", str(path), "--show", "2"]) == 0
    out = capsys.readouterr().out
    assert "line 2: caribbean_stud_v0" in out and "seat 0 (rules_of_thumb):" in out
    assert "3 of 3 games replayed to the recorded outcome" in out
    bad = copy.deepcopy(records[1])
    bad["rewards"] = [123.0]
    with history.HistoryWriter(path, append=True) as w:
        w.write(bad)
    assert main(["replay", str(path), "--quiet"]) == 1
    out = capsys.readouterr().out
    assert "line 4: caribbean_stud_v0" in out and "MISMATCH: final rewards differ" in out
    assert "3 of 4 games replayed" in out and "1 MISMATCHED" in out
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert main(["replay", str(empty)]) == 2
    assert "holds no hand history" in capsys.readouterr().err
