// The notice line under the board: short messages that fade, or sticky ones. A fading
// notice is about the state it was shown in (a click on a taken square, a wait for the
// bot): it goes when that state changes (noticeState), though never before it has been
// up READ_MS (bots moving twice a second would take it before it is read), and at the
// latest after FADE_MS.

import { t } from "./i18n.js";
import { $ } from "./dom.js";

const node = () => $("#notice");
const FADE_MS = 6000;
const READ_MS = 1500;
let timer = null;
let state = null; // the key of the state the page shows now (noticeState)
let shown = null; // {key, at} of the fading notice: the state it was shown in, when

function clear() {
  clearTimeout(timer);
  node().textContent = "";
  shown = null;
}

export function notice(text, { sticky = false } = {}) {
  const el = node();
  el.textContent = text;
  clearTimeout(timer);
  shown = sticky || !text ? null : { key: state, at: Date.now() };
  if (!sticky && text) timer = setTimeout(clear, FADE_MS);
  place();
}

// Where a floating notice goes (the play page's: style.css fixes it to the window): over
// no control at any window size and in any language. It is tried at the bottom of the
// board's column, then ever higher (STEP px at a time), and stays at the first place
// that covers no visible control; where there is none (a window full of controls), at
// the bottom. Placed again when the window's size changes.
const STEP = 8;
const MARGIN = 16;
const CONTROLS = "button, a[href], select, input, textarea, summary, [tabindex]:not([tabindex='-1'])";

function place() {
  const el = node();
  el.style.removeProperty("left");
  el.style.removeProperty("bottom");
  el.style.removeProperty("max-width");
  if (!el.textContent || getComputedStyle(el).position !== "fixed") return;
  const area = el.closest(".board-area");
  const column = area ? area.getBoundingClientRect() : null;
  if (column && column.width > 0) {
    const width = Math.min(column.width, window.innerWidth - 24);
    el.style.maxWidth = `${Math.floor(width)}px`;
    const middle = Math.min(Math.max(column.left + column.width / 2, width / 2 + 12), window.innerWidth - width / 2 - 12);
    el.style.left = `${Math.round(middle)}px`;
  }
  const controls = [...document.querySelectorAll(CONTROLS)]
    .filter((c) => !el.contains(c) && !c.closest("dialog:not([open]), [hidden]"))
    .map((c) => c.getBoundingClientRect())
    .filter((r) => r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < window.innerHeight);
  const height = el.getBoundingClientRect().height;
  for (let bottom = MARGIN; bottom + height <= window.innerHeight - MARGIN / 2; bottom += STEP) {
    el.style.bottom = `${bottom}px`;
    const box = el.getBoundingClientRect();
    if (!controls.some((r) => r.left < box.right && r.right > box.left && r.top < box.bottom && r.bottom > box.top)) return;
  }
  el.style.removeProperty("bottom");
}

let placing = false; // a placement asked for the next frame
function placeSoon() {
  if (placing || !node().textContent) return;
  placing = true;
  requestAnimationFrame(() => { placing = false; place(); });
}
window.addEventListener("resize", placeSoon);
window.addEventListener("scroll", placeSoon, { passive: true, capture: true }); // the page or a column

// The page shows the state `key` (a game, its version and the shown ply): a fading
// notice shown in another state goes (once read).
export function noticeState(key) {
  state = key;
  if (shown === null || shown.key === key || node().dataset.lost) return;
  const left = shown.at + READ_MS - Date.now();
  clearTimeout(timer);
  if (left <= 0) clear();
  else timer = setTimeout(clear, left);
}

export function markLost(lost) {
  const el = node();
  if (lost) {
    el.dataset.lost = "1";
    notice(t("notice.lost"), { sticky: true });
  } else if (el.dataset.lost) {
    delete el.dataset.lost;
    notice("");
  }
}
