// The end-of-game dialog: who won, the score, and how it ended. The holder of one side
// (a friend game's seat, a game against a bot) is told "You won" or "You lost" and
// offered a rematch; watchers, and one browser holding both people's seats, read who
// won. An aborted game says so and offers no review (nothing was played to review).

import { pieceSvg } from "../board.js";
import { endDetail, label, termination } from "../format.js";
import { lang, t } from "../i18n.js";
import { shownName } from "../levels.js";
import { $ } from "../dom.js";

// The winner's name, with the side where both players have the same one (two bots of
// one level): "X (Club bot)".
function winnerName(s) {
  const [x, o] = [shownName(s.x, "x"), shownName(s.o, "o")];
  return x === o ? label(s, s.result) : shownName(s[s.result], s.result);
}

// The one side this browser plays in `s`, or null (a watcher, both seats, two bots).
function ownSide(s, viewer) {
  const people = ["x", "o"].filter((c) => s[c].kind === "human");
  if (viewer.seats.length === 1 && people.includes(viewer.seats[0])) return viewer.seats[0];
  if (s.mode === "human-bot" && people.length === 1 && (viewer.seats.length > 0 || viewer.owner)) return people[0];
  return null;
}

export function showResult(s, viewer) {
  if (!s || s.status !== "over") return;
  const dialog = $("#dlg-result");
  const [x, o] = s.score;
  const mine = ownSide(s, viewer);
  const player = viewer.seats.length > 0 || viewer.owner; // a bot game's creator rematches
  const aborted = s.detail_code === "aborted";
  let title;
  if (s.result === "draw") title = t("result.draw");
  else if (aborted) title = t("result.aborted");
  else if (s.result === null) title = t("result.stopped");
  else if (mine) title = s.result === mine ? t("result.you-win") : t("result.you-lost");
  else title = t("result.wins", { name: winnerName(s) });
  $("#result-title").textContent = title;
  // The termination's detail in the page's language; the server's English only on English
  // pages (an engine's own words have no catalogue message).
  const known = lang === "en" || s.detail_code;
  const text = s.termination !== "normal" && known ? endDetail(s) : "";
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
