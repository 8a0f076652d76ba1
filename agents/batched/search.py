"""``pimc`` for every row at once: PIMC deciding many games' decisions in one batched playout.

``pimc_batched`` (``agents/search_batched.py``) plays one decision's worlds out
together; a batched opponent (``act(env, rows)``: a league member, one side
of a batched match) has a decision waiting in every row it is asked for.
``PimcOpponent`` samples the worlds of all of them straight from the env's
state arrays, loads them side by side into one scratch env, and plays every
world of every decision out in one loop (``playout_returns``, the one
``pimc_batched`` uses), so a step's searches cost one batched playout (or a
few, in order, where they need more than ``MAX_ROWS`` rows).

Row r decides as ``PimcAgent(seed=s + r)`` (``seed=s``) deciding every
decision of row r in turn: the same draws from the same generator in the
same order. For each decision with more than one legal action (the
candidates, ascending) it takes ``max(min_samples, budget // candidates)``
worlds, each drawn as ``Game.determinize`` draws it (a seed for the world's
chance, which nothing here reads, then one permutation of the sorted hidden
cards over the places the seat cannot see, in the scalar ``_redeal``'s
order: the game's ``hidden_places``), then the rollout seed of the world's
candidates (``paired_rollouts``, the only mode). Each (world, candidate)
row is played out by the rollout agent's batched port to the end of the
unit under way; the choice is the best total return, ties to the first
candidate. With ``sampler="scalar"`` the rollout port makes the scalar
rollout agent's own draws, so every decision, and every value, is the
scalar ``pimc``'s (``tests/agents/test_batched_pimc.py`` checks it decision
by decision); with ``"fast"`` (default) the playouts, and so the decisions,
have the same distribution, faster.

A game takes it where its loader (``envs.batched.loading.LOADERS``) can copy
rows and re-deal what a seat cannot see in them (``copy_rows``,
``hidden_places``, ``hidden_cards``, ``write_hidden``, ``finish_rows``):
Breed the Heifer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from pokerzoo.agents.search import PimcAgent, check_int
from pokerzoo.agents.search_batched import MAX_ROWS, playout_returns, rollout_port
from pokerzoo.envs import batched
from pokerzoo.envs.batched import loading
from pokerzoo.envs.batched.core import BatchedEnv

SEED_BOUND = 2**63 - 1  # what ``determinize`` and ``PimcAgent`` draw seeds below


class Search(NamedTuple):
    """One decision to search: ``rows[k]`` of the call, its env row, the seat, its candidates, its worlds."""

    k: int
    row: int
    seat: int
    candidates: np.ndarray
    worlds: int

    @property
    def rows(self) -> int:
        """Scratch rows it plays out: one per (world, candidate)."""
        return self.worlds * self.candidates.size


class PimcOpponent:
    """``PimcAgent`` for every row at once (module docstring). ``rollout``: the scalar rollout agent's spec (its
    batched port plays out), ``budget`` and ``min_samples`` as the scalar agent's, ``sampler`` for the rollout
    port; ``seed``: an int s gives row r the generator of ``PimcAgent(seed=s + r)``, None fresh ones."""

    name = "pimc"

    # the game's scalar ``pimc`` defaults (its ``SEARCH_DEFAULTS``): ``budget`` and ``rollout`` where not given
    DEFAULTS: Mapping[str, Any] = {}

    def __init__(
        self,
        seed: int | None = None,
        budget: int | None = None,
        min_samples: int = 4,
        rollout: str | None = None,
        sampler: str | None = "fast",
        paired_rollouts: bool = True,
    ):
        budget = self.DEFAULTS.get("budget", PimcAgent.DEFAULT_BUDGET) if budget is None else budget
        rollout = self.DEFAULTS.get("rollout") if rollout is None else rollout
        self.budget = check_int("budget", budget, 1)
        self.min_samples = check_int("min_samples", min_samples, 1, 100_000)  # as the scalar agent's
        if paired_rollouts is not True:
            raise ValueError(
                f"argument paired_rollouts={paired_rollouts!r}: the batched pimc pairs its rollouts (true) only"
            )
        if not isinstance(rollout, str):
            raise ValueError(f"argument rollout={rollout!r}: expected an agent spec such as equity(simulations=20)")
        if sampler is not None and not isinstance(sampler, str):
            raise ValueError(f"argument sampler={sampler!r}: expected a sampler name such as fast or scalar")
        self.rollout = rollout
        self.sampler = sampler
        self._scratch: dict[tuple, tuple[BatchedEnv, object]] = {}
        self.last_rows = 0  # scratch rows of the latest act
        self.last_returns = np.empty(0)  # their playouts' returns, decision by decision, world-major
        self.seed(seed)

    def seed(self, seed: int | None) -> None:
        """Row r's generator becomes ``PimcAgent(seed=seed + r)``'s (made on first use)."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | np.integer)):
            raise TypeError(f"seed: an int or None, got {type(seed).__name__}")
        self._seed = None if seed is None else int(seed)
        self._rngs: dict[int, np.random.Generator] = {}

    def _rng(self, row: int) -> np.random.Generator:
        found = self._rngs.get(row)
        if found is None:
            mine = np.random.SeedSequence(None if self._seed is None else self._seed + row).spawn(2)[0]
            found = self._rngs[row] = np.random.default_rng(mine)  # as SearchAgent.seed makes its own
        return found

    def _engine(self, env: BatchedEnv, rows: int) -> tuple[BatchedEnv, object]:
        """A scratch env of at least ``rows`` rows with ``env``'s game and options, and the rollout port."""
        key = (env.name, tuple(sorted((k, repr(v)) for k, v in env.config.items())), env.parallel)
        found = self._scratch.get(key)
        if found is None or found[0].num_envs < rows:
            size = min(max(64, 1 << (rows - 1).bit_length()), max(rows, MAX_ROWS))  # room to grow into
            scratch = batched.make(env.name, size, parallel=env.parallel, copy=False, **env.config)
            scratch.reset(seed=0)
            port = found[1] if found else rollout_port(env.name, self.rollout, self.sampler, self.name)
            found = self._scratch[key] = (scratch, port)
        return found

    def act(self, env: BatchedEnv, rows: np.ndarray) -> np.ndarray:
        rows = np.asarray(rows, dtype=np.int64)
        world = loading.loader(env.name)  # a clear error for a game whose kernel cannot load rows at all
        if not hasattr(world, "hidden_places"):
            raise ValueError(f"pimc: {env.name}'s batched rows cannot be re-dealt yet (Breed the Heifer's can)")
        out = np.empty(rows.size, dtype=np.int64)
        searched: list[Search] = []
        for k, row in enumerate(rows.tolist()):
            candidates = np.flatnonzero(env.out.mask[row])
            if candidates.size == 1:
                out[k] = candidates[0]
                continue
            worlds = max(self.min_samples, self.budget // candidates.size)
            if worlds * candidates.size > MAX_ROWS:
                raise ValueError(
                    f"pimc: one decision of {worlds * candidates.size:,} rows is over the limit of {MAX_ROWS:,}; "
                    "lower budget"
                )
            searched.append(Search(k, row, int(env.out.player[row]), candidates, worlds))
        self.last_rows = sum(s.rows for s in searched)
        returns = []
        batch: list[Search] = []
        held = 0  # the rows of ``batch``
        for search in [*searched, None]:  # as many decisions at once as MAX_ROWS rows hold, in order
            if batch and (search is None or held + search.rows > MAX_ROWS):
                returns.append(self._search(env, world, batch, out))
                batch, held = [], 0
            if search is not None:
                batch.append(search)
                held += search.rows
        self.last_returns = np.concatenate(returns) if returns else np.empty(0)
        return out

    def _search(self, env: BatchedEnv, world, searched: list[Search], out: np.ndarray) -> np.ndarray:
        """The decisions ``searched`` in one batched playout: each choice into ``out``; the playouts' returns."""
        total = sum(s.rows for s in searched)
        scratch, port = self._engine(env, total)
        into = np.arange(total, dtype=np.int64)
        world.copy_rows(env, np.repeat([s.row for s in searched], [s.rows for s in searched]), scratch, into)
        first = np.empty(total, dtype=np.int64)
        seats = np.empty(total, dtype=np.int64)
        seeds = np.zeros(scratch.num_envs, dtype=np.uint64)
        start = 0
        for s in searched:
            c = s.candidates.size
            mine = into[start : start + s.rows]
            places = world.hidden_places(env, s.row, s.seat)
            pool = np.sort(world.hidden_cards(env, s.row, places))
            rng = self._rng(s.row)
            deals = np.empty((s.worlds, pool.size), dtype=np.int64)
            for w in range(s.worlds):  # determinize's draws (the world's chance seed, unused here), then pimc's
                rng.integers(SEED_BOUND)
                deals[w] = pool[rng.permutation(pool.size)]
                seeds[mine[w * c : (w + 1) * c]] = rng.integers(SEED_BOUND)
            world.write_hidden(scratch, mine, places, np.repeat(deals, c, axis=0))
            first[mine] = np.tile(s.candidates, s.worlds)
            seats[mine] = s.seat
            start += s.rows
        world.finish_rows(scratch, into)
        port.seed([int(x) for x in seeds])
        returns = playout_returns(scratch, into, first, seats, port)
        start = 0
        for s in searched:
            totals = returns[start : start + s.rows].reshape(s.worlds, s.candidates.size).sum(axis=0)
            out[s.k] = s.candidates[int(np.argmax(totals))]
            start += s.rows
        return returns

__all__ = ["PimcOpponent"]
