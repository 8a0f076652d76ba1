"""The Perico heuristic (``agents.perico.PericoHeuristicAgent``) as a batched opponent, its Monte Carlo compiled.

``HeuristicOpponent().act(env, rows)`` decides the waiting decision of every
row of a batched Perico env (either variant) with the scalar agent's rule:
the same candidate keep sets in the same order, the same Monte Carlo values
(a hand's strength read from the same 40,000-hand table,
``agents.perico.strength_table``, raised to the power ``players - 1``), the
same knock rule and the same tie-breaks (a later candidate must beat the
best by more than 1e-12). Each (row, seat) has its own generator, like one
scalar agent per seat: ``seed(s)`` makes the generator of seat ``p`` in row
``r`` ``np.random.default_rng([s, r, p])``; ``seed([s0, s1, ...])`` gives each
row one generator ``np.random.default_rng(s_r)`` that all its seats draw from,
like one scalar agent playing every seat (a search's rollout).

Two samplers, chosen by ``sampler``:

* ``"scalar"`` (default): the draws of the scalar agent, number for number:
  a Monte Carlo call of ``k`` samples of ``size`` unseen cards draws ``k``
  rows of ``len(unseen)`` uniform doubles (``Generator.random``) and keeps,
  per row, the cards of the ``size`` smallest in increasing order (what
  ``argsort(...)[:, :size]`` picks). A scalar agent whose generator is in the
  same state therefore makes the same decision, and leaves its generator in
  the same state (``tests/agents/test_batched_perico.py`` checks both,
  decision by decision). Equal doubles among one row's draws (about one row
  in 10^13) could be ordered otherwise by numpy's sort.
* ``"fast"``: each sample is ``size`` cards of a partial Fisher–Yates shuffle
  of the unseen cards (``size`` bounded integers instead of ``len(unseen)``
  doubles). A uniformly random ordered sample either way, so every Monte Carlo
  value has the same distribution and so has every decision; the test checks
  the decision distributions against the scalar sampler's on many states.
  Its generator stays in registers for a whole value (``rng.load``,
  ``rng.integers_of``), and the value of keeping everything (draw one card,
  keep the best H) is a function of the card drawn, so each card drawn is
  evaluated once per value, not once per sample (the same value either way).

The values are the scalar agent's to the bit: each class's strength^k is
computed by numpy once (``x ** k`` of an array, as ``mean_strength_power``
does; Python's ``float ** int`` for ``strength_power``) and looked up, and the
means are numpy's pairwise sums. The knock's samples stop once the decision
is known (the threshold reached, or out of reach); the scalar sampler then
skips the generator over the draws of the samples left.

It reads only what the acting seat may know: its hand (and the card it just
drew), the discard pile and the deck, as ``PericoView`` gives them.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import NamedTuple

import numba
import numpy as np

from pokerzoo.agents.perico import ACE, PericoHeuristicAgent, strength_table
from pokerzoo.envs.batched import rng, seeding
from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.batched.core import CHUNK, PARALLEL_MIN_ROWS, BatchedEnv
from pokerzoo.envs.engine.cards import NUM_CARD_IDS
from pokerzoo.envs.perico.actions import CONTINUE, DISCARD0, DRAW, KNOCK
from pokerzoo.envs.perico.batched_hands import FIRST_JOKER, class_entry, code_entry, insert_sorted
from pokerzoo.envs.perico.game import PericoGame, PericoView
from pokerzoo.envs.perico.kernel import DISCARD_PHASE, KNOCK_PHASE, MAX_DECK, MAX_HAND, MAX_PLAYERS, PericoKernel
from pokerzoo.envs.perico.kernel_state import PHASES
from pokerzoo.envs.perico.ranking import ranker_for

SAMPLERS = ("scalar", "fast")
TIE_MARGIN = 1e-12  # the scalar agent's: a candidate must beat the best value by more than this
MAX_CANDIDATES = 1 << (MAX_HAND + 1)  # keep sets are slot masks of at most 7 slots


class AgentParams(NamedTuple):
    # strength^k of every class entry (``_Context``'s strength: the share of the table's hands it beats, ties
    # half), as ``mean_strength_power``'s numpy array power computes it, and as ``strength_power``'s Python pow
    term: np.ndarray  # float64[classes]
    term_scalar: np.ndarray  # float64[classes]
    knock_threshold: float
    knock_samples: int
    knock_wins: int  # the fewest wins w with w / knock_samples >= knock_threshold (the scalar agent's test)
    turn_samples: int
    discard_samples: int
    fast: bool
    one_per_row: bool  # every seat of a row draws from the row's one generator (``HeuristicOpponent.seed``)
    window_ranks: np.ndarray  # int64[W, H]: the ranks of each straight of H cards (``agents.perico._windows``)
    bit_count: np.ndarray  # int64[128]: set bits of a slot mask
    order_key: np.ndarray  # int64[128]: a slot mask's place in ``candidate_keeps``' order (``order_keys``)


class Scratch(NamedTuple):
    """Working room of one decision (one slot per chunk of rows decided in parallel)."""

    unseen: np.ndarray  # int8[S, 56]
    drawn: np.ndarray  # int8[S, 8]: cards taken from one sample
    order: np.ndarray  # uint64[S, 56]: the scalar sampler's draws of one sample
    picked: np.ndarray  # int64[S, 8]: the draws of the cards taken
    rest: np.ndarray  # int8[S, 8]: a hand after a discard
    values: np.ndarray  # float64[S, V]: the Monte Carlo terms of one value
    candidates: np.ndarray  # int64[S, 128]
    seen: np.ndarray  # bool[S, 128]
    by_rank: np.ndarray  # int64[S, 13]: slot masks of each rank
    by_suit: np.ndarray  # int64[S, 4]: slot masks of each suit
    suit_order: np.ndarray  # int64[S, 4]: suits in order of first appearance in the hand
    suit_high: np.ndarray  # int64[S, 4]: the highest rank of each suit in the hand
    stack: np.ndarray  # int64[S, 3, 64]: ``_mean``'s stack
    partial: np.ndarray  # float64[S, 64]: ``_mean``'s subtotals
    memo: np.ndarray  # float64[S, 69]: the fast ``_draw_one_value``'s term by drawn card
    memo_set: np.ndarray  # bool[S, 69]: which cards ``memo`` holds


def new_scratch(slots: int, values: int) -> Scratch:
    return Scratch(
        unseen=np.zeros((slots, MAX_DECK), dtype=np.int8),
        drawn=np.zeros((slots, 8), dtype=np.int8),
        order=np.zeros((slots, MAX_DECK), dtype=np.uint64),
        picked=np.zeros((slots, 8), dtype=np.int64),
        rest=np.zeros((slots, 8), dtype=np.int8),
        values=np.zeros((slots, max(values, 1)), dtype=np.float64),
        candidates=np.zeros((slots, MAX_CANDIDATES), dtype=np.int64),
        seen=np.zeros((slots, MAX_CANDIDATES), dtype=np.bool_),
        by_rank=np.zeros((slots, 13), dtype=np.int64),
        by_suit=np.zeros((slots, 4), dtype=np.int64),
        suit_order=np.zeros((slots, 4), dtype=np.int64),
        suit_high=np.zeros((slots, 4), dtype=np.int64),
        stack=np.zeros((slots, 3, 64), dtype=np.int64),
        partial=np.zeros((slots, 64), dtype=np.float64),
        memo=np.zeros((slots, NUM_CARD_IDS), dtype=np.float64),
        memo_set=np.zeros((slots, NUM_CARD_IDS), dtype=np.bool_),
    )


def window_ranks(hand_size: int) -> np.ndarray:
    """The ranks of each of ``agents.perico._windows``, in the same order: int64[W, hand_size]."""
    windows = [list(range(top - hand_size + 1, top + 1)) for top in range(hand_size - 1, ACE + 1)]
    windows.append([*range(hand_size - 1), ACE])
    return np.array(windows, dtype=np.int64)


def order_keys() -> np.ndarray:
    """The sort key of every slot mask of up to 7 slots, ``candidate_keeps``' order: longer sets first, then the
    slot tuples in increasing order (base-8 digits, the first slot leading)."""
    keys = []
    for keep in range(MAX_CANDIDATES):
        slots = [s for s in range(MAX_HAND + 1) if keep >> s & 1]
        code = 0
        for s in slots:
            code = code * 8 + s
        code *= 8 ** (MAX_HAND + 1 - len(slots))
        keys.append((MAX_HAND + 1 - len(slots)) << 24 | code)
    return np.array(keys, dtype=np.int64)


# ---------------------------------------------------------------- arithmetic as numpy does it
@kernel
def _pairwise_block(values, lo, n):
    """numpy's ``pairwise_sum`` of ``values[lo:lo + n]`` for ``n <= 128`` (eight accumulators, then the rest)."""
    if n < 8:
        total = 0.0
        for k in range(lo, lo + n):
            total += values[k]
        return total
    r0 = values[lo]
    r1 = values[lo + 1]
    r2 = values[lo + 2]
    r3 = values[lo + 3]
    r4 = values[lo + 4]
    r5 = values[lo + 5]
    r6 = values[lo + 6]
    r7 = values[lo + 7]
    k = 8
    while k < n - n % 8:
        r0 += values[lo + k]
        r1 += values[lo + k + 1]
        r2 += values[lo + k + 2]
        r3 += values[lo + k + 3]
        r4 += values[lo + k + 4]
        r5 += values[lo + k + 5]
        r6 += values[lo + k + 6]
        r7 += values[lo + k + 7]
        k += 8
    total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while k < n:
        total += values[lo + k]
        k += 1
    return total


