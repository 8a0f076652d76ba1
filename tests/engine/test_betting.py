"""The shared fixed-limit betting engine: rounds, the raise cap, all-ins, side pots, splits and odd chips."""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pokerzoo.envs.engine.betting import (
    BET,
    CALL,
    CHECK,
    FOLD,
    RAISE,
    BettingError,
    LimitBetting,
    Pot,
    award,
    side_pots,
    split,
)


def legal(b: LimitBetting) -> set[str]:
    names = ("fold", "check", "call", "bet", "raise")
    return {names[a] for a in np.flatnonzero(b.legal())}


def test_check_around_closes_the_round():
    b = LimitBetting([10, 10, 10])
    assert b.start_round(2, first=1)
    assert b.to_act == 1 and legal(b) == {"check", "bet"}
    for p in (1, 2, 0):
        assert b.to_act == p
        b.act(CHECK)
    assert b.to_act is None and not b.round_open and b.pot == 0


def test_bet_call_fold_and_fold_is_offered_only_facing_a_bet():
    b = LimitBetting([10, 10, 10])
    for p in range(3):
        b.post(p, 1)
    b.start_round(2, first=0)
    assert "fold" not in legal(b)
    out = b.act(BET)
    assert out == {"player": 0, "action": "bet", "amount": 2, "total": 2, "all_in": False}
    assert legal(b) == {"fold", "call", "raise"}
    b.act(CALL)
    b.act(FOLD)
    assert b.to_act is None and b.players_in == [0, 1]
    assert b.pot == 3 + 4 and b.stacks == [7, 7, 9] and b.committed == [3, 3, 1]


def test_raise_cap_one_bet_and_three_raises():
    b = LimitBetting([100] * 3, max_bets=4)
    b.start_round(4, first=0)
    b.act(BET)  # 4
    b.act(RAISE)  # 8
    b.act(RAISE)  # 12
    assert b.to_act == 0 and legal(b) == {"fold", "call", "raise"}
    b.act(RAISE)  # 16: the third raise reaches the cap
    assert b.current_bet == 16 and b.complete_bets == 4
    assert legal(b) == {"fold", "call"}
    b.act(CALL)
    assert legal(b) == {"fold", "call"}
    b.act(CALL)
    assert b.to_act is None and b.bets == [16, 16, 16]


def test_no_raises_when_max_raises_is_zero():
    b = LimitBetting([100] * 2, max_bets=1)
    b.start_round(2, first=0)
    b.act(BET)
    assert legal(b) == {"fold", "call"}


def test_a_raise_reopens_the_betting_for_earlier_players():
    b = LimitBetting([100] * 3)
    b.start_round(2, first=0)
    b.act(CHECK)
    b.act(BET)
    b.act(CALL)
    assert b.to_act == 0 and legal(b) == {"fold", "call", "raise"}
    b.act(RAISE)
    assert b.to_act == 1
    b.act(CALL)
    assert b.to_act == 2
    b.act(CALL)
    assert b.to_act is None and b.bets == [4, 4, 4]


def test_all_in_call_for_less_and_no_bet_when_nobody_can_answer():
    b = LimitBetting([3, 100])
    b.start_round(4, first=1)
    b.act(BET)
    assert legal(b) == {"fold", "call"}  # player 0 cannot raise: 3 chips do not cover the call
    out = b.act(CALL)
    assert out["amount"] == 3 and out["all_in"] and b.to_act is None
    assert b.start_round(4, first=0) is False  # one player can bet: the round is skipped
    assert b.pots() == [Pot(6, (0, 1)), Pot(1, (1,))]  # the uncalled chip goes back to player 1


def test_incomplete_all_in_bet_can_be_completed_as_a_bet():
    b = LimitBetting([1, 100, 100], max_bets=2)
    b.start_round(4, first=0)
    assert legal(b) == {"check", "bet"}
    out = b.act(BET)
    assert out["amount"] == 1 and out["all_in"] and b.complete_bets == 0 and b.current_bet == 1
    assert legal(b) == {"fold", "call", "bet"}  # completing the short bet is the round's bet
    b.act(BET)
    assert b.current_bet == 4 and b.complete_bets == 1
    assert legal(b) == {"fold", "call", "raise"}
    b.act(RAISE)
    assert b.current_bet == 8 and b.complete_bets == 2
    assert legal(b) == {"fold", "call"}  # cap reached (max_bets=2)


def test_incomplete_all_in_raise_does_not_reopen_for_players_who_acted():
    b = LimitBetting([100, 5, 100, 100])
    b.start_round(4, first=0)
    b.act(BET)  # p0: 4
    b.act(RAISE)  # p1: all in for 5, short of the raise to 8
    assert b.current_bet == 5 and b.complete_bets == 1 and b.is_all_in(1)
    assert b.to_act == 2 and legal(b) == {"fold", "call", "raise"}  # p2 has not acted: may raise
    b.act(CALL)  # p2 calls 5
    assert b.to_act == 3 and legal(b) == {"fold", "call", "raise"}
    b.act(CALL)
    assert b.to_act == 0 and legal(b) == {"fold", "call"}  # p0 faces 1 more but may not re-raise
    b.act(CALL)
    assert b.to_act is None and b.bets == [5, 5, 5, 5]


def test_full_raise_after_a_short_all_in_reopens():
    b = LimitBetting([100, 5, 100])
    b.start_round(4, first=0)
    b.act(BET)  # 4
    b.act(RAISE)  # all in 5
    b.act(RAISE)  # p2 raises to the next full level, 8
    assert b.current_bet == 8 and b.complete_bets == 2
    assert b.to_act == 0 and legal(b) == {"fold", "call", "raise"}


