"""How often a shipped policy's float16 copy decides differently from the float32 original.

    python benchmarks/policy_float16_agreement.py POLICY.json GAME [--decisions 20000]
        [--opponents heuristic] [--config KEY=VALUE ...]

``pokerzoo train --ship RUN --weights float16`` halves a policy file by
rounding its weights to float16; that can flip a near-tied decision. This
plays ``--decisions`` of the float32 policy's own decisions (one seat, the
other seats ``--opponents``), then counts the states on which the two
copies' most likely legal actions differ. docs/training.md quotes the counts
for the shipped Mexican poker, Perico and Raspisnoy policies, which were
measured from their float32 run folders (``runs/train/.../final/policy.json``).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np

from pokerzoo.agents.policy import load_policy_net
from pokerzoo.agents.policy_file import read_policy, write_policy
from pokerzoo.cli.arguments import add_pairs
from pokerzoo.evaluation.tournament import parse_config_pairs
from pokerzoo.training.single_seat import SingleSeatEnv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("policy", help="a float32 policy (NAME.json)")
    parser.add_argument("game", help="its game, e.g. perico_v0")
    parser.add_argument("--decisions", type=int, default=20_000)
    parser.add_argument("--opponents", default="heuristic", help="agent spec for the other seats")
    add_pairs(parser, "--config", "game options")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    source = Path(args.policy)
    with tempfile.TemporaryDirectory() as tmp:
        policy = read_policy(source)
        half = write_policy(Path(tmp) / "half.json", policy.document, policy.tensors, "float16")
        env = SingleSeatEnv(args.game, parse_config_pairs(args.config), opponents=args.opponents)
        data = env.teacher_rollout(f"policy:{source}", args.decisions, seed=args.seed)
        picks = []
        for path in (source, half):
            z = load_policy_net(path).logits(data["obs"])
            picks.append(np.where(data["masks"], z, -np.inf).argmax(1))
        choices = int((data["masks"].sum(1) > 1).sum())
        differ = int((picks[0] != picks[1]).sum())
        print(
            f"{args.game}: {len(picks[0]):,} decisions ({choices:,} with a choice), float16 differs on {differ}; "
            f"weights {source.with_suffix('.safetensors').stat().st_size:,} -> "
            f"{half.with_suffix('.safetensors').stat().st_size:,} bytes"
        )


if __name__ == "__main__":
    main()
