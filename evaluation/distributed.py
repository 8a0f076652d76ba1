"""Tournaments as Ray tasks: the same deals, played in chunks by Ray workers anywhere in a cluster.

A deal is a function of the tournament seed and its index alone (``DealSeeds``),
and every worker replays it with agents built from the same specs and reseeded
per game, so where a deal is played cannot change it: a tournament split into
Ray tasks gives exactly the records of a local run, in the same order
(tested: identical ``summary.csv``). The tasks are chunks of consecutive deals,
a few per CPU of the cluster, so that slow and fast chunks even out.

Ray is an optional dependency (``pip install 'pokerzoo[ray]'``); its import is
deferred to the first distributed tournament. ``address`` is a running
cluster's (``ray start --head`` prints it; ``auto`` finds a local one); None
starts a private local Ray for the run and stops it afterwards. Every machine
of a cluster needs pokerzoo installed, the same version (``docs/distributed.md``).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator, Sequence
from typing import Any

from pokerzoo.evaluation.tournament import DealRunner, GameRecord, Tournament

CHUNKS_PER_CPU = 4


def _play_chunk(t: Tournament, lineups: list[tuple[int, ...]], deals: Sequence[int]) -> list[list[GameRecord]]:
    """One Ray task: play ``deals`` with one runner (its agents built once for the chunk)."""
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(var, "1")
    runner = DealRunner(t, lineups)
    return [runner.play_deal(d) for d in deals]


def chunks(deals: int, cpus: int) -> list[range]:
    """Consecutive deal ranges, about ``CHUNKS_PER_CPU`` per CPU."""
    size = max(1, -(-deals // max(1, cpus * CHUNKS_PER_CPU)))
    return [range(start, min(deals, start + size)) for start in range(0, deals, size)]


def connect(address: str | None, flag: str = "--ray", **init: Any) -> tuple[Any, bool]:
    """The ``ray`` module, connected; True when this call started (and so must stop) the runtime.

    ``flag`` is the option the errors name (``--ray`` here, ``--address`` for training);
    ``init`` goes to ``ray.init`` (e.g. a private runtime's ``num_cpus``).
    """
    # Deferred: Ray is an optional dependency (the 'ray' extra) and takes seconds to import.
    try:
        import ray
    except ModuleNotFoundError:
        raise ValueError(
            f"{flag} needs Ray: pip install 'pokerzoo[ray]' (after torch==2.13.0, as the Makefile does)"
        ) from None
    if ray.is_initialized():
        return ray, False
    if address not in (None, "auto", "local"):
        _check_reachable(address, flag)
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": "ERROR", **init}
    try:
        ray.init(address=address, **kwargs)
    except ConnectionError as exc:
        raise ValueError(f"{flag} {address}: cannot reach a Ray cluster there ({exc})") from None
    return ray, True


def _check_reachable(address: str, flag: str = "--ray") -> None:
    """Fail in seconds with a clear message where Ray itself would retry a dead address for minutes."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"{flag} {address}: expected HOST:PORT (e.g. 10.0.0.5:6379), auto, or nothing")
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as exc:
        raise ValueError(f"{flag} {address}: cannot reach a Ray cluster there ({exc})") from None


def iter_ray_deals(
    t: Tournament, lineups: list[tuple[int, ...]], address: str | None = None
) -> Iterator[list[GameRecord]]:
    """Yield each deal's records in deal order, the deals played as Ray tasks (see the module docstring)."""
    ray, started = connect(address)
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        task = ray.remote(num_cpus=1)(_play_chunk)
        shared = (ray.put(t), ray.put(lineups))
        pending = [task.remote(*shared, list(part)) for part in chunks(t.deals, cpus)]
        for ref in pending:  # in order: a chunk's results wait only for the chunks before it
            yield from ray.get(ref)
    finally:
        if started:
            ray.shutdown()
