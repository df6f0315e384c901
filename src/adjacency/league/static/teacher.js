// The teacher's page: with the league's admin token (asked once, kept in this tab's
// sessionStorage, sent as Authorization: Bearer), approve and remove people, add a team
// or give it a new token (shown once, masked until revealed: a projected screen shows no
// token; copied or saved as a file, with the `adjacency connect` line that reads that
// file), add a class from a CSV roster (its printable token sheet), create, edit and
// delete events (until they start), start them, withdraw from them (asked once more,
// undone until the next round), set or clear an event's upload deadline, and download an
// event's results as one zip archive. Teams' code: send a team's zip for it (the body of
// POST .../members/NAME/submissions, as the team's own page sends it) and follow the
// chosen team's versions (number, time, file, content hash, status, the finished games
// each played and its points in them; the server's account, the compiler's words as they
// are, opened on request; links to its code, its changes since the version before, and
// its zip), asked again every 3 s while one waits to be built or checked; an event's
// similarity report is linked from its entry. The grading sheet of the league or of an
// event (GET .../admin/grading), shown as a table or saved as its CSV. A game voided
// (POST .../admin/games/ID/void), with its reason, and played again if asked. A note on
// a team (GET/PUT .../admin/members/NAME/note), the teacher's only. The course's template
// for the similarity reports (POST .../similarity/template). The server's log: its last lines, newest first, filtered
// by a text and a level (the server filters: GET .../admin/log), asked again each refresh.
// Every text comes from the catalogue; a section is drawn again only when its data
// changed, and the focused control is found again afterwards (a keyboard user keeps
// their place).
import { decimal, errorText, has, lang, t } from "/static/js/i18n.js";
import { TabToken, el, eventWord, fetchedImage, fetchedText, paceText, termination } from "./league.js";
import { byId as $ } from "/static/js/dom.js";
import { requestError } from "/static/js/request-error.js";
import { computing, drawCards } from "./report-card.js";

const kept = new TabToken("adjacency.admin-token"); // the token, kept in this tab
const API = "/api/league/admin";
let drawn = {};

function say(text) { $("status").textContent = text; }

// An admin request (GET, or POST of `body`, or `method` with or without a body); its
// answer, else an Error with its status.
async function admin(path, body, method = body === undefined ? "GET" : "POST") {
  const headers = { Authorization: `Bearer ${kept.value}` };
  const options = { headers, method };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(`${API}${path}`, options);
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw requestError(errorText(answer, String(response.status)), response.status);
  }
  return answer;
}

// A zip file sent as the body of an admin POST (a team's version, the template); the
// answer, else an Error with the server's reason.
async function sendZip(path, file) {
  const response = await fetch(`${API}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${kept.value}`, "Content-Type": "application/zip",
      "X-Filename": file.name.replace(/[^A-Za-z0-9._ -]/g, "_") },
    body: file,
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(errorText(answer, String(response.status)));
  return answer;
}

async function act(work, done) {
  try {
    await work();
    say(done);
  } catch (error) {
    say(t("teacher.failed", { error: error.message }));
  }
  await refresh();
}

// Draw `id`'s children from `data` unless they show this data already; keep the focus.
function draw(id, data, build) {
  const key = JSON.stringify(data);
  if (drawn[id] === key) return;
  drawn[id] = key;
  const focused = document.activeElement && document.activeElement.id;
  $(id).replaceChildren(...build());
  if (focused && $(focused) && !document.activeElement?.id) $(focused).focus();
}

// A button that asks once more before it acts (removal cannot be undone).
function confirmButton(id, label, again, work) {
  const button = el("button", { type: "button", id }, label);
  button.addEventListener("click", () => {
    if (button.dataset.armed) { work(); return; }
    button.dataset.armed = "1";
    button.textContent = again;
  });
  return button;
}

function removeButton(name) {
  return confirmButton(`remove-${name}`, t("teacher.remove"), t("teacher.remove.again", { name }),
    () => act(() => admin(`/members/${encodeURIComponent(name)}/remove`, {}), t("teacher.removed", { name })));
}

function renderWaiting(members) {
  const waiting = members.filter((m) => m.waiting);
  draw("waiting", waiting.map((m) => m.name), () => (waiting.length ? waiting.map((m) => el("li", {},
    el("span", { class: "who" }, m.name), " ",
    (() => {
      const approve = el("button", { type: "button", id: `approve-${m.name}` }, t("teacher.approve"));
      approve.addEventListener("click", () => act(
        () => admin(`/members/${encodeURIComponent(m.name)}/approve`, {}), t("teacher.approved", { name: m.name })));
      return approve;
    })(), " ", removeButton(m.name))) : [el("li", {}, t("teacher.nobody"))]));
}

function rotateButton(name) {
  return confirmButton(`rotate-${name}`, t("teacher.rotate"), t("teacher.rotate.again", { name }),
    () => act(async () => showToken(name, (await admin(`/members/${encodeURIComponent(name)}/rotate`, {})).token),
      t("teacher.rotated", { name })));
}

// Keep a bot or house bot out of the league's games (a template or sparring account:
// never paired, in no event, unrated, not in the standings), or bring it back.
function keepOutButton(m) {
  const button = el("button", { type: "button", id: `keep-out-${m.name}` },
    t(m.kept_out ? "teacher.keep-out.back" : "teacher.keep-out"));
  button.addEventListener("click", () => act(
    () => admin(`/members/${encodeURIComponent(m.name)}/keep-out`, { kept_out: !m.kept_out }),
    t(m.kept_out ? "teacher.keep-out.brought" : "teacher.keep-out.done", { name: m.name })));
  return button;
}

function renderMembers(members) {
  draw("members", members, () => (members.length ? members.map((m) => el("li", {},
    el("span", { class: "who" }, m.name), " ",
    el("span", { class: "kind" }, `${t(`teacher.kind.${m.kind}`)}${m.online ? ` · ${t("teacher.online")}` : ""}`
      + `${m.kept_out ? ` · ${t("teacher.kept-out")}` : ""}`),
    " ", ...(m.kind === "bot" ? [rotateButton(m.name), " "] : []),
    ...(m.kind !== "person" ? [keepOutButton(m), " "] : []), removeButton(m.name)))
    : [el("li", {}, t("teacher.nobody"))]));
}

// The teams that cannot play now, by name: not connected and no accepted version of
// their code, or one still being built (the event form warns when one is ticked).
let unready = new Map();

function renderChecklist(members) {
  const bots = members.filter((m) => m.kind !== "person" && !m.kept_out).map((m) => m.name);
  unready = new Map(members.filter((m) => m.kind === "bot" && !m.online && !m.code)
    .map((m) => [m.name, t(m.building ? "teacher.create.building" : "teacher.create.unready")]));
  const box = $("event-members");
  const checked = new Set([...box.querySelectorAll("input:checked")].map((i) => i.value));
  draw("event-members", bots, () => [el("legend", {}, t("teacher.create.members")),
    ...(bots.length ? bots.map((name, k) => {
      const input = el("input", { type: "checkbox", id: `pick-${k}`, value: name });
      input.checked = checked.has(name);
      return el("label", { class: "inline", for: `pick-${k}` }, input, ` ${name}`);
    }) : [el("p", {}, t("teacher.create.no-bots"))])]);
  warnUnready();
}

// Say which ticked teams cannot play now, and why (their games would be lost by absence).
function warnUnready() {
  const ticked = [...$("event-members").querySelectorAll("input:checked")].map((i) => i.value);
  const named = ticked.filter((name) => unready.has(name)).map((name) => `${name} (${unready.get(name)})`);
  $("event-warning").hidden = !named.length;
  $("event-warning").textContent = named.length ? t("teacher.create.warning", { teams: named.join(", ") }) : "";
}

function renderFormats(formats) {
  const select = $("event-format");
  if (select.options.length) return;
  select.replaceChildren(...formats.map((f) => new Option(eventWord("format", f), f)));
  roundsFollowFormat();
}

function roundsFollowFormat() {
  const swiss = $("event-format").value === "swiss";
  $("event-rounds").disabled = !swiss;
  $("event-rounds").required = swiss;
}

async function downloadZip(team, version) {
  const response = await fetch(`${API}/members/${encodeURIComponent(team)}/versions/${version}/zip`,
    { headers: { Authorization: `Bearer ${kept.value}` } });
  if (!response.ok) throw new Error(errorText(await response.json().catch(() => ({})), String(response.status)));
  offerFile(await response.blob(), `${team}-v${version}.zip`, "application/zip");
}

async function download(name) {
  const response = await fetch(`${API}/events/${encodeURIComponent(name)}/archive`,
    { headers: { Authorization: `Bearer ${kept.value}` } });
  if (!response.ok) throw new Error(errorText(await response.json().catch(() => ({})), String(response.status)));
  offerFile(await response.blob(), `${name}.zip`, "application/zip");
}

// A start time (Unix seconds) in the page's language and the browser's time zone.
function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(document.documentElement.lang,
    { dateStyle: "medium", timeStyle: "short" });
}

function eventItem(ev) {
  const quoted = encodeURIComponent(ev.name);
  const rounds = t("event.rounds", { count: ev.rounds || "?" });
  const item = el("li", { "data-event": ev.name },
    el("h3", {}, el("a", { href: `/event/${quoted}` }, ev.name)),
    el("p", {}, `${eventWord("format", ev.format)}, ${rounds}, ${eventWord("status", ev.paused ? "paused" : ev.status)}`
      + `${ev.rated ? "" : `, ${t("event.unrated")}`}`
      + `${ev.start && ev.status === "scheduled" ? `, ${t("teacher.event.starts", { when: when(ev.start) })}` : ""}`
      + `, ${ev.time_control}`
      + paceText(ev)
      + `${ev.ladder ? `, ${t("teacher.event.ladder-note")}` : ""}`),
    el("p", {}, el("a", { href: `/event/${quoted}` }, t("teacher.event.live")), " · ",
      el("a", { href: `/teacher/code?event=${quoted}`, id: `similarity-${ev.name}` }, t("teacher.event.similarity"))));
  const actions = el("p", { class: "actions" });
  if (ev.status === "scheduled" && !ev.all_connected) {
    const start = el("button", { type: "button", id: `start-${ev.name}` }, t("teacher.event.start"));
    start.addEventListener("click", () => act(() => admin(`/events/${quoted}/start`, {}),
      t("teacher.event.started", { name: ev.name })));
    actions.append(start, " ");
  }
  if (ev.status === "running") {
    const step = ev.paused ? "resume" : "pause";
    const toggle = el("button", { type: "button", id: `${step}-${ev.name}` }, t(`teacher.event.${step}`));
    toggle.addEventListener("click", () => act(() => admin(`/events/${quoted}/${step}`, {}),
      t(`teacher.event.${ev.paused ? "resumed" : "paused"}`, { name: ev.name })));
    actions.append(toggle, " ");
  }
  if (ev.status !== "finished") { // events first, or the ladder for its teams meanwhile
    const allowed = !ev.ladder;
    const ladder = el("button", { type: "button", id: `ladder-${ev.name}` },
      t(allowed ? "teacher.event.ladder-on" : "teacher.event.ladder-off"));
    ladder.addEventListener("click", () => act(() => admin(`/events/${quoted}/ladder`, { allowed }),
      t(allowed ? "teacher.event.ladder-opened" : "teacher.event.ladder-closed", { name: ev.name })));
    actions.append(ladder, " ");
  }
  if (ev.status === "scheduled" && !ev.all_connected) {
    const edit = el("button", { type: "button", id: `edit-${ev.name}` }, t("teacher.event.edit"));
    edit.addEventListener("click", () => editEvent(ev));
    actions.append(edit, " ", confirmButton(`delete-${ev.name}`, t("teacher.event.delete"),
      t("teacher.event.delete.again", { name: ev.name }),
      () => act(() => admin(`/events/${quoted}`, undefined, "DELETE"), t("teacher.event.deleted", { name: ev.name }))), " ");
  }
  const fetchArchive = el("button", { type: "button", id: `archive-${ev.name}` }, t("teacher.event.download"));
  fetchArchive.addEventListener("click", () => act(() => download(ev.name), t("teacher.event.downloaded", { name: ev.name })));
  actions.append(fetchArchive);
  item.append(actions);
  if (ev.status !== "finished") item.append(...deadlineControl(ev));
  const playing = ev.members.filter((m) => !m.withdrawn);
  if (ev.status !== "finished" && playing.length) item.append(withdrawControl(ev, playing));
  const gone = ev.members.filter((m) => m.withdrawn);
  if (gone.length) {
    item.append(el("p", { class: "muted" }, t("teacher.event.withdrawn")),
      el("ul", { class: "withdrawn", id: `withdrawn-${ev.name}` }, ...gone.map((m) => el("li", {},
        m.undo === null ? undoButton(ev, m.name) : t("teacher.event.undo-gone", { name: m.name, reason: m.undo })))));
  }
  if (ev.failures_total) item.append(failureList(ev));
  const away = ev.members.filter((m) => m.absent); // missed their last 2 games, bot still away
  if (away.length) {
    item.append(el("p", { class: "muted", id: `absent-${ev.name}` },
      t("teacher.event.absent", { names: away.map((m) => m.name).join(", ") })));
  }
  return item;
}

// The event's games a failure decided (newest first, the newest 20 of them): each links
// its game and gives the stored reason whole (a program's own words, as they are).
function failureList(ev) {
  const shown = ev.failures.length;
  return el("details", { class: "failures", id: `failures-${ev.name}` },
    el("summary", {}, t("teacher.event.failures", { count: ev.failures_total })
      + (shown < ev.failures_total ? ` ${t("teacher.event.failures-newest", { count: shown })}` : "")),
    el("ul", { class: "teacher-failures" }, ...ev.failures.map((f) => el("li", { "data-game": String(f.game) },
      el("a", { href: `/watch/${f.game}` }, t("teacher.event.failure", { game: f.game, round: f.round, x: f.x, o: f.o })),
      `: ${termination(f.termination)}`,
      f.detail ? el("pre", { class: "team-detail", tabindex: "0", "aria-label": t("teacher.event.failure.detail", { game: f.game }) }, f.detail) : ""))));
}

// Withdraw a team: chosen from a list that starts on no one, then a second click on a
// button that names the team and the event (a misclick withdraws nobody).
function withdrawControl(ev, playing) {
  const quoted = encodeURIComponent(ev.name);
  const select = el("select", { id: `withdraw-who-${ev.name}` },
    new Option(t("teacher.event.withdraw.pick"), ""), ...playing.map((m) => new Option(m.name, m.name)));
  const go = el("button", { type: "button", id: `withdraw-${ev.name}` }, t("teacher.event.withdraw"));
  const disarm = () => { delete go.dataset.armed; go.textContent = t("teacher.event.withdraw"); };
  select.addEventListener("change", disarm);
  go.addEventListener("click", () => {
    const name = select.value;
    if (!name) { say(t("teacher.event.withdraw.none")); select.focus(); return; }
    if (!go.dataset.armed) {
      go.dataset.armed = "1";
      go.textContent = t("teacher.event.withdraw.again", { name, event: ev.name });
      return;
    }
    act(() => admin(`/events/${quoted}/withdraw`, { member: name }),
      t("teacher.event.withdrew", { name, event: ev.name }));
  });
  return el("p", { class: "actions" },
    el("label", { for: `withdraw-who-${ev.name}` }, t("teacher.event.withdraw-who")), " ", select, " ", go);
}

// An event's upload deadline: what it is, a date and time to set it to, and a button to
// clear it (a team entered in the event uploads nothing after it).
function deadlineControl(ev) {
  const quoted = encodeURIComponent(ev.name);
  const id = `deadline-${ev.name}`;
  const input = el("input", { type: "datetime-local", id });
  if (ev.deadline) input.value = localInput(ev.deadline);
  const set = el("button", { type: "button", id: `deadline-set-${ev.name}` }, t("teacher.deadline.set"));
  set.addEventListener("click", () => {
    if (!input.value) { say(t("teacher.deadline.empty")); input.focus(); return; }
    const seconds = new Date(input.value).getTime() / 1000;
    act(() => admin(`/events/${quoted}/deadline`, { deadline: seconds }, "PUT"),
      t("teacher.deadline.done", { name: ev.name, when: when(seconds) }));
  });
  const controls = el("p", { class: "actions" }, el("label", { for: id }, t("teacher.deadline.label")), " ", input, " ", set);
  if (ev.deadline) {
    const clear = el("button", { type: "button", id: `deadline-clear-${ev.name}` }, t("teacher.deadline.clear"));
    clear.addEventListener("click", () => act(() => admin(`/events/${quoted}/deadline`, { deadline: null }, "PUT"),
      t("teacher.deadline.cleared", { name: ev.name })));
    controls.append(" ", clear);
  }
  const now = el("p", { id: `deadline-now-${ev.name}` },
    ev.deadline ? t("teacher.deadline.at", { when: when(ev.deadline) }) : t("teacher.deadline.none"));
  return [now, controls];
}

function undoButton(ev, name) {
  const button = el("button", { type: "button", id: `undo-${ev.name}-${name}` }, t("teacher.event.undo", { name }));
  button.addEventListener("click", () => act(
    () => admin(`/events/${encodeURIComponent(ev.name)}/reinstate`, { member: name }),
    t("teacher.event.reinstated", { name, event: ev.name })));
  return button;
}

function renderEvents(events) {
  draw("event-list", events, () => (events.length ? events.map(eventItem) : [el("li", {}, t("teacher.none"))]));
}

let memberOffset = 0; // the first member of the page shown (the overview is paged)

function renderPages(data) {
  const many = data.total > data.limit;
  $("members-pages").hidden = !many;
  if (!many) return;
  const last = Math.min(data.offset + data.members.length, data.total);
  $("members-shown").textContent = t("teacher.page.shown", { from: data.offset + 1, to: last, total: data.total });
  $("members-previous").disabled = data.offset === 0;
  $("members-next").disabled = last >= data.total;
  $("members-previous").onclick = () => { memberOffset = Math.max(0, data.offset - data.limit); refresh(); };
  $("members-next").onclick = () => { memberOffset = data.offset + data.limit; refresh(); };
}

async function refresh() {
  if (!kept.value || document.hidden) return;
  let data;
  try {
    data = await admin(`/overview?offset=${memberOffset}`);
  } catch (error) {
    say(t("teacher.failed", { error: error.message }));
    if (error.status === 401 || error.status === 403) signOut();
    return;
  }
  $("token-form").hidden = true;
  $("signed-in").hidden = false;
  if ($("admin").hidden) loadTemplate(); // once a sign-in: it changes only from here
  $("admin").hidden = false;
  renderFormats(data.formats);
  $("clock").textContent = data.move_time === null
    ? t("teacher.create.clock", { base: data.base, increment: data.increment })
    : t("teacher.create.clock-move", { seconds: data.move_time });
  if (!$("event-clock").value && document.activeElement !== $("event-clock")) {
    $("event-clock").value = data.time_control; // the league's own clock first, as it writes it
  }
  renderWaiting(data.members);
  renderMembers(data.members.filter((m) => !m.waiting));
  renderChecklist(data.members);
  renderPages(data);
  renderEvents(data.events);
  renderCodeTeams(data.members);
  renderGradingScopes(data.events);
  renderNoteTeams(data.members);
  if (codeTeam && (codeWaiting || codeShown !== codeTeam)) await loadVersions();
  await loadLog();
}

function signOut() {
  kept.keep("");
  drawn = {};
  codeTeam = "";
  drawVersions("", []);
  $("token-form").hidden = false;
  $("signed-in").hidden = true;
  $("admin").hidden = true;
}

$("token-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  kept.keep($("token").value.trim());
  $("token").value = "";
  say("");
  await refresh();
  if (kept.value) $("forget").focus();
});

$("token-form").dataset.ready = "true"; // the form is handled here from now on

$("forget").addEventListener("click", () => {
  signOut();
  say(t("teacher.token.forgotten"));
  $("token").focus();
});

// The token shown last: kept here, written into the page only while revealed.
let shown = { name: "", token: "" };
const MASK = "\u2022".repeat(12);

// The command that reads the token from `file`; over https, with --cafile and its note
// (a server with its own certificate authority needs it; the page cannot tell which).
function connectLine(file) {
  const tls = location.protocol === "https:" ? " --cafile class-ca.crt" : "";
  return `adjacency connect ${location.origin} greedy --token-file ${file}${tls}`;
}

function showToken(name, token) {
  shown = { name, token };
  const file = `${name}.token`;
  $("token-for").textContent = t("teacher.team.for", { name });
  reveal(false);
  $("save-token").textContent = t("teacher.team.save", { file });
  $("connect-intro").textContent = t("teacher.team.connect-file", { file });
  $("connect-line").textContent = connectLine(file);
  $("cafile-note").hidden = location.protocol !== "https:";
  $("team-token").hidden = false;
}

function reveal(open) {
  $("new-token").textContent = open ? shown.token : MASK;
  $("reveal").setAttribute("aria-pressed", String(open));
  $("reveal").textContent = t(open ? "teacher.team.hide" : "teacher.team.reveal");
}

$("reveal").addEventListener("click", () => reveal($("reveal").getAttribute("aria-pressed") !== "true"));

// Copy `text`; where the browser refuses, select `node` (shown first by `show`) instead.
async function copyText(text, node, done, show = () => {}) {
  try {
    await navigator.clipboard.writeText(text);
    say(done);
  } catch (err) {
    show();
    const range = document.createRange();
    range.selectNodeContents(node);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    say(t("teacher.team.select"));
  }
}

// Offer `text` as a file named `name` (a download made in the page: nothing is sent).
function offerFile(text, name, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = el("a", { href: url, download: name, hidden: "" });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

$("copy-token").addEventListener("click", () => copyText(shown.token, $("new-token"),
  t("teacher.team.token-copied"), () => reveal(true)));

$("save-token").addEventListener("click", () => {
  offerFile(shown.token, `${shown.name}.token`, "text/plain");
  say(t("teacher.team.saved", { file: `${shown.name}.token` }));
});

$("team-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const name = $("team-name").value.trim();
  act(async () => {
    const added = await admin("/members", { name, kind: "bot" });
    showToken(added.name, added.token);
    $("team-name").value = "";
  }, t("teacher.team.added", { name }));
});

$("copy").addEventListener("click", () => copyText($("connect-line").textContent, $("connect-line"),
  t("teacher.team.copied")));

let sheet = "";
$("roster-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const file = $("roster-file").files[0];
  if (!file) return;
  act(async () => {
    const body = { roster: await file.text(), url: location.origin };
    if (location.protocol === "https:") body.cafile = "class-ca.crt";
    const done = await admin("/roster", body);
    sheet = done.sheet;
    $("roster-summary").textContent = t("teacher.roster.done",
      { added: done.added.length, present: done.present.length });
    $("roster-sheet").hidden = !done.added.length;
    $("roster-done").hidden = false;
    $("roster-file").value = "";
  }, t("teacher.roster.added"));
});

$("roster-sheet").addEventListener("click", () => {
  offerFile(sheet, "tokens.html", "text/html");
  say(t("teacher.roster.saved"));
});

$("event-members").addEventListener("change", warnUnready);
$("event-format").addEventListener("change", roundsFollowFormat);

// The event being edited (its name), or "" while the form creates one.
let editing = "";

// A local "YYYY-MM-DDTHH:MM" for a datetime-local field, from Unix seconds.
function localInput(seconds) {
  const d = new Date(seconds * 1000);
  const two = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

// Fill the form with a scheduled event's settings; the form then saves them to it.
function editEvent(ev) {
  editing = ev.name;
  $("create-heading").textContent = t("teacher.edit", { name: ev.name });
  $("event-submit").textContent = t("teacher.edit.save");
  $("event-cancel").hidden = false;
  $("event-name").value = ev.name;
  $("event-format").value = ev.format;
  roundsFollowFormat();
  $("event-rounds").value = ev.format === "swiss" ? String(ev.rounds) : "";
  const names = new Set(ev.members.map((m) => m.name));
  for (const box of $("event-members").querySelectorAll("input")) box.checked = names.has(box.value);
  $("event-start").value = ev.start ? localInput(ev.start) : "";
  $("event-clock").value = ev.time_control;
  $("event-pace").value = ev.pace === null ? "" : String(ev.pace);
  $("event-rated").checked = ev.rated;
  $("event-people").checked = Boolean(ev.people);
  $("create-heading").scrollIntoView();
  $("event-name").focus();
}

function clearForm() {
  editing = "";
  $("create-heading").textContent = t("teacher.create");
  $("event-submit").textContent = t("teacher.create.submit");
  $("event-cancel").hidden = true;
  $("event-name").value = "";
  for (const box of $("event-members").querySelectorAll("input:checked")) box.checked = false;
  $("event-start").value = "";
  $("event-clock").value = "";
  $("event-pace").value = "";
  $("event-people").checked = false;
}

$("event-cancel").addEventListener("click", () => { clearForm(); $("event-name").focus(); });

$("event-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const name = $("event-name").value.trim();
  const members = [...$("event-members").querySelectorAll("input:checked")].map((i) => i.value);
  const body = { name, format: $("event-format").value, members, rated: $("event-rated").checked,
    clock: $("event-clock").value.trim(), people: $("event-people").checked };
  if (!$("event-rounds").disabled && $("event-rounds").value) body.rounds = Number($("event-rounds").value);
  if ($("event-start").value) body.start = new Date($("event-start").value).getTime() / 1000;
  if ($("event-pace").value !== "") body.pace = Number($("event-pace").value);
  const was = editing;
  act(async () => {
    if (was) await admin(`/events/${encodeURIComponent(was)}`, body, "PUT");
    else await admin("/events", body);
    clearForm();
  }, was ? t("teacher.edit.done", { name }) : t("teacher.create.done", { name }));
});

// Teams' code: the team chosen, the team whose versions are drawn, and whether one of
// them waits to be built or checked (then they are asked again with each refresh).
const MAX_BYTES = 256 * 1024 * 1024;
let codeTeam = "";
let codeShown = "";
let codeWaiting = false;

function renderCodeTeams(members) {
  const bots = members.filter((m) => m.kind === "bot").map((m) => m.name);
  draw("code-team", bots, () => [
    new Option(t(bots.length ? "teacher.code.pick" : "teacher.code.no-bots"), ""),
    ...bots.map((name) => new Option(name, name))]);
  if (!bots.includes(codeTeam)) {
    codeTeam = "";
    drawVersions("", []);
  }
  $("code-team").value = codeTeam;
}

// The chosen team's versions, asked for now; a failure is said on the status line.
async function loadVersions() {
  const name = codeTeam;
  if (!name) { drawVersions("", []); return; }
  try {
    const answer = await admin(`/members/${encodeURIComponent(name)}/submissions`);
    if (name !== codeTeam) return; // another team was chosen meanwhile
    codeWaiting = answer.submissions.some((v) => v.status === "received" || v.status === "building");
    drawVersions(name, answer.submissions);
  } catch (error) {
    say(t("teacher.failed", { error: error.message }));
  }
}

function versionItem(v, open) {
  const item = el("li", { "data-version": String(v.version) },
    el("span", { class: "who" }, t("teacher.code.version", { version: v.version })), ": ",
    el("strong", { class: `status-${v.status}` }, t(`team.status.${v.status}`)), " · ",
    el("span", {}, when(v.created)), " · ",
    el("span", { class: "file" }, v.filename), " · ",
    el("code", { title: v.sha256 }, t("teacher.code.hash", { hash: v.sha256.slice(0, 12) })), " · ",
    // the zip as its team sent it, where the league's kept zip (repacked) differs
    ...(v.uploaded_sha256 && v.uploaded_sha256 !== v.sha256 ? [el("code", { title: v.uploaded_sha256 },
      t("teacher.code.sent-hash", { hash: v.uploaded_sha256.slice(0, 12) })), " · "] : []),
    el("span", { class: "results" }, t("teacher.code.results", { count: v.games, points: decimal(v.points, 1, 0) })));
  // its code on its own page (/teacher/code), the changes since the version before, its zip
  const code = (params) => `/teacher/code?${new URLSearchParams({ team: codeShown, ...params })}`;
  const zip = el("button", { type: "button", id: `zip-${v.version}` }, t("teacher.code.zip"));
  zip.addEventListener("click", () => act(() => downloadZip(codeShown, v.version),
    t("code.zip.done", { name: codeShown, version: v.version })));
  item.append(el("p", { class: "actions" },
    el("a", { href: code({ version: v.version }) }, t("teacher.code.read")),
    ...(v.version > 1 ? [" · ", el("a", { href: code({ version: v.version, against: v.version - 1 }) },
      t("teacher.code.compare", { version: v.version - 1 }))] : []),
    " ", zip));
  if (v.detail) {
    // the server's account as it gave it (javac's own words), opened on request
    const details = el("details", {}, el("summary", {}, t("teacher.code.detail")),
      el("pre", { class: "team-detail", tabindex: "0", "aria-label": t("team.detail", { version: v.version }) }, v.detail));
    if (v.status === "refused" && (v.window || v.board)) {
      // a refused program's window and its board at its check's failed move, once opened
      const shown = el("div", { class: "team-pictures" });
      const base = `${API}/members/${encodeURIComponent(codeShown)}/submissions/${v.version}`;
      const headers = { Authorization: `Bearer ${kept.value}` };
      const look = () => {
        if (!details.open || shown.childElementCount) return;
        if (v.window) shown.append(fetchedImage(`${base}/window.png`, t("team.program.picture", { version: v.version }), headers));
        if (v.board) shown.append(fetchedImage(`${base}/board.png`, t("team.picture.board", { version: v.version }), headers));
      };
      details.append(shown);
      details.addEventListener("toggle", look);
    }
    details.open = open;
    item.append(details);
  }
  if (v.status === "refused" && v.output) {
    // its program's last output, beside the account: fetched when opened
    const base = `${API}/members/${encodeURIComponent(codeShown)}/submissions/${v.version}`;
    item.append(fetchedText(t("team.output", { version: v.version }),
      t("team.output.label", { version: v.version }), `${base}/output.txt`,
      { Authorization: `Bearer ${kept.value}` }));
  }
  return item;
}

function drawVersions(name, versions) {
  const list = $("code-versions");
  const open = new Set(name === codeShown
    ? [...list.querySelectorAll("details[open]")].map((d) => d.parentElement.dataset.version) : []);
  codeShown = name;
  $("code-versions-heading").hidden = !name;
  $("code-versions-heading").textContent = name ? t("teacher.code.versions", { name }) : "";
  draw("code-versions", { name, versions }, () => (!name ? []
    : versions.length ? versions.map((v) => versionItem(v, open.has(String(v.version))))
      : [el("li", {}, t("team.versions.none"))]));
}

$("code-team").addEventListener("change", () => {
  codeTeam = $("code-team").value;
  loadVersions();
});

$("code-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = $("code-team").value;
  const file = $("code-zip").files[0];
  if (!name) { say(t("teacher.code.no-team")); $("code-team").focus(); return; }
  if (!file) { say(t("teacher.code.no-file")); $("code-zip").focus(); return; }
  if (file.size > MAX_BYTES) {
    say(t("teacher.code.too-big", { size: (file.size / 1048576).toFixed(1) }));
    return;
  }
  say(t("teacher.code.sending"));
  try {
    const answer = await sendZip(`/members/${encodeURIComponent(name)}/submissions`, file);
    const same = answer.same_bytes === false ? "teacher.code.same-files" : "teacher.code.same";
    say(t(answer.new ? "teacher.code.new" : same, { version: answer.submission.version, name }));
    $("code-zip").value = "";
  } catch (error) {
    say(t("teacher.failed", { error: error.message }));
  }
  codeTeam = name;
  await loadVersions();
});

// The grading sheet: of the whole league or of an event (chosen from the events listed),
// shown as a table (a team a row) or downloaded as the server's CSV.
function renderGradingScopes(events) {
  const names = events.map((ev) => ev.name);
  const chosen = $("grading-scope").value;
  draw("grading-scope", names, () => [new Option(t("teacher.grading.league"), ""),
    ...names.map((name) => new Option(name, name))]);
  $("grading-scope").value = names.includes(chosen) ? chosen : "";
}

function gradingQuery() {
  const name = $("grading-scope").value;
  return name ? `?${new URLSearchParams({ event: name })}` : "";
}

function scopeName() {
  return $("grading-scope").value || t("teacher.grading.league");
}

const GRADING_COUNTS = ["games", "points", "unplayed", "byes"];
const GRADING_FAILURES = ["time", "crash", "illegal", "absent", "abandoned"];

function gradingRow(row) {
  const cell = (text) => el("td", {}, String(text));
  const played = row.played.length
    ? t("teacher.grading.most", { versions: row.played.join(", "), most: row.most_played }) : "";
  const colour = (side) => `${row[`${side}_wins`]}-${row[`${side}_draws`]}-${row[`${side}_losses`]}`;
  const similar = row.similarity === null ? t("teacher.grading.no-similarity")
    : t("teacher.grading.similar", { share: decimal(row.similarity * 100, 0), partner: row.partner });
  return el("tr", { "data-team": row.team },
    el("th", { scope: "row" }, row.team),
    cell(t("teacher.grading.versions-text", { count: row.versions, accepted: row.accepted })),
    cell(played),
    ...GRADING_COUNTS.map((c) => cell(c === "points" ? decimal(row.points, 1, 0) : row[c])),
    cell(colour("x")), cell(colour("o")),
    ...GRADING_FAILURES.map((c) => cell(row[c])),
    cell(similar), cell(row.note));
}

function drawGrading(answer) {
  const heads = ["team", "versions", "played", ...GRADING_COUNTS, "as-x", "as-o", ...GRADING_FAILURES, "similarity", "note-column"];
  const table = el("table", { id: "grading-table", class: "grading-table" },
    el("caption", { id: "grading-caption" }, t("teacher.grading.caption", { scope: answer.event || t("teacher.grading.league") })),
    el("thead", {}, el("tr", {}, ...heads.map((h) => el("th", { scope: "col" }, t(`teacher.grading.${h}`))))),
    el("tbody", {}, ...(answer.teams.length ? answer.teams.map(gradingRow)
      : [el("tr", {}, el("td", { colspan: String(heads.length) }, t("teacher.grading.none")))])));
  $("grading-box").replaceChildren(table);
  $("grading-box").hidden = false;
}

$("grading-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const scope = scopeName();
  try {
    drawGrading(await admin(`/grading${gradingQuery()}`));
    say(t("teacher.grading.shown", { scope }));
  } catch (error) {
    say(t("teacher.failed", { error: error.message }));
  }
});

$("grading-csv").addEventListener("click", async () => {
  const scope = scopeName();
  const file = `${$("grading-scope").value || "league"}-grading.csv`;
  try {
    const response = await fetch(`${API}/grading.csv${gradingQuery()}`,
      { headers: { Authorization: `Bearer ${kept.value}` } });
    if (!response.ok) throw new Error(errorText(await response.json().catch(() => ({})), String(response.status)));
    offerFile(await response.text(), file, "text/csv");
    say(t("teacher.grading.saved", { scope, file }));
  } catch (error) {
    say(t("teacher.failed", { error: error.message }));
  }
});

// The course's template for the similarity reports: whether one is kept (the corpus
// lists it), and a zip sent as the new one (the body of POST .../similarity/template).
async function loadTemplate() {
  try {
    const corpus = await admin("/similarity/corpus");
    const kept = corpus.some((entry) => entry.kind === "template");
    $("template-now").textContent = t(kept ? "teacher.template.kept" : "teacher.template.none");
  } catch (error) {
    say(t("teacher.failed", { error: error.message }));
  }
}

$("template-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const file = $("template-zip").files[0];
  if (!file) { say(t("teacher.template.no-file")); $("template-zip").focus(); return; }
  try {
    await sendZip("/similarity/template", file);
    $("template-zip").value = "";
    say(t("teacher.template.done"));
  } catch (error) {
    say(t("teacher.failed", { error: error.message }));
  }
  await loadTemplate();
});

// Notes on a team (the teacher's only): the chosen team's note is read when it is
// chosen, and saved as written (an empty one clears it).
function renderNoteTeams(members) {
  const bots = members.filter((m) => m.kind === "bot").map((m) => m.name);
  const chosen = $("notes-team").value;
  draw("notes-team", bots, () => [new Option(t("teacher.notes.pick"), ""),
    ...bots.map((name) => new Option(name, name))]);
  $("notes-team").value = bots.includes(chosen) ? chosen : "";
  const carded = $("cards-team").value;
  draw("cards-team", bots, () => bots.map((name) => new Option(name, name)));
  if (bots.includes(carded)) $("cards-team").value = carded;
}

// The report cards: a team's shown (asked again while one is being made), every
// team's saved as CSV, or as one page to print in the page's language.
let cardsTimer = null;
async function showCards() {
  clearTimeout(cardsTimer);
  const team = $("cards-team").value;
  if (!team) return;
  try {
    const answer = await admin(`/cards?team=${encodeURIComponent(team)}`);
    $("cards-box").replaceChildren(drawCards(answer));
    $("cards-box").hidden = false;
    if (computing(answer)) cardsTimer = setTimeout(showCards, 15000);
  } catch (error) {
    say(t("teacher.failed", { error: error.message }));
  }
}

$("cards-form").addEventListener("submit", (event) => {
  event.preventDefault();
  showCards();
});

async function saveCards(path, file, type) {
  try {
    const response = await fetch(`${API}${path}`, { headers: { Authorization: `Bearer ${kept.value}` } });
    if (!response.ok) throw new Error(errorText(await response.json().catch(() => ({})), String(response.status)));
    offerFile(await response.text(), file, type);
    say(t("card.saved", { file }));
  } catch (error) {
    say(t("teacher.failed", { error: error.message }));
  }
}

$("cards-csv").addEventListener("click", () => saveCards("/cards.csv", "league-cards.csv", "text/csv"));
$("cards-print").addEventListener("click", () => saveCards(`/cards.html?lang=${lang === "id" ? "id" : "en"}`,
  "league-cards.html", "text/html"));

// The box waits, disabled, while the chosen team's note is read: nothing typed
// meanwhile is overwritten by the note read.
$("notes-team").addEventListener("change", async () => {
  const name = $("notes-team").value;
  const box = $("notes-text");
  box.value = "";
  box.disabled = Boolean(name);
  if (!name) return;
  try {
    const answer = await admin(`/members/${encodeURIComponent(name)}/note`);
    if ($("notes-team").value === name) box.value = answer.note;
  } catch (error) {
    say(t("teacher.failed", { error: error.message }));
  } finally {
    if ($("notes-team").value === name) box.disabled = false;
  }
});

$("notes-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const name = $("notes-team").value;
  if (!name) { say(t("teacher.notes.no-team")); $("notes-team").focus(); return; }
  const note = $("notes-text").value;
  act(() => admin(`/members/${encodeURIComponent(name)}/note`, { note }, "PUT"),
    t(note.trim() ? "teacher.notes.saved" : "teacher.notes.cleared", { name }));
});

// Void a game: its number and the reason, asked once more by the button (which then
// names the game); changing the form disarms it.
function disarmVoid() {
  delete $("void-submit").dataset.armed;
  $("void-submit").textContent = t("teacher.void.submit");
}

for (const id of ["void-game", "void-reason", "void-replay"]) $(id).addEventListener("input", disarmVoid);

$("void-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const game = Number($("void-game").value);
  if (!$("void-submit").dataset.armed) {
    $("void-submit").dataset.armed = "1";
    $("void-submit").textContent = t("teacher.void.again", { game });
    return;
  }
  const replay = $("void-replay").checked;
  let done = null;
  act(async () => {
    done = await admin(`/games/${game}/void`, { reason: $("void-reason").value.trim(), replay });
    $("void-game").value = "";
    $("void-reason").value = "";
    $("void-replay").checked = false;
  }, "").then(() => {
    if (done) say(t(done.replay ? "teacher.void.done-replay" : "teacher.void.done", done));
    disarmVoid();
  });
});

// The server's log as the filter asks, newest first; a failure is said on the status line.
let logAsked = 0; // the last request's number: an older answer is not drawn over a newer
async function loadLog() {
  const query = new URLSearchParams({ level: $("log-level").value, text: $("log-text").value.trim(),
    team: $("log-team").value.trim(), kind: $("log-kind").value, lang });
  const mine = ++logAsked;
  let answer;
  try {
    answer = await admin(`/log?${query}`);
  } catch (error) {
    say(t("teacher.failed", { error: error.message }));
    return;
  }
  if (mine !== logAsked) return;
  const kind = $("log-kind").value;
  draw("log-kind", answer.kinds, () => [new Option(t("teacher.log.every-kind"), ""),
    ...answer.kinds.map((k) => new Option(has(`teacher.log.kind.${k}`) ? t(`teacher.log.kind.${k}`) : k, k))]);
  $("log-kind").value = answer.kinds.includes(kind) ? kind : "";
  const lines = answer.lines.slice().reverse();
  draw("log-lines", lines.map((l) => l.number), () => (lines.length ? lines.map((l) => el("li",
    { class: `log-${l.level.toLowerCase()}`, "data-number": String(l.number) },
    el("time", { datetime: new Date(l.time * 1000).toISOString() }, clockTime(l.time)), " ",
    el("span", { class: "level" }, l.level), " ", el("span", { class: "message" }, l.text)))
    : [el("li", {}, t("teacher.log.none"))]));
}

// A log line's time of day, to the second, in the page's language.
function clockTime(seconds) {
  return new Date(seconds * 1000).toLocaleTimeString(document.documentElement.lang, { hour12: false });
}

$("log-form").addEventListener("submit", (event) => { event.preventDefault(); loadLog(); });
$("log-text").addEventListener("input", () => loadLog());
$("log-level").addEventListener("change", () => loadLog());
$("log-team").addEventListener("input", () => loadLog());
$("log-kind").addEventListener("change", () => loadLog());

refresh();
setInterval(refresh, 3000);
