// The game review's own parts of the page: its progress bar and the per-player summary
// (the server's `progress` and `summary` events, see adjacency.lab.review.review).

import { formatSquares } from "../format.js";
import { decimal, t } from "../i18n.js";

// Show the review's progress: `done` of `total` moves judged; null hides the bar.
export function showReviewProgress(bar, progress) {
  bar.hidden = !progress;
  if (!progress) return;
  bar.max = Math.max(1, progress.total);
  bar.value = progress.done;
  bar.setAttribute("aria-valuetext", t("review.progress.text", { done: progress.done, total: progress.total }));
}

// The summary as a table: a row per measure, a column per player (X, O). Seven measures
// side by side overflowed the side column (and broke their headers mid-word on a phone);
// two players' columns fit any width with every header whole.
export function renderReviewSummary(container, summary) {
  container.hidden = !summary;
  if (!summary) {
    container.replaceChildren();
    return;
  }
  const table = document.createElement("table");
  table.className = "review-summary-table";
  const caption = document.createElement("caption");
  caption.textContent = t("review.summary.title");
  table.appendChild(caption);
  const head = document.createElement("tr");
  const corner = document.createElement("td");
  head.appendChild(corner);
  for (const color of ["x", "o"]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = color.toUpperCase();
    head.appendChild(th);
  }
  const thead = document.createElement("thead");
  thead.appendChild(head);
  table.appendChild(thead);
  const cells = {
    accuracy: (row) => `${decimal(row.accuracy, 1)}%`,
    inaccuracies: (row) => row.inaccuracies,
    mistakes: (row) => row.mistakes,
    blunders: (row) => row.blunders,
    loss: (row) => formatSquares(row.loss),
    exact: (row) => `${row.exact}/${row.moves}`,
  };
  const body = document.createElement("tbody");
  for (const [key, cell] of Object.entries(cells)) {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = t(`review.summary.${key}`);
    tr.appendChild(th);
    for (const color of ["x", "o"]) {
      const td = document.createElement("td");
      td.textContent = String(cell(summary[color]));
      td.dataset.side = color;
      tr.appendChild(td);
    }
    tr.dataset.measure = key;
    body.appendChild(tr);
  }
  table.appendChild(body);
  // What "squares given away" counts: a winner's total is seldom 0, and a bare "lost 19.9"
  // beside a won game read as a contradiction.
  const note = document.createElement("p");
  note.className = "review-summary-note";
  note.textContent = t("review.summary.note");
  container.replaceChildren(table, note);
}
