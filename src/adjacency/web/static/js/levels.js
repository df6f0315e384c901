// The strength levels' and the bots' words in the page's language. The server's
// /api/config names each level in English (e.g. "Beginner", "plays at random"); the
// catalogue has "level.<English name>" and "level.<English name>.description", and a
// level it does not know keeps the server's words. The same for the registry's bots:
// "bot.<name>.summary" and "bot.<name>.option.<option>" (its help), the server's English
// for a bot the catalogue does not know (a plug-in's).

import { has, t } from "./i18n.js";

export function levelName(name) {
  return has(`level.${name}`) ? t(`level.${name}`) : name;
}

export function levelDescription(name, description) {
  const key = `level.${name}.description`;
  return has(key) ? t(key) : description;
}

export function botSummary(bot) {
  const key = `bot.${bot.name}.summary`;
  return has(key) ? t(key) : bot.summary;
}

export function optionHelp(bot, option) {
  const key = `bot.${bot.name}.option.${option.name}`;
  return has(key) ? t(key) : option.help;
}

// A player's name as the page shows it. The server names the players of a game started
// without names (the new-game dialog sends none for a seat left blank) in English:
// "<level> bot" for a level's bot, "Player X" for a person; the page says those in its
// own language, so no page reads another's. A person's default name is their seat's,
// whatever colour it was made for ("Player O" who plays X after a rematch is shown as
// X's); `own`: the seat is the reader's own (the only one this browser holds), named
// "You". Names someone chose, and bots named by spec, stay as they are.
export function shownName(player, color, own = false) {
  const side = color.toUpperCase();
  if (player.kind === "bot" && player.level_name && player.name === `${player.level_name} bot`) {
    return t("new.bot-name", { level: levelName(player.level_name) });
  }
  if (player.kind === "human" && /^Player [XO]$/.test(player.name)) {
    return own ? t("new.you") : t("new.player", { side });
  }
  return player.name;
}
