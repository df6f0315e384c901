// The share dialog: the watch link (any game) and, for a game between devices, the seat
// links its creator received. Seat links carry their token in the fragment (#seat=...),
// which browsers never send to a server; this browser keeps them in localStorage only.

import { t } from "../i18n.js";

const $ = (selector) => document.querySelector(selector);
const KEY = (id) => `adjacency.invite.${id}`;

export function rememberInvite(id, tokens) {
  try { localStorage.setItem(KEY(id), JSON.stringify(tokens)); } catch (err) { /* private mode */ }
}

function remembered(id) {
  try { return JSON.parse(localStorage.getItem(KEY(id)) || "null"); } catch (err) { return null; }
}

export function watchLink(id) {
  return `${window.location.origin}/?game=${encodeURIComponent(id)}`;
}

export function seatLink(id, token) {
  return `${watchLink(id)}#seat=${token}`;
}

// Copy a text field's value: the Clipboard API where the page may use it (a secure
// context: https or localhost), else the selected field and the browser's copy command,
// which also works on a server reached over plain http (`--host 0.0.0.0` on a LAN). When
// both fail the text stays selected for the person's own Copy. Resolves to whether it
// was copied.
export async function copyText(input) {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(input.value);
      return true;
    } catch (err) { /* refused (no permission): fall back to the selection */ }
  }
  input.focus();
  input.select();
  input.setSelectionRange(0, input.value.length); // iOS selects nothing with select() alone
  try {
    return document.execCommand("copy");
  } catch (err) {
    return false;
  }
}

function linkRow(title, url, name) {
  const label = document.createElement("label");
  label.textContent = title;
  const row = document.createElement("span");
  row.className = "row";
  const input = document.createElement("input");
  input.readOnly = true;
  input.value = url;
  input.name = name;
  input.addEventListener("focus", () => input.select());
  const copy = document.createElement("button");
  copy.type = "button";
  copy.className = "btn small";
  copy.textContent = t("share.copy");
  copy.addEventListener("click", async () => {
    copy.textContent = (await copyText(input)) ? t("share.copied") : t("share.press-copy");
  });
  row.append(input, copy);
  label.appendChild(row);
  return label;
}

export function showShare(state, viewer) {
  const id = state.id;
  const box = $("#invite-links");
  box.replaceChildren();
  const tokens = remembered(id);
  const mine = viewer.seats;
  if (tokens) {
    for (const color of ["x", "o"]) {
      if (!tokens[color]) continue;
      const key = mine.includes(color) ? "share.seat.yours" : "share.seat";
      box.appendChild(linkRow(t(key, { side: color.toUpperCase(), name: state[color].name }),
        seatLink(id, tokens[color]), `seat-${color}`));
    }
    $("#invite-text").textContent = t("share.invite-text");
  } else {
    $("#invite-text").textContent = t("share.watch-text");
  }
  box.appendChild(linkRow(t("share.watch"), watchLink(id), "watch"));
  const dialog = $("#dlg-invite");
  if (!dialog.open) dialog.showModal();
}
