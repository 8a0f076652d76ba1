"""Train a policy from a YAML config, or resume a killed run exactly where it stopped.

Examples:

    pokerzoo train configs/caribbean_stud/ppo.yaml
    pokerzoo train configs/caribbean_stud/ppo.yaml --timesteps 20000 --out runs/try
    pokerzoo train --resume runs/try            # after a kill: from the newest intact checkpoint
    pokerzoo train configs/perico/ppo.yaml --set ppo.n_steps=256 opponents.self_play=0
    pokerzoo train configs/caribbean_stud/demo.yaml --set n_envs=8192 league.self_play=1
    pokerzoo train configs/perico/ppo.yaml --backend rllib --env-runners 4        # RLlib's PPO, a private local Ray
    pokerzoo train configs/perico/ppo.yaml --backend rllib --address 10.0.0.5:6379 --env-runners 64   # a cluster

Games with a batched kernel train on the batched engine by default (engine:
batched: PPO over thousands of games at once, the learner in any number of
seats against a self-play league); engine: aec (the default for the others)
is MaskablePPO over the PettingZoo env.

The run folder (--out, default runs/train/NAME-TIME) gets config.yaml,
progress.csv and tb/ (TensorBoard), evals.csv, checkpoints/, snapshots/ and
final/ (policy.json + policy.safetensors, report.md, report.json,
learning_curve.png). The final policy plays as ``policy:RUN`` in ``pokerzoo
evaluate`` and ``pokerzoo play``. Config keys are documented in docs/training.md;
``--backend rllib`` (the 'ray' extra) trains with RLlib's PPO from the same config
and writes the same folder (docs/distributed.md: what it maps and refuses).
"""

from __future__ import annotations

import argparse
import shlex
import time
from pathlib import Path

from pokerzoo.cli.arguments import add_pairs, add_progress
from pokerzoo.evaluation.tournament import parse_config_pairs
from pokerzoo.training.config import default_run_dir, load_config, rounding_note, trained_steps
from pokerzoo.training.engines import make_trainer, resume_trainer
from pokerzoo.training.shipping import ship_policy

