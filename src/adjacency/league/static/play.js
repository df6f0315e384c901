// A person in the league: join with a name (the secret stays in this browser), challenge
// a bot (played at once, or queued while it plays, with the wait the server expects) or a
// person whose page is open (who must accept), answer the challenges of others, play by
// clicks on the board: scrolled into view when the game starts, the player's side at the
// bottom (turned for O).
import { GameView } from "./game-view.js";
import { detailText, has, lang, t } from "/static/js/i18n.js";
import { el, getJson, postJson } from "./league.js";
import { byId } from "/static/js/dom.js";

const KEY = "adjacency-league-person";
const message = (text) => (byId("message").textContent = text);
const auth = (person) => ({ headers: { Authorization: `Bearer ${person.secret}` } });
let following = null; // the challenge this page waits on (queued or waiting for an answer)
let ticks = 0; // the page asks /me every second, the standings every third

function me() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "null");
  } catch {
    return null;
  }
}

async function showOpponents() {
  const person = me();
  byId("join").hidden = Boolean(person);
  byId("opponents-panel").hidden = !person;
  if (!person) return;
  // Asking /me keeps this person present (others may challenge them) and finds a game
  // that started for them (a challenge they accepted, or their queued one).
  const mine = await getJson("/api/league/me", auth(person));
  byId("who").textContent = t("people.you", { name: person.name, note: ratingNote(mine) });
  if (mine.games.length) {
    following = null;
    const state = await getJson(`/api/league/games/${mine.games[0]}`);
    await play(state.id, state.x === person.name ? "x" : "o");
    return;
  }
  byId("incoming").replaceChildren(
    ...mine.challenges.map((c) => {
      const yes = el("button", { class: "btn", type: "button", "data-accept": c.challenger }, t("people.accept"));
      const no = el("button", { class: "btn", type: "button", "data-decline": c.challenger }, t("people.decline"));
      yes.addEventListener("click", () => answer(c.challenge, "accept"));
      no.addEventListener("click", () => answer(c.challenge, "decline"));
      return el("li", {}, `${t("people.challenged", { name: c.challenger, count: Math.round(c.expires_in) })} `, yes, " ", no);
    }),
  );
  if (following) await follow(following);
  if (ticks++ % 3 !== 0 && byId("opponents").children.length) return;
  const events = (await getJson("/api/league/events")).filter((e) => e.people && e.status === "scheduled");
  byId("open-events-block").hidden = !events.length;
  byId("open-events").replaceChildren(...events.map((e) =>
    el("li", {}, el("a", { href: `/event/${encodeURIComponent(e.name)}`, "data-event": e.name }, e.name))));
  const rows = await getJson("/api/league/standings?online=true&limit=500");
  const online = rows.filter((r) => r.name !== person.name && r.online && !r.revoked);
  byId("opponents").replaceChildren(
    ...online.map((r) => {
      const button = el("button", { class: "btn", type: "button", "data-opponent": r.name }, t("people.play", { name: r.name }));
      button.addEventListener("click", () => challenge(r.name));
      const kind = r.kind === "person" ? ` ${t("people.must-accept")}` : "";
      return el("li", {}, button, `${kind} ${t("people.rating", { rating: `${Math.round(r.rating)}${r.provisional ? "?" : ""}` })}`);
    }),
  );
}

/** Say where a challenge stands; play its game once it started. */
async function follow(id) {
  const person = me();
  const state = await getJson(`/api/league/challenges/${id}`, auth(person));
  if (state.status === "started" && state.color) {
    following = null;
    message("");
    await play(state.game, state.color);
  } else if (state.status === "queued") {
    message(`${t("people.queued", { name: state.opponent, position: state.position })} ${waitText(state)}`.trim());
  } else if (state.status === "waiting") {
    message(t("people.waiting", { name: state.opponent, count: Math.round(state.expires_in) }));
  } else {
    following = null;
    message(challengeText(state));
  }
}

// "2 min", "40 s": a wait in whole seconds, rounded up to minutes from 90 s.
function duration(total) {
  return total < 90 ? t("people.wait.seconds", { count: total }) : t("people.wait.minutes", { count: Math.ceil(total / 60) });
}

// How long a queued challenge may wait (the server's estimate at the pace of the bot's
// game in play, and its bound by the clocks), or "" when the server has none.
function waitText(state) {
  if (state.wait_most == null) return "";
  const most = duration(state.wait_most);
  return state.wait == null ? t("people.wait.most", { most }) : t("people.wait.about", { about: duration(state.wait), most });
}

// Whether this person's games are rated, in the page's language (the server's sentence
// on English pages).
function ratingNote(mine) {
  const key = `people.rating.${mine.rating_code}`;
  return lang !== "en" && has(key) ? t(key, mine.rating_params || {}) : mine.rating_note;
}

