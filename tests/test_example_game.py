"""The example game of docs/adding_a_game.md: one folder of rules, one agents module and one
registry line, and the command line, evaluation and training work for it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pokerzoo.agents.registry import make_agent
from pokerzoo.cli.main import main
from pokerzoo.envs import ENV_NAMES, GAMES, make, spec
from pokerzoo.envs.engine.cards import ScriptedChance
from pokerzoo.envs.high_card.game import FOLD, PLAY, HighCardGame

ROOT = Path(__file__).resolve().parents[1]


def test_registered_as_an_example_but_not_one_of_the_five_games():
    assert "high_card_v0" in GAMES and spec("high_card").example
    assert "high_card_v0" not in ENV_NAMES


def play(game: HighCardGame, actions) -> np.ndarray:
    for a in actions:
        game.apply(a)
    return game.total_rewards


def test_the_best_played_hand_takes_the_pot_and_folds_lose_the_ante():
    deck = ["Ah 2c 3d", "Kh Qc Jd", "As 2d 4c"]  # seat 2's A-4-2 beats seat 0's A-3-2
    game = HighCardGame(num_players=3, chance=ScriptedChance([" ".join(deck)]))
    assert list(play(game, [PLAY, FOLD, PLAY])) == [-3.0, -1.0, 4.0]
    assert game.is_over and game.outcome["winners"] == [2]


def test_ties_split_and_nobody_playing_returns_the_antes():
    game = HighCardGame(num_players=2, chance=ScriptedChance(["Ah Kc 3d As Kd 3c"]))
    assert list(play(game, [PLAY, PLAY])) == [0.0, 0.0]
    game = HighCardGame(num_players=2, chance=ScriptedChance(["Ah Kc 3d 2s 4d 5c"]))
    assert list(play(game, [FOLD, FOLD])) == [0.0, 0.0]
    game = HighCardGame(num_players=3, chance=ScriptedChance(["2h 3c 4d 5s 6d 7c 8h 9c Td"]))
    assert list(play(game, [FOLD, PLAY, FOLD])) == [-1.0, 2.0, -1.0]  # unopposed


def test_scripted_agent_and_arguments():
    agent = make_agent("high_card", "threshold(min_rank=A)")
    env = make("high_card_v0", wrapped=False)
    env.reset(seed=3)
    view = env.view(env.agent_selection)
    expected = PLAY if max(c % 13 for c in view.hand) == 12 else FOLD
    assert agent.act(view, env.action_mask()) == expected
    with pytest.raises(ValueError, match="min_rank"):
        make_agent("high_card", "threshold(min_rank=Z)")


def test_cli_lists_evaluates_and_trains_it(tmp_path, capsys):
    assert main(["list", "high_card"]) == 0
    assert "threshold" in capsys.readouterr().out
    out = tmp_path / "eval"
    assert main(["evaluate", "high_card", "--agents", "threshold", "random", "--games", "40",
                 "--workers", "1", "--out", str(out), "--no-progress"]) == 0  # fmt: skip
    report = json.loads((out / "report.json").read_text())
    assert {a["agent"] for a in report["agents"]} == {"threshold", "random"} and report["unit"] == "hand"
    run = tmp_path / "run"
    args = ["train", str(ROOT / "configs" / "high_card" / "ppo.yaml"), "--out", str(run), "--no-progress",
            "--set", "total_timesteps=2048", "n_envs=4", "ppo.n_steps=64", "ppo.batch_size=128",
            "checkpoint_every=0", "eval.every=0", "eval.final_deals=20", "eval.final_workers=1"]  # fmt: skip
    assert main(args) == 0
    assert (run / "final" / "report.md").is_file()
    capsys.readouterr()
    assert main(["evaluate", "high_card", "--agents", f"policy:{run}", "threshold", "--games", "20",
                 "--workers", "1", "--out", str(tmp_path / "eval2"), "--no-progress"]) == 0  # fmt: skip
