"""The main demonstration (``make demo``): train a policy for a few minutes, then evaluate it with the baselines.

Examples:

    pokerzoo demo                              # what `make demo` runs
    pokerzoo demo --game perico --timesteps 20000
    pokerzoo demo --scripted --budget 10       # no training: every game's agents, 10 s each

Without --scripted the demo:

1. trains ``configs/<game>/demo.yaml`` from scratch (default game: Raspisnoy
   poker, four players, single deals, on the batched engine: under a
   minute on two shared cores) into ``--out/<game>-train-TIME``; the run
   writes its logs, checkpoints, learning curve and report there like a run
   of ``pokerzoo train``, and the demo prints the learning curve (the paired
   difference against each baseline at every periodic evaluation);
2. plays one duplicate-deal tournament through the evaluation harness: the
   policy shipped in ``agents/policies/<game>/`` (``ppo``), the fresh one
   (``policy:RUN``) and the game's scripted baselines on the same deals, with
   the training config's evaluation options, and prints the table with the
   paired differences and their 95% intervals, then the report's path.
   ``--games N`` sets the deals (default 20,000 for one-seat games, 200 otherwise).

``pokerzoo demo --scripted`` instead evaluates the scripted agents (and the
shipped policies) of every installed game, without training: for every game
all its agents play a duplicate-deal tournament and the report table is
printed. The number of deals per game is chosen to fit a time budget
(--budget seconds per game, default 30), measured on a few pilot deals and
scaled by the number of workers; --games fixes it instead, --only picks
games. Reports are written to ``--out/<game>/``.

The pilot runs against a deadline (a third of the budget): when not even
its first deal finishes, the agent that spent the most time per decision is left out
of this game's demo (the demo says so and how to evaluate it separately) and
the pilot is tried again. Where a game's default options make every game too
long for a search agent, the demo plays shorter ones and says so (Raspisnoy
poker: single deals, schedule="single", instead of the whole classic game).
"""

from __future__ import annotations

import argparse
import time
from importlib import resources
from pathlib import Path

import numpy as np

from pokerzoo.agents.base import Agent
from pokerzoo.agents.policy import shipped_policies
from pokerzoo.agents.registry import agent_names
from pokerzoo.cli.arguments import add_progress, positive_seconds
from pokerzoo.envs import ENV_NAMES, canonical, game_class, spec
from pokerzoo.evaluation import report
from pokerzoo.evaluation.tournament import (
    DealRunner,
    Tournament,
    installed_games,
    prepare,
    resolve_workers,
    run_tournament,
)
from pokerzoo.training.config import load_config
from pokerzoo.training.engines import make_trainer
from pokerzoo.training.final_report import fmt_estimate, read_csv

DEFAULT_GAME = "raspisnoy_poker"
CONFIG_DIR = Path(str(resources.files("pokerzoo.configs")))  # configs/ in a checkout, package data when installed
MIN_DEALS, MAX_DEALS = 4, 20_000
PILOT_SHARE = 1 / 3  # of the budget, at most, for the pilot deals
PILOT_DEALS, PILOT_STEADY_SECONDS = 6, 1.0  # pilot: up to 6 deals, or 1 s of steady play after the first

def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--scripted",
        action="store_true",
        help="no training: evaluate the scripted agents and shipped policies of every installed game",
    )
    parser.add_argument(
        "--game", help=f"game to train (configs/<game>/demo.yaml; default {DEFAULT_GAME}, or --config's game)"
    )
    parser.add_argument("--config", metavar="YAML", help="training config (default configs/<game>/demo.yaml)")
    parser.add_argument("--timesteps", type=int, metavar="N", help="learner steps (default: the config's)")
    parser.add_argument(
        "--games",
        type=int,
        metavar="N",
        help="deals of the tournament (training demo: default 20000 for one-seat games, 100 otherwise; "
        "--scripted: per game, default: fit --budget)",
    )
    parser.add_argument(
        "--budget",
        type=positive_seconds,
        default=30.0,
        metavar="SECONDS",
        help="--scripted: time per game when --games is not given (default 30)",
    )
    parser.add_argument("--only", nargs="+", metavar="GAME", help="--scripted: only these games")
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    parser.add_argument("--workers", type=int, default=0, help="worker processes (default 0 = all cores)")
    parser.add_argument("--out", default="runs/demo", metavar="DIR", help="output folder (default runs/demo)")
    add_progress(parser)


def demo_agents(game: str) -> list[str] | None:
    """The agents the demo compares on ``game``, or None when the game or its agents are not installed yet.

    Every scripted agent, ``random``, and the policies shipped for the game.
    """
    if game not in installed_games():
        return None
    return [*shipped_policies(game), *agent_names(game)]


class PilotTimeout(Exception):
    pass


