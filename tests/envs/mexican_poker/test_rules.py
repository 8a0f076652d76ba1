"""Hand-written rule scenarios for Mexican poker (RULES.md §1), each on a stacked deck."""

from __future__ import annotations

import numpy as np
import pytest
from mexican_helpers import SUITS, bid, cards, play, stacked

from pokerzoo.envs.engine.cards import ScriptedChance
from pokerzoo.envs.engine.game import IllegalActionError
from pokerzoo.envs.engine.options import ConfigError
from pokerzoo.envs.mexican_poker import MexicanPokerGame, corners
from pokerzoo.envs.mexican_poker.actions import (
    DOUBT_BASE,
    FIRST_COMBO,
    NUM_ACTIONS,
    PASS,
    combo_action,
)
from pokerzoo.envs.mexican_poker.scoring import NO_DOUBT, PASSED, doubt_result, prediction_line, round_scores


def legal_plays(game: MexicanPokerGame) -> set[tuple[frozenset, frozenset]]:
    """Legal combinations of the current player as (own cards, board cards)."""
    from pokerzoo.envs.mexican_poker.actions import split

    own, board = game.hands[game.current_player], game.board
    out = set()
    for a in game.legal_actions():
        hs, bs = split(a)
        out.add((frozenset(own[i] for i in hs), frozenset(board[j] for j in bs)))
    return out


def last_category(game: MexicanPokerGame) -> str:
    return next(e for e in reversed(game.events) if e["type"] == "play")["category"]


# Revealed cards of each corner pair under the default table, pair (rank + suit) mod 5.
REVEAL = {0: "2m", 1: "3m", 2: "4m", 3: "5m", 4: "6m"}


# ---------------------------------------------------------------- deck and corners
def test_default_corner_table_prints_each_pair_on_13_cards():
    table = corners.rank_plus_suit()
    assert len(table) == 65
    assert [table.count(p) for p in range(5)] == [13] * 5
    assert corners.PAIRS == ((1, 7), (2, 6), (3, 5), (4, 4), (5, 3))
    assert all(b + h == 8 for b, h in corners.PAIRS)
    # Card of suit s, rank r carries pair (r + s) mod 5: A of Conquistadores is (12 + 4) mod 5 = 1.
    assert table[cards("Aq")[0]] == 1 and table[cards("2m")[0]] == 0 and table[cards("6m")[0]] == 4


@pytest.mark.parametrize("pair", range(5))
def test_revealed_card_sets_board_and_hand_sizes(pair):
    b, h = corners.PAIRS[pair]
    n = 7 if h <= 6 else 6  # 6 players x 7 cards + 1 board card fits; so does everything else
    game = MexicanPokerGame(
        num_players=n, chance=ScriptedChance(shuffles=[[REVEAL[pair]]], integers=[0], suit_chars=SUITS)
    )
    assert game.revealed == cards(REVEAL[pair])[0]
    assert (game.board_size, game.hand_size) == (b, h)
    assert len(game.board) == b and game.revealed in game.board
    assert all(len(hand) == h for hand in game.hands)
    assert len(game.stock) == 65 - b - n * h
    view = game.view(0)
    assert (view.board_size, view.hand_size, view.revealed) == (b, h, game.revealed)


def test_every_pair_in_every_deal_of_a_game():
    """Over a game's rounds the corners of the revealed card always decide the sizes."""
    game = MexicanPokerGame(seed=5, num_players=7, rounds=30)
    rng = np.random.default_rng(0)
    seen = set()
    while not game.is_over:
        if (
            game.phase == "predict"
            and game.current_player == game.token
            and not any(p >= 0 for p in game.predictions)
        ):
            pair = corners.PAIRS[corners.rank_plus_suit()[game.revealed]]
            assert (game.board_size, game.hand_size) == pair
            assert len(game.board) == pair[0] and all(len(h) == pair[1] for h in game.hands)
            seen.add(pair)
        game.apply(int(rng.choice(game.legal_actions())))
    assert len(seen) == 5


