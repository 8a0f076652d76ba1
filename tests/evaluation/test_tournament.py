"""Tournaments and reports: seatings, duplicate deals, worker independence, interval coverage, files, CLI.

Parametrised over every registered game whose rules and agents are installed
(``installed_games()``), so each game is covered as soon as it lands.
"""

from __future__ import annotations

import csv
import json
import math
from collections import Counter, defaultdict
from itertools import combinations
from typing import ClassVar

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerzoo.cli.main import main
from pokerzoo.envs import game_class, spec
from pokerzoo.envs.engine.events import UnitEnd
from pokerzoo.envs.engine.options import ConfigError
from pokerzoo.evaluation import report
from pokerzoo.evaluation.tournament import (
    DealSeeds,
    GameRecord,
    Tournament,
    TournamentResult,
    count_units,
    deal_lineups,
    installed_games,
    parse_config_pairs,
    play_game,
    read_bids,
    resolve_seating,
    run_tournament,
    seatings,
    unique_labels,
)

GAMES = installed_games()
CARIBBEAN = "caribbean_stud_v0"


def small_tournament(game: str, deals: int = 3, **kw) -> Tournament:
    return Tournament(game=game, agents=kw.pop("agents", ("random", "random")), deals=deals, seed=7, **kw)


def test_caribbean_is_installed():
    assert CARIBBEAN in GAMES


# --------------------------------------------------------------------------- seatings
@given(agents=st.integers(1, 7), seats=st.integers(1, 7))
@settings(max_examples=60, deadline=None)
def test_rotations_put_every_agent_in_every_seat_once(agents, seats):
    lineups = seatings(agents, seats, "rotations")
    assert len(lineups) == agents
    for s in range(seats):
        assert sorted(lineup[s] for lineup in lineups) == list(range(agents))
    for lineup in lineups:
        if agents >= seats:
            assert len(set(lineup)) == seats  # nobody sits twice at one table


def test_permutations_and_auto():
    assert seatings(3, 3, "permutations") == [
        (0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)
    ]  # fmt: skip
    assert len(seatings(3, 3)) == 6  # auto: permutations when few
    assert len(seatings(4, 4)) == 4  # auto: rotations beyond 3 seats
    assert seatings(3, 1) == [(0,), (1,), (2,)]  # one seat: every agent alone on every deal
    assert len(seatings(4, 2, "permutations")) == 12
    with pytest.raises(ValueError, match="permutations"):
        seatings(2, 4, "permutations")
    with pytest.raises(ValueError, match="expected auto"):
        seatings(2, 2, "spiral")


def test_auto_resolves_to_shuffled_where_rotations_are_unbalanced():
    # rotations are windows of consecutive agents: with nine agents on four seats the first never meets two others
    together = Counter(frozenset(p) for lineup in seatings(9, 4, "rotations") for p in combinations(lineup, 2))
    assert [together[frozenset((0, j))] for j in range(1, 9)] == [3, 2, 1, 0, 0, 1, 2, 3]
    assert resolve_seating(9, 4) == resolve_seating(4, 2) == resolve_seating(8, 5) == "shuffled"
    # rotations fix who sits after whom as soon as there are three agents (next test): shuffled there too
    assert resolve_seating(5, 4) == resolve_seating(4, 4) == resolve_seating(3, 2) == "shuffled"
    assert resolve_seating(2, 4) == resolve_seating(2, 5) == "rotations"  # two agents: the rotations mirror
    assert resolve_seating(5, 1) == "rotations"  # one seat: every agent alone, nothing to balance
    assert resolve_seating(3, 3) == "permutations"
    assert resolve_seating(9, 4, "rotations") == "rotations"  # asked for: kept
    with pytest.raises(ValueError, match="seating 'spiral': expected auto, rotations, permutations or shuffled"):
        resolve_seating(9, 4, "spiral")


def _after(lineups) -> Counter:
    """(agent, the agent in the next seat round the table) over the lineups."""
    return Counter((lineup[s], lineup[(s + 1) % len(lineup)]) for lineup in lineups for s in range(len(lineup)))


