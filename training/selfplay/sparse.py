"""Rows of mostly-zero arrays as lists of their nonzero entries, and the first layer of the network on them.

The games' observations are one-hot encodings: Mexican poker's have about 50
nonzero entries of 1,124, Raspisnoy's about 23 of 666. A dense first layer
multiplies every zero (``k x D x H`` multiply-adds forward and as many again
for the weights' gradient); on the nonzero entries (``SparseRows``) it costs
``nnz x H`` each way. ``sparse_linear`` is that layer: ``embedding_bag`` forward
(the weighted sum of the weight columns of each row's entries, which is what
``x @ W.T`` computes), and a compiled scatter for the weight's gradient
(the observations take none). Same function, same gradients; the numbers agree
to rounding.

``nonzero_rows`` reads rows of a dense array (the rollout buffer's observations
or masks, picked by index) straight into that form, without a gathered copy.

A layer's input may also be several arrays side by side (a sequence of
``SparseRows``, the privileged critic's observation and features): each part
meets its own block of the weight's columns, so nothing is concatenated.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from pokerzoo.envs.batched.compile import kernel


@kernel
def _gather_nonzero_words(matrix, words, per, rows, counts, columns, values, copy, out_words):
    """The nonzero entries of ``matrix[rows[i]]``, row after row, into ``columns``/``values`` (room for all
    of them: ``rows.shape[0] x width``); ``counts[i]`` per row; returns how many. The rows are read as
    ``words`` (``matrix`` viewed as uint64 where a row is whole 8-byte words, else as unsigned integers of
    its item size; ``per`` entries to a word), and looked into only where a word is not all zero bits: the
    rows are mostly zeros. ``words`` may hold only each row's first words: then only those entries are read.
    With ``copy`` the rows are also copied to ``out_words[i]`` on the way (one read of them for both)."""
    n = 0
    for i in range(rows.shape[0]):
        row = matrix[rows[i]]
        packed = words[rows[i]]
        first = n
        if copy:
            target = out_words[i]
            for w in range(packed.shape[0]):
                target[w] = packed[w]
        for w in range(packed.shape[0]):
            if packed[w] != 0:
                for j in range(w * per, w * per + per):
                    if row[j] != 0:
                        columns[n] = j
                        values[n] = row[j]
                        n += 1
        counts[i] = n - first
    return n


@kernel
def _scatter_weight_grad(grad_out, entry_rows, columns, values, out):
    """out[c, :] += v * grad_out[r, :] for every entry (r, c, v): the gradient of ``x @ W.T`` w.r.t. W, transposed."""
    width = grad_out.shape[1]
    for n in range(columns.shape[0]):
        r, c, v = entry_rows[n], columns[n], values[n]
        for j in range(width):
            out[c, j] += v * grad_out[r, j]


_scratch: dict[np.dtype, tuple[np.ndarray, np.ndarray]] = {}  # per dtype: room for every entry of the largest call


def _room(size: int, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """Columns and values with room for ``size`` entries, kept between calls: one pass over the rows can
    then write the entries as it finds them. Only the part written is ever touched (memory stays small)."""
    columns, values = _scratch.get(dtype, (None, None))
    if columns is None or columns.shape[0] < size:
        columns, values = np.empty(size, dtype=np.int64), np.empty(size, dtype=dtype)
        _scratch[dtype] = (columns, values)
    return columns, values


def nonzero_rows(
    matrix: np.ndarray, rows: np.ndarray, out: np.ndarray | None = None, width: int | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(counts ``[k]``, columns ``[nnz]``, values ``[nnz]``) of ``matrix[rows]``'s nonzero entries, row by row,
    each row's columns ascending; ``out`` (``[k, width]``, the matrix's dtype): ``matrix[rows]`` is copied
    there too (``np.take(..., out=out)``). ``width``: only each row's first ``width`` entries (a network that
    reads the leading part of a longer observation: ``agents.policy.check_observation``); None: all."""
    matrix = np.ascontiguousarray(matrix)
    full = matrix.shape[1]
    width = full if width is None else int(width)
    if not 0 <= width <= full:
        raise ValueError(f"width={width}: expected 0..{full}, the matrix's row length")
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    counts = np.empty(rows.shape[0], dtype=np.int64)
    columns, values = _room(rows.shape[0] * width, matrix.dtype)
    whole = (full * matrix.itemsize) % 8 == 0 and (width * matrix.itemsize) % 8 == 0
    unit = np.dtype(np.uint64) if whole else np.dtype(f"u{matrix.itemsize}")
    per = unit.itemsize // matrix.itemsize
    view = matrix.view(unit)
    words = view if width == full else view[:, : width // per]
    fused = out is not None and out.flags.c_contiguous and out.dtype == matrix.dtype
    if out is not None and not fused:
        np.take(matrix[:, :width], rows, axis=0, out=out, mode="clip")  # "clip": numpy buffers ``out`` under "raise"
    out_words = out.view(unit) if fused else view[:0]
    total = _gather_nonzero_words(matrix, words, per, rows, counts, columns, values, fused, out_words)
    return counts, columns[:total].copy(), values[:total].copy()


class SparseRows(NamedTuple):
    """k rows of width ``width`` by their nonzero entries (``embedding_bag``'s input form)."""

    columns: torch.Tensor  # int64 [nnz]
    values: torch.Tensor  # float32 [nnz]
    offsets: torch.Tensor  # int64 [k]: where each row's entries start
    entry_rows: torch.Tensor  # int64 [nnz]: the row of each entry
    width: int

    @classmethod
    def from_rows(
        cls, matrix: np.ndarray, rows: np.ndarray, out: np.ndarray | None = None, width: int | None = None
    ) -> SparseRows:
        """``matrix[rows]`` (float32 ``[*, D]``) in sparse form, cut to the first ``width`` columns where given
        (and copied to ``out``: see ``nonzero_rows``)."""
        counts, columns, values = nonzero_rows(matrix, rows, out, width)
        return cls(
            columns=torch.from_numpy(columns),
            values=torch.from_numpy(values),
            offsets=torch.from_numpy(np.cumsum(counts) - counts),
            entry_rows=torch.from_numpy(np.repeat(np.arange(counts.shape[0], dtype=np.int64), counts)),
            width=int(matrix.shape[1]) if width is None else int(width),
        )

    @property
    def count(self) -> int:
        return int(self.offsets.shape[0])

    def dense(self) -> torch.Tensor:
        out = torch.zeros(self.count, self.width, dtype=self.values.dtype)
        out[self.entry_rows, self.columns] = self.values
        return out


Parts = SparseRows | Sequence[SparseRows]  # rows, or rows of several arrays side by side


def _as_parts(x: Parts) -> tuple[SparseRows, ...]:
    return (x,) if isinstance(x, SparseRows) else tuple(x)


class _SparseLinear(torch.autograd.Function):
    """``x @ weight.T + bias`` for ``x`` in sparse form (parts side by side: part j meets the weight's columns
    after those of parts 0..j-1); gradients for the weight and the bias only."""

    @staticmethod
    def forward(ctx, weight, bias, parts: tuple[SparseRows, ...]):
        ctx.parts = parts
        ctx.shape = weight.shape
        columns_major = weight.detach().t().contiguous()  # [width, out]: embedding_bag's table
        out = bias.detach().expand(parts[0].count, -1).clone()
        start = 0
        for x in parts:
            table = columns_major[start : start + x.width]
            out += F.embedding_bag(x.columns, table, x.offsets, mode="sum", per_sample_weights=x.values)
            start += x.width
        return out

    @staticmethod
    def backward(ctx, grad):
        grad = grad.contiguous()
        out_features, in_features = ctx.shape
        transposed = np.zeros((in_features, out_features), dtype=np.float32)
        g = grad.numpy()
        start = 0
        for x in ctx.parts:
            block = transposed[start : start + x.width]
            _scatter_weight_grad(g, x.entry_rows.numpy(), x.columns.numpy(), x.values.numpy(), block)
            start += x.width
        return torch.from_numpy(transposed).t().contiguous(), grad.sum(0), None


def sparse_linear(layer: nn.Linear, x: Parts) -> torch.Tensor:
    """``layer(x)`` for ``x`` in sparse form, or ``layer(torch.cat(parts, dim=1))`` for a sequence of parts."""
    parts = _as_parts(x)
    width = sum(p.width for p in parts)
    if width != layer.in_features:
        raise ValueError(f"rows of width {width} into a layer of {layer.in_features} inputs")
    counts = {p.count for p in parts}
    if len(counts) != 1:
        raise ValueError(f"parts side by side need as many rows each; got {sorted(counts)}")
    return _SparseLinear.apply(layer.weight, layer.bias, parts)


def apply_mlp(mlp: nn.Sequential, x: torch.Tensor | Parts) -> torch.Tensor:
    """``mlp(x)``; for sparse rows (or parts side by side) the first (linear) layer runs on the nonzero entries."""
    if isinstance(x, torch.Tensor):
        return mlp(x)
    if len(mlp) == 0:
        return torch.cat([p.dense() for p in _as_parts(x)], dim=1)
    h = sparse_linear(mlp[0], x)
    for module in list(mlp)[1:]:
        h = module(h)
    return h
