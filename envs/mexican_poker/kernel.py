"""Mexican poker as a batched kernel: ``MexicanPokerGame``'s rules over arrays, one game per row.

Every option of the scalar game: 2-7 players, any number of rounds, any
corner table, the doubt phase on or off, passing a doubt, both reward modes
(``score``: every round's points when it is scored; ``win``: the terminal
split). The flow, the draws (``Chance.integer(num_players)`` for the first
token holder when a game starts, one ``Chance.shuffle`` of the 65 cards per
round), the trick rules, the score sheet (``scoring.round_scores``) and the
observation (``encoding.encode``, offsets from ``encoding.SCHEMA``) are the
scalar game's; the combination mask and the keys of the plays come from
``batched_combos`` (the compiled ``combos.legal_bits`` and ``exact.classify``).
``tests/envs/mexican_poker/test_batched.py`` checks them step by step
against the scalar game with the differential kit.

State per row: the phase, the round, the token holder and the seat to act,
the round's deal (board and hands in slot order, like the scalar game's
``slot_sorted`` lists), predictions, doubts, tricks and scores per seat, the
current trick (who played what, with its key) and the order of its players,
the hand cards of the completed tricks, a scratch deck for the shuffle and
the combination generator's scratch space.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numba
import numpy as np

from pokerzoo.envs.batched import chance as chance_lib
from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.batched.core import CHUNK, RUNNING, START, TERMINATED, GameKernel
from pokerzoo.envs.engine.cards import DECKS
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS
from pokerzoo.envs.mexican_poker import corners, encoding
from pokerzoo.envs.mexican_poker.actions import (
    BOARD_SHIFT,
    BOARD_SLOTS,
    COMBO_ACTION,
    COMBO_BITS,
    DOUBT_BASE,
    FIRST_COMBO,
    HAND_SLOTS,
    NUM_PREDICTIONS,
    PASS,
)
from pokerzoo.envs.mexican_poker.batched_combos import MAX_COMBOS, WORK, classify, legal_combos
from pokerzoo.envs.mexican_poker.game import MexicanPokerGame
from pokerzoo.envs.mexican_poker.scoring import NO_DOUBT, PASSED

PREDICT, DOUBT, PLAY = (encoding.PHASES.index(p) for p in ("predict", "doubt", "play"))  # the encoder's phase order
SEATS = encoding.SEATS  # 7
SLOT, CARDS = encoding.SLOT, encoding.CARDS  # a hand or board slot's width, a card one-hot's
MAX_PLAYED = 49  # hand cards of one round: at most 7 seats x 7 cards
_SHIFT = np.int64(TIEBREAK_BITS)


class MexicanState(NamedTuple):
    phase: np.ndarray  # int64[N]: PREDICT, DOUBT or PLAY
    round: np.ndarray  # int64[N]: rounds already scored
    token: np.ndarray  # int64[N]: the token holder
    turn: np.ndarray  # int64[N]: the seat to act
    board_size: np.ndarray  # int64[N]: B (the hand size is 8 - B)
    board: np.ndarray  # int64[N, 5]: board cards in slot order
    hands: np.ndarray  # int64[N, 7, 7]: each seat's hand in slot order (closing up as cards leave)
    hand_n: np.ndarray  # int64[N, 7]: cards left per seat
    predictions: np.ndarray  # int64[N, 7]: -1 until made
    doubts: np.ndarray  # int64[N, 7]: doubted seat, PASSED or NO_DOUBT
    tricks: np.ndarray  # int64[N, 7]: tricks taken this round
    scores: np.ndarray  # int64[N, 7]: game totals
    leader: np.ndarray  # int64[N]: the seat that led the current trick, -1 before play
    winning: np.ndarray  # int64[N]: the seat whose play leads the trick, -1 before its first play
    best_key: np.ndarray  # int64[N]: that play's key
    tricks_played: np.ndarray  # int64[N]: completed tricks this round
    order: np.ndarray  # int64[N, 7]: the trick's players from the leader (seats holding cards at its start)
    order_n: np.ndarray  # int64[N]
    trick_n: np.ndarray  # int64[N]: plays of the current trick
    trick_seat: np.ndarray  # int64[N, 7]: per play: the seat
    trick_cards: np.ndarray  # int64[N, 7, 5]: per play: its hand cards, then its board cards
    trick_hand_n: np.ndarray  # int64[N, 7]: per play: how many hand cards
    trick_card_n: np.ndarray  # int64[N, 7]: per play: how many cards
    trick_key: np.ndarray  # int64[N, 7]: per play: its key (``exact.classify``)
    played: np.ndarray  # int64[N, 49]: hand cards of the round's completed tricks
    played_n: np.ndarray  # int64[N]
    deck: np.ndarray  # int64[N, 65]: the round's shuffled deck
    work: np.ndarray  # int64[N, WORK]: the combination generator's scratch
    combos: np.ndarray  # int64[N, MAX_COMBOS, 2]: its output (slot bits, key)


class MexicanParams(NamedTuple):
    num_players: int
    rounds: int
    doubt_chips: bool
    doubt_pass: bool
    win_reward: bool  # reward "win" (else "score")
    score_scale: float  # the encoder's 1 / (MAX_ROUND_POINTS x rounds)
    corner: np.ndarray  # int64[65]: the corner pair of each card (``corners.resolve``)
    pair_board: np.ndarray  # int64[5]: B of each corner pair
    deck: np.ndarray  # int64[65]: the deck before shuffling
    combo_bits: np.ndarray  # int64[1554]: slot bits of each combination action
    combo_action: np.ndarray  # int64[4096]: the action of a slot bitmask
    # observation offsets, from encoding.SCHEMA (``o_`` + the pieces' names)
    o_hand: int
    o_board: int
    o_played: int
    o_trick_cards: int
    o_trick_category: int
    o_trick_winning: int
    o_hand_slots: int
    o_board_slots: int
    o_predicted: int
    o_predictions: int
    o_doubts: int
    o_passed: int
    o_tricks: int
    o_hand_counts: int
    o_scores: int
    o_token: int
    o_leader: int
    o_to_act: int
    o_present: int
    o_phase: int
    o_board_size: int
    o_round: int
    o_tricks_played: int
    o_doubt_chips: int
    o_doubt_pass: int


def schema_offsets() -> dict[str, int]:
    """The encoder's offsets as ``MexicanParams`` fields: ``o_hand``, ``o_board``..."""
    return {f"o_{name}": at for name, at in encoding.SCHEMA.offsets.items()}


