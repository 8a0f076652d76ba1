"""Training on Ray RLlib: ``pokerzoo train CONFIG --backend rllib [--address ADDR] [--env-runners N]``.

The same masked MLP policy, config and run folder as the MaskablePPO trainer
(``pokerzoo.training.train``), with RLlib's PPO on the new API stack doing the
sampling (env runners, anywhere in a Ray cluster) and the updates:

* ``modules``: the masked actor-critic RLModule (its torch layout is
  Stable-Baselines3's, so policy files and ``init_from`` work both ways) and a
  masked uniform-random RLModule (RLlib's own ignores the mask);
* ``env``: the league as an RLlib ``MultiAgentEnv`` over the game's AEC env:
  scripted agents play inside the env, the learner and its frozen snapshots
  are RLModules, rewards are attributed as ``SingleSeatEnv`` does;
* ``batched``: a vectorised env source over the batched engine (``batched.make``)
  for the games that have a kernel;
* ``settings``: which config keys RLlib honours and how, and the refusals;
* ``trainer``: the run (logs, snapshots, evaluations, checkpoints without
  pickles, resume, the final report through the evaluation harness).

Ray is an optional dependency (``pip install 'pokerzoo[ray]'``): nothing here is
imported unless ``--backend rllib`` is asked for.
"""
