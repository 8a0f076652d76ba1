"""The compiled half of loading scalar games into a batched Perico env (``kernel_state``).

Once ``kernel_state`` has written a row's state arrays (the cards, the
counters, the phase), the row must look as if the kernel had reached its
decision itself: ``finish_loaded_rows`` ranks every seat's hand with the
kernel's own evaluator (``batched_hands.sorted_key``, the rule the kernel
applies whenever a hand changes), then writes the row's observation, mask and
seat to act (``kernel.observe``) and clears its rewards, status and start
rewards. Kept apart from the converter, which is plain Python, so that
changing the converter does not invalidate every compiled kernel's cache.
"""

from __future__ import annotations

from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.batched.core import RUNNING
from pokerzoo.envs.perico.batched_hands import sorted_key
from pokerzoo.envs.perico.kernel import observe


@kernel
def finish_loaded_rows(state, params, rows, out):
    """Row ``rows[k]``: every seat's key from its hand, then its outputs (observation, mask, seat; no rewards)."""
    for k in range(rows.shape[0]):
        i = rows[k]
        for p in range(params.num_players):
            state.keys[i, p] = sorted_key(params, state.hands[i, p], params.hand_size)
        out.rewards[i, :] = 0.0
        out.start_rewards[i, :] = 0.0
        out.status[i] = RUNNING
        out.player[i] = observe(state, params, i, out.obs[i], out.mask[i])
