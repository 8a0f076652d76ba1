"""Mexican poker rules as a state machine (RULES.md §1; docs/games/mexican_poker.md).

A game is ``rounds`` rounds. Each round: the token holder reveals the top
card, whose corner numbers set the board size B and hand size H; B board
cards lie face up (the revealed one included) and every player gets H cards.
Then three phases, each taken in turn clockwise from the token holder:

* ``predict``: every player predicts 0..6 tricks, secretly until all have;
* ``doubt`` (option ``doubt_chips``): every player puts a doubt chip on one
  opponent's prediction (or passes, with ``doubt_pass``);
* ``play``: tricks. Every player still holding cards, clockwise from the
  leader, plays one exact combination of at least one hand card plus any
  reusable board cards; the strongest wins, the earlier play wins ties; the
  winner takes the hand cards and leads (or, without cards, passes the lead
  clockwise to the next player holding cards).

When all hands are empty the round is scored (``scoring.round_scores``) and
the token moves one seat clockwise.
"""

from __future__ import annotations

import numpy as np

from pokerzoo.envs.engine.cards import MEXICAN_SUIT_CHARS, format_card
from pokerzoo.envs.engine.events import UnitEnd
from pokerzoo.envs.engine.game import Game
from pokerzoo.envs.engine.hands.exact import CATEGORIES, classify
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS
from pokerzoo.envs.engine.options import ConfigError, Option, OptionSet, num_players_option
from pokerzoo.envs.mexican_poker import corners, encoding, render, scene
from pokerzoo.envs.mexican_poker.actions import (
    DOUBT_BASE,
    FIRST_COMBO,
    MAX_PREDICTION,
    NUM_ACTIONS,
    NUM_PREDICTIONS,
    PASS,
    split,
)
from pokerzoo.envs.mexican_poker.combos import legal_mask as combo_mask
from pokerzoo.envs.mexican_poker.scoring import NO_DOUBT, PASSED, round_scores
from pokerzoo.envs.mexican_poker.view import MexicanView, Play, make_view

