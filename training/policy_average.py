"""Averaging the weights of policies along one training run (stochastic weight averaging, done afterwards).

Why: a long PPO leg wanders. Breed the Heifer's residual run was resolved
above the equity bettor at 32M decisions and level with it at 50M, and which
checkpoint a reading picks is then partly luck. The uniform mean of the
weights of several checkpoints of one run (Izmailov et al., 2018: "Averaging
Weights Leads to Wider Optima and Better Generalization") is one policy that
sits between them, with no further training and no search over checkpoints.

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

from pokerzoo.agents.policy_file import PolicyFile, document_path, read_policy, refuse_to_overwrite, write_policy

# The document entries that say which network a policy is: all must agree for the mean to be one.
SAME_NETWORK = ("game", "options", "observation_size", "num_actions", "prior", "architecture")


def average_policies(
    paths: Sequence[str | Path], out: str | Path, *, dtype: str | None = None, force: bool = False
) -> Path:
    """Write the uniform mean of the weights of the policies ``paths`` to ``out`` (``NAME.json``).

    The inputs must be the same network (``SAME_NETWORK`` entries, tensor names and shapes); the mean is
    taken in float64 and stored as ``dtype`` (default: the first input's). The result's provenance is the
    latest input's (the most timesteps: the experience behind the mean), with ``averaged``: each input's
    path, SHA-256 and trained timesteps. Returns the document written. ValueError (``PolicyFileError`` for
    a broken input) names the problem; nothing is written then.
    """
    if len(paths) < 2:
        raise ValueError(f"averaging takes at least two policies, got {len(paths)}")
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
    tensors = {name: np.mean([f.tensors[name].astype(np.float64) for f in files], axis=0) for name in first.tensors}
    document = {k: v for k, v in first.document.items() if k not in ("format", "weights")}
    inputs = [_source(f) for f in files]
    latest = max(range(len(files)), key=lambda i: inputs[i]["timesteps"] or 0)  # the most experience behind it
    document["provenance"] = {**files[latest].document.get("provenance", {}), "averaged": inputs}
    return write_policy(target, document, tensors, dtype=dtype or first.document["weights"]["dtype"])


def _check_same_network(a: PolicyFile, b: PolicyFile) -> None:
    for key in SAME_NETWORK:
        if a.document.get(key) != b.document.get(key):
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


def _source(f: PolicyFile) -> dict[str, Any]:
    provenance = f.document.get("provenance") or {}
    return {"path": str(f.path), "sha256": f.document["weights"]["sha256"], "timesteps": provenance.get("timesteps")}
