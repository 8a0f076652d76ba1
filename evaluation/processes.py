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
import signal
import threading
from collections.abc import Iterator


def ignore_sigint() -> None:
    """For a worker's first line: Ctrl-C is the main process's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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