def test_corner_table_option():
    all_ones = MexicanPokerGame(seed=1, num_players=3, corner_table="0" * 65)
    assert (all_ones.board_size, all_ones.hand_size) == (1, 7)
    pairs = MexicanPokerGame(seed=1, num_players=3, corner_table=[(5, 3)] * 65)
    assert (pairs.board_size, pairs.hand_size) == (5, 3)
    mixed = [4] * 65
    mixed[cards("Km")[0]] = 2
    game = MexicanPokerGame(
        num_players=2,
        corner_table=mixed,
        chance=ScriptedChance(shuffles=[["Km"]], integers=[0], suit_chars=SUITS),
    )
    assert (game.board_size, game.hand_size) == (3, 5)
    for bad in ("0" * 64, "5" * 65, [(2, 2)] * 65, [7] * 65, "rank", 3):
        with pytest.raises(ConfigError, match="corner_table"):
            MexicanPokerGame(corner_table=bad)


def test_config_errors_name_the_option():
    with pytest.raises(ConfigError, match="num_players"):
        MexicanPokerGame(num_players=8)
    with pytest.raises(ConfigError, match="num_players"):
        MexicanPokerGame(num_players=1)
    with pytest.raises(ConfigError, match="rounds"):
        MexicanPokerGame(rounds=0)
    with pytest.raises(ConfigError, match="reward"):
        MexicanPokerGame(reward="points")
    with pytest.raises(ConfigError, match="doubt_pass"):
        MexicanPokerGame(doubt_chips=False, doubt_pass=True)
    with pytest.raises(ConfigError, match="unknown option"):
        MexicanPokerGame(players=3)


# ---------------------------------------------------------------- token, predictions, doubts
def test_token_starts_at_a_drawn_seat_and_moves_clockwise():
    game = MexicanPokerGame(
        num_players=3, rounds=4, chance=ScriptedChance(integers=[2], suit_chars=SUITS), seed=3
    )
    rng = np.random.default_rng(1)
    tokens = []
    while not game.is_over:
        if game.phase == "predict" and all(p < 0 for p in game.predictions):
            tokens.append(game.token)
            assert game.current_player == game.token  # the holder predicts first
        game.apply(int(rng.choice(game.legal_actions())))
    assert tokens == [2, 0, 1, 2]


def test_predictions_are_0_to_6_and_secret_until_all_are_made():
    game = stacked("6m 7m 8m 9m Tm", ["2l 3l 4l", "2b 3b 4b", "2t 3t 4t"], token=1)
    assert game.legal_actions() == list(range(7))
    game.apply(5)  # seat 1
    other = stacked("6m 7m 8m 9m Tm", ["2l 3l 4l", "2b 3b 4b", "2t 3t 4t"], token=1)
    other.apply(0)
    # Seat 2 must not learn seat 1's chip: views and observations are identical either way.
    assert game.view(2) == other.view(2)
    assert np.array_equal(game.observe(2), other.observe(2))
    assert game.view(2).predictions == (-1, -1, -1)
    assert game.view(2).predicted == (False, True, False)  # that a chip is down is public
    assert game.view(1).predictions == (-1, 5, -1)  # own chip visible
    game.apply(2)  # seat 2
    game.apply(6)  # seat 0
    assert game.phase == "doubt"
    for p in range(3):
        assert game.view(p).predictions == (6, 5, 2)
    assert next(e for e in game.events if e["type"] == "reveal")["predictions"] == [6, 5, 2]
    assert all("value" not in e and "prediction" not in e for e in game.events if e["type"] == "predict")


def test_doubt_targets_never_self_and_pass_only_when_allowed():
    game = stacked("6m 7m 8m 9m Tm", ["2l 3l 4l", "2b 3b 4b", "2t 3t 4t"], token=0)
    for p in (1, 1, 1):
        game.apply(p)
    assert game.phase == "doubt" and game.current_player == 0
    assert game.legal_actions() == [DOUBT_BASE + 1, DOUBT_BASE + 2]
    with pytest.raises(IllegalActionError, match="legal"):
        game.apply(PASS)
    game.apply(DOUBT_BASE + 2)  # seat 0 doubts seat 2
    game.apply(DOUBT_BASE + 1)  # seat 1 doubts seat 2 as well: several may doubt one player
    assert game.current_player == 2
    game.apply(DOUBT_BASE + 1)  # seat 2 doubts seat 0
    assert game.doubts == [2, 2, 0]
    assert game.phase == "play" and game.current_player == 0  # the token holder leads
    assert all(v == game.view(0).doubts for v in (game.view(1).doubts, game.view(2).doubts))

    passing = stacked("6m 7m 8m 9m Tm", ["2l 3l 4l", "2b 3b 4b"], token=1, doubt_pass=True)
    bid(passing, [0, 0], doubts=[-1, 0])
    assert passing.doubts == [PASSED, 0]

    seven = MexicanPokerGame(seed=2, num_players=7)
    for _ in range(7):
        seven.apply(0)
    assert seven.legal_actions() == list(range(DOUBT_BASE + 1, DOUBT_BASE + 7))


