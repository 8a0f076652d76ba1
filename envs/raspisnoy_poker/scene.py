"""The Raspisnoy poker table as a scene (``pokerzoo.envs.engine.scene``) for the browser.

Drawn from the ``RaspisnoyView``: a seat sees its own hand (face down while
bidding a dark deal, and always in a forehead deal, where it sees the
others' cards instead), the trump card, the trick in play and the last one,
and the score sheet. Jokers carry their declaration (high / low, suit).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pokerzoo.envs.engine import scene as sc
from pokerzoo.envs.engine.cards import STANDARD_SUIT_NAMES as SUIT_NAMES
from pokerzoo.envs.engine.tricks import DECLARATION_NAMES, NATURAL, Play
from pokerzoo.envs.raspisnoy_poker.render import KIND_TITLES, SHEET_ROWS, SUIT_CHARS
from pokerzoo.envs.raspisnoy_poker.schedule import SHEET_LETTERS

if TYPE_CHECKING:
    from pokerzoo.envs.raspisnoy_poker.game import RaspisnoyPokerGame


def _play(p: Play, deck: str, hi: bool = False) -> dict:
    tag = f"P{p.seat}"
    if p.decl != NATURAL:
        tag += f" {DECLARATION_NAMES[p.decl]}" + (f" {SUIT_CHARS[p.suit]}" if p.suit >= 0 else "")
    return sc.card(p.card, deck, tag=tag, hi=hi)


def _points(x: float) -> str:
    return f"{x:g}"


def scene(game: RaspisnoyPokerGame, viewer: int | None) -> dict:
    v = game.view(0 if viewer is None else viewer)
    deck, n = v.deck, v.num_players
    seats = []
    for p in range(n):
        if viewer is None:
            hand, note = sc.cards(game.hands[p], deck), ""
        elif p == viewer:
            hidden = v.hand_hidden
            hand = sc.down(v.hand_sizes[p]) if hidden else sc.cards(v.hand, deck)
            note = "hidden from you" if hidden else ""
        elif v.visible[p]:
            hand, note = sc.cards(v.visible[p], deck), "on the forehead"
        else:
            hand, note = sc.down(v.hand_sizes[p]), ""
        facts = [
            ("bid", "—" if v.bids[p] < 0 else v.bids[p]),
            ("tricks", v.tricks[p]),
            ("total", _points(v.scores[p])),
        ]
        marks = sc.marks(p, viewer=viewer, to_act=v.current_player, dealer=v.dealer)
        seats.append(sc.seat(p, facts, [sc.row("hand", hand, note)], marks))
    center = []
    if v.trump_card >= 0:
        where = "in the dealer's hand" if v.trump_holder >= 0 else "back in the deck" if v.whole_deck else "turned"
        center.append(sc.row("Trump card", [sc.card(v.trump_card, deck)], where))
    if len(v.done_tricks) < v.cards:
        trick = [_play(p, deck) for p in v.trick]
        if v.pending_joker >= 0:
            trick.append(sc.card(v.pending_joker, deck, tag=f"P{v.current_player} declaring", hi=True))
        center.append(sc.row(f"Trick {len(v.done_tricks) + 1}, led by P{v.leader}", trick, "" if trick else "empty"))
    if v.done_tricks:
        w = v.trick_winners[-1]
        center.append(sc.row(f"Last trick, won by P{w}", [_play(p, deck, hi=p.seat == w) for p in v.done_tricks[-1]]))
    sheet = v.sheet[-SHEET_ROWS:]
    rows = [
        [f"{r.deal + 1}. {r.cards}{SHEET_LETTERS[r.kind]}"]
        + [f"{'-' if r.bids[s] < 0 else r.bids[s]}/{r.tricks[s]}: {_points(r.points[s])}" for s in range(n)]
        for r in sheet
    ]
    rows.append(["totals"] + [_points(x) for x in v.scores])
    table = {"title": "Score sheet (bid/tricks: points)", "head": ["deal"] + [f"P{s}" for s in range(n)], "rows": rows}
    last = None
    d = game.last_deal
    if d is not None:
        parts = ", ".join(f"P{s} {_points(p)}" for s, p in enumerate(d["points"]))
        last = {"title": f"Deal {d['deal'] + 1} ({d['cards']} cards, {d['deal_kind']}) scored: {parts}", "rows": []}
    trump = SUIT_NAMES[v.trump] if v.trump >= 0 else "none"
    return sc.scene(
        f"Raspisnoy poker — deal {min(v.deal_index + 1, v.num_deals)}/{v.num_deals}: "
        f"{v.cards} card{'s' if v.cards > 1 else ''}, {KIND_TITLES[v.kind]}",
        sc.to_act_status(v.phase, v.current_player, game.is_over),
        viewer,
        seats,
        center,
        [("Trump suit", trump), ("Deal kind", KIND_TITLES[v.kind]), ("Tricks played", len(v.done_tricks))],
        [table],
        last,
    )
