"""A scalar ``PericoGame`` as one row of the batched kernel's state: load any game into any rows.

Searches sample worlds with the scalar ``determinize`` and want to play them
out by the thousand in the batched engine. ``load_games(env, rows, games)``
writes game ``games[k // repeat]`` into row ``rows[k]`` of a batched Perico
env (either variant, any option): every field of ``kernel.PericoState`` that
carries the game (the phase, the seat to act, the dealer, the round, the draw
turns of the round, the card drawn and waiting for its discard, the scores,
each seat's draw turns and cards exchanged, the sorted hands, the stock and
the discard pile, both bottom to top as the scalar lists lie). The kernel
then ranks every hand itself and writes the row's observation, mask and seat
to act (``kernel_load.finish_loaded_rows``). From there the row plays exactly
the game the scalar one plays under the same actions:
``tests/envs/perico/test_kernel_state.py`` checks it step by step with the
differential kit's comparisons, over every option, mid-round and mid-game.

What the scalar game keeps only for ``determinize`` and its view (the jokers
returned at the deal, the reshuffled piles, who drew what from which stock)
has no field in the kernel: it never changes what is played.

Chance: with ``chance=True`` (default) the row's coming shuffles (reshuffles
of the pile, the deals of the next rounds, their jokers turned and shuffled
back) draw from the game's own ``Chance`` (a ``ScriptedChance``'s remaining
script included), injected like ``reset(options={"chance": ...})``: when the
game ends, the row's own generator takes over again. With ``chance=False``
the rows keep their own generators (a search to the end of the round needs no
more: it spares making a sampled world's generator).

Refused, with a ``ValueError`` naming the problem and nothing written: an env
of another game or with other options (the first option that differs is
named), a game that is over (no decision to load), rows out of range or
repeated, a count of rows that does not match, a chance that is not PCG64.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pokerzoo.envs.batched import loading
from pokerzoo.envs.batched.core import BatchedEnv
from pokerzoo.envs.perico.game import PericoGame
from pokerzoo.envs.perico.kernel import (
    DISCARD_PHASE,
    KNOCK_PHASE,
    MAX_DECK,
    MAX_HAND,
    MAX_PLAYERS,
    TURN_PHASE,
    PericoKernel,
)
from pokerzoo.envs.perico.kernel_load import finish_loaded_rows

PHASES = {"knock": KNOCK_PHASE, "turn": TURN_PHASE, "discard": DISCARD_PHASE}  # the game's phase -> state.phase

# the per-row fields written from a game (``keys`` is computed by the kernel after loading)
FIELDS = (
    "phase", "player", "dealer", "round", "turns", "drawn", "scores", "draw_turns", "exchanged", "last_exchange",
    "hands", "stock", "stock_n", "pile", "pile_n",
)  # fmt: skip
DTYPES = {"phase": np.int8, "hands": np.int8, "stock": np.int8, "pile": np.int8}


def check_loadable(env: BatchedEnv, game: PericoGame) -> None:
    """ValueError unless ``game`` can be loaded into ``env``: the same game, the same options, a decision waiting."""
    if not isinstance(env.kernel, PericoKernel):
        raise ValueError(f"load_games: a Perico game goes into a batched perico env, not {env.name}")
    if not isinstance(game, PericoGame):
        raise ValueError(f"load_games: expected a PericoGame, got {type(game).__name__}")
    loading.check_options(env, game)


def _padded(values: Sequence[int], width: int, fill: int = 0) -> list[int]:
    return [*values, *([fill] * (width - len(values)))]


def game_values(game: PericoGame) -> tuple:
    """One row's value of every field in ``FIELDS``, in that order (ints and lists), read from ``game``."""
    seats = MAX_PLAYERS
    hands = [_padded(h, MAX_HAND + 1) for h in game.hands] + [[0] * (MAX_HAND + 1)] * (seats - game.num_players)
    return (
        PHASES[game.phase], game.player, game.dealer, game.round_number, game.turns, game.drawn,
        _padded(game.scores, seats), _padded(game.draw_turns, seats), _padded(game.exchanged, seats),
        _padded(game.last_exchange, seats), hands, _padded(game.stock, MAX_DECK), len(game.stock),
        _padded(game.pile, MAX_DECK), len(game.pile),
    )  # fmt: skip


def field_arrays(games: Sequence[PericoGame]) -> dict[str, np.ndarray]:
    """Every field of ``FIELDS`` for the games, one row per game, in the state's dtypes."""
    return loading.columns(games, game_values, FIELDS, DTYPES)


def load_games(
    env: BatchedEnv,
    rows: Sequence[int] | np.ndarray,
    games: Sequence[PericoGame],
    *,
    repeat: int = 1,
    chance: bool = True,
) -> None:
    """Row ``rows[k]`` of ``env`` becomes game ``games[k // repeat]`` (module docstring); the games are untouched."""
    loading.write_rows(
        env, rows, games, repeat=repeat, chance=chance, check=check_loadable, fields=field_arrays,
        finish=finish_loaded_rows,
    )  # fmt: skip


def unit_index(env: BatchedEnv, rows: np.ndarray) -> np.ndarray:
    """``PericoGame.unit_index`` of each row: the round under way (replayed rounds counted)."""
    return env.state.round[rows]


__all__ = ["FIELDS", "check_loadable", "field_arrays", "game_values", "load_games", "unit_index"]
