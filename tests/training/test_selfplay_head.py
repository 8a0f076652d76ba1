"""The batched trainer's fast paths compute what the dense network computes: the first layer on the observations'
nonzero entries (``selfplay/sparse.py``) and the masked categorical over the legal actions only
(``selfplay/legal.py``), forward and gradients, and one PPO update against a dense reference.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerzoo.training.config import PPO, load_config
from pokerzoo.training.selfplay import legal as legal_module
from pokerzoo.training.selfplay import ppo
from pokerzoo.training.selfplay.buffer import Batch
from pokerzoo.training.selfplay.legal import Legal, entropy, legal_logits, log_probs
from pokerzoo.training.selfplay.loop import SelfPlay
from pokerzoo.training.selfplay.network import ActorCritic, masked_entropy, masked_log_probs
from pokerzoo.training.selfplay.sparse import SparseRows, nonzero_rows, sparse_linear


def sparse_matrix(rng, rows, width, density, dtype=np.float32):
    out = np.zeros((rows, width), dtype=dtype)
    hit = rng.random((rows, width)) < density
    out[hit] = True if dtype == np.bool_ else rng.normal(size=int(hit.sum()))
    return out


def random_masks(rng, rows, actions):
    mask = rng.random((rows, actions)) < 3 / actions
    mask[np.arange(rows), rng.integers(actions, size=rows)] = True
    mask[0] = True  # one decision with every action legal: the widest table
    return mask


# --------------------------------------------------------------------------- nonzero entries
@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    width=st.integers(1, 40),  # widths whose rows are and are not whole 8-byte words
    density=st.sampled_from([0.0, 0.05, 0.5, 1.0]),
    dtype=st.sampled_from([np.float32, np.bool_]),
)
def test_nonzero_rows_are_numpys_nonzero_of_the_rows_picked(seed, width, density, dtype):
    rng = np.random.default_rng(seed)
    matrix = sparse_matrix(rng, 12, width, density, dtype)
    if dtype == np.float32:
        matrix[matrix == 0] = rng.choice([0.0, -0.0], size=int((matrix == 0).sum()))  # -0.0 is a zero too
    rows = rng.integers(12, size=9)
    out = np.ones((9, width), dtype=dtype)
    counts, columns, values = nonzero_rows(matrix, rows, out=out)
    picked = matrix[rows]
    np.testing.assert_array_equal(out, picked)  # copied on the way (the collection's buffer rows)
    assert [a.tolist() for a in nonzero_rows(matrix, rows)] == [counts.tolist(), columns.tolist(), values.tolist()]
    r, c = np.nonzero(picked)
    np.testing.assert_array_equal(counts, np.bincount(r, minlength=9))
    np.testing.assert_array_equal(columns, c)
    np.testing.assert_array_equal(values, picked[r, c])


@pytest.mark.parametrize("width", [1124, 179, 7])
def test_sparse_linear_is_the_dense_layer_forward_and_backward(width):
    rng = np.random.default_rng(width)
    obs = sparse_matrix(rng, 300, width, 0.05)
    obs[7] = 0.0  # a row without any nonzero entry
    rows = rng.permutation(300)[:200]
    dense_layer = torch.nn.Linear(width, 32)
    sparse_layer = torch.nn.Linear(width, 32)
    sparse_layer.load_state_dict(dense_layer.state_dict())
    upstream = torch.from_numpy(rng.normal(size=(200, 32)).astype(np.float32))
    expected = dense_layer(torch.from_numpy(obs[rows]))
    got = sparse_linear(sparse_layer, SparseRows.from_rows(obs, rows))
    torch.testing.assert_close(got, expected, rtol=1e-5, atol=1e-5)
    (expected * upstream).sum().backward()
    (got * upstream).sum().backward()
    torch.testing.assert_close(sparse_layer.weight.grad, dense_layer.weight.grad, rtol=1e-5, atol=1e-4)
    torch.testing.assert_close(sparse_layer.bias.grad, dense_layer.bias.grad, rtol=1e-5, atol=1e-4)


def test_parts_side_by_side_are_the_dense_layer_on_their_concatenation():
    """The privileged critic's first layer: observation and features as two parts, never concatenated."""
    rng = np.random.default_rng(3)
    left, right = sparse_matrix(rng, 120, 90, 0.1), sparse_matrix(rng, 120, 40, 0.2)
    right[5] = 0.0  # a row whose second part is empty
    rows = rng.permutation(120)[:70]
    dense_layer = torch.nn.Linear(130, 16)
    sparse_layer = torch.nn.Linear(130, 16)
    sparse_layer.load_state_dict(dense_layer.state_dict())
    upstream = torch.from_numpy(rng.normal(size=(70, 16)).astype(np.float32))
    expected = dense_layer(torch.from_numpy(np.concatenate([left[rows], right[rows]], axis=1)))
    got = sparse_linear(sparse_layer, (SparseRows.from_rows(left, rows), SparseRows.from_rows(right, rows)))
    torch.testing.assert_close(got, expected, rtol=1e-5, atol=1e-5)
    (expected * upstream).sum().backward()
    (got * upstream).sum().backward()
    torch.testing.assert_close(sparse_layer.weight.grad, dense_layer.weight.grad, rtol=1e-5, atol=1e-4)
    torch.testing.assert_close(sparse_layer.bias.grad, dense_layer.bias.grad, rtol=1e-5, atol=1e-4)
    with pytest.raises(ValueError, match=r"parts side by side need as many rows each; got \[3, 70\]"):
        sparse_linear(sparse_layer, (SparseRows.from_rows(left, rows[:3]), SparseRows.from_rows(right, rows)))