class _Timed(Agent):
    """Times an agent's decisions and stops the pilot at the deadline."""

    def __init__(self, inner: Agent, deadline: float):
        super().__init__()
        self.inner, self.deadline = inner, deadline
        self.name = inner.name
        self.seconds, self.calls = 0.0, 0

    def act(self, view, mask, game=None) -> int:
        start = time.perf_counter()
        action = self.inner.act(view, mask, game)
        now = time.perf_counter()
        self.seconds += now - start
        self.calls += 1
        if now > self.deadline:
            raise PilotTimeout
        return action

    def seed(self, seed) -> None:
        self.inner.seed(seed)


def fit_deals(t: Tournament, budget: float, workers: int) -> tuple[int, float, list[str]]:
    """(deals that fit ``budget`` seconds, seconds per deal, agents left out as too slow).

    The first pilot deal includes one-off costs (tables an agent builds on first
    use, in every worker again); the following pilot deals give the steady
    rate. The one-off cost is taken off the budget before scaling.
    """
    agents = list(t.agents)
    left_out: list[str] = []
    while True:
        trial = Tournament(t.game, tuple(agents), deals=PILOT_DEALS, seed=t.seed, config=t.config)
        _, lineups = prepare(trial)
        runner = DealRunner(trial, lineups)
        start = time.perf_counter()
        deadline = start + budget * PILOT_SHARE
        timed = [_Timed(a, deadline) for a in runner.agents]
        runner.agents = timed
        ends: list[float] = []
        try:
            for deal in range(PILOT_DEALS):
                runner.play_deal(deal)
                ends.append(time.perf_counter())
                if len(ends) >= 2 and ends[-1] - ends[0] > PILOT_STEADY_SECONDS:
                    break
        except PilotTimeout:
            if not ends:  # not even one deal in a third of the budget: leave the slowest agent out
                per_call = [a.seconds / a.calls if a.calls else 0.0 for a in timed]
                if len(agents) == 1:
                    return 0, float("inf"), left_out + agents
                left_out.append(agents.pop(int(np.argmax(per_call))))
                continue
        first = ends[0] - start
        steady = (ends[-1] - ends[0]) / (len(ends) - 1) if len(ends) > 1 else first
        steady = max(steady, 1e-6)
        warmup = max(0.0, first - steady)
        deals = int(max(budget - warmup, budget / 4) * workers * 0.8 / steady)
        return max(MIN_DEALS, min(MAX_DEALS, deals)), steady, left_out


def run(args: argparse.Namespace) -> int:
    return run_scripted(args) if args.scripted else run_training(args)


def run_scripted(args: argparse.Namespace) -> int:
    """The evaluation of every installed game's agents (``--scripted``)."""
    names = [canonical(g) for g in args.only] if args.only else list(ENV_NAMES)
    start = time.perf_counter()
    done, skipped = [], []
    workers = resolve_workers(args.workers, 10**9)
    for name in names:
        agents = demo_agents(name)
        if agents is None:
            skipped.append(name)
            continue
        config = dict(spec(name).demo_options)
        note = ""
        if args.games:
            deals = args.games
        else:
            t = Tournament(game=name, agents=tuple(agents), deals=1, seed=args.seed, config=config)
            deals, per_deal, left_out = fit_deals(t, args.budget, workers)
            if left_out:
                options = " ".join(f"{k}={v}" for k, v in config.items())
                print(
                    f"\n{name}: left out of the demo, too slow for a {args.budget:g} s budget: "
                    f"{', '.join(left_out)} (evaluate with `pokerzoo evaluate {name} --agents "
                    f"{' '.join(left_out)} ...{' --config ' + options if options else ''}`)"
                )
                agents = [a for a in agents if a not in left_out]
            if not agents:
                skipped.append(name)
                continue
            note = f" (fits {args.budget:g} s on {workers} worker(s): a deal takes {per_deal * 1000:.0f} ms)"
        t = Tournament(game=name, agents=tuple(agents), deals=deals, seed=args.seed, config=config)
        played = f" with {', '.join(f'{k}={v!r}' for k, v in config.items())}" if config else ""
        print(f"\n# {name}{played}: {', '.join(agents)}; {deals} deals{note}", flush=True)
        result = run_tournament(t, workers=workers)
        summary = report.summarize(result)
        paths = report.write_all(result, Path(args.out, name), summary)
        print(report.markdown(summary), flush=True)
        print(f"report: {paths['markdown']}", flush=True)
        done.append(name)
    if skipped:
        print(f"not evaluated (rules or agents not installed yet, or too slow): {', '.join(skipped)}")
    if not done:
        raise ValueError("no game could be evaluated: none of them has its rules and agents installed")
    print(f"demo: {len(done)} game(s) evaluated in {time.perf_counter() - start:.0f} s; reports in {args.out}/<game>/")
    return 0


