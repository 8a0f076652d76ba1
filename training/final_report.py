"""The evaluation side of a run: periodic and final tournaments, report.md/json and the learning curve.

Every figure goes through the evaluation harness (duplicate deals, paired
differences with 95% intervals), so a training report and a later
``pokerzoo evaluate`` of the same policy give the same numbers.
"""

from __future__ import annotations

import csv
import json
import math
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from pokerzoo.envs import game_class
from pokerzoo.evaluation import report
from pokerzoo.evaluation.history import to_jsonable
from pokerzoo.evaluation.tournament import Tournament, run_tournament
from pokerzoo.training.config import baseline_deals, baseline_spec
from pokerzoo.training.policy_export import policy_document, save_policy
from pokerzoo.training.resume import append_rows


def evaluate_pair(
    cfg: Mapping,
    learned: str,
    baseline: str,
    deals: int,
    *,
    workers: int = 1,
    seed: int | None = None,
    out_dir: Path | None = None,
    progress: bool | None = False,
    label: str = "learned",
    options: Mapping | None = None,
) -> dict:
    """A duplicate-deal tournament ``[learned, baseline]`` through the harness; the paired difference row."""

    e = cfg["eval"]
    t = Tournament(
        game=cfg["game"],
        agents=(learned, baseline),
        deals=deals,
        seed=e["seed"] if seed is None else seed,
        config=dict(e["options"] if options is None else options),
    )
    result = run_tournament(t, workers=workers, progress=progress)
    summary = report.summarize(result)
    if out_dir is not None:
        report.write_all(result, out_dir, summary)
    a = summary["agents"][0]
    unit = summary["unit"]
    per_unit = f"reward_per_{unit}" if unit else None
    row = pair_row(
        summary,
        label=label,
        baseline=baseline,
        deals=deals,
        games=len(result.records),
        learned_per_unit=a.get(per_unit, {}).get("mean") if per_unit else None,
    )
    return {"row": row, "summary": summary}


def pair_row(
    summary: Mapping, *, label: str, baseline: str, deals: int, games: int, learned_per_unit: float | None
) -> dict:
    """One evals.csv / final-report row from a two-agent summary (the scalar report's, or a batched match's
    ``to_dict``: the same agents and paired-difference entries)."""
    a, b = summary["agents"]
    diff = summary["paired_differences"][0]
    return {
        "learner": label,
        "baseline": baseline,
        "deals": deals,
        "games": games,
        "learned": a["reward_per_game"]["mean"],
        "baseline_reward": b["reward_per_game"]["mean"],
        "difference": diff["difference"]["mean"],
        "difference_low": diff["difference"]["low"],
        "difference_high": diff["difference"]["high"],
        "learned_win_rate": a["win_rate"]["mean"],
        "baseline_win_rate": b["win_rate"]["mean"],
        "learned_per_unit": learned_per_unit,
        "seconds": summary["seconds"],
    }


def evaluate_pair_batched(cfg: Mapping, learned: str, baseline: str, deals: int, *, label: str = "learned") -> dict:
    """``evaluate_pair`` on the batched engine (``eval.periodic_engine: batched``): the same deals, seatings and
    row; no per-unit mean (the batched rows count games, not the units inside them)."""
    # Deferred: the batched match loads torch and the game's kernels; scalar-only runs never need it.
    from pokerzoo.evaluation.batched import head_to_head
    from pokerzoo.training.selfplay.league import batched_agent, table_options

    e = cfg["eval"]
    table = table_options(cfg["game"], e["options"], [learned, baseline])
    agents = [(spec, batched_agent(cfg["game"], table, spec)) for spec in (learned, baseline)]
    summary = head_to_head(cfg["game"], agents, deals=deals, seed=e["seed"], config=e["options"], table=table)
    summary = summary.to_dict()
    row = pair_row(
        summary, label=label, baseline=baseline, deals=deals, games=summary["games"], learned_per_unit=None
    )
    return {"row": row, "summary": summary}