# ---------------------------------------------------------------- dealing
@kernel(inline=True)
def _slot_sort(cards, n):
    """Sort ``cards[:n]`` by rank, then suit (``game.slot_sorted``: the slot order)."""
    for k in range(1, n):
        c = cards[k]
        key = (c % 13) * 5 + c // 13
        j = k - 1
        while j >= 0 and (cards[j] % 13) * 5 + cards[j] // 13 > key:
            cards[j + 1] = cards[j]
            j -= 1
        cards[j + 1] = c


@kernel
def _new_round(state, params, chance, i):
    n = params.num_players
    deck = state.deck[i]
    chance_lib.shuffle(chance, i, params.deck, 65, deck)
    b = params.pair_board[params.corner[deck[0]]]
    h = 8 - b
    state.board_size[i] = b
    for k in range(b):
        state.board[i, k] = deck[k]
    _slot_sort(state.board[i], b)
    for s in range(n):
        for k in range(h):
            state.hands[i, s, k] = deck[b + s * h + k]
        _slot_sort(state.hands[i, s], h)
        state.hand_n[i, s] = h
        state.predictions[i, s] = -1
        state.doubts[i, s] = NO_DOUBT
        state.tricks[i, s] = 0
    state.order_n[i] = 0
    state.trick_n[i] = 0
    state.leader[i] = -1
    state.winning[i] = -1
    state.best_key[i] = -1
    state.tricks_played[i] = 0
    state.played_n[i] = 0
    state.phase[i] = PREDICT
    state.turn[i] = state.token[i]