@kernel
def _mean(values, n, stack, partial):
    """``np.mean(values[:n])``: numpy's pairwise sum (blocks of up to 128 halved recursively, at multiples
    of 8), here with an explicit stack (``stack``: int64[3, D], ``partial``: float64[D]), divided by ``n``."""
    if n <= 128:
        return _pairwise_block(values, 0, n) / n
    top = 0  # nodes to visit: (start, length, children done)
    stack[0, 0], stack[1, 0], stack[2, 0] = 0, n, 0
    done = 0  # sums of finished subtrees, left to right
    while top >= 0:
        lo, m, state = stack[0, top], stack[1, top], stack[2, top]
        if m <= 128:
            partial[done] = _pairwise_block(values, lo, m)
            done += 1
            top -= 1
            continue
        half = m // 2
        half -= half % 8
        if state == 2:  # both halves summed: combine them
            partial[done - 2] = partial[done - 2] + partial[done - 1]
            done -= 1
            top -= 1
            continue
        stack[2, top] = state + 1
        top += 1
        if state == 0:
            stack[0, top], stack[1, top], stack[2, top] = lo, half, 0
        else:
            stack[0, top], stack[1, top], stack[2, top] = lo + half, m - half, 0
    return partial[0] / n


# ---------------------------------------------------------------- sampling
@kernel(inline=True)
def _take_smallest(m, size, floor, sc):
    """The scalar sampler's next ``size`` cards of a sample into ``sc.drawn[:size]``; returns the floor for the
    next ``_take_smallest`` of the sample.

    ``sc.order[:m]`` holds the sample's draws (``rng.random_bits53``: a row
    of ``Generator.random``); the cards taken are those of the ``size``
    smallest draws above ``floor`` (the previous take's largest; -1 for none),
    in increasing order, as ``argsort`` ranks them.
    """
    unseen, out, order, picked = sc.unseen, sc.drawn, sc.order, sc.picked
    filled = 0
    for k in range(m):
        v = np.int64(order[k])
        if v <= floor:
            continue
        if filled == size:
            if v >= picked[size - 1]:
                continue
            pos = size - 1
        else:
            pos = filled
            filled += 1
        while pos > 0 and picked[pos - 1] > v:
            picked[pos] = picked[pos - 1]
            out[pos] = out[pos - 1]
            pos -= 1
        picked[pos] = v
        out[pos] = unseen[k]
    return picked[size - 1]


