"""Raspisnoy's ``pimc`` before and after it became an instance of the generic PIMC: the same decisions.

The agent as it was (``agents/raspisnoy_poker.py`` at commit ``ab260db``, read
from git) and the agent now are given the same generator at every decision of
``--deals`` single deals (4 players; the heuristic plays the moves in between,
and every other decision is searched) and must choose the same action. Equal
decisions from equal generators mean equal play, so the two have the same
strength by construction; the script also reports their CPU time.

    .venv/bin/python benchmarks/raspisnoy_pimc_equivalence.py [--deals 30] [--commit ab260db]
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

from pokerzoo.agents.raspisnoy_poker import HeuristicAgent, PimcAgent
from pokerzoo.envs.raspisnoy_poker.game import RaspisnoyPokerGame


def load_old(commit: str):
    """The agents module at ``commit``, imported under another name."""
    root = Path(__file__).resolve().parent.parent
    source = subprocess.run(
        ["git", "show", f"{commit}:agents/raspisnoy_poker.py"], cwd=root, check=True, capture_output=True, text=True
    ).stdout
    path = Path(tempfile.mkdtemp()) / "raspisnoy_agents_old.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("raspisnoy_agents_old", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["raspisnoy_agents_old"] = module
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--commit", default="ab260db", help="the commit holding the pimc as it was")
    args = parser.parse_args()
    old_module = load_old(args.commit)
    heuristic = HeuristicAgent()
    same = total = 0
    cpu = {"before": 0.0, "now": 0.0}
    for deal in tqdm(range(args.deals), desc="deals"):
        g = RaspisnoyPokerGame(seed=deal, num_players=4, schedule="single")
        before, now = old_module.PimcAgent(), PimcAgent()
        while not g.is_over:
            view, mask = g.view(g.current_player), g.legal_mask()
            if np.count_nonzero(mask) > 1 and (deal + len(g.history)) % 2 == 0:
                actions = {}
                for label, agent in (("before", before), ("now", now)):
                    agent.rng = np.random.default_rng(deal * 1_000 + len(g.history))
                    start = time.process_time()
                    actions[label] = agent.act(view, mask, g)
                    cpu[label] += time.process_time() - start
                total += 1
                same += actions["before"] == actions["now"]
                g.apply(actions["before"])
            else:
                g.apply(heuristic.act(view, mask, g))
    print(f"{same}/{total} identical decisions over {args.deals} deals")
    print(f"CPU: before {cpu['before']:.1f} s, now {cpu['now']:.1f} s")


if __name__ == "__main__":
    main()
