"""The searcher, :class:`Engine`: the Python driver of the kernels (iterative deepening,
aspiration, MTD(f), timing and solving).

One compiled call per iteration (PVS) or per MTD(f) probe; the kernels live in
:mod:`adjacency.engine.kernels.search` and :mod:`adjacency.engine.kernels.solver`, the
settings in :mod:`adjacency.engine.config`, the records the driver returns in
:mod:`adjacency.engine.results`, and every compiled call runs through
:func:`adjacency.system.signals.interruptible` so that Ctrl-C stops it.

Time management: the kernels cannot read a clock, so a timer thread sets the
shared abort flag ``S[CTL + CTL_ABORT]`` (:mod:`adjacency.engine.kernels.layout`) at the
deadline (the kernels release the GIL, so the timer runs on time). Every interior
node reads the flag and the whole search unwinds within microseconds. Between
iterations the driver also stops early when the next iteration is unlikely to
finish (half the budget is gone).
The move returned is the last completed iteration's best, or the interrupted
iteration's best if it already proved that move better than the previous one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Unpack, cast

import numpy as np

from ..core import Position
from ..core.board import Board
from ..core.errors import InvalidPositionError, InvalidSettingsError
from ..core.text import quote
from ..system.signals import interruptible
from .config import TERMS, EngineConfig, EngineSettings
from .kernels import layout as L
from .kernels import search as ks
from .kernels import solver as kv
from .kernels.bits import write_geometry
from .kernels.evaluate import evaluate as static_evaluation
from .kernels.evaluate import weights
from .kernels.layout import LEARNED, MATERIAL, PATTERN, POSITIONAL, SCALE
from .kernels.transposition import (
    clear_table,
    entry_move,
    position_hash,
    probe,
    shared_words,
)
from .parallel_solve import SPLIT_DEPTH, Splitter, split_floor
from .profiles import PROFILES
from .results import ProbeResult, Progress, SearchResult, SolveResult
from .threads import Helpers
from .weights_file import LEARNED_BOARD, pattern_table, shipped_weights


def margin_parity(position: Position) -> int:
    """The parity (0 or 1) of the final margin: every move adds one piece, and a
    margin ``a - b`` has the parity of the total ``a + b`` at the end."""
    return ((position.x | position.o).bit_count() + position.plies_left) % 2


def write_settings(S: np.ndarray, config: EngineConfig) -> bool:
    """Write a resolved ``config`` (no unset settings) into a fresh state array ``S``: the
    evaluation's weights, the learned or pattern tables, the kernels' settings.
    Returns True if 8x8 positions use the learned evaluation."""
    profile = PROFILES[config.profile]
    chosen = weights(config.evaluation, profile.weights)
    for name, value in config.terms.items():
        chosen[TERMS[name]] = value
    S[L.W : L.W + len(chosen)] = chosen
    S[L.W + L.W_LEARNED_SPARE] = profile.learned_spare
    learned = profile.learned and config.evaluation == "positional"
    if learned:
        table, _ = shipped_weights()
        S[L.PW : L.PW + L.PW_SIZE] = table.reshape(-1)
        if profile.patterns:
            patterns, _ = pattern_table(config.patterns)
            S[L.PAT : L.PAT + L.PAT_SIZE] = patterns.reshape(-1)
    S[L.KILLERS : L.MOVES] = -1
    S[L.CFG + L.CFG_TT] = int(config.use_tt)
    S[L.CFG + L.CFG_ORDER] = config.ordering
    S[L.CFG + L.CFG_LMR] = int(bool(config.reductions))
    S[L.CFG + L.CFG_LMR_FROM] = profile.lmr_from
    S[L.CFG + L.CFG_SOLVE_TEMPO] = profile.solve_tempo
    S[L.CFG + L.CFG_SOLVE_FEATURES] = profile.solve_features
    S[L.CFG + L.CFG_NULL_R] = config.null_reduction
    S[L.CFG + L.CFG_PROBCUT] = config.probcut
    return learned


class Engine:
    """A reusable searcher holding the transposition table and per-ply buffers.

    With ``threads`` > 1 helper threads share the table: the search runs Lazy SMP
    (:mod:`adjacency.engine.threads`), the solver splits its tree between them
    (:mod:`adjacency.engine.parallel_solve`). Not thread-safe except
    :meth:`stop`, which any thread may call.
    """

    def __init__(
        self, config: EngineConfig | None = None, /, **settings: Unpack[EngineSettings]
    ) -> None:
        """Build from ``config`` (:class:`~adjacency.engine.config.EngineConfig`; default:
        the default settings) with ``settings``, fields of it by name, changed:
        ``Engine(tt_mb=4, profile="v1")`` is ``Engine(EngineConfig(tt_mb=4, profile="v1"))``.

        Raises :class:`~adjacency.core.errors.InvalidSettingsError` for a setting out of
        range or a name that is no setting (:class:`~adjacency.engine.config.EngineConfig`).
        """
        base = EngineConfig() if config is None else config
        self.config = base.with_settings(**settings) if settings else base
        """The settings as given (``None``: the profile's)."""
        resolved = self.config.resolved()
        self.U = shared_words(resolved.tt_mb)
        self.S = np.zeros(L.I_SIZE, dtype=np.int64)
        self.profile = PROFILES[resolved.profile]
        self.learned = write_settings(self.S, resolved)
        """True if 8x8 positions use the learned evaluation (other boards: the profile's)."""
        if self.learned and self.profile.patterns:
            self.pattern_version = pattern_table(resolved.patterns)[1]
        self.solver_thresholds: tuple[int, int, int, int, int] | None = None
        """Fixed solver thresholds (for tuning); ``None``: chosen per root by
        :func:`adjacency.engine.kernels.solver.thresholds`. :meth:`solve` writes them to ``S``."""
        self.split_depth = SPLIT_DEPTH
        """With ``threads`` > 1, solver nodes at most this many plies below the root are
        split points whose moves the threads share (:mod:`adjacency.engine.parallel_solve`)."""
        self.split_floor: int | None = None
        """... if they have at least this many plies left (and 5 at the least); ``None``:
        chosen per root by :func:`adjacency.engine.parallel_solve.split_floor` (9 in short
        games, 15 where the board fills)."""
        self.driver = resolved.driver
        self.reductions = bool(resolved.reductions)
        self.next_iteration = float(cast(float, resolved.next_iteration))
        """No new iteration once this fraction of a search's time is spent."""
        self.generation = 0
        self.threads = resolved.threads
        self.helpers = Helpers(self.S, self.threads - 1) if self.threads > 1 else None
        self._stop_requested = False
        self._board: Board | None = None

    @property
    def nodes(self) -> int:
        """Nodes visited by the last search or solve (all threads)."""
        return self.count(L.STAT_NODES)

    def count(self, stat: int) -> int:
        """Counter ``S[STATS + stat]`` (a ``STAT_*`` slot of :mod:`.kernels.layout`) of the last
        search or solve, summed over all threads."""
        helpers = self.helpers.count(stat) if self.helpers is not None else 0
        return int(self.S[L.STATS + stat]) + helpers

    @property
    def table_counts(self) -> tuple[int, int]:
        """``(probes, hits)`` of the transposition table in the last search or solve (all
        threads): the nodes that looked their own entry up, and those that found one."""
        return self.count(L.STAT_TT_PROBES), self.count(L.STAT_TT_HITS)

    @property
    def stopped(self) -> bool:
        """True if the last search or solve was interrupted (time, nodes or :meth:`stop`)."""
        return bool(self.S[L.CTL + L.CTL_ABORT])

    # ------------------------------------------------------------------ control

    def stop(self) -> None:
        """Make a running search or solve return as soon as possible."""
        self._stop_requested = True
        self.S[L.CTL + L.CTL_ABORT] = 1
        if self.helpers is not None:
            self.helpers.stop()

    def clear(self) -> None:
        """Forget the table, killers and history (a new game)."""
        clear_table(self.U)
        self.S[L.KILLERS : L.MOVES] = -1
        self.S[L.HISTORY : L.KILLERS] = 0
        if self.helpers is not None:
            self.helpers.clear()

    def _begin(self, position: Position, nodes: int | None) -> None:
        self.generation += 1
        self.S[L.CFG + L.CFG_GENERATION] = self.generation & 255
        self.S[L.CFG + L.CFG_NODES] = nodes or 0
        self.S[L.CFG + L.CFG_FIRST] = -1
        self.S[L.STATS : L.STATS + L.STATS_SIZE] = 0
        self.S[L.CTL + L.CTL_ABORT] = 0
        self._stop_requested = False
        self.S[L.HISTORY : L.KILLERS] //= 8
        if self.helpers is not None:
            self.helpers.reset()
        self._use_board(position.board)

    def _use_board(self, board: Board) -> None:
        """Write ``board``'s geometry and the evaluation mode it takes (the learned or
        pattern weights on the board they were trained on, the hand-tuned terms on
        others), unless the last search or evaluation was on the same board."""
        if board != self._board:
            write_geometry(board, self.U)
            self._board = board
            if self.learned:
                trained = (board.rows, board.cols) == LEARNED_BOARD
                mode = PATTERN if self.profile.patterns else LEARNED
                self.S[L.W + L.W_MODE] = mode if trained else POSITIONAL

    def _timer(self, seconds: float | None) -> threading.Timer | None:
        if seconds is None:
            return None
        timer = threading.Timer(max(0.0, seconds), self.stop)
        timer.daemon = True
        timer.start()
        return timer

    # ------------------------------------------------------------------- search

    def _hash(self, position: Position) -> np.uint64:
        color = int(position.turn == "o")
        return np.uint64(position_hash(np.uint64(position.x), np.uint64(position.o), color, self.U))

    def _call(self, position: Position, depth: int, alpha: int, beta: int) -> int:
        self.S[L.ROOT : L.ROOT + L.ROOT_SIZE] = (0, -1, 0, 0)
        return interruptible(
            self.stop,
            lambda: ks.search(
                np.uint64(position.mover),
                np.uint64(position.opponent),
                position.plies_left,
                depth,
                alpha,
                beta,
                0,
                self._hash(position),
                int(position.turn == "o"),
                self.U,
                self.S,
            ),
        )

    def _pvs_iteration(self, position: Position, depth: int, guess: int | None) -> tuple[int, int]:
        """One iteration with an aspiration window; returns (value, move) or move -1."""
        if guess is None or self.S[L.CFG + L.CFG_TT] == 0:
            alpha, beta = -ks.INF, ks.INF
        else:
            window = self.profile.aspiration
            alpha, beta = guess - window, guess + window
        while True:
            value = self._call(position, depth, alpha, beta)
            if self.S[L.CTL + L.CTL_ABORT]:
                partial = (
                    int(self.S[L.ROOT + L.ROOT_MOVE])
                    if self.S[L.ROOT + L.ROOT_DONE] >= 1 and self.S[L.ROOT + L.ROOT_VALUE] > alpha
                    else -1
                )
                return int(self.S[L.ROOT + L.ROOT_VALUE]), partial if partial >= 0 else -1
            if alpha < value < beta or (alpha == -ks.INF and beta == ks.INF):
                return value, int(self.S[L.ROOT + L.ROOT_MOVE])
            alpha, beta = -ks.INF, ks.INF

    def _mtdf_iteration(self, position: Position, depth: int, guess: int | None) -> tuple[int, int]:
        """MTD(f) (Plaat 1996): null-window probes converging on the minimax value."""
        g = 0 if guess is None else guess
        lower, upper = -ks.INF, ks.INF
        best = -1
        while lower < upper:
            beta = max(g, lower + 1)
            g = self._call(position, depth, beta - 1, beta)
            if self.S[L.CTL + L.CTL_ABORT]:
                return g, best
            if g < beta:
                upper = g
                if best < 0:
                    best = int(self.S[L.ROOT + L.ROOT_MOVE])
            else:
                lower = g
                best = int(self.S[L.ROOT + L.ROOT_MOVE])
        return g, best

    def search(
        self,
        position: Position,
        seconds: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        progress: Progress | None = None,
    ) -> SearchResult:
        """Iterative deepening to ``depth`` (default: the end) within ``seconds``/``nodes``.

        Raises :class:`~adjacency.core.errors.InvalidPositionError` for a finished game.
        """
        if position.is_over:
            raise InvalidPositionError(f"cannot search a finished game: {quote(position.fen())}")
        started = time.monotonic()
        self._begin(position, nodes)
        timer = self._timer(seconds)
        board = position.board
        limit = position.plies_left if depth is None else min(depth, position.plies_left)
        iterate = self._mtdf_iteration if self.driver == "mtdf" else self._pvs_iteration
        result: SearchResult | None = None
        guess: int | None = None
        values: list[int] = []
        # Plies at the end that the evaluation scores exactly (see evaluate.py).
        exact_leaf = 0 if self.S[L.W + L.W_MODE] == MATERIAL else 1
        if self.helpers is not None:
            self.helpers.start(self._helper_search(position, limit, exact_leaf))
        try:
            for d in range(1, limit + 1):
                if result is not None:
                    self.S[L.CFG + L.CFG_FIRST] = board.square(result.move)
                if d >= position.plies_left - exact_leaf:
                    # The iteration that reaches the end (or the last ply, which the positional
                    # evaluation scores exactly) is full width, so its value is exact.
                    self.S[L.CFG + L.CFG_LMR] = 0
                if self.profile.same_parity_guess and len(values) >= 2:
                    guess = values[-2]  # the odd-even effect: compare like with like
                value, move = iterate(position, d, guess)
                aborted = bool(self.S[L.CTL + L.CTL_ABORT])
                if move < 0:
                    break
                if aborted and result is not None and board.name(move) == result.move:
                    break
                elapsed = time.monotonic() - started
                done = d if not aborted else d - 1
                result = SearchResult(
                    board.name(move),
                    value / SCALE if not aborted else (result.value if result else value / SCALE),
                    max(done, 1),
                    self.nodes,
                    elapsed,
                    self.principal_variation(position, move, d),
                    not aborted and d >= position.plies_left - exact_leaf,
                    *self.table_counts,
                )
                if aborted:
                    break
                guess = value
                values.append(value)
                if progress is not None:
                    progress(result)
                if result.exact:
                    break
                if seconds is not None and elapsed > self.next_iteration * seconds:
                    break
        finally:
            if self.helpers is not None:
                self.helpers.finish()
            self.S[L.CFG + L.CFG_LMR] = int(self.reductions)
            if timer is not None:
                timer.cancel()
        if result is None:
            # Interrupted before depth 1 finished: fall back to the best immediate gain.
            gains = {
                sq: (board.neighbours[sq] & position.opponent).bit_count()
                for sq in position.legal_squares()
            }
            move = max(gains, key=lambda sq: gains[sq])
            result = SearchResult(
                board.name(move),
                0.0,
                0,
                self.nodes,
                time.monotonic() - started,
                (board.name(move),),
                False,
                *self.table_counts,
            )
        return SearchResult(
            result.move,
            result.value,
            result.depth,
            self.nodes,
            time.monotonic() - started,
            result.pv,
            result.exact,
            *self.table_counts,
        )

    def _helper_search(
        self, position: Position, limit: int, exact_leaf: int
    ) -> Callable[[np.ndarray, int], None]:
        """A helper thread's iterative deepening (odd helpers one ply ahead), full windows,
        with the main thread's rule for reductions (none where the search is exact)."""
        me, opp = np.uint64(position.mover), np.uint64(position.opponent)
        plies, h, color = position.plies_left, self._hash(position), int(position.turn == "o")

        def loop(S: np.ndarray, number: int) -> None:
            for depth in range(1 + number % 2, limit + 1):
                exact = depth >= plies - exact_leaf
                S[L.CFG + L.CFG_LMR] = 0 if exact else int(self.reductions)
                ks.search(me, opp, plies, depth, -ks.INF, ks.INF, 0, h, color, self.U, S)
                if S[L.CTL + L.CTL_ABORT]:
                    return

        return loop

    def principal_variation(
        self, position: Position, first: int, depth: int, solver: bool = False
    ) -> tuple[str, ...]:
        """The best line: ``first``, then the table's moves, at most ``depth`` plies."""
        line = [position.board.name(first)]
        current = position.play(first)
        salt = self.U[L.ZOB + L.Z_SOLVER] if solver else np.uint64(0)
        while len(line) < depth and not current.is_over:
            key = self._hash(current) ^ self.U[L.ZOB + L.Z_PLIES + current.plies_left] ^ salt
            word = probe(self.U, key)
            move = entry_move(word) if word else -1
            if move < 0 or not (current.empty >> move) & 1:
                break
            line.append(current.board.name(move))
            current = current.play(move)
        return tuple(line)

    def evaluate(self, position: Position) -> float:
        """The static evaluation the search scores its leaves with, in pieces of final
        margin from the mover's view: the profile's (the pattern or learned weights on
        8x8, the hand-tuned terms elsewhere), exact for a finished game and, outside
        material mode, with one ply left. No search: this is what a depth-0 leaf sees,
        for measuring an evaluation against exact values (``benchmarks/bench_eval_truth.py``).
        Only the board is set up, not a search: the table, history, killers and counters
        a later search sees are left as they were.
        """
        self._use_board(position.board)
        me, opp = np.uint64(position.mover), np.uint64(position.opponent)
        raw = int(static_evaluation(me, opp, position.plies_left, self.U, self.S))
        return raw / SCALE

    # -------------------------------------------------------------------- solve

    def solve(
        self,
        position: Position,
        wld: bool = False,
        seconds: float | None = None,
        nodes: int | None = None,
        guess: float | None = None,
    ) -> SolveResult:
        """Solve exactly (or win/draw/loss only) to the end of the game.

        The exact value is found MTD(f)-style by null-window probes starting at
        ``guess`` (default: a 4-ply search's value), stepping by 2 because the
        final margin's parity is known (it is the parity of the pieces on the
        board at the end). Win/draw/loss is a single ``(-1, 1)`` window search.
        Raises :class:`~adjacency.core.errors.InvalidPositionError` for a finished game.
        """
        if position.is_over:
            raise InvalidPositionError(f"cannot solve a finished game: {quote(position.fen())}")
        started = time.monotonic()
        if guess is None and not wld:
            guess = self.search(position, depth=min(4, position.plies_left)).value
        best = -1
        with self._solving(position, seconds, nodes):
            if wld:
                value = self._solve_call(position, -1, 1)
                value = (value > 0) - (value < 0)
                best = int(self.S[L.ROOT + L.ROOT_MOVE])
            else:
                parity = margin_parity(position)
                bound = position.board.size
                lower, upper = -bound - 2, bound + 2
                g = round(guess or 0)
                g += (g - parity) % 2
                while lower < upper and not self.S[L.CTL + L.CTL_ABORT]:
                    beta = g if g > lower else lower + 2
                    v = self._solve_call(position, beta - 1, beta)
                    if self.S[L.CTL + L.CTL_ABORT]:
                        break
                    if v >= beta:
                        lower = v + (v - parity) % 2
                        best = int(self.S[L.ROOT + L.ROOT_MOVE])
                        g = lower
                    else:
                        upper = v - (v - parity) % 2
                        g = upper
                value = lower
                if best < 0 and not self.S[L.CTL + L.CTL_ABORT]:
                    # Every probe failed low: one more proves a move reaching the value.
                    self._solve_call(position, value - 1, value)
                    best = int(self.S[L.ROOT + L.ROOT_MOVE])
        complete = not self.S[L.CTL + L.CTL_ABORT]
        return SolveResult(
            value,
            position.board.name(best) if best >= 0 else position.legal_moves()[0],
            self.nodes,
            time.monotonic() - started,
            wld,
            complete,
            *self.table_counts,
        )

    def probe(
        self,
        position: Position,
        beta: int,
        seconds: float | None = None,
        nodes: int | None = None,
    ) -> ProbeResult:
        """One null-window solve to the end: is the exact final margin ``>= beta``?

        The margin is the mover's pieces minus the opponent's at the end, and its
        parity is known (:func:`margin_parity`), so "``>= beta``" for a ``beta`` of
        the other parity means "``>= beta + 1``". One probe costs far less than
        :meth:`solve` (a few probes): callers that only need to refute a move, such
        as a root split (:mod:`adjacency.solving.split`), probe it at the value
        to beat. The table is shared with :meth:`solve`: its entries stay valid.
        Raises :class:`~adjacency.core.errors.InvalidPositionError` for a finished game and
        :class:`~adjacency.core.errors.InvalidSettingsError` for a ``beta`` that is not an int.
        """
        if position.is_over:
            raise InvalidPositionError(f"cannot solve a finished game: {quote(position.fen())}")
        if isinstance(beta, bool) or not isinstance(beta, int):
            raise InvalidSettingsError(f"beta must be a whole number, got {quote(beta)}")
        started = time.monotonic()
        parity = margin_parity(position)
        with self._solving(position, seconds, nodes):
            v = self._solve_call(position, beta - 1, beta)
        high = v >= beta
        # Round the fail-soft value inward to a margin the position can end with.
        bound = v + (v - parity) % 2 if high else v - (v - parity) % 2
        return ProbeResult(
            high,
            bound,
            beta,
            self.nodes,
            time.monotonic() - started,
            not self.S[L.CTL + L.CTL_ABORT],
        )

    @contextmanager
    def _solving(
        self, position: Position, seconds: float | None, nodes: int | None
    ) -> Iterator[None]:
        """The set-up of every solver call: a new search, the solver's thresholds for
        this root, the table on (the solver relies on it), the timer; restored after."""
        self._begin(position, nodes)
        self.S[L.CFG + L.CFG_SOLVE_TT : L.CFG + L.CFG_SOLVE_TWO_PLY + 1] = (
            self.solver_thresholds or kv.thresholds(position.empty.bit_count(), position.plies_left)
        )
        timer = self._timer(seconds)
        use_tt = int(self.S[L.CFG + L.CFG_TT])
        self.S[L.CFG + L.CFG_TT] = 1
        try:
            yield
        finally:
            self.S[L.CFG + L.CFG_TT] = use_tt
            if timer is not None:
                timer.cancel()

    def _solve_call(self, position: Position, alpha: int, beta: int) -> int:
        self.S[L.ROOT : L.ROOT + L.ROOT_SIZE] = (0, -1, 0, 0)
        me, opp = np.uint64(position.mover), np.uint64(position.opponent)
        plies, h, color = position.plies_left, self._hash(position), int(position.turn == "o")

        floor = self.split_floor
        if floor is None:
            floor = split_floor(position.empty.bit_count(), plies)
        if self.helpers is None or plies < floor:
            # One thread (short solves too: no node of theirs would be worth a split).
            return interruptible(
                self.stop,
                lambda: int(kv.solve(me, opp, plies, alpha, beta, 0, h, color, self.U, self.S)),
            )
        # The threads split the probe's tree (Young Brothers Wait, engine/parallel_solve.py).
        self.helpers.sync()
        splitter = Splitter(
            self.U,
            [self.S, *self.helpers.states],
            self.split_depth,
            floor,
            lambda: self._stop_requested,
        )
        value = splitter.run(
            me, opp, plies, alpha, beta, h, color, lambda run: interruptible(self.stop, run)
        )
        return 0 if value is None else value