@kernel(inline=True)
def _deal(params, st, m, start, size, sc):
    """The fast sampler: positions ``start .. start + size - 1`` of a partial Fisher–Yates shuffle of
    ``sc.unseen[:m]``, in place, position ``a`` swapped with ``a + integers(m - a)`` of the generator ``st``
    (a ``rng.load``ed tuple); returns the advanced tuple and the cards' ``_code_of``. A uniformly random
    ordered sample, as the scalar sampler's, whatever order earlier samples left ``sc.unseen`` in.
    ``rng.partial_shuffle``'s loop with the code summed on the way (one pass: this is the hot loop)."""
    unseen = sc.unseen
    code = 0
    for a in range(start, start + size):
        st, j = rng.integers_of(st, m - a)
        b = a + j
        c = unseen[b]
        unseen[b] = unseen[a]
        unseen[a] = c
        code += params.card_code[c]
    return st, code


@kernel(inline=True)
def _code_of(params, cards, start, size):
    """The sum of ``card_code`` over ``cards[start:start + size]`` (``code_entry``'s input)."""
    code = 0
    for k in range(start, start + size):
        code += params.card_code[cards[k]]
    return code


# ---------------------------------------------------------------- candidate keep sets
@kernel(inline=True)
def _add(candidates, seen, count, keep):
    if not seen[keep]:
        seen[keep] = True
        candidates[count] = keep
        return count + 1
    return count