def periodic_evaluation(cfg: Mapping, run_dir: Path, model, steps: int) -> list[dict]:
    """The current policy against every ``eval.baselines`` agent; the rows, also appended to ``RUN/evals.csv``.

    Played by the scalar harness, or on the batched engine with ``eval.periodic_engine: batched``.

    ``model`` is a torch policy (or a model holding one) that ``save_policy``
    writes; the policy file is deleted afterwards (the rows keep the numbers;
    snapshots keep the policies worth keeping).
    """
    e = cfg["eval"]
    path = save_policy(model, run_dir / "evals" / f"step_{steps:012d}.json", policy_document(cfg, steps))
    rows = []
    for baseline in e["baselines"]:
        learned, spec, deals = f"policy:{path.resolve()}", baseline_spec(baseline), baseline_deals(baseline, e["deals"])
        if e["periodic_engine"] == "batched":
            result = evaluate_pair_batched(cfg, learned, spec, deals)
        else:
            result = evaluate_pair(cfg, learned, spec, deals, workers=e["workers"])
        rows.append({"timesteps": steps, **result["row"]})
    append_rows(run_dir / "evals.csv", rows)
    path.unlink()
    path.with_suffix(".safetensors").unlink()
    return rows


def _decision_split(summary: dict) -> tuple[int, int]:
    a = summary["agents"][0]
    return a["bidding_decisions"], a["play_decisions"]


def write_final_report(
    cfg: Mapping, run_dir: Path, policy: Path, throughput: Mapping, *, progress: bool | None = None
) -> dict:
    """The final evaluation (every final baseline, composites), learning curve, report.md, report.json."""

    e = cfg["eval"]
    final = run_dir / "final"
    learned = f"policy:{policy.resolve()}"
    baselines = e["final_baselines"] or e["baselines"]
    final_options = e["options"] if e["final_options"] is None else e["final_options"]
    rows, summaries = [], {}
    for b in baselines:
        spec = baseline_spec(b)
        res = evaluate_pair(
            cfg,
            learned,
            spec,
            baseline_deals(b, e["final_deals"]),
            workers=e["final_workers"],
            out_dir=final / f"vs_{_slug(spec)}",
            progress=progress,
            options=final_options,
        )
        rows.append(res["row"])
        summaries[spec] = res["summary"]

    composites = []
    bidding_phases = game_class(cfg["game"]).BIDDING_PHASES
    split = _decision_split(next(iter(summaries.values())))
    want = e["composites"]
    if want == "auto":
        want = bool(bidding_phases) and split[0] > 0 and split[1] > 0
    if want:
        partner = e["composite_baseline"] or baseline_spec(baselines[-1])
        deals = next(
            (baseline_deals(b, e["final_deals"]) for b in baselines if baseline_spec(b) == partner), e["final_deals"]
        )
        for label, spec in (
            ("learned bidder + scripted player", f"{learned}+{partner}"),
            ("scripted bidder + learned player", f"{partner}+{learned}"),
        ):
            res = evaluate_pair(
                cfg,
                spec,
                partner,
                deals,
                workers=e["final_workers"],
                out_dir=final / f"composite_{_slug(label)}",
                progress=progress,
                label=label,
                options=final_options,
            )
            composites.append(res["row"])

    curve = final / "learning_curve.png"
    plot_learning_curve(run_dir, curve)
    report = {
        "run": cfg["name"],
        "game": cfg["game"],
        "policy": str(policy),
        "throughput": dict(throughput),
        "decisions": {"bidding": split[0], "play": split[1]},
        "final": rows,
        "composites": composites,
        "eval_options": to_jsonable(final_options),
        "commands": read_lines(run_dir / "commands.txt"),
        "eval_seed": e["seed"],
        "unit": next(iter(summaries.values()))["unit"],
    }
    (final / "report.json").write_text(json.dumps(report, indent=2, default=str) + "\n")
    (final / "report.md").write_text(final_markdown(cfg, report))
    return report


def read_lines(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.is_file() else []


def evaluate_command(report: Mapping, row: Mapping, learned: str) -> str:
    """The ``pokerzoo evaluate`` command that replays one final tournament."""
    words = ["pokerzoo", "evaluate", report["game"], "--agents", learned, row["baseline"]]
    words += ["--games", str(row["deals"]), "--seed", str(report["eval_seed"])]
    if report["eval_options"]:
        words += ["--config", *(f"{k}={json.dumps(v)}" for k, v in report["eval_options"].items())]
    return " ".join(shlex.quote(w) for w in words)


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in text).strip("_")[:60]


