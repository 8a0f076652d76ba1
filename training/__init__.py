"""Learning policies: SB3 wrappers (one seat of a game as a gymnasium env), the opponent league,
MaskablePPO training with imitation first, exact resume, final reports and shipping.

Builds on ``pokerzoo.envs``, ``pokerzoo.agents`` and ``pokerzoo.evaluation``; the command line
(``pokerzoo.cli``) drives it.
"""
