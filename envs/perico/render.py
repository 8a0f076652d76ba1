"""The text table of a Perico game as one seat sees it (``render_mode="ansi"``).

Only what that seat may know is drawn: its own hand (and drawn card), the
face-up discard pile, the public counters, and the hands shown at the last
showdown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pokerzoo.envs.engine.cards import format_card, format_cards
from pokerzoo.envs.perico import actions

if TYPE_CHECKING:
    from pokerzoo.envs.perico.game import PericoGame


def render(game: PericoGame, viewer: int | None = None) -> str:
    if viewer is None:
        viewer = game.current_player if game.current_player is not None else 0
    v = game.view(viewer)
    variant = "Six-card Perico" if v.six_card else "Perico"
    lines = [
        f"{variant} — round {v.round_number}, target {v.target}, phase {v.phase}"
        + (f", P{v.current_player} to act" if v.current_player is not None else ""),
        "Scores: " + "  ".join(f"P{p} {s}" for p, s in enumerate(v.scores)) + f"   dealer P{v.dealer}",
    ]
    pile = format_cards(v.pile[-8:]) if v.pile else "--"
    more = f" (+{len(v.pile) - 8} below)" if len(v.pile) > 8 else ""
    lines.append(f"Stock {v.stock_size} cards; discard pile (top last): {more}{pile}")
    seats = []
    for p in range(v.num_players):
        mark = "*" if p == v.current_player else " "
        seats.append(f"{mark}P{p} {v.draw_turns[p]} turns/{v.exchanged[p]} cards (last {v.last_exchange[p]})")
    lines.append("This round: " + "; ".join(seats) + (" — knocking allowed" if v.knock_allowed else ""))
    hand = format_cards(v.hand)
    category = ""
    if len(v.hand) == v.hand_size:
        category = f" [{game.ranker.category(game.ranker.key(v.hand)).replace('_', ' ')}]"
    drawn = f"  drawn: {format_card(v.drawn)}" if v.drawn >= 0 else ""
    slots = " ".join(f"{i}:{format_card(c)}" for i, c in enumerate(v.hand))
    lines.append(f"P{viewer} hand: {hand}{category}{drawn}   (slots {slots})")
    if v.current_player == viewer:
        lines.append("Legal: " + _legal_summary(game, v.phase))
    o = game.last_outcome
    if o is not None:
        who = f"P{o['winner']} won" if o["winner"] is not None else "tie between " + ", ".join(
            f"P{p}" for p in o["tied"]
        )
        shown = "; ".join(
            f"P{h['seat']} {h['cards']} ({h['category'].replace('_', ' ')})" for h in o["hands"]
        )
        lines.append(f"Last round {o['round']} ({o['reason'].replace('_', ' ')}): {who} — {shown}")
    if game.is_over:
        lines.append("Game over: " + ", ".join(f"P{p}" for p in game.winners) + " won")
    return "\n".join(lines)


def _legal_summary(game: PericoGame, phase: str) -> str:
    h = game.hand_size
    if phase == "knock":
        return "0 knock, 1 play on"
    if phase == "discard":
        return f"{actions.DISCARD0}..{actions.DISCARD0 + h} discard slot 0..{h} (slot {h} = the drawn card)"
    first = actions.exchange0(h)
    return (
        f"{actions.DRAW} draw; {first}..{game.num_actions - 1} exchange the slots of bit mask "
        f"action - {first - 1} (e.g. {first} = slot 0 only, {game.num_actions - 1} = all)"
    )
