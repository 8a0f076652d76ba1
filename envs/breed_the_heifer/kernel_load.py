"""The compiled half of loading scalar games into a batched Breed the Heifer env (``kernel_state``).

Once ``kernel_state`` has written a row's state arrays, the row must look as
if the kernel had reached its decision itself: ``finish_loaded_rows`` computes
each seat's best key with the current wild (``kernel._update_keys``, the same
rule the kernel applies at every deal, so the keys are the kernel's own), then
writes the row's observation, mask and seat to act (``kernel.observe``) and
clears its rewards, status and start rewards. Kept apart from the converter,
which is plain Python, so that changing the converter does not invalidate
every compiled kernel's cache.
"""

from __future__ import annotations

from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.batched.core import RUNNING
from pokerzoo.envs.breed_the_heifer.kernel import _update_keys, observe


@kernel
def finish_loaded_rows(state, params, rows, out):
    """Row ``rows[k]``: keys from its cards, then its outputs (observation, mask, seat to act; no rewards)."""
    for k in range(rows.shape[0]):
        i = rows[k]
        _update_keys(state, params, i)
        out.rewards[i, :] = 0.0
        out.start_rewards[i, :] = 0.0
        out.status[i] = RUNNING
        out.player[i] = observe(state, params, i, out.obs[i], out.mask[i])
