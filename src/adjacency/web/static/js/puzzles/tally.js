// @ts-check
// The puzzle runs' accounting, as lichess's Puzzle Streak and Puzzle Storm keep it: pure
// (no page, no storage, no clock of its own: `now` is always passed in), so that it is
// tested without a browser (tests/web/js/). run.js draws what it counts; main.js feeds it.
//
// - Skips: a streak has SKIPS_PER_STREAK skip, spent by passing a puzzle before it is
//   solved (the Skip button or Next); once spent, passing an unsolved puzzle is not
//   offered. A timed run has none: each puzzle is solved or failed.
// - The clock (RunClock): the player's time runs only while the board waits for the
//   player; the page's own pauses (drawing the reply, showing a finished puzzle, loading
//   the next) are not charged.
// - The combo: puzzles solved in a row (a miss ends it, a skip does not); reaching each
//   of COMBO_BONUSES' steps adds its seconds to a timed run's clock, and past the last one
//   every COMBO_EVERY more solves add COMBO_LATER seconds.
// - The end screen's figures (figures): score, moves, accuracy, best combo, time, time
//   per puzzle, the highest puzzle solved, the puzzles missed.
// - Personal bests (bestsOf, records): the best score today (since local midnight), over
//   the last 7 days and ever, of the runs kept.

export const SKIPS_PER_STREAK = 1;
const COMBO_BONUSES = [[5, 3], [12, 5], [20, 7], [30, 10]]; // [solved in a row, seconds]
const COMBO_EVERY = 10;
const COMBO_LATER = 10;
const WEEK_MS = 7 * 24 * 3600 * 1000;
export const PERIODS = /** @type {const} */ (["day", "week", "all"]);

/**
 * The bonus (seconds) for reaching a combo of `count`, 0 where none is earned.
 * @param {number} count
 */
export function comboBonus(count) {
  const step = COMBO_BONUSES.find(([at]) => at === count);
  if (step) return step[1];
  const [last] = COMBO_BONUSES[COMBO_BONUSES.length - 1];
  return count > last && (count - last) % COMBO_EVERY === 0 ? COMBO_LATER : 0;
}

/**
 * The next combo that earns a bonus after `count`: [at, seconds], and where the bar to
 * it starts (`from`: the step reached last).
 * @param {number} count
 * @returns {{at: number, seconds: number, from: number}}
 */
export function nextBonus(count) {
  const step = COMBO_BONUSES.find(([at]) => at > count);
  const [last] = COMBO_BONUSES[COMBO_BONUSES.length - 1];
  if (step) {
    const reached = COMBO_BONUSES.filter(([at]) => at <= count).pop();
    return { at: step[0], seconds: step[1], from: reached ? reached[0] : 0 };
  }
  const at = count + COMBO_EVERY - ((count - last) % COMBO_EVERY);
  return { at, seconds: COMBO_LATER, from: at - COMBO_EVERY };
}

/**
 * The solver's moves in a puzzle's line (its moves at even places: the others are the
 * opponent's replies).
 * @param {readonly string[]} line
 */
export function playerMoves(line) {
  return line.filter((_, i) => i % 2 === 0).length;
}

/** The player's clock of a run: `total` ms (Infinity: a streak, which only counts). */
export class RunClock {
  /** @param {number} total @param {number} now */
  constructor(total, now) {
    this.total = total;
    this.started = now;
    this.added = 0; // bonuses less costs, ms
    this.stopped = 0; // ms the clock stood
    /** @type {number | null} */
    this.since = null; // when it was stopped, while it stands
  }

  /** The page's turn (a reply drawn, the next puzzle coming): the clock stands. @param {number} now */
  stand(now) {
    if (this.since === null) this.since = now;
  }

  /** The player's turn again: the clock runs. @param {number} now */
  run(now) {
    if (this.since === null) return;
    this.stopped += Math.max(0, now - this.since);
    this.since = null;
  }

  get standing() {
    return this.since !== null;
  }

  /** Bonus seconds earned (positive) or a miss's cost (negative), in ms. @param {number} ms */
  add(ms) {
    this.added += ms;
  }

  /** The player's time so far, in ms: the time the clock ran. @param {number} now */
  spent(now) {
    const at = this.since === null ? now : this.since;
    return Math.max(0, at - this.started - this.stopped);
  }

  /** The time left, in ms (never below 0; Infinity for a streak). @param {number} now */
  left(now) {
    return Math.max(0, this.total + this.added - this.spent(now));
  }
}

/**
 * @typedef {{id: string, rating: number, result: "solved" | "missed" | "skipped",
 *   moves: string[], played: number, correct: number}} Finished
 * A puzzle of a run: its id, rating (rounded), how it ended, the line played, the
 * solver's moves played and how many of them were right.
 */

/** A run of puzzles: a streak ("streak") or a timed run ("timed"). */
export class Tally {
  /** @param {"streak" | "timed"} mode @param {RunClock} clock */
  constructor(mode, clock) {
    this.mode = mode;
    this.clock = clock;
    this.skips = mode === "streak" ? SKIPS_PER_STREAK : 0;
    this.score = 0; // puzzles solved (a streak's count: solved in a row, as a miss ends it)
    this.combo = 0;
    this.bestCombo = 0;
    /** @type {Finished[]} */
    this.puzzles = [];
    /** @type {string | null} */
    this.last = null; // the id of the puzzle finished last (once a puzzle)
  }

