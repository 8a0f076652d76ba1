"""Observation schemas: a flat observation vector declared as named pieces.

Every game's observation is one float32 vector. Its layout is declared once,
as an ordered list of ``Piece(name, shape, meaning, low, high)``, the way
OpenSpiel's Python observers build their tensor from named pieces
(``open_spiel/python/games/kuhn_poker.py``). The ``Schema`` of those pieces
is then the single source of the layout for everything that reads or writes
the vector:

* the encoders write through ``schema.offsets`` (plain ints, computed once);
* the AEC env's ``Box`` takes its bounds from ``schema.low`` / ``schema.high``;
* tools and learned-policy code read named parts with ``schema.view(obs, "hand")``,
  of one vector ``[D]`` or of a batch ``[N, D]``;
* the batched engine (numba kernels) receives the same offsets as ints
  (``schema.offsets`` or the namedtuple ``schema.offset_tuple``, which numba accepts);
* the docs' observation tables are rendered by ``markdown_table`` (or
  ``symbolic_table`` when sizes grow with the player count), and a test checks
  that the docs match.

A layout that depends on the options (number of players, ...) comes from a
per-game ``schema(...)`` function, cached so that every game of one size
shares one ``Schema``. numpy only: no RL library is imported here.
"""

from __future__ import annotations

import math
import textwrap
from collections import namedtuple
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np


@dataclass(frozen=True)
class Piece:
    """One named block of the observation vector.

    ``shape`` is an int (a flat block) or a tuple (e.g. ``(seats, 65)``: one row
    per seat), so ``Schema.view`` can hand the block back in that shape. Every
    entry of the block lies in ``[low, high]``; ``meaning`` is the docs' text.
    ``parts`` optionally names what each position along the last axis holds
    (a per-seat record of different facts); the docs list them under the table.
    """

    name: str
    shape: int | tuple[int, ...]
    meaning: str
    low: float = 0.0
    high: float = 1.0
    parts: tuple[str, ...] = ()

    @property
    def dims(self) -> tuple[int, ...]:
        return (self.shape,) if isinstance(self.shape, int) else tuple(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.dims)


class Schema:
    """Offsets, size, named slices and bounds of a vector made of ``pieces`` in order."""

    def __init__(self, pieces: Iterable[Piece]):
        self.pieces: tuple[Piece, ...] = tuple(pieces)
        offsets: dict[str, int] = {}
        at = 0
        for p in self.pieces:
            if p.name in offsets:
                raise ValueError(f"observation schema: piece name {p.name!r} is used twice")
            if any(isinstance(d, bool) or not isinstance(d, int) or d < 0 for d in p.dims):
                raise ValueError(f"observation schema: piece {p.name!r} has shape {p.shape!r}; use ints >= 0")
            if not p.low <= p.high:
                raise ValueError(f"observation schema: piece {p.name!r} has low {p.low} > high {p.high}")
            if p.parts and len(p.parts) != p.dims[-1]:
                raise ValueError(
                    f"observation schema: piece {p.name!r} names {len(p.parts)} parts for a last axis of {p.dims[-1]}"
                )
            offsets[p.name] = at
            at += p.size
        self.offsets: dict[str, int] = offsets
        self.size: int = at
        self._by_name = {p.name: p for p in self.pieces}
        self._slices = {p.name: slice(offsets[p.name], offsets[p.name] + p.size) for p in self.pieces}

    # ------------------------------------------------------------ layout
    def __getitem__(self, name: str) -> Piece:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"no piece {name!r} in this observation schema; pieces: {', '.join(self.names)}") from None

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __len__(self) -> int:
        return len(self.pieces)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Schema) and self.pieces == other.pieces

    def __hash__(self) -> int:
        return hash(self.pieces)

    def __repr__(self) -> str:
        return f"Schema({len(self.pieces)} pieces, size {self.size})"

    # A schema never changes, so games that are cloned or pickled share it or rebuild it from its pieces.
    def __copy__(self) -> Schema:
        return self

    def __deepcopy__(self, memo: dict) -> Schema:
        return self

    def __reduce__(self):
        return Schema, (self.pieces,)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.pieces)

    def starts_with(self, other: Schema) -> bool:
        """Whether this layout is ``other``'s followed by more pieces (or ``other`` itself): an option that only
        appends to the observation keeps the old vector as the new one's first entries, which a policy trained
        without the option can go on reading (``agents.policy.check_observation``)."""
        return self.pieces[: len(other.pieces)] == other.pieces

    def slice(self, name: str) -> slice:
        """Where piece ``name`` lies in the vector."""
        self[name]  # a clear error for an unknown name
        return self._slices[name]

    def view(self, obs: np.ndarray, name: str) -> np.ndarray:
        """Piece ``name`` of ``obs`` (one vector ``[D]`` or a batch ``[..., D]``), in the piece's shape.

        A view, not a copy (for contiguous input): writing into it writes ``obs``.
        """
        if obs.shape[-1] != self.size:
            raise ValueError(f"observation of size {obs.shape[-1]} does not match this schema's size {self.size}")
        return obs[..., self.slice(name)].reshape(*obs.shape[:-1], *self[name].dims)

    @cached_property
    def offset_tuple(self) -> tuple:
        """The offsets as a namedtuple of ints (``.hand``, ...): a plain value numba kernels can take."""
        return namedtuple("Offsets", self.names)(*self.offsets.values())

    # ------------------------------------------------------------ bounds
    @cached_property
    def low(self) -> np.ndarray:
        """float32[size]: each entry's lower bound (read-only)."""
        return self._bounds("low")

    @cached_property
    def high(self) -> np.ndarray:
        """float32[size]: each entry's upper bound (read-only)."""
        return self._bounds("high")

    def _bounds(self, which: str) -> np.ndarray:
        values = np.concatenate([np.full(p.size, getattr(p, which), dtype=np.float32) for p in self.pieces])
        values.flags.writeable = False
        return values

    def out_of_bounds(self, obs: np.ndarray) -> list[str]:
        """Names of the pieces with an entry of ``obs`` (``[D]`` or ``[N, D]``) outside its bounds (or NaN)."""
        bad = ~((obs >= self.low) & (obs <= self.high))
        if bad.ndim > 1:
            bad = bad.reshape(-1, self.size).any(axis=0)
        return [p.name for p in self.pieces if bad[self._slices[p.name]].any()]

    # ------------------------------------------------------------ docs
    def markdown_table(self) -> str:
        """The docs table: entry range, size (``7×65`` for a block per seat), meaning; one row per piece.

        Pieces with named ``parts`` get a paragraph under the table; the total size closes it.
        """
        rows = []
        for p in self.pieces:
            start, end = self.offsets[p.name], self.offsets[p.name] + p.size - 1
            where = f"{start}" if end <= start else f"{start}–{end}"
            rows.append((where, "×".join(map(str, p.dims)), _meaning(p)))
        return _table(("index", "size", "meaning"), rows) + _parts_notes(self.pieces) + f"\n\nSize: {self.size}."


