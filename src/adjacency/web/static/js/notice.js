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
}

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
