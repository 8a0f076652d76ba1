"""The Mexican poker table as a scene (``pokerzoo.envs.engine.scene``) for the browser.

Every card carries its two corner numbers (board size, hand size); the
revealed card, the board and the trick are face up; other hands are face
down (their sizes are public) and other predictions show only as a chip
until everyone has predicted, exactly as the ``MexicanView`` holds them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pokerzoo.envs.engine import scene as sc
from pokerzoo.envs.engine.hands.exact import CATEGORIES
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS
from pokerzoo.envs.mexican_poker import corners
from pokerzoo.envs.mexican_poker.scoring import NO_DOUBT, PASSED

if TYPE_CHECKING:
    from pokerzoo.envs.mexican_poker.game import MexicanPokerGame

DECK = "65"


def scene(game: MexicanPokerGame, viewer: int | None) -> dict:
    v = game.view(0 if viewer is None else viewer)

    def faces(ids, **kw) -> list[dict]:
        return [sc.card(c, DECK, corners=corners.PAIRS[game.table[c]], **kw) for c in ids]

    seats = []
    for p in range(v.num_players):
        if viewer is None:
            hand = faces(game.hands[p])
        elif p == viewer:
            hand = faces(v.hand)
        else:
            hand = sc.down(v.hand_counts[p])
        if viewer is None and game.predictions[p] >= 0:
            prediction = str(game.predictions[p])
        elif v.predictions[p] >= 0:
            prediction = str(v.predictions[p])
        else:
            prediction = "chip down" if v.predicted[p] else "—"
        d = v.doubts[p]
        doubt = "—" if d == NO_DOUBT else "kept" if d == PASSED else f"on P{d}"
        facts = [("prediction", prediction), ("doubt", doubt), ("tricks", v.tricks[p]), ("score", v.scores[p])]
        marks = sc.marks(p, viewer=viewer, to_act=v.current_player)
        if p == v.token:
            marks.insert(0, "token")
        seats.append(sc.seat(p, facts, [sc.row("hand", hand, f"{v.hand_counts[p]} cards")], marks))
    center = [
        sc.row("Revealed", faces([v.revealed]), f"board {v.board_size}, hands {v.hand_size}"),
        sc.row("Board", faces(v.board)),
    ]
    if v.phase == "play":
        plays = []
        for seat, hand_cards, board_cards, key in v.trick:
            category = CATEGORIES[key >> TIEBREAK_BITS].replace("_", " ")
            win = seat == v.winning
            plays += faces(hand_cards, tag=f"P{seat}", hi=win)
            plays += faces(board_cards, tag=f"P{seat} board", hi=win)
            plays[-1]["tag"] += f" · {category}"
        center.append(sc.row(f"Trick {v.tricks_played + 1}, led by P{v.leader}", plays, "" if plays else "no play yet"))
    last = None
    r = game.last_round
    if r is not None:
        parts = ", ".join(
            f"P{s} {p:+d} ({r['prediction_points'][s]:+d} prediction, {r['doubt_points'][s]:+d} doubt)"
            for s, p in enumerate(r["points"])
        )
        last = {"title": f"Round {r['round'] + 1} scored: {parts}", "rows": []}
    status = sc.to_act_status(v.phase, v.current_player, game.is_over)
    if game.result is not None:
        winners = ", ".join(f"P{s}" for s in game.result["winners"])
        status = f"game over: {'draw between' if game.result['draw'] else 'winner'} {winners}"
    return sc.scene(
        f"Mexican poker — round {min(v.round + 1, v.rounds)}/{v.rounds}",
        status,
        viewer,
        seats,
        center,
        [("Phase", v.phase), ("Tricks played", v.tricks_played), ("Cards played this round", len(v.played))],
        last=last,
    )
