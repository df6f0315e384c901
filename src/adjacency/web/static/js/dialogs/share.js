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
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = t("share.copied");
    } catch (err) {
      input.select();
      copy.textContent = t("share.press-copy");
    }
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