  /**
   * What passing the puzzle on the board does: "next" (it is finished: the next comes),
   * "skip" (unsolved, the streak's skip left: spent) or "none" (unsolved and nothing
   * allows passing it: not offered).
   * @param {boolean} finished the puzzle on the board is solved or failed
   * @returns {"next" | "skip" | "none"}
   */
  pass(finished) {
    if (finished) return "next";
    return this.skips > 0 ? "skip" : "none";
  }

  /**
   * The puzzle on the board passed unsolved with the skip: false (nothing changes) when
   * no skip is left.
   * @param {{id: string, rating: number}} puzzle
   * @param {readonly string[]} line the moves played on it so far
   */
  skip(puzzle, line) {
    if (this.skips < 1 || this.last === puzzle.id) return false;
    this.skips -= 1;
    this.last = puzzle.id;
    const played = playerMoves(line);
    this.puzzles.push({ id: puzzle.id, rating: Math.round(puzzle.rating), result: "skipped",
      moves: [...line], played, correct: played });
    return true;
  }

  /**
   * A puzzle of the run finished: kept once (a solution asked after a miss changes
   * nothing); solved, the score and the combo grow and the seconds the combo earns are
   * returned (0 when none, or after a miss, which ends the combo).
   * @param {{id: string, rating: number}} puzzle
   * @param {boolean} solved solved with no miss (a wrong move, a hint, the solution)
   * @param {readonly string[]} line the moves played on it
   * @param {boolean} wrong its last solver's move was wrong
   */
  finished(puzzle, solved, line, wrong) {
    if (this.last === puzzle.id) return 0;
    this.last = puzzle.id;
    const played = playerMoves(line);
    this.puzzles.push({ id: puzzle.id, rating: Math.round(puzzle.rating), result: solved ? "solved" : "missed",
      moves: [...line], played, correct: played - (wrong ? 1 : 0) });
    if (!solved) {
      this.combo = 0;
      return 0;
    }
    this.score += 1;
    this.combo += 1;
    this.bestCombo = Math.max(this.bestCombo, this.combo);
    return this.mode === "timed" ? comboBonus(this.combo) : 0;
  }

  /**
   * The end screen's figures at `now`: `time` and `perPuzzle` in seconds (the player's
   * clock's, the page's pauses left out; per puzzle solved or missed, skips left out),
   * `accuracy` the share of the solver's moves that were right (0-100, whole; null
   * before any move), `highest` the rating of the hardest puzzle solved (null: none).
   * @param {number} now
   */
  figures(now) {
    const moves = this.puzzles.reduce((sum, p) => sum + p.played, 0);
    const correct = this.puzzles.reduce((sum, p) => sum + p.correct, 0);
    const finished = this.puzzles.filter((p) => p.result !== "skipped").length;
    const solved = this.puzzles.filter((p) => p.result === "solved").map((p) => p.rating);
    const time = this.clock.spent(now) / 1000;
    return {
      score: this.score,
      moves,
      accuracy: moves ? Math.round((100 * correct) / moves) : null,
      bestCombo: this.bestCombo,
      time,
      perPuzzle: finished ? time / finished : null,
      highest: solved.length ? Math.max(...solved) : null,
      missed: this.puzzles.filter((p) => p.result === "missed"),
    };
  }
}

/**
 * The runs a storage held, as [{at (ms), score}]: anything else (another version's
 * value, a hand-edited one) left out.
 * @param {unknown} value
 * @returns {{at: number, score: number}[]}
 */
export function keptRuns(value) {
  if (!Array.isArray(value)) return [];
  return value.filter((r) => r && Number.isFinite(r.at) && Number.isFinite(r.score))
    .map((r) => ({ at: r.at, score: r.score }));
}

/**
 * The best scores of `runs` today (since local midnight of `now`), over the last 7 days
 * and ever; `floor` is an all-time best kept before runs were listed.
 * @param {{at: number, score: number}[]} runs
 * @param {number} now
 * @param {number} [floor]
 * @returns {{day: number, week: number, all: number}}
 */
export function bestsOf(runs, now, floor = 0) {
  const midnight = new Date(now).setHours(0, 0, 0, 0);
  const best = (/** @type {number} */ since) => Math.max(0, ...runs.filter((r) => r.at >= since).map((r) => r.score));
  return { day: best(midnight), week: best(now - WEEK_MS), all: Math.max(floor, best(-Infinity)) };
}

/**
 * The periods whose best a run scoring `score` at `now` beats (`runs`: those before it):
 * of PERIODS, in their order; none for a score of 0.
 * @param {{at: number, score: number}[]} runs
 * @param {number} score
 * @param {number} now
 * @param {number} [floor]
 */
export function records(runs, score, now, floor = 0) {
  if (score < 1) return [];
  const before = bestsOf(runs, now, floor);
  return PERIODS.filter((period) => score > before[period]);
}
