"""RLlib's env steps per second by env source (AEC env, batched engine) and env runners, beside MaskablePPO.

    python benchmarks/rllib_sampling.py [--steps 16384] [--runners 1 2] [--n-envs 64] [--address ADDR]

Each row is a short real training run (``RllibTrainer``: sampling with the
masked RLModule, PPO updates, no evaluation) of the same config; the columns
are env steps per second while sampling (``env_steps_per_second_collecting``:
the env runners' own ``sample()`` seconds, averaged over the runners) and
overall (with the updates). The MaskablePPO trainer (SB3, envs in this
process) runs the same config as the reference. Caribbean stud (one box, one
decision per hand) is the game with a batched kernel on main; Perico shows a
multi-seat game with a self-play league (AEC source only). Results go to a
run folder (results.md, results.csv) whose path is printed at the end.
"""

from __future__ import annotations

import argparse
import csv
import os
import tempfile
import time
from pathlib import Path

import ray
from tqdm import tqdm

from pokerzoo.training.config import load_config
from pokerzoo.training.rllib.trainer import RllibTrainer
from pokerzoo.training.train import Trainer

GAMES = {
    "caribbean_stud": ({"num_hands": 1}, {}, ("aec", "batched")),
    "perico": ({}, {"scripted": {"random": 1.0}, "self_play": 1.0, "snapshot_every": 4096}, ("aec",)),
}


def config(game: str, steps: int, n_envs: int, backend: str) -> dict:
    options, opponents, _ = GAMES[game]
    return load_config({
        "game": game, "options": options, "seed": 0, "total_timesteps": steps, "n_envs": n_envs,
        "vec_env": "dummy" if backend == "sb3" else "subproc", "checkpoint_every": 0, "opponents": opponents or {},
        "ppo": {"n_steps": 64, "batch_size": 512, "n_epochs": 1, "net_arch": [64, 64]},
        "eval": {"every": 0, "final_deals": 2, "baselines": ["random"], "final_workers": 1, "composites": False},
    })  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=16384, help="learner steps per run")
    parser.add_argument("--runners", type=int, nargs="+", default=[1, 2], help="env runner counts to measure")
    parser.add_argument("--n-envs", type=int, default=64, help="envs in all (split over the runners)")
    parser.add_argument("--address", default=None, help="a Ray cluster (default: a private local Ray)")
    args = parser.parse_args()
    out = Path("runs", "bench", f"rllib-{time.strftime('%Y%m%d-%H%M%S')}")
    out.mkdir(parents=True, exist_ok=True)
    ray.init(address=args.address, include_dashboard=False, log_to_driver=False, logging_level="ERROR",
             **({} if args.address else {"num_cpus": max(os.cpu_count() or 1, max(args.runners))}))  # fmt: skip
    plan = [(g, "sb3", "-", 0) for g in GAMES]
    plan += [(g, "rllib", src, r) for g, (_, _, sources) in GAMES.items() for src in sources for r in args.runners]
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for game, backend, source, runners in tqdm(plan, desc="rllib sampling benchmark", unit="run"):
            cfg = config(game, args.steps, args.n_envs, backend)
            folder = Path(scratch, f"{game}-{backend}-{source}-{runners}")
            start = time.perf_counter()
            if backend == "sb3":
                report = Trainer(cfg, folder, progress=False).train()
            else:
                report = RllibTrainer(cfg, folder, env_runners=runners, env_source=source, progress=False).train()
            tp = report["throughput"]
            rows.append({
                "game": game, "backend": backend, "env_source": source, "env_runners": runners,
                "n_envs": args.n_envs, "learner_steps": tp["timesteps"],
                "env_steps": tp.get("env_steps", tp["timesteps"]),
                "env_steps_per_s_sampling": tp["env_steps_per_second_collecting"],
                "env_steps_per_s_overall": tp["env_steps_per_second_overall"],
                "run_seconds": round(time.perf_counter() - start, 1),
            })  # fmt: skip
    ray.shutdown()
    with open(out / "results.csv", "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    lines = [
        f"# RLlib sampling: {os.cpu_count()} CPUs, {args.n_envs} envs, {args.steps:,} learner steps per run",
        "",
        "| game | backend | env source | env runners | env steps/s sampling | env steps/s overall | run s |",
        "|---|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {r['game']} | {r['backend']} | {r['env_source']} | {r['env_runners']} | "
        f"{r['env_steps_per_s_sampling']} | {r['env_steps_per_s_overall']} | {r['run_seconds']} |"
        for r in rows
    ]
    (out / "results.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"\nresults: {out / 'results.md'} (also results.csv)")


if __name__ == "__main__":
    main()
