"""Shipping a run's policy into the package, with its provenance and the folder's README.

A shipped policy is loadable by name (``pokerzoo evaluate GAME --agents ppo``)
and carries, in its document's ``provenance``, the config, the training
command and the evaluation that produced it, so a reader can check or redo
every number in its README. The files are the code-free policy format of
``pokerzoo.agents.policy_file`` (JSON + safetensors).
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from pokerzoo.agents.policy import POLICY_DIR
from pokerzoo.agents.policy_file import WEIGHT_DTYPES, PolicyFile, read_policy, write_policy
from pokerzoo.envs import spec
from pokerzoo.training.final_report import evaluate_command, fmt_estimate, read_lines


def ship_policy(
    run_dir: str | Path,
    name: str = "ppo",
    dest: Path | None = None,
    weights: str = "float32",
    policy: str | Path | None = None,
) -> Path:
    """Copy a finished run's policy into ``agents/policies/<game>/<name>.json`` (+ ``.safetensors``).

    The document's provenance gets the run's config, the training command(s),
    throughput and wall time, and the final evaluation with the ``pokerzoo
    evaluate`` command of each row, rewritten for the shipped name; beside it
    go ``<name>.yaml`` (the run's config, to read or retrain from) and the
    folder's ``README.md`` (regenerated). ``weights="float16"`` stores the
    weights at half size (float16 rounding, about 3 significant digits, can
    flip a near-tied decision, and the final evaluation in the provenance was
    made with the float32 policy: re-evaluate before quoting figures).

    ``policy``: a mean of the run's checkpoints (``pokerzoo policy average``)
    to ship instead of its final policy. Its provenance keeps the checkpoints
    averaged; the run's final evaluation, made with the final policy, is not
    copied (evaluate the shipped file and record it: ``pokerzoo policy record``).
    """

    if weights not in WEIGHT_DTYPES:
        raise ValueError(f"weights={weights!r}: expected one of {', '.join(WEIGHT_DTYPES)}")
    run = Path(run_dir)
    report_path = run / "final" / "report.json"
    if not report_path.is_file():
        raise FileNotFoundError(f"{run} has no final report (final/report.json): finish the run first")
    report = json.loads(report_path.read_text())
    cfg = yaml.safe_load((run / "config.yaml").read_text())
    shipped = read_policy(run / "final" / "policy.json") if policy is None else _average_of(run, policy)
    short = spec(report["game"]).name
    folder = (dest or POLICY_DIR) / short
    folder.mkdir(parents=True, exist_ok=True)
    init = folder / "__init__.py"
    if not init.exists():
        init.write_text(f'"""The trained policies shipped for {short} (see README.md here)."""\n')
    (folder / f"{name}.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    rows = []
    for r in (report["final"] + report["composites"]) if policy is None else []:
        row = dict(r)
        learner = (
            name
            if r["learner"] == "learned"
            else (f"{name}+{r['baseline']}" if r["learner"].startswith("learned bidder") else f"{r['baseline']}+{name}")
        )
        row["learner"] = learner
        row["command"] = evaluate_command(report, row, learner)
        rows.append(row)
    provenance = {
        **shipped.document.get("provenance", {}),
        "name": name,
        "game": report["game"],
        "run": report["run"],
        "config": cfg,
        "training_commands": [c.split(" ", 2)[-1] for c in read_lines(run / "commands.txt")],
        "throughput": report["throughput"],
        "eval_seed": report["eval_seed"],
        "eval_options": report["eval_options"],
        "unit": report["unit"],
        "evaluation": rows,
    }
    document = {k: v for k, v in shipped.document.items() if k not in ("weights", "provenance")}
    path = write_policy(folder / f"{name}.json", {**document, "provenance": provenance}, shipped.tensors, weights)
    write_policies_readme(folder)
    return path


def _average_of(run: Path, policy: str | Path) -> PolicyFile:
    """The policy file ``policy``, checked to be a mean of checkpoints of ``run`` (``pokerzoo policy average``:
    its provenance names each file averaged); a ValueError naming what is not."""
    read = read_policy(policy)
    averaged = read.document.get("provenance", {}).get("averaged")
    if not averaged:
        raise ValueError(f"--policy {policy}: not a mean of checkpoints (pokerzoo policy average writes one)")
    folder = (run / "checkpoints").resolve()
    strangers = [a["path"] for a in averaged if not Path(a["path"]).resolve().is_relative_to(folder)]
    if strangers:
        raise ValueError(f"--policy {policy}: it averages {strangers[0]}, not a checkpoint of {run} ({folder})")
    return read


HALF_NOTE = " (half the file; loading casts them back to float32)"
README_TITLE = "# Shipped policies:"  # how a shipped-policies folder's README begins (write_policies_readme)


def _training_summary(tp: dict, prior: dict | None = None) -> str:
    """One sentence on how the policy was trained, in the words of the trainer that made it (``engine``)."""
    minutes = f"{tp['wall_seconds'] / 60:.0f} min wall time"
    if tp.get("engine") == "batched":
        start = f", starting from `{tp['init_from']}`" if tp.get("init_from") else ", from scratch"
        if prior:
            start += f", a residual policy over `{prior['agent']}`, which it asks first at every decision"
        return (
            f"PPO on the batched engine (self-play league), {tp['timesteps']:,} learner decisions in {minutes}"
            f"{start} ({tp['n_envs']:,} games at once; learner decisions/s end to end "
            f"{tp['learner_steps_per_second']:,.0f} wall, {tp['learner_steps_per_second_cpu']:,.0f} CPU)"
        )
    return (
        f"MaskablePPO, {tp['timesteps']:,} learner steps in {minutes} ({tp['n_envs']} envs, "
        f"{tp['workers'] or 'no'} worker processes; env steps/s while collecting "
        f"{tp['env_steps_per_second_collecting']})"
    )


def _average_summary(averaged: list[dict] | None) -> str:
    """The clause on a policy shipped as a mean of its run's checkpoints (``pokerzoo policy average``)."""
    if not averaged:
        return ""
    steps = ", ".join(f"{a['timesteps']:,}" for a in averaged)
    weights = {round(a["coefficient"], 6) for a in averaged}
    how = "uniform" if len(weights) == 1 else "weighted"
    return (
        f"; shipped as the {how} mean of the weights of its checkpoints at {steps} decisions "
        "(`pokerzoo policy average`), evaluated after shipping (below)"
    )


def _fine_tune_summary(tune: dict | None) -> str:
    """The clause on a fine-tune after training (``pokerzoo.training.exact_ev``), if the policy had one."""
    if not tune:
        return ""
    first, last = tune["held_out_ev_loss"][0], tune["held_out_ev_loss"][-1]
    return (
        f"; then its actor fine-tuned on the exact values of both decisions of {tune['hands']:,} hands "
        f"({tune['enumerated']:,} enumerated, {tune['epochs']} epochs, {tune['wall_seconds'] / 60:.0f} min), "
        f"which took its exact EV loss on {tune['held_out']:,} held-out hands from "
        f"{100 * first['ev_loss_per_ante']:.4f} to {100 * last['ev_loss_per_ante']:.4f} points per 100 antes "
        f"(`{tune['command']}`)"
    )


def write_policies_readme(folder: Path) -> None:
    """``README.md`` of a shipped-policies folder, from every policy document in it (regenerated whole)."""
    lines = [f"{README_TITLE} {folder.name}", ""]
    for meta_path in sorted(folder.glob("*.json")):
        document = json.loads(meta_path.read_text())
        m, dtype = document["provenance"], document["weights"]["dtype"]
        tp = m["throughput"]
        lines += [
            f"## `{m['name']}`",
            "",
            f"Files: `{meta_path.name}` (the document: game, options, architecture, provenance) and "
            f"`{document['weights']['file']}` (the weights); loading them runs no code.",
            "",
            f"{_training_summary(tp, document.get('prior'))}{_fine_tune_summary(m.get('fine_tune'))}"
            f"{_average_summary(m.get('averaged'))}. Config: `{m['name']}.yaml`. "
            f"Weights stored as {dtype}{HALF_NOTE if dtype == 'float16' else ''}. Produced by:",
            "",
            "```",
            *m["training_commands"],
            "```",
            "",
        ]
        if m["evaluation"]:
            lines += [
                f"Evaluation (evaluation harness, duplicate deals, seed {m['eval_seed']}, reward per game, 95% CI):",
                "",
                "| agent | vs | deals | agent's reward | baseline's | paired difference |",
                "|---|---|---|---|---|---|",
            ]
        for r in m["evaluation"]:
            lines.append(
                f"| `{r['learner']}` | `{r['baseline']}` | {r['deals']} | {fmt_estimate(r['learned'])} | "
                f"{fmt_estimate(r['baseline_reward'])} | "
                f"{fmt_estimate(r['difference'], r['difference_low'], r['difference_high'])} |"
            )
        if m["evaluation"]:
            lines += ["", "Commands:", "", "```", *(r["command"] for r in m["evaluation"]), "```", ""]
        for extra in m.get("further_evaluations", []):
            # Evaluations made after shipping (more deals, a fresh seed), recorded in the .json with their commands.
            lines += [f"Further evaluation: {extra['why']}", "", "| vs | deals | paired difference |", "|---|---|---|"]
            for r in extra["rows"]:
                diff = fmt_estimate(r["difference"], r["difference_low"], r["difference_high"])
                lines.append(f"| `{r['baseline']}` | {r['deals']} | {diff} |")
            lines += ["", "```", *dict.fromkeys(r["command"] for r in extra["rows"]), "```", ""]
        lines += _exact_loss_lines(m)
    (folder / "README.md").write_text("\n".join(lines))


def _exact_loss_lines(m: dict) -> list[str]:
    """The exact EV loss section (``provenance.exact_ev_loss``, from ``benchmarks/caribbean_policy_gap.py``), for
    a game whose distance to optimal play is computable; the previous release's restore command with it."""
    loss = m.get("exact_ev_loss")
    if not loss:
        return []
    lines = [
        "Exact EV loss against optimal play (`exact_ev`), per 100 antes, from `benchmarks/caribbean_policy_gap.py` "
        "(every sampled hand scored by the exact EV of its decision, enumerating the dealer's hands; recorded in the "
        "document's `provenance.exact_ev_loss`):",
        "",
        "| policy | hands (seed) | EV loss per 100 antes | 95% CI | hands played differently |",
        "|---|---|---|---|---|",
    ]
    for r in loss["rows"]:
        lines.append(
            f"| `{r['agent']}` | {r['hands']:,} ({r['seed']}) | {100 * r['ev_loss_per_ante']:.4f} | "
            f"±{100 * r['ci95']:.4f} | {r['disagreements']:,} |"
        )
    previous = m.get("previous_policy")
    if previous:
        lines += ["", f"`ppo@{previous['commit']}`: {previous['note']}"]
    return [*lines, "", "```", *loss["commands"], "```", ""]
