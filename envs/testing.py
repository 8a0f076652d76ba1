"""The shared invariant kit every game's tests run (and that users can run on their own games).

Each check plays real games through the ``Game`` protocol and fails with a
message naming the game, seed and step, so a failure is reproducible:

* ``check_random_play``: random legal play terminates, every card stays accounted for,
  a player who must act always has a legal action, rewards are finite;
* ``check_determinism``: the same seed gives the same game even when the global
  ``random`` / ``np.random`` generators are drawn from in between;
* ``check_hidden_information``: re-dealing what a player cannot see changes neither
  its view nor its observation (no hidden card leaks);
* ``check_determinize`` (``check_determinize_at`` for one state): the ``determinize``
  contract search agents rely on, against what the player knows (``HiddenPlace``
  lists a game's tests derive from the view): the view is kept, nothing the player
  can rule out ever appears, every hidden card appears in every place it could be,
  and the world depends on nothing but the player's information and the generator;
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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from pettingzoo.test import api_test, seed_test
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import maximum_bipartite_matching

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


@dataclass(frozen=True)
class HiddenPlace:
    """Part of a zone a player cannot see: ``size`` of the zone's cards, each one of ``allowed``.

    A game's tests say, from the player's view and the rules alone, where the
    cards it cannot see may lie (``check_determinize``). A zone with cards of
    different kinds (some seen going back into a stock, some never seen) is
    several places, one per kind.
    """

    zone: str
    size: int
    allowed: frozenset[int]


Knowledge = Callable[[Game, int], Sequence[HiddenPlace]]


def _perfect(cards: Sequence[int], places: Sequence[HiddenPlace], forced: tuple[int, int] | None = None) -> bool:
    """Whether the cards can fill the places' slots (card ``forced[0]`` in place ``forced[1]``)."""
    slot_place = np.array([i for i, place in enumerate(places) for _ in range(place.size)], dtype=np.int64)
    if len(slot_place) != len(cards):
        return False
    allowed = np.array([[c in place.allowed for place in places] for c in cards], dtype=bool).reshape(
        len(cards), len(places)
    )
    if forced is not None:
        row = np.array(cards) == forced[0]
        keep = np.zeros(len(places), dtype=bool)
        keep[forced[1]] = True
        allowed[row] &= keep
    graph = csr_matrix(allowed[:, slot_place].astype(np.int8))
    return bool(np.all(maximum_bipartite_matching(graph, perm_type="column") >= 0))


def _fits(zone_cards: dict[str, list[int]], places: Sequence[HiddenPlace]) -> str | None:
    """Why the world's hidden zones do not fit the places (None if they do)."""
    by_zone: dict[str, list[HiddenPlace]] = {}
    for place in places:
        by_zone.setdefault(place.zone, []).append(place)
    for zone, parts in by_zone.items():
        cards = zone_cards[zone]
        if len(cards) != sum(p.size for p in parts):
            return f"zone {zone!r} holds {len(cards)} cards, expected {sum(p.size for p in parts)}"
        if len(parts) == 1:
            bad = [c for c in cards if c not in parts[0].allowed]
            if bad:
                return f"zone {zone!r} holds {[format_card(c) for c in bad]}, which the player can rule out there"
        elif not _perfect(cards, parts):
            return f"zone {zone!r} holds {[format_card(c) for c in cards]}, not a mix its places allow"
    return None


