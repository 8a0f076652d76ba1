"""A single-agent ``gymnasium.Env`` over any pokerzoo game: the learner holds one seat, opponents the rest.

Reinforcement-learning libraries such as Stable-Baselines3 train one agent
against an environment; a multi-player card game has to be cut down to that
shape. ``SingleSeatEnv`` runs the game's PettingZoo AEC env (the same one
users get from ``pokerzoo.envs.make``) and, inside ``reset()`` and
``step()``, lets opponent agents play every seat but the learner's until the
learner must decide again. So:

* the learner's seat is drawn at random every episode (or fixed with ``seat=``),
  so one policy learns every position;
* ``step()`` returns the learner's *whole* reward since its previous decision:
  the sum of the AEC env's ``rewards[learner]`` over its own step and every
  opponent step after it, the terminal payoff included. Rewards the AEC env
  hands out at ``reset`` (before the learner's first decision) are added to
  the first ``step()``'s reward, so an episode's rewards sum to exactly the
  learner's AEC rewards for that game;
* an episode in which the learner never has to act (possible in games where a
  seat can be skipped) is played out and discarded inside ``reset()``; its
  rewards cannot depend on the learner. ``skipped_episodes`` counts them;
* spaces are fixed in ``__init__``: ``observation_space`` is the AEC env's
  observation Box (the masked Dict's ``"observation"`` part) and
  ``action_space`` its ``Discrete(num_actions)``; the legal-action mask comes
  from ``action_masks()`` on the env itself (what sb3-contrib's MaskablePPO
  calls through ``VecEnv.env_method``, so it works under ``SubprocVecEnv``), and
  is also in ``info["action_mask"]``;
* an illegal learner action either raises ``IllegalActionError`` with the state
  unchanged (``illegal_action="raise"``) or, by default, ends the episode with
  ``illegal_reward`` for the learner, like PettingZoo's
  ``TerminateIllegalWrapper`` around ``env()`` (``illegal_action="terminate"``).
  A masked learner never hits either;
* a finished episode puts Monitor-style ``info["episode"] = {"r", "l", "t"}``
  into the last ``info`` (Stable-Baselines3 logs it), so no ``Monitor`` wrapper
  is needed and the env's whole state stays inside this one picklable object
  (``get_state()`` / ``set_state()``: the trainer's exact resume).

Opponents come from ``pokerzoo.training.opponents`` (a fixed list, or a pool
of scripted agents and frozen snapshots of the learner drawn per episode).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from pokerzoo.agents.base import Agent
from pokerzoo.envs import env_module
from pokerzoo.envs.aec import PokerzooAECEnv
from pokerzoo.envs.engine.game import Game, IllegalActionError
from pokerzoo.training import env_state
from pokerzoo.training.opponents import Opponents, as_opponents, build_agent

ILLEGAL_MODES = ("terminate", "raise")
MAX_SKIPPED = 10_000  # episodes in a row without a learner decision: a broken game or seat setting


RECORD_CHOICES = ("all", "bidding", "play")
SEATS_CHOICES = ("learner", "all")
RECORDING_KEYS = ("obs", "masks", "actions", "rewards", "dones", "recorded")  # a teacher recording's arrays
MAX_EPISODES_WITHOUT_RECORD = 1000


def selfplay_seeds(seed: int, players: int) -> list[int]:
    """The first game's seed, then each seat's teacher seed, of ``teacher_rollout(seats="all", seed=seed)``."""
    return [int(s >> 1) for s in np.random.SeedSequence([seed, 2]).generate_state(players + 1, np.uint64)]


class SingleSeatEnv(gym.Env):
    """The learner's seat of ``game`` as a gymnasium env (see the module docstring).

    ``game`` is an env name (``"caribbean_stud"`` or ``"caribbean_stud_v0"``) built
    with ``config``, or an already built pokerzoo AEC env (wrapped or raw; its
    bare ``raw_env`` is used). ``opponents``: None (uniform random agents), an
    agent spec, an ``Agent``, a list of them (seats filled in order), or an
    ``OpponentPool``. ``seat``: the learner's seat, or None for a random seat
    every episode.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        game: str | PokerzooAECEnv | Any,
        config: Mapping[str, Any] | None = None,
        opponents: Opponents | Agent | str | list | tuple | None = None,
        *,
        seat: int | None = None,
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ):
        super().__init__()
        if isinstance(game, str):
            aec = env_module(game).raw_env(**dict(config or {}))
        else:
            if config:
                raise ValueError("config is given with the env name; an env passed in is already configured")
            aec = getattr(game, "unwrapped", game)
            if not isinstance(aec, PokerzooAECEnv):
                raise TypeError(f"expected a pokerzoo AEC env or a game name, got {type(game).__name__}")
        if illegal_action not in ILLEGAL_MODES:
            raise ValueError(f"illegal_action={illegal_action!r}: expected one of {', '.join(ILLEGAL_MODES)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}: expected 'ansi' or None")
        self.aec = aec
        self.env_name: str = aec.metadata["name"]
        self.num_players: int = aec.num_players
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.num_players):
            raise ValueError(f"seat={seat!r}: expected None (random) or an int in 0..{self.num_players - 1}")
        self.fixed_seat = seat
        self.opponents = as_opponents(self.env_name, opponents)
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode

        agent0 = aec.possible_agents[0]
        self.observation_space = aec.observation_space(agent0)["observation"]
        self.action_space = spaces.Discrete(aec.num_actions)
        self.seat = 0 if seat is None else seat
        self.learner = aec.possible_agents[self.seat]
        self.seat_agents: list[Agent | None] = [None] * self.num_players
        self.skipped_episodes = 0
        self.episodes = 0
        self._pending = 0.0  # learner reward not yet returned (from reset and opponents' moves)
        self._episode_reward = 0.0
        self._episode_steps = 0
        self._episode_start = time.perf_counter()
        self._done = True

    # ------------------------------------------------------------------ gymnasium API
    @property
    def game(self) -> Game:
        """The running game (``env.aec.game``)."""
        return self.aec.game

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Start a new episode: draw the seat and the opponents, play until the learner must act.

        ``options={"chance": Chance}`` stacks the deck (tests), ``options={"seat": s}``
        fixes the seat for this episode, ``options={"opponents": [...]}`` seats
        these agents (one per opponent seat, in seat order) for this episode.
        """
        super().reset(seed=seed)
        options = dict(options or {})
        aec_seed = None
        if seed is not None:
            seeds = np.random.SeedSequence(seed).generate_state(2, np.uint64)
            aec_seed = int(seeds[0] >> 1)
            self.opponents.seed(int(seeds[1] >> 1))
        for _ in range(MAX_SKIPPED):
            self.aec.reset(seed=aec_seed, options={"chance": options["chance"]} if "chance" in options else None)
            aec_seed = None
            self._start_episode(options)
            self._advance()
            if not self.game.is_over:
                return self._observation(), self._info()
            self.skipped_episodes += 1
            options.pop("chance", None)  # a stacked deck is for one episode only
        raise RuntimeError(
            f"{self.env_name}: {MAX_SKIPPED} episodes in a row ended without a decision for the learner's seat"
        )

    def step(self, action):
        if self._done:
            raise RuntimeError("step() called on a finished episode; call reset() first")
        game = self.game
        a = int(action) if np.ndim(action) == 0 and np.issubdtype(np.asarray(action).dtype, np.integer) else action
        mask = game.legal_mask()
        legal = isinstance(a, int) and 0 <= a < mask.size and bool(mask[a])
        self._episode_steps += 1
        if not legal:
            if self.illegal_action == "raise":
                game.apply(a)  # raises IllegalActionError naming the legal actions; nothing changes
                raise IllegalActionError(f"illegal action {a!r}")  # pragma: no cover - apply raised
            return self._end_illegal(a)
        self.aec.step(a)
        self._pending += self.aec.rewards[self.learner]
        self._advance()
        reward = self._pending
        self._pending = 0.0
        self._episode_reward += reward
        over = game.is_over
        terminated = over and not game.is_truncated
        truncated = over and game.is_truncated
        info = self._info()
        if over:
            self._finish(info)
        return self._observation(), float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """bool[num_actions]: the learner's legal actions now (all False once the episode is over)."""
        game = self.game
        if self._done or game.is_over or game.current_player != self.seat:
            return np.zeros(self.action_space.n, dtype=bool)
        return np.array(game.legal_mask(), dtype=bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.game.render(self.seat)

    # ------------------------------------------------------------------ state (exact resume)
    def get_state(self) -> bytes:
        """Everything this env holds (game, generators, opponents, episode tallies), pickled."""
        return env_state.dumps(self)

    def set_state(self, state: bytes) -> None:
        """Become the env ``get_state`` saved; read with the restricted unpickler (``training.env_state``)."""
        loaded = env_state.loads(state)
        if not isinstance(loaded, SingleSeatEnv) or loaded.env_name != self.env_name:
            what = getattr(loaded, "env_name", type(loaded).__name__)
            raise env_state.EnvStateError(f"the env state is of {what}, this env plays {self.env_name}")
        self.__dict__.update(loaded.__dict__)

    def __getstate__(self) -> dict:
        # The AEC env's class is made per game by ``make_raw_env`` and is found by
        # pickle only through its game module, so it travels as (env name, attributes).
        state = dict(self.__dict__)
        state["aec"] = (self.env_name, dict(self.aec.__dict__))
        return state

    def __setstate__(self, state: dict) -> None:
        name, attributes = state["aec"]
        cls = env_module(name).raw_env
        aec = cls.__new__(cls)
        aec.__dict__.update(attributes)
        self.__dict__.update({**state, "aec": aec})

    def teacher_rollout(
        self,
        teacher: str,
        steps: int,
        seed: int,
        record: str = "all",
        seats: str = "learner",
        progress: Callable[[int], None] | None = None,
    ) -> dict[str, np.ndarray]:
        """``steps`` learner decisions made by the agent ``teacher`` (a spec), from ``reset(seed=seed)``.

        Returns what the learner would have seen and done: ``obs``, ``masks``,
        ``actions``, and the ``rewards`` and ``dones`` of each step, for
        imitation (the trainer's ``pretrain``). ``record`` = ``bidding`` or
        ``play`` counts only the decisions of that kind (the game's
        ``BIDDING_PHASES`` or the others); the teacher still makes every
        decision, and the arrays hold every step with ``recorded`` marking
        the counted ones, so returns can be computed over whole episodes.
        Leaves the env mid-episode.

        ``seats="all"``: the teacher plays every seat (the opponent pool sits
        out) and every seat's decisions are recorded, each seat's as that
        seat's own episode (see ``_teacher_selfplay``). With a slow teacher
        that is n times the data for the same work, since the opponents'
        decisions are no longer thrown away.

        ``progress(k)`` is told of every ``k`` decisions counted (a progress bar).
        """

        if record not in RECORD_CHOICES:
            raise ValueError(f"record={record!r}: expected one of {', '.join(RECORD_CHOICES)}")
        if seats not in SEATS_CHOICES:
            raise ValueError(f"seats={seats!r}: expected one of {', '.join(SEATS_CHOICES)}")
        report = progress or (lambda k: None)
        if seats == "all":
            return self._teacher_selfplay(teacher, steps, seed, record, report)
        agent = build_agent(self.env_name, teacher)
        agent.seed(int(np.random.SeedSequence([seed, 1]).generate_state(1, np.uint64)[0] >> 1))
        bidding = self.game.BIDDING_PHASES
        rows: dict[str, list] = {k: [] for k in RECORDING_KEYS}
        obs, _ = self.reset(seed=seed)
        counted, episodes_without = 0, 0
        while counted < steps:
            if episodes_without > MAX_EPISODES_WITHOUT_RECORD:
                raise ValueError(
                    f"record={record!r}: the teacher {teacher!r} made no such decision in "
                    f"{MAX_EPISODES_WITHOUT_RECORD:,} episodes of {self.env_name} "
                    f"(its bidding phases: {', '.join(sorted(bidding)) or 'none'})"
                )
            game = self.game
            mask = self.action_masks()
            kept = record == "all" or (game.phase in bidding) == (record == "bidding")
            action = int(agent.act(game.view(self.seat), mask, game))
            rows["obs"].append(obs)
            rows["masks"].append(mask)
            rows["actions"].append(action)
            rows["recorded"].append(kept)
            counted += kept
            if kept:
                report(1)
            episodes_without = 0 if kept else episodes_without
            obs, reward, terminated, truncated, _ = self.step(action)
            rows["rewards"].append(reward)
            rows["dones"].append(terminated or truncated)
            if terminated or truncated:
                episodes_without += 1
                obs, _ = self.reset()
        return self._recording_arrays(rows)

    def _teacher_selfplay(
        self, teacher: str, steps: int, seed: int, record: str, report: Callable[[int], None]
    ) -> dict[str, np.ndarray]:
        """Whole games with ``teacher`` in every seat, every seat's decisions recorded (``seats="all"``).

        Each seat's decisions form that seat's episode, rewarded exactly as the
        single-seat env would reward a learner in that seat: a decision's
        reward is everything the seat receives from it until its next decision
        (rewards handed out at reset join its first), the last one carries the
        terminal payoff and is marked done. Seats' episodes follow one another
        in seat order, so returns computed over the arrays never mix seats.
        Games are played to the end, so a few more than ``steps`` may be counted.
        """

        n, aec, names = self.num_players, self.aec, self.aec.possible_agents
        game_seed, *agent_seeds = selfplay_seeds(seed, n)
        agents = [build_agent(self.env_name, teacher) for _ in range(n)]
        for agent, s in zip(agents, agent_seeds, strict=True):
            agent.seed(s)
        bidding = self.game.BIDDING_PHASES
        keys = RECORDING_KEYS
        rows: dict[str, list] = {k: [] for k in keys}
        counted, games_without = 0, 0
        while counted < steps:
            if games_without > MAX_EPISODES_WITHOUT_RECORD:
                raise ValueError(
                    f"record={record!r}: the teacher {teacher!r} made no such decision in "
                    f"{MAX_EPISODES_WITHOUT_RECORD:,} games of {self.env_name} "
                    f"(its bidding phases: {', '.join(sorted(bidding)) or 'none'})"
                )
            aec.reset(seed=game_seed)
            game_seed = None
            game = self.game
            per_seat: list[dict[str, list]] = [{k: [] for k in keys} for _ in range(n)]
            pending = [float(aec.rewards[a]) for a in names]
            before = counted
            while not game.is_over:
                p = game.current_player
                mask = game.legal_mask()
                view = game.view(p)
                kept = record == "all" or (game.phase in bidding) == (record == "bidding")
                action = int(agents[p].act(view, mask, game))
                mine = per_seat[p]
                if mine["obs"]:  # the previous decision's reward is complete
                    mine["rewards"][-1] = pending[p]
                    pending[p] = 0.0
                mine["obs"].append(np.asarray(game.encode(view), dtype=np.float32))
                mine["masks"].append(np.array(mask, dtype=bool))
                mine["actions"].append(action)
                mine["recorded"].append(kept)
                mine["rewards"].append(0.0)
                mine["dones"].append(False)
                counted += kept
                aec.step(action)
                for q, name in enumerate(names):
                    pending[q] += aec.rewards[name]
            for q, mine in enumerate(per_seat):
                if mine["obs"]:
                    mine["rewards"][-1] = pending[q]
                    mine["dones"][-1] = True
                    for k in keys:
                        rows[k].extend(mine[k])
            games_without = games_without + 1 if counted == before else 0
            report(counted - before)
        self._done = True  # the wrapper's own episode is gone: reset() before stepping again
        return self._recording_arrays(rows)

    def _recording_arrays(self, rows: dict[str, list]) -> dict[str, np.ndarray]:
        """A teacher recording's row lists as the arrays imitation takes (shaped even when empty)."""
        return {
            "obs": np.asarray(rows["obs"], dtype=np.float32).reshape(-1, self.observation_space.shape[0]),
            "masks": np.asarray(rows["masks"], dtype=bool).reshape(-1, self.action_space.n),
            "actions": np.asarray(rows["actions"], dtype=np.int64),
            "rewards": np.asarray(rows["rewards"], dtype=np.float64),
            "dones": np.asarray(rows["dones"], dtype=bool),
            "recorded": np.asarray(rows["recorded"], dtype=bool),
        }

    def add_snapshot(self, path: str) -> None:
        """Offer a frozen snapshot of the learner to the opponent pool (the trainer calls this)."""
        self.opponents.add_snapshot(path)

    def set_snapshots(self, paths: list[str]) -> None:
        self.opponents.set_snapshots(paths)

    # ------------------------------------------------------------------ internals
    def _start_episode(self, options: dict) -> None:
        n = self.num_players
        seat = options.get("seat", self.fixed_seat)
        if seat is None:
            seat = int(self.np_random.integers(n)) if n > 1 else 0
        if not (isinstance(seat, int | np.integer) and 0 <= seat < n):
            raise ValueError(f"seat={seat!r}: expected an int in 0..{n - 1}")
        self.seat = int(seat)
        self.learner = self.aec.possible_agents[self.seat]
        given = options.get("opponents")
        if given is not None:
            drawn = as_opponents(self.env_name, given).draw(self.np_random, n - 1)
        else:
            drawn = self.opponents.draw(self.np_random, n - 1)
        others = iter(drawn)
        self.seat_agents = [None if s == self.seat else next(others) for s in range(n)]
        self._pending = self.aec.rewards[self.learner]  # rewards handed out at reset
        self._episode_reward = 0.0
        self._episode_steps = 0
        self._episode_start = time.perf_counter()
        self._done = False

    def _advance(self) -> None:
        """Let the opponents play until the learner must act or the game ends."""
        aec, game, seat, learner = self.aec, self.aec.game, self.seat, self.learner
        while not game.is_over:
            p = game.current_player
            if p == seat:
                return
            action = self.seat_agents[p].act(game.view(p), game.legal_mask(), game)
            aec.step(int(action))
            self._pending += aec.rewards[learner]

    def _end_illegal(self, action: Any):
        reward = self._pending + self.illegal_reward
        self._pending = 0.0
        self._episode_reward += reward
        info = self._info()
        info["illegal_action"] = action
        self._finish(info)
        return self._observation(), float(reward), True, False, info

    def _finish(self, info: dict) -> None:
        self._done = True
        self.episodes += 1
        info["episode"] = {
            "r": self._episode_reward,
            "l": self._episode_steps,
            "t": round(time.perf_counter() - self._episode_start, 6),
        }

    def _observation(self) -> np.ndarray:
        game = self.game
        return np.asarray(game.encode(game.view(self.seat)), dtype=np.float32)

    def _info(self) -> dict:
        return {"seat": self.seat, "action_mask": self.action_masks()}