def test_without_doubt_chips_play_follows_the_predictions():
    game = stacked("6m 7m 8m 9m Tm", ["2l 3l 4l", "2b 3b 4b"], token=1, doubt_chips=False)
    game.apply(1)
    game.apply(1)
    assert game.phase == "play" and game.current_player == 1
    assert game.doubts == [NO_DOUBT, NO_DOUBT]


# ---------------------------------------------------------------- combinations
def test_exact_size_plays_pair_plus_stray_is_illegal():
    # Board 6m 7m 8m 9m Tm; seat 0 holds 7l 7b 9l.
    game = stacked("6m 7m 8m 9m Tm", ["7l 7b 9l", "2b 3b 4b"])
    bid(game, [0, 0])
    plays = legal_plays(game)
    f = frozenset
    assert (f(cards("7l 7b")), f()) in plays  # pair from the hand
    assert (f(cards("7l")), f(cards("7m"))) in plays  # pair with a board card
    assert (f(cards("7l 7b")), f(cards("7m"))) in plays  # three of a kind
    assert (f(cards("7l 7b 9l")), f(cards("9m"))) in plays  # two pair
    assert (f(cards("7l 7b 9l")), f(cards("7m 9m"))) in plays  # full house
    assert (f(cards("7l 9l")), f(cards("6m 8m Tm"))) in plays  # straight 6-T
    assert (f(cards("7l 7b 9l")), f()) not in plays  # a pair plus a stray card
    assert (f(cards("7l 7b")), f(cards("6m"))) not in plays  # a pair plus a board stray
    assert (f(cards("7l 9l")), f()) not in plays
    assert (f(cards("7l 7b")), f(cards("7m 8m"))) not in plays  # three plus a kicker
    assert all(own for own, _ in plays)  # never without an own card
    assert all(1 <= len(own) + len(board) <= 5 for own, board in plays)
    play_pair_plus_stray = combo_action([0, 1, 2])  # hand slots 7l 7b 9l
    with pytest.raises(IllegalActionError, match="legal now"):
        game.apply(play_pair_plus_stray)


def test_a_single_card_is_always_legal_even_with_better_plays():
    game = stacked("6m 7m 8m 9m Tm", ["7l 7b 9l", "2b 3b 4b"])
    bid(game, [0, 0])
    plays = legal_plays(game)
    for c in cards("7l 7b 9l"):
        assert (frozenset([c]), frozenset()) in plays


def test_board_cards_stay_and_are_reused_by_everyone():
    game = stacked("6m 7m 8m 9m Tm", ["7l 2l 3l", "7b 2b 3b"])
    bid(game, [0, 0])
    play(game, "7l", board="7m")
    assert cards("7m")[0] in game.board and len(game.board) == 5
    play(game, "7b", board="7m")  # the same board card again
    assert game.tricks == [1, 0]  # equal pairs: the earlier play wins
    assert sorted(game.piles[0]) == sorted(cards("7l 7b"))  # hand cards only, never board cards


# ---------------------------------------------------------------- tricks
def test_five_of_a_kind_beats_a_straight_flush_played_before_it():
    # Board Qq (revealed, pair (5,3)) Qm Ql 2b 3b.
    game = stacked("Qq Qm Ql 2b 3b", ["4b 5b 6b", "Qb Qt 9l"])
    bid(game, [0, 0])
    play(game, "4b 5b 6b", board="2b 3b")  # straight flush 2-6 (also a flush and a straight)
    assert last_category(game) == "straight_flush"
    play(game, "Qb Qt", board="Qq Qm Ql")  # five of a kind: one queen of every suit
    assert last_category(game) == "five_of_a_kind"
    assert game.tricks == [0, 1]


def test_royal_flush_beats_five_of_a_kind():
    game = stacked("Ab Kb 7m 7l 7q", ["7b 7t 2m", "Tb Jb Qb"])
    bid(game, [0, 0])
    play(game, "7b 7t", board="7m 7l 7q")
    assert last_category(game) == "five_of_a_kind"
    play(game, "Tb Jb Qb", board="Kb Ab")
    assert last_category(game) == "royal_flush"
    assert game.tricks == [0, 1]


