"""The self-play league: PFSP weights from the learner's results, their memory, draws, snapshots joining and
leaving, and the members a config may name."""

from __future__ import annotations

import numpy as np
import pytest

from pokerzoo.agents.batched import batched_agents
from pokerzoo.agents.policy import shipped_policies
from pokerzoo.envs.batched.opponents import RandomOpponent
from pokerzoo.training.config import LEAGUE
from pokerzoo.training.policy_export import save_policy
from pokerzoo.training.selfplay.frozen import FrozenPolicy
from pokerzoo.training.selfplay.league import League, member_opponent
from pokerzoo.training.selfplay.network import ActorCritic

CARIBBEAN = "caribbean_stud_v0"


def league(**settings) -> League:
    return League(CARIBBEAN, {}, {**LEAGUE.defaults(), **settings})


def test_weights_are_alphastars_hard_pfsp_of_the_estimated_win_rates():
    lg = league(scripted=["random", "ppo"])
    random_, ppo = lg.active()
    assert isinstance(random_.opponent, RandomOpponent) and isinstance(ppo.opponent, FrozenPolicy)
    np.testing.assert_allclose(lg.weights(), [0.5, 0.5])  # nothing known: p = 1/2 for both
    lg.record(np.array([random_.id] * 8 + [ppo.id] * 8), np.array([1.0] * 8 + [0.0, 0.5] + [0.0] * 6))
    p = np.array([(8 + 1) / (8 + 2), (0.5 + 1) / (8 + 2)])
    assert [m.win_rate for m in lg.active()] == pytest.approx(p.tolist())
    f = (1 - p) ** 2
    np.testing.assert_allclose(lg.weights(), f / f.sum())
    assert lg.weights()[1] > 0.9  # the member the learner does worst against comes up most
    assert league(scripted=["random", "ppo"], pfsp_power=0.0).weights().tolist() == [0.5, 0.5]


def test_draws_follow_the_weights():
    lg = league(scripted=["random", "ppo"])
    a, b = lg.active()
    lg.record(np.array([a.id] * 6), np.ones(6))
    ids = lg.draw(np.random.default_rng(0), 40_000)
    share = np.mean(ids == b.id)
    assert share == pytest.approx(lg.weights()[1], abs=0.01)


def test_fixed_weights_replace_pfsp_and_the_snapshots_share_theirs():
    lg = league(scripted=["random", "ppo"], weights={"random": 1.0, "ppo": 3.0, "snapshots": 4.0}, max_snapshots=2)
    _, ppo = lg.active()
    np.testing.assert_allclose(lg.weights(), [0.25, 0.75])  # no snapshot yet: the scripted members alone
    lg.record(np.array([ppo.id] * 8), np.zeros(8))  # results move PFSP's weights, not fixed ones
    np.testing.assert_allclose(lg.weights(), [0.25, 0.75])
    for step in (10, 20, 30):
        lg.add_snapshot(shipped_policies(CARIBBEAN)["ppo"], step)
    np.testing.assert_allclose(lg.weights(), [1 / 8, 3 / 8, 2 / 8, 2 / 8])  # the two active snapshots share 4
    ids = lg.draw(np.random.default_rng(1), 40_000)
    assert np.mean(ids == ppo.id) == pytest.approx(3 / 8, abs=0.01)


def test_old_results_fade_with_the_halflife():
    lg = league(scripted=["random"], pfsp_halflife=4.0)
    (m,) = lg.active()
    lg.record(np.array([m.id] * 10), np.ones(10))
    for _ in range(4):
        lg.decay()
    assert m.games == pytest.approx(5.0) and m.wins == pytest.approx(5.0) and m.played == 10


def test_snapshots_beyond_the_limit_stop_being_drawn_and_leave_when_no_game_holds_them(tmp_path):
    lg = league(scripted=["random"], max_snapshots=2)
    path = shipped_policies(CARIBBEAN)["ppo"]
    snaps = [lg.add_snapshot(path, step) for step in (10, 20, 30)]
    assert [m.name for m in lg.active()] == ["random", "snapshot@20", "snapshot@30"]
    assert not snaps[0].active and snaps[0].id in lg.members
    lg.prune(np.array([snaps[0].id]))  # still seated in a game: stays to finish it
    assert snaps[0].id in lg.members
    lg.prune(np.array([], dtype=np.int64))
    assert snaps[0].id not in lg.members and len(lg.members) == 3


