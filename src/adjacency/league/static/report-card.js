// The report cards of a team's versions, drawn for the team's page and the teacher's
// (GET /api/league/cards, GET /api/league/admin/cards?team=): its versions side by side
// (games, points, accuracy in all and by phase, inaccuracies, mistakes, blunders, lost
// games, seconds and the share of its clock), then each ready card's marked moves, the
// move that lost each lost game and its time. Each figure links to its position on the
// analysis board where the league knows the board's address (`board`); a card still
// being made says so (the server makes it in the background: ask again).
import { decimal, t } from "/static/js/i18n.js";
import { el } from "./league.js";

const COLUMNS = ["version", "games", "points", "moves", "accuracy", "opening", "middle", "end",
  "inaccuracies", "mistakes", "blunders", "lost_games", "seconds", "clock_share"];
const COUNTS = { inaccuracies: "inaccuracy", mistakes: "mistake", blunders: "blunder" };

function boardLink(board, fen) {
  if (!board || !fen) return null;
  return `${board}/?fen=${encodeURIComponent(fen)}`;
}

// A figure, a link to its position where there is one.
function figure(text, board, fen) {
  const link = boardLink(board, fen);
  return link ? el("a", { href: link, target: "_blank", rel: "noopener" }, text) : text;
}

// The position a summary figure links to (as card_sheet.column_position on the server).
function position(card, name) {
  if (name === "accuracy") {
    const worst = Object.values(card.phases).map((p) => p.worst).filter(Boolean);
    return worst.length ? worst.reduce((a, b) => (b.loss > a.loss ? b : a)).fen : null;
  }
  if (name === "lost_games") {
    const lost = card.losses.find((l) => l.move);
    return lost ? lost.move.fen : null;
  }
  if (card.phases[name]) return card.phases[name].worst ? card.phases[name].worst.fen : null;
  if (COUNTS[name]) {
    const first = card.marks.find((m) => m.mark === COUNTS[name]);
    return first ? first.fen : null;
  }
  if (name === "seconds" && card.time.slowest) return card.time.slowest.fen;
  return null;
}

function shown(name, value) {
  if (value === null || value === undefined) return "–";
  if (name === "clock_share") return `${decimal(value * 100, 0)}%`;
  if (name === "accuracy" || ["opening", "middle", "end"].includes(name)) return decimal(value, 1);
  return String(value);
}

function moveText(point) {
  return t("card.move", { game: point.game, ply: point.ply, move: point.move,
    best: point.best || "–", loss: decimal(point.loss, 2) });
}

function details(card, board) {
  const marks = card.marks.map((m) => el("li", {}, `${t(`card.mark.${m.mark}`)}: `,
    figure(moveText(m), board, m.fen)));
  const losses = card.losses.map((l) => el("li", {}, `${t("card.lost", { game: l.game, opponent: l.opponent })}: `,
    l.move ? figure(moveText(l.move), board, l.move.fen)
      : t("card.lost-by", { termination: l.termination || "–" })));
  const time = card.time;
  return el("div", { class: "card-details" },
    el("h3", {}, t("card.version", { version: card.version })),
    el("h4", {}, t("card.marks")), marks.length ? el("ul", {}, ...marks) : el("p", { class: "muted" }, "–"),
    el("h4", {}, t("card.losses")), losses.length ? el("ul", {}, ...losses) : el("p", { class: "muted" }, "–"),
    el("p", {}, t("card.time", { moves: time.moves, seconds: decimal(time.charged, 2),
      allowed: time.allowed === null ? "–" : decimal(time.allowed, 0),
      share: time.share === null ? "–" : `${decimal(time.share * 100, 0)}%` })));
}

// The cards of one team (an answer of the cards' routes) as one element.
export function drawCards(answer) {
  if (!answer.versions.length) return el("p", { class: "muted" }, t("card.none"));
  const board = answer.board;
  const rows = answer.versions.map((v) => {
    if (!v.card) {
      return el("tr", {}, el("td", { class: "num" }, String(v.version)),
        el("td", { colspan: String(COLUMNS.length - 1) }, t(`card.state.${v.state}`)));
    }
    return el("tr", {}, ...COLUMNS.map((name) => el("td", { class: "num" },
      figure(shown(name, v.summary[name]), board, position(v.card, name)))));
  });
  const table = el("table", { class: "league grading-table" },
    el("caption", {}, t("card.caption", { team: answer.team })),
    el("thead", {}, el("tr", {}, ...COLUMNS.map((name) => el("th", { scope: "col" }, t(`card.col.${name}`))))),
    el("tbody", {}, ...rows));
  const ready = answer.versions.filter((v) => v.card).map((v) => details(v.card, board));
  return el("div", {}, el("p", { class: "muted" }, t("card.about")), table, ...ready);
}

// Whether a card of the answer is still being made (the page asks again later).
export function computing(answer) {
  return answer.versions.some((v) => v.state === "computing");
}
