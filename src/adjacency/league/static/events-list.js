// The front page's list of events (each linking to its page).
import { t } from "/static/js/i18n.js";
import { el, eventWord, getJson } from "./league.js";
import { byId } from "/static/js/dom.js";

async function refresh() {
  const events = await getJson("/api/league/events").catch(() => []);
  const items = events.map((e) => el("li", {},
    el("a", { href: `/event/${encodeURIComponent(e.name)}` }, e.name),
    ` · ${t("league.event.line", { format: eventWord("format", e.format), count: e.rounds, status: eventWord("status", e.status) })}`));
  byId("events").replaceChildren(...(items.length ? items : [el("li", {}, t("league.none-yet"))]));
}

refresh();
setInterval(refresh, 5000);
