"""Raspisnoy poker ("painted poker"): the Oh-Hell family bidding and trick-taking game (RULES.md §4).

Modules: ``schedule`` (deal kinds and the order of deals), ``actions`` (the
one ``Discrete`` action layout), ``scoring`` (points per deal), ``game`` (the
state machine), ``worlds`` (re-dealing hidden cards consistently with what a
player knows), ``view`` / ``encoding`` (what a player knows, as a frozen view
and as a vector) and ``render`` (the ansi table). Trick resolution itself is
shared engine code: ``pokerzoo.envs.engine.tricks``.
"""
