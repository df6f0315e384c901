// The end-of-game dialog: who won, the score, and how it ended. Only a player is told
// "You win" or "You lost" and offered a rematch; watchers read who won. An aborted game
// says so and offers no review (nothing was played to review).

import { pieceSvg } from "../board.js";
import { label, termination } from "../format.js";
import { detailText, lang, t } from "../i18n.js";
import { $ } from "../dom.js";

// The winner's name, with the side where both players have the same one (two bots of
// one level): "X (Club bot)".
function winnerName(s) {
  return s.x.name === s.o.name ? label(s, s.result) : s[s.result].name;
}

export function showResult(s, viewer) {
  if (!s || s.status !== "over") return;
  const dialog = $("#dlg-result");
  const [x, o] = s.score;
  const humans = ["x", "o"].filter((c) => s[c].kind === "human");
  const player = viewer.seats.length > 0 || viewer.owner; // a bot game's creator rematches
  const aborted = s.detail_code === "aborted";
  let title;
  if (s.result === "draw") title = t("result.draw");
  else if (aborted) title = t("result.aborted");
  else if (s.result === null) title = t("result.stopped");
  else if (s.mode === "human-bot" && player) title = humans.includes(s.result) ? t("result.you-win") : t("result.you-lost");
  else title = t("result.wins", { name: winnerName(s) });
  $("#result-title").textContent = title;
  // The termination's detail in the page's language; the server's English only on English
  // pages (an engine's own words have no catalogue message).
  const known = lang === "en" || s.detail_code;
  const text = s.termination !== "normal" && known ? detailText({ ...s, detail: s.termination_detail }) : "";
  const detail = text ? ` ${text}` : "";
  const ended = s.termination !== "normal" && !aborted ? ` ${t("result.ended", { how: termination(s.termination) })}` : "";
  $("#result-text").textContent = `${label(s, "x")} ${x} – ${o} ${label(s, "o")}.${ended}${detail}`;
  const badge = $("#result-badge");
  badge.replaceChildren();
  if (s.result === "x" || s.result === "o") badge.appendChild(pieceSvg(s.result));
  else badge.append(pieceSvg("x", "half"), pieceSvg("o", "half"));
  $("#result-rematch").hidden = !player;
  $("#result-review").hidden = aborted || !s.moves.length;
  if (!dialog.open) dialog.showModal();
  $(player ? "#result-rematch" : "#result-new").focus();
}
