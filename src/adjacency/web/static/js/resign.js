// Resign and abort: which side this browser gives up, whether it may still abort, and
// the confirmed request. The server decides (POST /api/games/{id}/resign and /abort);
// the page names the side it showed, so a two-people screen resigns for the side to move.

import { api } from "./api.js";
import { confirmAction } from "./dialogs/confirm.js";
import { label } from "./format.js";
import { t } from "./i18n.js";

// The person's side this browser resigns or aborts for, or null (watchers, bot games).
export function ownSide(game) {
  const s = game.state;
  if (!s) return null;
  const held = ["x", "o"].filter((c) => s[c].kind === "human" && game.viewer.seats.includes(c));
  if (held.length === 2) return s.turn;
  return held.length ? held[0] : null;
}

// Whether `side` may still abort: the game goes on and that side has not moved.
export function canAbort(game, side) {
  const s = game.state;
  return Boolean(side && s.status === "playing" && !s.moves.some((m) => m.color === side));
}

// Ask, then resign (or abort) for this browser's side; resolves to the new state or null.
export async function giveUp(game, { abort = false } = {}) {
  const side = ownSide(game);
  if (!side) return null;
  const who = label(game.state, side);
  const yes = await confirmAction(abort
    ? { title: t("abort.confirm.title"), text: t("abort.confirm.text", { player: who }), yes: t("play.abort") }
    : { title: t("resign.confirm.title"), text: t("resign.confirm.text", { player: who }), yes: t("play.resign") });
  if (!yes) return null;
  return abort ? api.abort(game.state.id, side) : api.resign(game.state.id, side);
}