def test_wheel_is_a_straight_and_the_lowest_one():
    game = stacked("6m Am 2l 3b 4t", ["5q 9m 9l", "5l Kt 2m"])
    bid(game, [0, 0])
    play(game, "5q", board="Am 2l 3b 4t")  # A-2-3-4-5
    assert last_category(game) == "straight"
    play(game, "5l", board="2l 3b 4t 6m")  # 2-3-4-5-6 beats the wheel
    assert game.tricks == [0, 1]


@pytest.mark.parametrize("token", [0, 1])
def test_equal_combinations_go_to_the_earlier_play(token):
    game = stacked("6m 7m 8m 9m Tm", ["7l 2l 3l", "7b 2b 3b"], token=token)
    bid(game, [0, 0])
    first = game.current_player
    assert first == token
    play(game, "7l" if first == 0 else "7b", board="7m")
    play(game, "7b" if first == 0 else "7l", board="7m")  # the same pair of sevens, later
    assert game.tricks[first] == 1 and sum(game.tricks) == 1
    assert game.current_player == first  # the winner leads


def _three_player_round(**options) -> MexicanPokerGame:
    """Board 6m 7m 8m 9m Tm; seat 0 Ql Qb Qt, seat 1 Al Ab 2t, seat 2 2b 3b 4b; token 0."""
    return stacked("6m 7m 8m 9m Tm", ["Ql Qb Qt", "Al Ab 2t", "2b 3b 4b"], token=0, **options)


def _play_three_player_round(game: MexicanPokerGame) -> None:
    play(game, "Ql Qb Qt")  # three queens: seat 0 empties its hand and wins
    play(game, "Al Ab")
    play(game, "2b")
    assert game.tricks == [1, 0, 0]
    assert sorted(game.piles[0]) == sorted(cards("Ql Qb Qt Al Ab 2b"))
    # The winner has no cards: the lead passes clockwise to seat 1, and seat 0 has dropped out.
    assert game.leader == 1 and game.current_player == 1 and game.trick_order == [1, 2]
    play(game, "2t")
    play(game, "3b")  # seat 2 wins; seat 1 is now out of cards too
    assert game.tricks == [1, 0, 1]
    # The lone last player plays on alone and takes the trick.
    assert game.current_player == 2 and game.trick_order == [2]
    play(game, "4b")


def test_winner_without_cards_passes_the_lead_and_the_lone_player_takes_the_rest():
    game = _three_player_round()
    bid(game, [1, 0, 1], doubts=[2, 0, 1])
    _play_three_player_round(game)
    assert game.round_index == 1 or game.is_over
    last = game.last_round
    assert last["tricks"] == [1, 0, 2]


def test_lone_last_player_wins_every_remaining_trick():
    game = stacked("6m 7m 8m 9m Tm", ["Ql Qb Qt", "2l 3l 4l"], rounds=1)
    bid(game, [1, 0], doubts=[1, 0])
    play(game, "Ql Qb Qt")
    play(game, "2l")
    for card in ("3l", "4l"):
        assert game.current_player == 1 and game.trick_order == [1]
        play(game, card)
    assert game.last_round["tricks"] == [1, 2]
    assert game.is_over
    # seat 0: predicted 1, took 1 -> +2, doubt on seat 1 who missed -> +1; seat 1: predicted 0, took 2 -> -2,
    # doubt on seat 0 who hit -> -1.
    assert game.last_round["points"] == [3, -3]
    assert list(game.total_rewards) == [3.0, -3.0]


# ---------------------------------------------------------------- scoring
@pytest.mark.parametrize(
    ("p", "t", "total", "points"),
    [
        (2, 3, 5, 2),  # more tricks than predicted: +p
        (2, 2, 5, 4),  # exact: +2p
        (3, 1, 5, 2 - 4),  # fewer: -(p - t)
        (6, 0, 3, -6),
        (0, 0, 5, 5),  # zero predicted and kept: +T, every trick of the round
        (0, 0, 3, 3),
        (0, 2, 5, -2),  # zero predicted but took tricks: -t
        (1, 7, 7, 1),
    ],
)
def test_prediction_line(p, t, total, points):
    assert prediction_line(p, t, total) == points


