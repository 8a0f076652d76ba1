"""Argument types shared by the commands: values argparse itself checks, so a bad one is a usage error."""

from __future__ import annotations

import argparse
import math


def positive_seconds(text: str) -> float:
    """A finite number of seconds > 0 (``nan``, ``inf`` and ``0`` are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a finite number of seconds > 0, got {text!r}")
    return value


def port(text: str) -> int:
    """A TCP port, 0..65535 (0: any free one)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0..65535 (0 picks a free one), got {value}")
    return value


def jobs(text: str) -> int:
    """A number of worker processes, 1..64."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--jobs must be an integer in 1..64, got {text!r}") from None
    if not 1 <= value <= 64:
        raise argparse.ArgumentTypeError(f"--jobs must be an integer in 1..64, got {value}")
    return value


def add_pairs(parser: argparse.ArgumentParser, flag: str, help: str, absent_is_none: bool = False) -> None:
    """A ``KEY=VALUE ...`` option (config overrides, game options) that accumulates over repeats.

    ``--set a=1 --set b=2`` means both: with a plain ``nargs="*"`` argparse keeps only the last
    repeat's words and silently drops the earlier overrides, which a long training run only shows
    in its saved config. ``absent_is_none``: without the flag the value is None instead of ``[]`` (for an
    option whose absence means "ask elsewhere")."""
    parser.add_argument(
        flag, nargs="*", action="extend", default=None if absent_is_none else [], metavar="KEY=VALUE", help=help
    )


def add_progress(parser: argparse.ArgumentParser) -> None:
    """``--progress/--no-progress`` into ``args.progress``: None (the default) shows the bar only when stderr is a
    terminal, True writes it into a log too (a long run under nohup), False never shows it; what the trainers'
    and the tournament's ``progress`` arguments take."""
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress bar on stderr (default: only when stderr is a terminal; --progress also writes it "
        "into a log, for a long run under nohup)",
    )
