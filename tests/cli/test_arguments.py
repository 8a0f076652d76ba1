"""The commands' KEY=VALUE options accumulate over repeats: ``--set a=1 --set b=2`` keeps both overrides."""

from __future__ import annotations

import pytest

from pokerzoo.cli.main import build_parser

REPEATS = [
    (["train", "c.yaml", "--set", "seed=4", "ppo.n_epochs=1", "--set", "total_timesteps=9"],
     "set", ["seed=4", "ppo.n_epochs=1", "total_timesteps=9"]),
    (["evaluate", "perico", "--agents", "random", "random", "--config", "six_card=true", "--config", "target=3"],
     "config", ["six_card=true", "target=3"]),
    (["play", "perico", "--config", "six_card=true", "--config", "target=3"], "config", ["six_card=true", "target=3"]),
    (["bench", "--config", "num_players=3", "--config", "target=3"], "config", ["num_players=3", "target=3"]),
    (["policy", "convert", "m.zip", "--options", "num_players=3", "--options", "target=3"],
     "options", ["num_players=3", "target=3"]),
]  # fmt: skip


@pytest.mark.parametrize("argv, dest, expected", REPEATS, ids=[argv[0] for argv, _, _ in REPEATS])
def test_repeated_pair_options_accumulate(argv, dest, expected):
    assert getattr(build_parser(argv[0]).parse_args(argv), dest) == expected


def test_absent_pairs_keep_their_default():
    """Without the flag: ``[]`` for overrides and options, None for ``policy convert --options`` (its absence means
    "read the options from the zip"); repeats never leak between parses."""
    assert build_parser("train").parse_args(["train", "c.yaml"]).set == []
    build_parser("train").parse_args(["train", "c.yaml", "--set", "a=1"])
    assert build_parser("train").parse_args(["train", "c.yaml"]).set == []
    assert build_parser("policy").parse_args(["policy", "convert", "m.zip"]).options is None


PROGRESS_COMMANDS = [["train", "c.yaml"], ["demo"], ["evaluate", "perico", "--agents", "random", "random"]]


@pytest.mark.parametrize("argv", PROGRESS_COMMANDS, ids=[argv[0] for argv in PROGRESS_COMMANDS])
def test_progress_is_one_flag_with_three_states(argv):
    """The long-running commands share ``--progress/--no-progress``: absent, None (the bar only on a terminal)."""
    parse = build_parser(argv[0]).parse_args
    assert parse(argv).progress is None
    assert parse([*argv, "--progress"]).progress is True
    assert parse([*argv, "--no-progress"]).progress is False
