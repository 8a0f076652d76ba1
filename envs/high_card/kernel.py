"""Three-card high card as a batched kernel: the example game's rules over arrays, one game per row.

The smallest multi-player kernel of the project (``envs/batched/README.md``,
"Adding a game"; ``docs/adding_a_game.md``): one shuffle per game, a decision
per seat in seat order, the showdown's nets as rewards, the observation of
``encoding.encode`` written through the game's schema offsets. Checked against
``HighCardGame`` step by step by the differential kit
(``tests/envs/high_card/test_batched.py``). The batched trainer's tests use
it as a registered game with several seats.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numba
import numpy as np

from pokerzoo.envs.batched import chance as chance_lib
from pokerzoo.envs.batched import privileged as privileged_lib
from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.batched.core import CHUNK, RUNNING, START, TERMINATED, GameKernel
from pokerzoo.envs.engine.cards import DECKS
from pokerzoo.envs.high_card import encoding
from pokerzoo.envs.high_card.game import ANTE, FOLD, PLAY, RAISE, UNDECIDED, HighCardGame

MAX_PLAYERS = 6


class HighCardState(NamedTuple):
    hands: np.ndarray  # int64[N, 6, 3]: each seat's cards
    keys: np.ndarray  # int64[N, 6]: hand strength, ranks high to low in base 13 (``game.hand_key``'s order)
    decisions: np.ndarray  # int8[N, 6]: -1 undecided, 0 folded, 1 played
    pot: np.ndarray  # int64[N]
    turn: np.ndarray  # int64[N]: the seat to act
    deck: np.ndarray  # int64[N, 52]: the shuffled deck


class HighCardParams(NamedTuple):
    num_players: int
    deck: np.ndarray  # int64[52]: the deck in its order before shuffling
    hand_offset: int  # the schema's offsets
    played_offset: int
    folded_offset: int
    pot_offset: int


@kernel(inline=True)
def _key(cards):
    """Ranks sorted high to low, as one base-13 number (equal keys: equal ``hand_key`` tuples)."""
    a, b, c = cards[0] % 13, cards[1] % 13, cards[2] % 13
    if a < b:
        a, b = b, a
    if b < c:
        b, c = c, b
    if a < b:
        a, b = b, a
    return (a * 13 + b) * 13 + c


@kernel(inline=True)
def start(state, params, chance, i):
    deck = state.deck[i]
    chance_lib.shuffle(chance, i, params.deck, 52, deck)
    for s in range(params.num_players):
        for k in range(3):
            state.hands[i, s, k] = deck[3 * s + k]
        state.keys[i, s] = _key(state.hands[i, s])
        state.decisions[i, s] = UNDECIDED
    state.pot[i] = ANTE * params.num_players
    state.turn[i] = 0


@kernel(inline=True)
def apply(state, params, chance, i, action, rewards):
    s = state.turn[i]
    state.decisions[i, s] = action
    if action == PLAY:
        state.pot[i] += RAISE
    state.turn[i] = s + 1
    n = params.num_players
    if s + 1 < n:
        return RUNNING
    best, winners = -1, 0
    for q in range(n):
        if state.decisions[i, q] == PLAY:
            if state.keys[i, q] > best:
                best, winners = state.keys[i, q], 1
            elif state.keys[i, q] == best:
                winners += 1
    for q in range(n):
        played = state.decisions[i, q] == PLAY
        paid = ANTE + (RAISE if played else 0)
        if winners == 0:
            won = float(paid)  # nobody played: the antes go back
        elif played and state.keys[i, q] == best:
            won = state.pot[i] / winners
        else:
            won = 0.0
        rewards[q] += won - paid
    return TERMINATED


@kernel(inline=True)
def observe(state, params, i, obs, mask):
    """``encoding.encode`` of the acting seat's view into ``obs``, both actions legal; returns the seat."""
    obs[:] = 0.0
    n, me = params.num_players, state.turn[i]
    for k in range(3):
        obs[params.hand_offset + state.hands[i, me, k]] = 1.0
    for s in range(n):
        r = (s - me) % n
        d = state.decisions[i, s]
        if d == PLAY:
            obs[params.played_offset + r] = 1.0
        elif d == 0:
            obs[params.folded_offset + r] = 1.0
    obs[params.pot_offset] = state.pot[i] / (3 * n)
    mask[0] = True
    mask[1] = True
    return me


# ---------------------------------------------------------------- the row loop (the same in every game)
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


# ---------------------------------------------------------------- the kernel class
class HighCardKernel(GameKernel):
    game_class = HighCardGame
    run_rows = staticmethod(run_rows)
    run_rows_parallel = staticmethod(run_rows_parallel)

    @property
    def privileged_size(self) -> int:
        return privileged_lib.features_size(self.params.num_players)

    def privileged(self, state: HighCardState, rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """The other seats' three cards (all face down) and who holds the better hand
        (``envs/batched/privileged.py``)."""
        hidden = np.ones(state.hands.shape, dtype=bool)
        return privileged_lib.opponent_features(
            state.hands, hidden, state.decisions != FOLD, state.keys, rows, seats,
            num_players=self.params.num_players,
        )  # fmt: skip

    def make_params(self, config: dict[str, Any]) -> HighCardParams:
        n = int(config["num_players"])
        offsets = encoding.schema(n).offsets
        return HighCardParams(
            num_players=n,
            deck=np.array(DECKS["52"].cards, dtype=np.int64),
            hand_offset=int(offsets["hand"]),
            played_offset=int(offsets["played"]),
            folded_offset=int(offsets["folded"]),
            pot_offset=int(offsets["pot"]),
        )

    def new_state(self, n: int) -> HighCardState:
        return HighCardState(
            hands=np.zeros((n, MAX_PLAYERS, 3), dtype=np.int64),
            keys=np.zeros((n, MAX_PLAYERS), dtype=np.int64),
            decisions=np.full((n, MAX_PLAYERS), UNDECIDED, dtype=np.int8),
            pot=np.zeros(n, dtype=np.int64),
            turn=np.zeros(n, dtype=np.int64),
            deck=np.zeros((n, 52), dtype=np.int64),
        )


Kernel = HighCardKernel
