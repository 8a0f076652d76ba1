"""The observation schema: offsets, named slices of vectors and batches, bounds, docs tables, errors."""

from __future__ import annotations

import copy
import pickle

import numba
import numpy as np
import pytest

from pokerzoo.envs.engine.schema import Piece, Schema, symbolic_table


def seats_schema(n: int) -> Schema:
    return Schema(
        [
            Piece("hand", 4, "own cards"),
            Piece("seats", (n, 3), "per seat: a, b, c", parts=("a", "b", "c")),
            Piece("score", n, "score / 10", low=-1.0),
            Piece("total", 1, "running total", low=-np.inf, high=np.inf),
        ]
    )


S = seats_schema(2)


def test_offsets_and_size_follow_the_pieces_in_order():
    assert S.offsets == {"hand": 0, "seats": 4, "score": 10, "total": 12}
    assert all(type(v) is int for v in S.offsets.values())
    assert S.size == 13 and len(S) == 4 and S.names == ("hand", "seats", "score", "total")
    assert S.slice("seats") == slice(4, 10) and S["seats"].dims == (2, 3) and S["seats"].size == 6
    assert "score" in S and "nothing" not in S


def test_view_of_a_vector_and_of_a_batch_is_shaped_and_writes_through():
    obs = np.arange(13, dtype=np.float32)
    seats = S.view(obs, "seats")
    assert seats.shape == (2, 3) and seats.tolist() == [[4, 5, 6], [7, 8, 9]]
    assert S.view(obs, "total").tolist() == [12]
    seats[1, 2] = -5
    assert obs[9] == -5
    batch = np.stack([obs, obs + 100])
    assert S.view(batch, "seats").shape == (2, 2, 3)
    assert S.view(batch, "score").tolist() == [[10, 11], [110, 111]]
    S.view(batch, "hand")[:, 0] = 7
    assert batch[:, 0].tolist() == [7, 7]


def test_bounds_per_entry_and_the_pieces_out_of_them():
    assert S.low.dtype == np.float32 and S.low.shape == (13,)
    assert S.low.tolist() == [0.0] * 10 + [-1.0, -1.0, -np.inf]
    assert S.high.tolist() == [1.0] * 12 + [np.inf]
    with pytest.raises(ValueError):
        S.low[0] = 5  # shared by every game of the config: read-only
    obs = np.zeros(13, dtype=np.float32)
    assert S.out_of_bounds(obs) == []
    obs[[5, 10, 12]] = [1.5, -0.5, 1e9]
    assert S.out_of_bounds(obs) == ["seats"]
    obs[11] = np.nan
    assert S.out_of_bounds(obs) == ["seats", "score"]
    batch = np.zeros((3, 13), dtype=np.float32)
    batch[2, 0] = -1
    assert S.out_of_bounds(batch) == ["hand"]


def test_markdown_table_of_one_schema():
    assert S.markdown_table() == (
        "| index | size | meaning |\n"
        "|---|---|---|\n"
        "| 0–3 | 4 | own cards |\n"
        "| 4–9 | 2×3 | per seat: a, b, c |\n"
        "| 10–11 | 2 | score / 10 (in [−1, 1]) |\n"
        "| 12 | 1 | running total (unbounded) |\n"
        "\n"
        "Entries of each `seats` block: 0 a; 1 b; 2 c.\n"
        "\n"
        "Size: 13."
    )


def test_symbolic_table_writes_offsets_and_sizes_in_the_player_count():
    table = symbolic_table(seats_schema, "N")
    rows = table.splitlines()
    assert rows[2:6] == [
        "| 0 | 4 | own cards |",
        "| 4 | N×3 | per seat: a, b, c |",
        "| 4+3N | N | score / 10 (in [−1, 1]) |",
        "| 4+4N | 1 | running total (unbounded) |",
    ]
    assert rows[-1] == "Size: 5+4N."


def test_symbolic_table_writes_shrinking_sizes_with_a_minus():
    def shrinking(n: int) -> Schema:
        return Schema([Piece("empty_seats", 10 - n, "seats left"), Piece("flag", 1, "a flag")])

    assert symbolic_table(shrinking, "N").splitlines()[2:4] == ["| 0 | 10−N | seats left |", "| 10−N | 1 | a flag |"]


def test_symbolic_table_refuses_sizes_that_are_not_linear():
    def squared(n: int) -> Schema:
        return Schema([Piece("pairs", n * n, "seat pairs"), Piece("flag", 1, "a flag")])

    with pytest.raises(ValueError, match=r"shape of 'pairs' is not linear in N: \{2: 4, 3: 9, 4: 16\}"):
        symbolic_table(squared, "N")

    def renamed(n: int) -> Schema:
        return Schema([Piece(f"p{n}", 1, "x")])

    with pytest.raises(ValueError, match="does not have the pieces"):
        symbolic_table(renamed, "N")


@pytest.mark.parametrize(
    ("pieces", "message"),
    [
        ([Piece("a", 1, ""), Piece("a", 2, "")], "piece name 'a' is used twice"),
        ([Piece("a", -1, "")], "piece 'a' has shape -1"),
        ([Piece("a", (2, 1.5), "")], r"piece 'a' has shape \(2, 1.5\)"),
        ([Piece("a", 1, "", low=1.0, high=0.0)], "low 1.0 > high 0.0"),
        ([Piece("a", (2, 3), "", parts=("x", "y"))], "names 2 parts for a last axis of 3"),
    ],
)
def test_bad_declarations_are_named(pieces, message):
    with pytest.raises(ValueError, match=message):
        Schema(pieces)


def test_unknown_names_and_wrong_sizes_are_named():
    with pytest.raises(KeyError, match="no piece 'hands' in this observation schema; pieces: hand, seats"):
        S.slice("hands")
    with pytest.raises(ValueError, match="observation of size 12 does not match this schema's size 13"):
        S.view(np.zeros(12, dtype=np.float32), "hand")


def test_schemas_compare_by_pieces_and_survive_copy_and_pickle():
    assert seats_schema(2) == S and hash(seats_schema(2)) == hash(S) and seats_schema(3) != S
    assert copy.deepcopy(S) is S and copy.copy(S) is S
    S.offset_tuple  # noqa: B018 (a cached attribute that pickling must not trip over)
    again = pickle.loads(pickle.dumps(S))
    assert again == S and again.offsets == S.offsets and again.low.tolist() == S.low.tolist()


def test_offsets_reach_numba_kernels_as_a_namedtuple():
    o = S.offset_tuple
    assert (o.hand, o.seats, o.score, o.total) == (0, 4, 10, 12)

    @numba.njit(cache=False)
    def put_seat_flag(batch, o, seat, part):
        for i in range(batch.shape[0]):
            batch[i, o.seats + 3 * seat + part] = 1.0

    batch = np.zeros((2, S.size), dtype=np.float32)
    put_seat_flag(batch, o, 1, 2)
    assert (S.view(batch, "seats")[:, 1, 2] == 1).all() and batch.sum() == 2
