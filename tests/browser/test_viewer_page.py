"""The viewer page in a real browser: click through a game of each kind and check the DOM at every step.

The expectations come from the replayed game's views (not from the scenes the
page was built from): the viewpoint seat's own cards face up, every other
seat's hidden cards face down and only counted, the scores, the rewards.
"""

from __future__ import annotations

import numpy as np
import pytest
from browser_helpers import dom_state, one_game, wait_ready

from pokerzoo.envs import game_class
from pokerzoo.envs.engine.cards import DECKS, format_card
from pokerzoo.evaluation import history, timeline, viewer
from pokerzoo.evaluation.tournament import Tournament, run_tournament

GAMES = {
    "caribbean_stud_v0": (("ppo",), {"boxes": 2}),
    "mexican_poker_v0": (("heuristic", "random", "random"), {"num_players": 3, "rounds": 1}),
    "perico_v0": (("heuristic", "random", "random"), {"num_players": 3, "target_score": 1}),
    "breed_the_heifer_v0": (("equity", "random", "random"), {"num_players": 3}),
    "raspisnoy_poker_v0": (
        ("heuristic", "random", "random"), {"num_players": 3, "schedule": [[3, "normal"], [1, "forehead"]]},
    ),
}  # fmt: skip
LOG_LINES = 300  # the narration shows the latest 300 actions (viewer.js)
MAX_CLICKS = 70  # steps clicked one by one; a longer game is checked at its last step too


def record_of(name: str, seed: int = 7) -> dict:
    agents, config = GAMES[name]
    return one_game(name, agents, config, seed)


def names(game, cards) -> list[str]:
    chars = DECKS[game.deck_name].suit_chars
    return [format_card(c, chars) for c in cards]


def signed(x: float) -> str:
    x = round(float(x), 4)
    return f"+{x:g}" if x > 0 else f"{x:g}"


def expected(game, seat: int) -> dict[int, tuple[list[str], tuple[str, str] | None]]:
    """Per seat: its cards as seat ``seat`` sees them ("down" = face down), and its score fact."""
    v = game.view(seat)
    n = game.num_players
    down = ["down"]
    name = game.NAME
    if name == "caribbean_stud":
        cards = []
        for b in range(v.boxes):
            cards += names(game, v.box_cards[b]) if v.box_cards[b] else down * (5 if v.dealer_up >= 0 else 0)
        return {0: (cards, None)}
    out = {}
    for q in range(n):
        if name == "perico":
            drawing = v.phase == "discard" and v.current_player == q
            if q == seat:
                cards = names(game, v.hand) + (names(game, [v.drawn]) if v.drawn >= 0 else [])
            else:
                cards = down * (v.hand_size + drawing)
            out[q] = (cards, ("score", str(v.scores[q])))
        elif name == "mexican_poker":
            cards = names(game, v.hand) if q == seat else down * v.hand_counts[q]
            out[q] = (cards, ("score", str(v.scores[q])))
        elif name == "breed_the_heifer":
            hole = names(game, v.down) if q == seat else down * len(game.down[q])
            out[q] = (hole + names(game, v.up[q]), ("stack", str(v.stacks[q])))
        else:  # raspisnoy_poker
            if q == seat:
                cards = down * v.hand_sizes[q] if v.hand_hidden else names(game, v.hand)
            else:
                cards = names(game, v.visible[q]) if v.visible[q] else down * v.hand_sizes[q]
            out[q] = (cards, ("total", f"{v.scores[q]:g}"))
    return out


def check_step(driver, game, seat: int, totals, step: int) -> None:
    state = dom_state(driver)
    assert state["step"] == str(step)
    assert len(state["log"]) == min(step, LOG_LINES), "the narration lists the actions before this step"
    for q, (cards, score) in expected(game, seat).items():
        shown = state["seats"][str(q)]
        assert shown["cards"] == cards, f"{game.NAME} step {step}, seat {q} seen by {seat}"
        if score is not None:
            assert shown["facts"][score[0]] == score[1], f"{game.NAME} step {step}: {score[0]} of seat {q}"
        assert shown["facts"]["reward"].split(" ")[0] == signed(totals[q])
        assert ("to act" in shown["marks"]) == (q == game.current_player)


