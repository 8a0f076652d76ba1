"""Policy files: play-only saves with their provenance, and shipping a run's policy into the package.

A shipped policy is loadable by name (``pokerzoo evaluate GAME --agents ppo``)
and carries the config, the training command and the evaluation that
produced it, so a reader can check or redo every number in its README.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import zipfile
from collections.abc import Mapping
from pathlib import Path

import torch
import yaml

from pokerzoo.agents.policy import POLICY_DIR
from pokerzoo.envs import game_class, spec
from pokerzoo.evaluation.history import to_jsonable
from pokerzoo.training.final_report import evaluate_command, fmt_estimate, read_lines


def policy_meta(cfg: Mapping, steps: int, extra: Mapping | None = None) -> dict:

    game = game_class(cfg["game"])(seed=0, **cfg["options"])
    return {
        "format": 1,
        "game": cfg["game"],
        "config": to_jsonable(cfg["options"]),
        "observation_size": int(game.observation_size),
        "num_actions": int(game.num_actions),
        "timesteps": int(steps),
        "run": cfg["name"],
        **dict(extra or {}),
    }


def save_policy(model, path: Path, meta: Mapping) -> Path:
    """Save a play-only copy of ``model`` (no optimiser state, no rollout data); MaskablePPO.load reads it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    optimizer = model.policy.optimizer
    model.policy.optimizer = type(optimizer)(model.policy.parameters(), **optimizer.defaults)
    had_meta = hasattr(model, "pokerzoo")
    old_meta = getattr(model, "pokerzoo", None)
    model.pokerzoo = dict(meta)
    tmp = path.with_name(path.name + ".tmp.zip")
    try:
        model.save(
            str(tmp),
            exclude=[
                "ep_info_buffer",
                "ep_success_buffer",
                "_last_obs",
                "_last_episode_starts",
                "_last_original_obs",
                "pokerzoo_run",
            ],
        )
        os.replace(tmp, path)
    finally:
        model.policy.optimizer = optimizer
        if had_meta:
            model.pokerzoo = old_meta
        else:
            del model.pokerzoo
    return path


WEIGHT_DTYPES = ("float32", "float16")


def halve_weights(path: str | Path) -> Path:
    """Rewrite a policy zip in place with its network weights stored as float16.

    Half the bytes, for policies shipped inside the package. ``MaskablePPO.load``
    copies them into the float32 network (``load_state_dict`` casts), so the
    file stays an ordinary SB3 zip; the cost is float16's rounding (about 3
    significant digits), which can flip a near-tied decision, so a halved
    policy is re-evaluated before its figures are quoted.
    """

    path = Path(path)
    with zipfile.ZipFile(path) as z:
        members = [(info, z.read(info.filename)) for info in z.infolist()]
    tmp = path.with_name(path.name + ".tmp")
    with zipfile.ZipFile(tmp, "w") as out:
        for info, data in members:
            if info.filename == "policy.pth":
                state = torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
                state = {k: v.half() if v.is_floating_point() else v for k, v in state.items()}
                buffer = io.BytesIO()
                torch.save(state, buffer)
                data = buffer.getvalue()
            out.writestr(info, data)
    os.replace(tmp, path)
    return path


def resolve_policy_file(source: str | Path) -> Path:
    """The policy zip that ``source`` names: a .zip, a checkpoint folder, or a run folder (final, else latest)."""
    path = Path(source)
    candidates = [path] if path.suffix == ".zip" else [path / "model.zip", path / "final" / "policy.zip"]
    pointer = path / "checkpoints" / "latest"
    if path.suffix != ".zip" and pointer.is_file():
        candidates.append(path / "checkpoints" / pointer.read_text().strip() / "model.zip")
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(
        f"init_from {str(source)!r}: no policy there (looked for {', '.join(str(c) for c in candidates)})"
    )


