"""The batched self-play learner (``engine: batched``): PPO on torch over thousands of batched games at once.

Modules: ``network`` (the actor-critic in SB3's ``MlpPolicy`` layout),
``buffer`` (decisions per (row, seat) stream, GAE), ``collector`` (the rollout
over the batched env and the league), ``league`` (scripted agents, frozen
policies and snapshots drawn by PFSP), ``ppo`` (the update), ``loop``
(``SelfPlay``: one learner without files), ``checkpoint`` (code-free
checkpoints, exact resume) and ``trainer`` (``SelfPlayTrainer``: the run
folder, evaluations and reports). ``docs/training.md`` describes them.
"""
