// @ts-check
// The pages' DOM helpers, one copy for both servers' pages: finding elements and
// making them. The finders return `any`: a page knows which element an id or selector
// names (an input, a dialog, a table), which the type checker cannot.

/**
 * The first element matching `selector`, or null.
 * @type {(selector: string) => any}
 */
export const $ = (selector) => document.querySelector(selector);

/**
 * The element whose id is `id`, or null.
 * @type {(id: string) => any}
 */
export const byId = (id) => document.getElementById(id);

/**
 * A new HTML element: `attrs` set as attributes (`class` as the class name; undefined,
 * null and false left out, true as an empty attribute), `children` appended (nested
 * arrays flattened; nodes as they are, anything else as text; null, undefined and false
 * left out).
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...any} children
 * @returns {any}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * A new SVG element with `attrs` as attributes and, if given (not null or undefined),
 * `text` as its text.
 * @param {string} name
 * @param {Record<string, any>} [attrs]
 * @param {string | number | null} [text]
 * @returns {any}
 */
export function svg(name, attrs = {}, text = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== null && text !== undefined) node.textContent = String(text);
  return node;
}

/**
 * A new SVG element (as {@link svg}) appended to `parent`.
 * @param {Element} parent
 * @param {string} name
 * @param {Record<string, any>} [attrs]
 * @returns {any}
 */
export function svgIn(parent, name, attrs = {}) {
  return parent.appendChild(svg(name, attrs));
}

/**
 * Every element under `root` matching `selector`, as an array.
 * @type {(selector: string, root?: ParentNode) => any[]}
 */
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

/**
 * Write `text` into `node` only when it differs from the words there: a live region
 * rewritten with the same words is read again by some screen readers, so a status is
 * written once per change. Returns whether it wrote.
 * @param {Element} node
 * @param {string} text
 * @returns {boolean}
 */
export function setText(node, text) {
  if (node.textContent === text) return false;
  node.textContent = text;
  return true;
}

/**
 * A small button (`btn small`) showing `text`, which calls `onClick` when pressed.
 * @param {string} text
 * @param {(event: MouseEvent) => any} onClick
 * @returns {HTMLButtonElement}
 */
export function smallButton(text, onClick) {
  const b = el("button", { type: "button", class: "btn small" }, text);
  b.addEventListener("click", onClick);
  return b;
}
