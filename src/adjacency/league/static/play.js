// A person in the league: join with a name (the secret stays in this browser), challenge
// a bot (played at once, or queued while it plays) or a person whose page is open (who
// must accept), answer the challenges of others, play by clicks on the board.
import { GameView } from "./game-view.js";
import { el, getJson, postJson } from "./league.js";

const KEY = "adjacency-league-person";
const message = (text) => (document.getElementById("message").textContent = text);
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
  document.getElementById("join").hidden = Boolean(person);
  document.getElementById("opponents-panel").hidden = !person;
  if (!person) return;
  // Asking /me keeps this person present (others may challenge them) and finds a game
  // that started for them (a challenge they accepted, or their queued one).
  const mine = await getJson("/api/league/me", auth(person));
  document.getElementById("who").textContent = `You play as ${person.name}: ${mine.rating_note}.`;
  if (mine.games.length) {
    following = null;
    const state = await getJson(`/api/league/games/${mine.games[0]}`);
    await play(state.id, state.x === person.name ? "x" : "o");
    return;
  }
  document.getElementById("incoming").replaceChildren(
    ...mine.challenges.map((c) => {
      const yes = el("button", { class: "btn", type: "button", "data-accept": c.challenger }, "Accept");
      const no = el("button", { class: "btn", type: "button", "data-decline": c.challenger }, "Decline");
      yes.addEventListener("click", () => answer(c.challenge, "accept"));
      no.addEventListener("click", () => answer(c.challenge, "decline"));
      return el("li", {}, `${c.challenger} challenges you (${Math.round(c.expires_in)} s left) `, yes, " ", no);
    }),
  );
  if (following) await follow(following);
  if (ticks++ % 3 !== 0 && document.getElementById("opponents").children.length) return;
  const rows = await getJson("/api/league/standings?online=true&limit=500");
  const online = rows.filter((r) => r.name !== person.name && r.online && !r.revoked);
  document.getElementById("opponents").replaceChildren(
    ...online.map((r) => {
      const button = el("button", { class: "btn", type: "button", "data-opponent": r.name }, `Play ${r.name}`);
      button.addEventListener("click", () => challenge(r.name));
      const kind = r.kind === "person" ? " (a person: they must accept)" : "";
      return el("li", {}, button, `${kind} rating ${Math.round(r.rating)}${r.provisional ? "?" : ""}`);
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
    message(`${state.opponent} is playing: you are number ${state.position} in its queue; your game starts when it is free.`);
  } else if (state.status === "waiting") {
    message(`Waiting for ${state.opponent} to accept (${Math.round(state.expires_in)} s left).`);
  } else {
    following = null;
    message(`Challenge ${state.status}: ${state.detail}.`);
  }
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
      message(`Challenge ${state.status}: ${state.detail}.`);
      await showOpponents();
    }
  } catch (error) {
    message(error.message);
  }
}

async function play(id, color) {
  const person = me();
  document.getElementById("game-panel").hidden = false;
  document.getElementById("opponents-panel").hidden = true;
  const view = new GameView(document, {
    me: color,
    onMove: async (square) => {
      try {
        view.render(await postJson(`/api/league/games/${id}/move`, { move: square }, person.secret));
      } catch (error) {
        message(error.message);
      }
    },
  });
  const final = await view.follow(id, 300);
  message(`Game over: ${final.result === color ? "you won" : final.result === "draw" ? "a draw" : final.result ? "you lost" : "no result"}.`);
  await showOpponents(); // the finished board stays visible above the opponents
}

document.getElementById("join").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const joined = await postJson("/api/league/people", { name: document.getElementById("join-name").value });
    localStorage.setItem(KEY, JSON.stringify({ name: joined.name, secret: joined.secret }));
    message("");
    await showOpponents();
  } catch (error) {
    message(error.message);
  }
});

async function start() {
  setInterval(() => {
    if (!document.getElementById("opponents-panel").hidden) showOpponents().catch(() => {});
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