@kernel
def candidate_keeps(params, agent, hand, sc):
    """``agents.perico.candidate_keeps`` of the sorted ``hand[:H]`` as slot masks into ``sc.candidates``, in its
    order (more cards first, then the slot tuples in increasing order); returns how many.

    One pass over the hand gathers the slot masks of each rank and suit, the
    highest rank of each suit and the two highest ranks; every candidate is
    then a few mask operations (a straight window's slots are the masks of its
    ranks), and the order is ``agent.order_key``'s, looked up.
    """
    h = params.hand_size
    cand, seen = sc.candidates, sc.seen
    by_rank, by_suit, suit_order, suit_high = sc.by_rank, sc.by_suit, sc.suit_order, sc.suit_high
    seen[:] = False
    by_rank[:] = 0
    by_suit[:] = 0
    jokers = 0
    suits = 0
    high_slot, high_rank = -1, -1  # the first slot of the highest rank
    for s in range(h):
        c = hand[s]
        if c >= FIRST_JOKER:
            jokers |= 1 << s
            continue
        rank = params.card_rank[c]
        by_rank[rank] |= 1 << s
        suit = params.card_suit[c]
        if by_suit[suit] == 0:
            suit_order[suits] = suit
            suits += 1
            suit_high[suit] = rank
        by_suit[suit] |= 1 << s
        suit_high[suit] = max(suit_high[suit], rank)
        if rank > high_rank:
            high_slot, high_rank = s, rank
    count = _add(cand, seen, 0, (1 << h) - 1)
    count = _add(cand, seen, count, jokers)
    books = 0
    top_rank, top_len = -1, 0
    for r in range(13):
        n = agent.bit_count[by_rank[r]]
        if n >= 2:
            books |= by_rank[r]
        if n > 0 and n >= top_len:  # max((len, rank)): more cards, then the higher rank
            top_rank, top_len = r, n
    if books:
        count = _add(cand, seen, count, books | jokers)
        count = _add(cand, seen, count, by_rank[top_rank] | jokers)
    if suits:
        best, best_len, best_high = -1, -1, -1
        for k in range(suits):  # max() over the suits in order of appearance: the first of the best
            suit = suit_order[k]
            n = agent.bit_count[by_suit[suit]]
            if n > best_len or (n == best_len and suit_high[suit] > best_high):
                best, best_len, best_high = by_suit[suit], n, suit_high[suit]
        if best_len >= 2:
            count = _add(cand, seen, count, best | jokers)
    for w in range(agent.window_ranks.shape[0]):
        straight = 0  # the first slot of each rank of the window
        inside = 0  # every slot of a rank of the window
        for x in range(h):
            slots = by_rank[agent.window_ranks[w, x]]
            straight |= slots & -slots
            inside |= slots
        if agent.bit_count[straight] >= 2:
            count = _add(cand, seen, count, straight | jokers)
        for k in range(suits):
            suited = by_suit[suit_order[k]] & inside
            if agent.bit_count[suited] >= 2:
                count = _add(cand, seen, count, suited | jokers)
    if high_slot >= 0:
        count = _add(cand, seen, count, (1 << high_slot) | jokers)
        second_slot, second_rank = -1, -1
        for s in range(h):
            c = hand[s]
            if c < FIRST_JOKER and params.card_rank[c] != high_rank and params.card_rank[c] > second_rank:
                second_slot, second_rank = s, params.card_rank[c]
        if second_slot >= 0:
            count = _add(cand, seen, count, (1 << high_slot) | (1 << second_slot) | jokers)
    # sort by (-len, slot tuple): longer first, then lexicographically
    for k in range(1, count):
        keep = cand[k]
        key = agent.order_key[keep]
        j = k
        while j > 0 and agent.order_key[cand[j - 1]] > key:
            cand[j] = cand[j - 1]
            j -= 1
        cand[j] = keep
    return count


# ---------------------------------------------------------------- Monte Carlo values
@kernel(inline=True)
def _keep_value(params, agent, words, g, hand, keep, samples, m, sc):
    """``_Context.keep_value``: the kept slots plus random unseen cards, mean strength^k over ``samples``."""
    h = params.hand_size
    kept = 0
    kept_code = 0
    for s in range(h):
        if (keep >> s) & 1:
            kept_code += params.card_code[hand[s]]
            kept += 1
    size = h - kept
    if agent.fast:
        st = rng.load(words, g)
        for t in range(samples):
            st, code = _deal(params, st, m, 0, size, sc)
            sc.values[t] = agent.term[code_entry(params, kept_code + code, h)]
        rng.store(words, g, st)
    else:
        for t in range(samples):
            rng.random_bits53(words, g, sc.order, m)
            _take_smallest(m, size, -1, sc)
            sc.values[t] = agent.term[code_entry(params, kept_code + _code_of(params, sc.drawn, 0, size), h)]
    return _mean(sc.values, samples, sc.stack, sc.partial)


@kernel(inline=True)
def _best_after_drawing(params, hand, hand_code, thrown, card):
    """The class entry of the best H of ``hand`` plus ``card`` (``thrown``: the entry of ``hand`` itself, the
    card thrown back); an earlier of equal keys wins, as ``max`` finds it."""
    h = params.hand_size
    held = hand_code + params.card_code[card]
    best_entry = thrown
    best_key = params.class_keys[thrown]
    for k in range(h):
        entry = code_entry(params, held - params.card_code[hand[k]], h)
        key = params.class_keys[entry]
        if key > best_key:
            best_key, best_entry = key, entry
    return best_entry