@pytest.mark.parametrize(("agents", "seats"), [(5, 5), (5, 4), (4, 4)])
def test_shuffled_balances_who_sits_after_whom_where_rotations_fix_it(agents, seats):
    """Under rotations the seat order follows the list (at most half the ordered pairs ever sit side by side; with
    A = n every agent always sits right after the same one), which a game with positions rewards; shuffled seats
    every agent right after every other equally often in expectation."""
    base = seatings(agents, seats, "rotations")
    fixed = _after(base)
    assert (1, 0) not in fixed and len(fixed) <= agents * (agents - 1) // 2  # half the orders never occur
    deals = 2000
    counts = Counter()
    for deal in range(deals):
        counts.update(_after(deal_lineups(base, "shuffled", 11, deal, agents)))
    pairs = np.array([counts[(a, b)] for a in range(agents) for b in range(agents) if a != b])
    # each ordered pair's count: a sum of independent per-deal counts (0..seats each, sd <= seats / 2)
    expected = pairs.sum() / pairs.size
    assert np.all(np.abs(pairs - expected) < 5 * seats / 2 * math.sqrt(deals)), (expected, pairs.min(), pairs.max())
    assert pairs.min() > 0.8 * expected  # every agent sits after every other, about equally often


def test_shuffled_seats_every_agent_once_per_seat_each_deal_and_balances_the_tables():
    agents, seats, deals = 9, 4, 1500
    base = seatings(agents, seats, "shuffled")
    assert base == seatings(agents, seats, "rotations")
    together = Counter()
    orders = set()
    for deal in range(deals):
        lineups = deal_lineups(base, "shuffled", 7, deal, agents)
        assert lineups == deal_lineups(base, "shuffled", 7, deal, agents)  # a function of (seed, deal) only
        orders.add(tuple(lineups))
        for s in range(seats):
            assert sorted(lineup[s] for lineup in lineups) == list(range(agents))
        together.update(frozenset(p) for lineup in lineups for p in combinations(lineup, 2))
    assert len(orders) > deals * 0.99
    expected = deals * len(base) * math.comb(seats, 2) / math.comb(agents, 2)  # each pair's share of the tables
    counts = np.array(list(together.values()))
    assert len(counts) == math.comb(agents, 2)
    # a pair's count over the deals: a sum of independent per-deal counts (0..4 each, sd <= 1.5), so within
    # 5 sd of the mean unless the design favours some pairs (rotations' favourite pairs: 3x the mean, others 0)
    assert np.all(np.abs(counts - expected) < 5 * 1.5 * math.sqrt(deals)), (expected, counts.min(), counts.max())
    assert deal_lineups(base, "rotations", 7, 3, agents) is base


def test_a_shuffled_tournament_reports_its_seating_and_plays_the_same_for_any_workers():
    agents = ("random", "heuristic", "random", "heuristic", "random", "random")  # six agents, four seats
    t = small_tournament("perico_v0", deals=3, agents=agents)
    one = run_tournament(t, workers=1, progress=False)
    assert one.seating == "shuffled" and report.summarize(one)["seating"] == "shuffled"
    two = run_tournament(t, workers=2, progress=False)
    assert one.records == two.records
    per_deal = defaultdict(list)
    for rec in one.records:
        per_deal[rec.deal].append(rec.seats)
        assert rec.seats == deal_lineups(one.seatings, "shuffled", t.seed, rec.deal, 6)[rec.lineup]
    assert len({tuple(v) for v in per_deal.values()}) == 3  # every deal its own order
    for lineups in per_deal.values():
        for s in range(4):
            assert sorted(lineup[s] for lineup in lineups) == list(range(6))


def test_unique_labels():
    assert unique_labels(["random", "a+b", "random"]) == ["random#1", "a+b", "random#2"]


