// How arguments become JSON text (npm/arguments.js): plain data is written
// by JSON.stringify alone, anything else goes through the replacer that
// refuses non-JSON data by path. Both ways must give the same text, and
// nothing the replacer refuses may slip through the plain path.
//
//   node --test tests/js/arguments.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { REPO } from "./impl.mjs";

const { encodeOne, encodeWith, viewBatchColumns, viewColumns, MAX_DEPTH } = await import(new URL("npm/arguments.js", REPO));

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
    assert.equal(encodeOne("query", value), JSON.stringify(expected), JSON.stringify(expected));
  }
});

test("encodeOne (the handles' one-argument methods) writes and refuses exactly as encodeWith", () => {
  const outcome = (call) => {
    try {
      return { text: call() };
    } catch (error) {
      return { code: error.code, message: error.message };
    }
  };
  const sparse = [1, , 3]; // eslint-disable-line no-sparse-arrays
  const cycle = { type: "sprint" };
  cycle.self = cycle;
  const values = [
    { observer: "tok0000000000001", hider: "tok0000000000000" },
    { observer: "Garde « élite » 🎲", hider: "a\ud800b" },
    { view: [{ distance: NaN }] },
    { roll: 10n },
    sparse,
    cycle,
    new Date(0),
    Object(7),
    null,
    undefined,
    () => 1,
    Symbol("query"),
  ];
  for (const spec of ["query", "tokens?"]) {
    for (const value of values) {
      assert.deepEqual(outcome(() => encodeOne(spec, value)), outcome(() => encodeWith([spec], [value])[0]), `${spec}: ${String(value?.toString?.() ?? value)}`);
    }
  }
  assert.equal(encodeOne("tokens?", undefined), "null");
  assert.deepEqual(outcome(() => encodeOne("query", undefined)), { code: "invalid_input", message: "query: missing (undefined)" });
});

test("viewColumns: a plain viewChanged becomes columns (ids joined by U+0000, 0/1 bytes, distances with NaN for none, -0 as 0, lone surrogates as U+FFFD)", () => {
  const columns = viewColumns({
    type: "viewChanged",
    hider: "spy\ud800",
    moved: true,
    view: [
      { observer: "guard", clearView: true, distance: 5.5 },
      { observer: "garde « élite » 🎲", clearView: false },
      Object.assign(Object.create(null), { observer: "x\udc00y", clearView: true, distance: null }),
      { distance: -0, clearView: false, observer: "" },
      { observer: "undefined-distance", clearView: true, distance: undefined },
    ],
  });
  assert.equal(columns.hider, "spy\ufffd");
  assert.equal(columns.moved, true);
  assert.equal(columns.observers, "guard\0garde « élite » 🎲\0x\ufffdy\0\0undefined-distance");
  assert.deepEqual([...columns.clearView], [1, 0, 1, 0, 1]);
  assert.deepEqual([...columns.distance].map((d) => (Number.isNaN(d) ? "none" : d)), [5.5, "none", "none", 0, "none"]);
  assert.ok(Object.is(columns.distance[3], 0), "-0 is sent as 0, as JSON writes it");
  // moved absent or undefined is false, as serde's default; an empty view is empty columns.
  const empty = viewColumns({ type: "viewChanged", hider: "spy", moved: undefined, view: [] });
  assert.deepEqual([empty.moved, empty.observers, empty.clearView.length, empty.distance.length], [false, "", 0, 0]);
});

