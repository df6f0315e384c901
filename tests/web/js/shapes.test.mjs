// Arrows and circles (js/shapes.js) without a browser: shapes belong to the position
// shown and drawing one again takes it away; they are said in words (English and
// Indonesian); the record's comments write them as lichess's do ([%csl ...] and
// [%cal ...], after the move that reaches their position) and a record read back gives
// each position its shapes again, a variation's too; a record written elsewhere has its
// other colours read, and marks naming no square of the board, an arrow from a square to
// itself and malformed marks left out. The browser keeps the journeys of drawing by
// mouse and keyboard and of a record's round trip (tests/web/test_browser_shapes.py).

import assert from "node:assert/strict";
import { test } from "node:test";

import { FakeElement, message, pageModules } from "./stage.mjs";

const EMPTY = ".".repeat(16);
const START = { rows: 4, cols: 4, cells: [...EMPTY], turn: "x", plies: 4 };
const HEAD = '[Event "?"]\n[Size "4x4"]';

/** Each position's shapes of a readShapes answer: key -> sorted shape keys. */
function byKey(found) {
  return Object.fromEntries([...found].map(([key, shapes]) => [key, [...shapes.keys()].sort()]));
}

/** A position's key as shapes.js keys it: the 4x4 board's cells after `moves`. */
function key(...moves) {
  const cells = [...EMPTY];
  const names = (name) => (name.charCodeAt(0) - 97) + 4 * (Number(name.slice(1)) - 1);
  let turn = "x";
  for (const move of moves) {
    cells[names(move)] = turn;
    turn = turn === "x" ? "o" : "x";
  }
  return `4x4:${cells.join("")}`;
}

/** A Shapes on a 4x4 board of fake squares, showing `cells`. */
function rig(Shapes, cells = EMPTY) {
  const el = new FakeElement("div");
  const squares = new Map();
  for (let i = 0; i < 16; i += 1) {
    const name = `${"abcd"[i % 4]}${Math.floor(i / 4) + 1}`;
    const sq = el.appendChild(new FakeElement("button"));
    sq.dataset.square = name;
    squares.set(name, sq);
  }
  const board = { el, squares, rows: 4, cols: 4, cells };
  const changes = [];
  const shapes = new Shapes(board, new FakeElement("div"), () => changes.push(board.cells));
  const drawn = () => shapes.svg.querySelectorAll(".shape").map((n) => [n.classList.contains("arrow") ? "arrow" : "circle", n.dataset.from, n.dataset.to ?? null]);
  return { shapes, board, changes, drawn };
}

const { "shapes.js": shapesModule } = await pageModules("en", ["shapes.js"]);
const { readShapes, annotate, hasShapes, Shapes } = shapesModule;

test("a written record's marks are read as far as they name the board", () => {
  const body = "{[%csl Ra1,Ga5,Gi1,Xb2,Gc][%cal Yb1b3,Ga1a1,Bc1c9]} 1. c2 {[%emt 1.5]} {[%csl Bd4]} 1... b3 1-0";
  const found = readShapes(`${HEAD}\n\n${body}\n`, START);
  assert.deepEqual(byKey(found), { [key()]: ["a1", "b1-b3"], [key("c2")]: ["d4"] });
  assert.deepEqual(found.get(key()).get("b1-b3"), { kind: "arrow", from: "b1", to: "b3" });
  assert.deepEqual(found.get(key()).get("a1"), { kind: "circle", from: "a1" });
});

test("a variation's comments belong to its own positions", () => {
  const body = "1. c2 ( 1. b2 {[%csl Ga1]} ) 1... b3 {[%cal Ga1b1]} ( 1... d4 {[%csl Gd1]} ) *";
  assert.deepEqual(byKey(readShapes(`${HEAD}\n\n${body}\n`, START)), {
    [key("b2")]: ["a1"], [key("c2", "b3")]: ["a1-b1"], [key("c2", "d4")]: ["d1"],
  });
});

test("a position's comments add up; the JSON format and a record without comments keep none", () => {
  const twice = readShapes(`${HEAD}\n\n{[%csl Ga1]} {[%csl Gb1]} 1. c2 *\n`, START);
  assert.deepEqual(byKey(twice), { [key()]: ["a1", "b1"] });
  assert.equal(readShapes('{"moves": []}', START).size, 0);
  assert.equal(readShapes(`${HEAD}\n\n1. c2 *\n`, START).size, 0);
});

test("shapes belong to the shown position, a second drawing takes one away", () => {
  const { shapes, board, changes, drawn } = rig(Shapes);
  shapes.toggle("a3", "c3");
  shapes.toggle("b4");
  shapes.toggle("c2", "c2"); // an arrow to its own square is a circle
  assert.deepEqual(drawn(), [["arrow", "a3", "c3"], ["circle", "b4", null], ["circle", "c2", null]]);
  shapes.toggle("b4");
  assert.deepEqual(drawn(), [["arrow", "a3", "c3"], ["circle", "c2", null]]);
  assert.equal(changes.length, 4);
  board.cells = key("c2").slice(4);
  shapes.draw();
  assert.deepEqual(drawn(), []); // another position: its own, none
  board.cells = EMPTY;
  shapes.draw();
  assert.deepEqual(drawn(), [["arrow", "a3", "c3"], ["circle", "c2", null]]);
  assert.equal(hasShapes(), true);
});

test("the record written with the shapes reads back the same shapes on their positions", () => {
  const { shapes, board } = rig(Shapes);
  shapes.toggle("a3", "c3");
  shapes.toggle("c2");
  board.cells = key("c2").slice(4);
  shapes.toggle("d3");
  board.cells = key("b2").slice(4);
  shapes.toggle("d1", "d3");
  const text = `${HEAD}\n\n1. c2 ( 1. b2 ) 1... b3 *\n`;
  const annotated = annotate(text, START);
  assert.equal(
    annotated,
    `${HEAD}\n\n{[%csl Gc2][%cal Ga3c3]} 1. c2 {[%csl Gd3]} ( 1. b2 {[%cal Gd1d3]} ) 1... b3 *\n`,
  );
  assert.deepEqual(byKey(readShapes(annotated, START)), {
    [key()]: ["a3-c3", "c2"], [key("c2")]: ["d3"], [key("b2")]: ["d1-d3"],
  });
  for (const cells of [EMPTY, key("c2").slice(4), key("b2").slice(4)]) {
    board.cells = cells;
    for (const shape of [...shapes.shapes().values()]) shapes.toggle(shape.from, shape.to ?? null);
  }
  assert.equal(hasShapes(), false);
  assert.equal(annotate(text, START), text); // nothing drawn: the record as it was
});

for (const language of ["en", "id"]) {
  test(`${language}: the shapes drawn are said in the page's words`, async () => {
    const { "shapes.js": { Shapes: Said } } = await pageModules(language, ["shapes.js"]);
    const { shapes } = rig(Said);
    shapes.toggle("b4");
    shapes.toggle("a3", "c3");
    const say = (k, params) => message(language, k, params);
    const circle = say("shapes.circle", { square: "b4" });
    const arrow = say("shapes.arrow", { from: "a3", to: "c3" });
    assert.ok(shapes.words.textContent.startsWith(say("shapes.drawn", { shapes: "" }).replace(/\.$/, "")));
    assert.ok(shapes.words.textContent.includes(circle) && shapes.words.textContent.includes(arrow), shapes.words.textContent);
    shapes.toggle("b4");
    shapes.toggle("a3", "c3");
    assert.equal(shapes.words.textContent, "");
  });
}
