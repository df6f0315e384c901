"""Zobrist hashing and the transposition table (fixed size, two slots per bucket).

Hashing (Zobrist 1970): a position's key is the XOR of a random 64-bit word per
(colour, square) occupied, one for "O to move", and (at probe time) one for
the plies left. Making a move XORs in the placed piece, each converted square
(its X word and its O word), and the side word. The solver salts its keys with
one more word so exact and heuristic entries never mix.

Table layout: two ``uint64`` arrays ``keys`` and ``data`` of ``2 * buckets``
entries (``buckets`` a power of two). Bucket ``b`` is slots ``2b`` and
``2b + 1``. Replacement (the classic two-tier scheme, Breuker et al. 1994):
slot ``2b`` is *depth-preferred*: a new entry takes it if it is empty, holds the
same key, comes from an older search (generation), or is no deeper than the
new one; the entry it evicts moves to slot ``2b + 1``. Otherwise the new entry
goes to slot ``2b + 1``, the *always-replace* slot.

An entry's data word packs::

    bits  0-15  value + 32768    (search units, or pieces for the solver)
    bits 16-23  depth            (plies searched below the entry)
    bits 24-25  bound            1 lower, 2 upper, 3 exact
    bits 26-33  best move + 1    (0: none)
    bits 34-41  generation       (search number modulo 256)

A data word of 0 marks an empty slot (every stored entry has a bound flag).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .bits import I64, U64, kernel, lowest

LOWER = 1
UPPER = 2
EXACT = 3

Z_O = 64
Z_SIDE = 128
Z_PLIES = 129
Z_SOLVER = 194
Z_SIZE = 195

_M16 = np.uint64(0xFFFF)
_M8 = np.uint64(0xFF)
_M2 = np.uint64(3)
_S16 = np.uint64(16)
_S24 = np.uint64(24)
_S26 = np.uint64(26)
_S34 = np.uint64(34)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)

ENTRY_BYTES = 16


def zobrist_keys(seed: int = 20260) -> np.ndarray:
    """The Zobrist words: X squares 0-63, O squares 64-127, side 128, plies 129-193, salt 194."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2**64 - 1, size=Z_SIZE, dtype=np.uint64, endpoint=True)


def table_arrays(megabytes: float) -> tuple[np.ndarray, np.ndarray]:
    """Empty ``keys`` and ``data`` arrays using at most ``megabytes`` (at least one bucket)."""
    entries = max(2, int(megabytes * 1024 * 1024) // ENTRY_BYTES)
    buckets = 1 << max(0, (entries // 2).bit_length() - 1)
    return np.zeros(2 * buckets, dtype=np.uint64), np.zeros(2 * buckets, dtype=np.uint64)


@kernel
def position_hash(x: U64, o: U64, o_to_move: int, z: Any) -> U64:
    """The Zobrist hash of a position (without the plies-left word)."""
    h = _ZERO
    b = x
    while b != _ZERO:
        h ^= z[lowest(b)]
        b &= b - _ONE
    b = o
    while b != _ZERO:
        h ^= z[Z_O + lowest(b)]
        b &= b - _ONE
    if o_to_move != 0:
        h ^= z[Z_SIDE]
    return h


@kernel
def probe(keys: Any, data: Any, key: U64) -> U64:
    """The data word stored for ``key`` (0 if absent)."""
    mask = np.uint64(keys.shape[0] // 2 - 1)
    i = np.int64(key & mask) * 2
    if keys[i] == key and data[i] != _ZERO:
        return data[i]  # type: ignore[no-any-return]
    if keys[i + 1] == key and data[i + 1] != _ZERO:
        return data[i + 1]  # type: ignore[no-any-return]
    return _ZERO


@kernel
def store(
    keys: Any, data: Any, key: U64, value: int, depth: int, bound: int, move: int, generation: int
) -> None:
    """Store an entry with the depth-preferred / always-replace scheme described above."""
    word = (
        (np.uint64(value + 32768) & _M16)
        | (np.uint64(depth) << _S16)
        | (np.uint64(bound) << _S24)
        | (np.uint64(move + 1) << _S26)
        | (np.uint64(generation & 255) << _S34)
    )
    mask = np.uint64(keys.shape[0] // 2 - 1)
    i = np.int64(key & mask) * 2
    old = data[i]
    if (
        keys[i] == key
        or old == _ZERO
        or np.int64((old >> _S34) & _M8) != (generation & 255)
        or np.int64((old >> _S16) & _M8) <= depth
    ):
        if keys[i] != key and old != _ZERO:
            keys[i + 1] = keys[i]
            data[i + 1] = old
        keys[i] = key
        data[i] = word
    else:
        keys[i + 1] = key
        data[i + 1] = word


@kernel
def entry_value(word: U64) -> I64:
    return np.int64(word & _M16) - 32768


@kernel
def entry_depth(word: U64) -> I64:
    return np.int64((word >> _S16) & _M8)


@kernel
def entry_bound(word: U64) -> I64:
    return np.int64((word >> _S24) & _M2)


@kernel
def entry_move(word: U64) -> I64:
    return np.int64((word >> _S26) & _M8) - 1
