// The notice line under the board: short messages that fade, or sticky ones.

import { t } from "./i18n.js";

const node = () => document.querySelector("#notice");
let timer = null;

export function notice(text, { sticky = false } = {}) {
  const el = node();
  el.textContent = text;
  clearTimeout(timer);
  if (!sticky && text) timer = setTimeout(() => { el.textContent = ""; }, 6000);
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
