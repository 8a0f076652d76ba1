"""Caribbean stud's exact-EV fine-tune: a policy's raise/fold decisions fitted to the exact values of both.

    .venv/bin/python -m pokerzoo.training.exact_ev --init agents/policies/caribbean_stud/ppo.json \\
        --hands 2000000 --epochs 8 --out runs/train/caribbean_exact

Why it exists: PPO learns from played returns, a box's +-3 antes and a royal
flush's 201, and the mistakes left in a policy PPO has polished are
Ace-King-high hands whose two decisions differ by hundredths of an ante,
far below that noise (50M batched PPO decisions took the shipped policy from
0.030 to 0.020 points per 100 antes lost to ``exact_ev``). In a game of one
decision the value of each action is exactly computable (``raise_ev``
enumerates the dealer's 163,185 hands), so the policy's objective needs no
sampled returns at all: the expected loss of a deterministic policy against
optimal play is the mean over hands of ``|EV(raise) - EV(fold)|`` where it
picks the worse action. Its smooth surrogate, minimised here, is the
cross-entropy to the better action weighted by that gap (cost-sensitive
classification: a hand whose decision hardly matters hardly counts).

Which hands are enumerated: Ace-King high (no pair, straight or flush), where
the optimal decision depends on the dealer's up card and the kickers. Every
other hand takes the optimal rule's label (raise a pair or better, fold below
Ace-King; ``benchmarks/caribbean_policy_gap.py`` checks it on every hand it
enumerates) with the fixed weight ``far_weight``: those hands are far from
the boundary, and the weight only keeps them where they are.

Only the actor changes; the critic is stored as it was (nothing here fits a
value). The held-out hands (seed + 1) score each epoch by the measure that
matters, the exact EV loss per ante; the run folder gets ``epochs.csv``,
``report.json``/``report.md`` and ``final/policy.json`` (+ safetensors), whose
provenance keeps the parent's and adds ``fine_tune``; ``--ship NAME`` then
writes it into ``agents/policies/caribbean_stud/`` after the evaluation
harness has played it against the baselines (``--eval-hands``).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import shlex
import sys
import time
from pathlib import Path

import numpy as np
import torch
from tqdm import tqdm

from pokerzoo.agents.caribbean_stud import PAIR_KEY, raise_ev, single_box_view
from pokerzoo.agents.policy import POLICY_DIR
from pokerzoo.agents.policy_file import read_policy, write_policy
from pokerzoo.envs.caribbean_stud import simulate
from pokerzoo.envs.caribbean_stud.game import FOLD, RAISE, CaribbeanStudGame
from pokerzoo.envs.caribbean_stud.payouts import SYSTEM
from pokerzoo.envs.engine.hands import standard
from pokerzoo.training.final_report import evaluate_command, evaluate_pair
from pokerzoo.training.shipping import write_policies_readme

GAME = "caribbean_stud_v0"
FOLD_EV = -1.0  # folding loses the ante (one box, ante 1)
ACTIVATIONS = {"relu": torch.nn.ReLU, "tanh": torch.nn.Tanh, "leaky_relu": torch.nn.LeakyReLU, "elu": torch.nn.ELU,
               "identity": torch.nn.Identity}  # fmt: skip  # the policy format's names, torch's defaults
EVAL_BASELINES = (("random", 20_000), ("always_raise", 1), ("raise_pair_plus", 1), ("rules_of_thumb", 1),
                  ("exact_ev", 1))  # fmt: skip  # (agent, deals: 1 means --eval-hands)
Z95 = 1.959963984540054


def exact_targets(hands: int, seed: int, progress: bool = True) -> dict[str, np.ndarray]:
    """``hands`` random one-box hands (seed ``seed``): observations, the better action, the weight of a mistake.

    ``gap`` is ``|EV(raise) - EV(fold)|`` per ante where enumerated (Ace-King high), NaN elsewhere."""
    rng = np.random.default_rng(seed)
    box_cards, dealer = simulate.split(simulate.deal_batch(rng, hands))
    boxes, ups = box_cards[:, 0], dealer[:, 4]
    keys = standard.keys_batch(boxes)
    pair_plus = keys >= PAIR_KEY
    ace_king = (keys >= SYSTEM.ACE_KING_MIN) & ~pair_plus
    label = np.where(pair_plus, RAISE, FOLD).astype(np.int64)
    gap = np.full(hands, np.nan)
    for i in tqdm(np.flatnonzero(ace_king), desc=f"exact EVs (seed {seed})", unit="hand", disable=not progress):
        ev = raise_ev(boxes[i].tolist(), int(ups[i]))[0]
        label[i] = RAISE if ev > FOLD_EV else FOLD
        gap[i] = abs(ev - FOLD_EV)
    game = CaribbeanStudGame(seed=0, num_hands=1)
    obs = np.empty((hands, game.observation_size), dtype=np.float32)
    for i in tqdm(range(hands), desc="observations", unit="hand", disable=not progress, mininterval=1):
        obs[i] = game.encode(single_box_view(boxes[i].tolist(), int(ups[i])))
    return {"obs": obs, "label": label, "gap": gap, "enumerated": ace_king}


def actor_module(policy) -> torch.nn.Sequential:
    """The policy file's actor as a torch MLP (its stored weights, [out, in] as torch keeps them)."""
    layers: list[torch.nn.Module] = []
    for layer in policy.actor:
        w = torch.tensor(np.asarray(policy.tensors[layer.weight], dtype=np.float32))
        linear = torch.nn.Linear(w.shape[1], w.shape[0])
        with torch.no_grad():
            linear.weight.copy_(w)
            linear.bias.copy_(torch.tensor(np.asarray(policy.tensors[layer.bias], dtype=np.float32)))
        layers += [linear, ACTIVATIONS[layer.activation]()]
    return torch.nn.Sequential(*layers)


