"""The Perico table as a scene (``pokerzoo.envs.engine.scene``) for the browser.

A seat sees its own hand (and the card it just drew), the face-up discard
pile, how many cards the stock holds and everyone's counters; other hands
are face down (five or six cards, plus the drawer's drawn card), and the
hands shown at the latest showdown. Jokers are wild in every hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pokerzoo.envs.engine import scene as sc
from pokerzoo.envs.engine.cards import is_joker

if TYPE_CHECKING:
    from pokerzoo.envs.perico.game import PericoGame

PILE_SHOWN = 8


def _category(game: PericoGame, hand) -> str:
    if len(hand) != game.hand_size:
        return ""
    return game.ranker.category(game.ranker.key(list(hand))).replace("_", " ")


def scene(game: PericoGame, viewer: int | None) -> dict:
    v = game.view(0 if viewer is None else viewer)
    deck = v.deck
    drawer = v.current_player if v.phase == "discard" else None
    seats = []
    for p in range(v.num_players):
        if viewer is None or p == viewer:
            hand = v.hand if p == viewer else tuple(game.hands[p])
            drawn = v.drawn if p == viewer else game.drawn if p == drawer else -1
            shown = sc.cards(hand, deck, wild=is_joker)
            if drawn >= 0:
                shown.append(sc.card(drawn, deck, wild=is_joker(drawn), tag="drawn", hi=True))
            note = _category(game, hand)
        else:
            shown = sc.down(v.hand_size) + (sc.down(1, tag="drawn") if p == drawer else [])
            note = ""
        facts = [
            ("score", v.scores[p]),
            ("turns", v.draw_turns[p]),
            ("exchanged", v.exchanged[p]),
            ("last", v.last_exchange[p]),
        ]
        marks = sc.marks(p, viewer=viewer, to_act=v.current_player, dealer=v.dealer)
        seats.append(sc.seat(p, facts, [sc.row("hand", shown, note)], marks))
    pile = v.pile[-PILE_SHOWN:]
    below = len(v.pile) - len(pile)
    center = [
        sc.row("Discard pile (top last)", sc.cards(pile, deck, wild=is_joker), f"+{below} below" if below else ""),
        sc.row("Stock", sc.down(1) if v.stock_size else [], f"{v.stock_size} cards"),
    ]
    last = None
    o = game.last_outcome
    if o is not None:
        who = (
            f"P{o['winner']} won" if o["winner"] is not None else "tie between " + ", ".join(f"P{p}" for p in o["tied"])
        )
        last = {
            "title": f"Round {o['round']} ({o['reason'].replace('_', ' ')}): {who}",
            "rows": [
                sc.row(f"P{h['seat']}", sc.named(h["cards"], deck, wild=is_joker), h["category"].replace("_", " "))
                for h in o["hands"]
            ],
        }
    status = sc.to_act_status(v.phase, v.current_player, game.is_over)
    if game.is_over:
        status = "game over: " + ", ".join(f"P{p}" for p in game.winners) + " won"
    variant = "Six-card Perico" if v.six_card else "Perico"
    return sc.scene(
        f"{variant} — round {v.round_number}, target {v.target}",
        status,
        viewer,
        seats,
        center,
        [
            ("Round", v.round_number),
            ("Turns this round", f"{v.turns} of at most {v.max_turns}"),
            ("Knocking", "allowed" if v.knock_allowed else "not yet (everyone must draw once)"),
        ],
        last=last,
    )
