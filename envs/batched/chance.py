"""Per-row chance for the batched engine: ``Chance`` and ``ScriptedChance`` as arrays.

A scalar game draws through ``Chance`` (``shuffle``, ``integer``) from its
generator; the AEC env's ``reset(seed=s)`` seeds one generator that runs on
through the following episodes, and ``reset(options={"chance": c})`` plays one
game on another chance (a ``ScriptedChance`` stacks the deck for a test) while
the env's own generator waits untouched for the next game. ``ChanceArrays``
mirrors all of that per row:

* ``words[i]``: the generator the current game of row i draws from (``rng.WORDS``);
* ``saved[i]``, ``injected[i]``: while a game runs on an injected chance, the
  row's own generator is parked in ``saved`` and comes back at the game's end
  (``end_game``), exactly like the scalar env's next ``reset()``;
* a ``ScriptedChance``'s script: the cards each scripted shuffle puts on top
  (``top`` holds them end to end, ``top_end`` where each shuffle's run ends)
  and the scripted integers, consumed in order; when a script runs out the
  row's generator takes over, as in ``ScriptedChance``.

Kernels call ``shuffle(chance, i, cards, n, out)`` and ``integer(chance, i, n)``
(the batched ``Chance.shuffle`` / ``Chance.integer``) and the row template calls
``end_game(chance, i)`` when a game ends. Python code loads rows with
``seed_rows`` and ``inject``, and reads a row's generator back with
``row_state`` (numpy's ``bit_generator.state``), which the differential kit
compares with the scalar env's generator after every game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from pokerzoo.envs.batched import rng
from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.engine.cards import Chance, ScriptedChance


class ChanceArrays(NamedTuple):
    words: np.ndarray  # uint64[N, WORDS]: the generator the row's current game draws from
    saved: np.ndarray  # uint64[N, WORDS]: the row's own generator while an injected chance plays
    injected: np.ndarray  # uint8[N]
    top: np.ndarray  # int64[N, C]: scripted shuffles' top cards, end to end
    top_end: np.ndarray  # int64[N, K]: end offset in ``top`` of each scripted shuffle
    shuffles: np.ndarray  # int64[N, 2]: (scripted shuffles, next one to use)
    ints: np.ndarray  # int64[N, M]: scripted integers
    int_count: np.ndarray  # int64[N, 2]: (scripted integers, next one to use)


def new_chance(n: int, script_cards: int = 1, script_shuffles: int = 1, script_ints: int = 1) -> ChanceArrays:
    return ChanceArrays(
        words=np.zeros((n, rng.WORDS), dtype=np.uint64),
        saved=np.zeros((n, rng.WORDS), dtype=np.uint64),
        injected=np.zeros(n, dtype=np.uint8),
        top=np.zeros((n, max(script_cards, 1)), dtype=np.int64),
        top_end=np.zeros((n, max(script_shuffles, 1)), dtype=np.int64),
        shuffles=np.zeros((n, 2), dtype=np.int64),
        ints=np.zeros((n, max(script_ints, 1)), dtype=np.int64),
        int_count=np.zeros((n, 2), dtype=np.int64),
    )


# ---------------------------------------------------------------- Python side
def seed_rows(chance: ChanceArrays, rows: Sequence[int], seeds: Sequence[int | None]) -> None:
    """Row ``rows[k]``'s own generator becomes ``np.random.default_rng(seeds[k])``; scripts are dropped."""
    for i, s in zip(rows, seeds, strict=True):
        chance.words[i] = rng.words_from_seed(s)
        chance.injected[i] = 0
        chance.shuffles[i] = 0
        chance.int_count[i] = 0


