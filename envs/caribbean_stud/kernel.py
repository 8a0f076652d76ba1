"""Caribbean stud as a batched kernel: ``CaribbeanStudGame``'s rules over arrays, one game per row.

Every option of the scalar game: 1–3 boxes, one or several ante choices
(ante decisions before the deal), several hands per episode. The flow,
the draws (one ``Chance.shuffle`` of the 52 cards per hand, at the deal), the
settlement (``payouts.settle``'s formula and pay table), the rewards (the net
of all boxes at each showdown) and the observation (``encoding.encode``'s
layout) are the scalar game's; ``tests/envs/caribbean_stud/test_batched.py``
checks them step by step against it with the differential kit.

State per row: the phase, the box to act, the hand number, each box's ante and
decision, the five cards of every box and the dealer (row 3), their standard
hand keys (computed once at the deal) and a scratch deck for the shuffle.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numba
import numpy as np

from pokerzoo.envs.batched import chance as chance_lib
from pokerzoo.envs.batched import hands
from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.batched.core import CHUNK, RUNNING, START, TERMINATED, GameKernel
from pokerzoo.envs.caribbean_stud import payouts
from pokerzoo.envs.caribbean_stud.game import FIRST_ANTE_ACTION, RAISE, CaribbeanStudGame
from pokerzoo.envs.engine.cards import DECKS

ANTE, DECIDE = 0, 1
DEALER = 3  # row of the dealer's cards in ``cards`` and ``keys``
MAX_BOXES = 3


class CaribbeanState(NamedTuple):
    phase: np.ndarray  # int8[N]: ANTE or DECIDE
    box: np.ndarray  # int64[N]: the box to act
    hand: np.ndarray  # int64[N]: hands of the episode already played
    antes: np.ndarray  # int64[N, 3]: 0 until chosen
    decisions: np.ndarray  # int8[N, 3]: -1 undecided, 0 fold, 1 raise
    cards: np.ndarray  # int64[N, 4, 5]: boxes 0..2, then the dealer (the up card last)
    keys: np.ndarray  # int64[N, 4]: standard hand keys of the boxes and the dealer
    deck: np.ndarray  # int64[N, 52]: the shuffled deck of the current hand


class CaribbeanParams(NamedTuple):
    boxes: int
    num_hands: int
    choose_antes: bool
    ante_choices: np.ndarray  # int64[K], ascending
    max_ante: float
    deck: np.ndarray  # int64[52]: the deck in its order before shuffling
    pay: np.ndarray  # int64[10]: raise pay by standard category
    qualify: int  # the dealer's smallest qualifying key (A-K-4-3-2)
    # the 5-card evaluator's tables (``hands.StandardTables``' fields: kernels take no nested tuples)
    code: np.ndarray
    rank_table: np.ndarray
    flush_suit: np.ndarray
    flush_table: np.ndarray


# ---------------------------------------------------------------- rules
@kernel(inline=True)
def _deal(state, params, chance, i):
    deck = state.deck[i]
    chance_lib.shuffle(chance, i, params.deck, 52, deck)
    for b in range(params.boxes):
        for k in range(5):
            state.cards[i, b, k] = deck[5 * b + k]
        state.keys[i, b] = hands.standard_key(params, state.cards[i, b], 5)
    d = 5 * params.boxes
    for k in range(5):
        state.cards[i, DEALER, k] = deck[d + k]
    state.keys[i, DEALER] = hands.standard_key(params, state.cards[i, DEALER], 5)
    state.phase[i] = DECIDE
    state.box[i] = 0


@kernel(inline=True)
def _new_hand(state, params, chance, i):
    state.box[i] = 0
    for b in range(MAX_BOXES):
        state.decisions[i, b] = -1
        state.antes[i, b] = 0
    if params.choose_antes:
        state.phase[i] = ANTE
    else:
        for b in range(params.boxes):
            state.antes[i, b] = params.ante_choices[0]
        _deal(state, params, chance, i)


@kernel(inline=True)
def start(state, params, chance, i):
    state.hand[i] = 0
    _new_hand(state, params, chance, i)


@kernel(inline=True)
def settle(params, box_key, dealer_key, raised, ante):
    """``payouts.settle``'s net for one box."""
    if not raised:
        return -ante
    if dealer_key < params.qualify:
        return ante
    if box_key > dealer_key:
        return ante + 2 * ante * params.pay[hands.category(box_key)]
    if box_key < dealer_key:
        return -3 * ante
    return 0


