"""The differential kit: a batched env and N scalar envs played side by side, compared at every step.

Every game's batched tests run ``differential_play``: row i of the batched
env and a scalar ``raw_env(**options)`` start from the same seed (or the same
stacked deck), take the same actions, and at every step must agree exactly
on

* the player to act, the legal-action mask and the observation (bitwise);
* every seat's rewards of the step (the end of a game included);
* whether the game ended, and whether by a safety cap (truncation);
* what a game earned as it started (the scalar env's rewards after
  ``reset``, the batched env's ``start_rewards``);
* after every game, the state of the row's generator and the scalar env's
  (so the next game is drawn from the same place: a row's k-th game is the
  scalar env's k-th game after its seeded reset).

The scalar env starts its next game with ``reset()`` (no seed) whenever its
game ends, which is what the batched row does by itself; a scalar game that
is over before its first decision is followed by another ``reset()`` at
once, as the batched row's ``start`` keeps starting games until one has a
decision (``DifferentialReport.skipped`` counts those games).

Action sources: ``None`` draws uniformly random legal actions (vectorised,
from ``action_seed``); a list of per-row action lists plays those first (a
rule test's script) and random ones after; a callable
``(obs, mask, player, step) -> int[N]`` decides itself. Stacked decks:
``chances=[c_0, ..., c_{N-1}]`` plays row i's first game on ``c_i``
(``Chance``/``ScriptedChance``, or None), on both sides (the kit gives the
scalar env a copy). A failure raises ``AssertionError`` naming the game,
options, row, seed, game number and step, and what differed.

Loaded games (``envs/batched/loading.py``): ``differential_from_games`` loads
scalar games, mid-hand or mid-episode, into batched rows and plays each row
beside its game to the end of the episode with the same comparisons;
``mid_game_states`` makes such games by random play from many seeds.

For batched agents that match their scalar originals only in distribution
(a faster sampler), ``largest_frequency_z`` compares two samples of one
state's decisions and ``assert_same_decision_distribution`` checks many
states, and that the check could tell a different agent apart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pokerzoo.envs.aec import make_raw_env
from pokerzoo.envs.batched import kernel_class, make
from pokerzoo.envs.batched.core import BatchedEnv, GameKernel
from pokerzoo.envs.batched.loading import load_games
from pokerzoo.envs.engine.cards import Chance
from pokerzoo.envs.engine.game import Game

ActionSource = None | Sequence[Sequence[int]] | Callable[[np.ndarray, np.ndarray, np.ndarray, int], np.ndarray]


@dataclass
class DifferentialReport:
    steps: int = 0  # agent-steps compared (rows x batched steps)
    games: int = 0  # games finished and compared to the end
    games_per_row: list[int] = field(default_factory=list)
    skipped: int = 0  # scalar games over before their first decision (played through by the batched start)


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A uniformly random legal action per row of ``mask`` (vectorised)."""
    counts = mask.sum(axis=1)
    if np.any(counts == 0):
        raise AssertionError(f"rows {np.flatnonzero(counts == 0).tolist()} have no legal action")
    pick = (rng.random(mask.shape[0]) * counts).astype(np.int64)
    return np.argmax(np.cumsum(mask, axis=1) > pick[:, None], axis=1).astype(np.int64)


def scalar_env_class(kclass: type[GameKernel]):
    """The AEC ``raw_env`` class of a kernel's scalar game (the registered env's class for a registered game)."""
    return make_raw_env(kclass.game_class, f"{kclass.game_class.NAME}_v0")


