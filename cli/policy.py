"""Policy files: convert a trusted Stable-Baselines3 zip into pokerzoo's code-free format, show one, average
the weights of checkpoints of one run, or record an evaluation made after shipping in a policy's document.

Examples:

    pokerzoo policy convert --trust runs/old/final/policy.zip
    pokerzoo policy convert --trust model.zip --game perico --out policies/mine.json
    pokerzoo policy show agents/policies/perico/ppo.json
    pokerzoo policy average runs/train/x/checkpoints/step_*/policy.json --out runs/x_mean/policy.json
    pokerzoo policy average new/ppo.json old/ppo.json --coefficients 0.75 0.25 --out runs/mix/policy.json
    pokerzoo policy record agents/policies/perico/ppo.json runs/evaluate/p1 runs/evaluate/p_pooled --why "fresh deals"
    pokerzoo policy distill breed_the_heifer pimc --decisions 600000 --out runs/pimc_clone/policy.json

A pokerzoo policy is NAME.json (the document: game, options, sizes,
architecture, provenance) and NAME.safetensors (the weights); loading one
runs no code. A Stable-Baselines3 zip holds pickled Python objects, and
loading it runs whatever code they carry: `convert` opens one only with
--trust, which says that you know where the file comes from.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tqdm import tqdm

from pokerzoo.agents.policy_file import WEIGHT_DTYPES, PolicyFileError, read_policy, refuse_to_overwrite
from pokerzoo.cli.arguments import add_pairs, add_progress
from pokerzoo.evaluation.tournament import parse_config_pairs
from pokerzoo.training.distill import TeacherTables, distill_policy
from pokerzoo.training.evaluation_record import record_evaluation
from pokerzoo.training.final_report import fmt_estimate
from pokerzoo.training.policy_average import average_policies
from pokerzoo.training.policy_export import TRUST_NOTE, convert_sb3_zip


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    sub.required = True
    convert = sub.add_parser(
        "convert",
        help="convert a trusted Stable-Baselines3 zip into NAME.json + NAME.safetensors",
        description="Convert a Stable-Baselines3 MaskablePPO zip into a pokerzoo policy. " + TRUST_NOTE,
    )
    convert.add_argument("file", help="the Stable-Baselines3 zip")
    convert.add_argument(
        "--trust",
        action="store_true",
        help="you trust FILE: loading it unpickles Python objects, which can run any code",
    )
    convert.add_argument(
        "--out", metavar="NAME.json", help="the policy document to write (default: FILE's name, .json)"
    )
    convert.add_argument("--game", help="the game, when the zip does not say (zips from other tools)")
    add_pairs(convert, "--options", "the game options, when the zip does not say", absent_is_none=True)
    convert.add_argument("--weights", choices=WEIGHT_DTYPES, default="float32", help="how the weights are stored")
    convert.add_argument("--provenance", metavar="JSON", help="a JSON object merged into the document's provenance")
    convert.add_argument("--force", action="store_true", help="overwrite an existing policy at --out")
    show = sub.add_parser("show", help="check a policy file and print its document (weights summarised)")
    show.add_argument("file", help="NAME.json or NAME.safetensors")
    average = sub.add_parser(
        "average",
        help="the mean of the weights of checkpoints of one run, as one policy",
        description="Write the uniform mean of the weights of two or more policies that are the same network "
        "(checkpoints of one training run): stochastic weight averaging, after the run; or, with --coefficients, "
        "a weighted mean.",
    )
    average.add_argument("files", nargs="+", metavar="FILE", help="the policies (NAME.json), two or more")
    average.add_argument("--out", metavar="NAME.json", required=True, help="the policy document to write")
    average.add_argument("--weights", choices=WEIGHT_DTYPES, help="how the weights are stored (default: as the first)")
    average.add_argument("--force", action="store_true", help="overwrite an existing policy at --out")
    average.add_argument(
        "--coefficients", nargs="+", type=float, metavar="C",
        help="a weighted mean: one coefficient per policy, in order, summing to 1 (two policies: an interpolation "
        "between a policy and the one it was fine-tuned from, WiSE-FT)",
    )  # fmt: skip
    record = sub.add_parser(
        "record",
        help="record an evaluation made after shipping in a policy's document (and its README)",
        description="Append the paired differences in which the policy plays, from report folders that "
        "pokerzoo evaluate or pokerzoo pool wrote, with the command of each, to the document's "
        "provenance.further_evaluations; a shipped-policies folder gets its README regenerated.",
    )
    record.add_argument("file", help="the policy (NAME.json)")
    record.add_argument("runs", nargs="+", metavar="RUN", help="report folders (pokerzoo evaluate or pool --out)")
    record.add_argument("--why", required=True, help="what the evaluation is (fresh seed, more deals, pooled pieces)")
    record.add_argument("--agent", help="the policy's agent name in the reports (default: policy:FILE, or its "
                        "shipped name)")  # fmt: skip
    record.add_argument(
        "--command", action="append", metavar="CMD", dest="commands",
        help="the command of each run, in order, for reports that do not record theirs (older ones)",
    )  # fmt: skip


    distill = sub.add_parser(
        "distill",
        help="a policy fitted to a batched agent's decisions (a fast stand-in for a slow search agent)",
        description="Record a batched agent's decisions at batched tables (its seats drawn per game: the teacher "
        "with probability --teacher-share, else one of --tablemates) and fit a policy network to them (masked "
        "cross-entropy); the result plays at a network's speed wherever policy:PATH is taken.",
    )
    distill.add_argument("game", help="a game with a batched port (pokerzoo list)")
    distill.add_argument("teacher", help="the batched agent to copy, with its arguments: pimc, 'pimc(budget=900)'")
    distill.add_argument("--out", metavar="NAME.json", required=True, help="the policy document to write")
    distill.add_argument("--decisions", type=int, required=True, help="the teacher's decisions to record")
    distill.add_argument("--tablemates", nargs="+", default=[], metavar="AGENT",
                         help="batched agents in the seats the teacher does not take")  # fmt: skip
    distill.add_argument("--teacher-share", type=float, default=1.0,
                         help="the share of the seats the teacher takes, drawn per seat and game (default 1)")
    distill.add_argument("--rows", type=int, default=512, help="tables played at once (default 512)")
    distill.add_argument("--seed", type=int, default=0, help="seeds the deals, the seat draws and the agents")
    add_pairs(distill, "--options", "the game options (the policy's observation follows them)")
    distill.add_argument("--net-arch", nargs="+", type=int, metavar="WIDTH",
                         help="the hidden layers' widths (default: --init-from's, else 128 128)")  # fmt: skip
    distill.add_argument("--activation", choices=["relu", "tanh"], help="default: --init-from's, else relu")
    distill.add_argument("--init-from", metavar="POLICY",
                         help="start from this policy's weights: a policy file or a shipped name (ppo)")  # fmt: skip
    distill.add_argument("--epochs", type=int, default=12, help="passes over the decisions (default 12)")
    distill.add_argument("--learning-rate", type=float, default=1e-3, help="Adam's first step size, falling "
                         "tenfold over the epochs (default 0.001)")  # fmt: skip
    distill.add_argument("--force", action="store_true", help="overwrite an existing policy at --out")
    add_progress(distill)


def run(args: argparse.Namespace) -> int:
    actions = {"convert": _convert, "show": _show, "average": _average, "record": _record, "distill": _distill}
    return actions[args.action](args)


def _distill(args: argparse.Namespace) -> int:
    bars: list[tqdm] = []

    def progress(label: str, total: int):
        if bars:
            bars[-1].close()
        bars.append(tqdm(total=total, desc=label, disable=None if args.progress is None else not args.progress,
                         dynamic_ncols=True))  # fmt: skip
        return bars[-1].update

    try:
        tables = TeacherTables(args.teacher, tuple(args.tablemates), args.teacher_share, args.rows, args.seed,
                               parse_config_pairs(args.options))  # fmt: skip
        written, s = distill_policy(
            args.game, tables, args.out, decisions=args.decisions, net_arch=args.net_arch,
            activation=args.activation, init_from=args.init_from, epochs=args.epochs,
            learning_rate=args.learning_rate, force=args.force, progress=progress,
        )  # fmt: skip
    finally:
        for bar in bars:
            bar.close()
    print(f"recorded {s['decisions']:,} decisions of {s['teacher']} in {s['record_seconds']:.0f} s; the fitted "
          f"policy's most likely action is the teacher's on {s['held_out_agreement']:.1%} of {s['held_out']:,} "
          f"held-out decisions (cross-entropy {s['held_out_cross_entropy']:.3f})")  # fmt: skip
    print(f"wrote {written} and {written.with_suffix('.safetensors')} (the summary: its provenance.distilled)")
    print(f"play it with: --agents policy:{written}")
    return 0


def _record(args: argparse.Namespace) -> int:
    rows = record_evaluation(args.file, args.runs, args.why, agent=args.agent, commands=args.commands)
    for r in rows:
        diff = fmt_estimate(r["difference"], r["difference_low"], r["difference_high"])
        print(f"recorded: {r['baseline']}, {r['deals']} deals, {diff}")
    print(f"in {args.file} (provenance.further_evaluations)")
    return 0


def _average(args: argparse.Namespace) -> int:
    written = average_policies(
        args.files, args.out, dtype=args.weights, force=args.force, coefficients=args.coefficients
    )
    how = "weighted " + ", ".join(f"{c:g}" for c in args.coefficients) if args.coefficients else "uniform"
    print(f"wrote {written} and {written.with_suffix('.safetensors')}: the mean of {len(args.files)} policies ({how})")
    print(f"play it with: --agents policy:{written}")
    return 0


def _convert(args: argparse.Namespace) -> int:
    source = Path(args.file)
    out = Path(args.out) if args.out else source.with_suffix(".json")
    if out.suffix != ".json":
        raise ValueError(f"--out {out}: a policy document is NAME.json (its weights go to NAME.safetensors)")
    if not args.trust:
        raise PolicyFileError(f"refusing to open {source} without --trust. {TRUST_NOTE}")
    refuse_to_overwrite(out, args.force)
    provenance = None
    if args.provenance:
        try:
            provenance = json.loads(Path(args.provenance).read_text())
        except (OSError, ValueError) as exc:
            raise ValueError(f"--provenance {args.provenance}: not a readable JSON file ({exc})") from None
        if not isinstance(provenance, dict):
            raise ValueError(f"--provenance {args.provenance}: expected a JSON object")
    written = convert_sb3_zip(
        source,
        out,
        trust=True,
        game=args.game,
        options=None if args.options is None else parse_config_pairs(args.options),
        dtype=args.weights,
        provenance=provenance,
    )
    print(f"wrote {written} and {written.with_suffix('.safetensors')} (checked against torch's logits)")
    print(f"play it with: --agents policy:{written}")
    return 0


def _show(args: argparse.Namespace) -> int:
    pf = read_policy(args.file)
    doc = pf.document
    print(f"{pf.path}: a pokerzoo policy for {doc['game']} (weights {doc['weights']['dtype']}, checked)")
    prior = doc.get("prior")
    if prior:
        print(f"  plays on top of {prior['agent']!r} ({prior['batched']!r} in batch), its action's logit "
              f"+{prior['weight']:g}: the network reads the observation and that action's one-hot")
    inputs = f"{doc['observation_size']} + {doc['num_actions']}" if prior else str(doc["observation_size"])
    for part, layers in (("actor", pf.actor), ("critic", pf.critic)):
        if layers:
            widths = [inputs, *(pf.tensors[x.weight].shape[0] for x in layers)]
            acts = ", ".join(x.activation for x in layers)
            print(f"  {part}: {' -> '.join(str(w) for w in widths)} ({acts})")
    print(json.dumps(doc, indent=2))
    return 0
