"""Agents: the ``Agent`` protocol, random and composite agents, scripted baselines per game, the
learned-policy agent (``policy``), the human agent, and the registry that builds them by name.

Depends on ``pokerzoo.envs`` only.
"""
