"""numpy's PCG64 ``Generator`` re-implemented in numba, one generator per row, draw for draw.

The scalar games draw every random event through ``Chance`` with a
``numpy.random.Generator`` (PCG64): ``shuffle`` is ``rng.permutation(len(cards))``
and ``integer(n)`` is ``rng.integers(n)``. For row i of a batched env to play
exactly the game the scalar env plays from the same seed, the kernels must
make exactly the same draws, so this module reproduces numpy's code paths:

* the bit generator: PCG64's 128-bit LCG (``state = state * MULT + inc``) with
  the XSL-RR output of the new state, and ``next_uint32``'s buffer (one 64-bit
  draw serves two 32-bit draws, low half first; ``has_uint32``/``uinteger``);
* ``Generator.permutation(n)``: ``arange(n)`` shuffled by numpy's Fisher–Yates
  (``i`` from ``n-1`` down to 1, swap with ``random_interval(i)``: the smallest
  all-ones mask above ``i``, 32-bit draws rejected until ``<= i``);
* ``Generator.random(n)`` (doubles ``(next_uint64 >> 11) * 2**-53``), as the
  53-bit integers behind them (``random_bits53``);
* ``Generator.integers(n)`` for an int64 scalar: ``random_bounded_uint64_fill``
  with range ``n - 1``: nothing drawn when it is 0, Lemire's multiply-and-reject
  on 32-bit draws while the range fits 32 bits, on 64-bit draws beyond.

A row's generator is six ``uint64`` words (``WORDS``): state high/low, increment
high/low, ``has_uint32``, ``uinteger``, read from and written back to
``np.random.Generator.bit_generator.state`` by ``words_from_state`` /
``state_from_words``, so a row can be seeded exactly like
``np.random.default_rng(seed)`` and compared with a scalar env's generator.
The tests check every path against numpy itself for many seeds, sizes and
interleavings.

Functions taking ``(words, i)`` read row i's generator, draw, and write it
back; inner loops keep the state in locals. The one-draw helpers are inlined
(``@kernel(inline=True)``): a call between compiled functions is an indirect
call that no optimiser sees through, which cost more than the draw itself.
``load`` / ``store`` hold a generator in a tuple of locals for the length of a
loop, and ``integers_of`` and ``partial_shuffle`` draw from such a tuple.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from pokerzoo.envs.batched.compile import kernel

WORDS = 6  # state_hi, state_lo, inc_hi, inc_lo, has_uint32, uinteger
STATE_HI, STATE_LO, INC_HI, INC_LO, HAS_UINT32, UINTEGER = range(WORDS)

_MULT = 0x2360ED051FC65DA44385DF649FCCF645
_MULT_HI = np.uint64(_MULT >> 64)
_MULT_LO = np.uint64(_MULT & (2**64 - 1))
_M32 = np.uint64(0xFFFFFFFF)
_U0 = np.uint64(0)
_U1 = np.uint64(1)
_U32 = np.uint64(32)
_U58 = np.uint64(58)
_U63 = np.uint64(63)
_U64 = np.uint64(64)
_U64MAX = np.uint64(2**64 - 1)
_U11 = np.uint64(11)


# ---------------------------------------------------------------- Python side: numpy state <-> words
def words_from_state(state: dict) -> np.ndarray:
    """The six words of a PCG64 ``bit_generator.state`` dict."""
    if state.get("bit_generator") != "PCG64":
        raise ValueError(f"only PCG64 generators can be batched, got {state.get('bit_generator')!r}")
    s, inc = int(state["state"]["state"]), int(state["state"]["inc"])
    mask = 2**64 - 1
    return np.array(
        [s >> 64, s & mask, inc >> 64, inc & mask, int(state["has_uint32"]), int(state["uinteger"])],
        dtype=np.uint64,
    )


def state_from_words(words: np.ndarray) -> dict:
    """The ``bit_generator.state`` dict of six words (``Generator(PCG64())`` accepts it back)."""
    w = [int(x) for x in words]
    return {
        "bit_generator": "PCG64",
        "state": {"state": (w[0] << 64) | w[1], "inc": (w[2] << 64) | w[3]},
        "has_uint32": w[4],
        "uinteger": w[5],
    }


def words_from_seed(seed: int | None) -> np.ndarray:
    """The words of ``np.random.default_rng(seed)``."""
    return words_from_state(np.random.default_rng(seed).bit_generator.state)


def generator_from_words(words: np.ndarray) -> np.random.Generator:
    bit_generator = np.random.PCG64()
    bit_generator.state = state_from_words(words)
    return np.random.Generator(bit_generator)


# ---------------------------------------------------------------- the bit generator
@intrinsic
def _mul_high(typingctx, a, b):
    """High word of the 128-bit product of two uint64: one machine multiply (LLVM's i128)."""
    if a != types.uint64 or b != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        wide = ir.IntType(128)
        product = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        return builder.trunc(builder.lshr(product, ir.Constant(wide, 64)), ir.IntType(64))

    return types.uint64(types.uint64, types.uint64), codegen


@kernel(inline=True)
def mul_64x64_128(a, b):
    """(high, low) words of the 128-bit product of two uint64."""
    return _mul_high(a, b), a * b


@kernel(inline=True)
def _mul_add(a_hi, a_lo, m_hi, m_lo, c_hi, c_lo):
    """(a * m + c) mod 2**128 as (high, low) words."""
    p_hi, p_lo = _mul_high(a_lo, m_lo), a_lo * m_lo
    hi = p_hi + a_hi * m_lo + a_lo * m_hi
    lo = p_lo + c_lo
    return hi + c_hi + (_U1 if lo < p_lo else _U0), lo


@kernel(inline=True)
def _output(hi, lo):
    """XSL-RR: the 64-bit output of a 128-bit state."""
    x = hi ^ lo
    rot = hi >> _U58
    return (x >> rot) | (x << ((_U64 - rot) & _U63))


@kernel(inline=True)
def _step(s_hi, s_lo, i_hi, i_lo):
    """One LCG step and the XSL-RR output of the new state: (s_hi, s_lo, uint64 output)."""
    hi, lo = _mul_add(s_hi, s_lo, _MULT_HI, _MULT_LO, i_hi, i_lo)
    return hi, lo, _output(hi, lo)


@kernel(inline=True)
def _next32(s_hi, s_lo, i_hi, i_lo, has, buf):
    """numpy's ``pcg64_next32``: the buffered high half, else a new draw's low half (buffering the high)."""
    if has != _U0:
        return s_hi, s_lo, _U0, buf, buf
    s_hi, s_lo, v = _step(s_hi, s_lo, i_hi, i_lo)
    return s_hi, s_lo, _U1, v >> _U32, v & _M32


@kernel(inline=True)
def next_uint64(words, i):
    s_hi, s_lo, v = _step(words[i, STATE_HI], words[i, STATE_LO], words[i, INC_HI], words[i, INC_LO])
    words[i, STATE_HI] = s_hi
    words[i, STATE_LO] = s_lo
    return v


@kernel(inline=True)
def next_uint32(words, i):
    w = words[i]
    s_hi, s_lo, has, buf, v = _next32(w[STATE_HI], w[STATE_LO], w[INC_HI], w[INC_LO], w[HAS_UINT32], w[UINTEGER])
    words[i, STATE_HI] = s_hi
    words[i, STATE_LO] = s_lo
    words[i, HAS_UINT32] = has
    words[i, UINTEGER] = buf
    return v


# ---------------------------------------------------------------- Generator.permutation / shuffle
@kernel
def _mask_above(m):
    """The smallest all-ones bit mask covering ``m`` (numpy's ``random_interval`` mask)."""
    m = np.uint64(m)
    m |= m >> np.uint64(1)
    m |= m >> np.uint64(2)
    m |= m >> np.uint64(4)
    m |= m >> np.uint64(8)
    m |= m >> np.uint64(16)
    m |= m >> np.uint64(32)
    return m


@kernel
def shuffle_in_place(words, i, values, n):
    """Shuffle ``values[:n]`` exactly as ``Generator.shuffle`` does (so ``values = values[permutation(n)]``).

    For ``n <= 2**32 + 1``, where numpy draws 32 bits per swap (its 64-bit
    branch for larger arrays is left out: no game shuffles more than 69 cards).

    numpy's loop is a draw-until-accepted loop inside the loop over positions;
    here it is one loop over the draws, in which a rejected draw swaps position
    ``k`` with itself and does not move on (the same draws, the same swaps:
    the tests compare with numpy). Its branches are predictable, so on the
    development machine a 40-card shuffle took 114 ns instead of 197.
    """
    s_hi = words[i, STATE_HI]
    s_lo = words[i, STATE_LO]
    i_hi = words[i, INC_HI]
    i_lo = words[i, INC_LO]
    has = words[i, HAS_UINT32]
    buf = words[i, UINTEGER]
    k = n - 1
    mask = _mask_above(np.uint64(max(k, 0)))
    while k > 0:
        s_hi, s_lo, has, buf, v = _next32(s_hi, s_lo, i_hi, i_lo, has, buf)
        j = np.int64(v & mask)
        accepted = j <= k
        if not accepted:
            j = k
        tmp = values[k]
        values[k] = values[j]
        values[j] = tmp
        if accepted:
            k -= 1
            if np.uint64(k) <= (mask >> _U1):  # the mask shrinks as k falls below each power of two
                mask >>= _U1
    words[i, STATE_HI] = s_hi
    words[i, STATE_LO] = s_lo
    words[i, HAS_UINT32] = has
    words[i, UINTEGER] = buf


@kernel
def permutation(words, i, out, n):
    """``out[:n] = Generator.permutation(n)``."""
    for k in range(n):
        out[k] = k
    shuffle_in_place(words, i, out, n)


# ---------------------------------------------------------------- Generator.random
# Four steps of the LCG at once: state_{k+4} = A4 * state_k + inc * S4 (A4 = MULT**4, S4 = MULT**3 + ... + 1).
_A4 = pow(_MULT, 4, 2**128)
_A4_HI = np.uint64(_A4 >> 64)
_A4_LO = np.uint64(_A4 & (2**64 - 1))
_S4 = (_MULT**3 + _MULT**2 + _MULT + 1) % 2**128
_S4_HI = np.uint64(_S4 >> 64)
_S4_LO = np.uint64(_S4 & (2**64 - 1))


@kernel
def random_bits53(words, i, out, n):
    """``out[:n]`` = the 53-bit integers of row i's next ``n`` ``Generator.random()`` doubles.

    numpy's double is ``(next_uint64 >> 11) * 2**-53``, so the integers order the
    doubles exactly and ``out[k] * 2**-53`` is the k-th double. The LCG runs in four
    interleaved lanes (each a jump of four steps), which breaks the chain of
    dependent multiplications that bounds a one-step-at-a-time loop; the row's
    state is left exactly after the ``n``-th draw, as ``random(n)`` leaves it.
    """
    if n <= 0:
        return
    i_hi = words[i, INC_HI]
    i_lo = words[i, INC_LO]
    c4_hi, c4_lo = _mul_add(i_hi, i_lo, _S4_HI, _S4_LO, _U0, _U0)
    h0, l0 = _mul_add(words[i, STATE_HI], words[i, STATE_LO], _MULT_HI, _MULT_LO, i_hi, i_lo)
    h1, l1 = _mul_add(h0, l0, _MULT_HI, _MULT_LO, i_hi, i_lo)
    h2, l2 = _mul_add(h1, l1, _MULT_HI, _MULT_LO, i_hi, i_lo)
    h3, l3 = _mul_add(h2, l2, _MULT_HI, _MULT_LO, i_hi, i_lo)
    k = 0
    while k + 4 <= n:
        out[k] = _output(h0, l0) >> _U11
        out[k + 1] = _output(h1, l1) >> _U11
        out[k + 2] = _output(h2, l2) >> _U11
        out[k + 3] = _output(h3, l3) >> _U11
        k += 4
        if k == n:
            words[i, STATE_HI] = h3
            words[i, STATE_LO] = l3
            return
        h0, l0 = _mul_add(h0, l0, _A4_HI, _A4_LO, c4_hi, c4_lo)
        h1, l1 = _mul_add(h1, l1, _A4_HI, _A4_LO, c4_hi, c4_lo)
        h2, l2 = _mul_add(h2, l2, _A4_HI, _A4_LO, c4_hi, c4_lo)
        h3, l3 = _mul_add(h3, l3, _A4_HI, _A4_LO, c4_hi, c4_lo)
    # one to three draws left: lanes 0.. in order
    out[k] = _output(h0, l0) >> _U11
    last_hi, last_lo = h0, l0
    if k + 1 < n:
        out[k + 1] = _output(h1, l1) >> _U11
        last_hi, last_lo = h1, l1
    if k + 2 < n:
        out[k + 2] = _output(h2, l2) >> _U11
        last_hi, last_lo = h2, l2
    words[i, STATE_HI] = last_hi
    words[i, STATE_LO] = last_lo


@kernel
def skip_uint64(words, i, k):
    """Row i's generator as ``k`` more ``next_uint64`` draws (``Generator.random()`` calls) leave it, in
    O(log k) (the LCG's jump ahead); the buffered 32-bit half is kept (``PCG64.advance`` clears it)."""
    acc_hi, acc_lo = _U0, _U1  # the jump: state -> acc * state + add
    add_hi, add_lo = _U0, _U0
    cur_hi, cur_lo = _MULT_HI, _MULT_LO
    inc_hi, inc_lo = words[i, INC_HI], words[i, INC_LO]
    while k > 0:
        if k & 1:
            acc_hi, acc_lo = _mul_add(acc_hi, acc_lo, cur_hi, cur_lo, _U0, _U0)
            add_hi, add_lo = _mul_add(add_hi, add_lo, cur_hi, cur_lo, inc_hi, inc_lo)
        # (cur, inc) -> (cur**2, (cur + 1) * inc): two steps of the current jump
        plus_lo = cur_lo + _U1
        plus_hi = cur_hi + (_U1 if plus_lo == _U0 else _U0)
        inc_hi, inc_lo = _mul_add(plus_hi, plus_lo, inc_hi, inc_lo, _U0, _U0)
        cur_hi, cur_lo = _mul_add(cur_hi, cur_lo, cur_hi, cur_lo, _U0, _U0)
        k >>= 1
    s_hi, s_lo = _mul_add(words[i, STATE_HI], words[i, STATE_LO], acc_hi, acc_lo, add_hi, add_lo)
    words[i, STATE_HI] = s_hi
    words[i, STATE_LO] = s_lo


# ---------------------------------------------------------------- Generator.integers
@kernel(inline=True)
def integers(words, i, n):
    """``Generator.integers(n)`` (int64, ``0 <= value < n``) for ``n >= 1``."""
    rng = np.uint64(n - 1)
    if rng == _U0:
        return np.int64(0)
    if rng <= _M32:
        if rng == _M32:
            return np.int64(next_uint32(words, i))
        excl = rng + _U1
        m = next_uint32(words, i) * excl
        leftover = m & _M32
        if leftover < excl:
            threshold = (_M32 - rng) % excl
            while leftover < threshold:
                m = next_uint32(words, i) * excl
                leftover = m & _M32
        return np.int64(m >> _U32)
    if rng == _U64MAX:  # unreachable from an int64 bound; kept for numpy's complete path
        return np.int64(next_uint64(words, i))
    excl = rng + _U1
    hi, lo = mul_64x64_128(next_uint64(words, i), excl)
    if lo < excl:
        threshold = (_U64MAX - rng) % excl
        while lo < threshold:
            hi, lo = mul_64x64_128(next_uint64(words, i), excl)
    return np.int64(hi)


# ---------------------------------------------------------------- a generator held in locals
@kernel(inline=True)
def load(words, i):
    """Row i's generator as a tuple of its six words, to draw from in registers (``store`` writes it back)."""
    return (words[i, STATE_HI], words[i, STATE_LO], words[i, INC_HI], words[i, INC_LO],
            words[i, HAS_UINT32], words[i, UINTEGER])  # fmt: skip


@kernel(inline=True)
def store(words, i, s):
    """Write a ``load``ed generator back to row i (the increment never changes)."""
    words[i, STATE_HI] = s[0]
    words[i, STATE_LO] = s[1]
    words[i, HAS_UINT32] = s[4]
    words[i, UINTEGER] = s[5]


@kernel(inline=True)
def integers_of(s, n):
    """``integers`` on a ``load``ed generator, for ``1 <= n < 2**32`` (numpy's 32-bit Lemire path, draw for draw):
    (the advanced tuple, the value). In a loop of draws it keeps the state in registers, which made a
    five-card partial shuffle 12 ns instead of 16 on the development machine (Lemire's batched method, one
    64-bit draw for all five ranges, took 23: its products form one chain of dependent multiplications)."""
    if n == 1:  # a range of one value: numpy draws nothing
        return s, np.int64(0)
    excl = np.uint64(n)
    s_hi, s_lo, has, buf, v = _next32(s[0], s[1], s[2], s[3], s[4], s[5])
    m = v * excl
    leftover = m & _M32
    if leftover < excl:
        threshold = (_M32 - (excl - _U1)) % excl
        while leftover < threshold:
            s_hi, s_lo, has, buf, v = _next32(s_hi, s_lo, s[2], s[3], has, buf)
            m = v * excl
            leftover = m & _M32
    return (s_hi, s_lo, s[2], s[3], has, buf), np.int64(m >> _U32)


@kernel(inline=True)
def partial_shuffle(s, cards, count, lo, hi):
    """Positions ``lo .. hi - 1`` of a partial Fisher–Yates shuffle of ``cards[:count]``, in place, drawn from the
    ``load``ed generator ``s``: position ``a`` swapped with ``a + integers(count - a)``; returns the advanced
    tuple. Whatever order the cards are in, positions ``0 .. hi - 1`` drawn anew are a uniformly random ordered
    sample without replacement, so a Monte Carlo loop needs no fresh copy of its cards per sample."""
    for a in range(lo, hi):
        s, j = integers_of(s, count - a)
        b = a + j
        card = cards[b]
        cards[b] = cards[a]
        cards[a] = card
    return s


@kernel
def integers_from_loaded(words, i, n, count, out):
    """``out[:count]`` = ``count`` draws ``integers_of(..., n)`` of row i's generator (for the tests)."""
    s = load(words, i)
    for k in range(count):
        s, value = integers_of(s, n)
        out[k] = value
    store(words, i, s)


# ---------------------------------------------------------------- random legal actions (benchmarks, opponents)
@kernel
def uniform_legal_actions(words, mask, out):
    """For every row of ``mask``, a uniformly drawn legal action (-1 where none), from the one generator ``words[0]``.

    Row r draws ``integers(count of legal actions)`` and takes that legal
    action in index order: a compiled, vectorised counterpart of
    ``rng.choice(np.flatnonzero(mask[r]))`` for random-play benchmarks and
    random opponents.
    """
    for r in range(mask.shape[0]):
        count = 0
        for a in range(mask.shape[1]):
            count += mask[r, a]
        if count == 0:
            out[r] = -1
            continue
        pick = integers(words, 0, count)
        for a in range(mask.shape[1]):
            if mask[r, a]:
                if pick == 0:
                    out[r] = a
                    break
                pick -= 1