@kernel(inline=True)
def start(state, params, chance, i):
    state.round[i] = 0
    for s in range(SEATS):
        state.scores[i, s] = 0
    state.token[i] = chance_lib.integer(chance, i, params.num_players)
    _new_round(state, params, chance, i)


# ---------------------------------------------------------------- tricks and scoring
@kernel(inline=True)
def _start_trick(state, params, i, leader):
    n = params.num_players
    state.leader[i] = leader
    k = 0
    for x in range(n):
        s = (leader + x) % n
        if state.hand_n[i, s] > 0:
            state.order[i, k] = s
            k += 1
    state.order_n[i] = k
    state.trick_n[i] = 0
    state.winning[i] = -1
    state.best_key[i] = -1
    state.turn[i] = leader


@kernel(inline=True)
def prediction_line(p, t, total):
    """``scoring.prediction_line``."""
    if p == 0:
        return total if t == 0 else -t
    if t > p:
        return p
    if t == p:
        return 2 * p
    return -(p - t)


@kernel
def _score_round(state, params, chance, i, rewards):
    """``_score_round``: the sheet into the scores (and the rewards), then the next round or the end."""
    n = params.num_players
    total = 0
    for s in range(n):
        total += state.tricks[i, s]
    for s in range(n):
        points = prediction_line(state.predictions[i, s], state.tricks[i, s], total)
        target = state.doubts[i, s]
        if target >= 0:
            points += 1 if state.tricks[i, target] != state.predictions[i, target] else -1
        state.scores[i, s] += points
        if not params.win_reward:
            rewards[s] += float(points)
    state.round[i] += 1
    if state.round[i] == params.rounds:
        if params.win_reward:
            best = state.scores[i, 0]
            for s in range(1, n):
                best = max(best, state.scores[i, s])
            k = 0
            for s in range(n):
                k += state.scores[i, s] == best
            loser_share = -1.0 / (n - 1)
            winner_share = (n - k) / (k * (n - 1))
            for s in range(n):
                rewards[s] += winner_share if state.scores[i, s] == best else loser_share
        return TERMINATED
    state.token[i] = (state.token[i] + 1) % n
    _new_round(state, params, chance, i)
    return RUNNING


@kernel(inline=True)
def _end_trick(state, params, chance, i, rewards):
    n = params.num_players
    winner = state.winning[i]
    state.tricks[i, winner] += 1
    at = state.played_n[i]
    for t in range(state.trick_n[i]):
        for k in range(state.trick_hand_n[i, t]):
            state.played[i, at] = state.trick_cards[i, t, k]
            at += 1
    state.played_n[i] = at
    state.tricks_played[i] += 1
    for x in range(n):
        s = (winner + x) % n
        if state.hand_n[i, s] > 0:
            _start_trick(state, params, i, s)
            return RUNNING
    state.trick_n[i] = 0
    state.winning[i] = -1
    return _score_round(state, params, chance, i, rewards)


