"""`make bench`: every speed table (envs beside texas_holdem_v4 / RLCard uno / OpenSpiel oh_hell, hand evaluators
beside treys / eval7 / phevaluator / pokerkit). Same as `pokerzoo bench all`."""

import sys

from pokerzoo.cli.main import main

if __name__ == "__main__":
    sys.exit(main(["bench", "all", *sys.argv[1:]]))