def test_sparse_rows_of_a_wrong_width_are_refused():
    x = SparseRows.from_rows(np.eye(4, dtype=np.float32), np.arange(4))
    with pytest.raises(ValueError, match="rows of width 4 into a layer of 5 inputs"):
        sparse_linear(torch.nn.Linear(5, 2), x)


# --------------------------------------------------------------------------- the legal actions
@pytest.mark.parametrize(
    ("net_arch", "obs_size", "actions"),
    [({"shared": [32], "pi": [16], "vf": [16]}, 200, 300), ([24, 24], 50, 9), ([], 30, 5)],
)
def test_legal_logits_are_the_dense_masked_categorical(net_arch, obs_size, actions):
    rng = np.random.default_rng(obs_size)
    torch.manual_seed(0)
    model = ActorCritic(obs_size, actions, net_arch, "relu")
    torch.nn.init.normal_(model.action_net.weight)  # SB3's small head would make every distribution near uniform
    obs = sparse_matrix(rng, 64, obs_size, 0.1)
    mask = random_masks(rng, 64, actions)
    rows = rng.permutation(64)[:40]
    legal = Legal.from_mask(mask, rows)
    assert legal.width == int(mask[rows].sum(1).max())
    with torch.no_grad():
        logits, values = model(torch.from_numpy(obs[rows]))
        dense = masked_log_probs(logits, torch.from_numpy(mask[rows]))
        table_logits, table_values = legal_logits(model, SparseRows.from_rows(obs, rows), legal)
        lp = log_probs(table_logits)
    table = legal.table()
    k = np.arange(rows.shape[0])[:, None]
    legal_slot = np.arange(legal.width)[None, :] < mask[rows].sum(1)[:, None]
    np.testing.assert_allclose(lp.numpy()[legal_slot], dense.numpy()[k, table][legal_slot], atol=1e-5)
    assert (lp.exp().numpy()[~legal_slot] == 0).all(), "the padding has probability exactly 0"
    assert mask[rows][k, table][legal_slot].all()
    torch.testing.assert_close(table_values, values, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(entropy(lp), masked_entropy(dense, torch.from_numpy(mask[rows])), rtol=1e-4, atol=1e-5)
    chosen = torch.from_numpy(table[np.arange(rows.shape[0]), rng.integers(mask[rows].sum(1))])
    np.testing.assert_allclose(
        lp.view(-1)[legal.slots_of(chosen)].numpy(), dense.gather(1, chosen[:, None]).squeeze(1).numpy(), atol=1e-5
    )


def test_pair_logits_give_the_dense_layers_logits_and_gradients_either_way(monkeypatch):
    """``pair_logits`` picks a dot product per pair or the dense layer by cost: both give the same numbers."""
    rng = np.random.default_rng(8)
    mask = random_masks(rng, 50, 70)
    legal = Legal.from_mask(mask)
    upstream = torch.from_numpy(rng.normal(size=legal.rows.shape[0]).astype(np.float32))
    results = []
    for cost in (0, 10**9):  # 0: always the pairs; 10**9: always the dense layer
        monkeypatch.setattr(legal_module, "PAIR_COST", cost)
        torch.manual_seed(1)
        head = torch.nn.Linear(12, 70)
        latent = torch.randn(50, 12, requires_grad=True)
        out = legal_module.pair_logits(head, latent, legal)
        (out * upstream).sum().backward()
        results.append((out.detach(), head.weight.grad, head.bias.grad, latent.grad))
    for pairs, dense in zip(*results):
        torch.testing.assert_close(pairs, dense, rtol=1e-5, atol=1e-5)
    r, a = np.nonzero(mask)
    with torch.no_grad():
        torch.manual_seed(1)
        head = torch.nn.Linear(12, 70)
        torch.testing.assert_close(results[0][0], head(torch.randn(50, 12))[r, a], rtol=1e-5, atol=1e-5)


def test_an_illegal_action_or_a_decision_without_legal_actions_is_named():
    mask = np.array([[True, False, True], [False, True, False]])
    legal = Legal.from_mask(mask)
    with pytest.raises(ValueError, match="decision 1: action 2 is not among its legal actions"):
        legal.slots_of(torch.tensor([0, 2]))
    with pytest.raises(ValueError, match="decision 1 has no legal action"):
        Legal.from_mask(np.array([[True, False], [False, False]]))


# --------------------------------------------------------------------------- one PPO update
def dense_reference_update(model, optimizer, obs, mask, batch, cfg, order):
    """The update as it was written before the fast paths: dense forward, dense masked distribution."""
    obs, mask = torch.from_numpy(obs), torch.from_numpy(mask)
    actions, old = torch.from_numpy(batch.actions), torch.from_numpy(batch.log_probs)
    adv_all, returns = torch.from_numpy(batch.advantages), torch.from_numpy(batch.returns)
    for idx in order:
        logits, values = model(obs[idx])
        lp = masked_log_probs(logits, mask[idx])
        new = lp.gather(1, actions[idx, None]).squeeze(1)
        adv = adv_all[idx]
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        ratio = torch.exp(new - old[idx])
        clip = cfg["clip_range"]
        pg = -torch.min(adv * ratio, adv * torch.clamp(ratio, 1 - clip, 1 + clip)).mean()
        loss = pg - cfg["ent_coef"] * masked_entropy(lp, mask[idx]).mean()
        loss = loss + cfg["vf_coef"] * F.mse_loss(returns[idx], values)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), cfg["max_grad_norm"])
        optimizer.step()