# --------------------------------------------------------------------------- duplicate deals
@pytest.mark.parametrize("game", GAMES)
def test_duplicate_mode_gives_every_agent_the_same_deals(game):
    t = small_tournament(game, deals=3, record=True)
    result = run_tournament(t, workers=1, progress=False)
    cls = game_class(game)
    by_deal = defaultdict(list)
    for rec in result.records:
        by_deal[rec.deal].append(rec)
    assert sorted(by_deal) == [0, 1, 2]
    starts = {}
    for deal, recs in by_deal.items():
        assert len(recs) == len(result.seatings)
        assert len({r.seed for r in recs}) == 1, "one seed per deal in duplicate mode"
        # Every seating meets the same cards: the dealt state is the same for all of them.
        zones = [cls(seed=r.seed, **t.config).zones() for r in recs]
        assert all(z == zones[0] for z in zones)
        starts[deal] = zones[0]
        # and every agent sat in every seat of this deal
        seats_of = Counter((agent, seat) for r in recs for seat, agent in enumerate(r.seats))
        assert set(seats_of) == {(a, s) for a in range(2) for s in range(result.num_players)}
    assert starts[0] != starts[1] != starts[2], "different deals must be different shuffles"


def test_duplicate_caribbean_cards_identical_for_all_agents():
    """Caribbean: every agent's showdown shows exactly the same box and dealer cards on a deal."""
    t = Tournament(CARIBBEAN, ("random", "always_raise", "rules_of_thumb"), deals=20, seed=3, record=True)
    result = run_tournament(t, workers=1, progress=False)
    cards = defaultdict(set)
    for rec in result.records:
        showdown = [e for e in rec.history["events"] if e["type"] == "showdown"]
        assert len(showdown) == 1
        cards[rec.deal].add((showdown[0]["dealer"]["cards"], tuple(b["cards"] for b in showdown[0]["boxes"])))
    assert all(len(c) == 1 for c in cards.values())
    assert len({next(iter(c)) for c in cards.values()}) == 20


def test_without_duplicate_every_game_has_its_own_seed():
    t = Tournament(CARIBBEAN, ("random", "always_raise"), deals=10, seed=1, duplicate=False)
    result = run_tournament(t, workers=1, progress=False)
    assert len({r.seed for r in result.records}) == 20
    dup, own = DealSeeds.draw(1, 0, 3, 2, True), DealSeeds.draw(1, 0, 3, 2, False)
    assert len(set(dup.games)) == 1 and len(set(own.games)) == 3
    assert dup.agents == own.agents and len({s for row in dup.agents for s in row}) == 6
    assert DealSeeds.draw(1, 1, 3, 2, True) != dup


# --------------------------------------------------------------------------- worker independence
def _comparable(result: TournamentResult) -> dict:
    s = report.summarize(result)
    s.pop("seconds"), s.pop("workers")
    return s


def test_results_identical_for_one_and_two_workers_caribbean():
    t = Tournament(CARIBBEAN, ("random", "rules_of_thumb", "always_raise"), deals=300, seed=11, record=True)
    one = run_tournament(t, workers=1, progress=False)
    two = run_tournament(t, workers=2, progress=False)
    assert two.workers == 2
    assert one.records == two.records
    assert _comparable(one) == _comparable(two)
    assert report.markdown(_comparable(one) | {"seconds": 0, "workers": 1}) == report.markdown(
        _comparable(two) | {"seconds": 0, "workers": 1}
    )


@pytest.mark.parametrize("game", [g for g in GAMES if g != CARIBBEAN])
def test_results_identical_for_one_and_two_workers(game):
    t = small_tournament(game, deals=4, agents=("random", "random"))
    assert (
        run_tournament(t, workers=1, progress=False).records
        == run_tournament(t, workers=2, progress=False).records
    )


def test_different_seeds_give_different_results():
    a = run_tournament(Tournament(CARIBBEAN, ("random",), deals=50, seed=1), workers=1, progress=False)
    b = run_tournament(Tournament(CARIBBEAN, ("random",), deals=50, seed=2), workers=1, progress=False)
    assert [r.rewards for r in a.records] != [r.rewards for r in b.records]


