"""Batched Perico and Six-card Perico against the scalar game: the compiled evaluator and the differential kit.

Every option is covered (both variants at every player count, both decks,
``jokers_in_five_of_a_kind``, target scores, both safety caps, both reward
modes); the stacked decks of ``test_rules.py`` are replayed on both engines
(each scenario's decisions recorded on the scalar game first); the evaluator
is checked against the scalar rank systems on every hand class. Under
``slow`` each configuration runs >= 100,000 steps and the evaluator sees
10^6 random hands per rank system.
"""

import itertools
from collections.abc import Callable

import numpy as np
import pytest

from pokerzoo.envs import batched, perico_v0
from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.batched.core import PARALLEL_MIN_ROWS
from pokerzoo.envs.batched.seats import LearnerSeats, SeatAccounts
from pokerzoo.envs.batched.testing import differential_play
from pokerzoo.envs.engine.cards import DECKS, JOKERS, ScriptedChance, parse_cards
from pokerzoo.envs.engine.hands.six_card import PericoSixSystem
from pokerzoo.envs.engine.hands.systems import PericoSystem
from pokerzoo.envs.perico import actions
from pokerzoo.envs.perico.actions import CONTINUE, DISCARD0, DRAW, KNOCK
from pokerzoo.envs.perico.batched_hands import has_royal, perico_tables, sort_cards, sorted_key
from pokerzoo.envs.perico.enumeration import rank_multisets
from pokerzoo.envs.perico.game import PericoGame
from pokerzoo.envs.perico.kernel import PericoKernel
from pokerzoo.envs.perico.ranking import has_royal as scalar_has_royal
from pokerzoo.envs.perico.ranking import sort_hand

# Every option, every player count of both variants (2..6 five-card, 2..5 six-card) across the list.
CONFIGS = [
    {},
    {"num_players": 2},
    {"num_players": 3, "deck": "56", "reward": "win"},
    {"num_players": 5, "jokers_in_five_of_a_kind": False, "target_score": 2},
    {"num_players": 6, "max_turns_per_round": 4, "reward": "win"},
    {"num_players": 3, "target_score": 1, "max_rounds": 3, "reward": "win"},
    {"six_card": True},
    {"six_card": True, "num_players": 2, "jokers_in_five_of_a_kind": False, "reward": "win"},
    {"six_card": True, "num_players": 3, "deck": "54", "target_score": 3},
    {"six_card": True, "num_players": 5, "max_turns_per_round": 7, "max_rounds": 4, "reward": "win"},
    {"num_players": 2, "target_score": 1, "max_turns_per_round": 1},  # games decided at their start happen
]
SYSTEMS = [(False, True), (False, False), (True, True), (True, False)]  # (six_card, jokers_in_five_of_a_kind)


# ---------------------------------------------------------------- the evaluator
@kernel
def _keys(tables, cards, out):
    for r in range(cards.shape[0]):
        out[r] = sorted_key(tables, cards[r], cards.shape[1])


@kernel
def _sort_and_key(tables, cards, out):
    for r in range(cards.shape[0]):
        sort_cards(tables, cards[r], cards.shape[1])
        out[r] = sorted_key(tables, cards[r], cards.shape[1])


@kernel
def _royals(cards, size, out):
    for r in range(cards.shape[0]):
        out[r] = has_royal(cards[r], cards.shape[1], size)


def scalar_system(six_card: bool, jokers_in_five_of_a_kind: bool):
    """A fresh scalar rank system (its own memo: nothing shared with the tables' construction)."""
    cls = PericoSixSystem if six_card else PericoSystem
    return cls(jokers_in_five_of_a_kind=jokers_in_five_of_a_kind)


