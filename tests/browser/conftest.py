"""The ``browser`` fixture (one headless chromium per test process) and ``browser_helpers`` on the path.

pytest runs with --import-mode=importlib, so the helpers' folder is put on
``sys.path`` here, as ``tests/envs/raspisnoy_poker`` does for its helpers.
"""

import sys
from pathlib import Path

import pytest

_HERE = str(Path(__file__).parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from browser_helpers import start_browser, stop_browser, unavailable  # noqa: E402 (needs the path above)


@pytest.fixture(scope="session")
def browser():
    reason = unavailable()
    if reason:
        pytest.skip(reason)
    driver = start_browser()
    try:
        yield driver
    finally:
        stop_browser(driver)
