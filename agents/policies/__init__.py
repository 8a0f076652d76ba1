"""Trained policies shipped with pokerzoo, one folder (package) per game.

``<game>/<name>.json`` (the document: game, options, architecture and the
provenance: training config, commands, throughput and every evaluation row)
and ``<game>/<name>.safetensors`` (the weights) form a policy that loads
without running code (``pokerzoo.agents.policy_file``), as the agent
``<name>`` (e.g. ``ppo``) in ``pokerzoo evaluate`` and ``pokerzoo play``.
Beside them: ``<name>.yaml`` (the training config, to read or retrain from)
and ``README.md``. See docs/training.md.
"""
