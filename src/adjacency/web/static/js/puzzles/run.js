// A timed run of puzzles (lichess's Puzzle Storm): its combo, its puzzles and its end.
// The combo counts the puzzles solved in a row (a miss ends it); reaching each of
// COMBO_BONUSES' steps adds its seconds to the clock, and past the last one every
// COMBO_EVERY more solves add COMBO_LATER seconds. The run keeps each finished puzzle
// (its id, rating, whether it was solved and the moves played) for the end screen, which
// shows the score, this browser's best run today, over the last 7 days and ever (its
// runs kept in localStorage, the newest RUNS_KEPT), and the run's puzzles, each a link
// to play it again.

import { t } from "../i18n.js";
import { $ } from "../dom.js";

const COMBO_BONUSES = [[5, 3], [12, 5], [20, 7], [30, 10]]; // [solved in a row, seconds]
const COMBO_EVERY = 10;
const COMBO_LATER = 10;
const RUNS_KEY = "adjacency.puzzles.timed-runs";
const RUNS_KEPT = 500;
const WEEK_MS = 7 * 24 * 3600 * 1000;

// The bonus (seconds) for reaching a combo of `count`, 0 where none is earned.
export function comboBonus(count) {
  const step = COMBO_BONUSES.find(([at]) => at === count);
  if (step) return step[1];
  const [last] = COMBO_BONUSES[COMBO_BONUSES.length - 1];
  return count > last && (count - last) % COMBO_EVERY === 0 ? COMBO_LATER : 0;
}

// The next combo that earns a bonus after `count`: [at, seconds].
export function nextBonus(count) {
  const step = COMBO_BONUSES.find(([at]) => at > count);
  if (step) return step;
  const [last] = COMBO_BONUSES[COMBO_BONUSES.length - 1];
  return [count + COMBO_EVERY - ((count - last) % COMBO_EVERY), COMBO_LATER];
}

function storedRuns() {
  try {
    const runs = JSON.parse(localStorage.getItem(RUNS_KEY) || "[]");
    return Array.isArray(runs) ? runs.filter((r) => Number.isFinite(r.at) && Number.isFinite(r.score)) : [];
  } catch (err) {
    return []; // private mode, or a value another version wrote
  }
}

// This browser's best scores: today (since local midnight), the last 7 days and ever
// (`allTime`: at least the best kept before runs were listed).
export function bests(now, allTime = 0) {
  const runs = storedRuns();
  const midnight = new Date(now).setHours(0, 0, 0, 0);
  const best = (since) => Math.max(0, ...runs.filter((r) => r.at >= since).map((r) => r.score));
  return { day: best(midnight), week: best(now - WEEK_MS), all: Math.max(allTime, best(-Infinity)) };
}

export class Run {
  constructor() {
    this.score = 0;
    this.combo = 0;
    this.puzzles = []; // {id, rating, solved, moves}
    this.last = null; // the puzzle finished last (the server's view of it)
  }

  // A puzzle of the run finished: its record kept; solved, the combo grows and the
  // seconds it earns are returned (0 when none, or after a miss, which ends the combo).
  finished(puzzle, solved, moves) {
    if (this.last === puzzle) return 0; // once a puzzle (a solution asked after a miss)
    this.last = puzzle;
    this.puzzles.push({ id: puzzle.id, rating: Math.round(puzzle.rating.rating), solved, moves: [...moves] });
    if (!solved) {
      this.combo = 0;
      return 0;
    }
    this.score += 1;
    this.combo += 1;
    return comboBonus(this.combo);
  }

  // The combo line under the timer: the count, a bar to the next bonus, what it earns.
  renderCombo() {
    const box = $("#combo");
    box.hidden = false;
    const [at, seconds] = nextBonus(this.combo);
    const previous = [...COMBO_BONUSES.map(([a]) => a)].filter((a) => a <= this.combo).pop() || 0;
    const from = this.combo >= COMBO_BONUSES[COMBO_BONUSES.length - 1][0] ? at - COMBO_EVERY : previous;
    $("#combo-text").textContent = t("puzzle.run.combo", { count: this.combo, at, seconds });
    $("#combo-fill").style.width = `${Math.round(100 * (this.combo - from) / Math.max(1, at - from))}%`;
  }

  // The run ended: kept among this browser's runs, and the end screen shown.
  end(now, allTime) {
    $("#combo").hidden = true;
    const runs = [...storedRuns(), { at: now, score: this.score }].slice(-RUNS_KEPT);
    try { localStorage.setItem(RUNS_KEY, JSON.stringify(runs)); } catch (err) { /* private mode */ }
    const best = bests(now, allTime);
    $("#run-score").textContent = t("puzzle.run.score", { count: this.score });
    $("#run-today").textContent = String(best.day);
    $("#run-week").textContent = String(best.week);
    $("#run-all").textContent = String(best.all);
    const list = $("#run-puzzles");
    list.replaceChildren();
    for (const [i, p] of this.puzzles.entries()) {
      const item = document.createElement("li");
      item.dataset.result = p.solved ? "solved" : "missed";
      const link = document.createElement("a");
      link.href = `/puzzles/${encodeURIComponent(p.id)}`;
      link.textContent = t("puzzle.run.puzzle", { number: i + 1, rating: p.rating });
      const mark = document.createElement("span");
      mark.className = "run-mark";
      mark.textContent = p.solved ? t("puzzle.run.solved") : t("puzzle.run.missed");
      const moves = document.createElement("span");
      moves.className = "run-moves";
      moves.textContent = p.moves.length ? t("puzzle.run.moves", { moves: p.moves.join(" ") }) : "";
      item.append(link, " ", mark, " ", moves);
      list.appendChild(item);
    }
    $("#run-none").hidden = this.puzzles.length > 0;
    const dialog = $("#dlg-run");
    if (!dialog.open) dialog.showModal();
    $("#run-again").focus();
    return best.all;
  }
}