# --------------------------------------------------------------------------- the training demo
def training_baselines(env_name: str) -> list[str]:
    """The scripted agents the training demo compares with: all the game's, but the slow searchers."""
    slow = {"exact_ev", "pimc"}  # per-decision enumeration or search: minutes per thousand deals
    return [a for a in agent_names(env_name) if a not in slow]


def run_training(args: argparse.Namespace) -> int:
    """Train ``configs/<game>/demo.yaml``, then one tournament: shipped policy, fresh policy, baselines."""
    if args.config:
        config = Path(args.config)
    else:
        config = CONFIG_DIR / spec(canonical(args.game or DEFAULT_GAME)).name / "demo.yaml"
    if not config.is_file():
        raise FileNotFoundError(f"no demo config {config}; give one with --config")
    if args.timesteps is not None and args.timesteps < 1:
        raise ValueError(f"--timesteps must be a positive integer, got {args.timesteps}")
    cfg = load_config(config, {} if args.timesteps is None else {"total_timesteps": args.timesteps})
    name = cfg["game"]
    if args.game and canonical(args.game) != name:
        raise ValueError(f"--game {args.game} but the config {config} trains {name}; give one of them")
    short = spec(name).name
    out = Path(args.out, f"{short}-train-{time.strftime('%Y%m%d-%H%M%S')}")
    start = time.perf_counter()
    print(
        f"# 1. training {cfg['name']}: {cfg['total_timesteps']:,} learner decisions of {name} (engine "
        f"{cfg['engine']}) into {out}",
        flush=True,
    )
    trainer = make_trainer(cfg, out, progress=args.progress)
    trainer.train()
    tp = trainer.throughput()
    if tp.get("engine") == "batched":
        speed = (
            f"learner decisions/s end to end (collection and updates) {tp['learner_steps_per_second']:,.0f} of "
            f"wall time, {tp['learner_steps_per_second_cpu']:,.0f} of CPU time"
        )
    else:
        speed = f"env steps/s while collecting {tp['env_steps_per_second_collecting']}"
    print(f"trained {tp['timesteps']:,} decisions in {tp['wall_seconds']:.0f} s; {speed}", flush=True)
    print(learning_curve_text(out), flush=True)
    print(f"learning curve: {out / 'final' / 'learning_curve.png'}; training report: {out / 'final' / 'report.md'}",
          flush=True)  # fmt: skip

    agents = list(shipped_policies(name))
    if not agents:
        print(f"(no policy shipped for {name} in agents/policies/{short}/)")
    agents.append(f"policy:{out}")
    agents += training_baselines(name)
    e = cfg["eval"]
    options = dict(e["options"] if e["final_options"] is None else e["final_options"])
    one_seat = game_class(name)(seed=0, **options).num_players == 1
    deals = args.games or (20_000 if one_seat else 200)
    played = f" with {', '.join(f'{k}={v!r}' for k, v in options.items())}" if options else ""
    print(f"\n# 2. evaluation{played}: {', '.join(agents)}; {deals:,} duplicate deals", flush=True)
    t = Tournament(game=name, agents=tuple(agents), deals=deals, seed=args.seed, config=options)
    result = run_tournament(t, workers=args.workers, progress=args.progress)
    summary = report.summarize(result)
    paths = report.write_all(result, out / "demo_evaluation", summary)
    print(report.markdown(summary), flush=True)
    others = ", ".join(p.name for k, p in paths.items() if k != "markdown")
    print(f"evaluation report: {paths['markdown']} (also {others})")
    hint = (
        f"play against the house yourself: pokerzoo play {short}"
        if one_seat
        else f"play against it: pokerzoo play {short} --opponents policy:{out}"
    )
    print(f"demo done in {time.perf_counter() - start:.0f} s; the fresh policy is policy:{out}; {hint}")
    print(f"report: {paths['markdown']} (training: {out / 'final' / 'report.md'})")
    return 0


def learning_curve_text(run: Path) -> str:
    """The run's periodic evaluations as a table: the paired difference against each baseline over training."""
    rows = read_csv(run / "evals.csv")
    if not rows:
        return "(no periodic evaluation in this run: eval.every is 0)"
    baselines = list(dict.fromkeys(r["baseline"] for r in rows))
    lines = ["learning curve (paired difference per game against each baseline, 95% interval, duplicate deals):",
             "", "| learner decisions | " + " | ".join(f"vs {b}" for b in baselines) + " |",
             "|---|" + "---|" * len(baselines)]  # fmt: skip
    by_step: dict[int, dict[str, dict]] = {}
    for r in rows:
        by_step.setdefault(int(r["timesteps"]), {})[r["baseline"]] = r
    for step, found in sorted(by_step.items()):
        cells = [
            fmt_estimate(float(r["difference"]), float(r["difference_low"]), float(r["difference_high"]))
            if (r := found.get(b)) else ""
            for b in baselines
        ]
        lines.append(f"| {step:,} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
