"""Policy files that hold no code: weights in safetensors, everything else in a JSON document.

Policies are the files users swap with each other, so reading one must never
run code from it (a pickle, which Stable-Baselines3 zips and ``torch.load``
without ``weights_only`` use, can run anything on load). A policy is two files
side by side:

* ``NAME.json``, the document: ``format`` (``pokerzoo.policy/1``), the ``game``
  and its ``options``, ``observation_size`` and ``num_actions``, the
  ``architecture`` (the actor's and the critic's layers: which tensors, which
  activation after each), ``weights`` (the weights file's name, its dtype and
  its SHA-256, so a mixed-up or altered pair is refused) and ``provenance``
  (training config, commands, evaluation: whatever produced the policy);
  optionally ``prior``: ``{agent, batched, weight}``, a scripted agent the
  network plays on top of (a residual policy): the network's input is the
  observation followed by the one-hot of the action ``agent`` takes there
  (``batched``: the same agent's batched port, where the policy plays in
  batch), and ``weight`` times that one-hot is added to its logits;
* ``NAME.safetensors``, the tensors: the whole actor-critic state dict in
  torch's layout (a Linear layer's weight is ``[out, in]``), float32 or float16;
  written with its header in one fixed order, so the same weights always make
  the same bytes (and SHA-256).

Reading needs only ``json``, ``numpy`` and ``safetensors``; every check a
hostile or broken file can fail raises ``PolicyFileError`` naming the file and
the problem. ``pokerzoo.training.policy_export`` writes these files from a
torch policy and converts trusted Stable-Baselines3 zips.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from safetensors import SafetensorError
from safetensors.numpy import load as load_safetensors
from safetensors.numpy import save as save_safetensors

from pokerzoo.envs.registry import canonical

FORMAT = "pokerzoo.policy/1"
WEIGHT_DTYPES = ("float32", "float16")
DOCUMENT_SUFFIX, WEIGHTS_SUFFIX = ".json", ".safetensors"
MAX_DOCUMENT_BYTES = 16 * 2**20
MAX_WEIGHTS_BYTES = 2 * 2**30
MAX_LAYERS, MAX_WIDTH = 64, 1 << 16
MAX_PRIOR_WEIGHT = 100.0
SB3_HINT = (
    "it is a Stable-Baselines3 zip, and loading one unpickles Python objects from it, which can run any "
    "code; if you trust where it comes from, convert it once with `pokerzoo policy convert --trust {path}`"
)


class PolicyFileError(ValueError):
    """A policy file that is not a valid pokerzoo policy (broken, foreign, or tampered with)."""


def _leaky_relu(x: np.ndarray) -> np.ndarray:
    return np.where(x > 0, x, 0.01 * x)


def _elu(x: np.ndarray) -> np.ndarray:
    return np.where(x > 0, x, np.expm1(np.minimum(x, 0.0)))


# The activation after a layer, by the name the document gives it (torch's defaults for the parameters).
ACTIVATIONS = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
    "leaky_relu": _leaky_relu,
    "elu": _elu,
    "identity": lambda x: x,
}


@dataclass(frozen=True)
class Layer:
    weight: str  # tensor name of the weight, [out, in]
    bias: str  # tensor name of the bias, [out]
    activation: str  # applied after the affine map


@dataclass(frozen=True)
class PolicyFile:
    """A read and checked policy: its document, its tensors (as stored) and where it was read from."""

    path: Path  # the document
    document: dict
    tensors: dict[str, np.ndarray]

    @property
    def actor(self) -> list[Layer]:
        return _layers(self.document["architecture"]["actor"])

    @property
    def critic(self) -> list[Layer]:
        return _layers(self.document["architecture"].get("critic") or [])

    def actor_arrays(self) -> list[tuple[np.ndarray, np.ndarray, str]]:
        """The actor as (weight [in, out] float32 C-contiguous, bias float32, activation) per layer."""
        out = []
        for layer in self.actor:
            w = self.tensors[layer.weight]
            out.append(
                (
                    np.ascontiguousarray(w.T, dtype=np.float32),
                    np.ascontiguousarray(self.tensors[layer.bias], dtype=np.float32),
                    layer.activation,
                )
            )
        return out


def _layers(entries: list[dict]) -> list[Layer]:
    return [Layer(e["weight"], e["bias"], e["activation"]) for e in entries]


# --------------------------------------------------------------------------- where the files are
def document_path(path: str | Path) -> Path:
    """The document of a policy named by either of its files (``x.json`` or ``x.safetensors``)."""
    p = Path(path)
    if p.suffix == WEIGHTS_SUFFIX:
        return p.with_suffix(DOCUMENT_SUFFIX)
    if p.suffix == ".zip":
        raise PolicyFileError(f"{p} is not a pokerzoo policy: " + SB3_HINT.format(path=p))
    if p.suffix != DOCUMENT_SUFFIX:
        raise PolicyFileError(
            f"{p} is not a pokerzoo policy file: a policy is NAME.json (its document) with NAME.safetensors "
            "(its weights)"
        )
    return p


def refuse_to_overwrite(path: str | Path, force: bool) -> None:
    """A ValueError where either file of the policy ``path`` names exists and ``force`` is not given: a new
    policy never replaces one silently."""
    doc = document_path(path)
    for p in (doc, doc.with_suffix(WEIGHTS_SUFFIX)):
        if p.exists() and not force:
            raise ValueError(f"{p} exists; give another --out or --force")


def _read_bytes(path: Path, what: str, limit: int) -> bytes:
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise PolicyFileError(f"{what} {path} is not a file")
        if size > limit:
            raise PolicyFileError(f"{what} {path} is {size:,} bytes, more than the {limit:,} a policy may have")
        return path.read_bytes()
    except FileNotFoundError:
        raise FileNotFoundError(f"{what} {str(path)!r} not found") from None
    except OSError as exc:
        raise PolicyFileError(f"{what} {path} cannot be read: {exc.strerror or exc}") from None


# --------------------------------------------------------------------------- reading
def read_policy(path: str | Path) -> PolicyFile:
    """Read and check the policy whose document (or weights file) is ``path``."""
    doc_path = document_path(path)
    raw = _read_bytes(doc_path, "policy document", MAX_DOCUMENT_BYTES)
    try:
        document = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        if raw[:2] == b"PK":
            raise PolicyFileError(f"{doc_path} is not a pokerzoo policy: " + SB3_HINT.format(path=doc_path)) from None
        raise PolicyFileError(f"{doc_path}: not a JSON policy document ({type(exc).__name__}: {exc})") from None
    return _with_weights(document, doc_path)


def _with_weights(document: Any, doc_path: Path) -> PolicyFile:
    """The policy of a document (checked) and the weights file it names, read and checked against it."""
    check_document(document, doc_path)
    weights_path = doc_path.parent / document["weights"]["file"]
    data = _read_bytes(weights_path, "policy weights", MAX_WEIGHTS_BYTES)
    digest = hashlib.sha256(data).hexdigest()
    if digest != document["weights"]["sha256"]:
        raise PolicyFileError(
            f"{weights_path} does not belong to {doc_path}: its SHA-256 is {digest[:16]}..., the document "
            f"expects {document['weights']['sha256'][:16]}... (a mixed-up pair, or a changed file)"
        )
    try:
        tensors = load_safetensors(data)
    except (SafetensorError, ValueError, TypeError, OverflowError, MemoryError) as exc:
        raise PolicyFileError(f"{weights_path}: not a valid safetensors file ({exc})") from None
    check_tensors(document, tensors, weights_path)
    return PolicyFile(doc_path, document, tensors)


def _fail(where: Path, message: str) -> PolicyFileError:
    return PolicyFileError(f"{where}: {message}")


def _is_int(x: Any, low: int = 1, high: int = MAX_WIDTH) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and low <= x <= high


_SHA256 = re.compile(r"[0-9a-f]{64}")


def check_document(document: Any, where: Path) -> None:
    """Every field a reader relies on has the right type and range (``PolicyFileError`` otherwise)."""
    if not isinstance(document, dict):
        raise _fail(where, f"a policy document is a JSON object, got {type(document).__name__}")
    if document.get("format") != FORMAT:
        raise _fail(where, f"not a pokerzoo policy document (format {document.get('format')!r}, expected {FORMAT!r})")
    try:
        game = canonical(document.get("game"))
    except ValueError as exc:
        raise _fail(where, f"game: {exc}") from None
    document["game"] = game
    if not isinstance(document.get("options"), dict):
        raise _fail(where, "options must be an object (the game's options)")
    for key in ("observation_size", "num_actions"):
        if not _is_int(document.get(key)):
            raise _fail(where, f"{key} must be an int in 1..{MAX_WIDTH}, got {document.get(key)!r}")
    arch = document.get("architecture")
    if not isinstance(arch, dict) or arch.get("kind") != "mlp":
        raise _fail(where, "architecture must be an object with kind 'mlp'")
    for part in ("actor", "critic"):
        layers = arch.get(part, [] if part == "critic" else None)
        if not isinstance(layers, list) or (part == "actor" and not layers) or len(layers) > MAX_LAYERS:
            raise _fail(where, f"architecture.{part} must be a list of at most {MAX_LAYERS} layers")
        for i, layer in enumerate(layers):
            ok = (
                isinstance(layer, dict)
                and set(layer) == {"weight", "bias", "activation"}
                and all(isinstance(layer[k], str) for k in layer)
                and layer["activation"] in ACTIVATIONS
            )
            if not ok:
                raise _fail(
                    where,
                    f"architecture.{part}[{i}] must be {{weight: NAME, bias: NAME, activation: "
                    f"{'|'.join(ACTIVATIONS)}}}, got {layer!r}",
                )
    weights = document.get("weights")
    ok = (
        isinstance(weights, dict)
        and isinstance(weights.get("file"), str)
        and weights["file"].endswith(WEIGHTS_SUFFIX)
        and Path(weights["file"]).name == weights["file"]
        and weights["file"] not in (".", "..")
        and weights.get("dtype") in WEIGHT_DTYPES
        and isinstance(weights.get("sha256"), str)
        and _SHA256.fullmatch(weights["sha256"]) is not None
    )
    if not ok:
        raise _fail(
            where,
            "weights must be {file: NAME.safetensors (beside the document), dtype: float32|float16, "
            f"sha256: 64 hex digits}}, got {weights!r}",
        )
    if not isinstance(document.get("provenance", {}), dict):
        raise _fail(where, "provenance must be an object")
    prior = document.get("prior")
    if prior is not None:
        ok = (
            isinstance(prior, dict)
            and set(prior) == {"agent", "batched", "weight"}
            and all(isinstance(prior[k], str) and prior[k].strip() for k in ("agent", "batched"))
            and isinstance(prior["weight"], int | float)
            and not isinstance(prior["weight"], bool)
            and math.isfinite(prior["weight"])
            and 0 <= prior["weight"] <= MAX_PRIOR_WEIGHT
        )
        if not ok:
            raise _fail(
                where,
                "prior must be {agent: AGENT SPEC, batched: BATCHED AGENT SPEC, weight: a number in "
                f"0..{MAX_PRIOR_WEIGHT:g}}}, got {prior!r}",
            )


def input_size(document: Mapping) -> int:
    """What the network takes: the observation, then with a ``prior`` the one-hot of its action."""
    prior = document.get("prior") is not None
    return int(document["observation_size"]) + (int(document["num_actions"]) if prior else 0)


def check_tensors(document: dict, tensors: Mapping[str, np.ndarray], where: Path) -> None:
    """The tensors the architecture names exist, chain in size from observation to action, and are finite."""
    arch, dtype = document["architecture"], np.dtype(document["weights"]["dtype"])
    for name, t in tensors.items():
        if t.dtype != dtype:
            raise _fail(where, f"tensor {name!r} is {t.dtype}, the document says {dtype}")
    for part, out_size in (("actor", document["num_actions"]), ("critic", 1)):
        layers = _layers(arch.get(part) or [])
        width = input_size(document)
        for i, layer in enumerate(layers):
            w, b = tensors.get(layer.weight), tensors.get(layer.bias)
            if w is None or b is None:
                missing = layer.weight if w is None else layer.bias
                raise _fail(where, f"architecture.{part}[{i}] names tensor {missing!r}, which the weights lack")
            if w.ndim != 2 or w.shape[1] != width or b.shape != (w.shape[0],):
                raise _fail(
                    where,
                    f"architecture.{part}[{i}]: weight {w.shape} and bias {b.shape} do not take {width} inputs "
                    "(a weight is [out, in], a bias [out])",
                )
            width = w.shape[0]
        if layers and width != out_size:
            raise _fail(where, f"the {part} ends with {width} outputs, expected {out_size}")
    for name, t in tensors.items():
        if not np.isfinite(t).all():
            raise _fail(where, f"tensor {name!r} holds NaN or infinite values")


# --------------------------------------------------------------------------- writing
def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


_ORDER = ("game", "options", "observation_size", "num_actions", "prior", "architecture")


def write_policy(
    path: str | Path,
    document: Mapping[str, Any],
    tensors: Mapping[str, np.ndarray],
    dtype: str = "float32",
) -> Path:
    """Write ``PATH.json`` and ``PATH.safetensors``; ``document`` is everything but its ``weights`` entry.

    Both files are written under temporary names and then renamed, weights
    first, so a reader never sees a document without its weights. The
    result is read back and checked before this returns.
    """
    if dtype not in WEIGHT_DTYPES:
        raise ValueError(f"weights dtype {dtype!r}: expected one of {', '.join(WEIGHT_DTYPES)}")
    doc_path = document_path(Path(path).with_suffix(DOCUMENT_SUFFIX))
    weights_path = doc_path.with_suffix(WEIGHTS_SUFFIX)
    doc_path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {k: np.ascontiguousarray(v, dtype=dtype) for k, v in tensors.items()}
    data = _canonical_header(save_safetensors(arrays, metadata={"format": FORMAT, "document": doc_path.name}))
    weights = {"file": weights_path.name, "dtype": dtype, "sha256": hashlib.sha256(data).hexdigest()}
    full = {"format": FORMAT, **{k: document[k] for k in _ORDER if k in document}, "weights": weights}
    full.update({k: v for k, v in document.items() if k not in full})
    full = _plain(full)
    check_document(full, doc_path)
    check_tensors(full, arrays, doc_path)
    text = json.dumps(full, indent=2, allow_nan=False) + "\n"
    suffix = f".tmp{os.getpid()}"
    tmp_w, tmp_d = weights_path.with_name(weights_path.name + suffix), doc_path.with_name(doc_path.name + suffix)
    try:
        tmp_w.write_bytes(data)
        tmp_d.write_text(text)
        os.replace(tmp_w, weights_path)
        os.replace(tmp_d, doc_path)
    finally:
        tmp_w.unlink(missing_ok=True)
        tmp_d.unlink(missing_ok=True)
    read_policy(doc_path)
    return doc_path


def _canonical_header(data: bytes) -> bytes:
    """Safetensors bytes with their header in one fixed order: safetensors writes the header's metadata in
    an order that changes from one process to the next, so the same weights would get another SHA-256 (and
    a re-shipped policy a changed file) each time. The header is re-serialized with sorted keys and padded
    with spaces to a multiple of 8 bytes, as the format asks; the tensors' bytes and offsets are unchanged."""
    n = int.from_bytes(data[:8], "little")
    header = json.loads(data[8 : 8 + n])
    text = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return len(text).to_bytes(8, "little") + text + data[8 + n :]


