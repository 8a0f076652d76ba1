"""``pokerzoo compile``: the batched games' kernels built ahead of use, and its refusals (the kernels are in the
cache by then: this is not a timed test)."""

from pokerzoo.cli.compile import compile_game, games_to_compile
from pokerzoo.cli.main import main
from pokerzoo.envs.batched import BATCHED_GAMES


def test_it_builds_each_game_and_its_batched_agents_and_says_where_the_cache_is(capsys):
    assert main(["compile", "--games", "high_card", "raspisnoy_poker", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "| high_card_v0 | - |" in out and "| raspisnoy_poker_v0 | heuristic |" in out
    assert "kernels cached in " in out
    assert compile_game("caribbean_stud_v0")["game"] == "caribbean_stud_v0"


def test_every_batched_game_by_default_and_names_checked():
    assert games_to_compile(None) == list(BATCHED_GAMES)
    assert games_to_compile(["perico"]) == ["perico_v0"]


def test_bad_games_and_job_counts_are_named(capsys):
    assert main(["compile", "--games", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    for jobs in ("0", "x", "65"):
        try:
            code = main(["compile", "--jobs", jobs])
        except SystemExit as exc:  # argparse's own exit
            code = exc.code
        assert code == 2 and "--jobs must be an integer in 1..64" in capsys.readouterr().err
