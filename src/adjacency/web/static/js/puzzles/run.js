// A run of puzzles on the page: a streak (lichess's Puzzle Streak) or a timed run
// (lichess's Puzzle Storm). What it counts (skips, the player's clock, the combo, the end
// screen's figures, the bests) is tally.js's; this draws it: the combo bar under the
// timer, and the end screen, one dialog for both modes: why the run ended (a streak's
// miss or the time up, or stopped by its button), the score, moves, accuracy, best combo,
// time, time per puzzle, the highest puzzle solved, this browser's best score of the
// mode today, over the last 7 days and ever (with the periods this run beat), and the
// run's puzzles, the missed ones marked, each a link to play it again.
// A person here is a browser (there are no accounts): its runs of each mode are kept in
// localStorage (the newest RUNS_KEPT, and the all-time best apart, so it outlives them).

import { decimal, t } from "../i18n.js";
import { $ } from "../dom.js";
import { PERIODS, RunClock, Tally, bestsOf, keptRuns, nextBonus, records } from "./tally.js";

const RUNS_KEY = { timed: "adjacency.puzzles.timed-runs", streak: "adjacency.puzzles.streak-runs" };
const BEST_KEY = { timed: "adjacency.puzzles.timed-best", streak: "adjacency.puzzles.streak-best" };
const RUNS_KEPT = 500;

// The end screen's title by mode and why the run ended.
const TITLES = {
  "timed/time": "puzzle.run.title",
  "timed/stopped": "puzzle.run.title.stopped",
  "streak/missed": "puzzle.run.title.streak-over",
  "streak/stopped": "puzzle.run.title.streak-stopped",
};

function read(key, fallback) {
  try {
    return localStorage.getItem(key) ?? fallback;
  } catch (err) {
    return fallback; // private mode
  }
}

function write(key, value) {
  try { localStorage.setItem(key, value); } catch (err) { /* private mode: kept for this page only */ }
}

function storedRuns(mode) {
  try {
    return keptRuns(JSON.parse(read(RUNS_KEY[mode], "[]")));
  } catch (err) {
    return []; // a value another version wrote
  }
}

function storedBest(mode) {
  return Number(read(BEST_KEY[mode], "0")) || 0;
}

/** This browser's best scores of `mode` at `now`: {day, week, all}. */
export function bests(mode, now) {
  return bestsOf(storedRuns(mode), now, storedBest(mode));
}

// "2:05": whole seconds as minutes and seconds.
export function clockText(seconds) {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

export class Run extends Tally {
  /** `mode` "streak" or "timed", started at `now`, with `seconds` on its clock. */
  constructor(mode, now, seconds = Infinity) {
    super(mode, new RunClock(seconds * 1000, now));
  }

  // The combo line under the timer: the count, a bar to the next bonus, what it earns.
  renderCombo() {
    const box = $("#combo");
    box.hidden = false;
    const { at, seconds, from } = nextBonus(this.combo);
    $("#combo-text").textContent = t("puzzle.run.combo", { count: this.combo, at, seconds });
    $("#combo-fill").style.width = `${Math.round(100 * (this.combo - from) / Math.max(1, at - from))}%`;
  }

  // The run ended at `now` (`reason`: "time", "missed" or "stopped"): kept among this
  // browser's runs of its mode, and its end screen shown unless `show` is false (a run
  // ended by starting another or replaying misses). Returns the bests with it counted.
  end(reason, now, show = true) {
    this.clock.stand(now);
    if (this.mode === "timed") $("#combo").hidden = true;
    const runs = storedRuns(this.mode);
    const floor = storedBest(this.mode);
    const beaten = records(runs, this.score, now, floor);
    const kept = [...runs, { at: now, score: this.score }].slice(-RUNS_KEPT);
    const best = bestsOf(kept, now, floor);
    write(RUNS_KEY[this.mode], JSON.stringify(kept));
    write(BEST_KEY[this.mode], String(best.all));
    if (show) this.render(reason, now, best, beaten);
    return best;
  }

  render(reason, now, best, beaten) {
    const dialog = $("#dlg-run");
    dialog.dataset.mode = this.mode;
    dialog.dataset.end = reason;
    $("#run-title").textContent = t(TITLES[`${this.mode}/${reason}`] || "puzzle.run.title.stopped");
    const figures = this.figures(now);
    $("#run-score").textContent = t("puzzle.run.score", { count: figures.score });
    const widest = beaten[beaten.length - 1];
    $("#run-record").hidden = !widest;
    $("#run-record").textContent = widest ? t(`puzzle.run.record.${widest}`) : "";
    const none = t("puzzle.run.none-yet");
    $("#run-moves").textContent = String(figures.moves);
    $("#run-accuracy").textContent = figures.accuracy === null ? none : t("puzzle.run.percent", { value: figures.accuracy });
    $("#run-combo").textContent = String(figures.bestCombo);
    $("#run-time").textContent = clockText(figures.time);
    $("#run-per").textContent = figures.perPuzzle === null ? none : t("puzzle.run.seconds", { seconds: decimal(figures.perPuzzle, 1) });
    $("#run-highest").textContent = figures.highest === null ? none : String(figures.highest);
    for (const period of PERIODS) $(`#run-${period === "day" ? "today" : period}`).textContent = String(best[period]);
    $("#run-missed-count").textContent = t("puzzle.run.missed-count", { count: figures.missed.length });
    const list = $("#run-puzzles");
    list.replaceChildren();
    for (const [i, p] of this.puzzles.entries()) {
      const item = document.createElement("li");
      item.dataset.result = p.result;
      const link = document.createElement("a");
      link.href = `/puzzles/${encodeURIComponent(p.id)}`;
      link.textContent = t("puzzle.run.puzzle", { number: i + 1, rating: String(p.rating) }); // "1617", as the page shows ratings
      const mark = document.createElement("span");
      mark.className = "run-mark";
      mark.textContent = t(`puzzle.run.${p.result}`);
      const moves = document.createElement("span");
      moves.className = "run-moves";
      moves.textContent = p.moves.length ? t("puzzle.run.moves", { moves: p.moves.join(" ") }) : "";
      item.append(link, " ", mark, " ", moves);
      list.appendChild(item);
    }
    $("#run-none").hidden = this.puzzles.length > 0;
    if (!dialog.open) dialog.showModal();
    $("#run-again").focus();
  }
}