test("viewColumns: anything the columns cannot carry exactly goes as text (null), and the text path words the refusal", () => {
  const entry = { observer: "guard", clearView: true, distance: 5 };
  const event = (change) => ({ type: "viewChanged", hider: "spy", view: [entry], ...change });
  const sparse = [];
  sparse.length = 1 << 20;
  class Entry {
    constructor() {
      Object.assign(this, entry);
    }
  }
  class View extends Array {}
  const notColumns = {
    "another event": { type: "stopHiding", hider: "spy" },
    "an unknown event key": event({ extra: 1 }),
    "an unknown entry key": event({ view: [{ ...entry, senses: [] }] }),
    "moved null": event({ moved: null }),
    "moved a number": event({ moved: 1 }),
    "hider missing": { type: "viewChanged", view: [entry] },
    "hider a number": event({ hider: 7 }),
    "view missing": { type: "viewChanged", hider: "spy" },
    "view an object": event({ view: { 0: entry, length: 1 } }),
    "view an Array subclass": event({ view: View.from([entry]) }),
    "a hole": event({ view: [entry, , entry] }),
    "a sparse view over the column limit": event({ view: sparse }),
    "an undefined entry": event({ view: [undefined] }),
    "a null entry": event({ view: [null] }),
    "a class instance entry": event({ view: [new Entry()] }),
    "an entry with toJSON": event({ view: [{ ...entry, toJSON: () => entry }] }),
    "an event with toJSON": { toJSON: () => event({}) },
    "a Map event": new Map(Object.entries(event({}))),
    "observer missing": event({ view: [{ clearView: true }] }),
    "observer a boxed string": event({ view: [{ ...entry, observer: new String("guard") }] }),
    "observer with U+0000": event({ view: [{ ...entry, observer: "gu\0ard" }] }),
    "observer over MAX_STRING": event({ view: [{ ...entry, observer: "x".repeat((1 << 20) + 1) }] }),
    "clearView missing": event({ view: [{ observer: "guard" }] }),
    "clearView a number": event({ view: [{ ...entry, clearView: 1 }] }),
    "distance NaN": event({ view: [{ ...entry, distance: NaN }] }),
    "distance Infinity": event({ view: [{ ...entry, distance: Infinity }] }),
    "distance a string": event({ view: [{ ...entry, distance: "5" }] }),
    "distance a boxed number": event({ view: [{ ...entry, distance: new Number(5) }] }),
    "distance a BigInt": event({ view: [{ ...entry, distance: 5n }] }),
    // JSON writes what the view's toJSON returns, its own or Array.prototype's.
    "a view with its own toJSON": event({ view: Object.assign([entry], { toJSON: () => [] }) }),
    // Reading it throws: null, and the text path words the refusal with a code.
    "a getter that throws": Object.defineProperty(event({}), "hider", { get: () => { throw new Error("boom"); }, enumerable: true }),
    "a view proxy whose get trap throws": event({ view: new Proxy([entry], { get: () => { throw new Error("boom"); } }) }),
    "a proxy whose ownKeys trap throws": new Proxy(event({}), { ownKeys: () => { throw new Error("boom"); } }),
    // 600 ids of 1 MiB: more than a string can hold once joined (V8: 2^29 - 24 characters).
    "ids too long to join": event({ view: Array.from({ length: 600 }, () => ({ ...entry, observer: "x".repeat(1 << 20) })) }),
  };
  for (const [name, value] of Object.entries(notColumns)) assert.equal(viewColumns(value), null, name);
  for (const name of ["distance NaN", "distance Infinity", "observer over MAX_STRING", "a hole"]) {
    assert.match(refusal(notColumns[name]), /^invalid_input: event\.view\[/, name);
  }
  for (const name of ["a getter that throws", "a view proxy whose get trap throws", "a proxy whose ownKeys trap throws"]) {
    assert.equal(refusal(notColumns[name]), "invalid_input: event: not JSON data (boom)", name);
  }
  Array.prototype.toJSON = () => [];
  try {
    assert.equal(viewColumns(event({})), null, "Array.prototype.toJSON");
  } finally {
    delete Array.prototype.toJSON;
  }
});

test("viewBatchColumns: a list of plain viewChanged events becomes one set of columns (hiders joined, moved bytes, counts, the views one after the other); anything else goes as text (null)", () => {
  const view = (hider, entries, moved) => ({ type: "viewChanged", hider, ...(moved === undefined ? {} : { moved }), view: entries });
  const columns = viewBatchColumns([
    view("rogue", [{ observer: "guard", clearView: true, distance: 5 }, { observer: "", clearView: false }], true),
    view("thief", []),
    view("spy\ud800", [{ observer: "captain", clearView: false, distance: -0 }]),
    view("rogue", [{ observer: "", clearView: true }]),
  ]);
  assert.equal(columns.hiders, "rogue\0thief\0spy\ufffd\0rogue");
  assert.deepEqual([...columns.moved], [1, 0, 0, 0]);
  assert.deepEqual([...columns.counts], [2, 0, 1, 1]);
  assert.equal(columns.observers, "guard\0\0captain\0", "four ids: guard, an empty one, captain, an empty one");
  assert.deepEqual([...columns.clearView], [1, 0, 0, 1]);
  assert.deepEqual([...columns.distance].map((d) => (Number.isNaN(d) ? "none" : d)), [5, "none", 0, "none"]);
  assert.ok(Object.is(columns.distance[2], 0), "-0 is sent as 0");

  const plain = view("rogue", [{ observer: "guard", clearView: true }]);
  const withToJSON = [plain];
  withToJSON.toJSON = () => [];
  const sparse = [plain];
  sparse.length = 3;
  const notColumns = {
    "an empty list": [],
    "not an array": { 0: plain, length: 1 },
    "a list with toJSON": withToJSON,
    "a hole": sparse,
    "another event in the list": [plain, { type: "stopHiding", hider: "rogue" }],
    "an event viewColumns refuses": [plain, view("rogue", [{ observer: "guard", clearView: 1 }])],
    "a hider with U+0000": [view("ro\0gue", [])],
    "more than 65,536 entries in all": [view("rogue", Array.from({ length: 40_000 }, () => ({ observer: "guard", clearView: true }))), view("thief", Array.from({ length: 30_000 }, () => ({ observer: "guard", clearView: true })))],
    "a getter that throws": [plain, Object.defineProperty({ type: "viewChanged", hider: "rogue" }, "view", { get() { throw new Error("boom"); }, enumerable: true })],
  };
  for (const [name, value] of Object.entries(notColumns)) assert.equal(viewBatchColumns(value), null, name);
});

test("an array with its own toJSON is not plain: what its toJSON returns is checked by the replacer (an Infinity distance behind it was read as no distance)", () => {
  const view = [{ observer: "guard", clearView: true, distance: 5 }];
  Object.defineProperty(view, "toJSON", { value: () => [{ observer: "guard", clearView: true, distance: Infinity }] });
  assert.equal(refusal({ type: "viewChanged", hider: "rogue", view }), "invalid_input: event.view[0].distance: Infinity is not a JSON number");
  const fine = [1, 2];
  Object.defineProperty(fine, "toJSON", { value: () => [3] });
  assert.equal(encode({ list: fine }), '{"list":[3]}', "a valid toJSON is still written as JSON.stringify writes it");
});
