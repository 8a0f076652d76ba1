"""A Stable-Baselines3 ``VecEnv`` with several envs per worker process, and the masks passed along.

SB3's ``SubprocVecEnv`` gives every env its own process. Card-game envs step
in tens of microseconds while one policy forward pass costs about a
millisecond whatever the batch size, so training wants many envs (a large
batch per forward pass) but only as many processes as there are cores: more
processes than cores only add context switches and pipe round trips. Here
``num_envs`` envs are split over ``workers`` processes; each step sends every
worker its slice of the actions and gets back all its results in one message.

Every ``SingleSeatEnv`` puts the mask of its next decision into ``info`` (and
the reset info), so MaskablePPO's per-step ``env_method("action_masks")`` is
answered from those, without another round trip to every worker.

Semantics are SubprocVecEnv's: auto-reset on ``done`` with
``info["terminal_observation"]``, ``TimeLimit.truncated``, seeds and options
used once at the next ``reset()``; ``env_method``/``get_attr``/``set_attr``
address envs by index. Workers are started with ``forkserver`` (as SB3 does).
"""

from __future__ import annotations

import multiprocessing as mp
import multiprocessing.connection as mp_connection
import os
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.env_util import is_wrapped
from stable_baselines3.common.vec_env.base_vec_env import CloudpickleWrapper, VecEnv, VecEnvIndices

from pokerzoo.evaluation.processes import ignore_sigint, sigint_ignored

OWNER_POLL_SECONDS = 1.0


def _exit_with_owner(owner_pid: int) -> None:
    """End this worker once the process that owns the VecEnv is gone.

    A worker only notices a dead owner at its next pipe message, and some
    calls last many minutes (an imitation's ``teacher_rollout``): without this,
    killing ``pokerzoo train`` would leave its workers computing for nobody.
    """
    while True:
        time.sleep(OWNER_POLL_SECONDS)
        try:
            os.kill(owner_pid, 0)
        except ProcessLookupError:
            os._exit(1)
        except PermissionError:  # the pid now belongs to another user's process: the owner is gone
            os._exit(1)


class _Reporter:
    """A worker's ``progress`` callback: counts, and sends the count home at most every half second."""

    def __init__(self, remote, every: float = 0.5):
        self.remote, self.every = remote, every
        self.pending, self.last = 0, time.monotonic()

    def __call__(self, k: int) -> None:
        self.pending += k
        now = time.monotonic()
        if now - self.last >= self.every:
            self.flush()
            self.last = now

    def flush(self) -> None:
        if self.pending:
            self.remote.send(("progress", self.pending))
            self.pending = 0


def _worker(remote, parent_remote, fns_wrapper: CloudpickleWrapper, owner_pid: int | None = None) -> None:
    ignore_sigint()  # Ctrl-C is the trainer's to handle: it stops the workers (terminate)
    parent_remote.close()
    if owner_pid is not None:
        threading.Thread(target=_exit_with_owner, args=(owner_pid,), daemon=True).start()
    envs = [fn() for fn in fns_wrapper.var]
    while True:
        try:
            cmd, data = remote.recv()
        except EOFError:
            break
        if cmd == "step":
            out = []
            for env, action in zip(envs, data):
                obs, reward, terminated, truncated, info = env.step(action)
                done = terminated or truncated
                info["TimeLimit.truncated"] = truncated and not terminated
                reset_info = None
                if done:
                    info["terminal_observation"] = obs
                    obs, reset_info = env.reset()
                out.append((obs, reward, done, info, reset_info))
            remote.send(out)
        elif cmd == "reset":
            out = []
            for env, (seed, options) in zip(envs, data):
                out.append(env.reset(seed=seed, **({"options": options} if options else {})))
            remote.send(out)
        elif cmd == "env_method":
            name, args, kwargs, local = data
            remote.send([getattr(envs[i], name)(*args, **kwargs) for i in local])
        elif cmd == "env_method_each":
            name, calls, with_progress = data
            if with_progress:  # progress messages first, then the results
                reporter = _Reporter(remote)
                results = [getattr(envs[i], name)(*args, progress=reporter) for i, args in calls]
                reporter.flush()
                remote.send(("result", results))
            else:
                remote.send([getattr(envs[i], name)(*args) for i, args in calls])
        elif cmd == "get_attr":
            name, local = data
            remote.send([getattr(envs[i], name) for i in local])
        elif cmd == "has_attr":
            remote.send(all(hasattr(env, data) for env in envs))
        elif cmd == "set_attr":
            name, value, local = data
            for i in local:
                setattr(envs[i], name, value)
            remote.send(None)
        elif cmd == "is_wrapped":

            cls, local = data
            remote.send([is_wrapped(envs[i], cls) for i in local])
        elif cmd == "get_spaces":
            remote.send((envs[0].observation_space, envs[0].action_space))
        elif cmd == "close":
            for env in envs:
                env.close()
            remote.close()
            break
        else:
            raise NotImplementedError(f"unknown command {cmd!r}")


