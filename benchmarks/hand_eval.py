"""Hand evaluations/s, 5 and 7 cards, per call and in batch, beside treys, eval7, phevaluator and pokerkit:
python benchmarks/hand_eval.py [--seconds 3]"""

import sys

from pokerzoo.cli.main import main

if __name__ == "__main__":
    sys.exit(main(["bench", "hands", *sys.argv[1:]]))