def fmt_estimate(mean: float | None, low: float | None = None, high: float | None = None) -> str:
    if mean is None or (isinstance(mean, float) and math.isnan(mean)):
        return "n/a"
    if low is None or high is None:
        return f"{mean:+.4f}"
    return f"{mean:+.4f} ± {(high - low) / 2:.4f}"


def final_markdown(cfg: Mapping, report: Mapping) -> str:
    tp = report["throughput"]
    rllib = tp.get("backend") == "rllib"
    algorithm = "PPO on Ray RLlib" if rllib else tp.get("algorithm", "MaskablePPO")
    lines = [
        f"# {report['run']}: {algorithm} on {report['game']}",
        "",
        cfg.get("description") or "",
        "",
        *(_batched_lines(tp) if tp.get("engine") == "batched" else _aec_lines(tp)),
        "",
        *(_init_lines(tp.get("init_from"))),
        *(_pretrain_lines(tp.get("pretrain"))),
        f"## Final evaluation (duplicate deals, seed {report['eval_seed']}, reward per game, 95% CI)",
        "",
        "| learned vs | deals | learned | baseline | paired difference | above zero |",
        "|---|---|---|---|---|---|",
    ]
    for r in report["final"]:
        lines.append(
            f"| `{r['baseline']}` | {r['deals']} | {fmt_estimate(r['learned'])} | "
            f"{fmt_estimate(r['baseline_reward'])} | "
            f"{fmt_estimate(r['difference'], r['difference_low'], r['difference_high'])} | {_above_zero(r)} |"
        )
    if report["composites"]:
        lines += [
            "",
            "## Bidding and play separated (composites against the scripted agent)",
            "",
            "| agent | vs | deals | paired difference | above zero |",
            "|---|---|---|---|---|",
        ]
        for r in report["composites"]:
                lines.append(
                f"| {r['learner']} | `{r['baseline']}` | {r['deals']} | "
                f"{fmt_estimate(r['difference'], r['difference_low'], r['difference_high'])} | {_above_zero(r)} |"
            )
    policy_spec = f"policy:{report['policy']}"
    lines += ["", "Reproduce a row with the evaluation harness, e.g.:", "", "```"]
    lines += [evaluate_command(report, r, policy_spec) for r in report["final"]]
    lines += ["```"]
    if report.get("commands"):
        lines += ["", "Training command(s) of this run:", "", "```"]
        lines += [c.split(" ", 2)[-1] for c in report["commands"]]
        lines += ["```"]
    if report["eval_options"]:
        lines += [
            "",
            "Evaluation options: " + ", ".join(f"`{k}={v!r}`" for k, v in report["eval_options"].items()),
        ]
    lines += [
        "",
        f"Learner decisions in the first final tournament: {report['decisions']['bidding']:,} bidding, "
        f"{report['decisions']['play']:,} play.",
        "",
        "![learning curve](learning_curve.png)",
        "",
        "Per-baseline harness reports (report.md, games.csv, means.png) are in the `vs_*` folders.",
    ]
    return "\n".join(lines) + "\n"


def _aec_lines(tp: Mapping) -> list[str]:
    processes = "RLlib env runners" if tp.get("backend") == "rllib" else "worker processes"
    return [
        f"Trained {tp['timesteps']:,} learner steps in {tp['wall_seconds'] / 60:.1f} min wall time "
        f"({tp['n_envs']} envs in {tp['workers'] or 'no'} {processes}); env steps/s while collecting: "
        f"{tp['env_steps_per_second_collecting']}, overall (with updates and evaluations): "
        f"{tp['env_steps_per_second_overall']}; resumed {tp['resumes']} time(s)."
    ]


