"""``pimc_batched``: the PIMC of ``agents/search.py`` with its playouts run in the batched engine.

``PimcAgent`` plays every (world, candidate) pair out one at a time on scalar
clones; here each decision loads all of them at once into the rows of a
batched env and plays them out together with the batched port of the rollout
agent. Everything else is ``PimcAgent``'s: the worlds come from the scalar
``game.determinize(me, rng)``, ``max(min_samples, budget // candidates)`` of
them, every candidate sees the same worlds, the choice is the best total
return to the end of the unit (hand, deal) under way, ties to the first
candidate, and ``bid_budget``, the decision details and seeding are the same.

One decision: W worlds, C candidates, W x C rows (row ``w * C + c`` is world w
after candidate c), loaded by ``envs.batched.loading.load_games``. In a game
whose unit draws nothing after its deal (Breed the Heifer's hand) the rows keep
their own generators; where a unit shuffles on its way (``WORLD_CHANCE``:
Perico reshuffles the pile into an empty stock) every row draws from its
world's own chance, so that the candidates of a world meet the same shuffles,
as ``PimcAgent``'s clones of the world do. The candidates
are applied in one step, then the rows still in their unit are stepped
together, the rollout agent deciding every seat of every row at once
(``act(env, rows)``), until each has left its unit; a row's return is the sum
of the searching seat's rewards over its steps.

``rollout``: the scalar agent spec whose batched port plays out (the table of
``agents.batched.ported_agents``; Breed the Heifer: ``equity``, with its
arguments); ``sampler``: passed to a port that has samplers (Heifer's equity:
``fast``, the default, or ``scalar``). ``paired_rollouts``: the rows of one
world start the rollout agent's generators alike, from the seed the scalar
``PimcAgent`` would draw for that world (it costs a generator per row and
decision); unpaired, every row's generator runs on from one decision to the
next (seeded with the agent). With ``sampler=scalar`` the port makes
the scalar agent's very draws, so ``pimc_batched(sampler=scalar)`` returns the
values, and makes the choices, of ``pimc`` with the same seed, exactly
(``tests/agents/test_search_batched.py``); the fast sampler decides with the
same distribution, faster.

``phases``: the phases it searches, ``/``-separated (Perico's ``turn/discard``);
in the others the rollout agent decides as itself (None: it searches every
phase). A composite splits only the bidding phases off; this splits any.

Not supported (refused by name): ``seconds`` (all worlds are played in one
batch) and ``horizon=episode``.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence

import numpy as np

from pokerzoo.agents.base import Agent
from pokerzoo.agents.batched import ported_agents
from pokerzoo.agents.search import PimcAgent
from pokerzoo.envs import batched
from pokerzoo.envs.batched import loading
from pokerzoo.envs.batched.core import BatchedEnv
from pokerzoo.envs.engine.game import Game

# Rows of the batched envs an agent keeps (one per options and size); a decision beyond it is refused.
MAX_ROWS = 1_000_000


def _parse_spec(text: str) -> tuple[str, dict]:
    # Deferred: the registry imports this module's agent (through the Heifer agents module), a cycle at the top
    from pokerzoo.agents.registry import parse_call

    return parse_call(text)


def rollout_port(game: str, spec: str, sampler: str | None, who: str = "pimc_batched"):
    """The batched port of the rollout agent ``spec`` (``equity(simulations=20)``) in ``game``, seeded 0, with
    ``sampler`` where the port has samplers; a ValueError naming ``who`` asks and the ported agents otherwise."""
    name, kwargs = _parse_spec(spec)
    ports = ported_agents(game)
    if name not in ports:
        raise ValueError(
            f"{who}: rollout {spec!r} has no batched port in {game}; "
            f"ported agents: {', '.join(ports) or 'none'}"
        )
    cls = ports[name]
    if sampler is not None and "sampler" in inspect.signature(cls).parameters:
        kwargs = {**kwargs, "sampler": sampler}
    try:
        return cls(seed=0, **kwargs)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{who}: rollout {spec!r}: {exc}") from None


def playout_returns(env: BatchedEnv, rows: np.ndarray, actions: np.ndarray, seats: np.ndarray, port) -> np.ndarray:
    """Each row's return to seat ``seats[k]`` from its decision to the end of its unit: ``actions[k]`` first,
    then ``port`` deciding every seat of the rows still in their unit, stepped together. Returned in the order
    of ``rows``, in the rewards' dtype (the playouts of one PIMC decision's worlds and candidates, or of many's)."""
    index = np.full(env.num_envs, -1, dtype=np.int64)
    index[rows] = np.arange(rows.size)
    unit = loading.unit_index(env, rows).copy()
    _, _, rewards, done, _ = env.step(actions, rows=rows)
    total = rewards[rows, seats].copy()
    live = ~done[rows] & (loading.unit_index(env, rows) == unit)
    while live.any():
        stepped = rows[live]
        k = index[stepped]
        _, _, rewards, done, _ = env.step(port.act(env, stepped), rows=stepped)
        total[k] += rewards[stepped, seats[k]]
        live[k] = ~done[stepped] & (loading.unit_index(env, stepped) == unit[k])
    return total


