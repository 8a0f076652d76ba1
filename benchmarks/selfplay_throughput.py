"""End-to-end throughput of the batched self-play trainer: learner decisions per second, collection and PPO
updates together, per batched game, in wall time and in CPU time, for each torch thread count asked for.

    python benchmarks/selfplay_throughput.py                         # every batched game of the project
    python benchmarks/selfplay_throughput.py --games raspisnoy_poker --threads 1 2 --updates 8
    python benchmarks/selfplay_throughput.py --set n_envs=8192 ppo.n_epochs=4
    python benchmarks/selfplay_throughput.py --configs configs/breed_the_heifer/selfplay_privileged.yaml

Each game runs its training config (``configs/<game>/selfplay.yaml``, else its
``demo.yaml`` where that trains on the batched engine, else the defaults), or
the configs named by ``--configs``, with ``--set`` overrides, through ``SelfPlay.iterate`` (exactly what ``pokerzoo
train`` runs between its evaluations and checkpoints): one warm-up iteration
(kernels loaded or compiled, first rollout), then ``--updates`` timed ones.
Wall time is what a user waits; CPU time (``time.process_time``, all threads
of the process) is what the work costs, the figure to read on a shared,
loaded machine (the load average is printed beside each row). Results go to
a run folder (Markdown and JSON) whose path is printed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numba
import torch
from tqdm import tqdm

from pokerzoo.cli.arguments import add_pairs
from pokerzoo.envs.batched import BATCHED_GAMES
from pokerzoo.envs.registry import spec
from pokerzoo.evaluation.tournament import parse_config_pairs
from pokerzoo.training.config import load_config
from pokerzoo.training.selfplay.loop import SelfPlay
from pokerzoo.training.selfplay.network import split_arch

ROOT = Path(__file__).resolve().parents[1]


def config_for(game: str, overrides: dict) -> tuple[dict, str]:
    """The game's batched training config with ``overrides``, and where it came from."""
    folder = ROOT / "configs" / spec(game).name
    for name in ("selfplay.yaml", "demo.yaml"):
        path = folder / name
        if path.is_file():
            cfg = load_config(path, overrides)
            if cfg["engine"] == "batched":
                return cfg, str(path.relative_to(ROOT))
    return load_config({"game": game}, overrides), "defaults"


def measure(cfg: dict, threads: int, updates: int, bar: tqdm) -> dict:
    torch.set_num_threads(threads)
    loop = SelfPlay({**cfg, "total_timesteps": 10**12})
    loop.start()
    loop.iterate()  # warm-up: kernels, first rollout, allocations
    bar.update(1)
    totals = dict.fromkeys(("collect", "update", "collect_cpu", "update_cpu", "decisions"), 0.0)
    for _ in range(updates):
        f = loop.iterate()
        totals["collect"] += f["time/collect_seconds"]
        totals["update"] += f["time/update_seconds"]
        totals["collect_cpu"] += f["time/collect_cpu_seconds"]
        totals["update_cpu"] += f["time/update_cpu_seconds"]
        totals["decisions"] += f["rollout/decisions"]
        bar.update(1)
    d = totals["decisions"]
    shared, pi, vf = split_arch(cfg["ppo"]["net_arch"])
    return {
        "game": cfg["game"],
        "threads": threads,
        "kernel_threads": numba.get_num_threads() if loop.env.parallel else 1,
        "n_envs": cfg["n_envs"],
        "n_steps": cfg["ppo"]["n_steps"],
        "n_epochs": cfg["ppo"]["n_epochs"],
        "batch_size": cfg["ppo"]["batch_size"],
        "network": {"shared": shared, "pi": pi, "vf": vf, "activation": cfg["ppo"]["activation"]},
        "privileged_critic": cfg["critic"]["net_arch"] if cfg["critic"]["privileged"] else None,
        "observation_size": loop.env.observation_size,
        "players": loop.env.num_players,
        "league": [m["name"] for m in loop.league.table()] if loop.env.num_players > 1 else [],
        "self_play": cfg["league"]["self_play"] if loop.env.num_players > 1 else 1.0,
        "decisions": int(d),
        "wall_per_s": d / (totals["collect"] + totals["update"]),
        "cpu_per_s": d / (totals["collect_cpu"] + totals["update_cpu"]),
        "collect_cpu_per_s": d / totals["collect_cpu"],
        "update_cpu_per_s": d / totals["update_cpu"],
        "load_average": os.getloadavg()[0],
    }


def markdown(rows: list[dict]) -> str:
    lines = [
        "| game | network | rows x steps, epochs, minibatch | threads (torch, kernels) | decisions/s wall | "
        "decisions/s CPU | "
        "collection / update (CPU, decisions/s) | load avg |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        n = r["network"]
        net = (f"shared {n['shared']} + " if n["shared"] else "") + f"pi {n['pi']} vf {n['vf']} {n['activation']}"
        if r["privileged_critic"]:
            net += f", privileged critic {r['privileged_critic']}"
        lines.append(
            f"| {r['game']} | {net} | {r['n_envs']:,} x {r['n_steps']}, {r['n_epochs']}, {r['batch_size']:,} | "
            f"{r['threads']}, {r['kernel_threads']} | {r['wall_per_s']:,.0f} | {r['cpu_per_s']:,.0f} | "
            f"{r['collect_cpu_per_s']:,.0f} / {r['update_cpu_per_s']:,.0f} | {r['load_average']:.1f} |"
        )
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", help="batched games (default: every one but the examples)")
    parser.add_argument("--configs", nargs="+", help="batched training configs to run instead of the games' own")
    parser.add_argument("--threads", nargs="+", type=int, default=[1], help="torch thread counts (default 1)")
    parser.add_argument("--updates", type=int, default=6, help="timed iterations per measurement (default 6)")
    add_pairs(parser, "--set", "config overrides")
    parser.add_argument("--out", default=None, help="run folder (default runs/bench/selfplay-TIME)")
    args = parser.parse_args()
    games = args.games or [g for g in BATCHED_GAMES if not spec(g).example]
    overrides = parse_config_pairs(args.set)
    if args.configs:
        chosen = [(load_config(Path(c), overrides), c) for c in args.configs]
    else:
        chosen = [config_for(g, overrides) for g in games]
    plans = [(c, t) for c in chosen for t in args.threads]
    rows = []
    with tqdm(total=len(plans) * (args.updates + 1), desc="self-play throughput", unit="update") as bar:
        for (cfg, source), threads in plans:
            bar.set_postfix_str(f"{cfg['game']}, {threads} thread(s)")
            rows.append({**measure(cfg, threads, args.updates, bar), "config": source})
    out = Path(args.out or f"runs/bench/selfplay-{time.strftime('%Y%m%d-%H%M%S')}")
    out.mkdir(parents=True, exist_ok=True)
    table = markdown(rows)
    (out / "throughput.md").write_text(table)
    (out / "throughput.json").write_text(json.dumps(rows, indent=2) + "\n")
    print(table)
    print(f"results: {out / 'throughput.md'} (and throughput.json)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