@kernel(inline=True)
def _draw_one_value(params, agent, words, g, hand, samples, m, sc):
    """``_Context.draw_one_value``: draw one card, keep the best H of the H + 1.

    The fast sampler remembers each drawn card's value for the rest of the
    call (a function of the card alone), so a card drawn twice is evaluated once.
    """
    h = params.hand_size
    hand_code = _code_of(params, hand, 0, h)
    thrown = code_entry(params, hand_code, h)
    if agent.fast:
        for k in range(m):
            sc.memo_set[sc.unseen[k]] = False
        st = rng.load(words, g)
        for t in range(samples):
            st, _ = _deal(params, st, m, 0, 1, sc)
            card = sc.unseen[0]
            if not sc.memo_set[card]:
                sc.memo[card] = agent.term[_best_after_drawing(params, hand, hand_code, thrown, card)]
                sc.memo_set[card] = True
            sc.values[t] = sc.memo[card]
        rng.store(words, g, st)
    else:
        for t in range(samples):
            rng.random_bits53(words, g, sc.order, m)
            _take_smallest(m, 1, -1, sc)
            sc.values[t] = agent.term[_best_after_drawing(params, hand, hand_code, thrown, sc.drawn[0])]
    return _mean(sc.values, samples, sc.stack, sc.partial)


@kernel
def _choose_keep(params, agent, words, g, hand, m, sc):
    """``PericoHeuristicAgent.choose_keep``: the slot mask of the best candidate."""
    h = params.hand_size
    everything = (1 << h) - 1
    count = candidate_keeps(params, agent, hand, sc)
    best, best_value = everything, -1.0
    for k in range(count):
        keep = sc.candidates[k]
        if keep == everything:
            value = _draw_one_value(params, agent, words, g, hand, agent.turn_samples, m, sc)
        else:
            value = _keep_value(params, agent, words, g, hand, keep, agent.turn_samples, m, sc)
        if value > best_value + TIE_MARGIN:
            best, best_value = keep, value
    return best


@kernel
def _choose_discard(params, agent, words, g, hand, drawn, m, sc):
    """``PericoHeuristicAgent.choose_discard``: the index in ``hand + [drawn]`` of the card to throw."""
    h = params.hand_size
    best, best_value = h, -1.0
    rest = sc.rest
    for i in range(h + 1):
        n = 0
        for k in range(h):
            if k != i:
                rest[n] = hand[k]
                n += 1
        if i < h:
            insert_sorted(params, rest, h - 1, drawn)
        value = agent.term_scalar[class_entry(params, rest, h, -1)]
        count = candidate_keeps(params, agent, rest, sc)
        for k in range(count):
            keep = sc.candidates[k]
            if agent.bit_count[keep] < h:
                value = max(value, _keep_value(params, agent, words, g, rest, keep, agent.discard_samples, m, sc))
        if value > best_value + TIE_MARGIN:
            best, best_value = i, value
    return best


@kernel
def _win_chance_knocks(params, agent, words, g, mine, m, sc):
    """``PericoHeuristicAgent.win_chance(...) >= knock_threshold``: deal the unseen cards to the others.

    The samples stop once the threshold is reached or out of reach (the
    decision is then known); the scalar sampler skips the draws of the samples
    left, so its generator ends where the scalar agent's does. The test
    ``wins / samples >= knock_threshold`` is ``wins >= agent.knock_wins``.
    """
    h = params.hand_size
    others = params.num_players - 1
    samples = agent.knock_samples
    need = agent.knock_wins
    wins = 0
    t = 0
    st = rng.load(words, g)  # the fast sampler's generator, in locals
    while t < samples:
        if wins >= need or wins + samples - t < need:
            break
        t += 1
        if not agent.fast:
            rng.random_bits53(words, g, sc.order, m)
        beaten = True
        floor = -1
        for j in range(others):  # all(...) stops at the first hand that is not beaten: the next are not needed
            if agent.fast:
                st, code = _deal(params, st, m, j * h, h, sc)
            else:
                floor = _take_smallest(m, h, floor, sc)
                code = _code_of(params, sc.drawn, 0, h)
            if not mine > params.class_keys[code_entry(params, code, h)]:
                beaten = False
                break
        wins += beaten
    if agent.fast:
        rng.store(words, g, st)
    else:
        rng.skip_uint64(words, g, (samples - t) * m)
    return wins >= need


