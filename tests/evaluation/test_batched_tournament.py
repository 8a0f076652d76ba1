"""The batched tournament (``pokerzoo.evaluation.batched_tournament``): the scalar tournament's deals, seatings,
records and report on batched rows, each checked against its scalar twin; agents without a batched port play on
the twins. With agents that draw no random numbers, exactly the scalar tournament's games."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from pokerzoo.agents.registry import make_agent
from pokerzoo.cli.main import main
from pokerzoo.evaluation import report
from pokerzoo.evaluation.batched_tournament import ScalarSeats, Twins, run_batched_tournament
from pokerzoo.evaluation.pooling import pool
from pokerzoo.evaluation.tournament import DealSeeds, Tournament, run_tournament, unique_labels
from pokerzoo.training.selfplay.league import batched_agent, has_batched_port

RASPISNOY = {"schedule": "single"}  # bids, tricks and four seats in a few hundred steps


def players(t: Tournament) -> list:
    """As ``pokerzoo evaluate --engine batched`` seats them: the batched port where there is one."""
    return [batched_agent(t.game, t.config, a) if has_batched_port(t.game, a) else make_agent(t.game, a)
            for a in t.agents]  # fmt: skip


def batched(t: Tournament, **kwargs):
    return run_batched_tournament(t, players(t), progress=False, **kwargs)


def without_volatile(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in ("seconds", "workers")}


@pytest.mark.parametrize(
    ("game", "agents", "config", "duplicate", "deals"),
    [
        # four seats, three agents, shuffled: ppo and the heuristic batched, their composite on the twins
        ("raspisnoy_poker", ("ppo", "heuristic", "heuristic+ppo"), RASPISNOY, True, 5),
        ("raspisnoy_poker", ("heuristic", "ppo"), RASPISNOY, False, 4),  # every game its own seed
        ("caribbean_stud", ("ppo", "rules_of_thumb", "exact_ev"), {}, True, 40),  # one seat; two on the twins
    ],
)
def test_deterministic_agents_play_exactly_the_scalar_tournaments_games(game, agents, config, duplicate, deals):
    t = Tournament(game=game, agents=agents, deals=deals, seed=11, config=config, duplicate=duplicate)
    mine = batched(t, batch_rows=7)  # several batches
    theirs = run_tournament(t, workers=1, progress=False)
    assert mine.records == theirs.records  # seeds, seats, rewards, units, decisions, betting, bids
    assert without_volatile(report.summarize(mine)) == without_volatile(report.summarize(theirs))
    assert any(r.decisions[0] != (0, 0) for r in mine.records)


def test_scalar_agents_play_on_the_twins_and_a_tournament_reproduces():
    agents = ("equity(sampler=fast,simulations=20)", "ismcts(iterations=8)", "random", "calling_station")
    t = Tournament(game="breed_the_heifer", agents=agents, deals=6, seed=3)
    first = batched(t, batch_rows=9)
    assert first.records == batched(t, batch_rows=9).records
    assert first.seating == "shuffled" and len(first.records) == 6 * 4
    for rec in first.records:
        assert sum(rec.rewards) == pytest.approx(0.0)  # chips only change hands
        assert rec.seed == DealSeeds.draw(3, rec.deal, 4, 4, True).games[0]
    for deal in range(6):  # every agent in every seat once a deal
        seats = np.array([r.seats for r in first.records if r.deal == deal])
        assert all(sorted(col) == list(range(4)) for col in seats.T)
    assert sum(sum(d) for r in first.records for d, a in zip(r.decisions, r.seats) if a == 1) > 0  # ismcts acted
    other = batched(replace(t, seed=4), batch_rows=9)
    assert [r.rewards for r in other.records] != [r.rewards for r in first.records]
    spread = batched(t, batch_rows=9, workers=2)  # ismcts's decisions spread over two worker processes
    assert spread.records == first.records and spread.workers == 2


class Illegal:
    """A batched opponent that asks for an action no game has."""

    def seed(self, seed):
        pass

    def act(self, env, rows):
        return np.full(len(rows), 10**6)


def test_an_illegal_action_is_refused_naming_the_agent_and_the_legal_ones():
    t = Tournament(game="breed_the_heifer", agents=("random", "cheat"), deals=2, seed=1)
    with pytest.raises(ValueError, match=r"agent cheat in seat \d chose illegal action 1000000 \(out of range\) .*"
                                         r"legal: "):  # fmt: skip
        run_batched_tournament(t, [make_agent(t.game, "random"), Illegal()], progress=False)


def twins(t: Tournament) -> Twins:
    from tqdm import tqdm

    seeds = DealSeeds.draw(t.seed, 0, 2, 2, True)
    return Twins(t, [(0, 0, (0, 1, 0, 1, 0), seeds)], unique_labels(list(t.agents)), tqdm(disable=True))


def test_a_row_that_leaves_its_twin_is_an_error_naming_the_seed():
    t = Tournament(game="breed_the_heifer", agents=("random", "equity"), deals=1, seed=1)
    pair = twins(t)
    game = pair.games[0]
    wrong = (game.current_player + 1) % game.num_players
    with pytest.raises(RuntimeError, match=rf"seed {game.seed}, step 0: the batched row has seat {wrong} to act"):
        pair.step(np.array([0]), np.array([wrong]), np.array([int(np.flatnonzero(game.legal_mask())[0])]))
    with pytest.raises(RuntimeError, match=rf"seed {game.seed}: the batched row ended .* the scalar game is not over"):
        pair.records(np.zeros((1, game.num_players)))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": 1}, r"2 agent specs but 1 players"),
        ({"bad_player": object()}, r"agent 'equity': <object .*> is neither a scalar Agent nor a batched opponent"),
        ({"record": True}, r"keeps no hand histories"),
        ({"batch_rows": 0}, r"batch_rows=0: expected an int >= 1"),
        ({"workers": 0}, r"workers=0: expected an int >= 1"),
        ({"config": {"num_players": 99}}, r"num_players=99 is out of range"),
    ],
)
def test_bad_tournaments_are_refused_by_name(change, message):
    t = Tournament(game="breed_the_heifer", agents=("random", "equity"), deals=2, seed=1,
                   config=change.get("config", {}), record=change.get("record", False))  # fmt: skip
    seated = [make_agent(t.game, "random"), make_agent(t.game, "equity")][: change.get("players")]
    if "bad_player" in change:
        seated[1] = change["bad_player"]
    with pytest.raises((ValueError, TypeError), match=message):
        run_batched_tournament(t, seated, progress=False, batch_rows=change.get("batch_rows", 64),
                               workers=change.get("workers", 1))  # fmt: skip


def test_scalar_seats_reseed_per_decision_from_the_rows_seed():
    seats = ScalarSeats(make_agent("breed_the_heifer", "random"), 1)
    seats.seed(123)  # the tournament's per-batch seed is not theirs: nothing changes
    with pytest.raises(AssertionError, match="before a batch's twins"):
        seats.act(None, np.array([0]))


def test_the_cli_writes_the_scalar_report_and_its_games_pool_with_a_scalar_piece(tmp_path, capsys):
    common = ["evaluate", "raspisnoy_poker", "--agents", "ppo", "heuristic", "heuristic+ppo", "--config",
              "schedule=single", "--games", "3", "--no-progress", "--no-plot"]  # fmt: skip
    rc = main([*common, "--engine", "batched", "--workers", "1", "--seed", "5", "--out", str(tmp_path / "b")])
    printed = capsys.readouterr().out
    assert rc == 0
    assert "deciding on the scalar twins one decision at a time (in 1 process): heuristic+ppo" in printed
    saved = json.loads((tmp_path / "b" / "report.json").read_text())
    assert saved["engine"] == "batched" and saved["deals"] == 3 and saved["games"] == 9
    assert saved["seating"] == "shuffled" and [a["agent"] for a in saved["agents"]] == ["ppo", "heuristic",
                                                                                       "heuristic+ppo"]  # fmt: skip
    assert "on the batched engine" in (tmp_path / "b" / "report.md").read_text()
    assert printed.strip().endswith(
        f"report: {tmp_path / 'b' / 'report.md'} (also summary.csv, games.csv, report.json)"
    )
    assert main([*common, "--seed", "6", "--workers", "1", "--out", str(tmp_path / "s")]) == 0
    _, summary = pool([tmp_path / "b", tmp_path / "s"])
    assert summary["deals"] == 6 and summary["seed"] == [5, 6]
    assert all(a["bidding"]["bids"] > 0 for a in summary["agents"])  # the tallies of both engines' games


@pytest.mark.parametrize(
    ("game", "spec", "ported"),
    [
        ("breed_the_heifer", "equity(sampler=fast)", True),
        ("breed_the_heifer", "pimc(budget=900)", True),
        ("breed_the_heifer", "ismcts", False),
        ("breed_the_heifer", "pimc_batched(budget=900)", False),  # a scalar agent whose own playouts are batched
        ("perico", "ppo@sample", True),
        ("perico", "policy:somewhere/policy.json", True),
        ("raspisnoy_poker", "heuristic+ppo", False),
    ],
)
def test_which_agents_play_batched(game, spec, ported):
    assert has_batched_port(game, spec) is ported
