"""Speed measurements, side by side with reference libraries in the same process.

Machines are noisy, so figures are only compared within one run: every table
puts pokerzoo next to PettingZoo's texas_holdem_v4, RLCard's uno, OpenSpiel's
oh_hell (hand evaluators: treys, eval7, phevaluator, pokerkit) measured the
same way, one after the other. Used by ``pokerzoo bench`` and ``benchmarks/``.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable

import numpy as np

from pokerzoo.envs import env_module
from pokerzoo.envs.engine.cards import format_card
from pokerzoo.envs.engine.hands import evaluate, evaluate_batch, get_system, standard

CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def _rate(fn: Callable[[], int], seconds: float, clock: str = "wall") -> float:
    """Run ``fn`` (which returns how many units it did) repeatedly for ``seconds``; units/s.

    ``clock="cpu"`` counts this process's CPU time instead of wall time, which is
    steadier on a machine shared with other jobs.
    """
    now = CLOCKS[clock]
    done, start = 0, now()
    while True:
        done += fn()
        elapsed = now() - start
        if elapsed >= seconds:
            return done / elapsed


# ---------------------------------------------------------------- environments
def aec_steps_per_second(env, seconds: float = 2.0, seed: int = 0, clock: str = "wall") -> float:
    """Agent-steps/s of uniformly random legal play through an AEC env (``env.last()`` every step)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)

    def episode() -> int:
        steps = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(legal.size)]))
            steps += 1
        env.reset()
        return steps

    return _rate(episode, seconds, clock)


def game_steps_per_second(
    game_cls, config: dict, seconds: float = 2.0, seed: int = 0, clock: str = "wall"
) -> float:
    """Decisions/s of random legal play on the bare ``Game`` (no env, no observation)."""
    rng = np.random.default_rng(seed)
    counter = iter(range(10**9))

    def episode() -> int:
        game = game_cls(seed=next(counter), **config)
        while not game.is_over:
            legal = np.flatnonzero(game.legal_mask())
            game.apply(int(legal[rng.integers(legal.size)]))
        return len(game.history)

    return _rate(episode, seconds, clock)


def rlcard_steps_per_second(name: str = "uno", seconds: float = 2.0, seed: int = 0, clock: str = "wall") -> float:
    # Deferred: a reference library of the comparison (dev extra), measured only when installed.
    import rlcard

    env = rlcard.make(name, config={"seed": seed})
    rng = np.random.default_rng(seed)

    def episode() -> int:
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.integers(len(legal))])
            steps += 1
        return steps

    return _rate(episode, seconds, clock)


def openspiel_steps_per_second(
    name: str = "oh_hell", seconds: float = 2.0, seed: int = 0, clock: str = "wall"
) -> float:
    """OpenSpiel (C++) random play, building the acting player's observation (or info-state) tensor per step."""
    # Deferred: a reference library of the comparison (dev extra), measured only when installed.
    import pyspiel

    game = pyspiel.load_game(name)
    info = game.get_type()
    if info.provides_observation_tensor:
        tensor = "observation_tensor"
    elif info.provides_information_state_tensor:
        tensor = "information_state_tensor"
    else:
        raise ValueError(f"OpenSpiel's {name} provides no observation tensor")

    return openspiel_random_play_rate(game, lambda state, player: getattr(state, tensor)(player), seconds, seed, clock)


