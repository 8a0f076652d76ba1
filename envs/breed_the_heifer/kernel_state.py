"""A scalar ``BreedTheHeiferGame`` as one row of the batched kernel's state: load any game into any rows.

Searches sample worlds with the scalar ``determinize`` and want to play them
out by the thousand in the batched engine. ``load_games(env, rows, games)``
writes game ``games[k // repeat]`` into row ``rows[k]`` of a batched Breed the
Heifer env: every field of ``kernel.HeiferState`` from the game's
``LimitBetting`` (stacks, bets, put in this hand, folded, who still has to act
and who may still raise, the bet size, the highest bet, the bets made), its
cards (each seat's in dealing order: down, down, up, up, up, up, down), the
wild tracker, the shuffled stock and where the deal has reached in it, the
hand of the episode, the button and the openers, and each seat's checks, calls
and bets or raises this hand (the ``actions`` piece of ``action_counts``). The kernel then computes
each seat's key with the current wild itself and writes the row's observation,
mask and seat to act (``kernel_load.finish_loaded_rows``). From there the row
plays exactly the game the scalar one plays under the same actions:
``tests/envs/breed_the_heifer/test_kernel_state.py`` checks it step by step
with the differential kit's comparisons, over every option, mid-hand and
mid-episode.

Chance: with ``chance=True`` (default) the row's coming shuffles (the next
hands of a multi-hand episode) draw from the game's own ``Chance`` (a
``ScriptedChance``'s remaining script included), injected like
``reset(options={"chance": ...})``: when the episode ends, the row's own
generator takes over again. With ``chance=False`` the rows keep their own
generators, which is all a search to the end of the hand needs (and it spares
making a sampled world's generator).

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
from pokerzoo.envs.breed_the_heifer.game import BreedTheHeiferGame
from pokerzoo.envs.breed_the_heifer.kernel import MAX_CARDS, HeiferKernel
from pokerzoo.envs.breed_the_heifer.kernel_load import finish_loaded_rows

# the per-row fields written from a game (``key`` is computed by the kernel after loading)
FIELDS = (
    "hand", "dealer", "street", "opener", "sixth", "to_act", "live", "bet_size", "current_bet", "complete",
    "stacks", "start_stacks", "committed", "bets", "folded", "needs", "can_raise", "cards", "ncards",
    "player_ranks", "table_ranks", "wild", "pending", "stock", "next_card", "acts",
)  # fmt: skip


def check_loadable(env: BatchedEnv, game: BreedTheHeiferGame) -> None:
    """ValueError unless ``game`` can be loaded into ``env``: the same game, the same options, a decision waiting."""
    if not isinstance(env.kernel, HeiferKernel):
        raise ValueError(
            f"load_games: a Breed the Heifer game goes into a batched breed_the_heifer env, not {env.name}"
        )
    if not isinstance(game, BreedTheHeiferGame):
        raise ValueError(f"load_games: expected a BreedTheHeiferGame, got {type(game).__name__}")
    loading.check_options(env, game)
    if game.betting.to_act is None:
        raise ValueError("load_games: no seat is to act in the game (it is between decisions); nothing to load")


DTYPES = {"folded": np.uint8, "needs": np.uint8, "can_raise": np.uint8, "pending": np.uint8, "cards": np.int8,
          "stock": np.int8}  # fmt: skip


def game_values(game: BreedTheHeiferGame) -> tuple:
    """One row's value of every field in ``FIELDS``, in that order (ints and lists), read from ``game``."""
    b = game.betting
    t = game.tracker
    cards, ncards = [], []
    for down, up in zip(game.down, game.up, strict=True):
        dealt = down[:2] + up + down[2:]  # dealing order: down, down, up x4, down
        ncards.append(len(dealt))
        cards.append(dealt + [0] * (MAX_CARDS - len(dealt)))
    return (
        game.hand_number, game.dealer, game.street, game.opener, game.sixth_opener, b.to_act,
        b.folded.count(False), b.bet_size, b.current_bet, b.complete_bets, b.stacks, game.hand_start_stacks,
        b.committed, b.bets, b.folded, b._needs_action, b._can_raise, cards, ncards, t.player_ranks,
        t.table_ranks, t.wild, t.pending, game.stock, game.next_card, game.action_counts,
    )  # fmt: skip


def field_arrays(games: Sequence[BreedTheHeiferGame]) -> dict[str, np.ndarray]:
    """Every field of ``FIELDS`` for the games, one row per game, in the state's dtypes."""
    return loading.columns(games, game_values, FIELDS, DTYPES)


def load_games(
    env: BatchedEnv,
    rows: Sequence[int] | np.ndarray,
    games: Sequence[BreedTheHeiferGame],
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
    """``BreedTheHeiferGame.unit_index`` of each row: the hand of the episode under way."""
    return env.state.hand[rows]


# ---------------------------------------------------------------- worlds in rows (a search's determinization)
DOWN_POSITIONS = (0, 1, MAX_CARDS - 1)  # where a seat's down cards lie in dealing order: down, down, up x4, down


def copy_rows(source: BatchedEnv, rows: np.ndarray, target: BatchedEnv, into: np.ndarray) -> None:
    """Row ``into[k]`` of ``target`` gets every field of row ``rows[k]`` of ``source`` (an env of the same game
    and options); ``finish_rows`` must follow, once any cards have been re-dealt."""
    for name in FIELDS:
        getattr(target.state, name)[into] = getattr(source.state, name)[rows]


def hidden_places(env: BatchedEnv, row: int, seat: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where the cards ``seat`` cannot see lie in ``row``, in the order of the scalar game's ``_redeal``: the
    other seats' down cards, seat by seat in dealing order (``(seats, positions)`` into ``cards``), then the
    undealt stock (positions into ``stock``)."""
    state = env.state
    seats, positions = [], []
    for q in range(env.num_players):
        if q != seat:
            for j in DOWN_POSITIONS:
                if j < state.ncards[row, q]:
                    seats.append(q)
                    positions.append(j)
    stock = np.arange(state.next_card[row], state.stock.shape[1], dtype=np.int64)
    return np.array(seats, dtype=np.int64), np.array(positions, dtype=np.int64), stock


def hidden_cards(env: BatchedEnv, row: int, places: tuple[np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
    """The cards at ``places`` (``hidden_places``) of ``row``, in that order."""
    seats, positions, stock = places
    state = env.state
    return np.concatenate([state.cards[row, seats, positions], state.stock[row, stock]]).astype(np.int64)


def write_hidden(env: BatchedEnv, rows: np.ndarray, places: tuple[np.ndarray, np.ndarray, np.ndarray],
                 cards: np.ndarray) -> None:  # fmt: skip
    """Row ``rows[k]`` gets ``cards[k]`` at ``places`` (``hidden_places``' order): a re-deal of the hidden cards."""
    seats, positions, stock = places
    state = env.state
    m = seats.size
    state.cards[rows[:, None], seats[None, :], positions[None, :]] = cards[:, :m]
    state.stock[rows[:, None], stock[None, :]] = cards[:, m:]


def finish_rows(env: BatchedEnv, rows: np.ndarray) -> None:
    """The rows' keys, observations, masks and seats to act from their fields, as after ``load_games``."""
    finish_loaded_rows(env.state, env.kernel.params, np.ascontiguousarray(rows, dtype=np.int64), env.out)


__all__ = [
    "FIELDS", "check_loadable", "copy_rows", "field_arrays", "finish_rows", "game_values", "hidden_cards",
    "hidden_places", "load_games", "unit_index", "write_hidden",
]  # fmt: skip
