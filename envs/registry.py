"""The one table of games: every game is declared here once, and every other table is derived from it.

A line per game names its env id, where its rules and agents live, the unit
its reports count (what its ``UnitEnd`` events end) and the options the demo
plays it with; its short name (``GameSpec.name``) names its folders: rules in
``envs/<name>/``, configs in ``configs/<name>/``, shipped policies in
``agents/policies/<name>/``. ``ENV_NAMES``,
the agents registry, the evaluation harness, the demo, ``pokerzoo list`` and
the conformance tests all read this table, so adding a game is one folder of
rules, one agents module and one line here (``docs/adding_a_game.md``).

Names are accepted with or without the version suffix (``perico`` or
``perico_v0``); ``canonical`` is the only place that normalises them.

Strings, not imports: the table loads without importing any game, so
``import pokerzoo.envs`` stays cheap and a game's module loads on first use.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pokerzoo.envs.engine.game import Game


@dataclass(frozen=True)
class GameSpec:
    """Everything the project knows about one game beyond its ``Game`` class."""

    env_id: str  # "perico_v0": the PettingZoo-style versioned name
    title: str  # "Perico": for tables and reports
    agents: str  # module with the game's scripted agents (``AGENTS``: name -> constructor)
    unit: str | None = None  # what one UnitEnd event of the game ends ("hand", "round", "deal"): per-unit means
    demo_options: Mapping[str, Any] = field(default_factory=dict)  # what ``pokerzoo demo`` plays it with
    example: bool = False  # a teaching example (docs/adding_a_game.md), not one of the project's games
    batched: str | None = None  # module with the game's batched kernel (``Kernel``), if it has one

    def __post_init__(self):
        object.__setattr__(self, "demo_options", MappingProxyType(dict(self.demo_options)))

    @property
    def name(self) -> str:
        """The short name without the version (``perico``): folders, configs, policies."""
        return self.env_id.rsplit("_v", 1)[0]

    @property
    def module(self) -> str:
        return f"pokerzoo.envs.{self.env_id}"

    def env_module(self) -> ModuleType:
        return importlib.import_module(self.module)

    def game_class(self) -> type[Game]:
        return self.env_module().Game

    def agents_module(self) -> ModuleType:
        return importlib.import_module(self.agents)


GAMES: dict[str, GameSpec] = {
    spec.env_id: spec
    for spec in (
        GameSpec("caribbean_stud_v0", "Caribbean stud", "pokerzoo.agents.caribbean_stud", unit="hand",
                 batched="pokerzoo.envs.caribbean_stud.kernel"),
        # predictions are the bids (UnitEnd of each round)
        GameSpec("mexican_poker_v0", "Mexican poker", "pokerzoo.agents.mexican_poker", unit="round",
                 batched="pokerzoo.envs.mexican_poker.kernel"),
        # drawn rounds included; knocking is not a bid
        GameSpec("perico_v0", "Perico", "pokerzoo.agents.perico", unit="round",
                 batched="pokerzoo.envs.perico.kernel"),
        # betting metrics come from the action names
        GameSpec("breed_the_heifer_v0", "Breed the Heifer", "pokerzoo.agents.breed_the_heifer", unit="hand",
                 batched="pokerzoo.envs.breed_the_heifer.kernel"),
        # The classic schedule is ~2,500 decisions a game, minutes for search agents: the demo
        # plays single deals (one entry of the classic schedule drawn per game).
        GameSpec("raspisnoy_poker_v0", "Raspisnoy poker", "pokerzoo.agents.raspisnoy_poker", unit="deal",
                 demo_options={"schedule": "single"}, batched="pokerzoo.envs.raspisnoy_poker.kernel"),
        # the teaching example of docs/adding_a_game.md
        GameSpec("high_card_v0", "Three-card high card", "pokerzoo.agents.high_card", unit="hand", example=True,
                 batched="pokerzoo.envs.high_card.kernel"),
    )
}  # fmt: skip

ENV_NAMES: tuple[str, ...] = tuple(env_id for env_id, spec in GAMES.items() if not spec.example)


def canonical(name: str) -> str:
    """The env id of ``name`` (``perico`` or ``perico_v0`` -> ``perico_v0``); ValueError naming the games."""
    if isinstance(name, str):
        if name in GAMES:
            return name
        if f"{name}_v0" in GAMES:
            return f"{name}_v0"
    raise ValueError(f"unknown game {name!r}; available: {', '.join(GAMES)}")


def spec(name: str) -> GameSpec:
    """The declaration of game ``name`` (with or without ``_v0``)."""
    return GAMES[canonical(name)]
