"""The one PettingZoo AEC adapter shared by every pokerzoo game.

Each game is a plain ``Game`` state machine; this class gives it the AEC
interface (agents, masked Dict observations, rewards, terminations, render)
so that all five games behave identically at the RL boundary and a fix here
fixes them all. ``<game>_v0.py`` modules only bind a game class to it.

It lives beside the engine rather than in it: the engine stays free of
PettingZoo so the rules can be used and tested without any RL library.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from pokerzoo.envs.engine.cards import Chance
from pokerzoo.envs.engine.game import Game, View


class EnvOrderError(RuntimeError):
    """The raw env was called out of order (before ``reset()``, or after its game ended); the message says
    what to do."""


class PokerzooAECEnv(AECEnv):
    """AEC env over ``game_class``; subclasses set ``game_class`` and ``metadata['name']``.

    * agents are ``player_0 .. player_{n-1}``; ``agent_selection`` is the game's current player;
    * ``observe(agent)`` is ``{"observation": float32 vector, "action_mask": int8 vector}``,
      the mask all zeros for agents who are not to act;
    * rewards are the game's rewards since the previous step, per agent;
    * ``terminations`` when the game ends by its rules, ``truncations`` when it hits
      a documented safety cap;
    * ``infos[agent]`` carries what the game reports (e.g. the outcome of a hand);
    * ``render_mode`` ``"ansi"`` returns the table text, ``"human"`` prints it;
      the text is drawn from the view of ``render_viewer`` (default: the agent to act).

    ``reset(options={"chance": Chance})`` injects a scripted chance (stacked deck) for tests.
    """

    game_class: ClassVar[type[Game]]
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "pokerzoo",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, render_mode: str | None = None, **config: Any):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode={render_mode!r} is not supported; use one of {self.metadata['render_modes']} or None"
            )
        self.render_mode = render_mode
        self.config = self.game_class.OPTIONS.validate(config)
        probe = self.game_class(seed=0, **self.config)
        self.num_players = probe.num_players
        self.num_actions = probe.num_actions
        self.possible_agents = [f"player_{i}" for i in range(self.num_players)]
        self.agent_index = {a: i for i, a in enumerate(self.possible_agents)}
        schema = probe.observation_schema  # layout and per-entry bounds of the observation vector
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=schema.low, high=schema.high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self.num_actions,), dtype=np.int8),
            }
        )
        act_space = spaces.Discrete(self.num_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self.render_viewer: int | None = None
        self._rng = np.random.default_rng()
        self.game: Game = probe
        self._obs_cache: dict[str, dict[str, np.ndarray]] = {}
        self._no_mask = np.zeros(self.num_actions, dtype=np.int8)
        self._reset_done = False

    def _require_reset(self, call: str) -> None:
        if not self._reset_done:
            raise EnvOrderError(f"{self.metadata['name']}: {call} before reset(); call env.reset() first")

    def _require_agents(self, call: str) -> None:
        self._require_reset(call)
        if not self.agents:
            raise EnvOrderError(
                f"{self.metadata['name']}: {call} after the game ended and every agent stepped out; "
                "call env.reset() to play another game"
            )

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        # One generator runs through the episodes after a seeded reset: the same
        # seed gives the same sequence of games, without seeding a new generator
        # per episode (which would cost more than a whole Caribbean stud hand).
        chance: Chance = (options or {}).get("chance") or Chance(self._rng)
        self.game = self.game_class.from_config(self.config, chance=chance)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._obs_cache.clear()
        self._reset_done = True
        self._sync()

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action; an illegal one raises ``IllegalActionError`` and changes nothing."""
        self._require_agents("step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.game.apply(action)  # raises IllegalActionError before changing anything
        self._cumulative_rewards[agent] = 0.0  # what last() showed it is now spent; the step's own rewards follow
        self._obs_cache.clear()
        self._sync()
        if self.render_mode == "human":
            self.render()

    def _sync(self) -> None:
        """Copy the game's rewards, end flags, infos and current player into the AEC fields."""
        game = self.game
        rewards = game.take_rewards()
        for i, agent in enumerate(self.possible_agents):
            if agent in self.rewards:
                self.rewards[agent] = float(rewards[i])
                self.infos[agent] = game.info(i)
        if game.is_over:
            flags = self.truncations if game.is_truncated else self.terminations
            for agent in self.agents:
                flags[agent] = True
        self._accumulate_rewards()
        current = game.current_player
        if current is not None:
            self.agent_selection = self.possible_agents[current]
        else:
            # Game over: terminated agents step out (with None) in seat order.
            self.agent_selection = self.agents[0]
            self._deads_step_first()

    # ------------------------------------------------------------------ observing
    def last(self, observe: bool = True):
        self._require_agents("last()")
        return super().last(observe)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._require_reset("observe()")
        if agent not in self.agent_index:
            raise ValueError(f"unknown agent {agent!r}; agents are {', '.join(self.possible_agents)}")
        obs = self._obs_cache.get(agent)
        if obs is None:
            i = self.agent_index[agent]
            game = self.game
            if game.current_player == i:
                mask = game.legal_mask().astype(np.int8)
            else:
                mask = self._no_mask.copy()
            obs = {"observation": game.encode(game.view(i)), "action_mask": mask}
            self._obs_cache[agent] = obs
        return obs

    def view(self, agent: str) -> View:
        """The agent's ``View`` (what scripted agents and tools reason over)."""
        self._require_reset("view()")
        if agent not in self.agent_index:
            raise ValueError(f"unknown agent {agent!r}; agents are {', '.join(self.possible_agents)}")
        return self.game.view(self.agent_index[agent])

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        self._require_reset("action_mask()")
        agent = agent or self.agent_selection
        return self.observe(agent)["action_mask"]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        self._require_reset("render()")
        viewer = self.render_viewer if self.render_viewer is not None else self.game.current_player
        text = self.game.render(viewer)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def make_raw_env(game_class: type[Game], name: str, doc: str | None = None) -> type[PokerzooAECEnv]:
    """The bare AEC env class of one game (``raw_env`` in its ``<name>.py`` module)."""
    metadata = {**PokerzooAECEnv.metadata, "name": name}
    # Named as the attribute of the game's module that holds it, so that pickle (PettingZoo's
    # pickle test, vector envs, distributed libraries) finds the class by reference.
    namespace = {
        "game_class": game_class,
        "metadata": metadata,
        "__doc__": doc,
        "__module__": f"pokerzoo.envs.{name}",
        "__qualname__": "raw_env",
    }
    return type("raw_env", (PokerzooAECEnv,), namespace)


# Attributes read several times per step through every wrapper layer. PettingZoo's
# BaseWrapper forwards them with __getattr__, which runs only after a failed normal
# lookup; with three layers that failure path cost more than a whole game step.
# Plain properties forward the same values at a fraction of the cost.
_HOT_ATTRIBUTES = (
    "agent_selection",
    "agents",
    "rewards",
    "terminations",
    "truncations",
    "infos",
    "_cumulative_rewards",
)


def _forwarding(wrapper_class: type, guard_before_reset: bool = False) -> type:
    """``wrapper_class`` with the hot attributes forwarded by properties (same behaviour, faster)."""

    def forward(name: str) -> property:
        def get(self):
            if guard_before_reset and name != "_cumulative_rewards" and not self._has_reset:
                raise AttributeError(f"{name} cannot be accessed before reset")
            return getattr(self.env, name)

        def set_(self, value):
            setattr(self.env, name, value)

        return property(get, set_)

    namespace = {name: forward(name) for name in _HOT_ATTRIBUTES}
    namespace["__doc__"] = wrapper_class.__doc__
    return type(wrapper_class.__name__, (wrapper_class,), namespace)


TerminateIllegalWrapper = _forwarding(wrappers.TerminateIllegalWrapper)
AssertOutOfBoundsWrapper = _forwarding(wrappers.AssertOutOfBoundsWrapper)
OrderEnforcingWrapper = _forwarding(wrappers.OrderEnforcingWrapper, guard_before_reset=True)


def make_env_fn(raw_env_class: type[PokerzooAECEnv]) -> Callable[..., AECEnv]:
    """``env(**config)``: the raw env wrapped as PettingZoo classic envs are.

    An illegal action ends the game with -1 for the offender (TerminateIllegalWrapper),
    actions outside the space are rejected, and the call order is enforced.
    """

    def env(**config: Any) -> AECEnv:
        e: AECEnv = raw_env_class(**config)
        e = TerminateIllegalWrapper(e, illegal_reward=-1)
        e = AssertOutOfBoundsWrapper(e)
        e = OrderEnforcingWrapper(e)
        return e

    env.__doc__ = f"The wrapped {raw_env_class.metadata['name']} environment; see raw_env for options."
    return env
