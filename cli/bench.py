"""Measure speed: env agent-steps/s (random legal play) and hand evaluations/s, beside reference libraries.

Figures from one run are comparable with each other, not with other machines;
results go to the run folder as Markdown, CSV and JSON.
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from pathlib import Path

from tqdm import tqdm

from pokerzoo.cli.arguments import add_pairs, positive_seconds
from pokerzoo.cli.batched_benchmarks import batched_speed_rows, scripted_agent_rows
from pokerzoo.cli.benchmarks import env_speed_rows, hand_eval_rows, markdown_table
from pokerzoo.envs import ENV_NAMES, canonical, game_class
from pokerzoo.envs.batched import BATCHED_GAMES
from pokerzoo.evaluation.outputs import check_destination
from pokerzoo.evaluation.tournament import parse_config_pairs


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("what", nargs="?", choices=("all", "envs", "hands", "batched"), default="all")
    parser.add_argument("--games", nargs="*", default=list(ENV_NAMES), help="games to measure (default: all)")
    parser.add_argument(
        "--seconds", type=positive_seconds, default=2.0, help="measuring time per row and column"
    )
    parser.add_argument("--no-references", action="store_true", help="skip the reference libraries")
    parser.add_argument(
        "--clock", choices=("wall", "cpu"), default="wall", help="count wall time or this process's CPU time"
    )
    add_pairs(parser, "--config", "options for every game measured")
    parser.add_argument("--out", type=Path, default=None, help="run folder (default runs/bench_<time>)")


def _write(out: Path, name: str, rows: list[dict], table: str) -> None:
    (out / f"{name}.md").write_text(table + "\n")
    (out / f"{name}.json").write_text(json.dumps(rows, indent=2))
    with open(out / f"{name}.csv", "w", newline="") as f:
        fields = list(dict.fromkeys(k for r in rows for k in r))
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)


def run(args: argparse.Namespace) -> int:
    out = args.out or Path("runs") / f"bench_{time.strftime('%Y%m%d_%H%M%S')}"
    check_destination(out, folder=True)
    config = parse_config_pairs(args.config)
    if args.what in ("all", "envs"):
        for name in args.games:  # names and options checked before the first measurement
            game_class(name)(seed=0, **config)
    out.mkdir(parents=True, exist_ok=True)
    if args.what in ("all", "envs"):
        rows = []
        if not args.no_references:
            rows += env_speed_rows([], args.seconds, references=True, clock=args.clock)
        for name in tqdm(args.games, desc="envs", unit="game"):
            rows += env_speed_rows([name], args.seconds, references=False, clock=args.clock, config=config)
        table = markdown_table(rows, ["env", "wrapped", "raw", "game"])
        print(
            "Agent-steps/s, uniformly random legal play, one process\n(wrapped = env(), raw = raw_env(), "
            "game = the bare rules without observations)\n"
        )
        print(table + "\n")
        _write(out, "env_speed", rows, table)
    if args.what in ("all", "hands"):
        rows = hand_eval_rows(seconds=args.seconds / 2, clock=args.clock)
        table = markdown_table(rows)
        print("Hand evaluations/s (one call per hand, or one numpy batch)\n")
        print(table + "\n")
        _write(out, "hand_eval", rows, table)
    if args.what == "batched":
        _bench_batched(args, out)
    print(f"results in {out}")
    return 0


def _bench_batched(args: argparse.Namespace, out: Path) -> None:
    """The batched engine's table (``pokerzoo.cli.batched_benchmarks``), one per batched game asked for."""
    games = [canonical(g) for g in args.games if canonical(g) in BATCHED_GAMES]
    if not games:
        raise SystemExit(f"none of {args.games} is batched yet; batched games: {', '.join(BATCHED_GAMES)}")
    config = parse_config_pairs(args.config)
    for name in games:
        with tqdm(desc=f"batched {name}", unit="measurement") as bar:
            rows = batched_speed_rows(
                name,
                seconds=args.seconds,
                references=not args.no_references,
                options=config,
                progress=lambda _label: bar.update(),
            )
        table = markdown_table(rows, ["engine", "N", "threads", "agent-steps/s", "per CPU second"])
        print(f"Batched {name}: random legal play, observations and masks built every step\n")
        print(table + "\n")
        _write(out, f"batched_{name}", rows, table)
        with tqdm(desc=f"scripted agent {name}", unit="measurement") as bar:
            agent_rows = scripted_agent_rows(
                name, seconds=args.seconds, options=config, progress=lambda _label: bar.update()
            )
        if agent_rows:
            table = markdown_table(agent_rows)
            print(f"Batched {name}: the scripted agent's decisions/s beside the scalar agent's, on the same states\n")
            print(table + "\n")
            _write(out, f"batched_{name}_scripted_agent", agent_rows, table)
