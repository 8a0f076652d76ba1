"""Worker processes that leave Ctrl-C to the main process.

A terminal's Ctrl-C sends SIGINT to every process of the foreground group,
workers included; each would print its own KeyboardInterrupt traceback. The
main process handles the interrupt (stops its workers, exits with 130), so
workers ignore SIGINT: started while it is ignored (an ignored signal stays
ignored in a spawned or forked child, and Python then installs no handler of
its own), and ignoring it again as their first act.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator


def ignore_sigint() -> None:
    """For a worker's first line: Ctrl-C is the main process's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def start_worker() -> None:
    """A worker's first act: leave Ctrl-C to the main process, and run single-threaded (the workers are the
    parallelism; nested thread pools in numpy's BLAS or in torch would only fight over the cores)."""
    ignore_sigint()
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(var, "1")
    torch = sys.modules.get("torch")  # loaded by a policy agent, or by the main module re-imported in the worker
    if torch is not None:
        torch.set_num_threads(1)


@contextlib.contextmanager
def sigint_ignored() -> Iterator[None]:
    """Start worker processes inside this block so that they are born ignoring SIGINT."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
