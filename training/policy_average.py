"""Averaging the weights of policies along one training run (stochastic weight averaging, done afterwards).

Why: a long PPO leg wanders. Breed the Heifer's residual run was resolved
above the equity bettor at 32M decisions and level with it at 50M, and which
checkpoint a reading picks is then partly luck. The uniform mean of the
weights of several checkpoints of one run (Izmailov et al., 2018: "Averaging
Weights Leads to Wider Optima and Better Generalization") is one policy that
sits between them, with no further training and no search over checkpoints.

A weighted mean (``coefficients``) interpolates instead: between a policy
and the one it was fine-tuned from, it is WiSE-FT (Wortsman et al., 2022:
"Robust fine-tuning of zero-shot models"), a point on the straight line
between the two that can play better than either end.

It is only meaningful for checkpoints of one run (or of legs continued from
one another): the same network, trained from the same start, whose hidden
units still mean the same thing. Policies that are not the same network
(another game, options, sizes, prior, architecture, tensor names or shapes)
are refused, naming what differs. Nothing checks that they share a run; the
provenance of the result lists every input with its SHA-256 so that a reader
can.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from pokerzoo.agents.policy import probe_game
from pokerzoo.agents.policy_file import PolicyFile, document_path, read_policy, refuse_to_overwrite, write_policy

# The document entries that say which network a policy is: all must agree for the mean to be one.
SAME_NETWORK = ("game", "options", "observation_size", "num_actions", "prior", "architecture")


def average_policies(
    paths: Sequence[str | Path],
    out: str | Path,
    *,
    dtype: str | None = None,
    force: bool = False,
    coefficients: Sequence[float] | None = None,
) -> Path:
    """Write the mean of the weights of the policies ``paths`` to ``out`` (``NAME.json``).

    The mean is uniform, or weighted by ``coefficients`` (one per policy, each in [0, 1], summing to 1).
    The inputs must be the same network (``SAME_NETWORK`` entries, tensor names and shapes); the mean is
    taken in float64 and stored as ``dtype`` (default: the first input's). The result's provenance is the
    latest input's (the most timesteps: the experience behind the mean), with ``averaged``: each input's
    path, SHA-256, trained timesteps and coefficient. Returns the document written. ValueError
    (``PolicyFileError`` for a broken input) names the problem; nothing is written then.
    """
    if len(paths) < 2:
        raise ValueError(f"averaging takes at least two policies, got {len(paths)}")
    weights = _coefficients(coefficients, len(paths))
    target = document_path(Path(out))
    files = [read_policy(p) for p in paths]
    sources = {f.path.resolve() for f in files}
    if len(sources) < len(files):
        raise ValueError("the same policy is named twice: give each checkpoint once (this is the uniform mean)")
    if target.resolve() in sources:
        raise ValueError(f"{target} is one of the policies averaged: write the mean elsewhere")
    refuse_to_overwrite(target, force)
    first = files[0]
    for other in files[1:]:
        _check_same_network(first, other)
    tensors = {
        name: np.tensordot(weights, np.stack([f.tensors[name].astype(np.float64) for f in files]), axes=1)
        for name in first.tensors
    }
    document = {k: v for k, v in first.document.items() if k not in ("format", "weights")}
    inputs = [{**_source(f), "coefficient": float(w)} for f, w in zip(files, weights)]
    latest = max(range(len(files)), key=lambda i: inputs[i]["timesteps"] or 0)  # the most experience behind it
    document["provenance"] = {**files[latest].document.get("provenance", {}), "averaged": inputs}
    return write_policy(target, document, tensors, dtype=dtype or first.document["weights"]["dtype"])


def _coefficients(coefficients: Sequence[float] | None, n: int) -> np.ndarray:
    """The mean's weight of each policy: ``coefficients`` checked (one each, in [0, 1], summing to 1), or 1/n."""
    if coefficients is None:
        return np.full(n, 1.0 / n)
    c = np.asarray(coefficients, dtype=np.float64)
    if c.shape != (n,):
        raise ValueError(f"--coefficients: {len(coefficients)} given for {n} policies; give one per policy, in order")
    if not np.all(np.isfinite(c)) or c.min() < 0 or c.max() > 1:
        raise ValueError(f"--coefficients {' '.join(f'{x:g}' for x in c)}: each must be in [0, 1]")
    if abs(c.sum() - 1.0) > 1e-9:
        raise ValueError(f"--coefficients {' '.join(f'{x:g}' for x in c)}: they sum to {c.sum():g}, not 1")
    return c


def _check_same_network(a: PolicyFile, b: PolicyFile) -> None:
    for key in SAME_NETWORK:
        if key == "options" and a.document.get("game") == b.document.get("game"):
            same = _resolved(a) == _resolved(b)  # {} and the defaults written out are the same options
        else:
            same = a.document.get(key) == b.document.get(key)
        if not same:
            raise ValueError(
                f"{b.path} is not the same network as {a.path}: its {key!r} is {b.document.get(key)!r}, "
                f"not {a.document.get(key)!r} (only checkpoints of one run can be averaged)"
            )
    if set(a.tensors) != set(b.tensors):
        differ = sorted(set(a.tensors) ^ set(b.tensors))
        raise ValueError(f"{b.path} and {a.path} hold different tensors: {', '.join(differ[:5])}")
    for name, tensor in a.tensors.items():
        if tensor.shape != b.tensors[name].shape:
            raise ValueError(f"{b.path}: tensor {name!r} is {b.tensors[name].shape}, not {tensor.shape} as in {a.path}")


def _resolved(f: PolicyFile) -> dict[str, Any]:
    """The game options a policy was trained with, every default filled in (as the game resolves them)."""
    return dict(probe_game(f.document).config)


def _source(f: PolicyFile) -> dict[str, Any]:
    provenance = f.document.get("provenance") or {}
    return {"path": str(f.path), "sha256": f.document["weights"]["sha256"], "timesteps": provenance.get("timesteps")}