def test_state_round_trip_rebuilds_every_member():
    lg = league(scripted=["random", "ppo"])
    lg.add_snapshot(shipped_policies(CARIBBEAN)["ppo"], 7)
    lg.record(np.array([0, 1, 2, 2]), np.array([1.0, 0.0, 0.5, 1.0]))
    lg.decay()
    again = league(scripted=[])
    again.load_state_dict(lg.state_dict())
    assert again.table() == lg.table() and again.next_id == lg.next_id
    assert [type(m.opponent) for m in again.members.values()] == [RandomOpponent, FrozenPolicy, FrozenPolicy]


def test_members_a_config_may_name_and_the_error_for_others(tmp_path):
    assert "random" in batched_agents(CARIBBEAN)
    assert isinstance(member_opponent(CARIBBEAN, {}, "random"), RandomOpponent)
    with pytest.raises(ValueError, match=r"take: random .*ppo.* policy:PATH"):
        member_opponent(CARIBBEAN, {}, "rules_of_thumb")
    with pytest.raises(FileNotFoundError):
        member_opponent(CARIBBEAN, {}, "policy:/nowhere/p.json")
    three = {"game": "high_card_v0", "options": {"num_players": 3}, "observation_size": 59, "num_actions": 2}
    path = save_policy(ActorCritic(59, 2, [4], "relu"), tmp_path / "p.json", three)
    assert isinstance(member_opponent("high_card", {"num_players": 3}, f"policy:{path}"), FrozenPolicy)
    with pytest.raises(ValueError, match="takes 59 observation entries and 2 actions; high_card_v0 with these"):
        member_opponent("high_card", {"num_players": 4}, f"policy:{path}")


def test_scripted_members_take_arguments_and_bad_ones_are_named():
    fast = member_opponent("breed_the_heifer", {}, "equity(sampler=fast, simulations=50)")
    assert (fast.sampler, fast.simulations) == ("fast", 50)
    with pytest.raises(ValueError, match=r"'equity\(foo=1\)' of breed_the_heifer_v0: equity has no argument 'foo'; "
                                         r"its arguments: simulations, bet_factor, raise_factor, sampler"):
        member_opponent("breed_the_heifer", {}, "equity(foo=1)")
    with pytest.raises(ValueError, match=r"'equity\(sampler=slow\)'.*expected one of scalar, fast"):
        member_opponent("breed_the_heifer", {}, "equity(sampler=slow)")
    with pytest.raises(ValueError, match="unbalanced parentheses"):
        member_opponent("breed_the_heifer", {}, "equity(sampler=fast")


def test_draws_among_some_members_follow_their_weights_renormalised():
    lg = league(scripted=["random", "ppo"], weights={"random": 1.0, "ppo": 3.0}, snapshot_every=0)
    random_, ppo = lg.active()
    ids = lg.draw(np.random.default_rng(2), 1_000, among=["random"])
    assert set(ids.tolist()) == {random_.id}
    with pytest.raises(ValueError, match=r"none of \['nobody'\] is an active member"):
        lg.draw(np.random.default_rng(2), 5, among=["nobody"])
    assert np.mean(lg.draw(np.random.default_rng(3), 40_000) == ppo.id) == pytest.approx(0.75, abs=0.01)


def test_a_member_named_at_sample_samples_where_policy_members_take_their_most_likely_action():
    # the suffix says so in a batched match; a league used to drop it silently and play the member as the rest
    lg = league(scripted=["ppo", "ppo@sample"], snapshot_deterministic=True)
    assert [(m.name, m.opponent.deterministic) for m in lg.active()] == [("ppo", True), ("ppo@sample", False)]
    rebuilt = league(scripted=[], snapshot_deterministic=True)
    rebuilt.load_state_dict(lg.state_dict())  # a resumed run rebuilds each member the same way
    assert [(m.name, m.opponent.deterministic) for m in rebuilt.active()] == [("ppo", True), ("ppo@sample", False)]
    sampling = league(scripted=["ppo", "ppo@sample"])
    assert [m.opponent.deterministic for m in sampling.active()] == [False, False]