def inject(chance: ChanceArrays, row: int | np.ndarray, source: Chance) -> ChanceArrays:
    """Row ``row``'s next game draws from ``source`` (read now, never changed); returns the arrays.

    ``row`` may be an array of rows: each then draws from its own copy of
    ``source``'s generator and script (a search's candidates of one sampled
    world), set in one go. The arrays grow when a script does not fit, so use
    the returned ones. ``source`` is a ``Chance`` or ``ScriptedChance`` over a
    PCG64 generator.
    """
    if not isinstance(source, Chance):
        raise TypeError(f"row {row}: a chance is a pokerzoo Chance or ScriptedChance, got {type(source).__name__}")
    shuffles = [list(s) for s in source.shuffles] if isinstance(source, ScriptedChance) else []
    integers = list(source.integers) if isinstance(source, ScriptedChance) else []
    chance = _fit(chance, sum(len(s) for s in shuffles), len(shuffles), len(integers))
    rows = np.atleast_1d(row)
    own = rows[chance.injected[rows] == 0]  # a row already on an injected chance keeps its own generator parked
    chance.saved[own] = chance.words[own]
    chance.words[row] = rng.words_from_state(source.rng.bit_generator.state)
    chance.injected[row] = 1
    flat = [c for s in shuffles for c in s]
    chance.top[row, : len(flat)] = flat
    chance.top_end[row, : len(shuffles)] = np.cumsum([len(s) for s in shuffles], dtype=np.int64)
    chance.shuffles[row] = (len(shuffles), 0)
    chance.ints[row, : len(integers)] = integers
    chance.int_count[row] = (len(integers), 0)
    return chance


def _fit(chance: ChanceArrays, cards: int, shuffles: int, ints: int) -> ChanceArrays:
    """The arrays, widened where a script needs more room than they have."""
    n = chance.words.shape[0]
    widened = {}
    for field, need in (("top", cards), ("top_end", shuffles), ("ints", ints)):
        old = getattr(chance, field)
        if need > old.shape[1]:
            new = np.zeros((n, need), dtype=old.dtype)
            new[:, : old.shape[1]] = old
            widened[field] = new
    return chance._replace(**widened) if widened else chance


def own_generator(chance: ChanceArrays, row: int) -> np.ndarray:
    """The words of row ``row``'s own generator (parked while an injected chance plays)."""
    return chance.saved[row] if chance.injected[row] else chance.words[row]


def row_state(chance: ChanceArrays, row: int) -> dict:
    """numpy's ``bit_generator.state`` of row ``row``'s own generator (the scalar env's ``_rng``)."""
    return rng.state_from_words(own_generator(chance, row))


# ---------------------------------------------------------------- kernels
@kernel(inline=True)
def shuffle(chance, i, cards, n, out):
    """``out[:n]`` = ``Chance.shuffle(cards[:n])`` for row i (``ScriptedChance``'s rule while a script lasts)."""
    if chance.shuffles[i, 1] < chance.shuffles[i, 0]:
        _scripted_shuffle(chance, i, cards, n, out)
        return
    for k in range(n):
        out[k] = cards[k]
    rng.shuffle_in_place(chance.words, i, out, n)


@kernel
def _scripted_shuffle(chance, i, cards, n, out):
    """A scripted shuffle puts its cards on top, in order, then the remaining
    cards (in their order in ``cards``) shuffled by the row's generator."""
    s = chance.shuffles[i, 1]
    start = chance.top_end[i, s - 1] if s > 0 else 0
    end = chance.top_end[i, s]
    chance.shuffles[i, 1] = s + 1
    placed = 0
    for t in range(start, end):
        out[placed] = chance.top[i, t]
        placed += 1
    rest = placed
    for k in range(n):
        c = cards[k]
        on_top = False
        for t in range(start, end):
            if chance.top[i, t] == c:
                on_top = True
                break
        if not on_top:
            if rest == n:
                raise ValueError("scripted shuffle: a card put on top is not among the cards being shuffled")
            out[rest] = c
            rest += 1
    if rest != n:
        raise ValueError("scripted shuffle: a card put on top is not among the cards being shuffled")
    rng.shuffle_in_place(chance.words, i, out[placed:], n - placed)


@kernel
def integer(chance, i, n):
    """``Chance.integer(n)`` for row i: a uniform int in ``0..n-1`` (a scripted one while the script lasts)."""
    k = chance.int_count[i, 1]
    if k < chance.int_count[i, 0]:
        chance.int_count[i, 1] = k + 1
        value = chance.ints[i, k]
        if value < 0 or value >= n:
            raise ValueError("scripted integer outside 0..n-1")
        return value
    return rng.integers(chance.words, i, n)


@kernel
def end_game(chance, i):
    """Row i's game is over: an injected chance gives way to the row's own generator."""
    if chance.injected[i]:
        for w in range(chance.words.shape[1]):
            chance.words[i, w] = chance.saved[i, w]
        chance.injected[i] = 0
        chance.shuffles[i, 0] = 0
        chance.shuffles[i, 1] = 0
        chance.int_count[i, 0] = 0
        chance.int_count[i, 1] = 0
