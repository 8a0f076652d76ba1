"""The shared invariant kit every game's tests run (and that users can run on their own games).

Each check plays real games through the ``Game`` protocol and fails with a
message naming the game, seed and step, so a failure is reproducible:

* ``check_random_play``: random legal play terminates, every card stays accounted for,
  a player who must act always has a legal action, rewards are finite;
* ``check_determinism``: the same seed gives the same game even when the global
  ``random`` / ``np.random`` generators are drawn from in between;
* ``check_hidden_information``: re-dealing what a player cannot see changes neither
  its view nor its observation (no hidden card leaks);
* ``check_clone_continuation``: ``clone()``, ``deepcopy`` and pickle in mid-game continue identically;
* ``check_illegal_actions``: illegal actions raise ``IllegalActionError`` naming the legal
  ones, and leave the state exactly as it was;
* ``check_env``: PettingZoo's ``api_test`` and ``seed_test`` on the AEC env.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
from pettingzoo.test import api_test, seed_test

from pokerzoo.envs.engine.cards import format_card
from pokerzoo.envs.engine.game import Game, IllegalActionError

MAX_STEPS = 200_000


def check_cards_conserved(game: Game, where: str = "") -> None:
    zones = game.zones()
    held = Counter(c for cards in zones.values() for c in cards)
    deck = Counter(game.deck)
    if held != deck:
        missing = sorted((deck - held).elements())
        extra = sorted((held - deck).elements())
        raise AssertionError(
            f"{game.NAME}{where}: cards not conserved; missing {[format_card(c) for c in missing]}, "
            f"extra {[format_card(c) for c in extra]}; zones sizes { {k: len(v) for k, v in zones.items()} }"
        )


def _where(game: Game, seed: Any, step: int) -> str:
    return f" (seed {seed}, step {step}, phase {game.phase!r})"


def play_random(
    game: Game,
    rng: np.random.Generator,
    *,
    check: bool = True,
    max_steps: int = MAX_STEPS,
    on_step: Callable[[Game, int], None] | None = None,
) -> np.ndarray:
    """Play ``game`` to the end with uniformly random legal actions; returns total rewards per player."""
    total = game.take_rewards().copy()
    step = 0
    while not game.is_over:
        where = _where(game, game.seed, step)
        if check:
            player = game.current_player
            assert player is not None and 0 <= player < game.num_players, (
                f"bad current player {player}{where}"
            )
            check_cards_conserved(game, where)
        if on_step is not None:
            on_step(game, step)
        legal = np.flatnonzero(game.legal_mask())
        if check:
            assert legal.size, (
                f"{game.NAME}: player {game.current_player} must act but has no legal action{where}"
            )
        game.apply(int(rng.choice(legal)))
        rewards = game.take_rewards()
        if check:
            assert rewards.shape == (game.num_players,), f"reward shape {rewards.shape}{where}"
            assert np.all(np.isfinite(rewards)), f"non-finite reward {rewards}{where}"
        total += rewards
        step += 1
        if step >= max_steps:
            raise AssertionError(f"{game.NAME}: no end after {max_steps} steps{where}")
    if check:
        assert game.current_player is None, f"{game.NAME}: game over but player {game.current_player} to act"
        assert not game.legal_mask().any(), f"{game.NAME}: game over but actions are legal"
        check_cards_conserved(game, f" (seed {game.seed}, at the end)")
    return total


def check_random_play(game_class: type[Game], configs: Iterable[dict], seeds: Iterable[int], **kw) -> int:
    """Random legal play over every config and seed; returns the number of decisions made."""
    decisions = 0
    seeds = list(seeds)
    for config in configs:
        for seed in seeds:
            game = game_class(seed=seed, **config)
            play_random(game, np.random.default_rng(seed + 7_919), **kw)
            decisions += len(game.history)
    return decisions


def _record(game_class: type[Game], config: dict, seed: int, disturb: bool) -> tuple:
    game = game_class(seed=seed, **config)
    rng = np.random.default_rng(seed + 104_729)
    rewards = []
    while not game.is_over:
        if disturb:
            random.random()
            np.random.random()
            random.seed(random.random())
        legal = np.flatnonzero(game.legal_mask())
        game.apply(int(rng.choice(legal)))
        rewards.append(game.take_rewards().tolist())
    return game.history, game.events, rewards


def check_determinism(game_class: type[Game], config: dict, seed: int) -> None:
    a = _record(game_class, config, seed, disturb=False)
    b = _record(game_class, config, seed, disturb=True)
    assert a[0] == b[0], f"{game_class.NAME}: same seed {seed}, different actions"
    assert a[1] == b[1], f"{game_class.NAME}: same seed {seed}, different events (global RNG use?)"
    assert a[2] == b[2], f"{game_class.NAME}: same seed {seed}, different rewards"


def check_hidden_information(
    game_class: type[Game], config: dict, seed: int, *, samples: int = 2, every: int = 1
) -> int:
    """Re-deal hidden cards for every player at every ``every``-th decision; views must not change.

    Returns how many re-deals actually moved a card; the check fails if none
    did, because a ``determinize`` that never changes anything proves nothing.
    """
    game = game_class(seed=seed, **config)
    rng = np.random.default_rng(seed + 15_485_863)
    moved = 0

    def inspect(g: Game, step: int) -> None:
        nonlocal moved
        if step % every:
            return
        before = {k: list(v) for k, v in g.zones().items()}
        for p in range(g.num_players):
            view = g.view(p)
            obs = g.encode(view)
            for _ in range(samples):
                world = g.determinize(p, rng)
                where = f" (player {p}){_where(g, seed, step)}"
                check_cards_conserved(world, where)
                assert world.view(p) == view, f"{g.NAME}: view changed when hidden cards were re-dealt{where}"
                assert np.array_equal(world.encode(world.view(p)), obs), (
                    f"{g.NAME}: observation changed when hidden cards were re-dealt{where}"
                )
                moved += world.zones() != before
        assert g.zones() == before, f"{g.NAME}: determinize changed the original game{_where(g, seed, step)}"

    play_random(game, np.random.default_rng(seed), on_step=inspect)
    assert moved, f"{game_class.NAME}: determinize never re-dealt a card (seed {seed})"
    return moved


def check_clone_continuation(game_class: type[Game], config: dict, seed: int) -> None:
    """Copies taken mid-game continue exactly like the original, chance included."""
    reference = game_class(seed=seed, **config)
    play_random(reference, np.random.default_rng(seed), check=False)
    actions = reference.history
    cut = len(actions) // 2
    game = game_class(seed=seed, **config)
    for a in actions[:cut]:
        game.apply(a)
    copies = {
        "clone": game.clone(),
        "deepcopy": copy.deepcopy(game),
        "pickle": pickle.loads(pickle.dumps(game)),
    }
    for a in actions[cut:]:
        game.apply(a)
    for how, other in copies.items():
        for a in actions[cut:]:
            other.apply(a)
        assert other.events == game.events, (
            f"{game_class.NAME}: {how} diverged from the original (seed {seed})"
        )
        assert np.array_equal(other.total_rewards, game.total_rewards), (
            f"{game_class.NAME}: {how} rewards differ"
        )
        assert other.is_over == game.is_over


def _snapshot(game: Game) -> tuple:
    return (
        list(game.history),
        len(game.events),
        game.current_player,
        game.phase,
        game.legal_mask().tobytes(),
        [game.view(p) for p in range(game.num_players)],
        {k: list(v) for k, v in game.zones().items()},
    )


def check_illegal_actions(game_class: type[Game], config: dict, seed: int, *, every: int = 3) -> int:
    """At every ``every``-th decision try illegal actions; each must raise and change nothing."""
    game = game_class(seed=seed, **config)
    tried = 0

    def attempt(g: Game, step: int) -> None:
        nonlocal tried
        if step % every:
            return
        mask = g.legal_mask()
        illegal = np.flatnonzero(~mask)
        candidates = [g.num_actions, -1, "fold", 1.5]
        if illegal.size:
            candidates.append(int(illegal[step % illegal.size]))
        before = _snapshot(g)
        for action in candidates:
            try:
                g.apply(action)  # type: ignore[arg-type]
            except IllegalActionError as exc:
                assert "legal" in str(exc), f"{g.NAME}: error does not name the legal actions: {exc}"
                assert exc.legal, f"{g.NAME}: IllegalActionError.legal is empty"
            else:
                raise AssertionError(
                    f"{g.NAME}: illegal action {action!r} was accepted{_where(g, seed, step)}"
                )
            assert _snapshot(g) == before, f"{g.NAME}: state changed by illegal action {action!r}"
            tried += 1

    play_random(game, np.random.default_rng(seed), on_step=attempt, check=False)
    return tried


def check_env(env_fn: Callable[[], Any], num_cycles: int = 200) -> None:
    """PettingZoo's own API and seed tests on a wrapped env factory."""

    api_test(env_fn(), num_cycles=num_cycles)
    seed_test(env_fn, num_cycles=num_cycles)
