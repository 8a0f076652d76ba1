"""An ``Agent`` backed by a trained policy file, and where the shipped ones are found.

A policy is a pair of files holding no code (``pokerzoo.agents.policy_file``):
``NAME.json``, the document (game, options, sizes, architecture, provenance),
and ``NAME.safetensors``, the weights. Playing needs only the actor, and
every decision is one small matrix product in numpy: no torch (nor its import)
at all, which matters when snapshots play opponent seats thousands of times a
second inside training envs.

Where a policy comes from (the specs are parsed by ``pokerzoo.agents.registry``):
``policy:PATH`` is a policy document or weights file, a folder holding
``policy.json``, or a training run folder (its ``final/policy.json``, else its
newest checkpoint's); a shipped name, e.g. ``ppo``, is
``agents/policies/<game>/<name>.json`` (``<game>`` the registry's short name,
``GameSpec.name``). A Stable-Baselines3 zip is refused (loading one runs
pickled code): ``pokerzoo policy convert --trust FILE`` converts a trusted one.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from pokerzoo.agents.base import Agent, details
from pokerzoo.agents.policy_file import (
    ACTIVATIONS,
    DOCUMENT_SUFFIX,
    SB3_HINT,
    PolicyFileError,
    document_path,
    read_policy,
)
from pokerzoo.envs import game_class
from pokerzoo.envs.engine.game import Game, View
from pokerzoo.envs.engine.schema import Schema
from pokerzoo.envs.registry import canonical, spec

POLICY_DIR = Path(__file__).resolve().parent / "policies"
SAMPLE_SUFFIX = "@sample"


class PolicyNet:
    """The actor of an MLP actor-critic policy, in numpy: observation -> action logits.

    A policy with a ``prior`` (``policy_file``: a residual policy over a
    scripted agent) also takes the prior's action in each row: the network
    reads the observation and that action's one-hot, and ``prior.weight``
    times the one-hot is added to its logits.
    """

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray, str]], meta: dict):
        self.layers = layers  # (weight [in, out], bias [out], activation name after it)
        self.meta = meta  # the policy document
        self.prior = meta.get("prior")  # {agent, batched, weight} or None
        self.num_actions = int(layers[-1][0].shape[1])
        self.observation_size = int(layers[0][0].shape[0]) - (self.num_actions if self.prior else 0)

    def logits(self, obs: np.ndarray, prior_actions: np.ndarray | int | None = None) -> np.ndarray:
        """Logits for ``obs`` (``[D]`` or ``[k, D]``); ``prior_actions`` (one per row) exactly when the policy has
        a prior."""
        x = np.asarray(obs, dtype=np.float32)
        if (prior_actions is None) != (self.prior is None):
            raise ValueError(
                f"this policy plays on top of the agent {self.prior['agent']!r}: pass its actions (prior_actions)"
                if self.prior else "this policy has no prior: pass no prior_actions"
            )
        if self.prior is not None:
            hot = one_hot(prior_actions, self.num_actions, x.ndim == 1)
            x = np.concatenate([x, hot], axis=-1)
        for w, b, act in self.layers:
            x = ACTIVATIONS[act](x @ w + b)
        if self.prior is not None:
            x = x + np.float32(self.prior["weight"]) * hot
        return x


def one_hot(actions: np.ndarray | int, num_actions: int, single: bool) -> np.ndarray:
    """float32 one-hot rows of ``actions`` (``[A]`` for one action when ``single``, else ``[k, A]``)."""
    a = np.atleast_1d(np.asarray(actions, dtype=np.int64))
    hot = np.zeros((a.shape[0], num_actions), dtype=np.float32)
    hot[np.arange(a.shape[0]), a] = 1.0
    return hot[0] if single else hot


_CACHE: dict[tuple, PolicyNet] = {}
_LOCK = threading.Lock()
_BUILDING = threading.local()  # the policy files whose priors are being built, in this thread


@contextmanager
def building_prior(path: str | Path, spec: str):
    """Marks policy ``path`` as building its prior (agent ``spec``) while the block runs: a prior that leads
    back to a policy being built (a file naming itself, or two naming each other) is refused by name instead
    of recursing without end, and a prior that cannot be built is a ``PolicyFileError`` naming both."""
    key = str(Path(path).resolve())
    stack = getattr(_BUILDING, "stack", None)
    if stack is None:
        stack = _BUILDING.stack = []
    if key in stack:
        chain = " -> ".join([*stack[stack.index(key) :], key])
        raise PolicyFileError(f"policy {path}: its prior leads back to itself ({chain})")
    stack.append(key)
    try:
        yield
    except PolicyFileError:
        raise
    except (ValueError, FileNotFoundError) as exc:
        raise PolicyFileError(f"policy {path}: its prior {spec!r}: {exc}") from None
    finally:
        stack.pop()


def load_policy_net(path: str | Path) -> PolicyNet:
    """The numpy actor of the policy file ``path`` (cached per file and modification time)."""
    doc = document_path(path)
    try:
        stamp = tuple(p.stat().st_mtime_ns for p in (doc, doc.with_suffix(".safetensors")))
    except FileNotFoundError:
        stamp = None  # read_policy names what is missing
    except OSError as exc:
        raise PolicyFileError(f"policy {doc} cannot be read: {exc.strerror or exc}") from None
    key = (str(doc.resolve()), stamp)
    with _LOCK:
        net = _CACHE.get(key)
    if net is not None:
        return net
    policy = read_policy(doc)
    net = PolicyNet(policy.actor_arrays(), policy.document)
    with _LOCK:
        _CACHE[key] = net
    return net


def _is_file(p: Path) -> bool:
    try:
        return p.is_file()
    except OSError:  # a name too long for the file system, and the like: not a policy either
        return False


def _is_dir(p: Path) -> bool:
    try:
        return p.is_dir()
    except OSError:
        return False


def resolve_policy_path(path: str | Path) -> Path:
    """A policy document from a policy file, a folder with ``policy.json``, or a training run folder."""
    p = Path(path).expanduser()
    if _is_file(p):
        return document_path(p)
    if _is_dir(p):
        for candidate in (p / "policy.json", p / "final" / "policy.json"):
            if _is_file(candidate):
                return candidate
        checkpoints = p / "checkpoints"
        if _is_dir(checkpoints):
            steps = sorted((d for d in checkpoints.iterdir() if d.name.startswith("step_")), reverse=True)
            for step in steps:
                if _is_file(step / "policy.json"):
                    return step / "policy.json"
        for legacy in [*sorted(p.glob("*.zip")), *sorted(p.glob("final/*.zip"))]:
            raise PolicyFileError(f"{p} holds no policy.json, only {legacy.name}: " + SB3_HINT.format(path=legacy))
        raise FileNotFoundError(f"no policy.json, final/policy.json or checkpoint policy in folder {str(p)!r}")
    raise FileNotFoundError(f"policy {str(p)!r} not found")


def shipped_policies(env_name: str) -> dict[str, Path]:
    """The trained policies shipped for a game (``agents/policies/<name>/``): name -> document."""
    folder = POLICY_DIR / spec(env_name).name
    if not folder.is_dir():
        return {}
    return {p.stem: p for p in sorted(folder.glob("*" + DOCUMENT_SUFFIX))}


class PolicyAgent(Agent):
    """Plays the most likely legal action of a trained policy (or samples, ``deterministic=False``).

    ``env_name`` is checked against the game the checkpoint was trained on. The
    observation is the game's own ``encode(view)``, the same vector the
    learner saw; when ``act`` gets no ``game``, one is built from the options
    stored in the checkpoint to encode the view. A policy with a prior builds
    its scripted agent (``prior.agent``) and asks it first at every decision.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        env_name: str | None = None,
        deterministic: bool = True,
        seed: int | None = None,
        name: str | None = None,
    ):
        super().__init__(seed)
        self.path = str(resolve_policy_path(path))
        self.deterministic = deterministic
        self.name = name or f"policy:{path}"
        self.env_name = env_name
        self._net: PolicyNet | None = None
        self._encoder: Game | None = None
        self._last: tuple[np.ndarray, np.ndarray] | None = None  # (legal actions, their logits) of the latest act
        self._seed = seed
        self._prior: Agent | None = None
        self._load()

    def _load(self) -> None:
        net = load_policy_net(self.path)
        trained_on = net.meta["game"]
        if self.env_name is not None:
            want = canonical(self.env_name)
            if trained_on != want:
                raise PolicyFileError(f"policy {self.path} was trained on {trained_on}, not {want}")
        self._net = net
        self._encoder = trained_game(net, self.path, self.env_name)
        self._prior = self._prior_agent(net, trained_on)

    def _prior_agent(self, net: PolicyNet, game: str) -> Agent | None:
        """The scripted agent a policy with a prior plays on top of (seeded after the policy's own seed)."""
        if net.prior is None:
            return None
        # Deferred: the registry imports this module (policy specs), so it is imported at use.
        from pokerzoo.agents.registry import make_agent

        with building_prior(self.path, net.prior["agent"]):
            return make_agent(game, net.prior["agent"], None if self._seed is None else self._seed + 1)

    def seed(self, seed: int | None) -> None:
        super().seed(seed)
        self._seed = seed
        if self._prior is not None:
            self._prior.seed(None if seed is None else seed + 1)

    @property
    def meta(self) -> dict:
        return self._net.meta

    def logits(self, view: View, game: Game | None = None, mask: np.ndarray | None = None) -> np.ndarray:
        """The network's logits for ``view``; a policy with a prior asks its agent first (it needs ``mask``)."""
        obs = self._encode(view, game)
        if obs.shape != (self._net.observation_size,):
            raise ValueError(
                f"policy {self.path} expects observations of size {self._net.observation_size}, "
                f"the game gives {obs.shape[0]} (different game options?){self._shipped_hint()}"
            )
        if self._prior is None:
            return self._net.logits(obs)
        if mask is None:
            raise ValueError(f"policy {self.path} plays on top of {self._net.prior['agent']!r}: pass the mask")
        return self._net.logits(obs, self._prior.act(view, mask, game))

    def act(self, view: View, mask: np.ndarray, game: Game | None = None) -> int:
        logits = self.logits(view, game, mask)
        mask = np.asarray(mask, dtype=bool)
        if mask.shape != logits.shape:
            raise ValueError(
                f"policy {self.path} has {logits.size} actions, the game's mask {mask.size} (different game "
                f"options?){self._shipped_hint()}"
            )
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("no legal action: the mask is all zeros")
        z = logits[legal]
        self._last = (legal, z)
        if self.deterministic:
            return int(legal[int(np.argmax(z))])
        p = np.exp(z - z.max())
        p /= p.sum()
        return int(
            legal[min(int(np.searchsorted(np.cumsum(p), self.rng.random() * p.sum())), legal.size - 1)]
        )

    def _shipped_hint(self) -> str:
        """For a size mismatch: the game's shipped policies and the options each was trained with, since a game
        option (Six-card Perico's ``six_card``) can change the sizes and another shipped policy plays it."""
        game = self._net.meta["game"]
        listed = [f"{name} ({dict(read_policy(path).document.get('options') or {})})"
                  for name, path in shipped_policies(game).items()]  # fmt: skip
        return f"; the policies shipped for {game}, with their options: {', '.join(listed)}" if listed else ""

    def decision_details(self) -> dict | None:
        """The policy's probabilities over the legal actions of the latest decision (softmax of their logits)."""
        if self._last is None:
            return None
        legal, z = self._last
        p = np.exp(z - z.max())
        p /= p.sum()
        return details("probabilities", legal.tolist(), p.tolist())

    def _encode(self, view: View, game: Game | None) -> np.ndarray:
        """The view as the policy was trained to see it: the live game's encoding, or the policy's own game's
        where the two layouts differ only by pieces one of them appends (an option such as Breed the Heifer's
        ``action_counts``, whose facts every view carries): then the policy sees what it was trained on."""
        if game is None or _extends(game.observation_schema, self._encoder.observation_schema):
            game = self._encoder
        return np.asarray(game.encode(view), dtype=np.float32)

    # Snapshots travel to worker processes and into checkpoints by path, not by weights.
    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_net"] = None
        state["_encoder"] = None
        state["_last"] = None
        state["_prior"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._load()


def trained_game(net: PolicyNet, path: str | Path, env_name: str | None = None) -> Game:
    """A game of the policy's game and options (``probe_game``), checked against its network: the document's
    sizes must be those of its game with its options (a file cannot lie about them)."""
    probe = probe_game(net.meta, env_name)
    if (probe.observation_size, probe.num_actions) != (net.observation_size, net.num_actions):
        raise PolicyFileError(
            f"policy {path}: its network takes {net.observation_size} inputs and gives {net.num_actions} actions, "
            f"but {net.meta.get('game') or env_name} with its options has {probe.observation_size} and "
            f"{probe.num_actions}"
        )
    return probe


def _extends(a: Schema, b: Schema) -> bool:
    """Whether one of two different layouts is the other followed by more pieces (at every decision: the usual
    case, the very same cached schema, is answered by identity without comparing pieces)."""
    return a is not b and a != b and (a.starts_with(b) or b.starts_with(a))


def check_observation(trained: Game, live: Game, what: str) -> None:
    """A ValueError naming ``what`` unless a policy trained on ``trained``'s observation can play ``live``.

    It can when the sizes are the same (as before options that extend the observation existed), and when
    ``live``'s layout is ``trained``'s followed by more pieces: an option that only adds to what a seat is shown,
    such as Breed the Heifer's ``action_counts``. The policy then reads the first ``trained.observation_size``
    entries, exactly what it was trained on, so a policy trained without the option sits at the option's tables.
    """
    if trained.num_actions == live.num_actions and (
        trained.observation_size == live.observation_size
        or live.observation_schema.starts_with(trained.observation_schema)
    ):
        return
    raise ValueError(
        f"{what} takes {trained.observation_size} observation entries and {trained.num_actions} actions; "
        f"{spec(live.NAME).env_id} with these options has {live.observation_size} and {live.num_actions}, and its "
        "observation does not begin with the policy's (different game options?)"
    )


def probe_game(meta: Mapping[str, Any], env_name: str | None = None) -> Game:
    """A game of a policy document's game and options (``env_name`` where the document names no game): its
    sizes and encoder, and its ``config``, the options with every default filled in."""
    name = meta.get("game") or env_name
    if name is None:
        raise ValueError("cannot encode a view without the game: pass game= to act()")
    return game_class(name)(seed=0, **dict(meta.get("options") or {}))
