"""Hypothesis-generated option dicts for every registered game: accepted, or refused with ConfigError only.

Values are drawn from everything a user or a YAML file can hand over (numbers of every size, NaN and
infinities, numpy scalars, strings, lists, nested lists, dicts, None, bools) plus the options' own
choices and defaults; an accepted dict must give a game that plays (every decision has a legal action,
observations are finite) for a few hundred random steps.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerzoo.envs import GAMES, spec
from pokerzoo.envs.engine.options import ConfigError

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.integers(-(2**80), 2**80),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.sampled_from(["54", "34", "56", "single", "classic", "rank_plus_suit", "0" * 65, "dark", "win"]),
    st.integers(-3, 12).map(np.int64),
    st.floats(-5, 50).map(np.float32),
    st.booleans().map(np.bool_),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=8),
        st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(st.text(max_size=4), inner, max_size=3),
    ),
    max_leaves=12,
)


def option_dicts(env_id: str):
    options = list(spec(env_id).game_class().OPTIONS)
    choices = [st.sampled_from(list(o.choices)) for o in options if o.choices]
    own = st.one_of(st.sampled_from([o.default for o in options]), *choices) if choices else st.nothing()
    keys = st.sampled_from([o.name for o in options] + ["bogus"])
    return st.dictionaries(keys, st.one_of(VALUES, own), max_size=4)


def _play(game, steps: int = 300) -> None:
    rng = np.random.default_rng(0)
    for _ in range(steps):
        if game.is_over:
            return
        legal = np.flatnonzero(game.legal_mask())
        assert legal.size, f"{game.NAME} {game.config}: no legal action for the player to act"
        obs = np.asarray(game.encode(game.view(game.current_player)), dtype=np.float32)
        assert obs.shape == (game.observation_size,) and np.isfinite(obs).all()
        game.apply(int(rng.choice(legal)))
        assert np.isfinite(game.take_rewards()).all()


@pytest.mark.parametrize("env_id", list(GAMES))
def test_generated_options_are_accepted_or_refused_with_config_error(env_id):
    cls = spec(env_id).game_class()

    @settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(options=option_dicts(env_id))
    def check(options):
        try:
            game = cls(seed=0, **options)
        except ConfigError as exc:
            assert str(exc), "a ConfigError says what is wrong"
            return
        _play(game)

    check()
