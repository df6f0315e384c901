// The offer panel of a game between devices: a rematch or a takeback offered by one
// player, answered (accept, decline) by the other or withdrawn by its maker. The server
// keeps the offer in the game's state (`offer`), so both devices show it from the same
// event; watchers and games on one device never see the panel.

import { t } from "../i18n.js";
import { $ } from "../dom.js";

// The one seat this browser plays in a game between devices, or null (watching, or a
// game on one device, where rematch and undo act at once).
export function offerSide(game) {
  const seats = game.viewer.seats;
  return game.state && game.viewer.invite && seats.length === 1 ? seats[0] : null;
}

// The offer's line for this browser ("You offered ...", "Ann offers ..."), or "" for none.
export function offerText(game) {
  const s = game.state;
  const side = offerSide(game);
  if (!s || !s.offer || !side) return "";
  const mine = s.offer.by === side;
  const other = mine ? (side === "x" ? "o" : "x") : s.offer.by;
  return t(`offer.${s.offer.kind}.${mine ? "sent" : "received"}`, { name: s[other].name });
}

export function renderOffer(game) {
  const text = offerText(game);
  $("#offer").hidden = !text;
  if (!text) return;
  const mine = game.state.offer.by === offerSide(game);
  $("#offer-text").textContent = text;
  $("#offer-accept").hidden = $("#offer-decline").hidden = mine;
  $("#offer-withdraw").hidden = !mine;
}
