"""The three-card high card table as a scene (``pokerzoo.envs.engine.scene``) for the browser.

A seat sees its own three cards and everyone's decisions; the other hands
stay face down until the showdown shows them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pokerzoo.envs.engine import scene as sc

if TYPE_CHECKING:
    from pokerzoo.envs.high_card.game import HighCardGame

SHOWN = {-1: "to decide", 0: "folded", 1: "played"}


def scene(game: HighCardGame, viewer: int | None) -> dict:
    v = game.view(0 if viewer is None else viewer)
    seats = []
    for p in range(v.num_players):
        if viewer is None or game.is_over:
            hand = sc.cards(game.hands[p])
        else:
            hand = sc.cards(v.hand) if p == viewer else sc.down(3)
        marks = sc.marks(p, viewer=viewer, to_act=v.current_player)
        out = "folded" if v.decisions[p] == 0 else ""
        seats.append(sc.seat(p, [("decision", SHOWN[v.decisions[p]])], [sc.row("hand", hand)], marks, out))
    last = None
    if game.outcome is not None:
        winners = ", ".join(f"P{s}" for s in game.outcome["winners"]) or "nobody played"
        nets = ", ".join(f"P{s} {x:+g}" for s, x in enumerate(game.outcome["net"]))
        last = {"title": f"Showdown: {winners}; {nets}", "rows": []}
    return sc.scene(
        "Three-card high card",
        sc.to_act_status(v.phase, v.current_player, game.is_over),
        viewer,
        seats,
        [sc.row("Pot", [], f"{v.pot} chips")],
        last=last,
    )
