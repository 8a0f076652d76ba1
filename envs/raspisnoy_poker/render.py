"""The ansi table of Raspisnoy poker, drawn from one player's view (never from hidden state)."""

from __future__ import annotations

from pokerzoo.envs.engine.cards import format_card
from pokerzoo.envs.engine.tricks import Play
from pokerzoo.envs.raspisnoy_poker.schedule import SHEET_LETTERS
from pokerzoo.envs.raspisnoy_poker.view import RaspisnoyView

SUIT_CHARS = "shdc"
KIND_TITLES = {
    "normal": "normal",
    "no_trump": "no-trump (Б)",
    "dark": "dark (Т)",
    "gold": "gold (З)",
    "misere": "misère (М)",
    "forehead": "forehead (Л)",
}
SHEET_ROWS = 12  # the latest deals shown; totals always


def _card(card: int, labels: dict[int, str]) -> str:
    text = format_card(card)
    return f"{text}[{labels[card]}]" if card in labels else text


def _play(p: Play, labels: dict[int, str]) -> str:
    text = _card(p.card, labels)
    if p.card >= 65:
        text += f"({'high' if p.decl == 1 else 'low'} {SUIT_CHARS[p.suit] if p.suit >= 0 else ''})".replace(
            " )", ")"
        )
    return text


def _points(x: float) -> str:
    return f"{x:g}"


def render(v: RaspisnoyView, labels: dict[int, str]) -> str:
    n = v.num_players
    trump = f"trump {SUIT_CHARS[v.trump]}" if v.trump >= 0 else "no trump"
    shown = ""
    if v.trump_holder >= 0:
        shown = f" (shown {_card(v.trump_card, labels)}, in the dealer's hand)"
    elif v.trump_card >= 0:
        shown = f" (shown {_card(v.trump_card, labels)}{', back in the deck' if v.whole_deck else ''})"
    lines = [
        f"Raspisnoy poker — deal {min(v.deal_index + 1, v.num_deals)}/{v.num_deals}: "
        f"{v.cards} card{'s' if v.cards > 1 else ''}, {KIND_TITLES[v.kind]}, {trump}{shown}; "
        f"dealer P{v.dealer}; phase {v.phase}"
        + (f", P{v.current_player} to act" if v.current_player is not None else "")
    ]
    for seat in range(n):
        bid = "—" if v.bids[seat] < 0 else str(v.bids[seat])
        marks = ("D" if seat == v.dealer else " ") + (">" if seat == v.current_player else " ")
        who = "you" if seat == v.player else "   "
        line = (
            f" {marks} P{seat} {who}  bid {bid:>2}  tricks {v.tricks[seat]:>2}  cards {v.hand_sizes[seat]:>2}"
        )
        line += f"  total {_points(v.scores[seat]):>6}"
        if v.visible[seat]:
            line += f"  forehead: {' '.join(_card(c, labels) for c in v.visible[seat])}"
        lines.append(line)
    trick = [f"P{p.seat} {_play(p, labels)}" for p in v.trick]
    if v.pending_joker >= 0:
        trick.append(f"P{v.current_player} {_card(v.pending_joker, labels)}(declaring)")
    if len(v.done_tricks) < v.cards:
        lines.append(
            f"Trick {len(v.done_tricks) + 1}, led by P{v.leader}: " + (", ".join(trick) or "(empty)")
        )
    if v.done_tricks:
        last = v.done_tricks[-1]
        lines.append(
            f"Last trick (won by P{v.trick_winners[-1]}): "
            + ", ".join(f"P{p.seat} {_play(p, labels)}" for p in last)
        )
    if v.hand_hidden:
        k = v.hand_sizes[v.player]
        lines.append(f"Your hand (P{v.player}): hidden ({k} card{'s' if k != 1 else ''})")
    else:
        lines.append(f"Your hand (P{v.player}): " + (" ".join(_card(c, labels) for c in v.hand) or "(empty)"))
    lines.append(_sheet(v))
    return "\n".join(lines)


def _sheet(v: RaspisnoyView) -> str:
    n = v.num_players
    head = "Score sheet   " + "".join(f"| P{s:<2} bid tk   pts " for s in range(n))
    rows = [head]
    shown = v.sheet[-SHEET_ROWS:]
    if len(v.sheet) > len(shown):
        rows.append(f"  ... {len(v.sheet) - len(shown)} earlier deals")
    for r in shown:
        title = f"{r.deal + 1:>3}. {r.cards:>2}{SHEET_LETTERS[r.kind]:<1}"
        cells = ""
        for s in range(n):
            bid = "-" if r.bids[s] < 0 else str(r.bids[s])
            cells += f"|     {bid:>3} {r.tricks[s]:>2} {_points(r.points[s]):>5} "
        rows.append(f"{title:<14}{cells}")
    rows.append(f"{'totals':<14}" + "".join(f"|            {_points(v.scores[s]):>5} " for s in range(n)))
    return "\n".join(rows)
