"""Zobrist hashing and the transposition table (fixed size, two slots per bucket).

Hashing (Zobrist 1970): a position's key is the XOR of a random 64-bit word per
(colour, square) occupied, one for "O to move", and (at probe time) one for
the plies left. Making a move XORs in the placed piece, each converted square
(its X word and its O word), and the side word. The solver salts its keys with
one more word so exact and heuristic entries never mix.

Table layout: the tail of the shared ``uint64`` array ``U`` from ``TT``
(:mod:`adjacency.engine.kernels.layout`) holds ``buckets`` (a power of two) buckets of
four words: check and data of slot 0, check and data of slot 1, where the
check word is ``key ^ data`` (the lockless "xor trick", Hyatt & Mann 2002).
Search threads share the table without locks; a reader that sees one word of
an entry from one writer and the other from another gets a check that matches
no key, so a torn entry reads as a miss and never as another position's data.
Replacement (the classic two-tier scheme, Breuker et al. 1994):
slot 0 is *depth-preferred*: a new entry takes it if it is empty, holds the
same key, comes from an older search (generation), or is no deeper than the
new one; the entry it evicts moves to slot 1. Otherwise the new entry
goes to slot 1, the *always-replace* slot.

An entry's data word packs::

    bits  0-15  value + VALUE_BIAS   (search units, or pieces for the solver)
    bits 16-23  depth                (plies searched below the entry)
    bits 24-25  bound                1 lower, 2 upper, 3 exact
    bits 26-33  best move + 1        (0: none)
    bits 34-41  generation           (search number modulo 256)

A data word of 0 marks an empty slot (every stored entry has a bound flag).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .bits import I64, ONE, U64, ZERO, kernel, lowest
from .layout import TT, Z_O, Z_SIDE, Z_SIZE, Z_X, ZOB

LOWER = 1
UPPER = 2
EXACT = 3

NO_CUT = -(1 << 40)
"""What :func:`lookup` returns as its value when the entry cannot cut the node."""
ABSENT = -2
"""What :func:`lookup` returns as its move when the table holds no entry."""

VALUE_BIAS = 32768
"""Added to a value so that it packs into 16 unsigned bits."""
_VALUE_MASK = np.uint64(0xFFFF)
_BYTE = np.uint64(0xFF)
_BOUND_MASK = np.uint64(3)
_DEPTH_SHIFT = np.uint64(16)
_BOUND_SHIFT = np.uint64(24)
_MOVE_SHIFT = np.uint64(26)
_GENERATION_SHIFT = np.uint64(34)

ENTRY_BYTES = 16


def zobrist_keys(seed: int = 20260) -> np.ndarray:
    """The Zobrist words: X squares 0-63, O squares 64-127, side 128, plies 129-193, salt 194."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2**64 - 1, size=Z_SIZE, dtype=np.uint64, endpoint=True)


def shared_words(megabytes: float) -> np.ndarray:
    """A zeroed ``U`` array with a table of at most ``megabytes`` (at least one bucket) and
    the Zobrist words filled in (see :mod:`adjacency.engine.kernels.layout`)."""
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
    h = ZERO
    b = x
    while b != ZERO:
        h ^= U[ZOB + Z_X + lowest(b)]
        b &= b - ONE
    b = o
    while b != ZERO:
        h ^= U[ZOB + Z_O + lowest(b)]
        b &= b - ONE
    if o_to_move != 0:
        h ^= U[ZOB + Z_SIDE]
    return h


@kernel
def _bucket(U: Any, key: U64) -> int:
    """Index in ``U`` of the bucket of ``key``."""
    mask = np.uint64((U.shape[0] - TT) // 4 - 1)
    return TT + int(np.int64(key & mask)) * 4


@kernel
def probe(U: Any, key: U64) -> U64:
    """The data word stored for ``key`` (0 if absent or torn)."""
    i = _bucket(U, key)
    data = U[i + 1]
    if data != ZERO and U[i] ^ data == key:
        return data
    data = U[i + 3]
    if data != ZERO and U[i + 2] ^ data == key:
        return data
    return ZERO


@kernel
def store(U: Any, key: U64, value: int, depth: int, bound: int, move: int, generation: int) -> None:
    """Store an entry with the depth-preferred / always-replace scheme described above."""
    word = (
        (np.uint64(value + VALUE_BIAS) & _VALUE_MASK)
        | (np.uint64(depth) << _DEPTH_SHIFT)
        | (np.uint64(bound) << _BOUND_SHIFT)
        | (np.uint64(move + 1) << _MOVE_SHIFT)
        | (np.uint64(generation & 255) << _GENERATION_SHIFT)
    )
    i = _bucket(U, key)
    old = U[i + 1]
    old_key = U[i] ^ old
    if (
        old_key == key
        or old == ZERO
        or np.int64((old >> _GENERATION_SHIFT) & _BYTE) != (generation & 255)
        or np.int64((old >> _DEPTH_SHIFT) & _BYTE) <= depth
    ):
        if old_key != key and old != ZERO:
            U[i + 2] = U[i]
            U[i + 3] = old
        U[i] = key ^ word
        U[i + 1] = word
    else:
        U[i + 2] = key ^ word
        U[i + 3] = word


@kernel
def lookup(U: Any, key: U64, depth: int, alpha: int, beta: int, cut: bool) -> tuple[int, int]:
    """Probe for a node searched ``depth`` plies with window ``(alpha, beta)``.

    Returns ``(value, move)``: ``value`` is the stored value if the entry is deep
    enough and its bound decides the node (and ``cut``), else :data:`NO_CUT`;
    ``move`` is the entry's best move (-1: none, :data:`ABSENT`: no entry). Shared
    by the search and the solver.
    """
    word = probe(U, key)
    if word == ZERO:
        return NO_CUT, ABSENT
    move = entry_move(word)
    if cut and entry_depth(word) >= depth:
        v = entry_value(word)
        bound = entry_bound(word)
        if bound == EXACT or (bound == LOWER and v >= beta) or (bound == UPPER and v <= alpha):
            return v, move
    return NO_CUT, move


@kernel
def store_result(
    U: Any, key: U64, best: int, alpha0: int, beta: int, depth: int, move: int, generation: int
) -> None:
    """Store a fail-soft result ``best`` of a node searched with window ``(alpha0, beta)``."""
    bound = LOWER if best >= beta else (UPPER if best <= alpha0 else EXACT)
    store(U, key, best, depth, bound, move, generation)


@kernel
def entry_value(word: U64) -> I64:
    """The value packed in data word ``word`` (:data:`VALUE_BIAS` taken off)."""
    return np.int64(word & _VALUE_MASK) - VALUE_BIAS


@kernel
def entry_depth(word: U64) -> I64:
    """The depth packed in data word ``word`` (plies searched below the entry)."""
    return np.int64((word >> _DEPTH_SHIFT) & _BYTE)


@kernel
def entry_bound(word: U64) -> I64:
    """The bound packed in data word ``word``: :data:`LOWER`, :data:`UPPER` or :data:`EXACT` (0:
    an empty slot)."""
    return np.int64((word >> _BOUND_SHIFT) & _BOUND_MASK)


@kernel
def entry_move(word: U64) -> I64:
    """The best move packed in data word ``word`` (-1: none)."""
    return np.int64((word >> _MOVE_SHIFT) & _BYTE) - 1
