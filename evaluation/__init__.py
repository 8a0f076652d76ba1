"""Comparing agents: duplicate-deal tournaments, statistics with intervals, reports, hand histories.

* ``tournament``: seatings, deal seeds, playing games in worker processes;
* ``report``: per-agent means, paired differences, bidding and betting metrics, the files of a report;
* ``history``: hand histories (one JSON line per game) and their replay through the rules.

Depends on ``pokerzoo.envs`` and ``pokerzoo.agents`` only; training and the command line build on it.
"""
