"""Scripted agents of three-card high card (the example game): play a hand at least this good."""

from __future__ import annotations

import numpy as np

from pokerzoo.agents.base import Agent
from pokerzoo.envs.engine.cards import RANK_CHARS
from pokerzoo.envs.engine.game import Game
from pokerzoo.envs.high_card.game import FOLD, PLAY, HighCardView, hand_key


class ThresholdAgent(Agent):
    """Plays when its highest card is at least ``min_rank`` (a rank character, default ``Q``)."""

    name = "threshold"

    def __init__(self, min_rank: str = "Q", seed: int | None = None):
        super().__init__(seed)
        if not isinstance(min_rank, str) or min_rank not in RANK_CHARS:
            raise ValueError(f"min_rank={min_rank!r}: expected one of {', '.join(RANK_CHARS)}")
        self.min_rank = min_rank
        self._threshold = RANK_CHARS.index(min_rank)

    def act(self, view: HighCardView, mask: np.ndarray, game: Game | None = None) -> int:
        return PLAY if hand_key(view.hand)[0] >= self._threshold else FOLD


AGENTS = {"threshold": ThresholdAgent}
