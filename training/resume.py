"""What exact resume needs besides the model: RNG states, env states, and logs cut back to the checkpoint.

A killed run resumes from its latest checkpoint and must produce the very
numbers an uninterrupted run would have: the global RNGs, every env's game in
progress and the CSV/TensorBoard logs are saved and restored by these helpers.
"""

from __future__ import annotations

import contextlib
import csv
import os
import random
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import numpy as np
import torch
import yaml
from stable_baselines3.common import logger as sb3_logger
from torch.utils.tensorboard import SummaryWriter

from pokerzoo.evaluation.history import to_jsonable


def env_states(venv) -> list[bytes]:
    return venv.env_method("get_state")


def restore_env_states(venv, states: list[bytes], masks: np.ndarray | None) -> None:
    if len(states) != venv.num_envs:
        raise ValueError(f"checkpoint has {len(states)} env states, the run has {venv.num_envs} envs")
    for i, state in enumerate(states):
        venv.env_method("set_state", state, indices=[i])
    inner = getattr(venv, "venv", venv)
    if masks is not None and hasattr(inner, "set_masks"):
        inner.set_masks(masks)


def rng_state() -> dict:

    return {"torch": torch.get_rng_state(), "numpy": np.random.get_state(), "python": random.getstate()}


def set_rng_state(state: dict) -> None:

    torch.set_rng_state(state["torch"])
    np.random.set_state(state["numpy"])
    random.setstate(state["python"])


@contextlib.contextmanager
def rng_preserved() -> Iterator[None]:
    """Run side work (snapshots, evaluations) without moving the training's global RNGs."""
    state = rng_state()
    try:
        yield
    finally:
        set_rng_state(state)


def prepare_run_folder(run_dir: Path, cfg: Mapping, resume_step: int | None) -> None:
    """The run folder at the start of ``train()``, for every trainer. Resumed (``resume_step``): the saved
    ``config.yaml`` takes the new ``total_timesteps`` (``--timesteps`` on resume) and ``progress.csv`` and
    ``evals.csv`` are cut back to the checkpoint's step. New: a folder that already holds a run is refused, and
    the config is written."""
    config = run_dir / "config.yaml"
    if resume_step is not None:
        saved_cfg = yaml.safe_load(config.read_text())
        if saved_cfg.get("total_timesteps") != cfg["total_timesteps"]:
            saved_cfg["total_timesteps"] = cfg["total_timesteps"]
            config.write_text(yaml.safe_dump(saved_cfg, sort_keys=False))
        truncate_csv(run_dir / "progress.csv", "time/total_timesteps", resume_step)
        truncate_csv(run_dir / "evals.csv", "timesteps", resume_step)
        return
    if (run_dir / "checkpoints").exists():
        raise ValueError(f"{run_dir} already holds a run; use --resume {run_dir} or another --out")
    config.write_text(yaml.safe_dump(to_jsonable(cfg), sort_keys=False))


def truncate_csv(path: Path, column: str, last: float) -> None:
    """Keep the rows of ``path`` whose ``column`` is <= ``last`` (the logs of a resumed run)."""
    if not path.is_file():
        return
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    if not rows:
        return
    header, body = rows[0], rows[1:]
    if column not in header:
        return
    k = header.index(column)
    keep = [r for r in body if k < len(r) and r[k] != "" and float(r[k]) <= last]
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(keep)


def make_logger(run_dir: Path, resume_step: int | None, verbose: bool):

    class ResumableCSV(sb3_logger.CSVOutputFormat):
        """SB3's CSV writer, continuing an existing file (its header and rows) instead of overwriting it."""

        def __init__(self, filename: str):
            exists = os.path.isfile(filename) and os.path.getsize(filename) > 0
            self.file = open(filename, "r+" if exists else "w+")  # noqa: SIM115 - closed by the logger
            self.keys = []
            if exists:
                header = self.file.readline().rstrip("\n")
                self.keys = header.split(",") if header else []
                self.file.seek(0, os.SEEK_END)
            self.separator = ","
            self.quotechar = '"'

    formats = [ResumableCSV(str(run_dir / "progress.csv"))]
    try:
        tb = sb3_logger.TensorBoardOutputFormat(str(run_dir / "tb"))
        if resume_step is not None:  # events after the checkpoint belong to the killed run: discard them

            tb.writer.close()
            tb.writer = SummaryWriter(log_dir=str(run_dir / "tb"), purge_step=resume_step + 1)
        formats.append(tb)
    except AssertionError:  # tensorboard not installed: CSV only
        pass
    if verbose:
        formats.append(sb3_logger.HumanOutputFormat(sys.stdout))
    return sb3_logger.Logger(folder=str(run_dir), output_formats=formats)


def append_rows(path: Path, rows: list[dict]) -> None:
    if not rows:
        return
    exists = path.is_file() and path.stat().st_size > 0
    with open(path, "a", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        if not exists:
            w.writeheader()
        w.writerows(rows)
