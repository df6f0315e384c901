// Teams' code for the teacher (/teacher/code), with the admin token the teacher's page
// keeps in this tab (sessionStorage; never in the address). What it shows comes from its
// address:
//   ?team=NAME&version=N          the version's kept files, highlighted by the server
//   ?team=NAME&version=N&against=M  the difference from version M to version N
//   ?event=NAME[&threshold=P][&template=MEMBER or CORPUS ENTRY]  the event's similarity report, and
//     its record: saved on request, its pairs marked reviewed, cleared or flagged with a
//     note, and what the report lists now otherwise than the record
// The code's HTML is the server's (Pygments: the team's text escaped, colour spans
// only); every other text is set as text. The zip is fetched with the token and offered
// as a file made in the page. A view the server is still preparing (503,
// being_prepared) is asked for again politely (prepared.js), "being prepared" said
// meanwhile.
import { errorText, t } from "/static/js/i18n.js";
import { el } from "./league.js";
import { whenPrepared } from "./prepared.js";
import { byId as $ } from "/static/js/dom.js";

const KEY = "adjacency.admin-token";
const API = "/api/league/admin";
const asked = new URLSearchParams(location.search);

function token() {
  try { return sessionStorage.getItem(KEY) || ""; } catch (err) { return ""; }
}

function say(text) { $("status").textContent = text; }

async function admin(path) {
  const response = await whenPrepared(
    () => fetch(`${API}${path}`, { headers: { Authorization: `Bearer ${token()}` } }),
    { preparing: (body) => say(errorText(body, "503")) });
  if (!response.ok) {
    throw new Error(errorText(await response.json().catch(() => ({})), String(response.status)));
  }
  return response;
}

async function json(path) { return (await admin(path)).json(); }

// A POST or PUT of `body` as JSON; its answer, else an Error with the server's reason.
async function send(path, method, body) {
  const response = await fetch(`${API}${path}`, { method, body: JSON.stringify(body),
    headers: { Authorization: `Bearer ${token()}`, "Content-Type": "application/json" } });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(errorText(answer, String(response.status)));
  return answer;
}

// A box of code lines: `rows` are [attributes of the row, its number columns, the
// server's HTML of the line].
function codeBox(label, rows) {
  const code = el("code");
  code.innerHTML = rows.map(([kind, numbers, html]) => `<span class="row${kind ? ` ${kind}` : ""}">`
    + numbers.map((n) => `<span class="ln" aria-hidden="true">${n ?? ""}</span>`).join("")
    + `${html}</span>`).join("");
  return el("pre", { class: "code", tabindex: "0", "aria-label": label }, code);
}

function link(params, text) {
  return el("a", { href: `/teacher/code?${new URLSearchParams(params)}` }, text);
}

async function showVersion(team, version, against) {
  const quoted = encodeURIComponent(team);
  const listed = await json(`/members/${quoted}/submissions`);
  const numbers = listed.submissions.map((v) => v.version);
  $("pick-version").replaceChildren(...numbers.map((n) => new Option(t("code.version", { version: n }), n)));
  $("pick-against").replaceChildren(new Option(t("code.pick.none"), ""),
    ...numbers.map((n) => new Option(t("code.version", { version: n }), n)));
  $("pick-version").value = version;
  $("pick-against").value = against || "";
  // the kept zip (what the download gives: the upload repacked) and the zip as sent
  const shown = listed.submissions.find((v) => String(v.version) === String(version));
  $("hashes").hidden = !shown;
  if (shown) {
    const kept = { kept: shown.sha256, size: shown.size };
    $("hashes").textContent = shown.uploaded_sha256 && shown.uploaded_sha256 !== shown.sha256
      ? t("code.hashes", { ...kept, sent: shown.uploaded_sha256, sentSize: shown.uploaded_size })
      : t("code.hash", kept);
  }
  $("version-view").hidden = false;
  if (against) {
    $("version-heading").textContent = t("code.diff.heading", { name: team, a: against, b: version });
    const answer = await json(`/members/${quoted}/diff?a=${against}&b=${version}`);
    // Every kept file named by what happened to it (sources, FXML, CSS, pictures...).
    const named = ["added", "removed", "changed", "same"].map((status) => {
      const paths = answer.files.filter((f) => f.status === status).map((f) => f.path);
      return paths.length ? t(`code.diff.list.${status}`, { files: paths.join(", ") }) : "";
    }).filter(Boolean);
    $("left-out").hidden = !named.length;
    $("left-out").textContent = named.join(" ");
    const shown = answer.files.filter((f) => f.status !== "same");
    $("files").replaceChildren(...(shown.length ? shown.map((f) => el("section", { class: "code-file" },
      el("h3", {}, `${f.path} (${t(`code.diff.${f.status}`)})`),
      ...(f.picture ? [el("p", {}, t("code.diff.picture"))] : []),
      ...f.hunks.map((hunk) => codeBox(f.path, hunk.map((line) => [
        { "+": "add", "-": "del" }[line.op] || "", [line.a, line.b],
        `<span class="op" aria-hidden="true">${line.op === " " ? "" : line.op}</span>${line.html}`])))))
      : [el("p", {}, t("code.diff.nothing"))]));
    say(t("code.diff.shown", { name: team, a: against, b: version }));
    return;
  }
  $("version-heading").textContent = t("code.version.heading", { name: team, version });
  const answer = await json(`/members/${quoted}/versions/${version}/code`);
  $("left-out").hidden = !answer.left_out.length;
  $("left-out").textContent = answer.left_out.length
    ? t("code.left-out", { files: answer.left_out.join(", ") }) : "";
  const kinds = answer.left_out_kinds.map((k) => t("code.left-out-kind", { kind: t(`code.kind.${k.kind}`),
    count: k.count, size: `${(k.bytes / 1048576).toFixed(1)} MB` }));
  $("left-out-kinds").hidden = !kinds.length;
  $("left-out-kinds").textContent = kinds.length ? t("code.left-out-kinds", { kinds: kinds.join("; ") }) : "";
  $("pictures").hidden = !answer.pictures.length;
  $("pictures").textContent = answer.pictures.length ? t("code.pictures", { files: answer.pictures.join(", ") }) : "";
  $("files").replaceChildren(...answer.files.map((f) => el("section", { class: "code-file" },
    el("h3", {}, f.path),
    codeBox(f.path, f.lines.map((html, i) => ["", [i + 1], html])))));
  say(t("code.version.shown", { name: team, version, count: answer.files.length }));
}

function percent(share) { return `${Math.round(share * 100)}%`; }

function passageSide(team, version, file, first, last, text) {
  return el("figure", {},
    el("figcaption", {}, t("code.similarity.where", { name: team, version, file, first, last })),
    el("pre", { class: "code", tabindex: "0", "aria-label": `${team}: ${file}` }, el("code", {}, text)));
}

// A matched block: its size, then its two sides side by side with their lines.
function block(pair, f, b) {
  return el("div", { class: "block" },
    el("p", { class: "block-size" }, t("code.similarity.block", { tokens: b.tokens, a_file: f.a_file,
      b_file: f.b_file, a_first: b.a_first, a_last: b.a_last, b_first: b.b_first, b_last: b.b_last })),
    el("div", { class: "passage" },
      passageSide(pair.a, pair.a_version, f.a_file, b.a_first, b.a_last, b.a_text),
      passageSide(pair.b, pair.b_version ?? "", f.b_file, b.b_first, b.b_last, b.b_text)));
}

function filePair(pair, f) {
  const passages = f.passages.map((p) => el("div", { class: "passage" },
    passageSide(pair.a, pair.a_version, p.a_file, p.a_first, p.a_last, p.a_text),
    passageSide(pair.b, pair.b_version ?? "", p.b_file, p.b_first, p.b_last, p.b_text)));
  return el("section", { class: "file-pair", "data-files": `${f.a_file} ${f.b_file}` },
    el("h4", {}, t("code.similarity.files", { a: pair.a, b: pair.b, a_file: f.a_file, b_file: f.b_file,
      a_share: percent(f.a_share), b_share: percent(f.b_share), shared: f.shared })),
    ...f.blocks.map((b) => block(pair, f, b)),
    ...(passages.length ? [el("h5", {}, t("code.similarity.passages")), ...passages] : []));
}

// With no base uploaded, the majority rule's files, for the teacher to review.
function drawMajority(report) {
  $("majority").hidden = !report.majority;
  $("majority-note").textContent = report.majority ? t("code.similarity.majority") : "";
  $("common-files").replaceChildren(...(report.majority ? report.common : []).map((f) =>
    el("li", {}, t("code.similarity.common-file", { path: f.path, teams: f.teams.join(", "),
      prints: f.prints, share: percent(f.share) }))));
}

function pairItem(pair) {
  const reads = [link({ team: pair.a, version: pair.a_version }, t("code.similarity.read", { name: pair.a }))];
  if (pair.corpus) reads.push(" · ", t("code.similarity.earlier", { name: pair.b }));
  else reads.push(" · ", link({ team: pair.b, version: pair.b_version }, t("code.similarity.read", { name: pair.b })));
  return el("article", { class: "pair", "data-pair": `${pair.a} ${pair.b}` },
    el("h3", {}, t("code.similarity.pair", { a: pair.a, b: pair.b, best: percent(pair.best),
      a_share: percent(pair.a_share), b_share: percent(pair.b_share) })),
    el("p", {}, ...reads),
    ...pair.files.map((f) => filePair(pair, f)));
}

async function showSimilarity(event, threshold, template) {
  $("similarity-view").hidden = false;
  $("similarity-heading").textContent = t("code.similarity.heading", { name: event });
  $("threshold").value = Math.round(threshold * 100);
  $("template").value = template;
  const params = new URLSearchParams({ threshold: String(threshold) });
  if (template) params.set("template", template);
  const report = await json(`/events/${encodeURIComponent(event)}/similarity?${params}`);
  const summary = [t("code.similarity.summary", { count: report.teams.length, listed: report.pairs.length,
    below: report.below, threshold: percent(report.threshold) })];
  if (report.without_code.length) summary.push(t("code.similarity.without", { names: report.without_code.join(", ") }));
  if (report.template === "league") summary.push(t("code.similarity.template-league"));
  else if (report.template) summary.push(t("code.similarity.template-used", { name: report.template }));
  if (report.corpus.length) summary.push(t("code.similarity.corpus", { count: report.corpus.length }));
  summary.push(t("code.similarity.blocks-rule", { tokens: report.block_tokens, lines: report.block_lines }));
  $("similarity-summary").textContent = summary.join(" ");
  drawMajority(report);
  $("pairs").replaceChildren(...report.pairs.map(pairItem));
  say(t("code.similarity.shown", { name: event }));
}

// The event's record: when it was saved, what changed since, and its pairs, each with
// its mark and note and a form to change them.
function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(document.documentElement.lang,
    { dateStyle: "medium", timeStyle: "short" });
}

const MARKS = ["reviewed", "cleared", "flagged"];

function recordPair(event, pair) {
  const id = `${pair.a}-${pair.b}`;
  const select = el("select", { id: `mark-${id}` }, new Option(t("code.record.mark.none"), ""),
    ...MARKS.map((m) => new Option(t(`code.record.mark.${m}`), m)));
  select.value = pair.mark || "";
  const note = el("input", { id: `mark-note-${id}`, maxlength: "1000", value: pair.note || "" });
  const save = el("button", { type: "button", id: `mark-save-${id}` }, t("code.record.mark.save"));
  save.addEventListener("click", async () => {
    if (!select.value) { say(t("code.record.pick")); select.focus(); return; }
    try {
      const done = await send(`/events/${encodeURIComponent(event)}/similarity/marks`, "PUT",
        { a: pair.a, b: pair.b, mark: select.value, note: note.value });
      say(t("code.record.marked", { a: done.a, b: done.b, mark: t(`code.record.mark.${done.mark}`) }));
    } catch (error) {
      say(t("code.failed", { error: error.message }));
    }
  });
  return el("li", { "data-pair": `${pair.a} ${pair.b}` },
    el("span", { class: "who" }, t("code.record.pair", { a: pair.a, b: pair.b, best: percent(pair.best) })),
    el("p", { class: "actions" },
      el("label", { for: `mark-${id}` }, t("code.record.mark")), " ", select, " ",
      el("label", { for: `mark-note-${id}` }, t("code.record.note-label")), " ", note, " ", save));
}

function changeLines(changes) {
  const lines = [
    ...changes.new.map((p) => t("code.record.new", { a: p.a, b: p.b, best: percent(p.best) })),
    ...changes.gone.map((p) => t("code.record.gone", { a: p.a, b: p.b, best: percent(p.best) })),
    ...changes.versions.map((p) => t("code.record.versions", { a: p.a, b: p.b,
      a_version: p.a_version, b_version: p.b_version ?? "-", was_a: p.was[0], was_b: p.was[1] ?? "-" })),
  ];
  return (lines.length ? lines : [t("code.record.unchanged")]).map((line) => el("li", {}, line));
}

function drawRecord(event, record) {
  $("record-view").hidden = false;
  if (record.made === null) {
    $("record-made").textContent = t("code.record.none");
    $("record-changes").replaceChildren();
    $("record-pairs").replaceChildren();
    return;
  }
  const made = [t("code.record.made", { when: when(record.made), threshold: percent(record.threshold),
    prints: record.prints })];
  if (record.prints !== record.prints_now) made.push(t("code.record.other-prints", { prints: record.prints_now }));
  $("record-made").textContent = made.join(" ");
  $("record-changes").replaceChildren(...changeLines(record.changes));
  $("record-pairs").replaceChildren(...record.pairs.map((pair) => recordPair(event, pair)));
}

async function showRecord(event, threshold, template) {
  const quoted = encodeURIComponent(event);
  const extra = template ? `?${new URLSearchParams({ template })}` : "";
  drawRecord(event, await json(`/events/${quoted}/similarity/record${extra}`));
  $("record-save").onclick = async () => {
    const params = new URLSearchParams({ threshold: String(threshold) });
    if (template) params.set("template", template);
    try {
      drawRecord(event, await send(`/events/${quoted}/similarity/record?${params}`, "POST", {}));
      say(t("code.record.saved", { name: event }));
    } catch (error) {
      say(t("code.failed", { error: error.message }));
    }
  };
}

async function downloadZip(team, version) {
  const response = await admin(`/members/${encodeURIComponent(team)}/versions/${version}/zip`);
  const url = URL.createObjectURL(await response.blob());
  const a = el("a", { href: url, download: `${team}-v${version}.zip`, hidden: "" });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  say(t("code.zip.done", { name: team, version }));
}

async function main() {
  if (!token()) {
    say(t("code.sign-in"));
    return;
  }
  const team = asked.get("team");
  const event = asked.get("event");
  try {
    if (team) {
      const version = asked.get("version") || "1";
      $("pick-form").addEventListener("submit", (e) => {
        e.preventDefault();
        const params = { team, version: $("pick-version").value };
        if ($("pick-against").value) params.against = $("pick-against").value;
        location.search = new URLSearchParams(params).toString();
      });
      $("zip").addEventListener("click", () => downloadZip(team, $("pick-version").value)
        .catch((error) => say(t("code.failed", { error: error.message }))));
      await showVersion(team, version, asked.get("against"));
    } else if (event) {
      $("similarity-form").addEventListener("submit", (e) => {
        e.preventDefault();
        const params = { event, threshold: String(Number($("threshold").value) / 100) };
        if ($("template").value.trim()) params.template = $("template").value.trim();
        location.search = new URLSearchParams(params).toString();
      });
      const threshold = Number(asked.get("threshold") || 0.5);
      await showSimilarity(event, threshold, asked.get("template") || "");
      await showRecord(event, threshold, asked.get("template") || "");
    } else {
      say(t("code.nothing"));
    }
  } catch (error) {
    say(t("code.failed", { error: error.message }));
  }
}

main();
