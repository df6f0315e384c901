// The event page's live boards: every game of the event in play on its own board, for a
// projector (and a phone: the boards stack). The event's script lists the games in play
// (#live, each a link to /watch/ID, from the event's API every 2 s); this one draws those
// games from /api/league/live every second, so moves show as they are played.
import { Board } from "/static/js/board.js";
import { t } from "/static/js/i18n.js";
import { cellsOfFen, el, getJson, seconds } from "./league.js";
import { byId } from "/static/js/dom.js";

const EVERY = 1000;
const shown = new Map(); // game id -> { figure, board, caption }

function liveIds() {
  return [...document.querySelectorAll('#live a[href^="/watch/"]')]
    .map((a) => Number(a.getAttribute("href").split("/").pop()));
}

function boardOf(game) {
  let entry = shown.get(game.id);
  if (!entry) {
    const square = el("div", { class: "board", role: "group", "aria-label": t("event.board", { x: game.x, o: game.o }) });
    const caption = el("figcaption", {});
    const figure = el("figure", { "data-game": String(game.id) }, el("div", { class: "board-frame" }, square), caption);
    entry = { figure, board: new Board(square, { onActivate: () => {} }), caption };
    shown.set(game.id, entry);
  }
  return entry;
}

function draw(game) {
  const { figure, board, caption } = boardOf(game);
  const cells = cellsOfFen(game.fen);
  board.setup(game.rows, game.cols);
  board.render({ cells, preview: null, mover: game.turn || "x", interactive: false, last: game.moves.at(-1) ?? null });
  const count = (ch) => [...cells].filter((c) => c === ch).length;
  caption.replaceChildren(
    el("a", { href: `/watch/${game.id}` }, `${game.x} – ${game.o}`), el("br"),
    el("span", { class: "clock-line" }, `X ${seconds(game.clock?.x)} · O ${seconds(game.clock?.o)}`), " · ",
    el("span", { class: "score-line" }, `X ${count("x")} – O ${count("o")}`));
  return figure;
}

async function refresh() {
  const ids = new Set(liveIds());
  const box = byId("live-boards");
  if (!box) return;
  let games = [];
  if (ids.size) {
    try {
      games = (await getJson("/api/league/live")).filter((g) => ids.has(g.id));
    } catch (error) {
      return; // the next second tries again; the event's script says when the server is away
    }
  }
  for (const id of shown.keys()) if (!games.some((g) => g.id === id)) shown.delete(id);
  box.replaceChildren(...games.map(draw));
  byId("boards-section").hidden = games.length === 0;
}

refresh();
setInterval(refresh, EVERY);