def ev_loss(net: torch.nn.Module, data: dict[str, np.ndarray]) -> dict:
    """The exact EV loss per ante of the net's deterministic decisions on ``data``, with its 95% half-width;
    ``off_rule``: hands outside Ace-King high decided against the optimal rule (their loss is not enumerated)."""
    with torch.no_grad():
        chosen = net(torch.from_numpy(data["obs"])).argmax(1).numpy()
    wrong = chosen != data["label"]
    loss = np.where(wrong & data["enumerated"], data["gap"], 0.0)
    n = loss.size
    return {"ev_loss_per_ante": float(loss.mean()), "ci95": Z95 * float(loss.std(ddof=1)) / math.sqrt(n),
            "disagreements": int((wrong & data["enumerated"]).sum()),
            "off_rule": int((wrong & ~data["enumerated"]).sum())}  # fmt: skip


def fine_tune(net, train, held_out, epochs, lr, far_weight, batch_size, seed, on_epoch) -> list[dict]:
    """Adam on the gap-weighted cross-entropy (module docstring); ``on_epoch(row)`` after each epoch."""
    torch.manual_seed(seed)
    obs = torch.from_numpy(train["obs"])
    label = torch.from_numpy(train["label"])
    weight = torch.from_numpy(np.where(train["enumerated"], train["gap"], far_weight).astype(np.float32))
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    rows = [{"epoch": 0, **ev_loss(net, held_out)}]
    on_epoch(rows[-1])
    for epoch in range(1, epochs + 1):
        order = torch.randperm(label.shape[0])
        for start in range(0, label.shape[0], batch_size):
            j = order[start:start + batch_size]
            per_hand = torch.nn.functional.cross_entropy(net(obs[j]), label[j], reduction="none")
            loss = (per_hand * weight[j]).sum() / weight[j].sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
        rows.append({"epoch": epoch, **ev_loss(net, held_out)})
        on_epoch(rows[-1])
    return rows


def write_tuned(policy, net: torch.nn.Sequential, path: Path, provenance: dict, dtype: str = "float32") -> Path:
    """The parent policy with the tuned actor's weights (critic as it was) and ``provenance``."""
    tensors = dict(policy.tensors)
    linears = [m for m in net if isinstance(m, torch.nn.Linear)]
    for layer, linear in zip(policy.actor, linears, strict=True):
        tensors[layer.weight] = linear.weight.detach().numpy().astype(np.float32)
        tensors[layer.bias] = linear.bias.detach().numpy().astype(np.float32)
    document = {k: v for k, v in policy.document.items() if k not in ("weights", "provenance")}
    return write_policy(path, {**document, "provenance": provenance}, tensors, dtype)