_NAMES = [format_card(c, MEXICAN_SUIT_CHARS) for c in range(65)]
# Hand and board slots run by rank, then suit: a pair sits in neighbouring slots.
_SLOT_ORDER = [(c % 13) * 5 + c // 13 for c in range(65)]


def slot_sorted(cards) -> list[int]:
    return sorted(cards, key=_SLOT_ORDER.__getitem__)


def _check_options(config: dict) -> None:
    if config["doubt_pass"] and not config["doubt_chips"]:
        raise ConfigError("option doubt_pass=True needs doubt_chips=True (there is no chip to keep back)")


class MexicanPokerGame(Game):
    NAME = "mexican_poker"
    # Predictions and doubts are the bidding decisions: "bidder+player" composites route both to the bidder.
    BIDDING_PHASES = frozenset({"predict", "doubt"})
    OPTIONS = OptionSet(
        num_players_option(2, 7, 4),
        Option(
            "rounds", 10, "rounds per game (the token moves a seat each round)", kind=int, low=1, high=1000
        ),
        Option(
            "corner_table",
            corners.DEFAULT,
            "which (board size, hand size) pair each card carries: 'rank_plus_suit' (pair (r + s) mod 5), "
            "a string of 65 digits 0..4, or 65 pair numbers / (B, H) pairs by card id",
            kind=(str, list, tuple),
            convert=corners.resolve,
        ),
        Option("doubt_chips", True, "play the doubt phase (each player doubts one opponent)", kind=bool),
        Option("doubt_pass", False, "a player may keep the doubt chip instead of placing it", kind=bool),
        Option(
            "reward",
            "score",
            "'score': each round's points when it is scored; 'win': terminal only, winner +1, "
            "others -1/(n-1), tied leaders share",
            choices=("score", "win"),
        ),
        check=_check_options,
    )

    # ------------------------------------------------------------------ setup
    def _setup(self) -> None:
        cfg = self.config
        self.num_players = cfg["num_players"]
        self.num_actions = NUM_ACTIONS
        self.observation_schema = encoding.SCHEMA
        self.deck_name = "65"
        self.rounds: int = cfg["rounds"]
        self.table: tuple[int, ...] = corners.resolve(cfg["corner_table"])
        self.doubt_chips: bool = cfg["doubt_chips"]
        self.doubt_pass: bool = cfg["doubt_pass"]
        self.reward_mode: str = cfg["reward"]
        n = self.num_players
        self.scores = [0] * n
        self.round_index = 0
        self.token = 0
        self.last_round: dict | None = None
        self.result: dict | None = None
        self._info: dict | None = None
        self._predict_mask = np.zeros(NUM_ACTIONS, dtype=bool)
        self._predict_mask[:NUM_PREDICTIONS] = True
        self._doubt_mask = np.zeros(NUM_ACTIONS, dtype=bool)
        self._doubt_mask[DOUBT_BASE + 1 : DOUBT_BASE + n] = True
        self._doubt_mask[PASS] = self.doubt_pass

    def _start(self) -> None:
        self.token = self.chance.integer(self.num_players)
        self._new_round()

    def _new_round(self) -> None:
        n = self.num_players
        order = self.chance.shuffle(self.deck)
        self.revealed = order[0]
        self.board_size, self.hand_size = corners.PAIRS[self.table[self.revealed]]
        b, h = self.board_size, self.hand_size
        self.board = slot_sorted(order[:b])
        self.hands = [slot_sorted(order[b + i * h : b + (i + 1) * h]) for i in range(n)]
        self.stock = order[b + n * h :]
        self.piles: list[list[int]] = [[] for _ in range(n)]  # hand cards of the tricks each seat took
        self.predictions = [-1] * n
        self.doubts = [NO_DOUBT] * n
        self.tricks = [0] * n
        self.trick: list[Play] = []
        self.trick_order: list[int] = []
        self.leader = -1
        self.winning = -1
        self.best_key = -1
        self.tricks_played = 0
        self.played: list[int] = []
        self._phase = "predict"
        self.turn = self.token
        self._round_start = len(self.history)  # where this round's actions (predictions first) begin
        if self._quiet:
            return
        self.log(
            "deal",
            round=self.round_index,
            token=self.token,
            revealed=self._fmt([self.revealed]),
            board=self._fmt(self.board),
            board_size=b,
            hand_size=h,
        )

    @staticmethod
    def _fmt(cards) -> str:
        return " ".join([_NAMES[c] for c in cards])

    # ------------------------------------------------------------------ protocol
    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.turn

    @property
    def phase(self) -> str:
        return "over" if self.is_over else self._phase

    def _legal_mask(self) -> np.ndarray:
        if self._phase == "play":
            return combo_mask(self.hands[self.turn], self.board)
        if self._phase == "predict":
            return self._predict_mask
        return self._doubt_mask

    def _apply(self, action: int) -> None:
        if self._phase == "play":
            self._play(action)
        elif self._phase == "predict":
            self._predict(action)
        else:
            self._doubt(action)

    # ------------------------------------------------------------------ bidding
    def _predict(self, action: int) -> None:
        self.predictions[self.turn] = action
        self.log("predict", seat=self.turn)  # the value stays secret until every chip is down
        self.turn = (self.turn + 1) % self.num_players
        if self.turn == self.token:
            self.log("reveal", predictions=list(self.predictions))
            if self.doubt_chips:
                self._phase = "doubt"
            else:
                self._start_play()

    def _doubt(self, action: int) -> None:
        target = PASSED if action == PASS else (self.turn + action - DOUBT_BASE) % self.num_players
        self.doubts[self.turn] = target
        self.log("doubt", seat=self.turn, target=target)
        self.turn = (self.turn + 1) % self.num_players
        if self.turn == self.token:
            self._start_play()

    # ------------------------------------------------------------------ tricks
    def _start_play(self) -> None:
        self._phase = "play"
        self._start_trick(self.token)

    def _start_trick(self, leader: int) -> None:
        n = self.num_players
        self.leader = leader
        self.trick_order = [s for s in ((leader + i) % n for i in range(n)) if self.hands[s]]
        self.trick = []
        self.winning = -1
        self.best_key = -1
        self.turn = leader

    def _play(self, action: int) -> None:
        seat = self.turn
        hand = self.hands[seat]
        hand_slots, board_slots = split(action)
        hand_cards = tuple(hand[i] for i in hand_slots)
        board_cards = tuple(self.board[j] for j in board_slots)
        key = classify(hand_cards + board_cards)
        for i in reversed(hand_slots):
            del hand[i]
        self.trick.append((seat, hand_cards, board_cards, key))
        if key > self.best_key:  # strictly stronger: an equal later play loses to the earlier one
            self.best_key = key
            self.winning = seat
        if not self._quiet:
            self.log(
                "play",
                seat=seat,
                hand=self._fmt(hand_cards),
                board=self._fmt(board_cards),
                category=CATEGORIES[key >> TIEBREAK_BITS],
            )
        pos = len(self.trick)
        if pos < len(self.trick_order):
            self.turn = self.trick_order[pos]
        else:
            self._end_trick()

    def _end_trick(self) -> None:
        winner = self.winning
        self.tricks[winner] += 1
        taken = [c for _, hand_cards, _, _ in self.trick for c in hand_cards]
        self.piles[winner].extend(taken)
        self.played = sorted(self.played + taken)
        self.tricks_played += 1
        self.log("trick", number=self.tricks_played, winner=winner)
        n = self.num_players
        for i in range(n):
            seat = (winner + i) % n
            if self.hands[seat]:
                self._start_trick(seat)
                return
        self.trick = []
        self.winning = -1
        self._score_round()

    # ------------------------------------------------------------------ scoring
    def _score_round(self) -> None:
        lines, doubt_points = round_scores(self.predictions, self.tricks, self.doubts)
        totals = [a + b for a, b in zip(lines, doubt_points)]
        for seat, points in enumerate(totals):
            self.scores[seat] += points
            if self.reward_mode == "score":
                self.give(seat, float(points))
        self.last_round = {
            "round": self.round_index,
            "token": self.token,
            "predictions": list(self.predictions),
            "tricks": list(self.tricks),
            "doubts": list(self.doubts),
            "prediction_points": lines,
            "doubt_points": doubt_points,
            "points": totals,
            "scores": list(self.scores),
        }
        self._info = None
        self.log_event(
            UnitEnd(
                "score",
                dict(self.last_round),
                bids=tuple(self.last_round["predictions"]),
                tricks=tuple(self.last_round["tricks"]),
            )
        )
        self.round_index += 1
        if self.round_index == self.rounds:
            self._end_game()
        else:
            self.token = (self.token + 1) % self.num_players
            self._new_round()

    def _end_game(self) -> None:
        n = self.num_players
        best = max(self.scores)
        winners = [s for s in range(n) if self.scores[s] == best]
        if self.reward_mode == "win":
            k = len(winners)
            loser_share = -1.0 / (n - 1)
            winner_share = (n - k) / (k * (n - 1))  # zero-sum: the leaders split what the others lose
            for seat in range(n):
                self.give(seat, winner_share if seat in winners else loser_share)
        self.result = {"final_scores": list(self.scores), "winners": winners, "draw": len(winners) > 1}
        self._info = None
        self.log("game_over", **self.result)
        self._phase = "over"
        self.finish()

    # ------------------------------------------------------------------ information
    def view(self, player: int) -> MexicanView:
        over = self.is_over
        revealed_all = self._phase != "predict" or over
        if revealed_all:
            predictions = tuple(self.predictions)
        else:
            predictions = tuple([p if s == player else -1 for s, p in enumerate(self.predictions)])
        return make_view(
            player=player,
            num_players=self.num_players,
            phase=self.phase,
            current_player=self.current_player,
            round=self.round_index,
            rounds=self.rounds,
            token=self.token,
            revealed=self.revealed,
            board_size=self.board_size,
            hand_size=self.hand_size,
            hand=tuple(self.hands[player]),
            board=tuple(self.board),
            hand_counts=tuple([len(h) for h in self.hands]),
            predicted=tuple([p >= 0 for p in self.predictions]),
            predictions=predictions,
            doubts=tuple(self.doubts),
            tricks=tuple(self.tricks),
            scores=tuple(self.scores),
            leader=self.leader if self._phase == "play" else -1,
            trick=tuple(self.trick),
            winning=self.winning,
            played=tuple(self.played),
            tricks_played=self.tricks_played,
            doubt_chips=self.doubt_chips,
            doubt_pass=self.doubt_pass,
        )

    def encode(self, view: MexicanView) -> np.ndarray:
        return encoding.encode(view)

    def public_action_name(self, action: int, viewer: int) -> str:
        """Predictions stay secret until everyone has predicted: others only see that a chip was placed."""
        if self._phase == "predict" and not self.is_over and viewer != self.current_player:
            return "places a prediction (secret until all have predicted)"
        return self.action_name(action)

    def action_name(self, action: int) -> str:
        if 0 <= action < NUM_PREDICTIONS:
            return f"predict {action}"
        if action == PASS:
            return "keep the doubt chip"
        if DOUBT_BASE < action < FIRST_COMBO:
            offset = action - DOUBT_BASE
            if self.is_over or offset >= self.num_players:
                return f"doubt the player {offset} seat(s) clockwise"
            return f"doubt seat {(self.turn + offset) % self.num_players} (+{offset})"
        if FIRST_COMBO <= action < NUM_ACTIONS:
            hand_slots, board_slots = split(action)
            hand = [] if self.is_over else self.hands[self.turn]
            parts = [
                format_card(hand[i], MEXICAN_SUIT_CHARS) if i < len(hand) else f"h{i}" for i in hand_slots
            ]
            parts += [
                format_card(self.board[j], MEXICAN_SUIT_CHARS) if j < len(self.board) else f"b{j}"
                for j in board_slots
            ]
            board_part = len(hand_slots)
            text = " ".join(parts[:board_part])
            if board_slots:
                text += " +board " + " ".join(parts[board_part:])
            return f"play {text}"
        return f"invalid({action})"

    def info(self, player: int) -> dict:
        # Rebuilt only when a round is scored; every call hands out its own shallow copy.
        if self._info is None:
            self._info = {"scores": list(self.scores)}
            if self.last_round is not None:
                self._info["last_round"] = self.last_round
            if self.result is not None:
                self._info.update(self.result)
        return dict(self._info)

    def zones(self) -> dict[str, list[int]]:
        zones = {"stock": list(self.stock), "board": list(self.board)}
        for seat in range(self.num_players):
            zones[f"hand{seat}"] = list(self.hands[seat])
            zones[f"pile{seat}"] = list(self.piles[seat])
        zones["trick"] = [c for _, hand_cards, _, _ in self.trick for c in hand_cards]
        return zones

    @property
    def unit_index(self) -> int:
        return self.round_index

    def search_horizon(self) -> str:
        """Rounds are rewarded as they are scored (``reward="score"``); with ``"win"`` only the end counts."""
        return "unit" if self.reward_mode == "score" else "episode"

    def clone(self) -> MexicanPokerGame:
        """A deep, independent copy; several times faster than ``deepcopy``: only what play mutates is copied."""
        new = self._shallow_clone()
        new.config = dict(self.config)
        new.hands = [list(h) for h in self.hands]
        new.stock = list(self.stock)
        new.board = list(self.board)
        new.piles = [list(p) for p in self.piles]
        new.predictions = list(self.predictions)
        new.doubts = list(self.doubts)
        new.tricks = list(self.tricks)
        new.trick = list(self.trick)
        new.trick_order = list(self.trick_order)
        new.played = list(self.played)
        new.scores = list(self.scores)
        return new

    def _redeal(self, world: MexicanPokerGame, player: int, rng: np.random.Generator) -> None:
        """Re-deal the other hands and the stock among themselves; re-draw predictions still face down.

        The player sees the board, the own hand, every played card and the
        hand sizes, which are kept. Play reveals nothing certain about a hand
        (any single card is always a legal play), so no place is constrained.
        While predictions are secret, the chips others have placed are replaced
        by uniform draws so that a search over the world learns nothing from them.
        """
        others = [s for s in range(self.num_players) if s != player]
        hidden = sorted([c for s in others for c in world.hands[s]] + world.stock)
        shuffled = [hidden[i] for i in rng.permutation(len(hidden))]
        at = 0
        for s in others:
            size = len(world.hands[s])
            world.hands[s] = slot_sorted(shuffled[at : at + size])
            at += size
        world.stock = shuffled[at:]
        if self._phase == "predict" and not self.is_over:
            n = self.num_players
            for i in range(len(self.history) - self._round_start):  # chips placed, from the token on
                s = (self.token + i) % n
                if s != player:
                    world.predictions[s] = int(rng.integers(MAX_PREDICTION + 1))
                    world.history[self._round_start + i] = world.predictions[s]

    def render(self, viewer: int | None = None) -> str:
        if viewer is None:
            viewer = self.turn
        return render.render(self.view(viewer), self.last_round, self.result)

    def scene(self, viewer: int | None) -> dict:
        return scene.scene(self, viewer)
