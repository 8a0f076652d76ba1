"""Every observation vector of random play is bitwise what the encoders produced when the digests were written.

The digests (``observation_digests.json``) were captured from the encoders
before their layouts moved onto the observation schema; see
``observation_digests.py`` for how they are made and refreshed.
"""

from __future__ import annotations

import json

import pytest
from observation_digests import CONFIGS, PATH, config_key, digests

EXPECTED = json.loads(PATH.read_text())
CASES = [(game, config) for game, configs in CONFIGS.items() for config in configs]


def test_every_option_set_has_digests():
    assert {(g, config_key(c)) for g, c in CASES} == {(g, k) for g, by in EXPECTED.items() for k in by}


@pytest.mark.parametrize(("game", "config"), CASES, ids=[f"{g}-{config_key(c)}" for g, c in CASES])
def test_observations_are_bitwise_unchanged(game, config):
    expected = EXPECTED[game][config_key(config)]
    got = digests(game, config)
    for want, have in zip(expected, got, strict=True):
        start = want.split()[0]
        assert have == want, (
            f"{game} {config}: observations differ in the block starting at seed/decision {start}; "
            f"replay it with tests/envs/observation_digests.py (refresh with --write only for a deliberate "
            f"layout change)"
        )
