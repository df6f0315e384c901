// The pages' modules in Node, without a browser: a stage of the few globals they touch
// when imported (a document of elements made on demand, a window, a remembered
// storage, the browser's languages, fetch of the message catalogues from the package),
// and the modules loaded as the server serves them (web's and serving's static/js in one
// folder, /static/js/), one copy per language, so each copy's i18n.js has loaded its
// own catalogue (it reads the language once, when imported).
//
// The document is a small tree of FakeElements: enough for what the modules do to
// markup (classes, attributes, data-*, text, children, querySelector on compound
// selectors of tag, #id, .class and [attr] or [attr="v"], joined by spaces). A selector
// beyond that throws, so no module silently gets an empty answer. The body holds the
// page's #announcer and #notice.

import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const SRC = fileURLToPath(new URL("../../../src/adjacency/", import.meta.url));
const CATALOGUES = join(SRC, "serving/static/i18n");

/** One compound selector ("div.a.b#c[data-x='y']") as {tag, id, classes, attrs}. */
function compound(text) {
  const part = { tag: null, id: null, classes: [], attrs: [] };
  const pattern = /([a-zA-Z][\w-]*)|#([\w-]+)|\.([\w-]+)|\[([\w-]+)(?:=(?:"([^"]*)"|'([^']*)'|([\w-]+)))?\]/y;
  let at = 0;
  while (at < text.length) {
    pattern.lastIndex = at;
    const m = pattern.exec(text);
    if (!m) throw new Error(`stage.mjs: unsupported selector ${JSON.stringify(text)}`);
    if (m[1]) part.tag = m[1].toLowerCase();
    else if (m[2]) part.id = m[2];
    else if (m[3]) part.classes.push(m[3]);
    else part.attrs.push([m[4], m[5] ?? m[6] ?? m[7] ?? null]);
    at = pattern.lastIndex;
  }
  return part;
}

function matchesCompound(node, part) {
  if (part.tag && node.tagName.toLowerCase() !== part.tag) return false;
  if (part.id && node.id !== part.id) return false;
  if (!part.classes.every((c) => node.classList.contains(c))) return false;
  return part.attrs.every(([name, value]) =>
    node.hasAttribute(name) && (value === null || node.getAttribute(name) === value));
}

/** Whether `node` matches the selector list `selector` (descendant combinators only). */
function matches(node, selector) {
  return selector.split(",").some((one) => {
    const parts = one.trim().split(/\s+/).map(compound);
    if (!matchesCompound(node, parts[parts.length - 1])) return false;
    let up = node.parentNode;
    for (let i = parts.length - 2; i >= 0; i--) {
      while (up && !(up instanceof FakeElement && matchesCompound(up, parts[i]))) up = up.parentNode;
      if (!up) return false;
      up = up.parentNode;
    }
    return true;
  });
}

const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export class FakeElement {
  constructor(tagName, namespaceURI = null) {
    this.tagName = tagName.toUpperCase();
    this.namespaceURI = namespaceURI;
    this.attributes = new Map();
    this.children = [];
    this.parentNode = null;
    this.listeners = {};
    this.style = { removeProperty: () => {}, setProperty: () => {} };
    this.hidden = false;
    this._text = "";
    const element = this;
    this.dataset = new Proxy({}, {
      get: (_, key) => element.getAttribute(`data-${kebab(String(key))}`) ?? undefined,
      set: (_, key, value) => { element.setAttribute(`data-${kebab(String(key))}`, value); return true; },
      deleteProperty: (_, key) => { element.removeAttribute(`data-${kebab(String(key))}`); return true; },
      has: (_, key) => element.hasAttribute(`data-${kebab(String(key))}`),
    });
    this.classList = {
      contains: (c) => element.className.split(/\s+/).includes(c),
      add: (...cs) => { for (const c of cs) if (!element.classList.contains(c)) element.className = `${element.className} ${c}`.trim(); },
      remove: (...cs) => { element.className = element.className.split(/\s+/).filter((c) => c && !cs.includes(c)).join(" "); },
      toggle: (c, on = !element.classList.contains(c)) => { (on ? element.classList.add : element.classList.remove)(c); return on; },
    };
  }

  get id() { return this.getAttribute("id") ?? ""; }
  set id(value) { this.setAttribute("id", value); }
  get className() { return this.getAttribute("class") ?? ""; }
  set className(value) { this.setAttribute("class", value); }
  getAttribute(name) { return this.attributes.has(name) ? this.attributes.get(name) : null; }
  setAttribute(name, value) { this.attributes.set(name, String(value)); }
  removeAttribute(name) { this.attributes.delete(name); }
  hasAttribute(name) { return this.attributes.has(name); }

  get textContent() { return this._text + this.children.map((c) => c.textContent).join(""); }
  set textContent(value) { this.replaceChildren(); this._text = String(value ?? ""); }

  appendChild(child) {
    if (child.parentNode) child.remove();
    child.parentNode = this;
    this.children.push(child);
    return child;
  }
  append(...children) { for (const c of children) this.appendChild(c); }
  replaceChildren(...children) {
    for (const c of this.children) c.parentNode = null;
    this.children = [];
    this._text = "";
    this.append(...children);
  }
  remove() {
    if (!this.parentNode) return;
    this.parentNode.children = this.parentNode.children.filter((c) => c !== this);
    this.parentNode = null;
  }
  contains(node) {
    for (let n = node; n; n = n.parentNode) if (n === this) return true;
    return false;
  }
  closest(selector) {
    for (let n = this; n instanceof FakeElement; n = n.parentNode) if (matches(n, selector)) return n;
    return null;
  }
  *descendants() {
    for (const c of this.children) { yield c; yield* c.descendants(); }
  }
  querySelectorAll(selector) { return [...this.descendants()].filter((n) => matches(n, selector)); }
  querySelector(selector) { return this.querySelectorAll(selector)[0] ?? null; }
  addEventListener(type, run) { (this.listeners[type] ||= []).push(run); }
  removeEventListener(type, run) { this.listeners[type] = (this.listeners[type] || []).filter((r) => r !== run); }
  dispatchEvent(event) {
    for (const run of this.listeners[event.type] || []) run(event);
    return !event.defaultPrevented;
  }
  getBoundingClientRect() { return { left: 0, top: 0, right: 0, bottom: 0, width: 0, height: 0 }; }
}