BACKENDS = ("sb3", "rllib")
ENV_SOURCES = ("aec", "batched")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", nargs="?", help="YAML training config (configs/<game>/*.yaml)")
    parser.add_argument("--resume", metavar="RUN_DIR", help="continue the run in RUN_DIR from its latest checkpoint")
    parser.add_argument(
        "--timesteps", type=int, metavar="N", help="train for N learner steps in all (overrides the config)"
    )
    parser.add_argument("--out", metavar="DIR", help="run folder (default runs/train/NAME-TIME)")
    add_pairs(parser, "--set", "override config keys, dotted, values read as YAML (e.g. ppo.n_steps=256 eval.every=0)")
    parser.add_argument(
        "--ship",
        metavar="RUN_DIR",
        help="copy a finished run's policy into agents/policies/<game>/ (as --name) and stop",
    )
    parser.add_argument("--name", default="ppo", help="the shipped policy's agent name (default ppo)")
    parser.add_argument(
        "--policy",
        metavar="FILE",
        help="with --ship: ship this mean of the run's checkpoints (pokerzoo policy average) instead of its final "
        "policy (the run's final evaluation is then not copied: record the shipped file's with pokerzoo policy record)",
    )
    parser.add_argument(
        "--weights",
        choices=("float32", "float16"),
        default="float32",
        help="with --ship: how the weights are stored (float16: half the file; re-evaluate before quoting figures)",
    )
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default=None,
        help="sb3: MaskablePPO in local processes (default); rllib: RLlib's PPO on Ray (pip install 'pokerzoo[ray]')",
    )
    parser.add_argument(
        "--address",
        metavar="ADDR",
        help="with --backend rllib: a running Ray cluster (HOST:PORT, or auto); default: a private local Ray",
    )
    parser.add_argument(
        "--env-runners",
        type=int,
        metavar="N",
        help="with --backend rllib: Ray actors that sample (default 0: the driver samples; n_envs is split over them)",
    )
    parser.add_argument(
        "--env-source",
        choices=ENV_SOURCES,
        default=None,
        help="with --backend rllib: aec (the game's AEC env, any league; default) or batched (the batched engine)",
    )
    parser.add_argument("--verbose", action="store_true", help="print SB3's metrics table after every rollout")
    add_progress(parser)


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
    for flag, value in (("--backend", args.backend), ("--address", args.address),
                        ("--env-runners", args.env_runners), ("--env-source", args.env_source)):  # fmt: skip
        if value is not None:
            words += [flag, str(value)]
    return " ".join(shlex.quote(w) for w in words)


def run(args: argparse.Namespace) -> int:
    if args.policy and not args.ship:
        raise ValueError(f"--policy {args.policy} is for --ship RUN_DIR (the run whose checkpoints it averages)")
    if args.ship:

        path = ship_policy(args.ship, args.name, weights=args.weights, policy=args.policy)
        print(f"shipped {args.ship} as {path} (agent name {args.name!r}); see {path.parent / 'README.md'}")
        return 0
    if args.timesteps is not None and args.timesteps < 1:
        raise ValueError(f"--timesteps must be a positive integer, got {args.timesteps}")
    progress = args.progress
    command = command_line(args)
    rllib = _rllib_backend(args)
    if args.resume:
        if args.config or args.set or args.out:
            raise ValueError("--resume takes the run's own config.yaml; give only --timesteps with it")
        if rllib:
            trainer = _rllib_trainer().resume(
                args.resume, total_timesteps=args.timesteps, env_runners=args.env_runners, address=args.address,
                verbose=args.verbose, progress=progress,
            )  # fmt: skip
            resumed_from = trainer._checkpoint.path.name
        else:
            trainer = resume_trainer(
                args.resume, total_timesteps=args.timesteps, verbose=args.verbose, progress=progress
            )
            resumed_from = trainer._resume_from.name
        for name, why in trainer.skipped_checkpoints:
            print(f"skipped checkpoint {name}: {why}", flush=True)
        print(f"resuming {args.resume} from {resumed_from}", flush=True)
        note = None if rllib else rounding_note(trainer.cfg, trainer._checkpoint.step)
    else:
        if not args.config:
            raise ValueError("give a config file (configs/<game>/*.yaml) or --resume RUN_DIR")
        overrides = parse_config_pairs(args.set)
        if args.timesteps is not None:
            overrides["total_timesteps"] = args.timesteps
        cfg = load_config(args.config, overrides)
        out = Path(args.out) if args.out else default_run_dir(cfg)
        if rllib:
            trainer = _rllib_trainer()(
                cfg, out, env_runners=args.env_runners or 0, address=args.address,
                env_source=args.env_source or "aec", verbose=args.verbose, progress=progress,
            )  # fmt: skip
            steps = f"{cfg['total_timesteps']:,}"
            where = f" on Ray ({args.address or 'a private local Ray'}, {args.env_runners or 0} env runners)"
        else:
            trainer = make_trainer(cfg, out, verbose=args.verbose, progress=progress)
            steps, where = f"{trained_steps(cfg):,}", f" (engine {cfg['engine']})"
        print(f"training {cfg['name']} on {cfg['game']}{where} for {steps} steps into {out}", flush=True)
        note = None if rllib else rounding_note(cfg)
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


def _rllib_backend(args: argparse.Namespace) -> bool:
    """Whether this run is RLlib's: ``--backend rllib``, or a resumed run folder that RLlib trained."""
    resumed_rllib = bool(args.resume) and Path(args.resume, "rllib.json").is_file()
    if args.backend == "sb3" and resumed_rllib:
        raise ValueError(f"{args.resume} was trained with --backend rllib; resume it with that backend")
    if args.backend == "rllib" and args.resume and not resumed_rllib and Path(args.resume, "config.yaml").is_file():
        raise ValueError(f"{args.resume} was trained with the sb3 backend (MaskablePPO); resume it without --backend")
    rllib = args.backend == "rllib" or resumed_rllib
    if not rllib:
        for flag, value in (("--address", args.address), ("--env-runners", args.env_runners),
                            ("--env-source", args.env_source)):  # fmt: skip
            if value is not None:
                raise ValueError(f"{flag} goes with --backend rllib")
    if args.env_runners is not None and not 0 <= args.env_runners <= 1024:
        raise ValueError(f"--env-runners must be in 0..1024, got {args.env_runners}")
    return rllib


def _rllib_trainer():
    """The RLlib trainer class, or a clear error where the 'ray' extra is missing."""
    try:
        # Deferred: Ray is the optional 'ray' extra and takes seconds to import.
        from pokerzoo.training.rllib.trainer import RllibTrainer
    except ModuleNotFoundError as exc:
        raise ValueError(
            f"--backend rllib needs Ray's RLlib ({exc.name} is missing): pip install 'pokerzoo[ray]' "
            "(after torch==2.13.0, as the Makefile does)"
        ) from None
    return RllibTrainer
