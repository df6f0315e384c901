"""Bit operations for the compiled engine: popcount, trailing zeros and neighbour spreads.

Every bitboard is a ``numpy.uint64`` on the core's layout (square index
``rank * cols + file``, see :mod:`adjacency.core.board`). Kernels never mix
signed and unsigned integers in bitboard arithmetic (numba would promote the
mix to float): shift amounts and masks are ``uint64`` too.

A board's geometry reaches the kernels in the ``uint64`` array ``U``
(:mod:`adjacency.engine.kernels.layout`)::

    U[GEO + GEO_FULL]      every square of the board
    U[GEO + GEO_NOT_A]     full without file a      (masks the left-to-right wrap of ``<< 1``)
    U[GEO + GEO_NOT_LAST]  full without the last file (masks the wrap of ``>> 1``)
    U[GEO + GEO_COLS]      the shift that moves a piece one rank
    U[NBR + sq]             the orthogonal neighbours of square ``sq``
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.extending import intrinsic

from ...core.board import Board
from .layout import GEO, GEO_COLS, GEO_FULL, GEO_NOT_A, GEO_NOT_LAST, NBR

F = TypeVar("F", bound=Callable[..., Any])

U64 = Any
"""A ``numpy.uint64`` bitboard or hash (typed loosely: numpy scalars are not ``int``)."""
I64 = Any
"""A ``numpy.int64`` result of a kernel."""


def kernel(fn: F) -> F:
    """Compile ``fn`` with numba in nopython mode, cached on disk, releasing the GIL."""
    return cast(F, numba.njit(cache=True, nogil=True)(fn))


def inline_kernel(fn: F) -> F:
    """:func:`kernel`, but inlined into each kernel that calls it (numba's IR inlining):
    for a small step shared by hot loops, which a call would slow (the search's descent
    shared by the serial and the batched MCTS: 15% slower as a call)."""
    return cast(F, numba.njit(cache=True, nogil=True, inline="always")(fn))


def _ctpop_typer(typingctx: Any, x: Any) -> Any:
    sig = types.int64(types.uint64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(fn, [args[0]])

    return sig, codegen


def _cttz_typer(typingctx: Any, x: Any) -> Any:
    sig = types.int64(types.uint64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        fn = builder.module.declare_intrinsic("llvm.cttz", [ir.IntType(64), ir.IntType(1)])
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 1)])

    return sig, codegen


_ctpop: Any = intrinsic(_ctpop_typer)
_cttz: Any = intrinsic(_cttz_typer)

ONE = np.uint64(1)
ZERO = np.uint64(0)


@kernel
def popcount(b: U64) -> int:
    """Number of set bits of a ``uint64`` (LLVM ``ctpop``: one POPCNT instruction)."""
    return _ctpop(b)  # type: ignore[no-any-return]


@kernel
def lowest(b: U64) -> int:
    """Index of the lowest set bit of a non-zero ``uint64`` (LLVM ``cttz``: TZCNT/BSF)."""
    return _cttz(b)  # type: ignore[no-any-return]


@kernel
def spread(b: U64, U: Any) -> U64:
    """The squares orthogonally adjacent to some square of ``b`` (``b`` itself excluded
    unless adjacent to another of its squares)."""
    cols = U[GEO + GEO_COLS]
    left = (b << ONE) & U[GEO + GEO_NOT_A]
    right = (b >> ONE) & U[GEO + GEO_NOT_LAST]
    return ((b << cols) | (b >> cols) | left | right) & U[GEO + GEO_FULL]


@kernel
def gain_bits(target: U64, empty: U64, U: Any) -> tuple[U64, U64, U64]:
    """Per square of ``empty``, how many of its orthogonal neighbours are in ``target``
    (0 to 4), bit-sliced: ``(b0, b1, b2)``, the count's bits 1, 2 and 4 of every square.

    Four direction boards say, per empty square, whether the neighbour
    above/below/right/left is in ``target``; a bit-sliced adder sums them. The one adder
    of :func:`max_gain` and the playouts' :func:`~adjacency.engine.kernels.mcts.best_squares`.
    """
    cols = U[GEO + GEO_COLS]
    a = (target >> cols) & empty
    b = (target << cols) & empty
    c = (target >> ONE) & U[GEO + GEO_NOT_LAST] & empty
    d = (target << ONE) & U[GEO + GEO_NOT_A] & empty
    s1 = a ^ b
    c1 = a & b
    s2 = c ^ d
    c2 = c & d
    k = s1 & s2
    return s1 ^ s2, c1 ^ c2 ^ k, (c1 & c2) | (k & (c1 | c2))


@kernel
def max_gain(target: U64, empty: U64, U: Any) -> int:
    """``max(popcount(neighbours(e) & target) for e in empty)``, 0 if ``empty`` is empty
    (from :func:`gain_bits`)."""
    b0, b1, b2 = gain_bits(target, empty, U)
    if b2 != ZERO:
        return 4
    if b1 != ZERO:
        return 3 if (b1 & b0) != ZERO else 2
    return 1 if b0 != ZERO else 0


@kernel
def play(me: U64, opp: U64, sq: int, U: Any) -> tuple[U64, U64, U64]:
    """The mover places on empty ``sq``: returns the child (its mover = ``opp`` side first)
    as ``(child_me, child_opp, flips)``, where ``flips`` are the squares converted."""
    flips = U[NBR + sq] & opp
    return opp ^ flips, me | (ONE << np.uint64(sq)) | flips, flips


def write_geometry(board: Board, U: np.ndarray) -> None:
    """Write a board's geometry words and neighbour table into ``U`` (see the docstring)."""
    file_a = 0
    last = 0
    for rank in range(board.rows):
        file_a |= 1 << (rank * board.cols)
        last |= 1 << (rank * board.cols + board.cols - 1)
    U[GEO + GEO_FULL] = board.full
    U[GEO + GEO_NOT_A] = board.full & ~file_a
    U[GEO + GEO_NOT_LAST] = board.full & ~last
    U[GEO + GEO_COLS] = board.cols
    U[NBR : NBR + 64] = 0
    for index, mask in enumerate(board.neighbours):
        U[NBR + index] = mask
