"""The AEC env, the observation vector, hidden information, determinize and the ansi rendering."""

from __future__ import annotations

import numpy as np
import pytest
from raspisnoy_helpers import act, card, joker, new_game

from pokerzoo.envs import make, raspisnoy_poker_v0
from pokerzoo.envs.engine.cards import RED_JOKER, ScriptedChance
from pokerzoo.envs.raspisnoy_poker import encoding
from pokerzoo.envs.raspisnoy_poker.game import RaspisnoyPokerGame as Game

THREE = ["RJ 2s 3c", "Ad 5h 9s", "Kd Qh 4c"]
D = 2


def test_env_spaces_and_a_full_episode():
    env = raspisnoy_poker_v0.env(num_players=4, schedule="single", render_mode="ansi")
    env.reset(seed=3)
    obs_space = env.observation_space("player_0")
    assert obs_space["observation"].shape == (encoding.schema(4).size,) == (666,)
    assert env.action_space("player_0").n == 87
    total = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        assert obs_space.contains(obs)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = env.unwrapped.game
    assert [total[a] for a in env.possible_agents] == pytest.approx(list(game.scores))
    assert game.is_over and len(game.sheet) == 1


def test_make_and_unwrapped_view():
    env = make("raspisnoy_poker", num_players=3, deck="34")
    env.reset(seed=1)
    view = env.unwrapped.view(env.agent_selection)
    assert view.deck == "34" and view.num_players == 3


def test_render_ansi_shows_table_trick_hand_and_sheet():
    env = raspisnoy_poker_v0.raw_env(
        num_players=3, render_mode="ansi", schedule=[(3, "normal"), (3, "normal")]
    )
    env.reset(
        options={
            "chance": ScriptedChance(shuffles=[[c for h in THREE for c in h.split()] + ["7d"]], integers=[2])
        }
    )
    text = env.render()
    assert "trump d (shown 7d)" in text and "dealer P2" in text
    assert "Your hand (P0): 2s 3c RJ" in text  # the agent to act is seat 0
    assert "Ad" not in text and "Kd" not in text  # nobody else's cards
    game = env.unwrapped.game
    act(game, "bid 1", "bid 1", "bid 0", joker("RJ", "high"))
    env.render_viewer = 2
    text = env.render()
    assert "P0 RJ(high d)" in text and "Your hand (P2): Qh Kd 4c" in text
    act(game, "Ad", "Kd", "2s", "9s", "Qh", "5h", "4c", "3c")  # tricks 1, 2, 0 for bids 1, 1, 0
    text = env.render()
    assert "deal 2/2" in text and "Score sheet" in text
    row = next(line for line in text.splitlines() if line.startswith("  1.  3"))
    assert row.split("|")[1:] == ["       1  1    10 ", "       1  2     2 ", "       0  0     5 "]
    totals = next(line for line in text.splitlines() if line.startswith("totals"))
    assert [cell.strip() for cell in totals.split("|")[1:]] == ["10", "2", "5"]


def test_render_forehead_hides_only_the_viewers_card():
    g = new_game(["As", "Kd", "2c", "RJ"], "5h", dealer=3, kind="forehead")
    text = g.render(1)
    assert "forehead: As" in text and "forehead: 2c" in text and "forehead: RJ" in text
    assert "Kd" not in text and "hidden" in text


def test_render_34_deck_labels_the_sixes():
    g = new_game(["RJ 7s 8c", "Ad Ts 9s", "Kd Qh Jc"], "Ac", dealer=2, deck="34")
    assert "RJ[6h]" in g.render(0)


def test_observation_layout():
    g = new_game(THREE, "7d", dealer=2)
    act(g, "bid 1", "bid 2", "bid 1")
    act(g, joker("RJ", "high"), "Ad")
    schema = encoding.schema(3)
    assert g.observation_schema is schema and schema.size == 186 + 120 * 3
    obs = g.observe(2)  # seat 2 to act: seat 0 is relative seat 1, seat 1 is relative seat 2

    def v(name):
        return schema.view(obs, name)

    assert v("hand")[[card(c) for c in ("Kd", "Qh", "4c")]].tolist() == [1, 1, 1] and v("hand").sum() == 3
    seat0, seat1 = v("trick")[1], v("trick")[2]
    assert seat0[52] == 1 and seat0[54] == 1  # red joker, declared high
    assert seat1[card("Ad")] == 1 and seat1[54] == 0
    assert v("led")[D] == 1 and v("trump")[D] == 1 and v("trump_card")[card("7d")] == 1
    assert v("bids").tolist() == pytest.approx([1 / 18, 1 / 18, 2 / 18])
    assert v("has_bid").tolist() == [1, 1, 1]
    assert v("kind")[0] == 1 and v("phase")[1] == 1
    assert v("dealer")[0] == 1 and v("leader")[1] == 1
    act(g, "Kd", "2s", "9s", "Qh")  # seat 2 shows it has no spades (and no trumps)
    obs = g.observe(0)
    assert v("voids")[2, 0] == 1 and v("voids")[2, D] == 1
    assert v("played")[52] == 1 and v("played")[card("Ad")] == 1


