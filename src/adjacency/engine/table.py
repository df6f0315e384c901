"""Zobrist hashing and the transposition table (fixed size, two slots per bucket).

Hashing (Zobrist 1970): a position's key is the XOR of a random 64-bit word per
(colour, square) occupied, one for "O to move", and (at probe time) one for
the plies left. Making a move XORs in the placed piece, each converted square
(its X word and its O word), and the side word. The solver salts its keys with
one more word so exact and heuristic entries never mix.

Table layout: the tail of the shared ``uint64`` array ``U`` from ``TT``
(:mod:`adjacency.engine.layout`) holds ``buckets`` (a power of two) buckets of
four words: key and data of slot 0, key and data of slot 1. Replacement (the
classic two-tier scheme, Breuker et al. 1994):
slot 0 is *depth-preferred*: a new entry takes it if it is empty, holds the
same key, comes from an older search (generation), or is no deeper than the
new one; the entry it evicts moves to slot 1. Otherwise the new entry
goes to slot 1, the *always-replace* slot.

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
from .layout import TT, ZOB

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


def shared_words(megabytes: float) -> np.ndarray:
    """A zeroed ``U`` array with a table of at most ``megabytes`` (at least one bucket) and
    the Zobrist words filled in (see :mod:`adjacency.engine.layout`)."""
    entries = max(2, int(megabytes * 1024 * 1024) // ENTRY_BYTES)
    buckets = 1 << max(0, (entries // 2).bit_length() - 1)
    U = np.zeros(TT + 4 * buckets, dtype=np.uint64)
    U[ZOB : ZOB + Z_SIZE] = zobrist_keys()
    return U


def clear_table(U: np.ndarray) -> None:
    """Empty the table part of ``U``."""
    U[TT:] = 0


@kernel
def position_hash(x: U64, o: U64, o_to_move: int, U: Any) -> U64:
    """The Zobrist hash of a position (without the plies-left word)."""
    h = _ZERO
    b = x
    while b != _ZERO:
        h ^= U[ZOB + lowest(b)]
        b &= b - _ONE
    b = o
    while b != _ZERO:
        h ^= U[ZOB + Z_O + lowest(b)]
        b &= b - _ONE
    if o_to_move != 0:
        h ^= U[ZOB + Z_SIDE]
    return h


@kernel
def probe(U: Any, key: U64) -> U64:
    """The data word stored for ``key`` (0 if absent)."""
    mask = np.uint64((U.shape[0] - TT) // 4 - 1)
    i = TT + np.int64(key & mask) * 4
    if U[i] == key and U[i + 1] != _ZERO:
        return U[i + 1]
    if U[i + 2] == key and U[i + 3] != _ZERO:
        return U[i + 3]
    return _ZERO


@kernel
def store(U: Any, key: U64, value: int, depth: int, bound: int, move: int, generation: int) -> None:
    """Store an entry with the depth-preferred / always-replace scheme described above."""
    word = (
        (np.uint64(value + 32768) & _M16)
        | (np.uint64(depth) << _S16)
        | (np.uint64(bound) << _S24)
        | (np.uint64(move + 1) << _S26)
        | (np.uint64(generation & 255) << _S34)
    )
    mask = np.uint64((U.shape[0] - TT) // 4 - 1)
    i = TT + np.int64(key & mask) * 4
    old = U[i + 1]
    if (
        U[i] == key
        or old == _ZERO
        or np.int64((old >> _S34) & _M8) != (generation & 255)
        or np.int64((old >> _S16) & _M8) <= depth
    ):
        if U[i] != key and old != _ZERO:
            U[i + 2] = U[i]
            U[i + 3] = old
        U[i] = key
        U[i + 1] = word
    else:
        U[i + 2] = key
        U[i + 3] = word


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
