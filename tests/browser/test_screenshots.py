"""Screenshots of every game's table in the viewer, and of the play page: the pictures in ``docs/screenshots``.

Always taken (into a temporary folder) and checked to show a table with
cards; ``make screenshots`` sets ``POKERZOO_SCREENSHOTS=docs/screenshots``
to refresh the shipped files. Each is reduced to a 64-colour palette PNG to
stay small.
"""

from __future__ import annotations

import base64
import io
import os
from pathlib import Path

import numpy as np
from browser_helpers import one_game, wait_ready
from PIL import Image

from pokerzoo.cli.web_play import serving
from pokerzoo.envs import game_class
from pokerzoo.evaluation import history, viewer

# game -> (agents, options, seed, which state to show: the first step where it holds)
SHOTS = {
    "caribbean_stud_v0": (("ppo",), {"boxes": 3}, 1, lambda g: g.box == 1),
    "mexican_poker_v0": (
        ("heuristic", "ppo", "heuristic", "ppo"),
        {"num_players": 4, "rounds": 2},
        1,
        lambda g: g.phase == "play" and len(g.trick) >= 3,
    ),
    "perico_v0": (
        ("heuristic", "heuristic", "random", "heuristic"),
        {},
        2,
        lambda g: g.phase == "discard" and g.current_player == 0 and len(g.pile) >= 6,
    ),
    "breed_the_heifer_v0": (
        ("equity", "calling_station", "equity", "calling_station", "equity"),
        {"num_players": 5},
        1,
        lambda g: g.street >= 5 and g.tracker.wild >= 0 and g.betting.folded.count(False) >= 3,
    ),
    "raspisnoy_poker_v0": (
        ("heuristic", "random", "heuristic", "random"),
        {"schedule": [[6, "normal"]]},
        1,
        lambda g: len(g.trick) == 3 and len(g.done_tricks) >= 2,
    ),
}


def _target() -> Path | None:
    folder = os.environ.get("POKERZOO_SCREENSHOTS")
    return Path(folder) if folder else None


def shoot(driver, path: Path) -> Image.Image:
    """The whole page (beyond the window, through the DevTools protocol) as a small palette PNG at ``path``."""
    size = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    clip = {"x": 0, "y": 0, "width": 1280, "height": min(int(size["height"]), 1600), "scale": 1}
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip}
    )
    image = Image.open(io.BytesIO(base64.b64decode(shot["data"]))).convert("RGB")
    small = image.quantize(colors=96, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    path.parent.mkdir(parents=True, exist_ok=True)
    small.save(path, optimize=True)
    return small.convert("RGB")


def assert_shows_a_table(image: Image.Image, path: Path) -> None:
    pixels = np.asarray(image).reshape(-1, 3).astype(int)
    felt = ((pixels[:, 1] > pixels[:, 0] + 30) & (pixels[:, 1] > pixels[:, 2] + 10)).mean()
    card = (pixels.min(axis=1) > 235).mean()
    assert felt > 0.1 and card > 0.03, f"{path} does not look like a table (felt {felt:.2f}, white {card:.2f})"
    assert path.stat().st_size < 200_000, f"{path} is {path.stat().st_size} bytes: keep screenshots small"


def test_screenshots_of_every_games_table(browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    out = _target() or tmp_path
    for name, (agents, config, seed, wanted) in SHOTS.items():
        record = one_game(name, agents, config, seed)
        game = game_class(name)(seed=record["seed"], **record["config"])
        step = None
        for i, action in enumerate(record["actions"]):
            if wanted(game):
                step = i
                break
            game.apply(action)
        assert step is not None, f"{name}: no state to show in seed {seed}"
        source = tmp_path / f"{name}.jsonl"
        source.write_text(history.dumps(record) + "\n")
        page, _, _ = viewer.write(source)
        browser.get(page.resolve().as_uri())
        wait_ready(browser, step="0")
        Select(browser.find_element(By.ID, "pz-viewpoint")).select_by_value("0")
        browser.execute_script(
            "const s = document.getElementById('pz-slider'); s.value = arguments[0];"
            "s.dispatchEvent(new Event('input'));",
            step,
        )
        wait_ready(browser, step=str(step), viewpoint="0")
        path = out / f"{name.removesuffix('_v0')}.png"
        assert_shows_a_table(shoot(browser, path), path)


def test_screenshot_of_the_play_page(browser, tmp_path, monkeypatch):
    out = (_target() or tmp_path).resolve()
    monkeypatch.chdir(tmp_path)  # the page names the history file: a relative path, as `pokerzoo serve` writes it
    with serving("perico", Path("runs", "serve", "perico_v0.jsonl"), seed=6, opponents=["heuristic", "random"]) as (
        url,
        _,
    ):
        browser.get(url + "/")
        wait_ready(browser, over="0")
        path = out / "serve_perico.png"
        assert_shows_a_table(shoot(browser, path), path)
