"""Perico and Six-card Perico: draw-and-discard poker with jokers and knocking (RULES.md §2).

Modules: ``game`` (the state machine and the view), ``actions`` (the action
layout), ``ranking`` (hand ranking and the royal-flush check), ``encoding``
(the observation vector), ``render`` (the text table), ``enumeration``
(exact category counts for the rules document), ``kernel`` (the batched
engine's kernel: N games as arrays) and ``batched_hands`` (its compiled hand
evaluation).
"""
