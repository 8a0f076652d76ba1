"""Secret predictions are never announced to other players (human play narrates with public names)."""

from pokerzoo.envs.mexican_poker.game import MexicanPokerGame


def test_predictions_are_announced_without_their_value():
    game = MexicanPokerGame(seed=3, num_players=3)
    assert game.phase == "predict"
    actor = game.current_player
    action = game.legal_actions()[2]
    other = (actor + 1) % 3
    assert game.action_name(action) == "predict 2"
    assert "2" not in game.public_action_name(action, other)
    assert game.public_action_name(action, actor) == "predict 2"
