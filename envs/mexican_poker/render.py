"""Text rendering of a Mexican poker table from one player's view (``render_mode="ansi"``).

Drawn from the ``View`` only, so the text can never show a card or a
prediction the viewer may not know.
"""

from __future__ import annotations

from pokerzoo.envs.engine.cards import MEXICAN_SUIT_CHARS, MEXICAN_SUIT_NAMES, format_cards
from pokerzoo.envs.engine.hands.exact import CATEGORIES
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS
from pokerzoo.envs.mexican_poker.view import MexicanView


def _cards(cards) -> str:
    return format_cards(cards, MEXICAN_SUIT_CHARS) if cards else "-"


def _doubt(d: int) -> str:
    if d == -2:
        return ""
    return "kept" if d == -1 else f"on P{d}"


def render(view: MexicanView, last_round: dict | None = None, result: dict | None = None) -> str:
    v = view
    shown_round = min(v.round + 1, v.rounds)
    lines = [
        f"Mexican poker — round {shown_round}/{v.rounds}, phase {v.phase}, "
        f"token P{v.token}, viewer P{v.player}"
        + (f", P{v.current_player} to act" if v.current_player is not None else ""),
        f"Revealed {_cards([v.revealed])}: board {v.board_size}, hands {v.hand_size}   "
        f"(suits: {', '.join(f'{ch}={name}' for ch, name in zip(MEXICAN_SUIT_CHARS, MEXICAN_SUIT_NAMES))})",
        f"Board: {_cards(v.board)}",
        f"Your hand (P{v.player}): {_cards(v.hand)}",
    ]
    if v.phase == "play":
        lines.append(f"Trick {v.tricks_played + 1}, led by P{v.leader}:")
        if not v.trick:
            lines.append("  (no play yet)")
        for seat, hand_cards, board_cards, key in v.trick:
            board_part = f" + board {_cards(board_cards)}" if board_cards else ""
            mark = " <- winning" if seat == v.winning else ""
            category = CATEGORIES[key >> TIEBREAK_BITS].replace("_", " ")
            lines.append(f"  P{seat}: {_cards(hand_cards)}{board_part} ({category}){mark}")
    lines.append("Score sheet:  seat  cards  predicted  doubt   tricks  score")
    for s in range(v.num_players):
        if v.predictions[s] >= 0:
            pred = str(v.predictions[s])
        else:
            pred = "chip down" if v.predicted[s] else "-"
        you = " (you)" if s == v.player else ""
        lines.append(
            f"              P{s:<3} {v.hand_counts[s]:>5}  {pred:>9}  {_doubt(v.doubts[s]):>6}  "
            f"{v.tricks[s]:>6}  {v.scores[s]:>5}{you}"
        )
    if last_round is not None:
        lines.append(
            f"Round {last_round['round'] + 1} scored: "
            + ", ".join(
                f"P{s} {p:+d} ({last_round['prediction_points'][s]:+d} prediction, "
                f"{last_round['doubt_points'][s]:+d} doubt)"
                for s, p in enumerate(last_round["points"])
            )
        )
    if result is not None:
        winners = ", ".join(f"P{s}" for s in result["winners"])
        lines.append(f"Game over: {'draw between' if result['draw'] else 'winner'} {winners}")
    return "\n".join(lines)
