"""The ``determinize`` contract for every game (``pokerzoo.envs.testing.check_determinize``).

Each game's knowledge function says, from the player's view and the rules
alone, where the cards the player cannot see may lie; the kit then checks
that sampled worlds keep the view, never put a card where the player can rule
it out, put every hidden card in every place it could be, and depend on
nothing but the player's information. A game added to the registry must add
its knowledge function here (``test_every_game_has_a_knowledge_function``).
"""

from __future__ import annotations

import numpy as np
import pytest

from pokerzoo.envs import GAMES, game_class
from pokerzoo.envs.engine.cards import DECKS, ScriptedChance
from pokerzoo.envs.engine.cards import parse_card as card
from pokerzoo.envs.engine.game import Game
from pokerzoo.envs.mexican_poker.game import MexicanPokerGame, slot_sorted
from pokerzoo.envs.perico.game import PericoGame
from pokerzoo.envs.raspisnoy_poker import worlds
from pokerzoo.envs.raspisnoy_poker.game import RaspisnoyPokerGame
from pokerzoo.envs.raspisnoy_poker.schedule import FOREHEAD
from pokerzoo.envs.testing import HiddenPlace, check_determinize, check_determinize_at


def _sizes(g: Game) -> dict[str, int]:
    return {z: len(cards) for z, cards in g.zones().items()}


def raspisnoy_knowledge(g: Game, p: int) -> list[HiddenPlace]:
    v = g.view(p)
    visible = set(v.hand) | {pl.card for t in v.done_tricks for pl in t} | {pl.card for pl in v.trick}
    for cards in v.visible:
        visible.update(cards)
    if v.pending_joker >= 0:
        visible.add(v.pending_joker)
    if v.trump_card >= 0 and not v.whole_deck:
        visible.add(v.trump_card)  # the turned card lies face up
    pool = frozenset(c for c in DECKS[v.deck].cards if c not in visible)
    known_trump = v.trump_card if v.trump_holder >= 0 else None  # everyone saw the dealer keep it

    def fits(q: int, c: int) -> bool:
        if c >= 65:
            return True
        s = c // 13
        return not (v.voids[q] >> s) & 1 and c % 13 <= v.ceilings[q][s]

    places = []
    for q in range(v.num_players):
        if (q == p and not v.hand_hidden) or (q != p and v.kind == FOREHEAD):
            continue
        size = v.hand_sizes[q]
        if q == v.trump_holder:
            places.append(HiddenPlace(f"hand{q}", 1, frozenset({known_trump})))
            size -= 1
        allowed = frozenset(c for c in pool if c != known_trump and fits(q, c))
        places.append(HiddenPlace(f"hand{q}", size, allowed))
    places.append(HiddenPlace("stock", _sizes(g)["stock"], pool - {known_trump}))
    return places


def mexican_knowledge(g: Game, p: int) -> list[HiddenPlace]:
    v = g.view(p)
    visible = set(v.hand) | set(v.board) | set(v.played) | {c for _, cards, _, _ in v.trick for c in cards}
    pool = frozenset(c for c in range(65) if c not in visible)
    places = [HiddenPlace(f"hand{q}", v.hand_counts[q], pool) for q in range(v.num_players) if q != p]
    return [*places, HiddenPlace("stock", _sizes(g)["stock"], pool)]


def perico_knowledge(g: Game, p: int) -> list[HiddenPlace]:
    """Cards never seen this round, cards of each reshuffle, and jokers turned at the deal (``PericoView``)."""
    v = g.view(p)
    visible = set(v.hand) | set(v.pile) | ({v.drawn} if v.drawn >= 0 else set())
    hidden = [c for c in DECKS[v.deck].cards if c not in visible]
    generation = {}
    for g_index, cards in enumerate(v.recycled, start=1):
        for c in cards:
            generation[c] = g_index
    returned = {c for c in hidden if c in v.returned_jokers and c not in generation}
    by_class: dict[int, frozenset[int]] = {}
    for k in range(len(v.recycled) + 1):
        by_class[k] = frozenset(c for c in hidden if generation.get(c, 0) == k and c not in returned)
    stock_class = len(v.recycled)
    places = []
    drawing = v.current_player if v.phase == "discard" and v.current_player != p else None
    for q in range(v.num_players):
        if q == p:
            continue
        size = _sizes(g)[f"hand{q}"]
        for k in range(1, len(v.recycled) + 1):
            held = v.recycled_held[q][k - 1] - (q == drawing and stock_class == k)
            places.append(HiddenPlace(f"hand{q}", held, by_class[k]))
            size -= held
        jokers = returned if v.first_stock_draws[q] else frozenset()
        places.append(HiddenPlace(f"hand{q}", size, by_class[0] | jokers))
    first_stock = by_class[0] | returned
    if drawing is not None:
        places.append(HiddenPlace("drawn", 1, by_class[stock_class] if stock_class else first_stock))
    places.append(HiddenPlace("stock", v.stock_size, by_class[stock_class] if stock_class else first_stock))
    return places


