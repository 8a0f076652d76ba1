"""``np.random.default_rng(key)`` for many keys at once: numpy's ``SeedSequence`` and PCG64 seeding, compiled.

The batched scripted agents give every row (Mexican poker: every row and
seat) the generator the scalar agent of that row would have, made from a
small key such as ``[seed, row, seat]``. Made one by one in Python, 4,096 rows
of seven seats cost about a second, and the self-play league reseeds its
members at every rollout (so that a resumed run draws what the killed one
would have). Here the whole table is made in one compiled call.

What numpy does, step by step (``numpy/random/bit_generator.pyx``), and this
module repeats:

* the key's ints become uint32 words, least significant first (``0`` is one
  word ``0``; an int up to 2**64 is one word, or two when above 2**32), the
  words of a sequence's items concatenated;
* ``SeedSequence.mix_entropy`` hashes them into a pool of four uint32 words;
* ``generate_state(4, uint64)`` draws four 64-bit words from the pool;
* ``PCG64`` takes the first two as the initial state and the last two as the
  stream (``pcg_setseq_128_srandom``: increment ``2 * seq + 1``, state 0, one
  step, add the initial state, one step); no 32-bit half is buffered.

The tests check the words against ``default_rng`` itself for many keys.
"""

from __future__ import annotations

import numpy as np

from pokerzoo.envs.batched import rng
from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.batched.rng import _mul_add  # the generator's one LCG step, shared rather than copied

POOL = 4
# numpy's constants; the words are held in uint64 and cut to 32 bits after every product (numba widens
# integer arithmetic to 64 bits, so uint32 wrap-around cannot be relied on)
_INIT_A = np.uint64(0x43B0D7E5)
_MULT_A = np.uint64(0x931E8875)
_INIT_B = np.uint64(0x8B51F9DD)
_MULT_B = np.uint64(0x58F38DED)
_MIX_L = np.uint64(0xCA01F9DD)
_MIX_R = np.uint64(0x4973F715)
_X16 = np.uint64(16)
_MULT_HI = np.uint64(0x2360ED051FC65DA4)
_MULT_LO = np.uint64(0x4385DF649FCCF645)
_U0 = np.uint64(0)
_U1 = np.uint64(1)
_U32 = np.uint64(32)
_M32 = np.uint64(0xFFFFFFFF)
MAX_KEY = 2**64 - 1


@kernel(inline=True)
def _hashmix(value, hash_const):
    """``hashmix``: (the mixed word, the next hash constant)."""
    value ^= hash_const
    hash_const = (hash_const * _MULT_A) & _M32
    value = (value * hash_const) & _M32
    value ^= value >> _X16
    return value, hash_const


@kernel(inline=True)
def _mix(x, y):
    result = (_MIX_L * x - _MIX_R * y) & _M32
    return result ^ (result >> _X16)


