// The new-game dialog: mode, players (a strength level, or any registered bot with
// its options), board size, rounds (range follows the board), first mover, time.
// The last choices are remembered in localStorage. The rules (most rounds per size)
// come from the server's /api/config, and so does the course's setting: one control
// that sets the course's board, its seconds a bot's move (no clock) and one of its
// round counts; changing any of those by hand afterwards leaves the course's setting.

import { t } from "./i18n.js";
import { botSummary, levelDescription, levelName, optionHelp } from "./levels.js";

const STORE_KEY = "adjacency.newgame";

function option(value, text, selected = false) {
  const node = document.createElement("option");
  node.value = String(value);
  node.textContent = text;
  node.selected = selected;
  return node;
}

export class NewGameDialog {
  constructor(dialog, config, onStart) {
    this.dialog = dialog;
    this.form = dialog.querySelector("form");
    this.config = config;
    this.onStart = onStart;
    this.error = dialog.querySelector("#new-error");
    this.maxRounds = (rows, cols) => {
      const size = config.sizes.find((z) => z.rows === rows && z.cols === cols);
      return size ? size.max_rounds : 1;
    };
    this.sides = {};
    for (const box of dialog.querySelectorAll(".side-setup")) this.buildSide(box.dataset.side, box);
    const rows = this.form.elements.rows;
    const cols = this.form.elements.cols;
    for (let n = config.min_side; n <= config.max_side; n++) {
      rows.appendChild(option(n, String(n), n === 8));
      cols.appendChild(option(n, String(n), n === 8));
    }
    const time = this.form.elements.time;
    time.min = config.min_time;
    time.max = config.max_time;
    time.value = config.default_time;
    const course = this.form.elements.course;
    const c = config.course;
    for (const rounds of c.rounds) {
      course.appendChild(option(rounds, t("new.course.rounds", { rows: c.rows, cols: c.cols, time: c.time, rounds })));
    }
    course.addEventListener("change", () => this.applyCourse());
    this.form.addEventListener("change", (event) => {
      if (event.target !== course) this.leaveCourse();
      this.refresh();
    });
    this.form.addEventListener("input", () => this.refresh());
    rows.addEventListener("change", () => this.sizeChanged());
    cols.addEventListener("change", () => this.sizeChanged());
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    dialog.querySelector("#new-cancel").addEventListener("click", () => dialog.close());
    this.restore();
    this.sizeChanged(true);
    this.refresh();
  }

  buildSide(side, box) {
    const title = document.createElement("h3");
    title.innerHTML = `<span class="chip ${side}">${side.toUpperCase()}</span><span class="role"></span>`;
    const nameLabel = document.createElement("label");
    nameLabel.textContent = t("new.name");
    const name = document.createElement("input");
    name.type = "text";
    name.maxLength = 40;
    name.name = `${side}-name`;
    name.autocomplete = "off";
    nameLabel.appendChild(name);

    const levelLabel = document.createElement("label");
    levelLabel.textContent = t("new.strength");
    const level = document.createElement("select");
    level.name = `${side}-level`;
    for (const lv of this.config.levels) {
      level.appendChild(option(lv.number, `${lv.number} · ${levelName(lv.name)}`, lv.number === this.config.default_level));
    }
    levelLabel.appendChild(level);
    const desc = document.createElement("p");
    desc.className = "level-desc";

    const details = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = t("new.choose-bot");
    details.appendChild(summary);
    const botLabel = document.createElement("label");
    botLabel.textContent = t("new.bot");
    const bot = document.createElement("select");
    bot.name = `${side}-bot`;
    bot.appendChild(option("", t("new.use-level")));
    for (const b of this.config.bots) bot.appendChild(option(b.name, b.name));
    botLabel.appendChild(bot);
    const botDesc = document.createElement("p");
    botDesc.className = "level-desc";
    const opts = document.createElement("div");
    opts.className = "opts";
    details.append(botLabel, botDesc, opts);
    bot.addEventListener("change", () => this.buildOptions(side));

    box.append(title, nameLabel, levelLabel, desc, details);
    this.sides[side] = { box, title, name, level, levelLabel, desc, details, bot, botDesc, opts };
  }

