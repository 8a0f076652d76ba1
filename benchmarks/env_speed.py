"""Agent-steps/s of random legal play through every env, beside PettingZoo texas_holdem_v4, RLCard uno and
OpenSpiel oh_hell in the same run:  python benchmarks/env_speed.py [--games perico_v0 ...] [--seconds 3]"""

import sys

from pokerzoo.cli.main import main

if __name__ == "__main__":
    sys.exit(main(["bench", "envs", *sys.argv[1:]]))
