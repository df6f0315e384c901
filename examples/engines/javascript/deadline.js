'use strict';
const { performance } = require('node:perf_hooks');

/**
 * The time budget of one move, and the way a bot reports its best move so far.
 * passed() turns true when the budget is spent or the search was stopped; maxDepth is the
 * depth limit of `go depth N` (Infinity when none was given).
 */
class Deadline {
  constructor(budgetMs, maxDepth = Infinity, { stopped = () => false, report = () => {} } = {}) {
    this.start = performance.now();
    this.budgetMs = budgetMs; // Infinity: no time limit
    this.maxDepth = maxDepth;
    this.stopped = stopped;
    this.report = report;
    this.best = null;
  }

  passed() {
    return this.stopped() || performance.now() - this.start >= this.budgetMs;
  }

  elapsedMs() {
    return Math.round(performance.now() - this.start);
  }

  /** The best move so far; with the depth searched and its score in pieces for the mover. */
  offer(move, depth, score) {
    this.best = move;
    if (depth !== undefined) {
      this.report(move, `info depth ${depth} score ${score * 100} time ${this.elapsedMs()} pv ${move}`);
    } else {
      this.report(move, null);
    }
  }
}

module.exports = { Deadline };
