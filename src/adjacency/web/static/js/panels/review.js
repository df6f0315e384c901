// The game review's own parts of the page: its progress bar and the per-player summary
// (the server's `progress` and `summary` events, see adjacency.web.analysis.review).

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

// The summary as a table, one row per player; null empties and hides the container.
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
  for (const key of ["player", "accuracy", "inaccuracies", "mistakes", "blunders", "loss", "exact"]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = t(`review.summary.${key}`);
    head.appendChild(th);
  }
  const thead = document.createElement("thead");
  thead.appendChild(head);
  table.appendChild(thead);
  const body = document.createElement("tbody");
  for (const color of ["x", "o"]) {
    const row = summary[color];
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = color.toUpperCase();
    tr.appendChild(th);
    for (const cell of [`${decimal(row.accuracy, 1)}%`, row.inaccuracies, row.mistakes, row.blunders,
      formatSquares(row.loss), `${row.exact}/${row.moves}`]) {
      const td = document.createElement("td");
      td.textContent = String(cell);
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  table.appendChild(body);
  container.replaceChildren(table);
}