# --------------------------------------------------------------------------- intervals
def test_t_quantile_matches_known_values():
    known = {
        1: 12.7062047362,
        2: 4.3026527297,
        3: 3.1824463053,
        4: 2.7764451052,
        10: 2.2281388520,
        30: 2.0422724563,
        100: 1.9839715185,
        999: 1.9623414611,
        1001: 1.9623367053,
        5000: 1.9604385517,
    }  # fmt: skip (values from scipy.stats.t.ppf)
    for df, value in known.items():
        assert report.t_quantile(0.975, df) == pytest.approx(value, abs=1e-8), df
    assert report.t_quantile(0.995, 7) == pytest.approx(3.4994832974, abs=1e-8)


def test_intervals_cover_the_true_mean_in_a_synthetic_check():
    """95% t-intervals of 2000 synthetic samples cover the true mean 95% of the time (±4 sd)."""
    rng = np.random.default_rng(2024)
    covered = [report.mean_ci(rng.normal(0.3, 2.0, size=40)).covers(0.3) for _ in range(2000)]
    assert 0.93 <= np.mean(covered) <= 0.97
    # skewed rewards (a big rare win, like a poker payout) with many samples
    covered = [
        report.mean_ci(rng.choice([-1.0, 0.0, 20.0], p=[0.6, 0.35, 0.05], size=400)).covers(0.4)
        for _ in range(1000)
    ]
    assert 0.92 <= np.mean(covered) <= 0.975


def test_ratio_intervals_cover_the_true_ratio():
    """Per-unit means over games with varying unit counts: the delta-method interval covers the truth."""
    rng = np.random.default_rng(5)
    covered = []
    for _ in range(1000):
        units = rng.integers(1, 12, size=60)
        rewards = np.array([rng.normal(0.25, 1.0, size=u).sum() for u in units])
        est = report.ratio_ci(rewards, units)
        covered.append(est.covers(0.25))
    assert 0.93 <= np.mean(covered) <= 0.97


def test_paired_difference_interval_covers_and_is_tighter():
    rng = np.random.default_rng(9)
    covered, narrower = [], []
    for _ in range(500):
        luck = rng.normal(0, 3.0, size=100)  # the shared deal luck
        a = luck + 0.2 + rng.normal(0, 0.5, size=100)
        b = luck + rng.normal(0, 0.5, size=100)
        diff = report.mean_ci(a - b)
        covered.append(diff.covers(0.2))
        narrower.append(diff.half_width < report.mean_ci(a).half_width / 3)
    assert 0.93 <= np.mean(covered) <= 0.97
    assert all(narrower)


def test_estimates_with_too_few_samples():
    assert math.isnan(report.mean_ci([]).mean)
    one = report.mean_ci([2.0])
    assert one.mean == 2.0 and math.isnan(one.low) and one.text() == "+2.000"
    assert report.mean_ci([1.0, 3.0]).text() == f"+2.000 ± {report.t_quantile(0.975, 1) * 1.0:.3f}"
    rate = report.mean_ci([0.0, 0.0, 1.0]).clipped(0.0, 1.0)  # a rate's interval stays within 0..1
    assert rate.low == 0.0 and rate.high == 1.0 and rate.mean == pytest.approx(1 / 3)
    assert report._pct_est(rate.to_dict()) == "33.3% [0.0, 100.0]"


def test_caribbean_interval_covers_the_published_house_edge():
    """Rules of thumb lose 5.225% of the ante per hand (RULES.md §5): the per-hand interval covers it."""
    t = Tournament(CARIBBEAN, ("rules_of_thumb", "random"), deals=600, seed=21, config={"num_hands": 10})
    result = run_tournament(t, workers=1, progress=False)
    summary = report.summarize(result)
    thumb = summary["agents"][0]
    assert thumb["hands"] == 6000
    per_hand = thumb["reward_per_hand"]
    assert per_hand["low"] <= -0.05225 <= per_hand["high"]
    assert per_hand["high"] - per_hand["low"] < 0.2
    assert per_hand["mean"] == pytest.approx(thumb["reward_per_game"]["mean"] / 10)
    # and the paired difference to random play is clearly positive
    (pair,) = summary["paired_differences"]
    assert pair["difference"]["low"] > 0
    assert "reward/hand" in report.markdown(summary)


