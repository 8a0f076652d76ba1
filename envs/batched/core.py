"""``BatchedEnv``: N games of one kind stepped at once by a game's compiled kernel.

The env owns fixed-shape numpy arrays and does, once for every game, what
needs no compiling: option validation (the game's own ``OPTIONS``), seeding,
checking the actions (nothing changes when one is bad), and choosing the
serial or the parallel loop. A game contributes a ``GameKernel`` subclass
(``envs/<game>/kernel.py``) with its state arrays, its constants and two
compiled loops; ``envs/batched/README.md`` describes the contract.

Per row the arrays hold exactly one running game. ``step`` applies one
action in each stepped row; a row whose game ends starts its next game in the
same call (auto-reset), so ``obs``/``mask``/``current_player`` always describe
a decision waiting to be made. Rewards of a finished game are in its last
step. A game that scores before its first decision (Perico: a royal flush
dealt in the first round, which the scalar env reports at ``reset``) puts
what it earned as it started in ``start_rewards`` (float64[N, num_players]),
never in the step's ``rewards``: after ``reset`` it holds every row's, after
``step`` those of the rows whose new game started in that step (zero in the
others, and always zero in games whose start cannot score). The
differential kit compares it with the scalar env's rewards after ``reset``.

Seeds: ``reset(seed=[s_0, ..., s_{N-1}])`` seeds row i like
``raw_env.reset(seed=s_i)`` (``np.random.default_rng(s_i)``); ``reset(seed=s)``
gives row i the seed ``s + i`` (gymnasium's ``SyncVectorEnv`` convention);
``reset()`` continues every row's generator (a fresh unpredictable seed per
row the first time), like the scalar env's ``reset()`` without a seed. After
a game ends, the row's next game continues the row's generator exactly as the
scalar env's next ``reset()`` does, so row i's k-th game after
``reset(seed=s)`` is the scalar env's k-th game after ``reset(seed=s + i)``.

``reset(options={"chance": [c_0, ..., c_{N-1}]})`` plays row i's first game on
the ``Chance``/``ScriptedChance`` ``c_i`` (None: the row's own generator), as
``raw_env.reset(options={"chance": c_i})`` does; the row's own generator
resumes with its next game.

Stepping only some rows (adapters advancing the opponents' turns) is part of
the API: ``step(actions, rows=...)`` with ``rows`` an int array of distinct row
indices (or a bool mask over the rows) and ``actions`` aligned with it; the
other rows keep their observation, mask and player, and get zero rewards and
``done=False``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, NamedTuple

import numpy as np

from pokerzoo.envs.batched import chance as chance_lib
from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.engine.game import Game, IllegalActionError

RUNNING, TERMINATED, TRUNCATED = 0, 1, 2  # row status after a step (``out.status``)
START = -1  # the action that starts a new game in a row (``reset``)
CHUNK = 64  # rows per task of the parallel loops
# Fewer stepped rows than this run on the serial loop even with ``parallel=True``: waking the
# thread pool costs more than it saves (and, on a loaded machine, a whole scheduler time slice).
PARALLEL_MIN_ROWS = 4 * CHUNK


class Outputs(NamedTuple):
    """What the kernels write for every row they touch."""

    obs: np.ndarray  # float32[N, observation_size]: the observation of the player to act
    mask: np.ndarray  # bool[N, num_actions]: that player's legal actions
    player: np.ndarray  # int64[N]: the player to act
    rewards: np.ndarray  # float64[N, num_players]: earned in this step, per seat
    status: np.ndarray  # int8[N]: RUNNING, or how the game of this step ended
    # float64[N, num_players]: earned by the game that started in the row in this call, before its
    # first decision; written only by kernels whose start can score (the row loop zeroes its row first)
    start_rewards: np.ndarray


def new_outputs(n: int, observation_size: int, num_actions: int, num_players: int) -> Outputs:
    return Outputs(
        obs=np.zeros((n, observation_size), dtype=np.float32),
        mask=np.zeros((n, num_actions), dtype=np.bool_),
        player=np.zeros(n, dtype=np.int64),
        rewards=np.zeros((n, num_players), dtype=np.float64),
        status=np.zeros(n, dtype=np.int8),
        start_rewards=np.zeros((n, num_players), dtype=np.float64),
    )


class GameKernel:
    """What a game provides to be batched; subclass it in ``envs/<game>/kernel.py``.

    * ``game_class``: the scalar ``Game`` (options, sizes and action names come from it);
    * ``make_params(config)``: a NamedTuple of constants (ints, floats, arrays) the
      kernels read: the game's options and its lookup tables;
    * ``new_state(n)``: a NamedTuple of arrays with one row per game, the whole state;
    * optionally ``privileged_size`` and ``privileged(state, rows, seats)``: what
      each seat cannot see, for a privileged critic (``envs/batched/privileged.py``);
      a game without them has ``privileged_size`` 0;
    * ``run_rows`` / ``run_rows_parallel``: compiled loops
      ``(state, params, chance, rows, actions, out) -> None`` over ``rows``, the
      second with ``numba.prange``. For each row: action ``START`` begins a new
      game; any other action is applied and, when the game ends, the next one
      begins at once; then the row's observation, mask and player are written
      to ``out`` (``Outputs``). The README shows the loop every game copies.
    """

    game_class: ClassVar[type[Game]]
    run_rows: ClassVar[Callable]
    run_rows_parallel: ClassVar[Callable]

    def __init__(self, config: Mapping[str, Any]):
        self.config = dict(config)
        self.params = self.make_params(self.config)

    def make_params(self, config: Mapping[str, Any]) -> NamedTuple:
        raise NotImplementedError

    def new_state(self, n: int) -> NamedTuple:
        raise NotImplementedError

    privileged_size: int = 0  # entries per decision of ``privileged`` (0: the game gives none)

    def privileged(self, state: NamedTuple, rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """float32 ``[k, privileged_size]``: what seat ``seats[j]`` of row ``rows[j]`` cannot see."""
        raise ValueError(f"{self.game_class.NAME} gives no privileged features (a critic that sees every seat)")


@kernel
def _first_illegal(mask, rows, actions):
    """Index into ``rows`` of the first action out of range or not legal in its row, or -1."""
    num_actions = mask.shape[1]
    for k in range(rows.shape[0]):
        a = actions[k]
        if a < 0 or a >= num_actions or not mask[rows[k], a]:
            return k
    return -1


class BatchedEnv:
    """``num_envs`` games of ``kernel_class``'s game, one per row (see the module docstring).

    ``parallel=True`` runs the rows on all of numba's threads (steps of fewer
    than ``PARALLEL_MIN_ROWS`` rows stay on the serial loop). ``copy=False``
    returns the env's own output buffers, which the next call overwrites (no
    copy; for callers that consume them at once).
    """

    def __init__(
        self,
        kernel_class: type[GameKernel],
        num_envs: int,
        *,
        parallel: bool = False,
        copy: bool = True,
        **options: Any,
    ):
        if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer) or num_envs < 1:
            raise ValueError(f"num_envs={num_envs!r}: expected an int >= 1")
        game_class = kernel_class.game_class
        self.config = game_class.OPTIONS.validate(options)
        self.probe: Game = game_class.from_config(self.config, seed=0)
        self.name = f"{game_class.NAME}_v0"
        self.num_envs = int(num_envs)
        self.num_players = self.probe.num_players
        self.num_actions = self.probe.num_actions
        self.observation_size = self.probe.observation_size
        self.observation_bounds = getattr(self.probe, "observation_bounds", None) or (-np.inf, np.inf)
        self.action_names = [self.probe.action_name(a) for a in range(self.num_actions)]
        self.parallel = bool(parallel)
        self.copy = bool(copy)
        self.kernel = kernel_class(self.config)
        self.state = self.kernel.new_state(self.num_envs)
        self.privileged_size = int(self.kernel.privileged_size)
        self.chance = chance_lib.new_chance(self.num_envs)
        self.out = new_outputs(self.num_envs, self.observation_size, self.num_actions, self.num_players)
        self.all_rows = np.arange(self.num_envs, dtype=np.int64)
        self.games = np.zeros(self.num_envs, dtype=np.int64)  # games finished per row since reset()
        self.seeds: list[int | None] = [None] * self.num_envs
        self._seeded = False
        self._started = False

    # ------------------------------------------------------------------ API
    def reset(self, seed: int | Sequence[int] | None = None, options: Mapping[str, Any] | None = None):
        """Start a new game in every row; returns ``obs, mask, info`` (see the module docstring for seeds)."""
        seeds = self._row_seeds(seed)
        chances = self._row_chances(options)
        self._abandon_injected()
        if seeds is not None or not self._seeded:
            chance_lib.seed_rows(self.chance, self.all_rows, seeds or [None] * self.num_envs)
            self.seeds = list(seeds) if seeds is not None else [None] * self.num_envs
            self._seeded = True
        for row, c in chances.items():
            self.chance = chance_lib.inject(self.chance, row, c)
        self.games[:] = 0
        self._run(self.all_rows, np.full(self.num_envs, START, dtype=np.int64))
        self._started = True
        out = self.out
        return self._give(out.obs), self._give(out.mask), {"current_player": out.player.copy()}

    def step(self, actions, rows=None):
        """Apply ``actions`` (one per row, or one per row of ``rows``); ``obs, mask, rewards, done, info``.

        Raises ``IllegalActionError`` naming the row, the action and the legal
        ones when any action is not legal, and ``ValueError`` on a bad shape or
        bad rows; in both cases no row changes.
        """
        if not self._started:
            raise RuntimeError("step() before reset(): call reset() first")
        idx = self._rows(rows)
        acts = self._actions(actions, idx)
        out = self.out
        partial = idx.shape[0] != self.num_envs
        if partial:
            out.rewards[:] = 0.0
            out.status[:] = RUNNING
            out.start_rewards[:] = 0.0
        self._run(idx, acts)
        done = out.status != RUNNING
        self.games += done
        info = {"current_player": out.player.copy(), "truncated": out.status == TRUNCATED}
        return self._give(out.obs), self._give(out.mask), self._give(out.rewards), done, info

    @property
    def current_player(self) -> np.ndarray:
        return self.out.player

    @property
    def obs(self) -> np.ndarray:
        return self.out.obs

    @property
    def start_rewards(self) -> np.ndarray:
        """float64[N, num_players]: what the games started by the latest call earned before their first
        decision (the module docstring); the env's own buffer, overwritten by the next call."""
        return self.out.start_rewards

    @property
    def mask(self) -> np.ndarray:
        return self.out.mask

    def privileged(self, rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """float32 ``[k, privileged_size]``: what seat ``seats[j]`` of row ``rows[j]`` cannot see now (the other
        seats' hidden cards, who leads), for a privileged critic; ValueError for a game that gives none."""
        return self.kernel.privileged(self.state, np.asarray(rows, dtype=np.int64), np.asarray(seats, dtype=np.int64))

    def row_generator_state(self, row: int) -> dict:
        """numpy's ``bit_generator.state`` of row ``row``'s own generator (the scalar env's ``_rng``)."""
        return chance_lib.row_state(self.chance, row)

    # ------------------------------------------------------------------ saving and restoring
    def state_arrays(self) -> dict[str, np.ndarray]:
        """Copies of every array that makes the env what it is (games, generators, outputs), by name.

        Plain numeric arrays (``np.savez`` without pickles holds them); with the
        same game options, ``load_state_arrays`` puts an env exactly back, so
        the same actions give the same games from there on (``seeds``, the
        record of the last ``reset``'s seeds, is not part of it).
        """
        arrays = {f"state.{k}": v for k, v in self.state._asdict().items()}
        arrays |= {f"chance.{k}": v for k, v in self.chance._asdict().items()}
        arrays |= {f"out.{k}": v for k, v in self.out._asdict().items()}
        arrays["games"] = self.games
        arrays["flags"] = np.array([self._seeded, self._started], dtype=np.bool_)
        return {k: np.array(v, copy=True) for k, v in arrays.items()}

    def load_state_arrays(self, arrays: Mapping[str, np.ndarray]) -> None:
        """Restore what ``state_arrays`` saved; ``ValueError`` (nothing changed) when it does not fit this env."""
        expected = self.state_arrays()
        chance_keys = {k for k in expected if k.startswith("chance.")}
        if set(arrays) != set(expected):
            missing, extra = sorted(set(expected) - set(arrays)), sorted(set(arrays) - set(expected))
            raise ValueError(f"env arrays do not fit {self.name}: missing {missing[:4]}, unexpected {extra[:4]}")
        for key, mine in expected.items():
            theirs = np.asarray(arrays[key])
            same_shape = theirs.shape == mine.shape or (key in chance_keys and theirs.shape[0] == mine.shape[0])
            if theirs.dtype != mine.dtype or not same_shape:
                raise ValueError(
                    f"env array {key} is {theirs.dtype}{list(theirs.shape)}, this env's {mine.dtype}{list(mine.shape)} "
                    f"({self.name}, {self.num_envs} rows): saved with other rows or options"
                )
        for name, target in (("state", self.state), ("out", self.out)):
            for k, v in target._asdict().items():
                v[...] = arrays[f"{name}.{k}"]
        self.chance = type(self.chance)(**{k: np.array(arrays[f"chance.{k}"]) for k in self.chance._fields})
        self.games[:] = arrays["games"]
        self._seeded, self._started = (bool(x) for x in arrays["flags"])

    # ------------------------------------------------------------------ internals
    def _run(self, rows: np.ndarray, actions: np.ndarray) -> None:
        parallel = self.parallel and rows.shape[0] >= PARALLEL_MIN_ROWS
        loop = self.kernel.run_rows_parallel if parallel else self.kernel.run_rows
        loop(self.state, self.kernel.params, self.chance, rows, actions, self.out)

    def _give(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def _abandon_injected(self) -> None:
        """Rows playing an injected chance go back to their own generator (a new ``reset``)."""
        c = self.chance
        rows = np.flatnonzero(c.injected)
        if rows.size:
            c.words[rows] = c.saved[rows]
            c.injected[rows] = 0
            c.shuffles[rows] = 0
            c.int_count[rows] = 0

    def _row_seeds(self, seed) -> list[int] | None:
        if seed is None:
            return None
        n = self.num_envs
        if isinstance(seed, int | np.integer) and not isinstance(seed, bool):
            seeds = [int(seed) + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"seed: expected an int or {n} seeds (one per row), got {len(seeds)}")
        for i, s in enumerate(seeds):
            if isinstance(s, bool) or not isinstance(s, int | np.integer) or s < 0:
                raise ValueError(f"seed of row {i}: expected an int >= 0, got {s!r}")
        return [int(s) for s in seeds]

    def _row_chances(self, options: Mapping[str, Any] | None) -> dict[int, Any]:
        options = dict(options or {})
        unknown = sorted(set(options) - {"chance"})
        if unknown:
            raise ValueError(f"unknown reset option(s) {', '.join(unknown)}; known: chance")
        given = options.get("chance")
        if given is None:
            return {}
        items = given.items() if isinstance(given, Mapping) else enumerate(given)
        if not isinstance(given, Mapping) and len(given) != self.num_envs:
            raise ValueError(f"options['chance']: expected {self.num_envs} entries (one per row), got {len(given)}")
        chances = {}
        for row, c in items:
            if not (isinstance(row, int | np.integer) and 0 <= row < self.num_envs):
                raise ValueError(f"options['chance']: row {row!r} is not in 0..{self.num_envs - 1}")
            if c is not None:
                chances[int(row)] = c
        return chances

    def _rows(self, rows) -> np.ndarray:
        if rows is None:
            return self.all_rows
        r = np.asarray(rows)
        if r.dtype == np.bool_:
            if r.shape != (self.num_envs,):
                raise ValueError(f"rows: a bool mask must have shape ({self.num_envs},), got {r.shape}")
            return np.flatnonzero(r).astype(np.int64)
        if r.ndim != 1 or not (np.issubdtype(r.dtype, np.integer) or r.size == 0):
            raise ValueError(f"rows: expected a 1-d array of row indices or a bool mask, got {r.dtype} {r.shape}")
        r = r.astype(np.int64)
        if r.size and (r.min() < 0 or r.max() >= self.num_envs):
            bad = r[(r < 0) | (r >= self.num_envs)][0]
            raise ValueError(f"rows: row {bad} is not in 0..{self.num_envs - 1}")
        if np.unique(r).size != r.size:
            raise ValueError("rows: a row is listed more than once")
        return r

    def _actions(self, actions, rows: np.ndarray) -> np.ndarray:
        a = np.asarray(actions)
        if a.shape != rows.shape:
            raise ValueError(f"actions: expected shape {rows.shape} (one per stepped row), got {a.shape}")
        if a.size and not np.issubdtype(a.dtype, np.integer):
            raise ValueError(f"actions: expected integers, got dtype {a.dtype}")
        a = a.astype(np.int64, copy=False)
        k = _first_illegal(self.out.mask, rows, a)
        if k >= 0:
            row, action = int(rows[k]), int(a[k])
            legal = [f"{x}:{self.action_names[x]}" for x in np.flatnonzero(self.out.mask[row])]
            what = f"{action} ({self.action_names[action]})" if 0 <= action < self.num_actions else f"{action}"
            error = IllegalActionError(
                f"{self.name} (batched): row {row}: illegal action {what} for player "
                f"{int(self.out.player[row])}; legal now: {', '.join(legal)}",
                action,
                legal,
            )
            error.row = row
            raise error
        return a
