"""Timelines and the HTML viewer: every step of a history, per viewpoint, in one self-contained page.

The browser itself is exercised in ``tests/browser``; here the data the page
embeds is checked against the replayed game.
"""

from __future__ import annotations

import base64
import copy
import gzip
import json
import re

import numpy as np
import pytest

from pokerzoo.agents.base import Agent, CompositeAgent, RandomAgent, details
from pokerzoo.agents.registry import make_agent
from pokerzoo.cli.main import main
from pokerzoo.envs import game_class
from pokerzoo.envs.engine import scene as sc
from pokerzoo.evaluation import history, timeline, viewer
from pokerzoo.evaluation.tournament import Tournament, installed_games, run_tournament

GAMES = installed_games()
BLOB = re.compile(r'<script type="text/plain" id="pz-blob-(\d+)">([^<]*)</script>')


def recorded(game: str, agents=("random", "random"), deals: int = 1, seed: int = 3, **kw) -> list[dict]:
    t = Tournament(game, agents, deals=deals, seed=seed, record=True, **kw)
    return [rec.history for rec in run_tournament(t, workers=1, progress=False).records]


def embedded(page: str) -> list[dict]:
    """The timelines a viewer page carries, unpacked as the browser does (base64, gunzip, JSON)."""
    return [json.loads(gzip.decompress(base64.b64decode(text))) for _, text in BLOB.findall(page)]


@pytest.mark.parametrize("game", GAMES)
def test_timeline_has_every_step_and_viewpoint_and_matches_the_replay(game):
    small = {"raspisnoy_poker_v0": {"schedule": [[3, "normal"], [2, "dark"], [1, "forehead"]]}}  # not 2,500 steps
    (record, *_) = recorded(game, agents=("random",) * 2, config=small.get(game, {}))
    tl = timeline.build(record, line=1)
    assert tl["replay"] == "ok"
    n = len(record["rewards"])
    assert tl["viewpoints"] == [*map(str, range(n)), "all"]
    assert len(tl["steps"]) == len(record["actions"]) + 1
    replayed = game_class(record["game"])(seed=record["seed"], **record["config"])
    for i, step in enumerate(tl["steps"]):
        assert step["actor"] == replayed.current_player
        for key, view in step["views"].items():
            viewer_seat = None if key == "all" else int(key)
            assert view["scene"] == replayed.scene(viewer_seat)
            if i == len(record["actions"]):
                assert view["say"].startswith("game over")
                continue
            action = record["actions"][i]
            sees_options = viewer_seat is None or viewer_seat == step["actor"]
            assert ("legal" in view) == sees_options and ("action" in view) == sees_options
            if sees_options:
                assert [a for a, _ in view["legal"]] == replayed.legal_actions() and view["action"] == action
            assert view["say"].endswith(
                replayed.action_name(action)
                if viewer_seat is None
                else replayed.public_action_name(action, viewer_seat)
            )
        if i < len(record["actions"]):
            replayed.apply(record["actions"][i])
    assert tl["steps"][-1]["totals"] == pytest.approx(record["rewards"])


def test_mexican_predictions_stay_secret_in_the_other_seats_narration():
    (record, *_) = recorded("mexican_poker", agents=("random",) * 4, config={"num_players": 4, "rounds": 1})
    first = timeline.build(record)["steps"][0]
    actor = first["actor"]
    for key, view in first["views"].items():
        if key not in ("all", str(actor)):
            assert view["say"].endswith("places a prediction (secret until all have predicted)")
            assert "action" not in view and "legal" not in view  # the action id is the prediction
    assert first["views"][str(actor)]["say"].endswith(f"predict {record['actions'][0]}")


def test_seat_only_timelines_leave_out_the_other_viewpoints():
    (record, *_) = recorded("perico", agents=("random",) * 4, config={"target_score": 1})
    tl = timeline.build(record, seats=[2], all_cards=False)
    assert tl["viewpoints"] == ["2"]
    assert all(set(step["views"]) == {"2"} for step in tl["steps"])
    with pytest.raises(ValueError, match="seat 7 is not a seat"):
        timeline.build(record, seats=[7])


def test_decision_details_come_from_policies_and_search_and_reach_the_timeline():
    records = recorded(
        "raspisnoy_poker", agents=("ppo", "pimc"), config={"num_players": 4, "schedule": [[2, "normal"]]}
    )
    record = records[0]
    decisions = record["decisions"]
    assert len(decisions) == len(record["actions"])
    kinds = {d["kind"] for d in decisions if d is not None}
    assert kinds == {"probabilities", "values"}
    replayed = game_class(record["game"])(seed=record["seed"], **record["config"])
    for action, d in zip(record["actions"], decisions):
        legal = set(replayed.legal_actions())
        if d is not None:
            assert set(d["actions"]) <= legal and len(d["values"]) == len(d["actions"])
            best = d["actions"][int(np.argmax(d["values"]))]
            assert best == action, "a deterministic policy and PIMC both play their best-valued action"
            if d["kind"] == "probabilities":
                assert set(d["actions"]) == legal and sum(d["values"]) == pytest.approx(1, abs=1e-4)
        replayed.apply(action)
    steps = timeline.build(record)["steps"]
    with_details = [s for s in steps if "decision" in s["views"]["all"]]
    assert with_details and all("decision" in s["views"][str(s["actor"])] for s in with_details)
    other = [s["views"][str((s["actor"] + 1) % 4)] for s in with_details]
    assert not any("decision" in v for v in other), "another seat's probabilities would reveal its hand"


