"""The batched engine's speed: agent-steps/s of random legal play (observations and masks built every step)
for N in 1, 64, 1024, 8192, serial and on all cores, beside the game's AEC env, PettingZoo texas_holdem_v4 and
OpenSpiel oh_hell (Observer API), plus MaskablePPO's collection rate through the SB3 adapter, in one run:

    python benchmarks/batched_speed.py [--games caribbean_stud_v0] [--seconds 2] [--config boxes=2]
    NUMBA_NUM_THREADS=1 python benchmarks/batched_speed.py     # the one-thread figures only

Results go to a run folder (Markdown, CSV, JSON) whose path is printed at the end.
"""

import sys

from pokerzoo.cli.main import main
from pokerzoo.envs.batched import BATCHED_GAMES

if __name__ == "__main__":
    args = sys.argv[1:]
    if "--games" not in args:
        args = ["--games", *BATCHED_GAMES, *args]
    sys.exit(main(["bench", "batched", *args]))