def ship_policy(
    run_dir: str | Path, name: str = "ppo", dest: Path | None = None, weights: str = "float32"
) -> Path:
    """Copy a finished run's policy into ``agents/policies/<game>/<name>.zip`` with its provenance.

    Beside the zip: ``<name>.yaml`` (the run's config), ``<name>.json`` (the
    training command(s), throughput and wall time, and the final evaluation
    with the ``pokerzoo evaluate`` command of each row, rewritten for the
    shipped name) and the folder's ``README.md`` (regenerated).
    ``weights="float16"`` stores the weights at half size (``halve_weights``);
    the final evaluation in the json was then made with the float32 policy.
    """

    if weights not in WEIGHT_DTYPES:
        raise ValueError(f"weights={weights!r}: expected one of {', '.join(WEIGHT_DTYPES)}")
    run = Path(run_dir)
    report_path = run / "final" / "report.json"
    if not report_path.is_file():
        raise FileNotFoundError(f"{run} has no final report (final/report.json): finish the run first")
    report = json.loads(report_path.read_text())
    cfg = yaml.safe_load((run / "config.yaml").read_text())
    short = spec(report["game"]).name
    folder = (dest or POLICY_DIR) / short
    folder.mkdir(parents=True, exist_ok=True)
    init = folder / "__init__.py"
    if not init.exists():
        init.write_text(f'"""The trained policies shipped for {short} (see README.md here)."""\n')
    shutil.copyfile(run / "final" / "policy.zip", folder / f"{name}.zip")
    if weights == "float16":
        halve_weights(folder / f"{name}.zip")
    (folder / f"{name}.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    rows = []
    for r in report["final"] + report["composites"]:
        row = dict(r)
        learner = (
            name
            if r["learner"] == "learned"
            else (f"{name}+{r['baseline']}" if r["learner"].startswith("learned bidder") else f"{r['baseline']}+{name}")
        )
        row["learner"] = learner
        row["command"] = evaluate_command(report, row, learner)
        rows.append(row)
    meta = {
        "name": name,
        "game": report["game"],
        "run": report["run"],
        "training_commands": [c.split(" ", 2)[-1] for c in read_lines(run / "commands.txt")],
        "throughput": report["throughput"],
        "eval_seed": report["eval_seed"],
        "eval_options": report["eval_options"],
        "unit": report["unit"],
        "weights": weights,
        "evaluation": rows,
    }
    (folder / f"{name}.json").write_text(json.dumps(meta, indent=2) + "\n")
    _write_policies_readme(folder)
    return folder / f"{name}.zip"


HALF_NOTE = " (half the file; loading casts them back to float32)"


def _write_policies_readme(folder: Path) -> None:
    lines = [f"# Shipped policies: {folder.name}", ""]
    for meta_path in sorted(folder.glob("*.json")):
        m = json.loads(meta_path.read_text())
        tp = m["throughput"]
        lines += [
            f"## `{m['name']}`",
            "",
            f"MaskablePPO, {tp['timesteps']:,} learner steps in {tp['wall_seconds'] / 60:.0f} min wall time "
            f"({tp['n_envs']} envs, {tp['workers'] or 'no'} worker processes; env steps/s while collecting "
            f"{tp['env_steps_per_second_collecting']}). Config: `{m['name']}.yaml`. Weights stored as "
            f"{m.get('weights', 'float32')}{HALF_NOTE if m.get('weights') == 'float16' else ''}. Produced by:",
            "",
            "```",
            *m["training_commands"],
            "```",
            "",
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
        lines += ["", "Commands:", "", "```", *(r["command"] for r in m["evaluation"]), "```", ""]
        for extra in m.get("further_evaluations", []):
            # Evaluations made after shipping (more deals, a fresh seed), recorded in the .json with their commands.
            lines += [f"Further evaluation: {extra['why']}", "", "| vs | deals | paired difference |", "|---|---|---|"]
            for r in extra["rows"]:
                diff = fmt_estimate(r["difference"], r["difference_low"], r["difference_high"])
                lines.append(f"| `{r['baseline']}` | {r['deals']} | {diff} |")
            lines += ["", "```", *(r["command"] for r in extra["rows"]), "```", ""]
    (folder / "README.md").write_text("\n".join(lines))