def differential_play(
    game: str | type[GameKernel],
    options: Mapping[str, Any],
    seeds: Sequence[int],
    steps: int,
    *,
    actions: ActionSource = None,
    chances: Sequence[Chance | None] | None = None,
    action_seed: int = 0,
    parallel: bool = False,
) -> DifferentialReport:
    """Play ``steps`` batched steps over ``len(seeds)`` rows against scalar envs; see the module docstring."""
    kclass = kernel_class(game) if isinstance(game, str) else game
    name = f"{kclass.game_class.NAME}_v0"
    n = len(seeds)
    env = BatchedEnv(kclass, n, parallel=parallel, **dict(options))
    raw_env = scalar_env_class(kclass)
    scalars = [raw_env(**dict(options)) for _ in range(n)]
    agents = scalars[0].possible_agents
    label = f"{name} {dict(options)}"
    batched_chances = None
    if chances is not None:
        if len(chances) != n:
            raise ValueError(f"chances: expected {n} entries (one per row), got {len(chances)}")
        batched_chances = [None if c is None else c.copy() for c in chances]
    obs, mask, info = env.reset(seed=list(seeds), options={"chance": batched_chances} if chances else None)
    report = DifferentialReport(games_per_row=[0] * n)
    for i, scalar in enumerate(scalars):
        c = chances[i] if chances is not None else None
        scalar.reset(seed=int(seeds[i]), options={"chance": c} if c is not None else None)
        report.skipped += _check_start(scalar, env.start_rewards[i], label, i, seeds[i], 0)
    game_step = np.zeros(n, dtype=np.int64)
    scripted = [list(a) for a in actions] if isinstance(actions, Sequence) else None
    if scripted is not None and len(scripted) != n:
        raise ValueError(f"actions: expected {n} action lists (one per row), got {len(scripted)}")
    rng = np.random.default_rng(action_seed)
    for t in range(steps):
        for i, scalar in enumerate(scalars):
            where = f"{label}: row {i} (seed {seeds[i]}), game {report.games_per_row[i]}, step {game_step[i]}"
            _compare_decision(scalar, obs[i], mask[i], int(info["current_player"][i]), agents, where)
        if callable(actions):
            chosen = np.asarray(actions(obs, mask, info["current_player"], t), dtype=np.int64)
        else:
            chosen = random_legal(rng, mask)
            if scripted is not None:
                for i, script in enumerate(scripted):
                    if script:
                        chosen[i] = script.pop(0)
        obs, mask, rewards, done, info = env.step(chosen)
        for i, scalar in enumerate(scalars):
            where = f"{label}: row {i} (seed {seeds[i]}), game {report.games_per_row[i]}, step {game_step[i]}"
            scalar.step(int(chosen[i]))
            expected = np.array([scalar.rewards[a] for a in agents], dtype=np.float64)
            if not np.array_equal(expected, rewards[i]):
                raise AssertionError(
                    f"{where}: rewards after action {chosen[i]}: scalar {expected}, batched {rewards[i]}"
                )
            over = scalar.game.is_over
            if over != bool(done[i]) or (over and scalar.game.is_truncated != bool(info["truncated"][i])):
                raise AssertionError(
                    f"{where}: after action {chosen[i]} the scalar game is_over={over} "
                    f"(truncated={scalar.game.is_truncated}), batched done={done[i]} "
                    f"(truncated={info['truncated'][i]})"
                )
            game_step[i] += 1
            if over:
                report.games_per_row[i] += 1
                report.games += 1
                game_step[i] = 0
                scalar.reset()
                report.skipped += _check_start(
                    scalar, env.start_rewards[i], label, i, seeds[i], report.games_per_row[i]
                )
                expected_state = scalar._rng.bit_generator.state  # the env's own generator (PokerzooAECEnv)
                if env.row_generator_state(i) != expected_state:
                    raise AssertionError(f"{where}: after the game the row's generator differs from the scalar env's")
        report.steps += n
    return report


def mid_game_states(
    game_class: type[Game],
    config: Mapping[str, Any],
    count: int,
    seed: int,
    max_depth: int,
    choose: Callable[[Game, np.ndarray, np.random.Generator], int] | None = None,
) -> list[Game]:
    """``count`` games of ``config`` stopped at a decision after 0..``max_depth`` moves, the inputs of
    ``differential_from_games``: game k of a seed is ``game_class(seed=seed * 100_003 + k, **config)``, and each
    move is ``choose(game, legal actions, rng)`` (default: uniformly random legal), one generator for all of it
    (``default_rng(seed)``); games that end before their depth are left out."""
    rng = np.random.default_rng(seed)
    games, game_seed = [], seed * 100_003
    while len(games) < count:
        g = game_class(seed=game_seed, **config)
        game_seed += 1
        for _ in range(int(rng.integers(0, max_depth + 1))):
            if g.is_over:
                break
            legal = np.flatnonzero(g.legal_mask())
            g.apply(int(rng.choice(legal)) if choose is None else choose(g, legal, rng))
        if not g.is_over:
            games.append(g)
    return games


