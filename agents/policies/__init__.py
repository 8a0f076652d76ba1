"""Trained policies shipped with pokerzoo, one folder (package) per game.

``<game>/<name>.zip`` is a MaskablePPO checkpoint (play-only: no optimiser
state), loadable as the agent ``<name>`` (e.g. ``ppo``) in ``pokerzoo
evaluate`` and ``pokerzoo play``, or with ``MaskablePPO.load``. Beside it:
``<name>.yaml`` (the training config), ``<name>.json`` (the command that
produced it, the training throughput and wall time, and the final
evaluation) and ``README.md``. See docs/training.md.
"""
