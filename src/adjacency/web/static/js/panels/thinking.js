// The thinking panel: which bot thinks, for how long, its depth, score and best line.

import { formatEval, label } from "../format.js";
import { decimal, t } from "../i18n.js";
import { $ } from "../dom.js";

export function renderThinking(game) {
  const panel = $("#thinking");
  const thinking = game.thinking;
  const s = game.state;
  if (!thinking || !s || s.status !== "playing") {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const info = thinking.info;
  $("#thinking-who").textContent = t("thinking.who", { player: label(s, info.color) });
  const elapsed = Math.max(0, (performance.now() - thinking.since) / 1000);
  // With a clock the bot's budget comes from its clock (shown in its bar).
  const limit = Math.min(s.time, s[info.color].time_cap || Infinity);
  const parts = [s.clock ? `${decimal(elapsed, 1)} s` : `${decimal(elapsed, 1)} s / ${decimal(limit, 2, 0)} s`];
  if (info.depth !== null && info.depth !== undefined) parts.push(t("thinking.depth", { depth: info.depth }));
  if (info.score !== null && info.score !== undefined) parts.push(t("thinking.eval", { score: formatEval(info.score) }));
  const details = $("#thinking-details");
  details.replaceChildren();
  parts.forEach((part, i) => {
    const span = document.createElement("span");
    span.className = "part";
    span.textContent = i ? ` · ${part}` : part;
    details.appendChild(span);
  });
  $("#thinking-pv").textContent = info.pv && info.pv.length ? t("thinking.pv", { line: info.pv.slice(0, 5).join(" ") }) : "";
}