def differential_from_games(
    games: Sequence[Game], *, action_seed: int = 0, max_steps: int = 10_000
) -> DifferentialReport:
    """Load ``games`` (copies; the games are untouched) into the rows of a batched env with their options and
    play every row beside its scalar game, uniformly random legal actions, to the end of the episode.

    Right after loading and at every step the player to act, the mask and the
    observation must agree (bitwise), and every step's rewards and end of
    game; the rows' later hands draw from each game's own chance (loaded with
    it), so a multi-hand episode is compared to its end. ``AssertionError``
    naming the game, the row, the step and what differed.
    """
    if not games:
        raise ValueError("differential_from_games: no games")
    game_class = type(games[0])
    config = dict(games[0].config)
    n = len(games)
    env = make(game_class.NAME, n, **config)
    env.reset(seed=0)
    raw_env = make_raw_env(game_class, f"{game_class.NAME}_v0")
    scalars = []
    for g in games:
        scalar = raw_env(**config)
        scalar.reset(seed=0)
        copy = g.clone()
        copy.chance = g.chance.copy()  # ``clone`` may share the chance; the copy draws the same future
        copy.take_rewards()  # what it earned before the load is not part of the comparison
        scalar.game = copy
        scalar._obs_cache.clear()
        scalar._sync()
        scalars.append(scalar)
    load_games(env, env.all_rows, [s.game for s in scalars])
    agents = scalars[0].possible_agents
    label = f"{game_class.NAME}_v0 {config} (loaded)"
    report = DifferentialReport(games_per_row=[0] * n)
    rng = np.random.default_rng(action_seed)
    live = np.ones(n, dtype=bool)
    step = 0
    while live.any():
        if step >= max_steps:
            raise AssertionError(f"{label}: rows {np.flatnonzero(live)[:8].tolist()} still playing after {step} steps")
        rows = np.flatnonzero(live)
        for i in rows:
            _compare_decision(scalars[i], env.obs[i], env.mask[i], int(env.current_player[i]), agents,
                              f"{label}: row {i}, step {step}")  # fmt: skip
        chosen = random_legal(rng, env.mask[rows])
        _, _, rewards, done, info = env.step(chosen, rows=rows)
        for k, i in enumerate(rows):
            scalar = scalars[i]
            scalar.step(int(chosen[k]))
            where = f"{label}: row {i}, step {step}, action {chosen[k]}"
            expected = np.array([scalar.rewards[a] for a in agents], dtype=np.float64)
            if not np.array_equal(expected, rewards[i]):
                raise AssertionError(f"{where}: rewards: scalar {expected}, batched {rewards[i]}")
            over = scalar.game.is_over
            if over != bool(done[i]) or (over and scalar.game.is_truncated != bool(info["truncated"][i])):
                raise AssertionError(f"{where}: scalar is_over={over}, batched done={done[i]}")
            report.steps += 1
            if over:
                live[i] = False
                report.games += 1
                report.games_per_row[i] = 1
        step += 1
    return report


def _check_start(scalar, start_rewards: np.ndarray, label: str, row: int, seed: int, game: int) -> int:
    """After the scalar env's ``reset``: skip games over before their first decision (the batched
    row's ``start`` plays them through), then compare what the game earned as it started; returns
    how many games were skipped."""
    skipped = 0
    while scalar.game.is_over:
        skipped += 1
        if skipped > 1000:
            raise AssertionError(
                f"{label}: row {row} (seed {seed}), game {game}: 1000 games in a row ended before a decision"
            )
        scalar.reset()
    rewards = np.array([scalar.rewards[a] for a in scalar.possible_agents], dtype=np.float64)
    if not np.array_equal(rewards, start_rewards):
        raise AssertionError(
            f"{label}: row {row} (seed {seed}), game {game}: rewards as the game starts (before its first "
            f"decision): scalar {rewards}, batched start_rewards {start_rewards}"
        )
    return skipped


def _compare_decision(scalar, obs: np.ndarray, mask: np.ndarray, player: int, agents: list[str], where: str) -> None:
    game = scalar.game
    if game.current_player != player:
        raise AssertionError(f"{where}: player to act: scalar {game.current_player}, batched {player}")
    expected_mask = game.legal_mask()
    if not np.array_equal(expected_mask, mask):
        raise AssertionError(
            f"{where}: legal actions: scalar {np.flatnonzero(expected_mask).tolist()}, "
            f"batched {np.flatnonzero(mask).tolist()}"
        )
    expected = scalar.observe(agents[player])["observation"]
    if expected.dtype != obs.dtype or expected.shape != obs.shape:
        raise AssertionError(
            f"{where}: observation: scalar {expected.dtype}{expected.shape}, batched {obs.dtype}{obs.shape}"
        )
    if expected.tobytes() != obs.tobytes():  # bitwise: -0.0 and 0.0 differ here
        diff = np.flatnonzero(expected.view(np.uint32) != obs.view(np.uint32))[:20]
        raise AssertionError(
            f"{where}: observations differ at indices {diff.tolist()}: scalar {expected[diff].tolist()}, "
            f"batched {obs[diff].tolist()}"
        )


# row r plays the batched opponent's move with probability MIXED_SHARES[r % 3], else a random legal one: the states
# include the opponent's own games and the odd states random play reaches
MIXED_SHARES = (1.0, 0.5, 0.0)