def openspiel_random_play_rate(game, observe: Callable, seconds: float, seed: int = 0, clock: str = "wall") -> float:
    """Decisions/s of random play on an OpenSpiel game, ``observe(state, player)`` called at every decision."""
    rng = np.random.default_rng(seed)

    def episode() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
                continue
            observe(state, state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            steps += 1
        return steps

    return _rate(episode, seconds, clock)


def env_speed_rows(
    games: Iterable[str],
    seconds: float = 2.0,
    references: bool = True,
    clock: str = "wall",
    config: dict | None = None,
) -> list[dict]:
    """One row per env: wrapped and raw agent-steps/s (and bare-game decisions/s for pokerzoo).

    ``config`` holds options applied to every pokerzoo game measured (e.g.
    ``{"num_players": 4}``); each env runs one short warm-up first so lazily
    built tables are not timed.
    """

    config = config or {}
    rows = []
    if references:
        # Deferred: a reference library of the comparison (dev extra), measured only when installed.
        from pettingzoo.classic import texas_holdem_v4

        rows.append(
            {
                "env": "pettingzoo texas_holdem_v4",
                "wrapped": aec_steps_per_second(texas_holdem_v4.env(), seconds, clock=clock),
                "raw": aec_steps_per_second(texas_holdem_v4.raw_env(), seconds, clock=clock),
            }
        )
        with contextlib.suppress(ImportError):
            rows.append(
                {"env": "rlcard uno (raw game loop)", "raw": rlcard_steps_per_second("uno", seconds, clock=clock)}
            )
        with contextlib.suppress(ImportError):
            rows.append(
                {
                    "env": "openspiel oh_hell (C++, info-state tensor)",
                    "raw": openspiel_steps_per_second("oh_hell", seconds, clock=clock),
                }
            )
    label = "".join(f" {k}={v}" for k, v in config.items())
    for name in games:
        module = env_module(name)
        aec_steps_per_second(module.raw_env(**config), min(seconds, 0.5), clock=clock)  # warm-up
        rows.append(
            {
                "env": f"pokerzoo {module.raw_env.metadata['name']}{label}",
                "wrapped": aec_steps_per_second(module.env(**config), seconds, clock=clock),
                "raw": aec_steps_per_second(module.raw_env(**config), seconds, clock=clock),
                "game": game_steps_per_second(module.raw_env.game_class, config, seconds, clock=clock),
            }
        )
    return rows


# ---------------------------------------------------------------- hand evaluators
def random_hands(n: int, k: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.int64)


def _reference_evaluators(hands: np.ndarray) -> dict[str, Callable[[], int]]:
    """Per-call loops of each installed reference library over ``hands`` (converted up front)."""
    texts = [[format_card(int(c)) for c in row] for row in hands]
    k = hands.shape[1]
    loops: dict[str, Callable[[], int]] = {}
    try:
        # Deferred: optional reference library (dev extra)
        from treys import Card as TCard
        from treys import Evaluator

        ev = Evaluator()
        tr = [[TCard.new(c) for c in row] for row in texts]

        def treys_loop() -> int:
            for h in tr:
                ev.evaluate(h, [])
            return len(tr)

        loops["treys"] = treys_loop
    except ImportError:
        pass
    try:
        # Deferred: optional reference library (dev extra)
        import eval7

        e7 = [[eval7.Card(c) for c in row] for row in texts]

        def eval7_loop() -> int:
            f = eval7.evaluate
            for h in e7:
                f(h)
            return len(e7)

        loops["eval7"] = eval7_loop
    except ImportError:
        pass
    try:
        # Deferred: optional reference library (dev extra)
        from phevaluator import evaluate_cards

        ph = [[_phevaluator_id(c) for c in row] for row in texts]

        def ph_loop() -> int:
            for h in ph:
                evaluate_cards(*h)
            return len(ph)

        loops["phevaluator"] = ph_loop
    except ImportError:
        pass
    try:
        # Deferred: optional reference library (dev extra)
        import pokerkit

        if k == 5:
            lookup = pokerkit.StandardLookup()
            pk = [list(pokerkit.Card.parse("".join(row))) for row in texts]

            def pk_loop() -> int:
                for h in pk:
                    lookup.get_entry(h)
                return len(pk)
        else:
            pk_texts = ["".join(row) for row in texts]

            def pk_loop() -> int:
                for h in pk_texts:
                    pokerkit.StandardHighHand.from_game(h)
                return len(pk_texts)

        loops["pokerkit"] = pk_loop
    except ImportError:
        pass
    return loops


def _phevaluator_id(text: str) -> int:
    """phevaluator's integer cards: rank * 4 + suit with suits c, d, h, s."""
    return "23456789TJQKA".index(text[0]) * 4 + "cdhs".index(text[1])


def _per_call(fn: Callable, hands: list[list[int]], spread: bool = False) -> Callable[[], int]:
    """A timing loop calling ``fn`` once per hand (``fn(*hand)`` when ``spread``)."""
    if spread:

        def loop() -> int:
            for h in hands:
                fn(*h)
            return len(hands)
    else:

        def loop() -> int:
            for h in hands:
                fn(h)
            return len(hands)

    return loop


def hand_eval_rows(n_hands: int = 100_000, seconds: float = 1.5, seed: int = 0, clock: str = "wall") -> list[dict]:
    """Evaluations/s per call and in batch, for 5 and 7 cards, pokerzoo and references.

    Columns: ``key`` is the fast path games use (``standard.key5`` / ``key_of``, an int
    per hand); ``evaluate()`` is the public call returning a ``HandValue``; ``batch``
    is one ``evaluate_batch`` call over all hands; ``heifer wild`` evaluates the same
    hands with fives wild (about one hand in three holds a wild card).
    """

    rows = []
    for k in (5, 7):
        hands = random_hands(n_hands, k, seed)
        as_lists = hands.tolist()
        row: dict[str, float | str] = {"cards": k}
        if k == 5:
            fast = _per_call(standard.key5, as_lists, spread=True)
        else:
            fast = _per_call(standard.key_of, as_lists)
        row["pokerzoo key (per call)"] = _rate(fast, seconds, clock)
        row["pokerzoo evaluate() (per call)"] = _rate(_per_call(evaluate, as_lists[: n_hands // 10]), seconds, clock)
        evaluate_batch(hands[:10])  # build the tables outside the timing
        row["pokerzoo batch (numpy)"] = n_hands * _rate(_per_call(evaluate_batch, [hands]), seconds, clock)
        for name, loop in _reference_evaluators(hands[: n_hands // 4]).items():
            row[name] = _rate(loop, seconds, clock)
        heifer = get_system("heifer", wild_rank=3)
        wild_hands = as_lists[: n_hands // 20]
        row["pokerzoo heifer wild (per call)"] = _rate(_per_call(heifer.key, wild_hands), seconds, clock)
        rows.append(row)
    return rows


def markdown_table(rows: list[dict], columns: list[str] | None = None, fmt: str = "{:,.0f}") -> str:
    columns = columns or list(dict.fromkeys(k for r in rows for k in r))
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for r in rows:
        cells = []
        for c in columns:
            v = r.get(c, "")
            cells.append(fmt.format(v) if isinstance(v, float) else str(v))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