def test_one_update_moves_the_weights_as_the_dense_update_does():
    rng = np.random.default_rng(11)
    n, obs_size, actions = 96, 120, 60
    cfg = {**PPO.defaults(), "batch_size": 32, "n_epochs": 2, "ent_coef": 0.05, "target_kl": None}
    torch.manual_seed(3)
    fast = ActorCritic(obs_size, actions, {"shared": [32], "pi": [16], "vf": [16]}, "tanh")
    dense = ActorCritic(obs_size, actions, {"shared": [32], "pi": [16], "vf": [16]}, "tanh")
    dense.load_state_dict(fast.state_dict())
    start = {k: v.clone() for k, v in fast.state_dict().items()}
    obs = sparse_matrix(rng, n + 10, obs_size, 0.1)  # 10 rows of the buffer are not in the batch
    mask = random_masks(rng, n + 10, actions)
    index = np.sort(rng.permutation(n + 10)[:n])
    chosen = np.array([rng.choice(np.flatnonzero(m)) for m in mask[index]])
    with torch.no_grad():
        logits, values = fast(torch.from_numpy(obs[index]))
        lp = masked_log_probs(logits, torch.from_numpy(mask[index])).numpy()[np.arange(n), chosen]
    advantages = rng.normal(size=n).astype(np.float32)
    batch = Batch(obs=obs, mask=mask, index=index, actions=chosen, log_probs=lp, values=values.numpy(),
                  advantages=advantages, returns=advantages + values.numpy())  # fmt: skip
    lr = 3e-3
    figures = ppo.update(fast, ppo.make_optimizer(fast, lr), batch, cfg, learning_rate=lr, ent_coef=0.05,
                         rng=np.random.default_rng(4))  # fmt: skip
    assert figures["train/n_epochs_done"] == 2
    perm = np.random.default_rng(4)
    order = [p[s : s + 32] for p in (perm.permutation(n) for _ in range(2)) for s in range(0, n, 32)]
    dense_batch = batch._replace(obs=obs[index], mask=mask[index])
    dense_reference_update(dense, ppo.make_optimizer(dense, lr), obs[index], mask[index], dense_batch,
                           {**cfg, "ent_coef": 0.05}, order)  # fmt: skip
    for (name, a), (_, b) in zip(fast.state_dict().items(), dense.state_dict().items()):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-5, msg=f"{name} differs")
    assert any(not torch.equal(a, start[k]) for k, a in fast.state_dict().items()), "the update moved nothing"


# --------------------------------------------------------------------------- exact resume through the fast paths
def test_a_state_round_trip_continues_bit_for_bit_through_the_compiled_pairs(monkeypatch):
    """The compiled paths are deterministic: a learner rebuilt from another's state between iterations
    (what a resume does) continues with the very same weights. ``PAIR_COST`` 0 forces the per-pair head
    (three-card high card's 3 actions would otherwise take the dense layer); the trainer's SIGKILL test
    covers the rest of resume."""
    monkeypatch.setattr(legal_module, "PAIR_COST", 0)
    cfg = load_config({
        "game": "high_card_v0", "options": {"num_players": 3}, "seed": 3, "n_envs": 32, "total_timesteps": 10**6,
        "league": {"self_play": 0.5, "scripted": ["random"], "snapshot_every": 0},
        "ppo": {"n_steps": 6, "batch_size": 48, "n_epochs": 2, "net_arch": {"shared": [16], "pi": [8], "vf": [8]}},
    })  # fmt: skip
    straight = SelfPlay(cfg)
    straight.start()
    for _ in range(3):
        straight.iterate()
    first = SelfPlay(cfg)
    first.start()
    first.iterate()
    data, arrays = first.state_dict()
    model, optimizer = copy.deepcopy(first.model.state_dict()), copy.deepcopy(first.optimizer.state_dict())
    resumed = SelfPlay(cfg)
    resumed.load_state_dict(data, arrays)
    resumed.model.load_state_dict(model)
    resumed.optimizer.load_state_dict(optimizer)
    for _ in range(2):
        resumed.iterate()
    for (name, a), (_, b) in zip(straight.model.state_dict().items(), resumed.model.state_dict().items()):
        assert torch.equal(a, b), f"{name} differs after the round trip"