def compare_opponent(
    name: str,
    options: Mapping[str, Any],
    seeds: Sequence[int],
    steps: int,
    opponent: Any,
    scalar_agent: Callable[[int, int], Any],
    *,
    kind: Callable[[Any, int], str] = lambda game, action: str(game.phase),
    check: Callable[[int, int, Any], None] | None = None,
    action_seed: int = 0,
    parallel: bool = False,
) -> Counter:
    """A batched scripted opponent against the scalar agent it ports, decision by decision.

    ``len(seeds)`` rows of ``name`` play ``steps`` steps beside scalar envs of
    the same seeds; at every step the opponent decides every row and
    ``scalar_agent(row, seat)`` (one agent object per row and seat, made once)
    decides the same state, which must give the same action (the player and
    the mask are checked again on the way). ``check(row, seat, agent)`` runs
    after each scalar decision (say, that both generators are in the same
    state). The rows' moves mix the opponent's and random ones
    (``MIXED_SHARES``), and both sides decide at every step, so random streams
    stay in step. Returns how many decisions were compared, by ``kind(game,
    action)``.
    """
    n = len(seeds)
    env = make(name, n, parallel=parallel, **dict(options))
    scalars = [scalar_env_class(type(env.kernel))(**dict(options)) for _ in range(n)]
    _, mask, info = env.reset(seed=list(seeds))
    for scalar, seed in zip(scalars, seeds, strict=True):
        scalar.reset(seed=int(seed))
    agents = [[scalar_agent(r, s) for s in range(env.num_players)] for r in range(n)]
    share = np.array([MIXED_SHARES[r % len(MIXED_SHARES)] for r in range(n)])
    rng = np.random.default_rng(action_seed)
    seen: Counter = Counter()
    for t in range(steps):
        chosen = opponent.act(env, env.all_rows)
        for i, scalar in enumerate(scalars):
            game = scalar.game
            player, legal = game.current_player, game.legal_mask()
            assert player == info["current_player"][i] and np.array_equal(legal, mask[i]), f"row {i}, step {t}"
            agent = agents[i][player]
            expected = agent.act(game.view(player), legal, game)
            if chosen[i] != expected:
                raise AssertionError(
                    f"{dict(options)}: row {i} (seed {seeds[i]}), step {t}: batched {chosen[i]} "
                    f"({game.action_name(int(chosen[i]))}), scalar {expected} ({game.action_name(expected)})\n"
                    + game.render(player)
                )
            if check is not None:
                check(i, player, agent)
            seen[kind(game, expected)] += 1
        actions = np.where(rng.random(n) < share, chosen, random_legal(rng, mask))
        _, mask, _, _, info = env.step(actions)
        for scalar, action in zip(scalars, actions, strict=True):
            scalar.step(int(action))
            if scalar.game.is_over:
                scalar.reset()
    return seen


# ---------------------------------------------------------------- decision distributions
def decisions_on_shared_states(name: str, options: Mapping[str, Any], seed: int, states: int, opponents: Sequence[Any],
                               repeats: int) -> list[list[np.ndarray]]:  # fmt: skip
    """Each opponent's decisions on ``states`` successive states of one game of ``name`` (random legal moves from
    ``np.random.default_rng(seed)``), each state held by ``repeats`` rows (the same seed, the same moves) that the
    opponent decides with its distinct per-row generators: the samples ``largest_frequency_z`` compares, for an opponent
    (a fast sampler, say) that must decide with another's distribution rather than its draws."""
    env = make(name, repeats, **dict(options))
    env.reset(seed=[seed] * repeats)
    moves = np.random.default_rng(seed)
    out = []
    for _ in range(states):
        out.append([opponent.act(env, env.all_rows) for opponent in opponents])
        action = int(moves.choice(np.flatnonzero(env.mask[0])))
        env.step(np.full(repeats, action))
    return out


def largest_frequency_z(a: np.ndarray, b: np.ndarray) -> float:
    """The largest |difference| of one action's frequencies in the decisions ``a`` and ``b`` (equal sizes) over
    its pooled binomial standard error: below 4.5 or so when both come from one distribution."""
    worst = 0.0
    for action in np.union1d(a, b):
        p_a, p_b = np.mean(a == action), np.mean(b == action)
        pooled = (p_a + p_b) / 2
        se = np.sqrt(pooled * (1 - pooled) * 2 / len(a))
        worst = max(worst, abs(p_a - p_b) / max(se, 1e-12))
    return worst


def assert_same_decision_distribution(
    states: Sequence[Sequence[np.ndarray]], tolerance: float = 4.5, min_spread: int = 5
) -> None:
    """For each state, the decisions of a reference, a candidate and a clearly different agent, each over many
    rows holding that state: the candidate's frequencies within ``tolerance`` (``largest_frequency_z``) of the
    reference's on every state, the different agent's beyond it on some (the check has the power to see a
    different agent), and at least ``min_spread`` states where the reference's decision is a draw of chance."""
    z_candidate = [largest_frequency_z(reference, candidate) for reference, candidate, _ in states]
    z_different = [largest_frequency_z(reference, different) for reference, _, different in states]
    spread = sum(len(np.unique(reference)) > 1 for reference, _, _ in states)
    assert max(z_candidate) < tolerance, z_candidate
    assert max(z_different) > tolerance, z_different
    assert spread >= min_spread, spread
