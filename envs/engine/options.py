"""Declared, validated game options.

Every game lists its options once; the same declaration validates keyword
arguments before anything is built (a bad value never half-creates a game),
fills defaults, and feeds ``pokerzoo list`` and the docs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np


class ConfigError(ValueError):
    """A game option is unknown, of the wrong type, or out of its allowed range."""


_MISSING = object()


def plain(value: Any) -> Any:
    """numpy scalars as the Python values they hold (``np.int64(4)`` -> ``4``), inside lists and tuples too.

    Options and config keys accept numpy scalars wherever Python numbers are accepted: values computed
    with numpy (``np.arange``, an array's element) are as good as typed ones.
    """
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    if isinstance(value, dict):
        return {plain(k): plain(v) for k, v in value.items()}
    return value


def finite_number(value: Any) -> bool:
    """An int or a finite float (not bool, not NaN, not ±inf)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return isinstance(value, int) or math.isfinite(value)


@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    doc: str
    kind: type | tuple[type, ...] | None = None  # accepted Python type(s); None: any
    choices: tuple | None = None
    low: float | None = None
    high: float | None = None
    convert: Callable[[Any], Any] | None = None  # normalises and checks a value; raise ValueError if bad
    # Changes only what each seat is shown (pieces appended to the observation), never a rule or a result: a
    # batched table turns it on for a policy trained with it, while the others read the observation's first
    # entries, what they were trained on (``training.selfplay.league.table_options``).
    view_only: bool = False

    def allowed(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        parts = []
        if self.kind is not None:
            kinds = self.kind if isinstance(self.kind, tuple) else (self.kind,)
            parts.append(" or ".join(k.__name__ for k in kinds))
        if self.low is not None or self.high is not None:
            lo = "" if self.low is None else f"{self.low}"
            hi = "" if self.high is None else f"{self.high}"
            parts.append(f"in {lo}..{hi}")
        return " ".join(parts) or "any value"

    def check(self, value: Any) -> Any:
        value = plain(value)
        if isinstance(value, float) and not math.isfinite(value):
            raise ConfigError(f"option {self.name}={value!r}: expected a finite number, not NaN or infinity")
        if self.kind is not None:
            kinds = self.kind if isinstance(self.kind, tuple) else (self.kind,)
            ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
            if not ok and float in kinds and isinstance(value, int) and not isinstance(value, bool):
                value, ok = float(value), True
            if not ok:
                raise ConfigError(
                    f"option {self.name}={value!r}: expected {self.allowed()}, got {type(value).__name__}"
                )
        if self.choices is not None and value not in self.choices:
            raise ConfigError(f"option {self.name}={value!r} is not allowed; expected {self.allowed()}")
        in_range = value is None or (  # None, where the kind allows it, means "chosen for you": no range applies
            (self.low is None or value >= self.low) and (self.high is None or value <= self.high)
        )
        if not in_range:
            raise ConfigError(f"option {self.name}={value!r} is out of range; expected {self.allowed()}")
        if self.convert is not None:
            try:
                value = self.convert(value)
            except (ValueError, TypeError) as exc:
                raise ConfigError(f"option {self.name}={value!r}: {exc}") from None
        return value


class OptionSet:
    """The options of one game, plus an optional check across options (e.g. deck size vs players)."""

    def __init__(self, *options: Option, check: Callable[[dict], None] | None = None):
        self.options = {o.name: o for o in options}
        self._check = check

    def __iter__(self):
        return iter(self.options.values())

    def defaults(self) -> dict:
        return {name: o.default for name, o in self.options.items()}

    def validate(self, given: dict) -> dict:
        unknown = sorted(str(k) if isinstance(k, str) else repr(k) for k in set(given) - set(self.options))
        if unknown:
            raise ConfigError(
                f"unknown option{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; "
                f"known options: {', '.join(self.options)}"
            )
        config = {}
        for name, option in self.options.items():
            value = given.get(name, _MISSING)
            config[name] = option.default if value is _MISSING else option.check(value)
        if self._check is not None:
            try:
                self._check(config)
            except ConfigError:
                raise
            except ValueError as exc:
                raise ConfigError(str(exc)) from None
        return config

    def describe(self) -> Iterable[tuple[str, Any, str, str]]:
        """(name, default, allowed values, doc) per option."""
        for o in self.options.values():
            yield o.name, o.default, o.allowed(), o.doc


def num_players_option(low: int, high: int, default: int) -> Option:
    return Option("num_players", default, "number of seats", kind=int, low=low, high=high)
