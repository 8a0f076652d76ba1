"""Batched opponents built on scripted agents: a game's heuristic as a compiled decision rule over a batched
env's state arrays (``act(env, rows)``, ``seed(seed)``; see ``pokerzoo.envs.batched.opponents``).

Each module ports one game's scripted agent and is differential-tested against it:
the same decision on the same state. ``raspisnoy_poker``: ``HeuristicOpponent``.
"""