def heifer_knowledge(g: Game, p: int) -> list[HiddenPlace]:
    v = g.view(p)
    visible = set(v.down) | {c for up in v.up for c in up}
    pool = frozenset(c for c in range(52) if c not in visible)
    sizes = _sizes(g)
    places = [HiddenPlace(f"p{q}_down", sizes[f"p{q}_down"], pool) for q in range(v.num_players) if q != p]
    return [*places, HiddenPlace("stock", sizes["stock"], pool)]


def caribbean_knowledge(g: Game, p: int) -> list[HiddenPlace]:
    v = g.view(p)
    visible = {c for cards in v.box_cards for c in cards}
    pool = frozenset(c for c in range(52) if c not in visible)
    up = v.dealer_up
    rest = pool - {up}
    places = [HiddenPlace(f"box{b}", 5, rest) for b in range(v.boxes) if not v.box_cards[b]]
    if up >= 0:
        places += [HiddenPlace("dealer", 4, rest), HiddenPlace("dealer", 1, frozenset({up}))]
    else:
        places = [HiddenPlace(f"box{b}", 0, rest) for b in range(v.boxes)]
    return [*places, HiddenPlace("stock", _sizes(g)["stock"], rest)]


def high_card_knowledge(g: Game, p: int) -> list[HiddenPlace]:
    v = g.view(p)
    if g.is_over:  # the showdown shows every hand
        return []
    pool = frozenset(c for c in range(52) if c not in v.hand)
    places = [HiddenPlace(f"hand{q}", 3, pool) for q in range(v.num_players) if q != p]
    return [*places, HiddenPlace("stock", _sizes(g)["stock"], pool)]


KNOWLEDGE = {
    "high_card_v0": high_card_knowledge,
    "raspisnoy_poker_v0": raspisnoy_knowledge,
    "mexican_poker_v0": mexican_knowledge,
    "perico_v0": perico_knowledge,
    "breed_the_heifer_v0": heifer_knowledge,
    "caribbean_stud_v0": caribbean_knowledge,
}

CASES = [
    ("raspisnoy_poker_v0", {"num_players": 4, "schedule": "single"}, range(3)),
    ("raspisnoy_poker_v0", {"num_players": 3, "deck": "34", "schedule": [[5, "normal"], [3, "dark"]]}, [0]),
    ("raspisnoy_poker_v0", {"num_players": 4, "schedule": [[1, "forehead"], [2, "no_trump"]]}, [1, 2]),
    (
        "raspisnoy_poker_v0",
        {"num_players": 3, "schedule": [[18, "normal"]], "whole_deck_trump": "dealer_last"},
        [3],
    ),
    ("raspisnoy_poker_v0", {"num_players": 4, "schedule": [[6, "normal"]], "joker_lead_demands_highest": True}, [4]),
    ("mexican_poker_v0", {"num_players": 4, "rounds": 2}, [0, 1]),
    ("mexican_poker_v0", {"num_players": 2, "rounds": 1, "doubt_chips": False}, [2]),
    ("perico_v0", {"num_players": 4}, [0]),
    ("perico_v0", {"num_players": 3, "six_card": True, "target_score": 2}, [1]),
    ("breed_the_heifer_v0", {"num_players": 5}, [0, 1]),
    ("breed_the_heifer_v0", {"num_players": 3, "wild_pairs": "any_player", "num_hands": 2}, [2]),
    ("caribbean_stud_v0", {"boxes": 3, "ante_choices": [1, 2], "num_hands": 2}, [0]),
    ("high_card_v0", {"num_players": 4}, [0, 1]),
]


def test_every_game_has_a_knowledge_function():
    assert set(KNOWLEDGE) == set(GAMES)  # the example game too
    assert {name for name, _, _ in CASES} == set(GAMES)