# --------------------------------------------------------------------------- metrics
def test_betting_metrics_from_action_names():
    t = Tournament(CARIBBEAN, ("always_raise", "random"), deals=200, seed=4)
    summary = report.summarize(run_tournament(t, workers=1, progress=False))
    always, rand = summary["agents"]
    assert always["betting"]["fold_rate"] == 0.0 and always["betting"]["raise_rate"] == 1.0
    assert always["betting"]["fold_decisions"] == 200
    assert 0.4 < rand["betting"]["fold_rate"] < 0.6
    assert always["bidding_decisions"] == 200  # caribbean's decide phase is a betting decision
    assert "bidding" not in always  # no bids in Caribbean stud
    assert "### Betting" in report.markdown(summary)


class _FakeGame:
    num_players = 3
    events: ClassVar[list] = [
        {"type": "bid", "player": 0, "bid": 1},
        UnitEnd("deal_scored", {"points": [10, -1, -10]}, bids=(1, 0, 2), tricks=(1, 1, 1)),
        UnitEnd("deal_scored", {}, bids=(None, None, None), tricks=(2, 0, 1)),  # a deal without bids
        UnitEnd("deal_scored", {}, bids=(0, 3, 1), tricks=(0, 3, 0)),
    ]


class _FakeGameWithoutUnits:
    num_players = 2
    events: ClassVar[list] = [{"type": "deal", "cards": []}]


def test_bids_read_from_events_and_summarized():
    bids = read_bids(_FakeGame())
    assert bids == ((0, 1, 1), (1, 0, 1), (2, 2, 1), (0, 0, 0), (1, 3, 3), (2, 1, 0))
    assert count_units(_FakeGame()) == 3
    assert count_units(_FakeGameWithoutUnits()) is None and read_bids(_FakeGameWithoutUnits()) == ()
    # a hand-made result: agent 0 always in seat 0, agent 1 in seats 1 and 2
    rec = GameRecord(
        deal=0, lineup=0, seed=1, seats=(0, 1, 1), rewards=(10.0, -1.0, -10.0), win_shares=(1.0, 0.0, 0.0),
        units=3, steps=10, truncated=False, decisions=((2, 5), (2, 5), (2, 5)), betting=((0,) * 4,) * 3,
        bids=tuple(bids),
    )  # fmt: skip
    result = TournamentResult(
        env_name="fake_v0", config={}, agents=("a", "b"), labels=["a", "b"], num_players=3,
        seatings=[(0, 1, 1)], deals=1, seed=0, duplicate=True, unit="deal", records=[rec], workers=1,
        seconds=0.0,
    )  # fmt: skip
    summary = report.summarize(result)
    a, b = summary["agents"]
    assert a["bidding"]["bids"] == 2 and a["bidding"]["exact_rate"]["mean"] == 1.0
    assert a["bidding"]["mean_abs_error"] == 0.0
    assert b["bidding"]["bids"] == 4 and b["bidding"]["exact_rate"]["mean"] == 0.25
    assert b["bidding"]["mean_abs_error"] == pytest.approx((1 + 1 + 0 + 1) / 4)
    assert b["bidding"]["distribution"] == {0: 1, 1: 1, 2: 1, 3: 1}
    assert a["reward_per_game"]["mean"] == 10.0 and b["reward_per_game"]["mean"] == -5.5
    assert a["win_rate"]["mean"] == 1.0 and b["win_rate"]["mean"] == 0.0
    text = report.markdown(summary)
    assert "### Bidding" in text and "reward/deal" in text


def _hand_made(seats_rewards: list[list[tuple[tuple[int, ...], tuple[float, ...]]]], labels: list[str]):
    """A result from games given per deal as (seats, rewards)."""
    records = [
        GameRecord(
            deal=deal,
            lineup=k,
            seed=deal,
            seats=seats,
            rewards=rewards,
            win_shares=(0.0,) * len(seats),
            units=None,
            steps=1,
            truncated=False,
            decisions=((0, 1),) * len(seats),
            betting=((0,) * 4,) * len(seats),
        )
        for deal, games in enumerate(seats_rewards)
        for k, (seats, rewards) in enumerate(games)
    ]
    n = len(records[0].seats)
    return TournamentResult(
        env_name="fake_v0", config={}, agents=tuple(labels), labels=labels, num_players=n,
        seatings=[g[0] for g in seats_rewards[0]], deals=len(seats_rewards), seed=0, duplicate=True, unit=None,
        records=records, workers=1, seconds=0.0,
    )  # fmt: skip


