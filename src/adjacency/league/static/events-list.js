// The front page's list of events (each linking to its page).
import { el, getJson } from "./league.js";

async function refresh() {
  const events = await getJson("/api/league/events").catch(() => []);
  const items = events.map((e) => el("li", {},
    el("a", { href: `/event/${encodeURIComponent(e.name)}` }, e.name),
    ` · ${e.format}, ${e.rounds} rounds, ${e.status}`));
  document.getElementById("events").replaceChildren(...(items.length ? items : [el("li", {}, "none yet")]));
}

refresh();
setInterval(refresh, 5000);