@pytest.mark.parametrize("name", list(GAMES))
def test_click_through_a_game_and_the_dom_matches_the_history(browser, tmp_path, name):
    record = record_of(name)
    path = tmp_path / "h.jsonl"
    with history.HistoryWriter(path) as w:
        w.write(record)
    page, _, _ = viewer.write(path)
    browser.get(page.resolve().as_uri())
    wait_ready(browser, step="0")
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    seat = 0
    Select(browser.find_element(By.ID, "pz-viewpoint")).select_by_value(str(seat))
    wait_ready(browser, viewpoint=str(seat))
    game = game_class(name)(seed=record["seed"], **record["config"])
    totals = game.take_rewards().copy()
    actions = record["actions"]
    clicked = min(len(actions), MAX_CLICKS)
    for step in range(clicked + 1):
        check_step(browser, game, seat, totals, step)
        if step < clicked:
            game.apply(actions[step])
            totals += game.take_rewards()
            browser.find_element(By.ID, "pz-next").click()
            wait_ready(browser, step=str(step + 1))
    for action in actions[clicked:]:
        game.apply(action)
        totals += game.take_rewards()
    browser.find_element(By.ID, "pz-last").click()
    wait_ready(browser, step=str(len(actions)))
    check_step(browser, game, seat, totals, len(actions))
    assert "game over" in browser.find_element(By.ID, "pz-say").text
    # back, first, the slider, play
    browser.find_element(By.ID, "pz-back").click()
    wait_ready(browser, step=str(len(actions) - 1))
    browser.find_element(By.ID, "pz-first").click()
    wait_ready(browser, step="0")
    browser.execute_script(
        "const s = document.getElementById('pz-slider'); s.value = arguments[0]; s.dispatchEvent(new Event('input'));",
        len(actions) // 2,
    )
    wait_ready(browser, step=str(len(actions) // 2))
    if len(actions) > 1:
        browser.find_element(By.ID, "pz-first").click()
        browser.find_element(By.ID, "pz-speed").send_keys("fast")
        browser.find_element(By.ID, "pz-play").click()
        wait_ready(browser, timeout=30, step="1")
        browser.find_element(By.ID, "pz-play").click()  # pause
    # the all-cards viewpoint: nobody's cards are face down
    Select(browser.find_element(By.ID, "pz-viewpoint")).select_by_value("all")
    wait_ready(browser, viewpoint="all")
    for shown in dom_state(browser)["seats"].values():
        assert "down" not in shown["cards"]


def test_the_decision_panel_shows_the_policys_probabilities(browser, tmp_path):
    record = record_of("caribbean_stud_v0")
    path = tmp_path / "h.jsonl"
    path.write_text(history.dumps(record) + "\n")
    page, _, _ = viewer.write(path)
    browser.get(page.resolve().as_uri())
    wait_ready(browser, step="0")
    state = dom_state(browser)
    chosen_name = record["action_names"][0]
    (chosen,) = state["chosen"]
    probability = dict(zip(record["decisions"][0]["actions"], record["decisions"][0]["values"]))[record["actions"][0]]
    assert chosen.startswith(f"▶ {chosen_name}") and f"{100 * probability:.1f}%" in chosen


def test_a_tournament_file_lists_its_games_filterable_by_agent_and_outcome(browser, tmp_path):
    t = Tournament("breed_the_heifer", ("equity", "random"), deals=3, seed=1, config={"num_players": 2}, record=True)
    records = [r.history for r in run_tournament(t, workers=1, progress=False).records]
    path = tmp_path / "t.jsonl"
    with history.HistoryWriter(path) as w:
        for r in records:
            w.write(r)
    page, shown, _ = viewer.write(path)
    assert shown == len(records) == 6
    browser.get(page.resolve().as_uri())
    wait_ready(browser)
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    def rows() -> list[int]:
        return [int(tr.get_attribute("data-game")) for tr in browser.find_elements(By.CSS_SELECTOR, "#pz-games tr")]

    assert rows() == list(range(6))
    summaries = [timeline.summary(r, i + 1) for i, r in enumerate(records)]
    Select(browser.find_element(By.ID, "pz-filter-agent")).select_by_value("equity")
    Select(browser.find_element(By.ID, "pz-filter-outcome")).select_by_value("won")
    won = [
        i
        for i, s in enumerate(summaries)
        if s["outcome"] != "tie" and any(s["seats"][w] == "equity" for w in s["winners"])
    ]
    assert rows() == won
    Select(browser.find_element(By.ID, "pz-filter-outcome")).select_by_value("lost")
    lost = [i for i, s in enumerate(summaries) if i not in won and s["outcome"] != "tie"]
    assert rows() == lost
    assert browser.find_element(By.ID, "pz-count").text.startswith(f"{len(lost)} of 6 games")
    Select(browser.find_element(By.ID, "pz-filter-outcome")).select_by_value("any")
    browser.find_elements(By.CSS_SELECTOR, "#pz-games tr")[3].click()
    wait_ready(browser, step="0")
    assert "line 4" in browser.find_element(By.ID, "pz-title").text
    seed = np.int64(records[3]["seed"])
    assert str(seed) in browser.find_element(By.ID, "pz-title").text