def test_tablemate_effects_pair_with_and_without_by_deal():
    """Three agents at two seats: each agent's reward with a tablemate minus without it, a deal at a time."""
    deals = [
        [((0, 1), (3.0, -3.0)), ((1, 2), (1.0, -1.0)), ((2, 0), (4.0, -4.0))],
        [((0, 1), (1.0, -1.0)), ((1, 2), (0.0, 0.0)), ((2, 0), (2.0, -2.0))],
    ]
    summary = report.summarize(_hand_made(deals, ["a", "b", "c"]))
    effects = {(e["agent"], e["tablemate"]): e for e in summary["tablemate_effects"]}
    assert len(effects) == 6
    # a with b: 3 then 1; a without b (with c): -4 then -2; differences 7 and 3
    a_b = effects["a", "b"]
    assert a_b["deals"] == 2 and a_b["difference"]["mean"] == pytest.approx(5.0)
    half = report.t_quantile(0.975, 1) * np.std([7.0, 3.0], ddof=1) / math.sqrt(2)
    assert a_b["difference"]["high"] - a_b["difference"]["mean"] == pytest.approx(half)
    # b with c: 1 then 0; without c: -3 then -1
    assert effects["b", "c"]["difference"]["mean"] == pytest.approx(2.5)
    # c with a: 4 then 2; without a (with b): -1 then 0
    assert effects["c", "a"]["difference"]["mean"] == pytest.approx(3.5)
    text = report.markdown(summary)
    assert "### Tablemates" in text and "| `a` |  | +5.00 ± " in text


def test_tablemate_effects_need_someone_sitting_out():
    """With every agent at every table (or one seat) there is no table without a tablemate: no section."""
    full = _hand_made([[((0, 1), (1.0, -1.0)), ((1, 0), (2.0, -2.0))]], ["a", "b"])
    assert report.summarize(full)["tablemate_effects"] is None
    alone = _hand_made([[((0,), (1.0,)), ((1,), (-1.0,))]], ["a", "b"])
    assert report.summarize(alone)["tablemate_effects"] is None
    assert "### Tablemates" not in report.markdown(report.summarize(full))


@pytest.mark.parametrize("game", [g for g in GAMES if spec(g).unit])
def test_games_with_a_unit_log_their_unit_ends(game):
    """A game whose registry entry names a unit logs UnitEnd events, and histories keep them as JSON."""
    t = small_tournament(game, deals=2, record=True)
    result = run_tournament(t, workers=1, progress=False)
    assert all(rec.units for rec in result.records), f"{game} names the unit {spec(game).unit} but logs no UnitEnd"
    kinds = {e["type"] for rec in result.records for e in rec.history["events"]}
    assert all(isinstance(e, dict) for rec in result.records for e in rec.history["events"]), kinds


def test_win_shares_split_ties():
    from pokerzoo.evaluation.tournament import win_shares

    assert win_shares(np.array([3.0, 3.0, -6.0])) == (0.5, 0.5, 0.0)
    assert win_shares(np.array([1.0])) == (1.0,) and win_shares(np.array([0.0])) == (0.0,)