def rewrite_document(path: str | Path, document: Mapping[str, Any]) -> Path:
    """Replace a policy's document (``PATH.json``) and leave its weights file as it is: provenance added after
    shipping (``pokerzoo policy record``). ``document`` is the whole new document, its ``weights`` entry that
    of the weights file beside it; it is checked with those weights (their SHA-256 and sizes) first, then
    written under a temporary name and renamed, so a refused document leaves the old one in place. The
    weights are not rewritten: a file written before ``_canonical_header`` (every policy shipped so far)
    would get other bytes."""
    doc_path = document_path(Path(path))
    full = _plain(dict(document))
    _with_weights(full, doc_path)  # the new document with the weights it names, checked before anything is written
    text = json.dumps(full, indent=2, allow_nan=False) + "\n"
    tmp = doc_path.with_name(doc_path.name + f".tmp{os.getpid()}")
    try:
        tmp.write_text(text)
        os.replace(tmp, doc_path)
    finally:
        tmp.unlink(missing_ok=True)
    return doc_path


def _plain(obj: Any) -> Any:
    """JSON values: tuples as lists, numpy scalars as Python numbers, non-finite floats refused."""
    if isinstance(obj, Mapping):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_plain(v) for v in obj]
    if isinstance(obj, np.generic):
        return _plain(obj.item())
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj
