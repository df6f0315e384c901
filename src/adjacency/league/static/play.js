// A person in the league: join with a name (the secret stays in this browser), pick a
// free bot, play by clicks on the board.
import { GameView } from "./game-view.js";
import { el, getJson, postJson } from "./league.js";

const KEY = "adjacency-league-person";
const message = (text) => (document.getElementById("message").textContent = text);

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
  document.getElementById("who").textContent = `You play as ${person.name}.`;
  const rows = await getJson("/api/league/standings");
  const free = rows.filter((r) => r.kind !== "person" && r.online && !r.revoked);
  document.getElementById("opponents").replaceChildren(
    ...free.map((r) => {
      const button = el("button", { class: "btn", type: "button", "data-opponent": r.name }, `Play ${r.name}`);
      button.addEventListener("click", () => challenge(r.name));
      return el("li", {}, button, ` rating ${Math.round(r.rating)}${r.provisional ? "?" : ""}`);
    }),
  );
}

async function challenge(opponent) {
  const person = me();
  try {
    const started = await postJson("/api/league/challenge", { opponent }, person.secret);
    message("");
    await play(started.game, started.color);
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
  }, 3000);
  const person = me();
  if (person) {
    try {
      const mine = await getJson("/api/league/me", { headers: { Authorization: `Bearer ${person.secret}` } });
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
