// The move list: two plies per row, the shown ply highlighted, a click shows that ply.

import { formatSquares } from "../format.js";
import { t } from "../i18n.js";
import { $ } from "../dom.js";

// A move's button marked with its review (inaccuracy, mistake, blunder; exact or estimated).
export function markReviewed(b, reviewed) {
  if (!reviewed || !reviewed.mark) return;
  const symbol = { inaccuracy: "?!", mistake: "?", blunder: "??" }[reviewed.mark];
  const mark = document.createElement("span");
  mark.className = "mark";
  mark.textContent = symbol;
  b.appendChild(mark);
  b.classList.add(`mark-${reviewed.mark}`);
  // A mark the solver proved is solid; one a search estimated is drawn apart
  // (dotted) and says so, with the search's depth.
  b.classList.add(reviewed.exact ? "mark-exact" : "mark-estimated");
  b.dataset.mark = reviewed.mark;
  b.dataset.exact = String(Boolean(reviewed.exact));
  const named = t(`review.${reviewed.mark}`);
  const loss = formatSquares(reviewed.loss);
  const sure = reviewed.exact ? t("review.exact")
    : Number.isInteger(reviewed.depth) ? t("review.estimated", { depth: reviewed.depth }) : t("review.estimated.search");
  b.title = `${reviewed.best ? t("review.title.best", { mark: named, loss, best: reviewed.best })
    : t("review.title", { mark: named, loss })} (${sure})`;
  b.setAttribute("aria-label", `${b.getAttribute("aria-label")}, ${named}, ${sure}`);
}

export function renderMoves(game, onPick) {
  const s = game.state;
  const ply = game.shownPly;
  const list = $("#moves");
  list.replaceChildren();
  if (!s.moves.length) {
    const li = document.createElement("li");
    li.innerHTML = `<span class="empty"></span>`;
    li.firstChild.textContent = t("moves.none");
    list.appendChild(li);
    return;
  }
  let current = null;
  for (let i = 0; i < s.moves.length; i += 2) {
    const li = document.createElement("li");
    const num = document.createElement("span");
    num.className = "num";
    num.textContent = `${i / 2 + 1}.`;
    li.appendChild(num);
    for (const j of [i, i + 1]) {
      const m = s.moves[j];
      if (!m) break;
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.ply = String(j + 1);
      b.innerHTML = `<span class="dot ${m.color}"></span><span class="sqname"></span> <span class="gain"></span>`;
      b.querySelector(".sqname").textContent = m.square;
      b.querySelector(".gain").textContent = m.flips.length ? `+${m.flips.length}` : "";
      // The name starts with the visible text (the square, the gain), then says who
      // played in which round (records number rounds) and how many pieces converted.
      const shown = `${m.square}${m.flips.length ? ` +${m.flips.length}` : ""}`;
      b.setAttribute("aria-label", t("moves.move", { shown, round: i / 2 + 1, side: m.color.toUpperCase(), count: m.flips.length }));
      markReviewed(b, game.review && game.review[j + 1]);
      if (j + 1 === ply) {
        b.classList.add("current");
        b.setAttribute("aria-current", "step");
        current = b;
      }
      b.addEventListener("click", () => onPick(j + 1));
      li.appendChild(b);
    }
    list.appendChild(li);
  }
  if (current) showCurrent(list);
  else if (ply === 0) list.scrollTop = 0;
  if (!resizes) { // on a laptop the list shrinks as the panels around it grow
    resizes = new ResizeObserver(() => showCurrent(list));
    resizes.observe(list);
  }
}

let resizes = null;

// Scroll the list so that its current move is in view (about its middle), if it is not.
function showCurrent(list) {
  const current = list.querySelector("button.current");
  if (!current) return;
  const top = current.offsetTop - list.offsetTop;
  if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 28) {
    list.scrollTop = Math.max(0, top - list.clientHeight / 2);
  }
}
