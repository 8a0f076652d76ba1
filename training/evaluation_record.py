"""Recording an evaluation made after shipping in a policy's document.

A shipped policy's README quotes the figures of its ``provenance``: the final
evaluation of the run that trained it, then ``further_evaluations``, each a
reason and rows of paired differences with the command that produced them.
Matches played later (more deals, fresh seeds, pieces pooled by ``pokerzoo
pool``) belong there too, so that every number quoted comes with its command.
``record_evaluation`` copies the rows from the reports those commands wrote
(``report.json``, which records its command line) instead of by hand, checks
them all before it writes, and regenerates the folder's README.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from pokerzoo.agents.policy import resolve_policy_path, shipped_policies
from pokerzoo.agents.policy_file import document_path, read_policy, rewrite_document
from pokerzoo.envs.registry import canonical
from pokerzoo.training.shipping import README_TITLE, write_policies_readme


def record_evaluation(
    policy: str | Path,
    runs: Sequence[str | Path],
    why: str,
    *,
    agent: str | None = None,
    commands: Sequence[str] | None = None,
) -> list[dict]:
    """Append ``{"why": why, "rows": [...]}`` to the policy's ``provenance.further_evaluations``; the rows.

    Each run is a folder ``pokerzoo evaluate`` or ``pokerzoo pool`` wrote; its
    rows are the paired differences in which the policy plays, as the policy
    minus the other agent. The policy is the agent ``agent``, by default a
    ``policy:`` spec of this file or, for a shipped policy, its name
    (``ppo``). ``commands``: one per run, for reports written before reports
    recorded their command line. Everything is checked before the document is
    rewritten (its weights file untouched); a folder with a shipped-policies README
    gets it regenerated.
    """
    path = document_path(Path(policy))
    found = read_policy(path)
    if not why.strip():
        raise ValueError("--why is empty: say what the evaluation adds (fresh seed, more deals, pooled pieces)")
    if not runs:
        raise ValueError("no run folders given: name the report folders of the evaluation (pokerzoo evaluate --out)")
    if commands is not None and len(commands) != len(runs):
        raise ValueError(f"--command given {len(commands)} times for {len(runs)} run folders: one per run, in order")
    rows = []
    for i, run in enumerate(runs):
        report = _read_report(Path(run))
        if canonical(report["game"]) != canonical(found.document["game"]):
            raise ValueError(f"{run}: a {report['game']} report, but {path} plays {found.document['game']}")
        command = commands[i] if commands is not None else report.get("command")
        if not command:
            raise ValueError(f"{run}: its report does not record the command that wrote it (an older report); "
                             "give each run's command with --command, in the order of the runs")  # fmt: skip
        rows += _rows(report, path, agent, command, run)
    provenance = dict(found.document.get("provenance", {}))
    provenance["further_evaluations"] = [*provenance.get("further_evaluations", []), {"why": why, "rows": rows}]
    rewrite_document(path, {**found.document, "provenance": provenance})
    readme = path.parent / "README.md"
    if readme.is_file() and readme.read_text().startswith(README_TITLE):
        write_policies_readme(path.parent)
    return rows


def _read_report(run: Path) -> dict:
    """A run folder's ``report.json``, refused by name when it is not a tournament report."""
    try:
        report = json.loads((run / "report.json").read_text())
    except FileNotFoundError:
        raise ValueError(f"{run}: no report.json; name a folder pokerzoo evaluate or pokerzoo pool wrote") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{run}: report.json is not valid JSON ({exc})") from None
    if not isinstance(report, dict) or "paired_differences" not in report or "game" not in report:
        raise ValueError(f"{run}: report.json has no paired differences: not a tournament report")
    return report


def _plays(name: str, path: Path, game: str, agent: str | None) -> bool:
    """Whether the report's agent ``name`` is the policy at ``path``: ``agent`` when given, else the shipped
    policy's name where the file is the game's shipped policy of that name, or a ``policy:`` spec of the file."""
    if agent is not None:
        return name == agent
    shipped = shipped_policies(game).get(name)
    if shipped is not None:
        return shipped.resolve() == path.resolve()
    if not name.startswith("policy:"):
        return False
    try:
        return resolve_policy_path(name.removeprefix("policy:")).resolve() == path.resolve()
    except (OSError, ValueError):  # a file since moved or removed: not this one
        return False


def _rows(report: dict, path: Path, agent: str | None, command: str, run: str | Path) -> list[dict]:
    """The report's paired differences in which the policy plays, as policy minus the other agent."""
    rows = []
    for pair in report["paired_differences"]:
        d = pair["difference"]
        if _plays(pair["a"], path, report["game"], agent):
            other, mean, low, high = pair["b"], d["mean"], d["low"], d["high"]
        elif _plays(pair["b"], path, report["game"], agent):
            other, mean, low, high = pair["a"], -d["mean"], -d["high"], -d["low"]
        else:
            continue
        rows.append({"baseline": other, "deals": pair["deals"], "difference": mean, "difference_low": low,
                     "difference_high": high, "command": command})  # fmt: skip
    if not rows:
        agents = sorted({a for pair in report["paired_differences"] for a in (pair["a"], pair["b"])})
        wanted = agent if agent is not None else f"policy:{path}, or its shipped name"
        raise ValueError(f"{run}: the policy ({wanted}) plays in none of its paired differences; the agents there: "
                         f"{', '.join(agents) or 'none'} (name the policy's agent with --agent)")  # fmt: skip
    return rows