@kernel
def _words_of_keys(prefix, keys, out, entropy, pool, state, w):
    """Row k of ``out`` (six generator words, ``rng.WORDS``) := the generator of ``default_rng([*P, *keys[k]])``
    where ``prefix`` holds P's uint32 words; the other arrays are scratch (kernels do not allocate):
    ``P + 2 * L``, ``POOL``, ``2 * POOL`` and ``POOL`` words."""
    n = keys.shape[1]
    for k in range(keys.shape[0]):
        size = 0
        for j in range(prefix.shape[0]):
            entropy[size] = prefix[j]
            size += 1
        for j in range(n):  # _coerce_to_uint32_array: least significant word first, 0 is one word
            value = keys[k, j]
            entropy[size] = value & _M32
            size += 1
            if value >> _U32:
                entropy[size] = value >> _U32
                size += 1
        h = _INIT_A  # mix_entropy
        for i in range(POOL):
            pool[i], h = _hashmix(entropy[i] if i < size else _U0, h)
        for src in range(POOL):
            for dst in range(POOL):
                if src != dst:
                    mixed, h = _hashmix(pool[src], h)
                    pool[dst] = _mix(pool[dst], mixed)
        for src in range(POOL, size):
            for dst in range(POOL):
                mixed, h = _hashmix(entropy[src], h)
                pool[dst] = _mix(pool[dst], mixed)
        h = _INIT_B  # generate_state(4, uint64): eight uint32 words, pairs little-endian
        for i in range(2 * POOL):
            value = pool[i % POOL] ^ h
            h = (h * _MULT_B) & _M32
            value = (value * h) & _M32
            value ^= value >> _X16
            state[i] = value
        for i in range(POOL):
            w[i] = state[2 * i] | (state[2 * i + 1] << _U32)
        inc_hi = (w[2] << _U1) | (w[3] >> np.uint64(63))  # the increment: 2 * stream + 1
        inc_lo = (w[3] << _U1) | _U1
        s_hi, s_lo = _mul_add(_U0, _U0, _MULT_HI, _MULT_LO, inc_hi, inc_lo)
        lo = s_lo + w[1]  # state += initial state, then one step
        hi = s_hi + w[0] + (_U1 if lo < s_lo else _U0)
        s_hi, s_lo = _mul_add(hi, lo, _MULT_HI, _MULT_LO, inc_hi, inc_lo)
        out[k, rng.STATE_HI] = s_hi
        out[k, rng.STATE_LO] = s_lo
        out[k, rng.INC_HI] = inc_hi
        out[k, rng.INC_LO] = inc_lo
        out[k, rng.HAS_UINT32] = _U0
        out[k, rng.UINTEGER] = _U0


def uint32_words(value: int) -> list[int]:
    """numpy's ``_int_to_uint32_array``: a non-negative int's uint32 words, least significant first (0: [0])."""
    if value < 0:
        raise ValueError(f"seed {value}: numpy's SeedSequence takes ints >= 0")
    words = []
    while True:
        words.append(value & 0xFFFFFFFF)
        value >>= 32
        if not value:
            return words


def words_of_keys(keys: np.ndarray, prefix: int | None = None) -> np.ndarray:
    """The generator words (``(K, rng.WORDS)`` uint64) of ``np.random.default_rng([prefix, *keys[k]])`` for
    each row k of ``keys`` (without ``prefix`` when None), a ``(K, L)`` array of ints in ``[0, 2**64)`` (a 1-d
    array: one int per key); ``prefix`` is any int >= 0 (a seed of 128 bits included)."""
    keys = np.asarray(keys)
    if keys.ndim == 1:
        keys = keys[:, None]
    if keys.ndim != 2 or (keys.shape[1] < 1 and prefix is None):
        raise ValueError(f"keys: a (K, L) array of ints with L >= 1, got shape {keys.shape}")
    if keys.dtype.kind not in "iu":
        raise TypeError(f"keys: ints, got dtype {keys.dtype}")
    if keys.size and keys.dtype.kind == "i" and int(keys.min()) < 0:
        raise ValueError(f"keys: ints >= 0 (numpy's SeedSequence refuses negative ones), got {int(keys.min())}")
    head = np.array([] if prefix is None else uint32_words(int(prefix)), dtype=np.uint64)
    out = np.empty((keys.shape[0], rng.WORDS), dtype=np.uint64)
    scratch = [np.zeros(size, dtype=np.uint64) for size in (head.size + 2 * keys.shape[1], POOL, 2 * POOL, POOL)]
    _words_of_keys(head, keys.astype(np.uint64), out, *scratch)
    return out


def row_seat_words(seed: int, rows: int, seats: int) -> np.ndarray:
    """The words of ``default_rng([seed, r, s])`` for every row r and seat s, row-major (``r * seats + s``):
    the per-(row, seat) generators of the batched Mexican and Perico heuristics."""
    grid = np.stack(np.meshgrid(np.arange(rows), np.arange(seats), indexing="ij"), axis=-1).reshape(-1, 2)
    return words_of_keys(grid, prefix=seed)