def test_agents_say_nothing_by_default_and_composites_pass_on_the_acting_agents_details():
    class Sure(Agent):
        def act(self, view, mask, game=None):
            legal = np.flatnonzero(mask)
            self.said = details("values", legal.tolist(), [1.0] * legal.size, "always sure")
            return int(legal[0])

        def decision_details(self):
            return self.said

    game = game_class("perico_v0")(seed=0)
    random_agent = RandomAgent(0)
    random_agent.act(game.view(game.current_player), game.legal_mask(), game)
    assert random_agent.decision_details() is None
    both = CompositeAgent(Sure(), RandomAgent(1), game.BIDDING_PHASES)
    both.act(game.view(game.current_player), game.legal_mask(), game)  # a draw turn: the player decides
    assert both.decision_details() is None
    while game.phase != "knock":
        game.apply(game.legal_actions()[0])
    both.act(game.view(game.current_player), game.legal_mask(), game)
    assert both.decision_details()["note"] == "always sure"
    with pytest.raises(ValueError, match="kind"):
        details("guesses", [1], [0.5])
    policy = make_agent("caribbean_stud", "ppo")
    g = game_class("caribbean_stud_v0")(seed=1)
    chosen = policy.act(g.view(0), g.legal_mask(), g)
    said = policy.decision_details()
    assert said["kind"] == "probabilities" and said["actions"][int(np.argmax(said["values"]))] == chosen


def test_version_1_histories_still_replay_and_view_and_unknown_versions_are_refused(tmp_path):
    (record, *_) = recorded(
        "raspisnoy_poker", agents=("ppo", "random"), config={"num_players": 4, "schedule": [[2, "dark"]]}
    )
    assert record["format"] == history.FORMAT == "pokerzoo.history/2" and "decisions" in record
    old = copy.deepcopy(record)
    old["format"] = "pokerzoo.history/1"
    del old["decisions"]
    path = tmp_path / "old.jsonl"
    path.write_text(history.dumps(old) + "\n")
    (result,) = history.replay_file(path)
    assert result.ok, result.describe()
    page, shown, total = viewer.page(history.read(path))
    (tl,) = embedded(page)
    assert shown == total == 1 and tl["replay"] == "ok"
    assert not any("decision" in v for s in tl["steps"] for v in s["views"].values())
    newer = dict(old, format="pokerzoo.history/9")
    path.write_text(history.dumps(newer) + "\n")
    with pytest.raises(ValueError, match=r"format 'pokerzoo.history/9' is not one this pokerzoo reads"):
        list(history.read(path))


def test_the_page_is_self_contained_and_carries_every_game(tmp_path, capsys):
    records = recorded("breed_the_heifer", agents=("equity", "random"), deals=2, config={"num_players": 3})
    path = tmp_path / "t.jsonl"
    with history.HistoryWriter(path) as w:
        for r in records:
            w.write(r)
    assert main(["view", str(path), "--out", str(tmp_path / "v.html")]) == 0
    assert f"viewer: {tmp_path / 'v.html'} ({len(records)} games" in capsys.readouterr().out
    page = (tmp_path / "v.html").read_text()
    # No resource from anywhere: no src/href attributes, a CSP that forbids the network, and the only
    # URL in the page is SVG's namespace name (an identifier, never fetched).
    assert not re.search(r"""\s(src|href)\s*=""", page)
    assert "default-src 'none'" in page
    assert set(re.findall(r"https?://[^\s\"'<>)]+", page)) == {"http://www.w3.org/2000/svg"}
    timelines = embedded(page)
    assert [t["line"] for t in timelines] == list(range(1, len(records) + 1)) and len(records) == 4
    meta = json.loads(re.search(r'<script type="application/json" id="pz-meta">(.*?)</script>', page).group(1))
    assert [g["seats"] for g in meta["games"]] == [r["seats"] for r in records]
    assert all(g["outcome"] in ("decided", "tie") for g in meta["games"])
    # filters on the command line: one agent's games, some lines, a cap, and seat-only pages
    assert main(["view", str(path), "--out", str(tmp_path / "a.html"), "--lines", "2", "4", "--max-games", "1"]) == 0
    (only,) = embedded((tmp_path / "a.html").read_text())
    assert only["line"] == 2 and "1 game of 2" in capsys.readouterr().out
    assert main(["view", str(path), "--out", str(tmp_path / "s.html"), "--seat", "1", "--no-all-cards"]) == 0
    seat_only = embedded((tmp_path / "s.html").read_text())
    assert all(t["viewpoints"] == ["1"] for t in seat_only)
    for t in seat_only:  # seat 1 never sees another seat's down cards face up before the showdown
        for step in t["steps"][:-1]:
            for seat in step["views"]["1"]["scene"]["seats"]:
                if seat["seat"] != 1:
                    assert not sc.face_names(seat["rows"][0]), "another seat's down cards leaked"
    assert main(["view", str(path), "--agent", "nobody"]) == 2
    assert "holds no hand history matching the filters" in capsys.readouterr().err


def test_a_tampered_history_is_shown_with_its_mismatch():
    (record, *_) = recorded("perico", agents=("random",) * 4, config={"target_score": 1})
    bad = copy.deepcopy(record)
    bad["rewards"][0] += 5
    tl = timeline.build(bad)
    assert "final rewards differ" in tl["replay"]
    assert len(tl["steps"]) == len(record["actions"])  # every step, but no verified final state


def test_view_open_hands_the_page_to_the_browser(tmp_path, monkeypatch, capsys):
    import webbrowser

    (record, *_) = recorded("caribbean_stud", agents=("random",))
    path = tmp_path / "c.jsonl"
    path.write_text(history.dumps(record) + "\n")
    opened = []
    monkeypatch.setattr(webbrowser, "open", opened.append)
    assert main(["view", str(path), "--open"]) == 0
    assert opened == [(tmp_path / "c.html").resolve().as_uri()]
    assert "viewer:" in capsys.readouterr().out
