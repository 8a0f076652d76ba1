"""The batched benchmark's measurements run (tiny budgets: these are not timed tests) and its table has every row."""

import pytest

from pokerzoo.agents.batched import ported_agents
from pokerzoo.agents.registry import agent_names
from pokerzoo.cli import batched_benchmarks as bench
from pokerzoo.envs.batched import BATCHED_GAMES
from pokerzoo.envs.registry import GAMES


def test_each_measurement_runs_and_counts_steps():
    assert bench.batched_steps_per_second("caribbean_stud", 4, 0.01) > 0
    assert bench.batched_steps_per_second("caribbean_stud", 4, 0.01, parallel=True, threads=1, copy=True) > 0
    assert bench.maskable_ppo_collection_rate("caribbean_stud", 8, n_steps=2, rounds=1) > 0
    pytest.importorskip("pyspiel")
    assert bench.openspiel_observer_steps_per_second("oh_hell", 0.01) > 0


def test_the_table_has_the_sizes_the_references_and_the_collection_rows():
    labels = []
    rows = bench.batched_speed_rows(
        "caribbean_stud", sizes=(1, 8), seconds=0.01, references=False, ppo_envs=(8,), progress=labels.append
    )
    engines = [(r["engine"], r["N"], r["threads"]) for r in rows]
    assert ("batched caribbean_stud_v0 serial", 8, 1) in engines
    assert ("batched caribbean_stud_v0 parallel", 1, 1) in engines
    assert any(e.startswith("pokerzoo caribbean_stud_v0 raw AEC") for e, _, _ in engines)
    assert any(e.startswith("MaskablePPO") for e, _, _ in engines)
    assert len(labels) == len(rows) and all(r["agent-steps/s"] > 0 for r in rows)


def test_the_scripted_agent_table_times_the_same_decisions_on_both_sides():
    rows = bench.scripted_agent_rows("breed_the_heifer", sizes=(8,), steps=3, seconds=0.01)
    assert [r["agent"] for r in rows] == [
        "equity (scalar, agents registry)",
        "EquityOpponent, sampler='scalar' (batched, serial)",
        "EquityOpponent, sampler='fast', stop_z=0 (batched, serial)",
        "EquityOpponent, sampler='fast' (batched, serial)",
        "calling_station (scalar, agents registry)",
        "CallingStationOpponent (batched, serial)",
        "pimc (scalar, agents registry)",
        "HeiferPimcOpponent, sampler='scalar' (batched, serial)",
        "HeiferPimcOpponent (batched, serial)",
    ]
    assert all(r["decisions/s"] > 0 for r in rows)
    assert [r["decisions timed"] for r in rows[1:4]] == [24, 24, 24]
    assert rows[5]["decisions timed"] == rows[-1]["decisions timed"] == 24
    assert bench.scripted_agent_rows("caribbean_stud") == []  # no batched scripted agent: no table


def test_each_variant_of_a_port_is_measured_and_checked_against_the_scalar_twins():
    rows = bench.scripted_agent_rows("perico", sizes=(8,), steps=3, seconds=0.01)
    assert [r["agent"] for r in rows] == [
        "heuristic (scalar, agents registry)",
        "HeuristicOpponent, sampler='scalar' (batched, serial)",
        "HeuristicOpponent, sampler='fast' (batched, serial)",
    ]


def test_every_batched_port_is_named_as_a_registered_scalar_agent_of_a_batched_game():
    seen = 0
    for env_id in GAMES:
        for name, cls in ported_agents(env_id).items():
            assert env_id in BATCHED_GAMES and name in agent_names(env_id) and cls.name == name
            seen += 1
    assert seen >= 3  # Raspisnoy's heuristic, Heifer's equity, Perico's heuristic
