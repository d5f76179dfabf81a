// How arguments become JSON text (npm/arguments.js): plain data is written
// by JSON.stringify alone, anything else goes through the replacer that
// refuses non-JSON data by path. Both ways must give the same text, and
// nothing the replacer refuses may slip through the plain path.
//
//   node --test tests/js/arguments.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { REPO } from "./impl.mjs";

const { encodeWith, MAX_DEPTH } = await import(new URL("npm/arguments.js", REPO));

const encode = (value) => encodeWith(["event"], [value])[0];
const refusal = (value) => {
  try {
    encode(value);
  } catch (error) {
    return `${error.code}: ${error.message}`;
  }
  assert.fail("not refused");
};

test("plain data is written exactly as JSON.stringify writes it", () => {
  const values = [
    {
      type: "viewChanged",
      hider: "tok0000000000000",
      moved: false,
      view: [
        { observer: "tok0000000000001", clearView: true, distance: 5 },
        { observer: "Garde « élite » 🎲", clearView: false, distance: 1.9999999999999998 },
      ],
    },
    { nothing: null, zero: -0, big: 1e300, small: -5e-324, skipped: undefined, nested: [[[]], {}] },
    Object.assign(Object.create(null), { id: "spy", toJSON: 3 }),
    "a string",
    42,
    true,
    null,
  ];
  for (const value of values) assert.equal(encode(value), JSON.stringify(value));
});

test("what is not plain goes through the replacer: the same refusals, by path", () => {
  assert.equal(refusal({ view: [{ distance: NaN }] }), "invalid_input: event.view[0].distance: NaN is not a JSON number");
  assert.equal(refusal({ view: [1, undefined] }), "invalid_input: event.view[1]: undefined is not JSON data");
  // eslint-disable-next-line no-sparse-arrays
  assert.equal(refusal({ view: [1, , 3] }), "invalid_input: event.view[1]: undefined is not JSON data");
  assert.equal(refusal({ roll: 10n }), "invalid_input: event.roll: a BigInt is not JSON data; use a number");
  assert.equal(refusal({ hider() {} }), "invalid_input: event.hider: a function is not JSON data");
  let deep = {};
  for (let i = 0; i < MAX_DEPTH + 1; i++) deep = { deep };
  assert.match(refusal(deep), /^invalid_input: event(\.deep)+: nested deeper than 64 levels$/);
  const cycle = { type: "sprint" };
  cycle.self = cycle;
  assert.match(refusal(cycle), /^invalid_input: event/);
});

test("values JSON.stringify transforms keep the replacer's reading", () => {
  // A lone surrogate becomes U+FFFD (the replacer's toWellFormed), not an escape.
  assert.equal(encode({ name: "a\ud800b" }), JSON.stringify({ name: "a\ufffdb" }));
  // toJSON (a Date) and class instances are written as JSON.stringify writes them.
  const date = new Date(0);
  assert.equal(encode({ at: date }), JSON.stringify({ at: date }));
  class Token {
    constructor() {
      this.id = "spy";
    }
  }
  assert.equal(encode(new Token()), '{"id":"spy"}');
  // A boxed number is an object to the replacer, as before.
  assert.equal(encode({ roll: Object(7) }), '{"roll":7}');
  // ...read as the number, string or BigInt JSON.stringify unboxes it to: a boxed NaN is refused, not written as null.
  assert.equal(refusal({ view: [{ distance: Object(NaN) }] }), "invalid_input: event.view[0].distance: NaN is not a JSON number");
  assert.equal(refusal({ roll: Object(-Infinity) }), "invalid_input: event.roll: -Infinity is not a JSON number");
  assert.equal(refusal({ roll: Object(10n) }), "invalid_input: event.roll: a BigInt is not JSON data; use a number");
  assert.equal(encode({ hider: Object("spy"), moved: Object(false) }), '{"hider":"spy","moved":false}');
});

test("a lone surrogate anywhere becomes U+FFFD: in a key, in a boxed string, after a backslash; a backslash followed by \"ud\" is text and stays", () => {
  const cases = [
    // Keys: the replacer cannot rename them (JSON.stringify wrote an escape serde_json refuses, naming no field).
    [{ ["a\ud800"]: 1, b: { ["\udfffz"]: "\ud83c" } }, { ["a\ufffd"]: 1, b: { ["\ufffdz"]: "\ufffd" } }],
    // A boxed string is an object to the replacer, unboxed by JSON.stringify after it.
    [{ name: Object("x\udc00") }, { name: "x\ufffd" }],
    [Object("x\ud800"), "x\ufffd"],
    [{ at: new Date(0), name: "a\ud800" }, { at: new Date(0), name: "a\ufffd" }],
    // A backslash before a lone surrogate; backslashes and "ud" that are only text.
    [{ name: "\\\ud800", other: "\\\\\udbff" }, { name: "\\\ufffd", other: "\\\\\ufffd" }],
    [{ name: "\\ud800 \\\\udfff", ["\\udc00"]: "\\\\\\ud83c" }, { name: "\\ud800 \\\\udfff", ["\\udc00"]: "\\\\\\ud83c" }],
    // Pairs are characters, written as they are.
    [{ name: "\ud83c\udfb2 🎲", ["🎲"]: 1 }, { name: "🎲 🎲", ["🎲"]: 1 }],
  ];
  for (const [value, expected] of cases) {
    assert.equal(encode(value), JSON.stringify(expected), JSON.stringify(expected));
  }
});

test("an optional argument left out is sent as null; a required one is invalid_input naming it", () => {
  assert.deepEqual(encodeWith(["tokens?"], []), ["null"]);
  assert.throws(() => encodeWith(["query"], [undefined]), { code: "invalid_input", message: "query: missing (undefined)" });
});

test("an array with its own toJSON is not plain: what its toJSON returns is checked by the replacer (an Infinity distance behind it was read as no distance)", () => {
  const view = [{ observer: "guard", clearView: true, distance: 5 }];
  Object.defineProperty(view, "toJSON", { value: () => [{ observer: "guard", clearView: true, distance: Infinity }] });
  assert.equal(refusal({ type: "viewChanged", hider: "rogue", view }), "invalid_input: event.view[0].distance: Infinity is not a JSON number");
  const fine = [1, 2];
  Object.defineProperty(fine, "toJSON", { value: () => [3] });
  assert.equal(encode({ list: fine }), '{"list":[3]}', "a valid toJSON is still written as JSON.stringify writes it");
});