def class_hands(hand_size: int, rng: np.random.Generator) -> list[list[int]]:
    """One hand of every class (natural ranks, jokers, one suit or not), suits and jokers drawn at random."""
    out = []
    for jokers in range(min(hand_size, len(JOKERS)) + 1):
        naturals = hand_size - jokers
        for counts in rank_multisets(naturals):
            distinct = max(counts, default=0) <= 1
            # a lone natural (or none) is always of one suit; a repeated rank never
            kinds = [True] if naturals <= 1 else [True, False] if distinct else [False]
            for one_suit in kinds:
                if one_suit:
                    suit = int(rng.integers(4))
                    cards = [suit * 13 + r for r in range(13) if counts[r]]
                else:
                    cards = []
                    for r in range(13):
                        cards += [int(s) * 13 + r for s in rng.permutation(4)[: counts[r]]]
                    if len({c // 13 for c in cards}) == 1:
                        cards[0] = (cards[0] // 13 + 1) % 4 * 13 + cards[0] % 13
                hand = cards + [int(j) for j in rng.permutation(JOKERS)[:jokers]]
                out.append([hand[k] for k in rng.permutation(len(hand))])
    return out


def compiled_keys(six_card: bool, j5: bool, hands: list[list[int]], sort: bool) -> np.ndarray:
    tables = perico_tables(six_card, j5)
    cards = np.array(hands if sort else [sort_hand(h) for h in hands], dtype=np.int8)
    out = np.empty(len(hands), dtype=np.int64)
    (_sort_and_key if sort else _keys)(tables, cards, out)
    return out


@pytest.mark.parametrize("six_card, j5", SYSTEMS)
def test_compiled_evaluator_matches_the_scalar_one_on_every_hand_class(six_card, j5):
    h = 6 if six_card else 5
    hands = class_hands(h, np.random.default_rng(h + 2 * j5))
    assert len(hands) == int((perico_tables(six_card, j5).class_keys >= 0).sum())  # every entry of the table
    system = scalar_system(six_card, j5)
    expected = [system.key(hand) for hand in hands]
    assert compiled_keys(six_card, j5, hands, sort=False).tolist() == expected
    assert compiled_keys(six_card, j5, hands, sort=True).tolist() == expected  # unsorted input, sorted in the kernel
    banned = set() if j5 else {"five_of_a_kind", "six_of_a_kind"}  # four naturals of a rank at most
    assert {system.categories[k >> 28] for k in expected} == set(system.categories) - banned


def random_hands(n: int, size: int, deck: str, seed: int) -> list[list[int]]:
    cards = np.array(DECKS[deck].cards)
    order = np.argsort(np.random.default_rng(seed).random((n, len(cards))), axis=1)[:, :size]
    return cards[order].tolist()


@pytest.mark.parametrize("six_card, j5", SYSTEMS)
def test_compiled_evaluator_on_random_hands_and_the_royal_check(six_card, j5):
    h = 6 if six_card else 5
    for deck in ("54", "56"):
        hands = random_hands(5_000, h, deck, seed=h)
        system = scalar_system(six_card, j5)
        assert compiled_keys(six_card, j5, hands, sort=True).tolist() == [system.key(x) for x in hands]
    for size in (h, h + 1):
        hands = random_hands(5_000, size, "56", seed=size)
        # royal-rich hands too: high cards of spades and jokers
        hands += [list(rng) for rng in itertools.combinations([8, 9, 10, 11, 12, 7, 6, 21, *JOKERS[:2]], size)]
        out = np.empty(len(hands), dtype=np.bool_)
        _royals(np.array(hands, dtype=np.int8), h, out)
        expected = [scalar_has_royal(x, h) for x in hands]
        assert out.tolist() == expected and any(expected)


@pytest.mark.slow
@pytest.mark.parametrize("six_card, j5", SYSTEMS)
def test_compiled_evaluator_on_a_million_random_hands(six_card, j5):
    h = 6 if six_card else 5
    system = scalar_system(six_card, j5)
    for part in range(4):
        hands = random_hands(250_000, h, "56" if part % 2 else "54", seed=100 + part)
        assert compiled_keys(six_card, j5, hands, sort=True).tolist() == [system.key(x) for x in hands]


# ---------------------------------------------------------------- random play
@pytest.mark.parametrize("config", CONFIGS)
def test_random_play_matches_the_scalar_game(config):
    report = differential_play("perico", config, seeds=range(100, 148), steps=60)
    assert report.steps == 48 * 60 and report.games > 0


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS)
def test_random_play_matches_the_scalar_game_100k_steps(config):
    report = differential_play("perico", config, seeds=range(5000, 5256), steps=400, action_seed=1)
    assert report.steps >= 100_000


def test_the_parallel_loop_plays_the_same_games():
    config = {"num_players": 3, "six_card": True, "target_score": 2}
    rows = PARALLEL_MIN_ROWS + 20  # enough rows for the parallel loop to be used
    report = differential_play(PericoKernel, config, seeds=range(rows), steps=8, parallel=True)
    assert report.steps == rows * 8


# ---------------------------------------------------------------- the rule tests' stacked decks
FILLER = ["2c 3d 4h 6s 8c", "2d 3h 4s 6c 8d", "2h 3s 4c 6d 8h", "2s 3c 4d 6h 8s", "5c 5d 7h 9s Jc"]


def stacked_chance(hands, dealer=0, turned="Td", stock="", shuffles=()) -> ScriptedChance:
    """``test_rules.stacked``'s deck: ``hands[seat]`` dealt from the dealer's left, ``turned``, ``stock`` on top."""
    n = len(hands)
    order = []
    for i in range(n):
        order += parse_cards(hands[(dealer + 1 + i) % n])
    order += parse_cards(turned) + parse_cards(stock)
    return ScriptedChance(shuffles=[order, *shuffles], integers=[dealer])


def _exchange(game, *cards):
    hand = game.hands[game.current_player]
    return actions.exchange_action(game.hand_size, [hand.index(c) for c in parse_cards(" ".join(cards))])


def _discard(game, card):
    c = parse_cards(card)[0]
    return DISCARD0 + (game.hand_size if c == game.drawn else game.hands[game.current_player].index(c))


def _draw_turn(game, throw=None):
    game.apply(DRAW)
    game.apply(_discard(game, throw) if throw else DISCARD0 + game.hand_size)


def _knock_window(game):
    while game.phase != "knock":
        _draw_turn(game)


def _knock(game):
    _knock_window(game)
    game.apply(KNOCK)


def _three_draw_turns_then_play_on(game):
    for _ in range(3):
        _draw_turn(game)
    game.apply(CONTINUE)


def _turn_cap(game):
    _draw_turn(game)
    _draw_turn(game)
    game.apply(CONTINUE)
    _draw_turn(game)


def _reshuffle_in_an_exchange(game):
    """``test_empty_stock_reshuffles_the_pile_but_its_top_also_in_the_middle_of_an_exchange``'s decisions."""
    whole = actions.exchange_action(5, [0, 1, 2, 3, 4])
    while len(game.stock) >= 5:
        if game.phase == "knock":
            game.apply(CONTINUE)
        game.apply(whole)
    if game.phase == "knock":
        game.apply(CONTINUE)
    game.apply(whole)


def _reshuffle_on_a_draw(game):
    """``test_empty_stock_reshuffle_on_a_single_draw``'s decisions."""
    while game.stock:
        if game.phase == "knock":
            game.apply(CONTINUE)
        game.apply(DRAW if len(game.stock) < 5 else actions.exchange_action(5, [0, 1, 2, 3, 4]))
        if game.phase == "discard":
            game.apply(DISCARD0 + 5)
    if game.phase == "knock":
        game.apply(CONTINUE)
    game.apply(DRAW)


def _random_to_the_end(game):
    _knock(game)
    rng = np.random.default_rng(0)
    while not game.is_over:
        game.apply(int(rng.choice(np.flatnonzero(game.legal_mask()))))


_NOTHING: Callable = lambda game: None  # noqa: E731
HANDS2 = ["Ac Ad 7h 7s 3c", "Kc Kd Kh 2s 5c"]
HANDS3 = [*HANDS2, "Qc Jd 9h 6s 4c"]
TIE = ["Ac Kd 9h 7s 3c", "Ah Ks 9d 7c 3d"]
# (stacked_chance arguments, options, the scenario's decisions on the game)
SCENARIOS = [
    ({"hands": FILLER[:4], "dealer": 2, "stock": "Kc"}, {}, _NOTHING),
    ({"hands": FILLER[:2], "turned": "RJ", "stock": "5h", "shuffles": [["9c"]]}, {}, _NOTHING),
    ({"hands": ["RJ Ah 2c Kd 2s", *FILLER[1:3]]}, {}, _NOTHING),
    ({"hands": FILLER[:3], "stock": "Kc 9h"}, {}, lambda g: (g.apply(DRAW), g.apply(_discard(g, "2d")))),
    ({"hands": FILLER[:3], "stock": "Kc"}, {}, lambda g: (g.apply(DRAW), g.apply(DISCARD0 + 5))),
    ({"hands": FILLER[:3], "stock": "Kc Qc Jc"}, {}, lambda g: g.apply(_exchange(g, "8d", "3h", "6c"))),
    ({"hands": FILLER[:2], "stock": "Kc Qc Jc 9c 7c"}, {}, lambda g: g.apply(actions.exchange_action(5, range(5)))),
    ({"hands": FILLER[:3]}, {}, _three_draw_turns_then_play_on),
    ({"hands": HANDS3, "stock": "2c 2d 2h"}, {}, _knock),
    ({"hands": ["Ac Kd 9h 7s 3c", "Ah Ks 9d 7c 3d", "Qc Jd 8h 6s 4c"], "dealer": 2, "stock": "2c 2d 2h"}, {}, _knock),
    ({"hands": HANDS2, "dealer": 1, "stock": "2c 2d 2h"}, {"max_turns_per_round": 3}, _turn_cap),
    ({"hands": ["Ac Kd 9h 7s 3c", "Ts Js Qs Ks As", "2c 2d 3h 4s 5c"]}, {}, _NOTHING),  # royal dealt: start rewards
    ({"hands": ["Th Jh Qh Kh RJ", "Ts Js Qs Ks As", "2c 2d 3h 4s 5c"]}, {}, _NOTHING),
    ({"hands": ["Th Jh Qh Kh Ah", "Ts Js Qs Ks As", "2c 2d 3h 4s 5c"]}, {}, _NOTHING),
    ({"hands": ["Ts Js Qs Ks 2c", *FILLER[1:3]], "dealer": 2, "stock": "As"}, {}, lambda g: g.apply(DRAW)),
    (
        {"hands": ["Ts Js 2d 3h 2c", *FILLER[3:5]], "dealer": 2, "stock": "Qs RJ As"},
        {},
        lambda g: g.apply(_exchange(g, "2c", "2d", "3h")),
    ),
    (
        {"hands": ["9h Th Jh Qh Kh 2c", "2d 3h 4s 6c 8d 9c", "2h 3s 4c 6d 8h 9d"], "dealer": 2, "stock": "Ah"},
        {"six_card": True},
        lambda g: g.apply(DRAW),
    ),
    ({"hands": FILLER[:2], "dealer": 1}, {}, _reshuffle_in_an_exchange),
    ({"hands": FILLER[:2], "dealer": 1}, {}, _reshuffle_on_a_draw),
    ({"hands": HANDS2}, {"target_score": 1, "reward": "win"}, _knock),
    ({"hands": HANDS2}, {"target_score": 2}, _random_to_the_end),
    ({"hands": [*HANDS3, "2c 3d 4h 6d 8c"], "dealer": 3}, {"target_score": 1, "reward": "win"}, _knock),
    ({"hands": HANDS3}, {"max_rounds": 1, "reward": "win"}, _knock),
    ({"hands": TIE}, {"max_rounds": 1, "reward": "win"}, _knock),
    ({"hands": ["7c 7d 7h 7s RJ", "Ac Ad Ah As Kc"], "dealer": 1}, {"jokers_in_five_of_a_kind": True}, _knock),
    ({"hands": ["7c 7d 7h 7s RJ", "Ac Ad Ah As Kc"], "dealer": 1}, {"jokers_in_five_of_a_kind": False}, _knock),
    ({"hands": ["Ac Ad RJ 9s 4c", "2c 2d 2h 5s 7c"], "dealer": 1}, {}, _knock),
    # a royal flush dealt in the first round that decides the game before its first decision
    ({"hands": ["Ac Kd 9h 7s 3c", "Ts Js Qs Ks As"]}, {"target_score": 1}, _NOTHING),
]


def recorded_decisions(deck: dict, options: dict, play: Callable) -> list[int]:
    """The scenario's actions, recorded on the scalar game (its ``history``)."""
    game = PericoGame(chance=stacked_chance(**deck), **options)
    play(game)
    return list(game.history)


def test_the_rule_tests_stacked_decks_play_the_same_on_both_engines():
    groups: dict[tuple, list] = {}
    for deck, options, play in SCENARIOS:
        options = {"num_players": len(deck["hands"]), **options}
        groups.setdefault(tuple(sorted(options.items())), []).append((deck, recorded_decisions(deck, options, play)))
    replayed = 0
    for options, cases in groups.items():
        report = differential_play(
            "perico",
            dict(options),
            seeds=range(len(cases)),
            steps=max(len(a) for _, a in cases) + 6,  # the script, then random play on the rows' own generators
            actions=[a for _, a in cases],
            chances=[stacked_chance(**deck) for deck, _ in cases],
        )
        replayed += len(cases)
        assert report.steps > 0
    assert replayed == len(SCENARIOS)


# ---------------------------------------------------------------- rewards before the first decision
ROYAL_DEALT = {"hands": ["Ac Kd 9h 7s 3c", "Ts Js Qs Ks As", "2c 2d 3h 4s 5c"]}  # seat 1 scores at once
SHORT = {"num_players": 3, "target_score": 2}


class LoggedEnv(batched.BatchedEnv):
    """A batched Perico env logging every action applied per row (to replay row 0 on the scalar game)."""

    def __init__(self, n: int, **options):
        super().__init__(PericoKernel, n, **options)
        self.log: list[list[int]] = [[] for _ in range(n)]

    def step(self, actions_, rows=None):
        idx = self._rows(rows)
        out = super().step(actions_, rows=rows)
        for r, a in zip(idx.tolist(), np.asarray(actions_).tolist()):
            self.log[r].append(a)
        return out


def scalar_first_game_rewards(actions_: list[int]) -> np.ndarray:
    """Every seat's rewards in row 0's first game (the royal dealt), replayed on the scalar env."""
    env = perico_v0.raw_env(**SHORT)
    env.reset(seed=1, options={"chance": stacked_chance(**ROYAL_DEALT)})
    total = np.array([env.rewards[a] for a in env.possible_agents])
    for a in actions_:
        env.step(a)
        total += [env.rewards[x] for x in env.possible_agents]
        if env.game.is_over:
            return total
    raise AssertionError("row 0's first game did not end")


def test_a_royal_flush_dealt_in_the_first_round_is_reported_in_start_rewards():
    env = batched.make("perico", 2, **SHORT)
    env.reset(seed=[1, 2], options={"chance": [stacked_chance(**ROYAL_DEALT), None]})
    assert env.start_rewards.tolist() == [[0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]
    assert env.state.scores[0, :3].tolist() == [0, 1, 0] and env.state.round[0] == 2 and env.state.dealer[0] == 1
    env.step(np.array([DRAW, DRAW]))
    assert not env.start_rewards.any()  # only the call that starts a game reports them


def test_the_learner_gets_the_start_rewards_with_its_first_decision():
    env = LoggedEnv(2, **SHORT)
    seats = LearnerSeats(env, seat=1, seed=0)
    seats.reset(seed=[1, 2], options={"chance": [stacked_chance(**ROYAL_DEALT), None]})
    rng = np.random.default_rng(3)
    returned = 0.0
    for _ in range(2000):
        mask = seats.action_masks()
        _, _, reward, terminated, truncated, info = seats.step(np.array([rng.choice(np.flatnonzero(m)) for m in mask]))
        returned += reward[0]
        if terminated[0] or truncated[0]:
            break
    expected = scalar_first_game_rewards(env.log[0])
    assert expected[1] >= 1.0 and returned == expected[1] == info["episode_return"][0]


def test_the_seat_accounts_credit_the_start_rewards_to_the_first_decision():
    env = LoggedEnv(2, **SHORT)
    env.reset(seed=[1, 2], options={"chance": [stacked_chance(**ROYAL_DEALT), None]})
    accounts = SeatAccounts(2, 3)
    accounts.start(env.start_rewards)
    rng = np.random.default_rng(4)
    per_seat = np.zeros(3)
    for _ in range(2000):
        rows = env.all_rows
        tr = accounts.decide(rows, env.current_player[rows])
        np.add.at(per_seat, tr.seats[tr.rows == 0], tr.rewards[tr.rows == 0])
        _, _, rewards, done, _ = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in env.mask]))
        tr = accounts.record(rows, rewards, done, env.start_rewards)
        np.add.at(per_seat, tr.seats[tr.rows == 0], tr.rewards[tr.rows == 0])
        if done[0]:
            break
    assert per_seat.tolist() == scalar_first_game_rewards(env.log[0]).tolist() and per_seat[1] >= 1.0
