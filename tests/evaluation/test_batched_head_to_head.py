"""The batched head-to-head (``pokerzoo.evaluation.batched``): the scalar tournament's deals, seatings and
statistics on batched rows; with deterministic agents, exactly the scalar tournament's games."""

from __future__ import annotations

import pytest

from pokerzoo.evaluation import batched, report
from pokerzoo.evaluation.tournament import Tournament, run_tournament
from pokerzoo.training.selfplay.league import batched_agent


def head_to_head(game: str, specs, **kwargs) -> batched.HeadToHead:
    """The match of two agent specs, built as ``pokerzoo evaluate --engine batched`` builds them."""
    config = kwargs.get("config", {})
    return batched.head_to_head(game, [(s, batched_agent(game, config, s)) for s in specs], **kwargs)


def scalar_summary(game: str, agents: tuple[str, str], deals: int, seed: int) -> dict:
    return report.summarize(run_tournament(Tournament(game=game, agents=agents, deals=deals, seed=seed), workers=1,
                                           progress=False))  # fmt: skip


@pytest.mark.parametrize(
    ("game", "agents", "deals"),
    [
        ("raspisnoy_poker", ("ppo", "heuristic"), 6),  # four seats, two lineups; the heuristic draws nothing
        ("caribbean_stud", ("ppo", "ppo"), 200),  # one seat: every agent plays every deal alone
    ],
)
def test_deterministic_agents_play_exactly_the_scalar_tournaments_games(game, agents, deals):
    batched = head_to_head(game, agents, deals=deals, seed=11, batch_rows=5)  # several batches
    scalar = scalar_summary(game, agents, deals, seed=11)
    for mine, theirs in zip(batched.reward_per_game, scalar["agents"]):
        assert mine.to_dict() == pytest.approx(theirs["reward_per_game"])
    for mine, theirs in zip(batched.win_rate, scalar["agents"]):
        assert mine.to_dict() == pytest.approx(theirs["win_rate"])
    assert batched.difference.to_dict() == pytest.approx(scalar["paired_differences"][0]["difference"])
    assert batched.seatings == [tuple(s) for s in scalar["seatings"]]
    assert batched.truncated_games == 0


def test_a_zero_sum_match_is_reproducible_and_its_statistics_consistent():
    agents = ("ppo", "equity(sampler=fast,simulations=20)")
    first = head_to_head("breed_the_heifer", agents, deals=64, seed=3, batch_rows=40)
    again = head_to_head("breed_the_heifer", agents, deals=64, seed=3, batch_rows=40)
    assert first.to_dict() | {"seconds": 0} == again.to_dict() | {"seconds": 0}
    a, b = first.reward_per_game
    # five seats, lineups ABABA and BABAB: both agents play five seat-games a deal of a zero-sum game
    assert a.mean == pytest.approx(-b.mean) and first.difference.mean == pytest.approx(a.mean - b.mean)
    assert first.difference.n == 64 and first.difference.low < first.difference.mean < first.difference.high
    # a deal's two games share out two wins (ties split) over each agent's five seat-games
    assert sum(w.mean for w in first.win_rate) == pytest.approx(2 / 5)
    other = head_to_head("breed_the_heifer", agents, deals=64, seed=4, batch_rows=40)
    assert other.difference.mean != first.difference.mean


def test_the_sample_suffix_makes_a_policy_sample():
    assert batched_agent("perico", {}, "ppo").deterministic
    assert not batched_agent("perico", {}, "ppo@sample").deterministic


@pytest.mark.parametrize(
    ("agents", "kwargs", "message"),
    [

        (["ppo", "random"], {"deals": 0}, r"deals=0: expected an int >= 1"),
        (["ppo", "random"], {"seed": -1}, r"seed=-1: expected an int >= 0"),
        (["ppo", "nobody"], {}, r"'nobody' is not a batched agent of breed_the_heifer_v0; .*equity"),
        (["ppo", "equity(bogus=1)"], {}, "equity has no argument 'bogus'"),
        (["ppo", "random"], {"config": {"num_players": 99}}, "num_players=99 is out of range"),
    ],
)
def test_bad_matches_are_refused_by_name(agents, kwargs, message):
    with pytest.raises(ValueError, match=message):
        head_to_head("breed_the_heifer", agents, **({"deals": 4} | kwargs))


@pytest.mark.parametrize("count", [1, 3])
def test_a_match_is_two_agents(count):
    agents = [(f"random#{i}", batched_agent("perico", {}, "random")) for i in range(count)]
    with pytest.raises(ValueError, match=f"exactly two agents, got {count}"):
        batched.head_to_head("perico", agents, deals=4)
