'use strict';
// The example bots. A bot is a function move(board, deadline) -> 'd4' (see board.js for the
// board). Stop thinking when deadline.passed(); call deadline.offer(move, depth, score) with
// your best move so far: the runner plays the last offer if the time runs out first.
const { square } = require('./board');

/** The square that wins the most squares now; ties go to the first in a1, b1, ..., a2 order. */
function greedy(board, deadline) {
  let best = null;
  let bestGain = -1;
  for (let r = 0; r < board.rows; r++) {
    for (let c = 0; c < board.cols; c++) {
      if (board.grid[r][c] === '.' && board.gain(r, c) > bestGain) {
        bestGain = board.gain(r, c);
        best = square(r, c);
      }
    }
  }
  deadline.offer(best, 1, bestGain);
  return best;
}

/** The empty squares as [r, c, gain], those that win most now first (ties in a1, b1 order). */
function ordered(board) {
  const moves = [];
  for (let r = 0; r < board.rows; r++) {
    for (let c = 0; c < board.cols; c++) {
      if (board.grid[r][c] === '.') moves.push([r, c, board.gain(r, c)]);
    }
  }
  return moves.sort((a, b) => b[2] - a[2]); // a stable sort: ties keep their order
}

class TimeUp extends Error {}

/**
 * Minimax with alpha-beta pruning (negamax form) and iterative deepening: depth 1, 2, 3, ...
 * until the time is up, each depth searching the previous best move first. The objective is
 * the piece difference (own squares minus the opponent's) for the side to move.
 */
function alphabeta(board, deadline) {
  let nodes = 0;
  function negamax(b, depth, alpha, beta) {
    if (++nodes % 1024 === 0 && deadline.passed()) throw new TimeUp();
    if (depth === 0 || b.isOver()) {
      const [x, o] = b.score();
      return b.turn === 'x' ? x - o : o - x;
    }
    for (const [r, c] of ordered(b)) {
      const value = -negamax(b.playAt(r, c), depth - 1, -beta, -alpha);
      if (value >= beta) return value;
      if (value > alpha) alpha = value;
    }
    return alpha;
  }
  const moves = ordered(board);
  let best = square(moves[0][0], moves[0][1]);
  deadline.offer(best);
  const most = Math.min(board.pliesLeft, deadline.maxDepth);
  for (let depth = 1; depth <= most; depth++) {
    try {
      let alpha = -Infinity;
      let bestMove = moves[0];
      for (const m of moves) {
        const value = -negamax(board.playAt(m[0], m[1]), depth - 1, -Infinity, -alpha);
        if (value > alpha) {
          alpha = value;
          bestMove = m;
        }
      }
      moves.splice(moves.indexOf(bestMove), 1);
      moves.unshift(bestMove); // the next depth searches it first
      best = square(bestMove[0], bestMove[1]);
      deadline.offer(best, depth, alpha);
    } catch (error) {
      if (error instanceof TimeUp) break;
      throw error;
    }
  }
  return best;
}

module.exports = { greedy, alphabeta };