  buildOptions(side) {
    const s = this.sides[side];
    s.opts.replaceChildren();
    const info = this.config.bots.find((b) => b.name === s.bot.value);
    s.botDesc.textContent = info ? botSummary(info) : "";
    if (!info) return;
    for (const o of info.options) {
      const label = document.createElement("label");
      label.className = "opt";
      label.title = optionHelp(info, o);
      label.append(document.createTextNode(o.name));
      let input;
      if (o.kind === "choice") {
        input = document.createElement("select");
        for (const c of o.choices) input.appendChild(option(c, c, c === o.default));
      } else if (o.kind === "bool") {
        input = document.createElement("input");
        input.type = "checkbox";
        input.checked = Boolean(o.default);
      } else if (o.kind === "int" || o.kind === "float") {
        input = document.createElement("input");
        input.type = "number";
        input.step = o.kind === "int" ? "1" : "any";
        if (o.minimum !== null) input.min = o.minimum;
        const most = o.cap !== null && o.cap !== undefined ? o.cap : o.maximum;
        if (most !== null) input.max = most; // the server's cap for this option
        input.value = o.default;
      } else {
        input = document.createElement("input");
        input.type = "text";
        input.value = o.default;
      }
      input.dataset.option = o.name;
      input.dataset.default = String(o.default);
      label.appendChild(input);
      s.opts.appendChild(label);
    }
  }

  get mode() {
    return this.form.elements.mode.value;
  }

  kindOf(side) {
    const mode = this.mode;
    if (mode === "bot-bot") return "bot";
    if (mode === "human-human" || mode === "invite") return "human";
    return this.form.elements.you.value === side ? "human" : "bot";
  }

  refresh() {
    const mode = this.mode;
    this.dialog.querySelector("#you-play").hidden = mode !== "human-bot" && mode !== "invite";
    let anyBot = false;
    for (const side of ["x", "o"]) {
      const s = this.sides[side];
      const kind = this.kindOf(side);
      anyBot ||= kind === "bot";
      const you = (mode === "human-bot" || mode === "invite") && this.form.elements.you.value === side;
      s.title.querySelector(".role").textContent = t(kind === "bot" ? "new.bot" : you ? "new.you" : mode === "invite" ? "new.friend" : "bars.person");
      s.levelLabel.hidden = kind !== "bot";
      s.details.hidden = kind !== "bot";
      s.desc.hidden = kind !== "bot";
      s.name.placeholder = kind === "bot" ? t("new.level-name") : t("new.player", { side: side.toUpperCase() });
      const lv = this.config.levels.find((l) => String(l.number) === s.level.value);
      s.desc.textContent = lv ? `${levelDescription(lv.name, lv.description)} (${lv.spec})` : "";
      s.level.disabled = s.bot.value !== "";
    }
    this.form.elements.time.closest("label").hidden = !anyBot || this.form.elements.clock.value !== "";
    const rounds = this.form.elements.rounds;
    this.dialog.querySelector("#rounds-out").textContent = t("new.rounds-of", { rounds: rounds.value, count: rounds.max });
  }

  // The course's setting chosen: its board, rounds, seconds a move and no clock.
  applyCourse() {
    const f = this.form.elements;
    const c = this.config.course;
    if (!f.course.value) return;
    f.rows.value = String(c.rows);
    f.cols.value = String(c.cols);
    this.sizeChanged();
    f.rounds.value = f.course.value;
    f.time.value = String(c.time);
    f.clock.value = "";
    this.refresh();
  }

  // A setting changed by hand: the course's control says so when it is no longer the
  // course's (another board, rounds, time or a clock).
  leaveCourse() {
    const f = this.form.elements;
    const c = this.config.course;
    if (!f.course.value) return;
    const same = Number(f.rows.value) === c.rows && Number(f.cols.value) === c.cols
      && f.rounds.value === f.course.value && Number(f.time.value) === c.time && f.clock.value === "";
    if (!same) f.course.value = "";
  }

  sizeChanged(initial = false) {
    const rows = Number(this.form.elements.rows.value);
    const cols = Number(this.form.elements.cols.value);
    const rounds = this.form.elements.rounds;
    const wasMax = initial ? false : Number(rounds.value) === Number(rounds.max);
    const max = this.maxRounds(rows, cols);
    rounds.max = String(max);
    rounds.min = "1";
    if (wasMax || Number(rounds.value) > max) rounds.value = String(max);
    this.refresh();
  }

  spec(side) {
    const s = this.sides[side];
    if (!s.bot.value) return null;
    const parts = [];
    for (const input of s.opts.querySelectorAll("[data-option]")) {
      const value = input.type === "checkbox" ? String(input.checked) : input.value.trim();
      if (value !== "" && value !== input.dataset.default) parts.push(`${input.dataset.option}=${value}`);
    }
    return parts.length ? `${s.bot.value}:${parts.join(",")}` : s.bot.value;
  }

  settings() {
    const f = this.form.elements;
    const player = (side) => {
      const s = this.sides[side];
      const kind = this.kindOf(side);
      const name = s.name.value.trim();
      const setup = { kind, name };
      if (kind === "bot") {
        const spec = this.spec(side);
        if (spec) setup.spec = spec;
        else setup.level = Number(s.level.value);
        // A seat left blank is sent blank: the server's default name ("Player X", "<level>
        // bot") is shown in each reader's language (levels.js shownName), never stored in
        // the creator's.
      }
      return setup;
    };
    return {
      x: player("x"),
      o: player("o"),
      rows: Number(f.rows.value),
      cols: Number(f.cols.value),
      rounds: Number(f.rounds.value),
      first: f.first.value,
      time: Number(f.time.value),
      invite: this.mode === "invite",
      clock: this.clock(),
    };
  }

  // "300+3" → {base: 300, increment: 3}; "" → null (bots use seconds per move).
  clock() {
    const value = this.form.elements.clock.value;
    if (!value) return null;
    const [base, increment] = value.split("+").map(Number);
    return { base, increment };
  }

  remember() {
    const f = this.form.elements;
    const data = {
      mode: this.mode, you: f.you.value, first: f.first.value, rows: f.rows.value, cols: f.cols.value,
      rounds: f.rounds.value, time: f.time.value, clock: f.clock.value, course: f.course.value,
      x: { name: this.sides.x.name.value, level: this.sides.x.level.value },
      o: { name: this.sides.o.name.value, level: this.sides.o.level.value },
    };
    try { localStorage.setItem(STORE_KEY, JSON.stringify(data)); } catch (err) { /* private mode */ }
  }

  restore() {
    let data = null;
    try { data = JSON.parse(localStorage.getItem(STORE_KEY) || "null"); } catch (err) { data = null; }
    if (!data) return;
    const f = this.form.elements;
    const setRadio = (name, value) => {
      for (const input of this.form.querySelectorAll(`input[name="${name}"]`)) input.checked = input.value === value;
    };
    setRadio("mode", data.mode);
    setRadio("you", data.you);
    setRadio("first", data.first);
    for (const key of ["rows", "cols", "time", "clock", "course"]) if (data[key]) f[key].value = data[key];
    for (const side of ["x", "o"]) {
      if (!data[side]) continue;
      this.sides[side].name.value = data[side].name || "";
      const lv = this.config.levels.find((l) => String(l.number) === data[side].level);
      if (lv) this.sides[side].level.value = data[side].level;
    }
    const rows = Number(f.rows.value);
    const cols = Number(f.cols.value);
    f.rounds.max = String(this.maxRounds(rows, cols));
    if (data.rounds) f.rounds.value = data.rounds;
  }

  open() {
    this.error.textContent = "";
    this.refresh();
    if (!this.dialog.open) this.dialog.showModal();
  }

  async submit() {
    const settings = this.settings();
    this.error.textContent = "";
    const start = this.dialog.querySelector("#new-start");
    start.disabled = true;
    try {
      await this.onStart(settings, { you: this.form.elements.you.value });
      this.remember();
      this.dialog.close();
      // The dialog was opened by the page, not a button: its close leaves the focus on
      // <body>. The game's board takes it (unless another dialog, the invite's, holds it).
      const focused = document.activeElement;
      const square = document.querySelector("#board .sq[tabindex='0']");
      if (square instanceof HTMLElement && (!focused || focused === document.body)) square.focus();
    } catch (err) {
      this.error.textContent = err.message;
    } finally {
      start.disabled = false;
    }
  }
}
