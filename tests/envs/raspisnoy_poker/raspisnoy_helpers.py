"""Stacked-deck helpers for the Raspisnoy poker tests (imported by path: pytest runs in importlib mode)."""

from __future__ import annotations

from pokerzoo.envs.engine.cards import ScriptedChance, parse_card
from pokerzoo.envs.raspisnoy_poker import actions as A
from pokerzoo.envs.raspisnoy_poker.game import RaspisnoyPokerGame

SUITS = "shdc"
_K = {("high", None): 0, ("low", None): 9}


def stack(hands: list[str], turned: str | None = None) -> list[str]:
    """The top of the shuffled deck that deals ``hands`` (seat i gets block i) and then turns ``turned``."""
    cards = [c for h in hands for c in h.split()]
    return cards + ([turned] if turned else [])


def new_game(
    hands: list[str],
    turned: str | None = None,
    *,
    dealer: int = 0,
    kind: str = "normal",
    integers: tuple[int, ...] = (),
    more_shuffles: tuple[list[str], ...] = (),
    **options,
) -> RaspisnoyPokerGame:
    """A game whose first deal gives ``hands`` with ``dealer`` dealing (one deal of that kind unless a
    ``schedule`` option is given)."""
    options.setdefault("schedule", [(len(hands[0].split()), kind)])
    chance = ScriptedChance(shuffles=[stack(hands, turned), *more_shuffles], integers=[dealer, *integers])
    return RaspisnoyPokerGame(chance=chance, num_players=len(hands), **options)


def card(text: str) -> int:
    return parse_card(text)


def joker(name: str, decl: str, suit: str | None = None) -> int:
    """Action of playing joker ``RJ``/``BJ`` as ``high``/``low`` (with a suit letter when leading)."""
    base = A.JOKER_BASE + A.DECLS_PER_JOKER * (0 if name == "RJ" else 1)
    if suit is None:
        return base + _K[(decl, None)]
    return base + (1 if decl == "high" else 5) + SUITS.index(suit)


def bid(b: int) -> int:
    return A.BID_BASE + b


def act(game: RaspisnoyPokerGame, *moves) -> None:
    """Apply moves: ints are actions, strings are natural cards ("As") or bids ("bid 2")."""
    for m in moves:
        if isinstance(m, str):
            m = bid(int(m.split()[1])) if m.startswith("bid") else card(m)
        game.apply(m)


def legal(game: RaspisnoyPokerGame) -> list[int]:
    return game.legal_actions()


def cards_of(texts: str) -> list[int]:
    return sorted(card(t) for t in texts.split())