/** A keyboard event as a page's handlers read it. */
export function keydown(key) {
  return {
    type: "keydown",
    key,
    defaultPrevented: false,
    preventDefault() { this.defaultPrevented = true; },
  };
}

class FakeDocument extends FakeElement {
  constructor() {
    super("#document");
    this.documentElement = this.appendChild(new FakeElement("html"));
    this.body = this.documentElement.appendChild(new FakeElement("body"));
  }
  createElement(tag) { return new FakeElement(tag); }
  createElementNS(namespace, tag) { return new FakeElement(tag, namespace); }
  createTextNode(text) { const node = new FakeElement("#text"); node.textContent = text; return node; }
  getElementById(id) { return this.querySelector(`#${id}`); }
}

/** The page's own regions the modules write to: the announcer, the notice. */
const REGIONS = ["announcer", "notice"];

function setStage() {
  if (globalThis.document instanceof FakeDocument) return;
  const stored = new Map();
  globalThis.document = new FakeDocument();
  for (const id of REGIONS) document.body.appendChild(new FakeElement("div")).id = id;
  globalThis.Node = FakeElement;
  globalThis.window = Object.assign(new FakeElement("#window"), {
    innerWidth: 1366, innerHeight: 768, location: { reload() {}, search: "", hash: "" },
    matchMedia: () => ({ matches: false }), // a laptop's screen that asks for nothing
  });
  globalThis.localStorage = {
    getItem: (key) => (stored.has(key) ? stored.get(key) : null),
    setItem: (key, value) => stored.set(key, String(value)),
    removeItem: (key) => stored.delete(key),
    clear: () => stored.clear(),
  };
  globalThis.getComputedStyle = () => ({ position: "static" });
  // Nothing here lays out or changes by itself: the observers observe nothing.
  globalThis.MutationObserver = globalThis.ResizeObserver = class { observe() {} disconnect() {} };
  // The pages' timers (a notice's fading) keep no test's process waiting for them.
  const later = globalThis.setTimeout;
  globalThis.setTimeout = (...args) => later(...args).unref();
  globalThis.requestAnimationFrame = (run) => setTimeout(run, 0);
  globalThis.fetch = async (url) => {
    const found = /^\/static\/i18n\/(\w+)\.json$/.exec(String(url));
    if (!found) throw new Error(`stage.mjs: no fetch of ${url} here`);
    const text = readFileSync(join(CATALOGUES, `${found[1]}.json`), "utf8");
    return { ok: true, json: async () => JSON.parse(text) };
  };
}

/** The catalogue message `key` of `language` ("en", "id"), `{name}`s filled. */
export function message(language, key, params = {}) {
  const text = JSON.parse(readFileSync(join(CATALOGUES, `${language}.json`), "utf8"))[key];
  if (text === undefined) throw new Error(`no message ${key} in ${language}.json`);
  return String(text).replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

const copies = new Map();

/**
 * The page modules `names` ("premove.js", "panels/moves.js"...) as a browser reading
 * `language` imports them: an object of their namespaces by name. Each language has
 * its own copy of the static folder, so its modules are their own instances.
 */
export async function pageModules(language, names) {
  setStage();
  if (!copies.has(language)) {
    const dir = join(mkdtempSync(join(tmpdir(), `pages-${language}-`)), "js");
    cpSync(join(SRC, "serving/static/js"), dir, { recursive: true });
    cpSync(join(SRC, "web/static/js"), dir, { recursive: true });
    copies.set(language, dir);
    process.once("exit", () => rmSync(join(dir, ".."), { recursive: true, force: true }));
  }
  globalThis.navigator = { languages: [language], language };
  const loaded = {};
  for (const name of names) loaded[name] = await import(pathToFileURL(join(copies.get(language), name)).href);
  return loaded;
}
