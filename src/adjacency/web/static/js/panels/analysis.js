// The analysis panel: the engine's top 3 moves with scores and lines, updating as the
// search deepens, and the exact result under perfect play when the solver reaches it
// (with the moves that keep it). One analysis at a time; Stop or Close ends it.
// Every score is from X's side (the margin X − O under the line). A line is a button:
// it plays its first move into the variation tree (onLine), its "line" button the whole
// line. `result` is the position's value for the evaluation bar (onValue); the server
// reports only depths whose horizon falls on an even ply of the game, so it does not flip. Under the lines,
// the opening explorer (explorer.js) shows the stored games' moves from the same position.
// The panel is no live region: a screen reader hears only what changed of its summary
// (the exact result, the best move and its score; not each deeper depth), at most once a
// second (polite.js), through its own polite region (#analysis-said).

import { formatEval } from "../format.js";
import { lang, t } from "../i18n.js";
import { streamEvents } from "../stream.js";
import { $ } from "../dom.js";
import { Polite } from "../polite.js";
import { ExplorerPanel } from "./explorer.js";

const RETRIES = 6;
const PARTLY = { "book": "analysis.why.book", "book-partial": "analysis.why.book-partial", "solved-partial": "analysis.why.partial" };

// The exact result's words: the server's on English pages, else the catalogue's from the
// event's value (X's view) and `why`.
function exactText(data) {
  if (lang === "en" || !data.why) return data.text;
  if (data.value === null) {
    return data.why === "too-far" ? t("analysis.why.too-far", { count: data.plies })
      : t("analysis.why.beyond-reach", { seconds: data.seconds });
  }
  const result = data.value === 0 ? t("analysis.draw-perfect")
    : t("analysis.wins-perfect", { side: data.value > 0 ? "X" : "O", count: Math.abs(data.value) });
  return data.why in PARTLY ? `${result}${t(PARTLY[data.why])}` : result;
}

export class AnalysisPanel {
  constructor({ onStateChange = () => {}, onLine = (_fen, _moves) => {}, onValue = () => {} } = {}) {
    this.fen = null;
    this.result = null; // {fen, value (X's view), exact, depth}
    this.values = new Map(); // fen -> the latest result of every position analysed here
    this.onLine = onLine;
    this.onValue = onValue;
    this.controller = null;
    this.running = false;
    this.onStateChange = onStateChange;
    this.summary = { exact: "", best: "" }; // what the region says of the position shown
    this.polite = new Polite({ say: (text) => { $("#analysis-said").textContent = text; } });
    // The stored games' moves from the same position: a click plays one as the lines do.
    this.explorer = new ExplorerPanel({ onMove: (fen, move) => this.onLine(fen, [move]) });
    $("#analysis-stop").addEventListener("click", () => this.stop());
    $("#analysis-close").addEventListener("click", () => this.close());
  }

  // The latest value this page's analyses gave the position `fen`, or null.
  valueOf(fen) {
    return this.values.get(fen) || null;
  }

  get open() {
    return !$("#analysis").hidden;
  }

  show(title) {
    $("#analysis").hidden = false;
    $("#analysis-title").textContent = title;
    this.onStateChange();
  }

  // No position to analyse (the game is over at the one shown): the panel says `text`,
  // and what belongs to a position (its scores' key, its text, "Play from here", the
  // explorer) is hidden rather than left empty.
  nothing(text) {
    this.stop();
    this.explorer.stop();
    this.fen = null;
    this.result = null;
    this.onValue();
    $("#analysis").classList.add("no-position");
    $("#analysis-exact").textContent = text;
    $("#analysis-exact").className = "exact unknown";
    $("#analysis-lines").replaceChildren();
    $("#analysis-depth").textContent = "";
  }

  // Analyse the position `fen` (does nothing if it is the one being shown).
  follow(fen) {
    if (fen === this.fen && (this.running || this.finished)) return;
    this.start(fen);
  }

