"""``pokerzoo serve`` in a real browser: a Caribbean stud hand and a Perico round played by clicking."""

from __future__ import annotations

from browser_helpers import dom_state, wait_ready

from pokerzoo.cli.web_play import serving
from pokerzoo.evaluation import history, viewer


def click_move(driver, words: str) -> None:
    """Click the legal-move button whose name is ``words`` (or starts with it), and wait for the answer."""
    from selenium.webdriver.common.by import By

    buttons = driver.find_elements(By.CSS_SELECTOR, "#pz-moves button.move")
    match = [b for b in buttons if b.text == words] or [b for b in buttons if b.text.startswith(words)]
    assert match, f"no move {words!r} among {[b.text for b in buttons]}"
    match[0].click()
    wait_ready(driver)


def test_a_caribbean_stud_hand_by_clicking(browser, tmp_path):
    from selenium.webdriver.common.by import By

    record = tmp_path / "c.jsonl"
    with serving("caribbean_stud", record, seed=4, config={"boxes": 2}) as (url, session):
        browser.get(url + "/")
        wait_ready(browser, over="0")
        state = dom_state(browser)
        dealer = state["center"]
        assert dealer[:4] == ["down"] * 4 and dealer[4] != "down", "the dealer shows one card until the showdown"
        assert state["seats"]["0"]["cards"][:5] != ["down"] * 5 and state["seats"]["0"]["cards"][5:] == ["down"] * 5
        click_move(browser, "raise")
        assert "down" not in dom_state(browser)["seats"]["0"]["cards"]  # box 2 is seen from its turn on
        click_move(browser, "fold")
        wait_ready(browser, over="1")
        assert "game over" in browser.find_element(By.ID, "pz-turn").text
        assert "down" not in dom_state(browser)["center"], "the showdown turns the dealer's cards"
        assert session.saved == 1
    (result,) = history.replay_file(record)
    assert result.ok and [name for _, _, name in result.trace] == ["raise", "fold"]


def test_a_perico_round_by_clicking(browser, tmp_path):
    from selenium.webdriver.common.by import By

    record = tmp_path / "p.jsonl"
    with serving("perico", record, opponents=["heuristic"], seed=8, config={"target_score": 1}) as (url, session):
        browser.get(url + "/")
        wait_ready(browser, over="0")
        # a typed move that is not legal: the answer says so and nothing changes
        before = list(session.game.history)
        browser.find_element(By.ID, "pz-move").send_keys("knock")
        browser.find_element(By.ID, "pz-send").click()
        wait_ready(browser)
        assert "'knock' is not a legal move" in browser.find_element(By.ID, "pz-error").text
        assert session.game.history == before
        # a typed legal move
        browser.find_element(By.ID, "pz-move").send_keys("dra")
        browser.find_element(By.ID, "pz-send").click()
        wait_ready(browser)
        assert browser.find_element(By.ID, "pz-error").text == ""
        clicks = 0
        while browser.execute_script("return document.body.dataset.over") == "0":
            state = dom_state(browser)
            for seat, shown in state["seats"].items():
                if seat != "0":
                    assert set(shown["cards"]) == {"down"}, "another seat's hand is face down"
            buttons = [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#pz-moves button.move")]
            if "knock" in buttons:
                click_move(browser, "knock")
            elif "draw" in buttons:
                click_move(browser, "draw")
            else:
                click_move(browser, "discard the drawn card")
            clicks += 1
            assert clicks < 200, "the round never ended"
        assert session.saved == 1 and "game over" in browser.find_element(By.ID, "pz-turn").text
        last = browser.find_element(By.CSS_SELECTOR, "#pz-stage .last h3").text
        assert last.startswith("Round ") and " won" in last
        browser.find_element(By.ID, "pz-new").click()
        wait_ready(browser, number="2")
    (result,) = history.replay_file(record)
    assert result.ok and result.replayed.is_over
    page, shown, _ = viewer.write(record)
    assert shown == 1
    browser.get(page.resolve().as_uri())
    wait_ready(browser, viewpoint="0")  # a served game opens as the human saw it
