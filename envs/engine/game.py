"""The game protocol every pokerzoo game implements, independent of any RL library.

Rules live in a plain state machine so that they can be tested, cloned,
searched (determinised Monte Carlo) and replayed without an environment
around them. One generic adapter (``pokerzoo.envs.aec``) turns any ``Game``
into a PettingZoo AEC env, so all games behave the same at the RL boundary.

A subclass declares ``NAME``, ``OPTIONS`` and implements the ``_``-prefixed
hooks; the public methods here add what every game needs and nobody should
write twice: option validation, legality checks that leave the state
untouched on an illegal action, reward bookkeeping, the action history that
replays a game, and cloning.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from pokerzoo.envs.engine.cards import DECKS, Chance
from pokerzoo.envs.engine.events import Event
from pokerzoo.envs.engine.options import OptionSet
from pokerzoo.envs.engine.schema import Schema

_STAND_IN = Chance(seed=0)  # never drawn from: stands in for a game's chance while determinize clones it


class IllegalActionError(ValueError):
    """An action the rules do not allow now; the game state is unchanged when this is raised."""

    def __init__(self, message: str, action: Any = None, legal: Sequence[str] = ()):
        self.action = action
        self.legal = list(legal)
        super().__init__(message)


@dataclass(frozen=True)
class View:
    """What one player may know at this moment; games subclass it with their own fields.

    Views hold only immutable values (ints, strings, tuples) so that two views
    compare with ``==``: the hidden-information tests rely on that.
    """

    player: int
    num_players: int
    phase: str
    current_player: int | None


class Game(ABC):
    NAME: ClassVar[str] = ""
    OPTIONS: ClassVar[OptionSet] = OptionSet()
    # Phases whose decisions count as bidding (predictions, bids, bets, knocks):
    # composite agents route them to the bidder, reports separate them.
    BIDDING_PHASES: ClassVar[frozenset[str]] = frozenset()
    # The return search agents maximise (agents/search.py), see ``search_horizon``.
    SEARCH_HORIZON: ClassVar[str] = "episode"

    # Set by subclasses in _setup():
    num_players: int
    num_actions: int
    observation_schema: Schema  # the observation vector's layout and bounds (engine/schema.py)
    deck_name: str = "52"
    _quiet: bool = False  # the class default keeps games pickled before ``silence`` existed loadable

    def __init__(self, *, seed: int | None = None, chance: Chance | None = None, **options: Any):
        self.config = self.OPTIONS.validate(options)
        self._init(seed, chance)

    @classmethod
    def from_config(cls, config: dict, *, seed: int | None = None, chance: Chance | None = None) -> Game:
        """A new game from a config already validated by ``OPTIONS.validate`` (skips re-validation)."""
        game = cls.__new__(cls)
        game.config = config
        game._init(seed, chance)
        return game

    def _init(self, seed: int | None, chance: Chance | None) -> None:
        self.seed = seed
        self.chance = chance if chance is not None else Chance(np.random.default_rng(seed))
        self.events: list[dict | Event] = []
        self.history: list[int] = []
        self.is_over = False
        self.is_truncated = False  # ended by a documented safety cap rather than by the rules
        self._mask_cache: np.ndarray | None = None
        self._quiet = False  # set by ``silence``: no events are recorded
        self._setup()
        self._rewards = np.zeros(self.num_players, dtype=np.float64)
        self._total_rewards = np.zeros(self.num_players, dtype=np.float64)
        self._start()

    # ----------------------------------------------------------- subclass hooks
    @abstractmethod
    def _setup(self) -> None:
        """Read ``self.config``; set ``num_players``, ``num_actions``, ``observation_schema``."""

    @abstractmethod
    def _start(self) -> None:
        """Deal and advance to the first decision (rewards may already be given)."""

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat that must act now; None once the game is over."""

    @property
    @abstractmethod
    def phase(self) -> str: ...

    @abstractmethod
    def _legal_mask(self) -> np.ndarray:
        """bool[num_actions] for the current player."""

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Apply a legal action and advance to the next decision."""

    @abstractmethod
    def view(self, player: int) -> View: ...

    @abstractmethod
    def encode(self, view: View) -> np.ndarray:
        """The observation vector (float32[observation_size], laid out by ``observation_schema``) of a view."""

    @property
    def observation_size(self) -> int:
        return self.observation_schema.size

    @classmethod
    def observation_table(cls) -> str:
        """The docs' table of the observation vector, rendered from the schema (default options).

        Games whose layout grows with the player count override this with
        ``schema.symbolic_table`` so that one table covers every count.
        """
        return cls(seed=0).observation_schema.markdown_table()

    @abstractmethod
    def action_name(self, action: int) -> str: ...

    @abstractmethod
    def zones(self) -> dict[str, list[int]]:
        """Every card of the deck by where it lies; used to check that no card is lost or made."""

    @abstractmethod
    def _redeal(self, world: Game, player: int, rng: np.random.Generator) -> None:
        """Re-deal in ``world`` (a clone of this game) every card ``player`` cannot see (``determinize``)."""

    def determinize(self, player: int, rng: np.random.Generator) -> Game:
        """A clone where every card ``player`` cannot see is re-dealt among the places it cannot see.

        Everything the player knows is kept: its view is unchanged, and so is
        whatever public play has revealed about where hidden cards can be (hand
        sizes, voids, cards seen going back into a stock); each game's
        ``_redeal`` says what it keeps. Search agents sample worlds consistent
        with their view this way (``agents/search.py``), and the test kit checks
        the contract for every game (``pokerzoo.envs.testing.check_determinize``).

        The world depends only on the player's information and on ``rng``, never
        on where the hidden cards really lie: games re-deal a sorted pool of the
        hidden cards. Nothing in it leads back to the real deal: its chance is
        reseeded from ``rng`` (the live generator decides the coming shuffles),
        its event log starts empty (the log names every card dealt) and its
        ``seed`` is None (the seed and the history would replay the real deal).
        """
        real, self.chance = self.chance, _STAND_IN  # the clone would copy the real generator for nothing
        try:
            world = self.clone()
        finally:
            self.chance = real
        world.chance = Chance(seed=int(rng.integers(2**63 - 1)))
        world.events = []
        world.seed = None
        world._mask_cache = None
        self._redeal(world, player, rng)
        return world

    def silence(self) -> None:
        """Stop recording events from now on: search rollouts on sampled worlds do not read them."""
        self._quiet = True

    @property
    def unit_index(self) -> int:
        """Index of the scored unit under way (deal, round, hand); 0 for games scored once."""
        return 0

    def search_horizon(self) -> str:
        """How far a search's return looks: ``"unit"`` (to the end of the deal, round or hand under way,
        for games that reward each unit as it ends) or ``"episode"`` (to the end of the game)."""
        return self.SEARCH_HORIZON

    def public_action_name(self, action: int, viewer: int) -> str:
        """How the current player's ``action`` is announced to ``viewer`` before it is applied.

        Games with secret decisions (Mexican poker's predictions) override this so
        that narrations and logs shown to a player never reveal them.
        """
        return self.action_name(action)

    def render(self, viewer: int | None = None) -> str:
        """Text of the table as ``viewer`` sees it (None: the current player)."""
        return repr(self)

    def info(self, player: int) -> dict:
        """Extra facts for ``infos`` (e.g. the full outcome once a hand ends)."""
        return {}

    def scene(self, viewer: int | None) -> dict:
        """The table as seat ``viewer`` sees it, as JSON for the browser (``pokerzoo.envs.engine.scene``).

        None is the all-cards viewpoint of a replay. A seat's scene holds nothing
        its ``view`` and the public record do not: no hidden card.
        """
        raise NotImplementedError(f"{self.NAME} draws no scene")

    # ----------------------------------------------------------- shared behaviour
    @property
    def deck(self) -> tuple[int, ...]:
        return DECKS[self.deck_name].cards

    def legal_mask(self) -> np.ndarray:
        """Read-only bool mask of the current player's legal actions (all False when over)."""
        if self._mask_cache is None:
            if self.is_over:
                mask = np.zeros(self.num_actions, dtype=bool)
            else:
                mask = np.asarray(self._legal_mask(), dtype=bool)
            mask.setflags(write=False)
            self._mask_cache = mask
        return self._mask_cache

    def legal_actions(self) -> list[int]:
        return np.flatnonzero(self.legal_mask()).tolist()

    def legal_action_names(self) -> list[str]:
        return [f"{a}:{self.action_name(a)}" for a in self.legal_actions()]

    def apply(self, action: int) -> None:
        """Apply ``action`` for the current player, or raise IllegalActionError leaving the state as it was."""
        if self.is_over:
            raise IllegalActionError(f"{self.NAME}: the game is over; no action is legal", action)
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise IllegalActionError(
                f"{self.NAME}: an action is an int in 0..{self.num_actions - 1}, got {action!r}; "
                f"legal now: {', '.join(self.legal_action_names())}",
                action,
                self.legal_action_names(),
            )
        a = int(action)
        mask = self.legal_mask()
        if not 0 <= a < self.num_actions or not mask[a]:
            what = f"{a} ({self.action_name(a)})" if 0 <= a < self.num_actions else f"{a} (out of range)"
            raise IllegalActionError(
                f"{self.NAME}: illegal action {what} for player {self.current_player} in phase "
                f"{self.phase!r}; legal now: {', '.join(self.legal_action_names())}",
                a,
                self.legal_action_names(),
            )
        self.history.append(a)
        self._mask_cache = None
        self._apply(a)
        self._mask_cache = None

    def give(self, player: int, amount: float) -> None:
        self._rewards[player] += amount
        self._total_rewards[player] += amount

    def take_rewards(self) -> np.ndarray:
        """Rewards earned since the last call, per player."""
        out = self._rewards
        self._rewards = np.zeros(self.num_players, dtype=np.float64)
        return out

    @property
    def total_rewards(self) -> np.ndarray:
        return self._total_rewards.copy()

    def log(self, kind: str, **data: Any) -> None:
        """Record an event (unless silenced); events are JSON-ready dicts for histories and rendering."""
        if not self._quiet:
            self.events.append({"type": kind, **data})

    def log_event(self, event: Event) -> None:
        """Record a typed event (``pokerzoo.envs.engine.events``): one that code outside the rules reads."""
        if not self._quiet:
            self.events.append(event)

    def finish(self, truncated: bool = False) -> None:
        self.is_over = True
        self.is_truncated = truncated
        self._mask_cache = None

    def observe(self, player: int) -> np.ndarray:
        return self.encode(self.view(player))

    def clone(self) -> Game:
        """A deep, independent copy (RNG included): continuing both gives the same game."""
        return copy.deepcopy(self)

    def _shallow_clone(self) -> Game:
        """``copy.copy`` plus fresh copies of the state this base class mutates, for games whose fast
        ``clone()`` then copies only their own mutable attributes. The event log and history are
        append-only lists of values never changed once logged, so a one-level copy suffices."""
        new = copy.copy(self)
        new.events = list(self.events)
        new.history = list(self.history)
        new._rewards = self._rewards.copy()
        new._total_rewards = self._total_rewards.copy()
        new.chance = self.chance.copy()
        return new