@kernel(inline=True)
def _play(state, params, chance, i, action, rewards):
    seat = state.turn[i]
    bits = params.combo_bits[action - FIRST_COMBO]
    t = state.trick_n[i]
    cards = state.trick_cards[i, t]
    hand = state.hands[i, seat]
    hn = state.hand_n[i, seat]
    k = 0
    kept = 0
    for slot in range(hn):
        c = hand[slot]
        if bits >> slot & 1:
            cards[k] = c
            k += 1
        else:
            hand[kept] = c
            kept += 1
    state.hand_n[i, seat] = kept
    state.trick_hand_n[i, t] = k
    for j in range(BOARD_SLOTS):
        if bits >> (BOARD_SHIFT + j) & 1:
            cards[k] = state.board[i, j]
            k += 1
    state.trick_card_n[i, t] = k
    key = classify(cards, k)
    state.trick_key[i, t] = key
    state.trick_seat[i, t] = seat
    state.trick_n[i] = t + 1
    if key > state.best_key[i]:  # strictly stronger: an equal later play loses to the earlier one
        state.best_key[i] = key
        state.winning[i] = seat
    if t + 1 < state.order_n[i]:
        state.turn[i] = state.order[i, t + 1]
        return RUNNING
    return _end_trick(state, params, chance, i, rewards)


@kernel(inline=True)
def apply(state, params, chance, i, action, rewards):
    n = params.num_players
    phase = state.phase[i]
    if phase == PLAY:
        return _play(state, params, chance, i, action, rewards)
    seat = state.turn[i]
    if phase == PREDICT:
        state.predictions[i, seat] = action
    else:
        state.doubts[i, seat] = PASSED if action == PASS else (seat + action - DOUBT_BASE) % n
    state.turn[i] = (seat + 1) % n
    if state.turn[i] == state.token[i]:
        if phase == PREDICT and params.doubt_chips:
            state.phase[i] = DOUBT
        else:
            state.phase[i] = PLAY
            _start_trick(state, params, i, state.token[i])
    return RUNNING


# ---------------------------------------------------------------- observation and mask
@kernel(inline=True)
def combination_mask(state, params, i, seat, mask):
    """The legal combination actions of ``seat``'s hand with the board (``combos.legal_mask``)."""
    out = state.combos[i]
    count = legal_combos(
        state.hands[i, seat], state.hand_n[i, seat], state.board[i], state.board_size[i], state.work[i], out
    )
    for k in range(count):
        mask[params.combo_action[out[k, 0]]] = True