# --------------------------------------------------------------------------- errors
def test_bad_input_is_named():
    with pytest.raises(ValueError, match="unknown agent 'nobody'"):
        run_tournament(small_tournament(CARIBBEAN, agents=("nobody",)), workers=1, progress=False)
    with pytest.raises(ConfigError, match="boxes"):
        run_tournament(small_tournament(CARIBBEAN, config={"boxes": 9}), workers=1, progress=False)
    with pytest.raises(ValueError, match="unknown game"):
        Tournament("chess", ("random",))
    with pytest.raises(ValueError, match="positive"):
        Tournament(CARIBBEAN, ("random",), deals=0)
    with pytest.raises(ValueError, match="at least one agent"):
        Tournament(CARIBBEAN, ())
    with pytest.raises(ValueError, match="KEY=VALUE"):
        parse_config_pairs(["boxes"])
    assert parse_config_pairs(["boxes=2", "ante_choices=[1, 5]", "flag=true", "x=0.5", "s=abc"]) == {
        "boxes": 2, "ante_choices": [1, 5], "flag": True, "x": 0.5, "s": "abc"
    }  # fmt: skip


def test_an_agent_choosing_an_illegal_action_is_an_error():
    from pokerzoo.agents.base import Agent

    class Bad(Agent):
        def act(self, view, mask, game=None):
            return int(np.flatnonzero(~mask)[0]) if (~mask).any() else mask.size

    game = game_class(CARIBBEAN)(seed=1)
    with pytest.raises(ValueError, match="agent bad in seat 0 chose illegal action 2"):
        play_game(game, [Bad()], ["bad"])


# --------------------------------------------------------------------------- files and CLI
def test_report_files(tmp_path):
    t = Tournament(CARIBBEAN, ("rules_of_thumb", "always_raise"), deals=100, seed=2)
    result = run_tournament(t, workers=1, progress=False)
    paths = report.write_all(result, tmp_path / "run")
    assert {p.name for p in paths.values()} == {
        "report.md",
        "summary.csv",
        "games.csv",
        "report.json",
        "means.png",
    }
    data = json.loads(paths["json"].read_text())
    assert [a["agent"] for a in data["agents"]] == ["rules_of_thumb", "always_raise"]
    rows = list(csv.DictReader(paths["csv"].open()))
    assert [r["agent"] for r in rows] == ["rules_of_thumb", "always_raise"]
    assert float(rows[0]["reward_per_game_low"]) <= float(rows[0]["reward_per_game_mean"])
    games = list(csv.DictReader(paths["games_csv"].open()))
    assert len(games) == 200
    assert sum(float(g["reward"]) for g in games if g["agent"] == "always_raise") == pytest.approx(
        data["agents"][1]["reward_per_game"]["mean"] * 100
    )
    assert paths["figure"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "`always_raise`" in paths["markdown"].read_text()


def test_cli_evaluate_writes_report_and_histories(tmp_path, capsys):
    out, hist = tmp_path / "out", tmp_path / "h.jsonl"
    args = ["evaluate", "caribbean_stud", "--agents", "raise_pair_plus", "random", "--games", "30",
            "--workers", "1", "--out", str(out), "--record", str(hist), "--config", "boxes=2",
            "--no-progress"]  # fmt: skip
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "| `raise_pair_plus` | 30 |" in printed and "Options: `boxes=2`" in printed
    assert (out / "report.md").exists() and (out / "means.png").exists()
    assert len(hist.read_text().splitlines()) == 60
    assert main(["replay", str(hist), "--quiet"]) == 0
    assert "60 of 60 games replayed" in capsys.readouterr().out


def test_cli_evaluate_progress_is_on_when_asked_and_off_by_default_without_a_terminal(capsys):
    args = ["evaluate", "caribbean_stud", "--agents", "raise_pair_plus", "random", "--games", "3", "--workers", "1",
            "--no-plot"]  # fmt: skip
    assert main(args) == 0
    assert "deal" not in capsys.readouterr().err
    assert main([*args, "--progress"]) == 0
    bar = capsys.readouterr().err
    assert "caribbean_stud_v0:" in bar and "0/3 [" in bar and "deal/s" in bar


def test_cli_evaluate_reports_bad_input(capsys):
    assert main(["evaluate", "caribbean_stud", "--agents", "wizard", "--games", "2", "--no-progress"]) == 2
    assert "unknown agent 'wizard'" in capsys.readouterr().err
    assert main(["evaluate", "caribbean_stud", "--agents", "random", "--config", "boxes=7"]) == 2
    assert "boxes=7" in capsys.readouterr().err
