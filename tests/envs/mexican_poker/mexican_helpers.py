"""Stacked-deck helpers for the Mexican poker tests (imported by path: pytest runs in importlib mode).

The rule tests (``test_rules.py``) and the batched kernel's replay of them
(``test_batched.py``) deal the same stacked rounds and play them with these.
"""

from __future__ import annotations

from pokerzoo.envs.engine.cards import MEXICAN_SUIT_CHARS, ScriptedChance, parse_cards
from pokerzoo.envs.mexican_poker import MexicanPokerGame, corners
from pokerzoo.envs.mexican_poker.actions import DOUBT_BASE, PASS, combo_action

SUITS = MEXICAN_SUIT_CHARS


def cards(text: str) -> list[int]:
    return parse_cards(text, SUITS)


def stacked_chance(board: str, hands: list[str], token: int = 0, check_corners: bool = True) -> ScriptedChance:
    """The chance that deals ``board`` (first card = the revealed one) and ``hands`` by seat, token at ``token``."""
    board_cards = cards(board)
    hand_cards = [cards(h) for h in hands]
    pair = corners.PAIRS[corners.rank_plus_suit()[board_cards[0]]]
    if check_corners:
        assert pair == (len(board_cards), len(hand_cards[0])), f"{board.split()[0]} carries {pair}"
    top = board_cards + [c for h in hand_cards for c in h]
    return ScriptedChance(shuffles=[top], integers=[token], suit_chars=SUITS)


def stacked(board: str, hands: list[str], token: int = 0, **options) -> MexicanPokerGame:
    """A game whose first round deals ``board`` (first card = the revealed one) and ``hands`` by seat."""
    chance = stacked_chance(board, hands, token, check_corners="corner_table" not in options)
    return MexicanPokerGame(num_players=len(hands), chance=chance, **options)


def bid(game: MexicanPokerGame, predictions: list[int], doubts: list[int] | None = None) -> None:
    """Predictions by seat; doubts by seat as the doubted seat (-1 = keep the chip)."""
    while game.phase == "predict":
        game.apply(predictions[game.current_player])
    while game.phase == "doubt":
        seat = game.current_player
        target = doubts[seat] if doubts is not None else (seat + 1) % game.num_players
        game.apply(PASS if target == -1 else DOUBT_BASE + (target - seat) % game.num_players)


def play(game: MexicanPokerGame, hand: str, board: str = "") -> None:
    """The current player lays these own cards plus these board cards."""
    seat = game.current_player
    own = game.hands[seat]
    slots = [own.index(c) for c in cards(hand)]
    board_slots = [game.board.index(c) for c in cards(board)] if board else []
    game.apply(combo_action(slots, board_slots))