def _batched_lines(tp: Mapping) -> list[str]:
    net = tp["network"]
    lines = [
        f"Trained {tp['timesteps']:,} learner decisions ({tp['updates']:,} PPO updates, {tp['games']:,} games in "
        f"{tp['n_envs']:,} batched rows) in {tp['wall_seconds'] / 60:.1f} min wall time, "
        f"{tp['cpu_seconds'] / 60:.1f} min CPU time. Learner decisions per second end to end (collection and "
        f"updates): {_rate(tp['learner_steps_per_second'])} of wall time, "
        f"{_rate(tp['learner_steps_per_second_cpu'])} of CPU time; over the whole run with the evaluations: "
        f"{_rate(tp['env_steps_per_second_overall'])}. Network: {_shared(net)}actor {net['pi']}, critic {net['vf']}, "
        f"{net['activation']}; {tp['torch_threads']} torch thread(s); resumed {tp['resumes']} time(s).",
    ]
    if tp.get("league"):
        lines += ["", "League at the end (PFSP: the learner's estimated win rate against each member, and how often "
                  "it is drawn):", "", "| member | games | win rate | weight |", "|---|---|---|---|"]  # fmt: skip
        lines += [f"| `{m['name']}` | {m['games']:,} | {m['win_rate']:.3f} | {m['weight']:.3f} |" for m in tp["league"]]
    return lines


def _shared(net: Mapping) -> str:
    return f"shared {net['shared']}, then " if net.get("shared") else ""


def _rate(x: float | None) -> str:
    return "n/a" if x is None else f"{x:,.0f}"


def _above_zero(row: Mapping) -> str:
    return "yes" if row["difference_low"] is not None and row["difference_low"] > 0 else "no"


def _init_lines(source: str | None) -> list[str]:
    if not source:
        return []
    return [f"Started from the weights of `{source}` (fine-tuning; see `init_from` in the config).", ""]


def _pretrain_lines(p: Mapping | None) -> list[str]:
    if not p:
        return []
    sources = p.get("sources") or [{"teacher": p["teacher"], "recorded": p["samples"], "record": "all"}]
    what = " and ".join(
        f"`{x['teacher']}` on {x['recorded']:,} of its "
        + ("" if x["record"] == "all" else ("bidding " if x["record"] == "bidding" else "play "))
        + "decisions"
        for x in sources
    )
    return [
        f"Kick-started by imitating {what} in the learner's seat ({p['episodes']:,} episodes, "
        f"{p['epochs']} epochs, {p['seconds']:.0f} s): the imitation chose the teacher's action "
        f"{100 * p['agreement']:.1f}% of the time; PPO trained from there.",
        "",
    ]


def plot_learning_curve(run_dir: Path, path: Path) -> None:
    """Paired difference against each baseline over training (95% band), and the training reward."""
    # Deferred: matplotlib takes ~0.8 s to import; only writing the plot needs it.
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    evals = read_csv(run_dir / "evals.csv")
    progress = read_csv(run_dir / "progress.csv")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    ax = axes[0]
    by_baseline: dict[str, list[dict]] = {}
    for r in evals:
        by_baseline.setdefault(r["baseline"], []).append(r)
    for name, rs in by_baseline.items():
        x = np.array([float(r["timesteps"]) for r in rs])
        m = np.array([_float(r["difference"]) for r in rs])
        lo = np.array([_float(r["difference_low"]) for r in rs])
        hi = np.array([_float(r["difference_high"]) for r in rs])
        ax.plot(x, m, marker="o", label=f"vs {name}")
        ax.fill_between(x, lo, hi, alpha=0.2)
    ax.axhline(0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("learner steps")
    ax.set_ylabel("paired difference, reward/game")
    ax.set_title("learned − baseline (95% CI)", fontsize=10)
    if by_baseline:
        ax.legend(fontsize=8)
    ax = axes[1]
    xs = [_float(r.get("time/total_timesteps")) for r in progress]
    ys = [_float(r.get("rollout/ep_rew_mean")) for r in progress]
    pts = [(x, y) for x, y in zip(xs, ys) if not (math.isnan(x) or math.isnan(y))]
    if pts:
        ax.plot(*zip(*pts), lw=1)
    ax.set_xlabel("learner steps")
    ax.set_ylabel("mean episode reward (last 100 episodes)")
    ax.set_title("training reward (against the training opponents)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def read_csv(path: Path) -> list[dict]:
    if not path.is_file():
        return []
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def _float(x: Any) -> float:
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan
