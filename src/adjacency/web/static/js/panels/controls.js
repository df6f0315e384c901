// The action buttons: undo (or, between devices, a takeback offer), hint, abort or resign
// (people), play/pause/step/speed (bot vs bot), the move navigation, the typed move and
// the record download. With no game open every one of them is disabled.

import { api } from "../api.js";
import { t } from "../i18n.js";
import { canAbort, ownSide } from "../resign.js";
import { $ } from "../dom.js";

// The controls that act on a game: disabled while none is open (renderControls enables
// what the open game allows).
const GAME_CONTROLS = ["#btn-undo", "#btn-takeback", "#btn-hint", "#btn-resign", "#btn-abort",
  "#btn-move-now", "#btn-play-pause", "#btn-step", "#speed", "#nav-first", "#nav-back",
  "#nav-forward", "#nav-last", "#btn-flip", "#move-input", "#move-submit", "#btn-rematch",
  "#btn-share", "#btn-analyse", "#btn-review"];

export function renderNoGame() {
  for (const selector of GAME_CONTROLS) $(selector).disabled = true;
  const save = $("#btn-save");
  save.removeAttribute("href"); // no link to follow: not a control until a game opens,
  save.setAttribute("aria-disabled", "true"); // and it looks and reads as disabled
  $("#nav-pos").textContent = "";
  $("#offer").hidden = true;
}

export function renderControls(game) {
  const s = game.state;
  const botGame = s.mode === "bot-bot";
  const playing = s.status === "playing";
  $("#human-actions").hidden = botGame || game.watching; // watchers only watch
  $("#bot-actions").hidden = !botGame;
  // Between devices hints are off and a takeback is an offer the other player answers.
  const between = game.viewer.invite;
  $("#btn-undo").hidden = $("#btn-hint").hidden = between;
  $("#btn-takeback").hidden = !between;
  // A finished game stays finished: its moves are studied as variations, never taken back.
  $("#btn-undo").disabled = !s.can_undo || between || game.watching || !playing;
  const mine = game.viewer.seats.length === 1 ? game.viewer.seats[0] : null;
  $("#btn-takeback").disabled = !(between && playing && mine && s.moves.some((m) => m.color === mine))
    || Boolean(s.offer && s.offer.by === mine);
  $("#btn-hint").disabled = !(playing && game.canMove && game.live) || game.hintPending || between;
  // Watchers (neither a seat nor the creator's browser) have no rematch to ask for.
  const spectator = game.watching && !game.viewer.owner;
  $("#btn-rematch").hidden = spectator;
  $("#btn-rematch").disabled = spectator || playing || Boolean(between && s.offer && s.offer.kind === "rematch" && s.offer.by === mine);
  $("#move-form").hidden = game.watching; // only a player types moves
  $("#move-input").disabled = $("#move-submit").disabled = false;
  $("#btn-flip").disabled = $("#btn-share").disabled = $("#btn-analyse").disabled = false;
  $("#speed").disabled = !botGame;
  const side = ownSide(game);
  const abort = canAbort(game, side);
  $("#btn-abort").hidden = !abort;
  $("#btn-abort").disabled = !abort;
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
  $("#btn-save").removeAttribute("aria-disabled");
  $("#btn-save").setAttribute("download", `adjacency-${s.id}.txt`);
}