class WorkerVecEnv(VecEnv):
    """``len(env_fns)`` envs in ``workers`` processes (contiguous slices of the envs per worker)."""

    def __init__(self, env_fns: Sequence[Callable[[], gym.Env]], workers: int, start_method: str = "forkserver"):
        n = len(env_fns)
        if n < 1:
            raise ValueError("at least one env is needed")
        workers = max(1, min(int(workers), n))
        self.waiting = False
        self.closed = False
        bounds = np.linspace(0, n, workers + 1).round().astype(int)
        self.slices = [range(bounds[w], bounds[w + 1]) for w in range(workers)]
        self.where = [(w, i - s.start) for w, s in enumerate(self.slices) for i in s]
        ctx = mp.get_context(start_method)
        self.remotes, work_remotes = zip(*[ctx.Pipe() for _ in range(workers)])
        self.processes = []
        with sigint_ignored():
            for w, (work_remote, remote) in enumerate(zip(work_remotes, self.remotes)):
                fns = [env_fns[i] for i in self.slices[w]]
                p = ctx.Process(
                    target=_worker, args=(work_remote, remote, CloudpickleWrapper(fns), os.getpid()), daemon=True
                )
                p.start()
                self.processes.append(p)
                work_remote.close()
        self.remotes[0].send(("get_spaces", None))
        observation_space, action_space = self.remotes[0].recv()
        self._masks: np.ndarray | None = None
        super().__init__(n, observation_space, action_space)

    # ------------------------------------------------------------------ stepping
    def step_async(self, actions: np.ndarray) -> None:
        for remote, s in zip(self.remotes, self.slices):
            remote.send(("step", [actions[i] for i in s]))
        self.waiting = True

    def step_wait(self):
        results = [r for remote in self.remotes for r in remote.recv()]
        self.waiting = False
        obs, rewards, dones, infos, reset_infos = zip(*results)
        self.reset_infos = [ri if ri is not None else old for ri, old in zip(reset_infos, self.reset_infos)]
        self._masks = _masks([ri if d else info for d, info, ri in zip(dones, infos, self.reset_infos)])
        return np.stack(obs), np.array(rewards, dtype=np.float64), np.array(dones, dtype=bool), list(infos)

    def reset(self):
        for remote, s in zip(self.remotes, self.slices):
            remote.send(("reset", [(self._seeds[i], self._options[i]) for i in s]))
        results = [r for remote in self.remotes for r in remote.recv()]
        obs, infos = zip(*results)
        self.reset_infos = list(infos)
        self._masks = _masks(self.reset_infos)
        self._reset_seeds()
        self._reset_options()
        return np.stack(obs)

    def close(self) -> None:
        if self.closed:
            return
        if self.waiting:
            for remote in self.remotes:
                remote.recv()
        for remote in self.remotes:
            remote.send(("close", None))
        for p in self.processes:
            p.join()
        for remote in self.remotes:
            remote.close()
        self.closed = True

    def terminate(self) -> None:
        """Stop the workers now, whatever they are doing (Ctrl-C, an error): no waiting for their answers."""
        if self.closed:
            return
        for p in self.processes:
            p.terminate()
        for p in self.processes:
            p.join(timeout=5)
        for remote in self.remotes:
            remote.close()
        self.closed = True

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None] * self.num_envs

    # ------------------------------------------------------------------ by index
    def _by_worker(self, indices: VecEnvIndices) -> dict[int, list[int]]:
        groups: dict[int, list[int]] = {}
        for i in self._get_indices(indices):
            w, local = self.where[i]
            groups.setdefault(w, []).append(local)
        return groups

    def _gather(self, cmd: str, make_data: Callable[[list[int]], Any], indices: VecEnvIndices) -> list[Any]:
        groups = self._by_worker(indices)
        for w, local in groups.items():
            self.remotes[w].send((cmd, make_data(local)))
        answers = {w: self.remotes[w].recv() for w in groups}
        by_env = {}
        for w, local in groups.items():
            for li, value in zip(local, answers[w]):
                by_env[self.slices[w].start + li] = value
        return [by_env[i] for i in self._get_indices(indices)]

    def env_method(self, method_name: str, *args, indices: VecEnvIndices = None, **kwargs) -> list[Any]:
        if method_name == "action_masks" and self._masks is not None and not args and not kwargs:
            return [self._masks[i] for i in self._get_indices(indices)]
        if method_name == "set_state":
            self._masks = None  # the envs change under us: ask them again
        return self._gather("env_method", lambda local: (method_name, args, kwargs, local), indices)

    def call_each(
        self, method_name: str, args_per_env: Sequence[tuple], progress: Callable[[int], None] | None = None
    ) -> list[Any]:
        """Call ``method_name`` on every env with its own arguments, the workers in parallel.

        With ``progress``, the method gets a ``progress`` keyword argument too, and what the workers
        report through it reaches ``progress`` here while they work (a progress bar in this process).
        """
        if len(args_per_env) != self.num_envs:
            raise ValueError(f"call_each needs one argument tuple per env ({self.num_envs})")
        groups = self._by_worker(None)
        for w, local in groups.items():
            start = self.slices[w].start
            calls = [(li, args_per_env[start + li]) for li in local]
            self.remotes[w].send(("env_method_each", (method_name, calls, progress is not None)))
        if progress is None:
            answers = {w: self.remotes[w].recv() for w in groups}
        else:
            answers, waiting = {}, {self.remotes[w]: w for w in groups}
            while waiting:
                for remote in mp_connection.wait(list(waiting)):
                    kind, value = remote.recv()
                    if kind == "progress":
                        progress(value)
                    else:
                        answers[waiting.pop(remote)] = value
        self._masks = None  # the envs moved on: ask them again
        return [a for w in sorted(answers) for a in answers[w]]

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return self._gather("get_attr", lambda local: (attr_name, local), indices)

    def has_attr(self, attr_name: str) -> bool:
        for remote in self.remotes:
            remote.send(("has_attr", attr_name))
        return all([remote.recv() for remote in self.remotes])

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        groups = self._by_worker(indices)
        for w, local in groups.items():
            self.remotes[w].send(("set_attr", (attr_name, value, local)))
        for w in groups:
            self.remotes[w].recv()

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        return self._gather("is_wrapped", lambda local: (wrapper_class, local), indices)

    def set_masks(self, masks: np.ndarray | None) -> None:
        """Restore the cached masks (exact resume: the envs' states were set from a checkpoint)."""
        self._masks = None if masks is None else np.array(masks, dtype=bool)


def _masks(infos: Sequence[dict]) -> np.ndarray | None:
    if not all("action_mask" in info for info in infos):
        return None
    return np.stack([np.asarray(info["action_mask"], dtype=bool) for info in infos])
