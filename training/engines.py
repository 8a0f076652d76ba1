"""Which trainer runs a config: the batched self-play trainer (``engine: batched``) or MaskablePPO (``engine: aec``).

``pokerzoo train`` and ``pokerzoo demo`` go through here, so both engines share
one command, one config format and one run-folder layout.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pokerzoo.training.config import load_run_config


def trainer_class(cfg: Mapping[str, Any]) -> type:
    # Deferred: each trainer imports its own stack (SB3 and its workers, or the batched engine's kernels).
    if cfg["engine"] == "batched":
        from pokerzoo.training.selfplay.trainer import SelfPlayTrainer

        return SelfPlayTrainer
    from pokerzoo.training.train import Trainer

    return Trainer


def make_trainer(cfg: Mapping[str, Any], run_dir: str | Path, **kw: Any):
    """A new run of ``cfg`` (a loaded config) in ``run_dir``."""
    return trainer_class(cfg)(cfg, run_dir, **kw)


def resume_trainer(run_dir: str | Path, **kw: Any):
    """The trainer that continues the run in ``run_dir`` from its newest intact checkpoint."""
    return trainer_class(load_run_config(run_dir)).resume(run_dir, **kw)
