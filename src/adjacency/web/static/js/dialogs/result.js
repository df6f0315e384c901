// The end-of-game dialog: who won, the score, and how it ended.

import { pieceSvg } from "../board.js";
import { label } from "../format.js";

const $ = (selector) => document.querySelector(selector);

export function showResult(s) {
  if (!s || s.status !== "over") return;
  const dialog = $("#dlg-result");
  const [x, o] = s.score;
  const humans = ["x", "o"].filter((c) => s[c].kind === "human");
  let title;
  if (s.result === "draw") title = "Draw";
  else if (s.result === null) title = "Game stopped";
  else if (s.mode === "human-bot") title = humans.includes(s.result) ? "You win!" : "You lost";
  else title = `${s[s.result].name} wins`;
  $("#result-title").textContent = title;
  const detail = s.termination !== "normal" && s.termination_detail ? ` ${s.termination_detail}` : "";
  const ended = s.termination !== "normal" ? ` Ended by ${s.termination}.` : "";
  $("#result-text").textContent = `${label(s, "x")} ${x} – ${o} ${label(s, "o")}.${ended}${detail}`;
  const badge = $("#result-badge");
  badge.replaceChildren();
  if (s.result === "x" || s.result === "o") badge.appendChild(pieceSvg(s.result));
  else badge.append(pieceSvg("x", "half"), pieceSvg("o", "half"));
  if (!dialog.open) dialog.showModal();
  $("#result-rematch").focus();
}