def evaluate(policy_path: Path, eval_hands: int, seed: int) -> list[dict]:
    """The evaluation harness's paired rows of the tuned policy against the Caribbean baselines."""
    cfg = {"game": GAME, "eval": {"seed": seed, "options": {"num_hands": 1}}}
    rows = []
    for baseline, deals in tqdm(EVAL_BASELINES, desc="evaluation", unit="baseline"):
        row = evaluate_pair(cfg, f"policy:{policy_path}", baseline, eval_hands if deals == 1 else deals)["row"]
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--init", required=True, help="the Caribbean stud policy to fine-tune (policy.json)")
    parser.add_argument("--hands", type=int, default=2_000_000, help="training hands (default 2,000,000)")
    parser.add_argument("--held-out", type=int, default=500_000, help="held-out hands scored each epoch")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--far-weight", type=float, default=0.1, help="weight of hands outside Ace-King high")
    parser.add_argument("--batch-size", type=int, default=4096)
    parser.add_argument("--seed", type=int, default=7, help="training hands' seed; the held-out ones use seed + 1")
    parser.add_argument("--eval-hands", type=int, default=100_000, help="with --ship: deals per baseline")
    parser.add_argument("--eval-seed", type=int, default=20260000)
    parser.add_argument("--out", type=Path, default=None, help="run folder (default runs/train/caribbean_exact-TIME)")
    parser.add_argument("--ship", metavar="NAME", help="write the result into agents/policies/caribbean_stud/NAME")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    for name in ("hands", "held_out", "epochs", "batch_size"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be >= 1, got {getattr(args, name)}")
    if not (math.isfinite(args.lr) and args.lr > 0) or not (math.isfinite(args.far_weight) and args.far_weight >= 0):
        parser.error(f"--lr must be > 0 and --far-weight >= 0, got {args.lr} and {args.far_weight}")
    policy = read_policy(args.init)
    if policy.document["game"] != GAME or policy.document.get("options", {}).get("num_hands", 1) != 1:
        parser.error(f"--init {args.init}: a one-hand {GAME} policy is needed, got {policy.document['game']}")
    out = args.out or Path("runs/train") / f"caribbean_exact-{time.strftime('%Y%m%d-%H%M%S')}"
    out.mkdir(parents=True, exist_ok=True)
    print(f"fine-tuning {args.init} on the exact EVs of {args.hands:,} hands ({args.epochs} epochs) into {out}")
    torch.set_num_threads(1)
    start = time.perf_counter()
    progress = not args.no_progress
    train = exact_targets(args.hands, args.seed, progress)
    held_out = exact_targets(args.held_out, args.seed + 1, progress)
    net = actor_module(policy)
    bar = tqdm(total=args.epochs + 1, desc="fine-tune", unit="epoch", disable=not progress)

    def on_epoch(row):
        bar.update(1)
        bar.set_postfix_str(f"EV loss {100 * row['ev_loss_per_ante']:.4f} pp")

    rows = fine_tune(net, train, held_out, args.epochs, args.lr, args.far_weight, args.batch_size, args.seed, on_epoch)
    bar.close()
    with (out / "epochs.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    command = "python -m pokerzoo.training.exact_ev " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    parent = policy.document.get("provenance", {})
    tune = {"method": "exact-EV cost-weighted fine-tune of the actor (pokerzoo.training.exact_ev)",
            "init": str(args.init), "init_weights_sha256": policy.document["weights"]["sha256"],
            "hands": args.hands, "enumerated": int(train["enumerated"].sum()),
            "held_out": args.held_out, "epochs": args.epochs, "lr": args.lr, "far_weight": args.far_weight,
            "batch_size": args.batch_size, "seed": args.seed, "held_out_ev_loss": rows,
            "wall_seconds": round(time.perf_counter() - start, 1), "command": command}  # fmt: skip
    provenance = {**parent, "fine_tune": tune, "training_commands": [*parent.get("training_commands", []), command]}
    final = write_tuned(policy, net, out / "final" / "policy.json", provenance)
    report = {"fine_tune": tune, "policy": str(final)}
    if args.ship:
        report["evaluation"] = evaluate(final, args.eval_hands, args.eval_seed)
        ev = {"game": GAME, "eval_seed": args.eval_seed, "eval_options": {}}
        rows_shipped = [{**r, "learner": args.ship, "command": evaluate_command(ev, r, args.ship)}
                        for r in report["evaluation"]]  # fmt: skip
        # what described the parent alone (its later evaluations, its EV loss) is left out; its lineage stays
        parent_only = ("exact_ev_loss", "previous_policy")
        shipped = {**{k: v for k, v in provenance.items() if k not in parent_only}, "name": args.ship,
                   "evaluation": rows_shipped, "eval_seed": args.eval_seed, "eval_options": {},
                   "further_evaluations": []}  # fmt: skip
        folder = POLICY_DIR / "caribbean_stud"
        report["shipped"] = str(write_tuned(policy, net, folder / f"{args.ship}.json", shipped))
        write_policies_readme(folder)
    (out / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    lines = ["# Caribbean stud exact-EV fine-tune", "", f"`{command}`", "",
             "| epoch | held-out EV loss per 100 antes | 95% CI | AK-high hands decided worse |", "|---|---|---|---|",
             *(f"| {r['epoch']} | {100 * r['ev_loss_per_ante']:.4f} | ±{100 * r['ci95']:.4f} | {r['disagreements']:,} |"
               for r in rows)]  # fmt: skip
    (out / "report.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"\nrun folder: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
