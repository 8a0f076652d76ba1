"""Breed the Heifer: seven-card stud whose wild rank is bred by pairs of up cards (RULES.md §3).

Modules: ``game`` (the state machine), ``wilds`` (the board-pair wild rule),
``ranking`` (memoised hand keys of the ``heifer`` rank system), ``encoding``
(the observation vector), ``render`` (the text table). The chips side
(fixed-limit rounds, all-ins, side pots) is the shared ``engine.betting``.
"""
