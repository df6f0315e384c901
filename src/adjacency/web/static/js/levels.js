// The strength levels' names and descriptions in the page's language. The server's
// /api/config names each level in English (e.g. "Beginner", "plays at random"); the
// catalogue has "level.<English name>" and "level.<English name>.description", and a
// level it does not know keeps the server's words.

import { has, t } from "./i18n.js";

export function levelName(name) {
  return has(`level.${name}`) ? t(`level.${name}`) : name;
}

export function levelDescription(name, description) {
  const key = `level.${name}.description`;
  return has(key) ? t(key) : description;
}
