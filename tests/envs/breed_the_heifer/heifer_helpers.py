"""Stacked decks for Breed the Heifer tests (the rule tests and the batched engine's replays of them).

Cards come off the stock in dealing order: on 3rd street a round of down
cards, a second round of down cards, a round of up cards, each clockwise
from the dealer's left; then one card per player per street. ``stacked``
builds that stock from each seat's seven cards written in street order
("down down up up up up down").
"""

from __future__ import annotations

from pokerzoo.envs.breed_the_heifer.game import BreedTheHeiferGame
from pokerzoo.envs.engine.betting import CALL, CHECK
from pokerzoo.envs.engine.cards import ScriptedChance

STREET_OF_CARD = (3, 3, 3, 4, 5, 6, 7)


def stacked(n: int, dealer: int, hands: dict[int, str], out: dict[int, int] | None = None) -> ScriptedChance:
    """The chance whose first dealer is ``dealer`` and whose stock deals ``hands[seat]`` (a prefix of the deal).

    ``out[seat] = street``: the seat has folded before that street's cards and gets none of them.
    """
    out = out or {}
    order = [(dealer + k) % n for k in range(1, n + 1)]
    cards = {p: hands.get(p, "").split() for p in order}
    stock: list[str] = []
    complete = True
    for i, street in enumerate(STREET_OF_CARD):
        for p in order:
            if street >= out.get(p, 99):
                continue
            if i < len(cards[p]) and complete:
                stock.append(cards[p][i])
            else:
                complete = False
    given = sum(len(c) for c in cards.values())
    assert len(stock) == given, "the given cards must be a prefix of the deal"
    return ScriptedChance(shuffles=[stock], integers=[dealer])


def deal(n: int, dealer: int, hands: dict[int, str], out: dict[int, int] | None = None, **options):
    """A game on ``stacked(n, dealer, hands, out)`` with ``options``."""
    return BreedTheHeiferGame(chance=stacked(n, dealer, hands, out), num_players=n, **options)


def passive(game: BreedTheHeiferGame, until_street: int | None = None) -> None:
    """Everyone checks or calls until ``until_street`` is reached (or the game ends)."""
    while not game.is_over and (until_street is None or game.street < until_street):
        game.apply(CHECK if game.legal_mask()[CHECK] else CALL)