def test_doubt_results_both_ways():
    assert doubt_result(target_prediction=2, target_tricks=3) == 1  # missed: +1 to the doubter
    assert doubt_result(target_prediction=2, target_tricks=2) == -1  # hit: -1
    assert doubt_result(target_prediction=0, target_tricks=1) == 1
    assert doubt_result(target_prediction=0, target_tricks=0) == -1
    lines, doubts = round_scores([1, 0, 2], [1, 1, 0], [2, 0, PASSED])
    assert lines == [2, -1, -2]
    assert doubts == [1, -1, 0]
    assert round_scores([1, 1], [1, 1], [NO_DOUBT, NO_DOUBT])[1] == [0, 0]


@pytest.mark.parametrize(
    ("predictions", "doubts", "lines", "doubt_points"),
    [
        # tricks [1, 0, 2], T = 3: exact +2p; zero kept +T; over +p; doubts: missed +1, hit -1, hit -1
        ([1, 0, 1], [2, 0, 1], [2, 3, 1], [1, -1, -1]),
        # zero broken -t; under -(p - t) twice; every doubted player missed: +1 each
        ([0, 2, 3], [2, 0, 1], [-1, -2, -1], [1, 1, 1]),
    ],
)
def test_round_score_sheet_and_rewards(predictions, doubts, lines, doubt_points):
    game = _three_player_round(rounds=2)
    bid(game, predictions, doubts)
    _play_three_player_round(game)
    last = game.last_round
    assert last["tricks"] == [1, 0, 2]
    assert last["prediction_points"] == lines
    assert last["doubt_points"] == doubt_points
    totals = [a + b for a, b in zip(lines, doubt_points)]
    assert last["points"] == totals == game.scores
    assert list(game.take_rewards()) == totals
    info = game.info(0)
    assert info["scores"] == totals and info["last_round"]["points"] == totals
    assert game.round_index == 1 and game.token == 1 and game.phase == "predict"  # the next round began


def test_reward_win_pays_only_at_the_end_and_ties_share():
    game = _three_player_round(rounds=1, reward="win")
    bid(game, [1, 0, 1], doubts=[2, 0, 1])  # scores 3, 2, 0
    rewards = np.zeros(3)
    while not game.is_over:
        rewards += game.take_rewards()
        assert not rewards.any()
        _play_three_player_round(game)
    assert game.scores == [3, 2, 0]
    assert list(game.take_rewards()) == [1.0, -0.5, -0.5]
    assert game.info(1)["winners"] == [0] and game.info(1)["draw"] is False
    assert game.info(1)["final_scores"] == [3, 2, 0]

    tie = _three_player_round(rounds=1, reward="win")
    bid(tie, [0, 2, 3], doubts=[2, 0, 1])  # scores 0, -1, 0: seats 0 and 2 share the lead
    _play_three_player_round(tie)
    assert tie.scores == [0, -1, 0]
    assert list(tie.take_rewards()) == [0.25, -0.5, 0.25]  # zero-sum: the leaders split the losers' 1
    assert tie.info(0)["winners"] == [0, 2] and tie.info(0)["draw"] is True


def test_game_lasts_the_given_number_of_rounds():
    game = MexicanPokerGame(seed=11, num_players=4, rounds=3)
    rng = np.random.default_rng(2)
    total = np.zeros(4)
    while not game.is_over:
        game.apply(int(rng.choice(game.legal_actions())))
        total += game.take_rewards()
    scores = [e for e in game.events if e["type"] == "score"]
    assert [e["round"] for e in scores] == [0, 1, 2]
    assert list(total) == game.scores == scores[-1]["scores"]
    assert sum(sum(e["tricks"]) > 0 for e in scores) == 3
    assert game.current_player is None and not game.legal_mask().any()


# ---------------------------------------------------------------- actions
def test_action_layout():
    assert NUM_ACTIONS == 1568 and FIRST_COMBO == 14
    game = stacked("6m 7m 8m 9m Tm", ["7l 2l 3l", "7b 2b 3b"], token=0)
    assert game.action_name(3) == "predict 3"
    bid(game, [0, 0], doubts=[1, 0])
    action = combo_action([0], [1])  # hand slot 0, board slot 1
    assert game.action_name(action) == "play 2l +board 7m"
    assert game.action_name(DOUBT_BASE + 1).startswith("doubt")
    with pytest.raises(ValueError, match="at least one hand card"):
        combo_action([], [0])
    with pytest.raises(ValueError, match="hand slot"):
        combo_action([7])
    with pytest.raises(IllegalActionError):
        game.apply(NUM_ACTIONS)
