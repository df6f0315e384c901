// The action buttons: undo, hint, abort or resign (people), play/pause/step/speed (bot
// vs bot), the move navigation and the record download.

import { api } from "../api.js";
import { t } from "../i18n.js";
import { canAbort, ownSide } from "../resign.js";

const $ = (selector) => document.querySelector(selector);

export function renderControls(game) {
  const s = game.state;
  const botGame = s.mode === "bot-bot";
  const playing = s.status === "playing";
  $("#human-actions").hidden = botGame || game.watching; // watchers only watch
  $("#bot-actions").hidden = !botGame;
  const between = game.viewer.invite; // takebacks and hints are off between devices
  $("#btn-undo").hidden = $("#btn-hint").hidden = between;
  $("#btn-undo").disabled = !s.can_undo || between || game.watching;
  $("#btn-hint").disabled = !(playing && game.canMove && game.live) || game.hintPending || between;
  $("#btn-rematch").disabled = game.watching;
  const side = ownSide(game);
  const abort = canAbort(game, side);
  $("#btn-abort").hidden = !abort;
  $("#btn-resign").hidden = abort || !side;
  $("#btn-resign").disabled = !playing;
  $("#btn-move-now").disabled = !game.thinking;
  const pp = $("#btn-play-pause");
  const icon = s.paused ? "M7 5l12 7-12 7z" : "M8 5v14M16 5v14";
  pp.innerHTML = `<svg class="ico${s.paused ? "" : " line"}" viewBox="0 0 24 24" aria-hidden="true">` +
    `<path d="${icon}"/></svg> <span></span>`;
  pp.querySelector("span").textContent = s.paused ? t("play.play") : t("play.pause");
  pp.disabled = !playing;
  $("#btn-step").disabled = !playing || !s.paused;
  const speed = $("#speed");
  const value = String(s.delay);
  if (![...speed.options].some((o) => o.value === value)) speed.appendChild(new Option(`${value} s`, value));
  speed.value = value;
  const ply = game.shownPly;
  $("#nav-first").disabled = ply === 0;
  $("#nav-back").disabled = ply === 0;
  $("#nav-forward").disabled = ply >= s.moves.length;
  $("#nav-last").disabled = ply >= s.moves.length;
  $("#nav-pos").textContent = `${ply} / ${s.moves.length}`; // the graph's "ply N of M" names the same N
  $("#btn-save").href = api.recordUrl(s.id);
  $("#btn-save").setAttribute("download", `adjacency-${s.id}.txt`);
}
