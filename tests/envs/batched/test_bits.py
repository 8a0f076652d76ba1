"""The compiled bit helpers (``envs/batched/bits.py``) against Python's int methods."""

import numpy as np

from pokerzoo.envs.batched.bits import highest_bit, lowest_bit, popcount
from pokerzoo.envs.batched.compile import kernel


@kernel
def _all(masks, out):
    for k in range(masks.shape[0]):
        out[k, 0] = lowest_bit(masks[k])
        out[k, 1] = highest_bit(masks[k])
        out[k, 2] = popcount(masks[k])


def test_bits_match_python_on_single_bits_and_random_masks():
    rng = np.random.default_rng(0)
    masks = [1 << b for b in range(63)] + [int(m) for m in rng.integers(1, 2**62, 500)] + [(1 << 54) - 1, 3 << 51]
    out = np.zeros((len(masks), 3), dtype=np.int64)
    _all(np.array(masks, dtype=np.int64), out)
    expected = [((m & -m).bit_length() - 1, m.bit_length() - 1, m.bit_count()) for m in masks]
    assert [tuple(r) for r in out.tolist()] == expected
