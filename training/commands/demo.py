"""The main demonstration (``make demo``): a duplicate-deal evaluation of the agents of every game.

For every registered game whose rules and agents are installed, all its
scripted agents (and ``random``) play a duplicate-deal tournament, and the
report table is printed. The number of deals per game is chosen to fit a
time budget (--budget seconds per game, default 30), measured on a few pilot
deals and scaled by the number of workers, so the whole demo stays within a
few minutes on two cores; --games fixes it instead. Reports are written to
``runs/demo/<game>/``.

The pilot runs against a deadline (a third of the budget): when not even
its first deal finishes, the agent that spent the most time per decision is left out
of this game's demo (the demo says so and how to evaluate it separately) and
the pilot is tried again. ``DEMO_OPTIONS`` gives a game the options the demo
plays it with where the default game is too long for a search agent.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from pokerzoo.agents.base import Agent
from pokerzoo.envs import ENV_NAMES
from pokerzoo.training import report
from pokerzoo.training.evaluate import (
    DealRunner,
    Tournament,
    installed_games,
    prepare,
    resolve_workers,
    run_tournament,
)

MIN_DEALS, MAX_DEALS = 4, 20_000
PILOT_SHARE = 1 / 3  # of the budget, at most, for the pilot deals
PILOT_DEALS, PILOT_STEADY_SECONDS = 6, 1.0  # pilot: up to 6 deals, or 1 s of steady play after the first

# Raspisnoy's classic schedule is ~2,500 decisions per game, minutes for the PIMC agent: the demo
# evaluates single deals (an entry of the classic schedule drawn per game) so that PIMC takes part.
DEMO_OPTIONS: dict[str, dict] = {
    "raspisnoy_poker_v0": {"schedule": "single"},
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, metavar="N", help="deals per game (default: fit --budget)")
    parser.add_argument(
        "--budget",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="time per game when --games is not given (default 30)",
    )
    parser.add_argument("--only", nargs="+", metavar="GAME", help="only these games")
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    parser.add_argument("--workers", type=int, default=0, help="worker processes (default 0 = all cores)")
    parser.add_argument("--out", default="runs/demo", metavar="DIR", help="report folder (default runs/demo)")


def demo_agents(game: str) -> list[str] | None:
    """The agents the demo compares on ``game``, or None when the game or its agents are not installed yet."""
    from pokerzoo.agents.registry import agent_names

    return agent_names(game) if game in installed_games() else None


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
    from pokerzoo.training.evaluate import env_name

    names = [env_name(g) for g in args.only] if args.only else list(ENV_NAMES)
    start = time.perf_counter()
    done, skipped = [], []
    workers = resolve_workers(args.workers, 10**9)
    for name in names:
        agents = demo_agents(name)
        if agents is None:
            skipped.append(name)
            continue
        config = DEMO_OPTIONS.get(name, {})
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
        print(f"\n# {name}: {', '.join(agents)}; {deals} deals{note}", flush=True)
        result = run_tournament(t, workers=workers)
        summary = report.summarize(result)
        report.write_all(result, Path(args.out, name), summary)
        print(report.markdown(summary), flush=True)
        done.append(name)
    if skipped:
        print(f"not evaluated (rules or agents not installed yet, or too slow): {', '.join(skipped)}")
    if not done:
        raise ValueError("no game could be evaluated: none of them has its rules and agents installed")
    print(
        f"demo: {len(done)} game(s) evaluated in {time.perf_counter() - start:.0f} s; "
        f"reports in {args.out}/<game>/"
    )
    return 0