@kernel(inline=True)
def observe(state, params, i, obs, mask):
    """``encoding.encode`` of the acting seat's view into ``obs``, its legal actions into ``mask``; returns it."""
    obs[:] = 0.0
    mask[:] = False
    n = params.num_players
    me = state.turn[i]
    phase = state.phase[i]
    if phase == PLAY:
        combination_mask(state, params, i, me, mask)
    elif phase == PREDICT:
        for a in range(NUM_PREDICTIONS):
            mask[a] = True
    else:
        for offset in range(1, n):
            mask[DOUBT_BASE + offset] = True
        mask[PASS] = params.doubt_pass

    for k in range(state.played_n[i]):
        obs[params.o_played + state.played[i, k]] = 1.0
    for k in range(state.hand_n[i, me]):
        c = state.hands[i, me, k]
        obs[params.o_hand + c] = 1.0
        obs[params.o_hand_slots + SLOT * k + c % 13] = 1.0
        obs[params.o_hand_slots + SLOT * k + 13 + c // 13] = 1.0
    for k in range(state.board_size[i]):
        c = state.board[i, k]
        obs[params.o_board + c] = 1.0
        obs[params.o_board_slots + SLOT * k + c % 13] = 1.0
        obs[params.o_board_slots + SLOT * k + 13 + c // 13] = 1.0
    for t in range(state.trick_n[i]):
        rel = (state.trick_seat[i, t] - me) % n
        base = params.o_trick_cards + CARDS * rel
        for k in range(state.trick_card_n[i, t]):
            obs[base + state.trick_cards[i, t, k]] = 1.0
        obs[params.o_trick_category + encoding.NCAT * rel + (state.trick_key[i, t] >> _SHIFT)] = 1.0
    if state.winning[i] >= 0:
        obs[params.o_trick_winning + (state.winning[i] - me) % n] = 1.0
    for s in range(n):
        rel = (s - me) % n
        p = state.predictions[i, s]
        if p >= 0:
            obs[params.o_predicted + rel] = 1.0
            if phase != PREDICT or s == me:  # others' chips lie face down until all are placed
                obs[params.o_predictions + NUM_PREDICTIONS * rel + p] = 1.0
        if phase != PREDICT:
            d = state.doubts[i, s]
            if d >= 0:
                obs[params.o_doubts + SEATS * rel + (d - me) % n] = 1.0
            elif d == PASSED:
                obs[params.o_passed + rel] = 1.0
        obs[params.o_present + s] = 1.0
    obs[params.o_token + (state.token[i] - me) % n] = 1.0
    if phase == PLAY and state.leader[i] >= 0:
        obs[params.o_leader + (state.leader[i] - me) % n] = 1.0
    obs[params.o_to_act] = 1.0  # the viewer is the seat to act
    obs[params.o_phase + phase] = 1.0
    obs[params.o_board_size + state.board_size[i] - 1] = 1.0
    if params.doubt_chips:
        obs[params.o_doubt_chips] = 1.0
    if params.doubt_pass:
        obs[params.o_doubt_pass] = 1.0
    for k in range(n):
        s = (me + k) % n
        obs[params.o_hand_counts + k] = state.hand_n[i, s] / 7.0
        obs[params.o_tricks + k] = state.tricks[i, s] / 7.0
        obs[params.o_scores + k] = state.scores[i, s] * params.score_scale
    obs[params.o_round] = state.round[i] / params.rounds
    obs[params.o_tricks_played] = state.tricks_played[i] / 7.0
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
class MexicanKernel(GameKernel):
    game_class = MexicanPokerGame
    run_rows = staticmethod(run_rows)
    run_rows_parallel = staticmethod(run_rows_parallel)

    def make_params(self, config: dict[str, Any]) -> MexicanParams:
        rounds = int(config["rounds"])
        return MexicanParams(
            num_players=int(config["num_players"]),
            rounds=rounds,
            doubt_chips=bool(config["doubt_chips"]),
            doubt_pass=bool(config["doubt_pass"]),
            win_reward=config["reward"] == "win",
            score_scale=1.0 / (encoding.MAX_ROUND_POINTS * rounds),
            corner=np.array(corners.resolve(config["corner_table"]), dtype=np.int64),
            pair_board=np.array([b for b, _ in corners.PAIRS], dtype=np.int64),
            deck=np.array(DECKS["65"].cards, dtype=np.int64),
            combo_bits=np.array(COMBO_BITS, dtype=np.int64),
            combo_action=np.asarray(COMBO_ACTION, dtype=np.int64),
            **schema_offsets(),
        )

    def new_state(self, n: int) -> MexicanState:
        def ints(*shape: int, fill: int = 0) -> np.ndarray:
            return np.full((n, *shape), fill, dtype=np.int64)

        return MexicanState(
            phase=ints(),
            round=ints(),
            token=ints(),
            turn=ints(),
            board_size=ints(fill=1),
            board=ints(BOARD_SLOTS),
            hands=ints(SEATS, HAND_SLOTS),
            hand_n=ints(SEATS),
            predictions=ints(SEATS, fill=-1),
            doubts=ints(SEATS, fill=NO_DOUBT),
            tricks=ints(SEATS),
            scores=ints(SEATS),
            leader=ints(fill=-1),
            winning=ints(fill=-1),
            best_key=ints(fill=-1),
            tricks_played=ints(),
            order=ints(SEATS),
            order_n=ints(),
            trick_n=ints(),
            trick_seat=ints(SEATS),
            trick_cards=ints(SEATS, 5),
            trick_hand_n=ints(SEATS),
            trick_card_n=ints(SEATS),
            trick_key=ints(SEATS),
            played=ints(MAX_PLAYED),
            played_n=ints(),
            deck=ints(65),
            work=ints(WORK),
            combos=ints(MAX_COMBOS, 2),
        )


Kernel = MexicanKernel
