"""The Breed the Heifer table as a scene (``pokerzoo.envs.engine.scene``) for the browser.

A seat sees its own down cards, everyone's up cards (folded seats keep
theirs), the chips, and how many down cards each other seat holds, never
which; cards of the wild rank are marked wild, and the latest settlement
shows the hands that went to showdown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pokerzoo.envs.breed_the_heifer.render import STREETS, seat_state, wild_text
from pokerzoo.envs.engine import scene as sc
from pokerzoo.envs.engine.cards import RANK_CHARS, RANK_OF

if TYPE_CHECKING:
    from pokerzoo.envs.breed_the_heifer.game import BreedTheHeiferGame


def scene(game: BreedTheHeiferGame, viewer: int | None) -> dict:
    v = game.view(0 if viewer is None else viewer)
    wild_rank = v.wild_rank

    def is_wild(c: int) -> bool:
        return wild_rank >= 0 and RANK_OF[c] == wild_rank

    seats = []
    for p in range(v.num_players):
        if viewer is None:
            down = sc.cards(game.down[p], wild=is_wild)
        elif p == viewer:
            down = sc.cards(v.down, wild=is_wild)
        else:
            down = sc.down(len(game.down[p]))  # how many, never which
        out = seat_state(v, p)
        facts = [("stack", v.stacks[p]), ("bet", v.bets[p]), ("in the pot", v.committed[p])]
        rows = [sc.row("down", down), sc.row("up", sc.cards(v.up[p], wild=is_wild))]
        seats.append(sc.seat(p, facts, rows, sc.marks(p, viewer=viewer, to_act=v.current_player, dealer=v.dealer), out))
    last = None
    o = game.last_outcome
    if o is not None:
        rows = [
            sc.row(
                f"P{p}",
                sc.named(pl["cards"]) if pl["cards"] else [],
                ", ".join(x for x in ((pl["category"] or "").replace("_", " "), f"{pl['net']:+d}") if x),
            )
            for p, pl in enumerate(o["players"])
        ]
        pots = "; ".join(f"pot {pot['amount']} to " + ", ".join(f"P{w}" for w in pot["winners"]) for pot in o["pots"])
        wild = f", {o['wild']}s wild" if o["wild"] else ""
        last = {
            "title": f"Hand {o['hand'] + 1} settled{' at showdown' if o['showdown'] else ''}{wild}: {pots}",
            "rows": rows,
        }
    street = "over" if v.phase == "over" else STREETS[v.street]
    if v.wild_rank >= 0:
        wild = f"{RANK_CHARS[v.wild_rank]} (every {RANK_CHARS[v.wild_rank]} plays wild)"
    else:
        wild = wild_text(v).removeprefix("wild: ")
    facts = [("Street", street), ("Pot", v.pot), ("Wild", wild)]
    if v.current_player is not None:
        facts += [
            ("To call", game.view(v.current_player).to_call),
            ("Bet size", v.bet_size),
            ("Bets this round", f"{v.complete_bets}/{v.max_bets}"),
        ]
    return sc.scene(
        f"Breed the Heifer — hand {min(v.hand_number + 1, v.num_hands)}/{v.num_hands}, {street}",
        sc.to_act_status(v.phase, v.current_player, game.is_over),
        viewer,
        seats,
        [sc.row("Pot", [], f"{v.pot} chips")],
        facts,
        last=last,
    )
