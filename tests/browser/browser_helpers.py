"""The headless browser of the viewer and play-page tests: Debian's chromium, driven by selenium.

``make test`` installs the Debian packages ``chromium`` and ``chromium-driver``
where it can (as root, with apt); elsewhere these tests are skipped, with the
reason. The browser runs with the flags a closed network and root need: no
sandbox, no GPU, none of chromium's background connections, and a fresh
profile folder.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

CHROMIUM = Path(os.environ.get("POKERZOO_CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("POKERZOO_CHROMEDRIVER", "/usr/bin/chromedriver"))
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1280,860",
    "--force-device-scale-factor=1",
)

# A dump of what the page shows, in one round trip: per seat its cards in order ("down" for a face-down
# card) and its facts, plus the step, the narration and the decision panel.
DOM_STATE = """
const seats = {};
for (const s of document.querySelectorAll('#pz-stage section.seat')) {
  const facts = {};
  for (const f of s.querySelectorAll('.fact')) facts[f.dataset.fact] = f.querySelector('.value').textContent;
  seats[s.dataset.seat] = {cards: [...s.querySelectorAll('svg.card')].map(c => c.dataset.card), facts,
                           marks: [...s.querySelectorAll('.mark')].map(m => m.textContent)};
}
const center = [...document.querySelectorAll('#pz-stage .center svg.card')].map(c => c.dataset.card);
return {seats, center, step: document.body.dataset.step, ready: document.body.dataset.ready,
        log: [...document.querySelectorAll('#pz-log li')].map(li => li.textContent),
        title: (document.querySelector('#pz-stage h2') || {}).textContent,
        chosen: [...document.querySelectorAll('#pz-decision tr.chosen')].map(tr => tr.textContent)};
"""


def unavailable() -> str | None:
    """Why no browser test can run here, or None."""
    try:
        import selenium  # noqa: F401 (only whether it is installed)
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not path.exists():
            return f"no {path}: install the Debian package {package} (make test does, as root with apt)"
    return None


def wait_ready(driver, timeout: float = 20.0, **expected: str) -> dict:
    """Wait until the page says it is drawn (``body[data-ready=1]`` and any other data- values given)."""
    deadline = time.monotonic() + timeout
    while True:
        state = driver.execute_script("return Object.assign({}, document.body.dataset);")
        if state.get("ready") == "1" and all(state.get(k) == v for k, v in expected.items()):
            return state
        if time.monotonic() > deadline:
            errors = driver.get_log("browser") if hasattr(driver, "get_log") else []
            raise AssertionError(f"the page never got ready ({state}, expected {expected}); console: {errors}")
        time.sleep(0.02)


def dom_state(driver) -> dict:
    return driver.execute_script(DOM_STATE)


def start_browser():
    """A new headless chromium session (the caller quits it); assumes ``unavailable()`` is None."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ.setdefault("SE_AVOID_STATS", "true")  # selenium's usage statistics: no network here
    profile = tempfile.mkdtemp(prefix="pokerzoo-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    driver.set_page_load_timeout(60)
    driver.pokerzoo_profile = profile
    return driver


def stop_browser(driver) -> None:
    driver.quit()
    shutil.rmtree(driver.pokerzoo_profile, ignore_errors=True)


def one_game(name: str, agents, config: dict, seed: int) -> dict:
    """The hand history of one game with ``agents[seat]`` in each seat (decision details included)."""
    import numpy as np

    from pokerzoo.agents.registry import make_agent
    from pokerzoo.envs import game_class
    from pokerzoo.evaluation import history
    from pokerzoo.evaluation.tournament import play_game

    game = game_class(name)(seed=seed, **config)
    players = [
        make_agent(name, spec, seed=int(s))
        for spec, s in zip(agents, np.random.SeedSequence(seed).generate_state(len(agents)))
    ]
    names, details = [], []
    play_game(game, players, list(agents), names=names, details=details)
    return history.make_record(game, name, config, list(agents), action_names=names, decisions=details)