class BatchedPimcAgent(PimcAgent):
    """PIMC whose playouts run in the batched engine (module docstring)."""

    name = "pimc_batched"
    DEFAULT_BUDGET = 128
    WORLD_CHANCE = False  # load each world's chance into its rows (a game whose unit shuffles on its way)
    PHASES: tuple[str, ...] | None = None  # the game's decision phases, to check ``phases`` against (None: unchecked)

    def __init__(
        self,
        seed: int | None = None,
        budget: int | None = None,
        bid_budget: int | None = None,
        min_samples: int = 4,
        rollout: Agent | None = None,
        sampler: str | None = "fast",
        paired_rollouts: bool = True,
        seconds: float | None = None,
        horizon: str | None = None,
        phases: str | None = None,
    ):
        if phases is not None and (
            not isinstance(phases, str) or not all(p.isidentifier() for p in phases.split("/"))
        ):
            raise ValueError(f"argument phases={phases!r}: expected phase names separated by '/', e.g. turn/discard")
        self.phases = None if phases is None else frozenset(phases.split("/"))
        unknown = sorted((self.phases or set()) - set(self.PHASES or self.phases or ()))
        if unknown:
            raise ValueError(f"argument phases={phases!r}: no phase {unknown[0]!r}; phases: {'/'.join(self.PHASES)}")
        if seconds is not None:
            raise ValueError(
                f"argument seconds={seconds!r}: pimc_batched plays all its worlds in one batch; give budget instead"
            )
        if horizon not in (None, "unit"):
            raise ValueError(f"argument horizon={horizon!r}: pimc_batched searches to the end of the unit only")
        if rollout is None:
            raise ValueError("argument rollout: pimc_batched needs a rollout agent with a batched port, e.g. equity")
        if sampler is not None and not isinstance(sampler, str):
            raise ValueError(f"argument sampler={sampler!r}: expected a sampler name such as fast or scalar")
        self.sampler = sampler
        super().__init__(
            seed, budget=budget, bid_budget=bid_budget, min_samples=min_samples, rollout=rollout,
            paired_rollouts=paired_rollouts,
        )  # fmt: skip
        self.last_rows = 0

    def seed(self, seed: int | None) -> None:
        """``PimcAgent.seed``; unpaired, the rollout ports restart their rows' generators from the same seed."""
        self._engines: dict[tuple, tuple[BatchedEnv, object]] = getattr(self, "_engines", {})
        super().seed(seed)
        theirs = np.random.SeedSequence(seed).spawn(2)[1]
        self._rollout_seed = int(theirs.generate_state(1, np.uint64)[0] >> 1)
        for _, port in self._engines.values():
            port.seed(self._rollout_seed)

    # ------------------------------------------------------------------ the batched rollout agent
    def _port(self, game: Game):
        """The batched port of the rollout agent for this game, built from the rollout's spec."""
        return rollout_port(game.NAME, self.rollout.name, self.sampler)

    def _engine(self, game: Game, rows: int) -> tuple[BatchedEnv, object]:
        """A batched env of exactly ``rows`` rows with the game's options, and the rollout port (kept for reuse)."""
        if rows > MAX_ROWS:
            raise ValueError(f"pimc_batched: {rows:,} rows in one decision is over the limit of {MAX_ROWS:,}")
        key = (game.NAME, tuple(sorted((k, repr(v)) for k, v in game.config.items())), rows)
        found = self._engines.get(key)
        if found is None:
            loading.loader(game.NAME)  # a clear error for a game whose kernel cannot load a game
            env = batched.make(game.NAME, num_envs=rows, copy=False, **game.config)
            env.reset(seed=0)
            port = self._port(game)
            port.seed(self._rollout_seed)
            found = self._engines[key] = (env, port)
        return found

    # ------------------------------------------------------------------ PIMC
    def act(self, view, mask: np.ndarray, game: Game | None = None) -> int:
        """``PimcAgent.act`` in the phases searched; in the others the rollout agent's own decision."""
        if self.phases is not None and view.phase not in self.phases:
            self._details = None
            return self.rollout.act(view, mask, game)
        return super().act(view, mask, game)

    def values(self, game: Game, me: int, candidates: Sequence[int], budget: int | None) -> np.ndarray:
        """Total return of each candidate over the sampled worlds (``PimcAgent.values``, played out batched)."""
        c = len(candidates)
        worlds_count = max(self.min_samples, budget // c)
        worlds, seeds = [], []
        for _ in range(worlds_count):  # the same draws from self.rng as PimcAgent.values
            world = game.determinize(me, self.rng)
            worlds.append(world)
            seeds.append(int(self.rng.integers(2**63 - 1)) if self.paired_rollouts else None)
        rows_count = worlds_count * c
        env, port = self._engine(game, rows_count)
        rows = env.all_rows
        loading.load_games(env, rows, worlds, repeat=c, chance=self.WORLD_CHANCE)
        if self.paired_rollouts:  # else the rows' generators run on from decision to decision
            port.seed([s for s in seeds for _ in range(c)])
        first = np.tile(np.asarray(candidates, dtype=np.int64), worlds_count)
        total = playout_returns(env, rows, first, np.full(rows_count, me), port)
        self.last_worlds = worlds_count
        self.last_rows = rows_count
        return total.reshape(worlds_count, c).sum(axis=0)


__all__ = ["BatchedPimcAgent", "playout_returns", "rollout_port"]