def test_observation_forehead_block():
    g = new_game(["As", "Kd", "2c", "RJ"], "5h", dealer=3, kind="forehead")
    schema = encoding.schema(4)
    obs = g.observe(1)
    assert obs[schema.slice("hand")].sum() == 0 and schema.view(obs, "hidden")[0] == 1
    vis = schema.view(obs, "visible")
    assert vis[3, card("As")] == 1  # seat 0 is relative seat 3 for seat 1
    assert vis[1, card("2c")] == 1 and vis[2, 52] == 1
    assert vis[0].sum() == 0


def test_determinize_keeps_views_and_respects_known_voids():
    g = new_game(THREE, "7d", dealer=2)
    act(g, "bid 1", "bid 1", "bid 0", joker("RJ", "high"), "Ad", "Kd", "2s", "9s", "Qh")
    assert g.voids[2] == (1 << 0) | (1 << D)  # seat 2 showed: no spades, no diamonds
    rng = np.random.default_rng(0)
    for _ in range(200):
        world = g.determinize(0, rng)
        assert world.view(0) == g.view(0)
        assert all(c // 13 not in (0, D) for c in world.hands[2] if c < 65)
    moved = sum(g.determinize(0, rng).hands[1] != g.hands[1] for _ in range(50))
    assert moved > 0


def test_determinize_keeps_ceilings_of_the_variant():
    g = new_game(
        ["RJ 2s 3c", "Ad 5d 9s", "Kd Qh 4c"], "7d", dealer=2, kind="gold", joker_lead_demands_highest=True
    )
    act(g, joker("RJ", "high"), "Ad")
    assert g.ceilings[1][D] == 12
    g2 = new_game(
        ["RJ 2s 3c", "Td 5d 9s", "Kd Qh 4c"], "7d", dealer=2, kind="gold", joker_lead_demands_highest=True
    )
    act(g2, joker("RJ", "high"), "Td")
    assert g2.ceilings[1][D] == card("Td") % 13
    rng = np.random.default_rng(1)
    for _ in range(200):
        world = g2.determinize(2, rng)
        assert all(c % 13 <= card("Td") % 13 for c in world.hands[1] if c < 65 and c // 13 == D)


def test_determinize_in_dark_bidding_redeals_the_own_hand():
    g = new_game(THREE, "7d", dealer=2, kind="dark")
    rng = np.random.default_rng(2)
    assert any(g.determinize(0, rng).hands[0] != g.hands[0] for _ in range(20))
    act(g, "bid 1", "bid 1", "bid 0")
    assert all(g.determinize(0, rng).hands[0] == g.hands[0] for _ in range(20))


def test_determinize_in_forehead_redeals_only_the_own_card():
    g = new_game(["As", "Kd", "2c", "RJ"], "5h", dealer=3, kind="forehead")
    rng = np.random.default_rng(3)
    worlds = [g.determinize(1, rng) for _ in range(30)]
    assert any(w.hands[1] != g.hands[1] for w in worlds)
    assert all(w.hands[q] == g.hands[q] for w in worlds for q in (0, 2, 3))
    assert all(w.turned == g.turned for w in worlds)


def test_determinized_world_does_not_know_the_next_deal():
    g = Game(seed=4, num_players=3, schedule=[1, 1])
    rng = np.random.default_rng(0)
    worlds = [g.determinize(0, rng) for _ in range(5)]
    nexts = []
    for w in worlds:
        while w.deal_index == 0:
            w.apply(w.legal_actions()[0])
        nexts.append(tuple(map(tuple, w.hands)))
    assert len(set(nexts)) > 1  # the next shuffle is not the live game's


def test_clone_is_independent():
    g = new_game(THREE, "7d", dealer=2)
    c = g.clone()
    act(c, "bid 1")
    assert g.bids == [-1, -1, -1] and c.bids == [1, -1, -1]
    assert g.history == [] and len(c.events) == len(g.events) + 1
    assert RED_JOKER in g.hands[0]