// "Challenge declined: ..." (in other languages, the status's message and the detail's
// when the catalogue has them).
function challengeText(state) {
  const key = `people.challenge.${state.status}`;
  if (lang !== "en" && has(key)) {
    return state.detail_code ? `${t(key).replace(/\.$/, "")}: ${detailText(state)}.` : t(key);
  }
  return `Challenge ${state.status}: ${state.detail}.`;
}

async function challenge(opponent) {
  const person = me();
  try {
    const made = await postJson("/api/league/challenge", { opponent }, person.secret);
    following = made.challenge;
    await follow(made.challenge);
  } catch (error) {
    message(error.message);
  }
}

async function answer(id, verdict) {
  const person = me();
  try {
    const state = await postJson(`/api/league/challenges/${id}/${verdict}`, {}, person.secret);
    if (state.status === "started" && state.color) {
      message("");
      await play(state.game, state.color);
    } else {
      message(challengeText(state));
      await showOpponents();
    }
  } catch (error) {
    message(error.message);
  }
}

/** Whether `color` has moved in `state` (sides alternate from the start's side to move). */
function hasMoved(state, color) {
  const first = state.start.split(" ")[1];
  return state.moves.length >= (first === color ? 1 : 2);
}

/** Ask in the page's dialog; resolves true when the person confirms. */
function confirmAction({ title, text, yes }) {
  const dialog = byId("dlg-confirm");
  byId("confirm-title").textContent = title;
  byId("confirm-text").textContent = text;
  byId("confirm-yes").textContent = yes;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
  });
}

/** Resign and Abort for the game shown: Abort only before this person's first move. */
function showActions(view, id, color) {
  const person = me();
  const resign = byId("btn-resign");
  const abort = byId("btn-abort");
  const update = () => {
    const s = view.state;
    const playing = Boolean(s && s.status === "playing");
    resign.hidden = !playing;
    abort.hidden = !playing || hasMoved(s, color);
  };
  const act = async (action, ask) => {
    if (!(await confirmAction(ask))) return;
    try {
      view.render(await postJson(`/api/league/games/${id}/${action}`, {}, person.secret));
    } catch (error) {
      message(error.message);
    }
    update();
  };
  const player = `${person.name} (${color.toUpperCase()})`;
  resign.onclick = () => act("resign", { title: t("resign.confirm.title"), text: t("resign.confirm.text", { player }), yes: t("play.resign") });
  abort.onclick = () => act("abort", { title: t("abort.confirm.title"), text: t("abort.confirm.text", { player }), yes: t("play.abort") });
  return update;
}

async function play(id, color) {
  const person = me();
  message(""); // what was said before the game (its place in a queue) is over now
  byId("game-panel").hidden = false;
  byId("opponents-panel").hidden = true;
  let update = () => {};
  let placed = false; // the game is scrolled to the top of the window once, when first drawn
  const view = new GameView(document, {
    me: color,
    onMove: async (square) => {
      try {
        view.render(await postJson(`/api/league/games/${id}/move`, { move: square }, person.secret));
      } catch (error) {
        message(error.message);
      }
      update();
    },
    onRender: () => {
      update();
      if (!placed) {
        placed = true;
        byId("game-panel").scrollIntoView({ block: "start" }); // the board and both clocks in view
      }
    },
  });
  update = showActions(view, id, color);
  const final = await view.follow(id, 300);
  update();
  message(t(final.result === color ? "people.over.won" : final.result === "draw" ? "people.over.draw" : final.result ? "people.over.lost" : "people.over.none"));
  await showOpponents(); // the finished board stays visible above the opponents
}

byId("join").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const joined = await postJson("/api/league/people", { name: byId("join-name").value });
    localStorage.setItem(KEY, JSON.stringify({ name: joined.name, secret: joined.secret }));
    message("");
    await showOpponents();
  } catch (error) {
    message(error.message);
  }
});

// While a game is shown the page still asks /me every few seconds: the server counts a
// person present (their page open) only while their page asks, and says so when they
// lose on time ("their play page was open", not "closed").
const PRESENT_EVERY = 3;

async function start() {
  setInterval(() => {
    if (!byId("opponents-panel").hidden) {
      showOpponents().catch(() => {});
    } else if (me() && ticks++ % PRESENT_EVERY === 0) {
      getJson("/api/league/me", auth(me())).catch(() => {});
    }
  }, 1000);
  const person = me();
  if (person) {
    try {
      const mine = await getJson("/api/league/me", auth(person));
      if (mine.games.length) {
        const state = await getJson(`/api/league/games/${mine.games[0]}`);
        await play(state.id, state.x === person.name ? "x" : "o");
        return;
      }
    } catch {
      localStorage.removeItem(KEY); // a secret the league no longer knows
    }
  }
  await showOpponents();
}
start();
