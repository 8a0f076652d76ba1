"""Train a MaskablePPO policy from a YAML config, or resume a killed run exactly where it stopped.

Examples:

    pokerzoo train configs/caribbean_stud/ppo.yaml
    pokerzoo train configs/caribbean_stud/ppo.yaml --timesteps 20000 --out runs/try
    pokerzoo train --resume runs/try            # after a kill: from the newest intact checkpoint
    pokerzoo train configs/perico/ppo.yaml --set ppo.n_steps=256 opponents.self_play=0

The run folder (--out, default runs/train/NAME-TIME) gets config.yaml,
progress.csv and tb/ (TensorBoard), evals.csv, checkpoints/, snapshots/ and
final/ (policy.json + policy.safetensors, report.md, report.json,
learning_curve.png). The final policy plays as ``policy:RUN`` in ``pokerzoo
evaluate`` and ``pokerzoo play``. Config keys are documented in docs/training.md.
"""

from __future__ import annotations

import argparse
import shlex
import time
from pathlib import Path

from pokerzoo.evaluation.tournament import parse_config_pairs
from pokerzoo.training.config import default_run_dir, load_config, rounding_note, trained_steps
from pokerzoo.training.shipping import ship_policy
from pokerzoo.training.train import Trainer


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", nargs="?", help="YAML training config (configs/<game>/*.yaml)")
    parser.add_argument("--resume", metavar="RUN_DIR", help="continue the run in RUN_DIR from its latest checkpoint")
    parser.add_argument(
        "--timesteps", type=int, metavar="N", help="train for N learner steps in all (overrides the config)"
    )
    parser.add_argument("--out", metavar="DIR", help="run folder (default runs/train/NAME-TIME)")
    parser.add_argument(
        "--set",
        nargs="*",
        default=[],
        metavar="KEY=VALUE",
        help="override config keys, dotted, values read as YAML (e.g. ppo.n_steps=256 eval.every=0)",
    )
    parser.add_argument(
        "--ship",
        metavar="RUN_DIR",
        help="copy a finished run's policy into agents/policies/<game>/ (as --name) and stop",
    )
    parser.add_argument("--name", default="ppo", help="the shipped policy's agent name (default ppo)")
    parser.add_argument(
        "--weights",
        choices=("float32", "float16"),
        default="float32",
        help="with --ship: how the weights are stored (float16: half the file; re-evaluate before quoting figures)",
    )
    parser.add_argument("--verbose", action="store_true", help="print SB3's metrics table after every rollout")
    parser.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bar")


def command_line(args: argparse.Namespace) -> str:
    """The command that reproduces this run (written to RUN/commands.txt)."""
    words = ["pokerzoo", "train"]
    if args.config:
        words.append(args.config)
    if args.resume:
        words += ["--resume", args.resume]
    if args.timesteps is not None:
        words += ["--timesteps", str(args.timesteps)]
    if args.out:
        words += ["--out", args.out]
    if args.set:
        words += ["--set", *args.set]
    return " ".join(shlex.quote(w) for w in words)


def run(args: argparse.Namespace) -> int:

    if args.ship:

        path = ship_policy(args.ship, args.name, weights=args.weights)
        print(f"shipped {args.ship} as {path} (agent name {args.name!r}); see {path.parent / 'README.md'}")
        return 0
    if args.timesteps is not None and args.timesteps < 1:
        raise ValueError(f"--timesteps must be a positive integer, got {args.timesteps}")
    progress = None if args.progress else False
    command = command_line(args)
    if args.resume:
        if args.config or args.set or args.out:
            raise ValueError("--resume takes the run's own config.yaml; give only --timesteps with it")
        trainer = Trainer.resume(args.resume, total_timesteps=args.timesteps, verbose=args.verbose, progress=progress)
        for name, why in trainer.skipped_checkpoints:
            print(f"skipped checkpoint {name}: {why}", flush=True)
        print(f"resuming {args.resume} from {trainer._resume_from.name}", flush=True)
        note = rounding_note(trainer.cfg, trainer._checkpoint.step)
    else:
        if not args.config:
            raise ValueError("give a config file (configs/<game>/*.yaml) or --resume RUN_DIR")
        overrides = parse_config_pairs(args.set)
        if args.timesteps is not None:
            overrides["total_timesteps"] = args.timesteps
        cfg = load_config(args.config, overrides)
        out = Path(args.out) if args.out else default_run_dir(cfg)
        trainer = Trainer(cfg, out, verbose=args.verbose, progress=progress)
        print(
            f"training {cfg['name']} on {cfg['game']} for {trained_steps(cfg):,} steps into {out}",
            flush=True,
        )
        note = rounding_note(cfg)
    if note:
        print(note, flush=True)
    Path(trainer.run_dir).mkdir(parents=True, exist_ok=True)
    with open(Path(trainer.run_dir, "commands.txt"), "a") as fh:
        fh.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {command}\n")
    start = time.perf_counter()
    report = trainer.train()
    final = Path(trainer.run_dir) / "final"
    print((final / "report.md").read_text())
    seconds = time.perf_counter() - start
    print(f"done in {seconds:.0f} s; policy: {final / 'policy.json'}; report: {final / 'report.md'}")
    print(f"evaluate it with: pokerzoo evaluate {report['game']} --agents policy:{trainer.run_dir} random")
    return 0