# ---------------------------------------------------------------- one decision
@kernel(inline=True)
def decide(state, params, agent, words, i, sc):
    """``PericoHeuristicAgent.act`` for the player to act in row i; ``words``: the (row, seat) generators."""
    p = state.player[i]
    g = i * MAX_PLAYERS + (0 if agent.one_per_row else p)
    h = params.hand_size
    hand = state.hands[i, p]
    phase = state.phase[i]
    drawn = state.drawn[i] if phase == DISCARD_PHASE else -1
    known = 0  # card slots the seat has seen: its hand, the pile, the card it drew
    for k in range(h):
        known |= 1 << params.card_slot[hand[k]]
    for k in range(state.pile_n[i]):
        known |= 1 << params.card_slot[state.pile[i, k]]
    if drawn >= 0:
        known |= 1 << params.card_slot[drawn]
    m = 0
    for k in range(params.deck_size):
        c = params.deck[k]
        if not (known >> params.card_slot[c]) & 1:
            sc.unseen[m] = c
            m += 1
    if phase == KNOCK_PHASE:
        return KNOCK if _win_chance_knocks(params, agent, words, g, state.keys[i, p], m, sc) else CONTINUE
    if phase == DISCARD_PHASE:
        return DISCARD0 + _choose_discard(params, agent, words, g, hand, drawn, m, sc)
    keep = _choose_keep(params, agent, words, g, hand, m, sc)
    if agent.bit_count[keep] >= h - 1:
        return DRAW
    return params.exchange0 + (((1 << h) - 1) ^ keep) - 1


@kernel
def decide_rows(state, params, agent, words, rows, sc, out):
    """Decide ``rows`` with the scratch of slot 0 of ``sc`` (``Scratch`` arrays of one slot, passed flat)."""
    for k in range(rows.shape[0]):
        out[k] = decide(state, params, agent, words, rows[k], sc)