@kernel(inline=True)
def apply(state, params, chance, i, action, rewards):
    b = state.box[i]
    if state.phase[i] == ANTE:
        state.antes[i, b] = params.ante_choices[action - FIRST_ANTE_ACTION]
        state.box[i] = b + 1
        if b + 1 == params.boxes:
            _deal(state, params, chance, i)
        return RUNNING
    state.decisions[i, b] = action
    state.box[i] = b + 1
    if b + 1 < params.boxes:
        return RUNNING
    net = 0
    for k in range(params.boxes):
        net += settle(
            params, state.keys[i, k], state.keys[i, DEALER], state.decisions[i, k] == RAISE, state.antes[i, k]
        )
    rewards[0] += net
    state.hand[i] += 1
    if state.hand[i] == params.num_hands:
        return TERMINATED
    _new_hand(state, params, chance, i)
    return RUNNING


@kernel(inline=True)
def observe(state, params, i, obs, mask):
    """``encoding.encode`` of player 0's view into ``obs``, the legal actions into ``mask``; returns 0."""
    obs[:] = 0.0
    mask[:] = False
    b = state.box[i]
    if state.phase[i] == ANTE:
        for a in range(FIRST_ANTE_ACTION, mask.shape[0]):
            mask[a] = True
        obs[159] = 1.0
    else:
        mask[0] = True
        mask[1] = True
        for k in range(5):
            obs[state.cards[i, b, k]] = 1.0
        obs[167 + hands.caribbean_category(state.keys[i, b])] = 1.0
        obs[52 + state.cards[i, DEALER, 4]] = 1.0
        for other in range(b):
            for k in range(5):
                obs[104 + state.cards[i, other, k]] = 1.0
    obs[156 + b] = 1.0
    for k in range(params.boxes):
        d = state.decisions[i, k]
        if d == 1:
            obs[160 + k] = 1.0
        elif d == 0:
            obs[163 + k] = 1.0
    obs[166] = state.antes[i, b] / params.max_ante
    obs[178] = state.hand[i] / params.num_hands
    return 0


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
class CaribbeanKernel(GameKernel):
    game_class = CaribbeanStudGame
    run_rows = staticmethod(run_rows)
    run_rows_parallel = staticmethod(run_rows_parallel)

    def make_params(self, config: dict[str, Any]) -> CaribbeanParams:
        antes = np.array(config["ante_choices"], dtype=np.int64)
        pay = np.asarray(payouts._PAY_BY_STANDARD_CATEGORY, dtype=np.int64)
        return CaribbeanParams(
            boxes=int(config["boxes"]),
            num_hands=int(config["num_hands"]),
            choose_antes=len(antes) > 1,
            ante_choices=antes,
            max_ante=float(antes.max()),
            deck=np.array(DECKS["52"].cards, dtype=np.int64),
            pay=pay,
            qualify=int(payouts.QUALIFY_KEY),
            **hands.standard_tables(5)._asdict(),
        )

    def new_state(self, n: int) -> CaribbeanState:
        return CaribbeanState(
            phase=np.zeros(n, dtype=np.int8),
            box=np.zeros(n, dtype=np.int64),
            hand=np.zeros(n, dtype=np.int64),
            antes=np.zeros((n, MAX_BOXES), dtype=np.int64),
            decisions=np.full((n, MAX_BOXES), -1, dtype=np.int8),
            cards=np.zeros((n, MAX_BOXES + 1, 5), dtype=np.int64),
            keys=np.zeros((n, MAX_BOXES + 1), dtype=np.int64),
            deck=np.zeros((n, 52), dtype=np.int64),
        )


Kernel = CaribbeanKernel