def test_illegal_actions_raise_and_change_nothing():
    b = LimitBetting([10, 10])
    with pytest.raises(BettingError, match="no betting round"):
        b.act(CHECK)
    b.start_round(2, first=0)
    before = (list(b.stacks), list(b.bets), b.to_act)
    with pytest.raises(BettingError, match="legal: check, bet"):
        b.act(CALL)
    with pytest.raises(BettingError):
        b.act(7)
    assert (list(b.stacks), list(b.bets), b.to_act) == before
    with pytest.raises(BettingError, match="max_bets"):
        LimitBetting([10], max_bets=0)
    with pytest.raises(BettingError, match="negative"):
        LimitBetting([10, -1])


def test_players_not_in_the_hand_never_act():
    b = LimitBetting([10, 10, 10], in_hand=[True, False, True])
    b.start_round(2, first=1)
    assert b.to_act == 2
    b.act(BET)
    b.act(CALL)
    assert b.to_act is None and b.committed == [2, 0, 2]


# ---------------------------------------------------------------- pots


def test_two_side_pots_and_folded_chips():
    # p0 all in for 3, p1 all in for 7, p2 and p3 put in 11; p4 folded after putting in 5.
    pots = side_pots([3, 7, 11, 11, 5], [False, False, False, False, True])
    assert pots == [Pot(15, (0, 1, 2, 3)), Pot(14, (1, 2, 3)), Pot(8, (2, 3))]
    assert sum(p.amount for p in pots) == 3 + 7 + 11 + 11 + 5


def test_pots_keep_every_chip_and_merge_equal_eligibility():
    assert side_pots([4, 4, 4], [False, False, False]) == [Pot(12, (0, 1, 2))]
    assert side_pots([2, 6, 2], [False, True, False]) == [Pot(10, (0, 2))]  # a folder's excess joins the pot
    assert side_pots([0, 0], [False, False]) == []
    with pytest.raises(BettingError, match="no player"):
        side_pots([3, 3], [True, True])


def test_split_odd_chips_go_clockwise_from_the_first_seat():
    assert split(7, [0, 2], first_seat=1, num_players=4) == {2: 4, 0: 3}
    assert split(7, [0, 2], first_seat=3, num_players=4) == {0: 4, 2: 3}
    assert split(8, [1, 2, 3], first_seat=3, num_players=4) == {3: 3, 1: 3, 2: 2}
    with pytest.raises(BettingError):
        split(5, [], 0, 2)


def test_award_main_pot_and_split_side_pots():
    pots = side_pots([3, 7, 11, 11], [False] * 4)
    keys = [90, 10, 50, 50]  # p0 best, p2 and p3 tie, p1 worst
    won, winners = award(pots, keys, first_seat=3, num_players=4)
    # main 12 -> p0; side 12 (p1,p2,p3) -> 6 + 6; side 8 (p2,p3) -> 4 + 4
    assert won == [12, 0, 10, 10] and winners == [(0,), (2, 3), (2, 3)]


def test_settle_pays_the_stacks():
    b = LimitBetting([3, 7, 20, 20])
    for p in range(4):
        b.post(p, 1)
    b.start_round(2, first=0)
    b.act(BET)  # p0 all in for 2 more (3 total)
    b.act(RAISE)  # p1 to 4
    b.act(RAISE)  # p2 to 6: p1 has 2 left
    b.act(CALL)  # p3 6
    b.act(CALL)  # p1 all in: 6 (5 + ante 1 = 7 total)... has only 2 more
    assert b.committed == [3, 7, 7, 7] and b.is_all_in(0) and b.is_all_in(1)
    total = sum(b.stacks) + b.pot
    won, pots, _ = b.settle([5, 9, 9, 1], first_seat=0)
    assert pots == [Pot(12, (0, 1, 2, 3)), Pot(12, (1, 2, 3))]
    assert won == [0, 12, 12, 0] and sum(b.stacks) == total and b.pot == 0


# ---------------------------------------------------------------- random play


@settings(max_examples=150, deadline=None)
@given(
    stacks=st.lists(st.integers(0, 30), min_size=2, max_size=7),
    max_bets=st.integers(1, 5),
    seed=st.integers(0, 2**31),
)
def test_random_rounds_conserve_chips_and_respect_the_cap(stacks, max_bets, seed):
    assume(sum(s > 0 for s in stacks) >= 2)
    rng = np.random.default_rng(seed)
    n = len(stacks)
    b = LimitBetting(stacks, in_hand=[s > 0 for s in stacks], max_bets=max_bets)
    total = sum(stacks)
    for p in range(n):
        b.post(p, 1)
    for street, size in enumerate((2, 2, 4, 4, 4)):
        if len(b.players_in) < 2:
            break
        b.start_round(size, first=int(rng.integers(n)))
        steps = 0
        while b.to_act is not None:
            mask = b.legal()
            assert mask.any() and not (mask[CHECK] and mask[CALL]) and not (mask[BET] and mask[RAISE])
            b.act(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
            assert steps <= 4 * n * (max_bets + 1), "a round did not end"
            assert min(b.stacks) >= 0 and sum(b.stacks) + b.pot == total
            assert b.complete_bets <= max_bets and max(b.bets) <= max_bets * size
        live = [p for p in b.players_in if b.stacks[p] > 0]
        if len(b.players_in) > 1 and len(live) > 1:
            assert len({b.bets[p] for p in live}) == 1, f"round {street} ended with unequal bets {b.bets}"
    pots = b.pots()
    assert sum(p.amount for p in pots) == sum(b.committed)
    keys = list(rng.integers(0, 4, size=n))
    won, _, _ = b.settle(keys, first_seat=int(rng.integers(n)))
    assert sum(won) == sum(p.amount for p in pots) and sum(b.stacks) == total
