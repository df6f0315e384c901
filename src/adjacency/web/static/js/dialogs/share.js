// The share dialog: the watch link (any game) and, for a game between devices, the seat
// links its creator received. Seat links carry their token in the fragment (#seat=...),
// which browsers never send to a server; this browser keeps them in localStorage only.
// Each link comes with the ways a phone takes it: the system's share sheet (Web Share
// API, where the browser has one), its QR code (drawn by the server: web/qr.py), and for a
// seat a short code to type on the main page of the other device (Join, wired below).

import { api } from "../api.js";
import { t } from "../i18n.js";
import { shownName } from "../levels.js";
import { $, smallButton } from "../dom.js";

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

// What to say when the text is selected but could not be copied: the keys on a
// keyboard, the long press on a touch screen (where there is no Ctrl-C to press).
export function copyHint() {
  if (window.matchMedia("(pointer: coarse)").matches) return t("share.press-copy.touch");
  const mac = /Mac|iPhone|iPad/.test(navigator.platform || "");
  return t("share.press-copy.keys", { keys: mac ? "⌘C" : "Ctrl+C" });
}

// The QR code of one of the game's links, drawn by the server as an SVG: the watch link,
// or with `token` that seat's link (the token in the body, never in a URL). It is added
// to `box` when it comes; if it cannot come, the link and its code still work.
async function showQr(box, id, token, url, label) {
  let drawn;
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(id)}/qr`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(token ? { token } : {}),
    });
    if (!response.ok) return;
    drawn = new DOMParser().parseFromString(await response.text(), "image/svg+xml").documentElement;
  } catch (err) {
    return;
  }
  if (!(drawn instanceof SVGSVGElement)) return; // not an SVG (a parse error)
  const svg = /** @type {SVGSVGElement} */ (document.importNode(drawn, true));
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("shape-rendering", "crispEdges");
  svg.dataset.text = url;
  box.appendChild(svg);
}

function linkRow(title, url, name) {
  const box = document.createElement("div");
  box.className = "share-item";
  box.dataset.link = name;
  const label = document.createElement("label");
  label.textContent = title;
  const row = document.createElement("span");
  row.className = "row";
  const input = document.createElement("input");
  input.readOnly = true;
  input.value = url;
  input.name = name;
  input.addEventListener("focus", () => input.select());
  const status = document.createElement("p");
  status.className = "copy-status";
  status.setAttribute("role", "status");
  const copy = smallButton(t("share.copy"), async () => {
    const copied = await copyText(input);
    copy.textContent = copied ? t("share.copied") : t("share.copy");
    status.textContent = copied ? "" : copyHint();
  });
  copy.classList.add("copy");
  row.append(input, copy);
  if (typeof navigator.share === "function") {
    row.appendChild(smallButton(t("share.send"), async () => {
      try {
        await navigator.share({ title: t("share.title"), text: title, url });
      } catch (err) { /* the person closed the sheet */ }
    }));
  }
  label.appendChild(row);
  box.append(label, status);
  return box;
}

// A seat's short code, asked of the server (the same one while it lasts).
async function showCode(box, id, token) {
  const line = document.createElement("p");
  line.className = "seat-code";
  box.insertBefore(line, box.querySelector("svg.qr"));
  try {
    const { code } = await api.seatCode(id, token);
    const shown = document.createElement("strong");
    shown.textContent = `${code.slice(0, 3)} ${code.slice(3)}`;
    shown.dataset.code = code;
    line.append(`${t("share.code")} `, shown);
  } catch (error) {
    line.textContent = error.message;
  }
}

export function showShare(state, viewer) {
  const id = state.id;
  const box = $("#invite-links");
  box.replaceChildren();
  const tokens = remembered(id);
  const mine = viewer.seats;
  if (tokens) {
    // The friend's seat first: the link to send is the one this browser does not hold.
    const order = ["x", "o"].sort((a, b) => Number(mine.includes(a)) - Number(mine.includes(b)));
    for (const color of order) {
      if (!tokens[color]) continue;
      const key = mine.includes(color) ? "share.seat.yours" : "share.seat";
      const title = t(key, { side: color.toUpperCase(), name: shownName(state[color], color) });
      const link = seatLink(id, tokens[color]);
      const row = linkRow(title, link, `seat-${color}`);
      box.appendChild(row);
      showCode(row, id, tokens[color]);
      showQr(row, id, tokens[color], link, t("share.qr", { title }));
    }
    $("#invite-text").textContent = t("share.invite-text");
  } else {
    $("#invite-text").textContent = t("share.watch-text");
  }
  const watch = linkRow(t("share.watch"), watchLink(id), "watch");
  box.appendChild(watch);
  showQr(watch, id, null, watchLink(id), t("share.qr", { title: t("share.watch") }));
  const dialog = $("#dlg-invite");
  if (!dialog.open) dialog.showModal();
}

// The main page's Join: a seat's short code, typed (any case, spaces or dashes allowed),
// opens the seat's link, as following the link would.
function wireJoin() {
  const open = $("#btn-join");
  const dialog = $("#dlg-join");
  if (!open || !dialog) return;
  const form = $("#join-form");
  const input = $("#join-code");
  const error = $("#join-error");
  const show = () => {
    error.textContent = "";
    input.value = "";
    dialog.showModal();
    input.focus();
  };
  open.addEventListener("click", show);
  $("#new-join")?.addEventListener("click", () => { // a first visit opens New game
    $("#dlg-new").close();
    show();
  });
  $("#join-cancel").addEventListener("click", () => dialog.close());
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      const { link } = await api.findCode(input.value);
      const target = new URL(link, window.location.origin);
      dialog.close();
      if (target.search === window.location.search) {
        window.location.hash = target.hash;
        window.location.reload(); // the same game: load it again to claim the seat
      } else {
        window.location.assign(target.href);
      }
    } catch (err) {
      error.textContent = err.message;
    }
  });
}

wireJoin();