@kernel(parallel=True)
def decide_rows_parallel(state, params, agent, words, rows, sc_all, out):
    for c in numba.prange((rows.shape[0] + CHUNK - 1) // CHUNK):  # as the env's parallel loop: chunks of rows
        lo = c * CHUNK
        hi = min(rows.shape[0], lo + CHUNK)
        decide_rows(state, params, agent, words, rows[lo:hi], _slot(sc_all, c), out[lo:hi])


@kernel(inline=True)
def _slot(sc, c):
    return Scratch(
        sc.unseen[c],
        sc.drawn[c],
        sc.order[c],
        sc.picked[c],
        sc.rest[c],
        sc.values[c],
        sc.candidates[c],
        sc.seen[c],
        sc.by_rank[c],
        sc.by_suit[c],
        sc.suit_order[c],
        sc.suit_high[c],
        sc.stack[c],
        sc.partial[c],
        sc.memo[c],
        sc.memo_set[c],
    )


# ---------------------------------------------------------------- the constants of one agent at one table
def agent_params(settings, p, variant: tuple[bool, str, bool], one_per_row: bool, fast: bool) -> AgentParams:
    """The compiled heuristic's constants at the table ``p`` (a ``PericoParams``).

    ``settings``: anything holding the scalar agent's four parameters (``knock_threshold``, ``knock_samples``,
    ``turn_samples``, ``discard_samples``): a ``HeuristicOpponent`` or a ``PericoHeuristicAgent``. ``variant``:
    ``(six_card, deck name, jokers_in_five_of_a_kind)``, the key of the strength table.
    """
    table = strength_table(*variant)
    lr = np.searchsorted(table, p.class_keys, "left") + np.searchsorted(table, p.class_keys, "right")
    strength = lr / (2 * len(table))  # as _Context computes it, for every class entry
    power = max(1, p.num_players - 1)
    samples, threshold = int(settings.knock_samples), float(settings.knock_threshold)
    knock_wins = next(w for w in range(samples + 1) if w / samples >= threshold)
    return AgentParams(
        term=strength**power,  # numpy's array power: the very values of mean_strength_power
        term_scalar=np.array([float(x) ** power for x in strength]),  # strength_power's Python pow
        knock_threshold=threshold,
        knock_samples=samples,
        knock_wins=knock_wins,
        turn_samples=int(settings.turn_samples),
        discard_samples=int(settings.discard_samples),
        fast=fast,
        one_per_row=one_per_row,
        window_ranks=window_ranks(p.hand_size),
        bit_count=np.array([k.bit_count() for k in range(MAX_CANDIDATES)], dtype=np.int64),
        order_key=order_keys(),
    )


# ---------------------------------------------------------------- the opponent
class HeuristicOpponent:
    """``PericoHeuristicAgent`` for every row of a batched Perico env at once (module docstring).

    The parameters are the scalar agent's, plus ``sampler`` (``"scalar"`` or
    ``"fast"``). The rows are decided on all of numba's threads when the env
    runs in parallel and at least ``PARALLEL_MIN_ROWS`` rows are asked for.
    """

    name = "heuristic"
    scalar_agent = PericoHeuristicAgent
    # what ``pokerzoo bench batched`` measures: both samplers (the first one's decisions are checked against the twins)
    benchmark_variants = ({"sampler": "scalar"}, {"sampler": "fast"})

    def __init__(
        self,
        seed: int | None = None,
        knock_threshold: float = 0.7,
        knock_samples: int = 200,
        turn_samples: int = 24,
        discard_samples: int = 8,
        sampler: str = "scalar",
    ):
        PericoHeuristicAgent(0, knock_threshold, knock_samples, turn_samples, discard_samples)  # the same checks
        if sampler not in SAMPLERS:
            raise ValueError(f"sampler={sampler!r}: expected one of {', '.join(SAMPLERS)}")
        self.knock_threshold = float(knock_threshold)
        self.knock_samples = int(knock_samples)
        self.turn_samples = int(turn_samples)
        self.discard_samples = int(discard_samples)
        self.sampler = sampler
        self._agents: dict[tuple, AgentParams] = {}
        self._words: np.ndarray | None = None
        self.seed(seed)

    def seed(self, seed: int | Sequence[int] | None) -> None:
        """An int (or None: fresh entropy): seat ``p`` of row ``r`` draws from ``np.random.default_rng([seed, r,
        p])``. A sequence of ints, one per row: every seat of row ``r`` draws from one generator,
        ``np.random.default_rng(seed[r])``, as one scalar agent seeded so and deciding every seat of a game in turn
        (a search's rollout agent: ``agents/search_batched.py`` pairs its rollouts so)."""
        if isinstance(seed, Sequence | np.ndarray):
            seeds = [int(s) for s in seed]
            if seeds and (min(seeds) < 0 or max(seeds) > seeding.MAX_KEY):
                raise ValueError(f"seed: row seeds must be ints in 0..2**64-1, got {min(seeds)}..{max(seeds)}")
            self._row_seeds: list[int] | None = seeds
            self._seed = None
        else:
            self._row_seeds = None
            self._seed = int(np.random.SeedSequence().entropy) if seed is None else int(seed)
        self._words = None

    def generators(self, num_envs: int) -> np.ndarray:
        """The (row, seat) generators as ``rng`` words, ``[num_envs * 6, 6]`` (row-major), made on first use
        (with row seeds, a row's one generator is its seat 0's)."""
        if self._words is None or self._words.shape[0] != num_envs * MAX_PLAYERS:
            if self._row_seeds is None:
                self._words = seeding.row_seat_words(self._seed, num_envs, MAX_PLAYERS)
            else:
                if len(self._row_seeds) < num_envs:
                    raise ValueError(f"seed: {len(self._row_seeds)} row seeds given for an env of {num_envs} rows")
                words = np.zeros((num_envs * MAX_PLAYERS, rng.WORDS), dtype=np.uint64)
                words[::MAX_PLAYERS] = seeding.words_of_keys(np.array(self._row_seeds[:num_envs], dtype=np.uint64))
                self._words = words
        return self._words

    def scalar_twin(self, row: int, seat: int) -> PericoHeuristicAgent:
        """The scalar agent deciding as this one does for ``seat`` in ``row`` (with the ``"scalar"`` sampler):
        the same parameters and a generator in the state of that (row, seat)'s own before its first decision."""
        agent = PericoHeuristicAgent(
            None, self.knock_threshold, self.knock_samples, self.turn_samples, self.discard_samples, compiled=False
        )
        if self._row_seeds is None:
            agent.rng = np.random.default_rng([self._seed, row, seat])
        else:
            agent.rng = np.random.default_rng(self._row_seeds[row])
        return agent

    def generator_state(self, row: int, seat: int) -> dict:
        """numpy's ``bit_generator.state`` of the generator of ``seat`` in ``row`` (what a scalar agent would hold)."""
        return rng.state_from_words(self._words[row * MAX_PLAYERS + (0 if self._row_seeds is not None else seat)])

    def agent_params(self, env: BatchedEnv) -> AgentParams:
        config = env.config
        p = env.kernel.params
        key = (p.hand_size == 6, config["deck"] or ("56" if p.hand_size == 6 else "54"),
               config["jokers_in_five_of_a_kind"], p.num_players, self._row_seeds is not None)  # fmt: skip
        agent = self._agents.get(key)
        if agent is None:
            agent = self._agents[key] = agent_params(self, p, key[:3], one_per_row=key[4], fast=self.sampler == "fast")
        return agent

    def act(self, env: BatchedEnv, rows: np.ndarray) -> np.ndarray:
        if not isinstance(env.kernel, PericoKernel):
            raise TypeError(f"HeuristicOpponent plays Perico; this env plays {env.name}")
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        out = np.empty(rows.shape[0], dtype=np.int64)
        agent = self.agent_params(env)
        words = self.generators(env.num_envs)
        values = max(self.turn_samples, self.discard_samples)
        if env.parallel and rows.shape[0] >= PARALLEL_MIN_ROWS:
            sc = new_scratch((rows.shape[0] + CHUNK - 1) // CHUNK, values)
            decide_rows_parallel(env.state, env.kernel.params, agent, words, rows, sc, out)
        else:
            sc = Scratch(*(a[0] for a in new_scratch(1, values)))
            decide_rows(env.state, env.kernel.params, agent, words, rows, sc, out)
        return out


# ---------------------------------------------------------------- one scalar decision, compiled
class ViewHeuristic:
    """``PericoHeuristicAgent.act`` on one view, compiled: the same draws, the same decision.

    The scalar agent's Monte Carlo is what a Perico search spends its time on
    (``pimc`` and ``ismcts`` roll out with ``SEARCH_ROLLOUT`` in every seat, and
    in Python such a decision costs milliseconds). This writes what the view
    shows into row 0 of a one-row kernel state (the seat to act, the phase,
    its sorted hand and, to knock, that hand's key, the card it drew, the pile),
    runs ``decide`` with the ``"scalar"`` sampler on the agent's own generator
    (read from and written back to the ``numpy`` generator, so the stream goes
    on exactly as after the Python decision) and returns its action.
    ``decide`` reads nothing else of the row (the other hands and the stock
    stay empty). One instance per table shape (``for_view``); not thread-safe
    (each agent is used by one thread).
    """

    def __init__(self, num_players: int, six_card: bool, deck: str, jokers_in_five_of_a_kind: bool):
        config = PericoGame.OPTIONS.validate(
            {"num_players": num_players, "six_card": six_card, "deck": deck,
             "jokers_in_five_of_a_kind": jokers_in_five_of_a_kind}
        )  # fmt: skip
        kernel_ = PericoKernel(config)
        self.variant = (six_card, deck, jokers_in_five_of_a_kind)
        self.params = kernel_.params
        self.state = kernel_.new_state(1)
        self.ranker = ranker_for(six_card, jokers_in_five_of_a_kind)
        self.rows = np.zeros(1, dtype=np.int64)
        self.out = np.zeros(1, dtype=np.int64)
        self.words = np.zeros((1, rng.WORDS), dtype=np.uint64)  # one generator: row 0's (``one_per_row``)
        self._agents: dict[tuple, tuple[AgentParams, Scratch]] = {}

    @staticmethod
    def for_view(view: PericoView) -> ViewHeuristic:
        return _view_heuristic(view.num_players, bool(view.six_card), view.deck, bool(view.jokers_in_five_of_a_kind))

    def _agent(self, agent: PericoHeuristicAgent) -> tuple[AgentParams, Scratch]:
        settings = (agent.knock_threshold, agent.knock_samples, agent.turn_samples, agent.discard_samples)
        found = self._agents.get(settings)
        if found is None:
            params = agent_params(agent, self.params, self.variant, one_per_row=True, fast=False)
            scratch = Scratch(*(a[0] for a in new_scratch(1, max(agent.turn_samples, agent.discard_samples))))
            found = self._agents[settings] = (params, scratch)
        return found

    def load(self, view: PericoView) -> None:
        """Row 0 becomes what ``view`` shows, for the seat ``view.player``."""
        s, me, h = self.state, view.player, view.hand_size
        s.player[0] = me
        s.phase[0] = PHASES[view.phase]
        s.hands[0, me, :h] = view.hand
        if view.phase == "knock":  # the only phase whose decision reads the hand's key
            s.keys[0, me] = self.ranker.key(view.hand)
        s.drawn[0] = view.drawn
        s.pile[0, : len(view.pile)] = view.pile
        s.pile_n[0] = len(view.pile)

    def act(self, agent: PericoHeuristicAgent, view: PericoView) -> int:
        """The action ``agent`` takes on ``view``, its generator advanced as the Python decision advances it."""
        params, scratch = self._agent(agent)
        self.load(view)
        bit_generator = agent.rng.bit_generator
        self.words[0] = rng.words_from_state(bit_generator.state)
        decide_rows(self.state, self.params, params, self.words, self.rows, scratch, self.out)
        bit_generator.state = rng.state_from_words(self.words[0])
        return int(self.out[0])


@functools.cache
def _view_heuristic(num_players: int, six_card: bool, deck: str, jokers_in_five_of_a_kind: bool) -> ViewHeuristic:
    """One ``ViewHeuristic`` per table shape, made on first use."""
    return ViewHeuristic(num_players, six_card, deck, jokers_in_five_of_a_kind)


# the ports this module lists for ``pokerzoo.agents.batched.batched_agents``
AGENTS = (HeuristicOpponent,)
