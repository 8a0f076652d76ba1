"""A training env's whole state as bytes, and reading them back with a restricted unpickler.

Exact resume needs every env's game in progress, generators and opponents:
a graph of pokerzoo objects with numpy arrays and generators inside, which
only pickle captures without a hand-written codec per game. Loading an
arbitrary pickle runs arbitrary code, so the bytes are read back with
Python's documented way of restricting what a pickle may build
(``Unpickler.find_class``, "Restricting Globals" in the ``pickle`` docs): a
global is resolved only when it is

* a class defined in ``pokerzoo.envs`` or ``pokerzoo.agents`` (games, views,
  events, engine parts, agents), or one of the training env classes below;
* one of the few pokerzoo functions that rebuild a cached object
  (``SAFE_FUNCTIONS``), or one of numpy's and gymnasium's constructors of
  arrays, scalars, dtypes, generators and spaces (``NUMPY_AND_GYMNASIUM``).

Anything else (``os.system``, ``builtins.eval``, ``getattr``, a class of some
other library) is refused with ``EnvStateError`` naming it, before
anything is built from it. This is the one pickle pokerzoo reads; the
README's Security section names it as the trust boundary.
"""

from __future__ import annotations

import importlib
import io
import pickle
from typing import Any


class EnvStateError(pickle.UnpicklingError, ValueError):
    """Env-state bytes that refer to something a state may not hold, are not a state, or name a missing file."""


POKERZOO_PACKAGES = ("pokerzoo.envs.", "pokerzoo.agents.")
TRAINING_CLASSES = frozenset(
    {
        "pokerzoo.training.single_seat.SingleSeatEnv",
        "pokerzoo.training.opponents.OpponentPool",
        "pokerzoo.training.opponents.FixedOpponents",
    }
)
# Functions that objects name in their __reduce__ to rebuild a shared, cached instance.
SAFE_FUNCTIONS = frozenset(
    {
        "pokerzoo.envs.perico.ranking.ranker_for",
        "pokerzoo.envs.breed_the_heifer.ranking.ranker",
    }
)
NUMPY_AND_GYMNASIUM = frozenset(
    {
        "numpy.ndarray",
        "numpy.dtype",
        "numpy._core.multiarray._reconstruct",
        "numpy._core.multiarray.scalar",
        "numpy._core.numeric._frombuffer",
        "numpy.core.multiarray._reconstruct",
        "numpy.core.multiarray.scalar",
        "numpy.core.numeric._frombuffer",
        "numpy.random._pickle.__generator_ctor",
        "numpy.random._pickle.__bit_generator_ctor",
        "numpy.random._pickle.__randomstate_ctor",
        "numpy.random._generator.Generator",
        "numpy.random.mtrand.RandomState",
        "numpy.random._pcg64.PCG64",
        "numpy.random._pcg64.PCG64DXSM",
        "numpy.random._mt19937.MT19937",
        "numpy.random._philox.Philox",
        "numpy.random._sfc64.SFC64",
        "numpy.random.bit_generator.SeedSequence",
        "numpy.random.bit_generator.__pyx_unpickle_SeedSequence",
        "gymnasium.spaces.box.Box",
        "gymnasium.spaces.dict.Dict",
        "gymnasium.spaces.discrete.Discrete",
        "gymnasium.spaces.multi_binary.MultiBinary",
        "gymnasium.spaces.multi_discrete.MultiDiscrete",
        "collections.OrderedDict",
        "collections.deque",
    }
)


def _numpy_dtype_class(module: str, name: str) -> bool:
    """numpy 2 pickles a dtype through its class in ``numpy.dtypes`` (``Float32DType`` and the like)."""
    return module == "numpy.dtypes" and name.endswith("DType") and name.isidentifier()


class _RestrictedUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        full = f"{module}.{name}"
        if full in NUMPY_AND_GYMNASIUM or _numpy_dtype_class(module, name):
            return super().find_class(module, name)
        pokerzoo = module.startswith(POKERZOO_PACKAGES) or full in TRAINING_CLASSES or full in SAFE_FUNCTIONS
        if pokerzoo and name.isidentifier():
            try:
                obj = getattr(importlib.import_module(module), name)
            except (ImportError, AttributeError):
                raise EnvStateError(f"env state refers to {full}, which does not exist") from None
            if full in SAFE_FUNCTIONS or full in TRAINING_CLASSES:
                return obj
            if isinstance(obj, type) and obj.__module__ == module:
                return obj
        raise EnvStateError(f"env state refers to {full}, which an env state may not hold (refused unread)")


def dumps(obj: Any) -> bytes:
    return pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)


def loads(data: bytes) -> Any:
    """Read env-state bytes with the restricted unpickler; ``EnvStateError`` on anything else."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise EnvStateError(f"an env state is bytes, got {type(data).__name__}")
    try:
        return _RestrictedUnpickler(io.BytesIO(data)).load()
    except EnvStateError:
        raise
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, KeyError, IndexError,
            MemoryError, OverflowError, RecursionError, UnicodeDecodeError, OSError) as exc:  # fmt: skip
        raise EnvStateError(f"not a readable env state ({type(exc).__name__}: {exc})") from None
