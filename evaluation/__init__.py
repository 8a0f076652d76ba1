"""Comparing agents: duplicate-deal tournaments, statistics with intervals, reports, hand histories.

* ``tournament``: seatings, deal seeds, playing games in worker processes;
* ``report``: per-agent means, paired differences, bidding and betting metrics, the files of a report;
* ``history``: hand histories (one JSON line per game) and their replay through the rules;
* ``batched_tournament``: the same tournaments on the batched engine, a scalar twin checking every game;
  ``batched``: the row loop it shares with the twin-less two-agent match the trainers' evaluations play;
* ``pooling``: one report from tournaments of one match played in pieces.

Depends on ``pokerzoo.envs`` and ``pokerzoo.agents`` only; training and the command line build on it.
"""
