"""The Caribbean stud table as a scene (``pokerzoo.envs.engine.scene``) for the browser.

The player sees the boxes dealt so far (each box's cards from its own turn
on) and the dealer's up card; the dealer's four other cards are face down
until the hand is settled, when the showdown (``last_outcome``) shows them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pokerzoo.envs.caribbean_stud.payouts import SYSTEM
from pokerzoo.envs.engine import scene as sc

if TYPE_CHECKING:
    from pokerzoo.envs.caribbean_stud.game import CaribbeanStudGame

DECISIONS = {-1: "", 0: "folded", 1: "raised"}


def scene(game: CaribbeanStudGame, viewer: int | None) -> dict:
    v = game.view(0)
    dealt = v.dealer_up >= 0
    rows = []
    for b in range(v.boxes):
        seen = v.box_cards[b] if viewer is not None else tuple(game.box_cards[b]) if dealt else ()
        if seen:
            shown = sc.cards(seen)
            category = SYSTEM.evaluate(seen).category.replace("_", " ")
        else:
            shown, category = sc.down(5 if dealt else 0), ""
        note = ", ".join(x for x in (category, DECISIONS[v.decisions[b]]) if x)
        ante = v.antes[b] or "?"
        rows.append(
            sc.row(f"box {b + 1}, ante {ante}" + (" <-" if b == v.box and not game.is_over else ""), shown, note)
        )
    o = game.last_outcome
    if game.is_over and o is not None:  # the showdown turned the dealer's cards
        dealer = sc.named(o["dealer"]["cards"])
    elif viewer is None and dealt:
        dealer = sc.cards(game.dealer)
    elif dealt:
        dealer = [*sc.down(4), sc.card(v.dealer_up)]
    else:
        dealer = []
    center = [sc.row("Dealer", dealer, "" if dealer else "not dealt yet")]
    last = None
    if o is not None:
        d = o["dealer"]
        last_rows = [
            sc.row(
                "dealer",
                sc.named(d["cards"]),
                f"{d['category'].replace('_', ' ')}, {'qualifies' if d['qualified'] else 'does not qualify'}",
            )
        ]
        for i, box in enumerate(o["boxes"]):
            last_rows.append(
                sc.row(
                    f"box {i + 1}",
                    sc.named(box["cards"]),
                    f"{box['category'].replace('_', ' ')}, {box['decision']}: {box['result'].replace('_', ' ')} "
                    f"{box['net']:+d}",
                )
            )
        last = {"title": f"Hand {o['hand'] + 1} settled: net {o['net']:+d}", "rows": last_rows}
    player = sc.seat(0, [("boxes", v.boxes)], rows, sc.marks(0, viewer=viewer, to_act=v.current_player))
    hand = min(v.hand_number + 1, v.num_hands)
    return sc.scene(
        f"Caribbean stud — hand {hand}/{v.num_hands}",
        sc.to_act_status(v.phase, v.current_player, game.is_over),
        viewer,
        [player],
        center,
        [("Phase", v.phase), ("Antes", ", ".join(map(str, v.ante_choices)))],
        last=last,
    )
