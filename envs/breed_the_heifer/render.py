"""Text table of a Breed the Heifer hand as one seat sees it (``render_mode="ansi"``).

Drawn from the viewer's ``View`` only, so rendering can never show a card
the viewer may not see: other players' down cards print as ``##``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pokerzoo.envs.engine.cards import RANK_CHARS, format_cards

if TYPE_CHECKING:
    from pokerzoo.envs.breed_the_heifer.game import BreedTheHeiferGame

STREETS = {3: "3rd street", 4: "4th street", 5: "5th street", 6: "6th street", 7: "7th street"}


def wild_text(view) -> str:
    if view.wild_rank >= 0:
        return f"wild: {RANK_CHARS[view.wild_rank]}s"
    if view.pair_pending:
        return "wild: none (pair pending: the next up card breeds it)"
    return "wild: none"


def seat_state(view, p: int) -> str:
    """'sitting out', 'folded', 'all in' or '' for seat ``p`` (public facts of the view)."""
    if not view.in_hand[p]:
        return "sitting out"
    if view.folded[p]:
        return "folded"
    return "all in" if view.stacks[p] == 0 else ""


def render(game: BreedTheHeiferGame, viewer: int | None = None) -> str:
    if viewer is None:
        viewer = game.current_player if game.current_player is not None else 0
    v = game.view(viewer)
    street = "over" if v.phase == "over" else STREETS[v.street]
    lines = [
        f"Breed the Heifer — hand {min(v.hand_number + 1, v.num_hands)}/{v.num_hands}, {street}, "
        f"pot {v.pot}, {wild_text(v)}; seen by player {viewer}"
    ]
    for p in range(v.num_players):
        marker = "->" if v.current_player == p else "  "
        button = "D" if v.dealer == p else " "
        if not v.in_hand[p]:
            lines.append(f"{marker} P{p} {button} stack {v.stacks[p]:>4}  (sitting out)")
            continue
        if p == viewer:
            down = format_cards(v.down) if v.down else ""
        else:
            down = " ".join("##" for _ in game.down[p])  # how many, never which
        up = format_cards(v.up[p])
        state = seat_state(v, p)
        row = f"{marker} P{p} {button} stack {v.stacks[p]:>4}  bet {v.bets[p]:>3}  [{down}] {up}  {state}"
        lines.append(row.rstrip())
    if v.phase != "over" and v.current_player is not None:
        legal = ", ".join(name.split(":", 1)[1] for name in game.legal_action_names())
        lines.append(f"To act: P{v.current_player}; legal: {legal}")
    recent = [e for e in game.events if e["type"] in ("action", "wild", "settle")][-4:]
    for e in recent:
        if e["type"] == "action":
            lines.append(f"  P{e['player']} {e['action']} {e['amount'] or ''}".rstrip())
        elif e["type"] == "wild":
            lines.append(f"  wild event: {e['event']}" + (f" ({e['card']})" if "card" in e else ""))
        else:
            won = ", ".join(f"P{i} {pl['net']:+d}" for i, pl in enumerate(e["players"]) if pl["net"])
            lines.append(f"  hand {e['hand'] + 1} settled: {won or 'no chips moved'}")
    return "\n".join(lines)
