// Thin client of the JSON API: every call resolves to data or throws an Error whose
// message is the server's explanation: its code's message in the page's language, else
// the English "detail" (i18n.js errorText).

import { errorText, t } from "./i18n.js";
import { requestError } from "./request-error.js";

export async function request(method, path, body, headers = {}) {
  const options = { method, headers: { ...headers } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    throw new Error(t("error.unreachable"));
  }
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    const message = errorText(data, response.statusText || t("error.status", { status: response.status }));
    throw requestError(message, response.status, data && data.code);
  }
  return data;
}

export const api = {
  config: () => request("GET", "/api/config"),
  games: () => request("GET", "/api/games"),
  create: (settings) => request("POST", "/api/games", settings),
  invite: (settings) => request("POST", "/api/invites", settings),
  me: (id) => request("GET", `/api/games/${encodeURIComponent(id)}/me`),
  // The seat token goes in a header, never in a URL the server would log.
  claim: (id, token) => request("POST", `/api/games/${encodeURIComponent(id)}/seats`, undefined,
    { "X-Seat-Token": token }),
  // A seat's short code (the token in the body, never in a URL), and a typed code's link.
  seatCode: (id, token) => request("POST", `/api/games/${encodeURIComponent(id)}/code`, { token }),
  findCode: (code) => request("POST", "/api/codes", { code }),
  load: (id) => request("GET", `/api/games/${encodeURIComponent(id)}`),
  remove: (id) => request("DELETE", `/api/games/${encodeURIComponent(id)}`),
  play: (id, square) => request("POST", `/api/games/${encodeURIComponent(id)}/moves`, { square }),
  undo: (id) => request("POST", `/api/games/${encodeURIComponent(id)}/undo`),
  resign: (id, side) => request("POST", `/api/games/${encodeURIComponent(id)}/resign`, { side }),
  abort: (id, side) => request("POST", `/api/games/${encodeURIComponent(id)}/abort`, { side }),
  hint: (id) => request("POST", `/api/games/${encodeURIComponent(id)}/hint`),
  moveNow: (id) => request("POST", `/api/games/${encodeURIComponent(id)}/move-now`),
  control: (id, body) => request("POST", `/api/games/${encodeURIComponent(id)}/control`, body),
  rematch: (id) => request("POST", `/api/games/${encodeURIComponent(id)}/rematch`),
  // Between devices: a rematch or takeback offer, and the other player's answer.
  offer: (id, kind) => request("POST", `/api/games/${encodeURIComponent(id)}/offers`, { kind }),
  answer: (id, accept) => request("POST", `/api/games/${encodeURIComponent(id)}/offers/answer`, { accept }),
  checkPosition: (position) => request("POST", "/api/analysis/position", position),
  reviewUrl: (id) => `/api/games/${encodeURIComponent(id)}/review`,
  // The analysis board's study tools: a line played from a position, the variation tree
  // as a record and back, another move judged as the review judges moves.
  line: (body) => request("POST", "/api/analysis/line", body),
  treeRecord: (body) => request("POST", "/api/analysis/record", body),
  readTree: (record) => request("POST", "/api/analysis/tree", { record }),
  judge: (id, ply, move) => request("POST", `/api/games/${encodeURIComponent(id)}/judge`, { ply, move }),
  importRecord: (record) => request("POST", "/api/games/import", { record }),
  recordUrl: (id) => `/api/games/${encodeURIComponent(id)}/record`,
  eventsUrl: (id) => `/api/games/${encodeURIComponent(id)}/events`,
};