@pytest.mark.parametrize(("name", "config", "seeds"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_determinize_contract(name, config, seeds):
    for seed in seeds:
        assert check_determinize(game_class(name), config, seed, KNOWLEDGE[name], every=7) > 0


def _long_perico_round(seed: int):
    """A four-player Perico round played by always drawing the card on top and throwing it back.

    Nobody knocks and hands never change, so the stock runs out and the pile is
    reshuffled into a new stock, and again: the case where a re-deal must keep
    the cards seen going back into the stock apart from the cards never seen.
    """
    from pokerzoo.envs.perico.actions import CONTINUE, DISCARD0, DRAW

    g = game_class("perico_v0")(seed=seed, num_players=4, max_turns_per_round=200, target_score=1)
    while g.round_number == 1 and not g.is_over and len(g.recycled) < 2:
        g.apply({"knock": CONTINUE, "turn": DRAW, "discard": DISCARD0 + g.hand_size}[g.phase])
    return g


def test_perico_keeps_reshuffled_cards_apart_from_cards_never_seen():
    g = _long_perico_round(5)
    assert len(g.recycled) == 2, "the scripted round should have reshuffled twice"
    rng = np.random.default_rng(0)
    for player in range(4):
        assert check_determinize_at(g, player, perico_knowledge, rng) > 0
    newest = set(g.recycled[-1])
    never_seen = [c for c in g.deck if g.card_class.get(c, 0) == 0]
    for _ in range(200):
        world = g.determinize(0, rng)
        assert set(world.stock) <= newest  # the stock is made of the last reshuffled pile only
        for q in (1, 2, 3):  # they drew and threw back every card, so they hold what they were dealt
            assert all(c in never_seen for c in world.hands[q])
    places = perico_knowledge(g, 0)
    assert any(p.zone == "stock" and p.allowed <= newest for p in places)


def test_perico_returned_joker_is_in_the_stock_until_someone_draws():
    # The first card turned is a joker: everyone sees it go back into the stock.
    cls = game_class("perico_v0")
    deal = ["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2h 3h 4h 5h 6h", "2s 3s 4s 5s 6s"]
    dealt = [card(c) for hand in deal for c in hand.split()]
    rest = [c for c in DECKS["54"].cards if c not in dealt and c != card("RJ")]
    chance = ScriptedChance(shuffles=[[*dealt, card("RJ"), *rest]], integers=[3], seed=1)  # RJ turned first
    g = cls(chance=chance, num_players=4)
    assert g.returned_jokers == (card("RJ"),)
    rng = np.random.default_rng(1)
    player = g.current_player
    worlds = [g.determinize(player, rng) for _ in range(100)]
    assert all(card("RJ") in w.stock for w in worlds)


# ---------------------------------------------------------------------------- the kit catches broken re-deals
def _raspisnoy_with_a_void() -> tuple[RaspisnoyPokerGame, int]:
    rng = np.random.default_rng(3)
    for seed in range(200):
        g = RaspisnoyPokerGame(seed=seed, num_players=4, schedule=[[8, "normal"]])
        while not g.is_over:
            p = g.current_player
            if g.phase == "play" and any(g.voids[q] for q in range(4) if q != p):
                return g, p
            g.apply(int(rng.choice(np.flatnonzero(g.legal_mask()))))
    raise AssertionError("no void shown in 200 random deals")


def test_kit_catches_a_redeal_that_ignores_voids(monkeypatch):
    g, p = _raspisnoy_with_a_void()
    real = worlds.redeal
    monkeypatch.setattr(worlds, "redeal", lambda zones, constraints, rng: real(zones, [None] * len(zones), rng))
    with pytest.raises(AssertionError, match="can rule out"):
        check_determinize_at(g, p, raspisnoy_knowledge, np.random.default_rng(0))


def test_kit_catches_a_redeal_that_moves_nothing(monkeypatch):
    g, p = _raspisnoy_with_a_void()
    monkeypatch.setattr(RaspisnoyPokerGame, "_redeal", lambda self, world, player, rng: None)
    with pytest.raises(AssertionError, match="never appeared where they could be"):
        check_determinize_at(g, p, raspisnoy_knowledge, np.random.default_rng(0), max_samples=200)


def test_kit_catches_a_world_that_knows_the_coming_shuffles(monkeypatch):
    g, p = _raspisnoy_with_a_void()
    redeal = RaspisnoyPokerGame._redeal

    def leaky(self, world, player, rng):
        redeal(self, world, player, rng)
        world.chance = self.chance.copy()

    monkeypatch.setattr(RaspisnoyPokerGame, "_redeal", leaky)
    with pytest.raises(AssertionError, match="knows the coming shuffles"):
        check_determinize_at(g, p, raspisnoy_knowledge, np.random.default_rng(0))


def test_kit_catches_a_world_that_depends_on_where_cards_lie(monkeypatch):
    def unsorted(self, world, player, rng):  # the pool in seat order: its order depends on the real deal
        others = [s for s in range(self.num_players) if s != player]
        hidden = [c for s in others for c in world.hands[s]] + world.stock
        shuffled = [hidden[i] for i in rng.permutation(len(hidden))]
        at = 0
        for s in others:
            world.hands[s] = slot_sorted(shuffled[at : at + len(world.hands[s])])
            at += len(world.hands[s])
        world.stock = shuffled[at:]

    g = MexicanPokerGame(seed=4, num_players=3, rounds=1)
    monkeypatch.setattr(MexicanPokerGame, "_redeal", unsorted)
    with pytest.raises(AssertionError, match="depends on where the hidden cards really lie"):
        check_determinize_at(g, g.current_player, mexican_knowledge, np.random.default_rng(0))


def test_kit_catches_perico_mixing_reshuffled_and_unseen_cards(monkeypatch):
    def loose(self, world, player, rng):  # the re-deal before cards seen going back were kept apart
        others = [q for q in range(self.num_players) if q != player]
        hidden = sorted([c for q in others for c in world.hands[q]] + world.stock)
        hidden = [hidden[i] for i in rng.permutation(len(hidden))]
        pos = 0
        for q in others:
            world._set_hand(q, hidden[pos : pos + len(world.hands[q])])
            pos += len(world.hands[q])
        world.stock = hidden[pos:]

    g = _long_perico_round(5)
    monkeypatch.setattr(PericoGame, "_redeal", loose)
    with pytest.raises(AssertionError, match=r"not a mix its places allow|can rule out"):
        check_determinize_at(g, 0, perico_knowledge, np.random.default_rng(0))
