"""A small multi-player test game, scalar and batched, for what Caribbean stud (one seat) cannot exercise.

The adapters' opponent turns, their per-seat reward accounting and the
skipping of episodes in which the learner never acts need a game where
several seats act in an order that depends on the cards, where a seat may
make no decision at all, and where rewards arrive in the middle of a game as
well as at its end. This is that game, kept tiny; its kernel is checked
against its scalar rules by the differential kit like any real game's.

Rules: a dealer is drawn (``Chance.integer``), the 52 cards are shuffled, each
seat gets one card (``order[seat]``), the rest is the stock. The seat after
the dealer acts first. On each turn the seat may ``stay`` (0), ``swap`` (1:
discard, take the next stock card, paying 0.25 at once) or, holding a ten or better,
``double`` (2: its stake 1 -> 2, paying 0.5 at once). The next seat is
``seat + 1``, or ``seat + 2`` when the seat now holds an odd rank. After
``turns`` decisions the highest rank wins its stake from the bank, every
other seat loses its stake.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from pokerzoo.envs.aec import make_raw_env
from pokerzoo.envs.batched import chance as chance_lib
from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.batched.core import CHUNK, RUNNING, START, TERMINATED, GameKernel
from pokerzoo.envs.engine.cards import DECKS
from pokerzoo.envs.engine.game import Game, View
from pokerzoo.envs.engine.options import Option, OptionSet, num_players_option
from pokerzoo.envs.engine.schema import Piece, Schema

STAY, SWAP, DOUBLE = 0, 1, 2
MAX_PLAYERS = 4
SCHEMA = Schema(
    [
        Piece("card", 52, "own card, one-hot by card id"),
        Piece("seat", MAX_PLAYERS, "own seat, one-hot"),
        Piece("turn", 1, "turns played / turns"),
        Piece("stake", 1, "own stake / 2"),
    ]
)
OBS = SCHEMA.size


class ToyView(View):
    pass


class ToyGame(Game):
    NAME = "batched_toy"
    OPTIONS = OptionSet(
        num_players_option(2, MAX_PLAYERS, 3),
        Option("turns", 5, "decisions per game", kind=int, low=1, high=40),
    )

    def _setup(self) -> None:
        self.num_players = self.config["num_players"]
        self.num_actions = 3
        self.observation_schema = SCHEMA

    def _start(self) -> None:
        n = self.num_players
        self.dealer = self.chance.integer(n)
        self.order = self.chance.shuffle(self.deck)
        self.cards = self.order[:n]
        self.stock = self.order[n:]
        self.discards: list[int] = []
        self.stakes = [1] * n
        self.turn = 0
        self.to_act = (self.dealer + 1) % n

    @property
    def current_player(self):
        return None if self.is_over else self.to_act

    @property
    def phase(self) -> str:
        return "over" if self.is_over else "play"

    def _legal_mask(self) -> np.ndarray:
        return np.array([True, True, self.cards[self.to_act] % 13 >= 8 and self.stakes[self.to_act] == 1])

    def _apply(self, action: int) -> None:
        p = self.to_act
        if action == SWAP:
            self.discards.append(self.cards[p])
            self.cards[p] = self.stock.pop(0)
            self.give(p, -0.25)
        elif action == DOUBLE:
            self.stakes[p] = 2
            self.give(p, -0.5)
        self.turn += 1
        if self.turn == self.config["turns"]:
            best = max(c % 13 for c in self.cards)
            for q, c in enumerate(self.cards):
                self.give(q, float(self.stakes[q] if c % 13 == best else -self.stakes[q]))
            self.finish()
            return
        self.to_act = (p + 1 + (self.cards[p] % 13) % 2) % self.num_players

    def view(self, player: int) -> ToyView:
        return ToyView(player, self.num_players, self.phase, self.current_player)

    def encode(self, view: ToyView) -> np.ndarray:
        p = view.player
        obs = np.zeros(OBS, dtype=np.float32)
        obs[self.cards[p]] = 1.0
        obs[52 + p] = 1.0
        obs[52 + MAX_PLAYERS] = self.turn / self.config["turns"]
        obs[53 + MAX_PLAYERS] = self.stakes[p] / 2
        return obs

    def action_name(self, action: int) -> str:
        return ("stay", "swap", "double")[action] if 0 <= action < 3 else f"invalid({action})"

    def zones(self) -> dict[str, list[int]]:
        return {"hands": list(self.cards), "stock": list(self.stock), "discards": list(self.discards)}

    def _redeal(self, world, player, rng):  # pragma: no cover - not searched
        raise NotImplementedError


toy_raw_env = make_raw_env(ToyGame, "batched_toy_v0")


class ToyState(NamedTuple):
    dealer: np.ndarray
    order: np.ndarray  # int64[N, 52]
    cards: np.ndarray  # int64[N, 4]
    next_card: np.ndarray  # int64[N]: index in ``order`` of the stock's top
    stakes: np.ndarray  # int64[N, 4]
    turn: np.ndarray
    to_act: np.ndarray


class ToyParams(NamedTuple):
    num_players: int
    turns: int
    deck: np.ndarray


@kernel(inline=True)
def start(state, params, chance, i):
    n = params.num_players
    state.dealer[i] = chance_lib.integer(chance, i, n)
    chance_lib.shuffle(chance, i, params.deck, 52, state.order[i])
    for p in range(n):
        state.cards[i, p] = state.order[i, p]
        state.stakes[i, p] = 1
    state.next_card[i] = n
    state.turn[i] = 0
    state.to_act[i] = (state.dealer[i] + 1) % n


@kernel(inline=True)
def apply(state, params, chance, i, action, rewards):
    p = state.to_act[i]
    if action == SWAP:
        state.cards[i, p] = state.order[i, state.next_card[i]]
        state.next_card[i] += 1
        rewards[p] -= 0.25
    elif action == DOUBLE:
        state.stakes[i, p] = 2
        rewards[p] -= 0.5
    state.turn[i] += 1
    n = params.num_players
    if state.turn[i] == params.turns:
        best = 0
        for q in range(n):
            best = max(best, state.cards[i, q] % 13)
        for q in range(n):
            won = state.cards[i, q] % 13 == best
            rewards[q] += state.stakes[i, q] if won else -state.stakes[i, q]
        return TERMINATED
    state.to_act[i] = (p + 1 + (state.cards[i, p] % 13) % 2) % n
    return RUNNING


@kernel(inline=True)
def observe(state, params, i, obs, mask):
    obs[:] = 0.0
    p = state.to_act[i]
    obs[state.cards[i, p]] = 1.0
    obs[52 + p] = 1.0
    obs[52 + MAX_PLAYERS] = state.turn[i] / params.turns
    obs[53 + MAX_PLAYERS] = state.stakes[i, p] / 2
    mask[0] = True
    mask[1] = True
    mask[2] = state.cards[i, p] % 13 >= 8 and state.stakes[i, p] == 1
    return p


@kernel(inline=True)
def _row(state, params, chance, i, action, out):
    rewards = out.rewards[i]
    rewards[:] = 0.0
    out.status[i] = RUNNING
    if action == START:
        start(state, params, chance, i)
    else:
        status = apply(state, params, chance, i, action, rewards)
        out.status[i] = status
        if status != RUNNING:
            chance_lib.end_game(chance, i)
            start(state, params, chance, i)
    out.player[i] = observe(state, params, i, out.obs[i], out.mask[i])


@kernel
def run_rows(state, params, chance, rows, actions, out):
    for k in range(rows.shape[0]):
        _row(state, params, chance, rows[k], actions[k], out)


@kernel(parallel=True)
def run_rows_parallel(state, params, chance, rows, actions, out):
    for c in numba.prange((rows.shape[0] + CHUNK - 1) // CHUNK):
        lo = c * CHUNK
        hi = min(rows.shape[0], lo + CHUNK)
        run_rows(state, params, chance, rows[lo:hi], actions[lo:hi], out)


class ToyKernel(GameKernel):
    game_class = ToyGame
    run_rows = staticmethod(run_rows)
    run_rows_parallel = staticmethod(run_rows_parallel)

    def make_params(self, config) -> ToyParams:
        return ToyParams(config["num_players"], config["turns"], np.array(DECKS["52"].cards, dtype=np.int64))

    def new_state(self, n: int) -> ToyState:
        z = np.zeros
        return ToyState(
            dealer=z(n, np.int64),
            order=z((n, 52), np.int64),
            cards=z((n, MAX_PLAYERS), np.int64),
            next_card=z(n, np.int64),
            stakes=z((n, MAX_PLAYERS), np.int64),
            turn=z(n, np.int64),
            to_act=z(n, np.int64),
        )
