"""Training config keys: NaN and infinities refused naming the key, numpy scalars accepted like Python numbers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pokerzoo.envs.engine.options import ConfigError
from pokerzoo.training import config as train
from pokerzoo.training.config import load_config

BASE = {"game": "caribbean_stud", "engine": "aec", "n_envs": 2, "ppo": {"n_steps": 8, "batch_size": 8}}
SECTIONS = {None: train.TOP, **train.SECTIONS}


def with_key(section: str | None, key: str, value) -> dict:
    cfg = {**BASE, "ppo": dict(BASE["ppo"])}
    if section is None:
        cfg[key] = value
    else:
        cfg.setdefault(section, {})[key] = value
    return cfg


KEYS = [(section, option.name) for section, options in SECTIONS.items() for option in options]


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf], ids=["nan", "inf", "-inf"])
@pytest.mark.parametrize(("section", "key"), KEYS, ids=[f"{s or 'top'}.{k}" for s, k in KEYS])
def test_every_key_refuses_non_finite_numbers_naming_the_key(section, key, value):
    with pytest.raises(ConfigError, match=rf"\b{key}\b"):
        load_config(with_key(section, key, value))


@pytest.mark.parametrize(
    ("section", "key", "value"),
    [
        ("ppo", "learning_rate", {"start": math.nan, "end": 0.0}),
        ("ppo", "ent_coef", {"start": 0.01, "end": math.inf}),
        ("opponents", "scripted", {"random": math.nan}),
        ("opponents", "scripted", {"random": math.inf}),
    ],
)
def test_non_finite_numbers_inside_schedules_and_weights_are_refused(section, key, value):
    with pytest.raises(ConfigError, match=rf"{key}.*finite"):
        load_config(with_key(section, key, value))


def test_yaml_nan_through_set_overrides_is_refused():
    from pokerzoo.evaluation.tournament import parse_config_pairs

    for pair in ("ppo.clip_range=.nan", "ppo.gamma=.inf", "reward_scale=-.inf", "opponents.self_play=.nan"):
        with pytest.raises(ConfigError, match=pair.split("=")[0].split(".")[-1]):
            load_config(BASE, parse_config_pairs([pair]))


def test_numpy_scalars_are_accepted_where_python_numbers_are():
    cfg = load_config(
        {
            **BASE,
            "n_envs": np.int64(2),
            "seed": np.int32(5),
            "total_timesteps": np.uint16(64),
            "reward_scale": np.float32(0.5),
            "options": {"boxes": np.int64(2)},
            "ppo": {"n_steps": np.int64(8), "batch_size": 8, "gamma": np.float64(0.9), "net_arch": [np.int64(8)],
                    "learning_rate": {"start": np.float32(1e-3), "end": 0}},
            "opponents": {"scripted": {"random": np.float64(2.0)}, "self_play": np.float16(0.0)},
        }
    )  # fmt: skip
    assert cfg["n_envs"] == 2 and type(cfg["n_envs"]) is int and type(cfg["seed"]) is int
    assert cfg["ppo"]["gamma"] == 0.9 and type(cfg["ppo"]["gamma"]) is float
    assert cfg["ppo"]["net_arch"] == [8] and cfg["options"]["boxes"] == 2
    assert cfg["ppo"]["learning_rate"]["start"] == pytest.approx(1e-3)


def test_seed_is_within_what_the_generators_take():
    with pytest.raises(ConfigError, match="seed"):
        load_config({**BASE, "seed": 2**32})