def check_determinize_at(
    g: Game, p: int, knowledge: Knowledge, rng: np.random.Generator, *, max_samples: int = 3_000, where: str = ""
) -> int:
    """The ``determinize`` contract for player ``p`` in the game as it stands (see ``check_determinize``)."""
    before = {k: list(v) for k, v in g.zones().items()}
    where = where or f" (player {p}, phase {g.phase!r}, step {len(g.history)})"
    places = list(knowledge(g, p))
    hidden = {place.zone for place in places}
    view, obs = g.view(p), g.encode(g.view(p))
    pool = sorted(c for z in hidden for c in before[z])
    assert _perfect(pool, places), f"{g.NAME}: the real deal does not fit the knowledge{where}"
    feasible = {
        (c, i)
        for i, place in enumerate(places)
        for c in set(pool) & place.allowed
        if _perfect(pool, places, forced=(c, i))
    }
    seen: set[tuple[int, int]] = set()
    checked = 0
    for n in range(max_samples):
        world = g.determinize(p, rng)
        check_cards_conserved(world, where)
        assert world.view(p) == view, f"{g.NAME}: view changed by determinize{where}"
        if n < 3:
            assert np.array_equal(world.encode(world.view(p)), obs), (
                f"{g.NAME}: observation changed by determinize{where}"
            )
            assert world.events == [] and world.seed is None, (
                f"{g.NAME}: the world keeps the real event log or seed{where}"
            )
            assert world.chance.rng.bit_generator.state != g.chance.rng.bit_generator.state, (
                f"{g.NAME}: the world's chance is the real game's (it knows the coming shuffles){where}"
            )
        zones = world.zones()
        for z, cards in zones.items():
            if z not in hidden:
                assert cards == before[z], f"{g.NAME}: visible zone {z!r} changed{where}"
        problem = _fits(zones, places)
        assert problem is None, f"{g.NAME}: {problem}{where}"
        for i, place in enumerate(places):
            seen.update((c, i) for c in zones[place.zone] if c in place.allowed)
        checked += 1
        if feasible <= seen and n >= 20:
            break
    missing = sorted(feasible - seen)
    assert not missing, (
        f"{g.NAME}: after {max_samples} worlds some hidden cards never appeared where they could be: "
        f"{[(format_card(c), places[i].zone) for c, i in missing[:8]]}{where}"
    )
    other = g.determinize(p, rng)
    draw = int(rng.integers(2**32))
    a, b = (x.determinize(p, np.random.default_rng(draw)) for x in (g, other))
    assert a.zones() == b.zones(), f"{g.NAME}: the world depends on where the hidden cards really lie{where}"
    assert g.zones() == before, f"{g.NAME}: determinize changed the original game{where}"
    return checked


def check_determinize(
    game_class: type[Game],
    config: dict,
    seed: int,
    knowledge: Knowledge,
    *,
    every: int = 5,
    players: str = "current",
    max_samples: int = 3_000,
) -> int:
    """The ``determinize`` contract at every ``every``-th decision of a random game; returns worlds checked.

    ``knowledge(game, player)`` lists the places the player cannot see and the
    cards each may hold, worked out from the player's view (voids revealed by
    play, cards seen going back into a stock, ...). For each player checked
    (``players``: ``"current"`` or ``"all"``):

    * the world's view and observation for the player equal the original's, its
      cards are conserved and the original is untouched;
    * the zones the player can see are exactly as they were, and the hidden
      zones hold only cards the knowledge allows there (nothing ruled out ever appears);
    * over up to ``max_samples`` worlds, every hidden card appears in every place
      it could be (where some complete assignment of the hidden cards puts it);
    * nothing leads back to the real deal: the world's chance differs from the
      game's, its event log is empty, its seed is None; and a game with the same
      view but other hidden cards gives the same world from the same generator.
    """
    if players not in ("current", "all"):
        raise ValueError(f"players={players!r}: expected 'current' or 'all'")
    game = game_class(seed=seed, **config)
    rng = np.random.default_rng(seed + 32_452_843)
    checked = 0

    def inspect(g: Game, step: int) -> None:
        nonlocal checked
        if step % every:
            return
        seats = [g.current_player] if players == "current" else range(g.num_players)
        for p in seats:
            where = f" (player {p}){_where(g, seed, step)}"
            checked += check_determinize_at(g, p, knowledge, rng, max_samples=max_samples, where=where)

    play_random(game, np.random.default_rng(seed), on_step=inspect)
    return checked


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