  // A 429 (the server's analyses are all busy, often with the one just stopped, whose
  // engine is still winding down) is tried again a few times while the position is shown.
  start(fen, tries = 0) {
    this.stop();
    this.fen = fen;
    this.finished = false;
    this.running = true;
    this.result = null;
    this.onValue();
    $("#analysis").classList.remove("no-position");
    $("#analysis-fen").textContent = fen;
    this.polite.reset();
    this.summary = { exact: "", best: "" };
    if (tries === 0) this.explorer.load(fen);
    $("#analysis-exact").textContent = t("analysis.solving");
    $("#analysis-exact").className = "exact";
    $("#analysis-lines").replaceChildren();
    $("#analysis-depth").textContent = t("analysis.starting");
    $("#analysis-stop").disabled = false;
    const controller = new AbortController();
    this.controller = controller;
    streamEvents(`/api/analysis/live?fen=${encodeURIComponent(fen)}`, (event, data) => {
      if (this.controller !== controller) return;
      this.onEvent(event, data);
    }, controller.signal).catch((err) => {
      if (this.controller !== controller) return;
      if (err.status === 429 && tries < RETRIES) {
        setTimeout(() => { if (this.controller === controller) this.start(fen, tries + 1); }, 300 * (tries + 1));
        return;
      }
      $("#analysis-exact").textContent = err.message;
      $("#analysis-exact").className = "exact error";
    }).finally(() => {
      if (this.controller !== controller) return;
      this.running = false;
      this.finished = true;
      $("#analysis-stop").disabled = true;
      if ($("#analysis-depth").textContent === t("analysis.starting")) $("#analysis-depth").textContent = "";
      this.onStateChange();
    });
    this.onStateChange();
  }

  onEvent(event, data) {
    if (event === "exact") {
      const node = $("#analysis-exact");
      if (data.value === null) {
        node.textContent = t("analysis.exact", { text: exactText(data) });
        node.className = "exact unknown";
      } else {
        node.textContent = t("analysis.keeps", { text: exactText(data), moves: data.keeps.join(", ") });
        node.className = "exact known";
        node.dataset.value = String(data.value);
        node.dataset.keeps = data.keeps.join(" ");
        this.result = { fen: this.fen, value: data.value, exact: true, depth: null };
        this.values.set(this.fen, this.result);
        this.onValue();
      }
      this.tell({ exact: node.textContent });
    } else if (event === "lines") {
      $("#analysis-depth").textContent = t("thinking.depth", { depth: data.depth });
      const list = $("#analysis-lines");
      list.replaceChildren();
      const fen = this.fen;
      for (const line of data.lines) {
        const li = document.createElement("li");
        li.dataset.move = line.move;
        const play = document.createElement("button");
        play.type = "button";
        play.className = "line-play";
        const score = document.createElement("span");
        score.className = "score";
        score.dataset.value = String(line.score);
        score.textContent = line.score === 0 ? "0.0" : formatEval(line.score);
        const move = document.createElement("strong");
        move.textContent = line.move;
        const pv = document.createElement("span");
        pv.className = "pv";
        pv.textContent = line.pv.slice(1).join(" ");
        play.append(score, " ", move, " ", pv);
        play.title = t("analysis.line.play", { move: line.move });
        play.addEventListener("click", () => this.onLine(fen, [line.move]));
        li.appendChild(play);
        if (line.pv.length > 1) {
          const whole = document.createElement("button");
          whole.type = "button";
          whole.className = "btn small line-whole";
          whole.textContent = t("analysis.line.whole");
          whole.setAttribute("aria-label", t("analysis.line.whole.label", { moves: line.pv.join(" ") }));
          whole.addEventListener("click", () => this.onLine(fen, line.pv));
          li.appendChild(whole);
        }
        list.appendChild(li);
      }
      if (data.lines.length) {
        const top = data.lines[0];
        const score = top.score === 0 ? "0.0" : formatEval(top.score);
        this.tell({ best: t("analysis.say.best", { move: top.move, score }) });
      }
      if (data.lines.length && !(this.result && this.result.exact)) {
        this.result = { fen: this.fen, value: data.lines[0].score, exact: false, depth: data.depth };
        this.values.set(this.fen, this.result);
        this.onValue();
      }
    } else if (event === "done") {
      const reason = ["complete", "time", "stopped"].includes(data.reason) ? t(`analysis.done.${data.reason}`) : data.reason;
      $("#analysis-depth").textContent = `${$("#analysis-depth").textContent} · ${reason}`;
    } else if (event === "failed") {
      $("#analysis-exact").textContent = t("analysis.failed", { detail: data.detail });
    }
  }

  // The summary's changed parts, offered to the polite region.
  tell(parts) {
    this.summary = { ...this.summary, ...parts };
    this.polite.offer(this.summary);
  }

  stop() {
    if (this.controller) this.controller.abort();
    if (this.running) {
      this.running = false;
      this.finished = true;
      $("#analysis-depth").textContent += ` · ${t("analysis.done.stopped")}`;
    }
    $("#analysis-stop").disabled = true;
  }

  close() {
    this.stop();
    this.explorer.stop();
    this.controller = null;
    this.fen = null;
    this.result = null;
    this.polite.reset();
    $("#analysis").hidden = true;
    this.onValue();
    this.onStateChange();
  }
}