def symbolic_table(schema_of: Callable[[int], Schema], symbol: str = "N", at: Sequence[int] = (2, 3, 4)) -> str:
    """The docs table of a family of schemas whose sizes grow linearly with one number (the player count).

    ``schema_of(n)`` is built at every ``n`` in ``at``; offsets and every
    dimension are written ``a+bN``, fitted on the first two values and checked
    on the others (a size that is not linear in ``n`` is an error, not a
    wrong table).
    """
    if len(at) < 3:
        raise ValueError("symbolic_table needs at least three values of the symbol: two to fit, one to check")
    family = [schema_of(n) for n in at]
    first = family[0]
    for n, s in zip(at, family):
        if [(p.name, p.meaning, p.low, p.high, p.parts, len(p.dims)) for p in s.pieces] != [
            (p.name, p.meaning, p.low, p.high, p.parts, len(p.dims)) for p in first.pieces
        ]:
            raise ValueError(f"schema at {symbol}={n} does not have the pieces of the schema at {symbol}={at[0]}")

    def linear(values: list[int], what: str) -> str:
        b, rem = divmod(values[1] - values[0], at[1] - at[0])
        a = values[0] - b * at[0]
        if rem or any(a + b * n != v for n, v in zip(at, values)):
            raise ValueError(f"{what} is not linear in {symbol}: {dict(zip(at, values))}")
        return _linear_text(a, b, symbol)

    rows = []
    for i, p in enumerate(first.pieces):
        offset = linear([s.offsets[p.name] for s in family], f"offset of {p.name!r}")
        dims = [linear([s.pieces[i].dims[d] for s in family], f"shape of {p.name!r}") for d in range(len(p.dims))]
        rows.append((offset, "×".join(dims), _meaning(p)))
    size = linear([s.size for s in family], "the size")
    return _table(("offset", "size", "meaning"), rows) + _parts_notes(first.pieces) + f"\n\nSize: {size}."


def _linear_text(a: int, b: int, symbol: str) -> str:
    """``a+bN`` written the short way: ``4``, ``N``, ``56N``, ``108+56N``, ``10−N``."""
    if b == 0:
        return str(a)
    term = ("" if abs(b) == 1 else str(abs(b))) + symbol
    sign = "+" if b > 0 else "−"
    return (term if b > 0 else sign + term) if a == 0 else f"{a}{sign}{term}"


def _meaning(p: Piece) -> str:
    if (p.low, p.high) == (0.0, 1.0):
        return p.meaning
    if math.isinf(p.low) and math.isinf(p.high):
        return f"{p.meaning} (unbounded)"
    return f"{p.meaning} (in [{_bound(p.low)}, {_bound(p.high)}])"


def _bound(x: float) -> str:
    if math.isinf(x):
        return "−∞" if x < 0 else "∞"
    return f"{x:g}".replace("-", "−")


def _parts_notes(pieces: Sequence[Piece]) -> str:
    """One wrapped paragraph per piece with named parts: what each position of its last axis holds."""
    notes = []
    for p in pieces:
        if p.parts:
            listed = "; ".join(f"{i} {part}" for i, part in enumerate(p.parts))
            notes.append(textwrap.fill(f"Entries of each `{p.name}` block: {listed}.", width=100))
    return "".join("\n\n" + note for note in notes)


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)
