"""The play server over real HTTP: full games, clear 4xx answers that change nothing, no hidden card sent.

The clicking through the page is in ``tests/browser``; these tests speak the
JSON API directly, so they run everywhere.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import numpy as np
import pytest

from pokerzoo.cli.main import main
from pokerzoo.cli.web_play import serving
from pokerzoo.envs.engine import scene as sc
from pokerzoo.envs.engine.cards import format_card
from pokerzoo.evaluation import history, viewer


def request(url: str, method: str = "GET", body=None, content_type: str = "application/json", raw: bytes | None = None):
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(url, data=data, method=method)
    if content_type:
        req.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_a_caribbean_hand_by_typed_moves_is_saved_and_replays(tmp_path):
    record = tmp_path / "served.jsonl"
    with serving("caribbean_stud", record, config={"boxes": 2}, seed=5) as (url, _):
        status, state = request(url + "/api/state")
        assert status == 200 and state["your_turn"] and [n for _, n in state["legal"]] == ["fold", "raise"]
        status, state = request(url + "/api/act", "POST", {"move": "rai"})  # a unique beginning, as in `play`
        assert status == 200 and not state["over"]
        status, state = request(url + "/api/act", "POST", {"action": 0})
        assert status == 200 and state["over"] and state["saved"] == 1
        assert "box 2" in json.dumps(state["scene"]) and state["scene"]["last"]["title"].startswith("Hand 1 settled")
        status, again = request(url + "/api/new", "POST", {})
        assert status == 200 and again["number"] == 2 and not again["over"]
    (result,) = history.replay_file(record)
    assert result.ok and result.trace[0][1:] == (1, "raise") and result.trace[1][1:] == (0, "fold")
    line = json.loads(record.read_text())
    assert line["human_seat"] == 0 and line["seats"] == ["you"]
    assert viewer.page(history.read(record))[1] == 1
    assert main(["replay", str(record)]) == 0


def test_bad_requests_get_clear_4xx_answers_and_change_nothing(tmp_path):
    with serving("perico", tmp_path / "p.jsonl", opponents=["heuristic"], seed=11) as (url, session):
        _, before = request(url + "/api/state")
        history_before = list(session.game.history)
        cases = [
            (("GET", "/nowhere", None), 404, "no such page"),
            (("POST", "/nowhere", {}), 404, "no such route"),
            (("GET", "/api/act", None), 405, "takes POST"),
            (("POST", "/api/state", {}), 405, "takes GET"),
            (("POST", "/api/act", {"action": 999}), 422, "there is no move 999; moves are numbered 0..39"),
            (("POST", "/api/act", {"action": 0}), 422, "move 0 is not legal now; legal: 2:draw"),
            (("POST", "/api/act", {"move": "knock"}), 422, "'knock' is not a legal move"),
            (("POST", "/api/act", {"move": "exchange slots 0"}), 422, "ambiguous"),
            (("POST", "/api/act", {"action": "2"}), 400, '"action" must be an integer action id'),
            (("POST", "/api/act", {"action": True}), 400, '"action" must be an integer'),
            (("POST", "/api/act", {"move": 3}), 400, '"move" must be a string'),
            (("POST", "/api/act", {"action": 2, "move": "draw"}), 400, "exactly one of"),
            (("POST", "/api/act", {"cheat": 1}), 400, "unknown field(s): cheat"),
            (("POST", "/api/act", [2]), 400, "expected a JSON object"),
            (("POST", "/api/new", {}), 409, "not over yet"),
        ]
        for (method, path, body), status, words in cases:
            got, answer = request(url + path, method, body)
            assert got == status and words in answer["error"], (path, body, got, answer)
        got, answer = request(url + "/api/act", "POST", raw=b"{not json", content_type="application/json")
        assert got == 400 and "not JSON" in answer["error"]
        got, answer = request(url + "/api/act", "POST", raw=b'{"action": 2}', content_type="text/plain")
        assert got == 415
        got, answer = request(url + "/api/act", "POST", raw=b" " * 70_000)
        assert got == 413
        got, answer = request(url + "/api/act", "POST", {"action": 0})
        assert [a for a, _ in answer["legal"]] == [a for a, _ in before["legal"]], "a 422 lists the legal moves"
        _, after = request(url + "/api/state")
        assert after == before and session.game.history == history_before
        status, _ = request(url + "/api/act", "POST", {"move": "draw"})
        assert status == 200 and session.game.history[len(history_before)] == 2


def _hidden_from(session) -> set[str]:
    """The cards the human's seat cannot see now: the other Perico hands and another seat's drawn card."""
    game, seat = session.game, session.table.seat
    hidden = [c for p, hand in enumerate(game.hands) if p != seat for c in hand] + list(game.stock)
    if game.drawn >= 0 and game.current_player != seat:
        hidden.append(game.drawn)
    return {format_card(c) for c in hidden}


def test_no_response_ever_shows_another_seats_hidden_cards(tmp_path):
    rng = np.random.default_rng(0)
    record = tmp_path / "p.jsonl"
    with serving("perico", record, opponents=["heuristic", "random"], seed=2, config={"target_score": 2}) as (
        url,
        session,
    ):
        responses = games = 0
        status, state = request(url + "/api/state")
        while responses < 30:
            if state["over"]:
                games += 1
                status, state = request(url + "/api/new", "POST", {})
                continue
            hidden = _hidden_from(session)
            shown = dict(state["scene"], last=None)  # the latest showdown's hands were public when shown
            leaked = set(sc.face_names(shown)) & hidden
            assert not leaked, f"response {responses} shows hidden cards {leaked}"
            assert state["scene"] == session.game.scene(session.table.seat)
            world = session.game.determinize(session.table.seat, rng)
            assert world.scene(session.table.seat) == state["scene"]
            assert state["your_turn"] and all(isinstance(a, int) for a, _ in state["legal"])
            action = int(rng.choice([a for a, _ in state["legal"]]))
            status, state = request(url + "/api/act", "POST", {"action": action})
            assert status == 200
            responses += 1
    assert games >= 1
    assert all(result.ok for result in history.replay_file(record))


def test_serve_rejects_bad_setups_before_listening(tmp_path, capsys):
    assert main(["serve", "perico", "--seat", "9", "--record", str(tmp_path / "x.jsonl"), "--port", "0"]) == 2
    assert "--seat 9 is not a seat of perico_v0" in capsys.readouterr().err
    assert main(["serve", "perico", "--opponents", "nobody", "--port", "0"]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["serve"])
