"""``kernel``: the one decorator every compiled function of the batched engine uses (numba, cached).

numba's own cache has two traps this module closes:

* **Stale callers.** numba invalidates a cached function when *its own* source
  file changes, not when a function it calls from another file does (numba
  issue #6845): edit ``rng.py`` and every game kernel compiled against the old
  generator would keep loading from the cache. Here every kernel is cached in a
  folder named after a hash of all the kernel sources (every module of this
  package or of a game folder that holds an ``@kernel``, and the batched
  opponents of ``agents/batched/``, whose decision rules call the game
  kernels), so editing any of them starts a fresh cache and nothing stale is
  ever loaded.
* **Read-only installs.** numba caches beside the source (``__pycache__``) and
  falls back to the user's cache folder; in a regular install on a read-only
  site-packages with no writable home it would fail when the kernels are
  defined. The base folder is, in order: ``$NUMBA_CACHE_DIR`` if set,
  ``$POKERZOO_NUMBA_CACHE`` if set, the user cache folder
  (``$XDG_CACHE_HOME`` or ``~/.cache``)``/pokerzoo/numba``, else the system
  temporary folder; the first writable one wins.

Only pokerzoo's kernels are pointed at that folder (numba's ``CACHE_DIR`` is set
while each one is decorated, then restored), so other numba users in the same
process keep their own cache settings. A machine compiles each kernel once
(a few seconds per game); later processes load it in milliseconds.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import numba

ENGINE_DIR = Path(__file__).resolve().parent
ENVS_DIR = ENGINE_DIR.parent
BATCHED_AGENTS_DIR = ENVS_DIR.parent / "agents" / "batched"  # a path, not an import: envs do not import agents


def kernel_sources() -> list[Path]:
    """The files whose change invalidates every cached kernel: this one and every engine, game or
    batched-opponent module that compiles something (holds ``@kernel``)."""
    candidates = [*ENGINE_DIR.glob("*.py"), *ENVS_DIR.glob("*/*.py"), *BATCHED_AGENTS_DIR.glob("*.py")]
    return sorted({Path(__file__).resolve(), *(p for p in candidates if "@kernel" in p.read_text())})


def sources_stamp() -> str:
    digest = hashlib.sha256()
    for path in kernel_sources():
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder):
            pass
    except OSError:
        return False
    return True


def cache_base(environ: dict | None = None) -> Path:
    """The first writable folder of the documented fallback order (see the module docstring)."""
    env = os.environ if environ is None else environ
    candidates = [env.get("NUMBA_CACHE_DIR"), env.get("POKERZOO_NUMBA_CACHE")]
    xdg = env.get("XDG_CACHE_HOME")
    home = env.get("HOME")
    if xdg:
        candidates.append(str(Path(xdg) / "pokerzoo" / "numba"))
    elif home:
        candidates.append(str(Path(home) / ".cache" / "pokerzoo" / "numba"))
    uid = os.getuid() if hasattr(os, "getuid") else "user"
    candidates.append(str(Path(tempfile.gettempdir()) / f"pokerzoo-numba-{uid}"))
    for c in candidates:
        if c and _writable(Path(c)):
            return Path(c)
    raise RuntimeError(f"no writable folder for numba's cache among {[c for c in candidates if c]}")


CACHE_DIR = cache_base() / sources_stamp()


@contextlib.contextmanager
def _pokerzoo_cache_dir() -> Iterator[None]:
    saved = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(CACHE_DIR)
    try:
        yield
    finally:
        numba.config.CACHE_DIR = saved


def kernel(fn: Callable | None = None, *, parallel: bool = False, inline: bool = False) -> Callable:
    """``numba.njit(cache=True)`` with the cache folder above (``@kernel``, ``@kernel(parallel=True)``...).

    ``parallel=True`` compiles ``numba.prange`` loops to run over all of numba's
    threads (``NUMBA_NUM_THREADS``, or ``numba.set_num_threads``).

    ``inline=True`` inlines the function into its callers in numba's own IR.
    A call between compiled functions passes every array of every state tuple
    field by field (dozens of words per tuple), so a game's row functions,
    called once or more per row and step, are inlined: Caribbean stud's step
    went from about 630 ns a row to 380, Raspisnoy poker's (a 25-array state)
    from 1.2M to 2.5-3.5M agent-steps/s on one core. Inlining costs compile
    time at every call site, so keep rarely taken, bulky paths (a scripted
    shuffle) in functions of their own.

    Kernels are compiled without numba's reference counting (``_nrt=False``):
    they work in place on arrays the env owns and never allocate, and with it
    every array passed between compiled functions is counted in and out with
    atomic operations, which cost more than half of a Caribbean stud step
    (1,360 ns a row with it, 630 without, before inlining). A kernel that
    allocates (``np.zeros``...) fails to compile (numba finds no implementation
    of it without the NRT), so the rule cannot be broken silently.
    """

    def wrap(f: Callable) -> Callable:
        with _pokerzoo_cache_dir():
            return numba.njit(cache=True, parallel=parallel, _nrt=False, inline="always" if inline else "never")(f)

    return wrap(fn) if fn is not None else wrap
