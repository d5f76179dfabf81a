// `Session.apply` of a `viewChanged`, and `Session.applyAll` of a list of
// them, by both ways in, compared: a plain
// event goes as columns (npm/arguments.js `viewColumns`), the same event
// behind `toJSON` goes as JSON text (an object with `toJSON` is never
// columns), and the free function `apply(state, event)` always reads text.
// All three must answer alike: the same effects, the same error code and
// message, the same state afterwards, a refusal changing nothing, and every
// thrown error an `Error` with a string `code`.
//
// Pure ECMAScript with no Node.js import, like runner.mjs: the same file
// runs in Node (napi, wasm) and in Chromium (wasm), from
// tests/js/view-columns.test.mjs.

import { viewBatchColumns, viewColumns } from "../../npm/arguments.js";

/** Ids of the table: short, Unicode, a lone surrogate (kept as U+FFFD), 256 bytes, Foundry-length ids sharing eight bytes, one with U+0000. */
const LONG_ID = "L".repeat(256);
const WIDE_ID = "é".repeat(128);
const IDS = ["rogue", "thief", "guard", "hound", "captain", "garde « élite » 🎲", "espion\ud800", "abcdefghABCDEFGH", "abcdefghABCDEFGI", LONG_ID, WIDE_ID, "nul\0id"];
/** Hiders that entered stealth in the base state. */
const HIDERS = IDS.slice(0, 8);
/** Ids the table lacks or refuses: empty, 257 bytes, the surrogate's replacement spelled out, a lone half of an emoji. */
const STRANGERS = ["", "nobody", `${LONG_ID}x`, `${WIDE_ID}a`, "espion\ufffd", "espion\udbff", "\ud83c", "ROGUE", "a\0b"];
/** Distances at the edges: -0, subnormals, the senses' ranges (10, 30) and their neighbours, 1e9 and just above, huge. */
const DISTANCES = [
  0, -0, 5e-324, -5e-324, 2.2250738585072014e-308, 0.1, 0.30000000000000004, 9.999999999999998, 10, 10.000000000000002,
  29.999999999999996, 30, 30.000000000000004, 999999999.9999999, 1e9, 1000000000.0000001, 2e9, 1e300, Number.MAX_VALUE, -1, 2 ** 53 + 2,
];
/** Distances the text path refuses or reads as something else. */
const NOT_DISTANCES = [NaN, Infinity, -Infinity, "5", 5n, true, {}, []];

/** The base table: every id, three sides, senses with ranges 30 and 10 (O13) or acuities (P3). */
export function config(ruleset) {
  return {
    ruleset,
    creatures: IDS.map((id, i) => {
      const creature = { id, side: ["party", "watch", "neutral"][i % 3] };
      if (ruleset === "opposed") {
        creature.stealthModifier = i;
        if (i % 4 === 2) creature.enhancedSenses = [{ sense: "tremorsense", range: 30 }];
        if (i % 4 === 3) creature.enhancedSenses = [{ sense: "blindsight", range: 10 }];
      } else {
        creature.stealthSkill = 10 * i;
        creature.acuities = { visual: 5 * i, auditory: 3 * i, olfactory: i };
      }
      return creature;
    }),
  };
}

/** mulberry32: a small seeded generator, the same sequence everywhere. */
function generator(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
  };
}

/** A property defined by a getter, enumerable like a data property. */
function getter(target, key, read) {
  Object.defineProperty(target, key, { get: read, enumerable: true, configurable: true });
  return target;
}

/** Events named for what they test, besides the random ones: each `make()` builds a fresh one. */
function namedCases() {
  const entry = (observer = "guard", clearView = true, distance = 5) => ({ observer, clearView, distance });
  const event = (view, extra = {}) => ({ type: "viewChanged", hider: "rogue", view, ...extra });
  const boom = () => {
    throw new Error("boom");
  };
  return [
    // A view array with its own toJSON: JSON writes what toJSON returns (here nobody), so must the columns.
    { name: "a view with its own toJSON", make: () => Object.assign([entry(), entry("captain")], { toJSON: () => [] }), wrap: (view) => event(view) },
    { name: "Array.prototype.toJSON", make: () => event([entry(), entry("captain", false)]), pollute: () => {
      Array.prototype.toJSON = function () {
        return this.slice(1);
      };
      return () => delete Array.prototype.toJSON;
    } },
    // Getters and proxy traps that throw: the text path's refusal (`event: not JSON data (boom)`), never an uncoded error.
    { name: "a hider getter that throws", make: () => getter({ type: "viewChanged", view: [] }, "hider", boom) },
    { name: "a view getter that throws", make: () => getter({ type: "viewChanged", hider: "rogue" }, "view", boom) },
    { name: "an entry getter that throws", make: () => event([getter({ observer: "guard", distance: 1 }, "clearView", boom)]) },
    { name: "a toJSON getter that throws on an entry", make: () => event([getter(entry(), "toJSON", boom)]) },
    { name: "a view whose toJSON getter throws", make: () => event(getter([entry()], "toJSON", boom)) },
    { name: "a proxy whose ownKeys trap throws", make: () => new Proxy(event([entry()]), { ownKeys: boom }) },
    { name: "a proxy whose getPrototypeOf trap throws", make: () => new Proxy(event([entry()]), { getPrototypeOf: boom }) },
    { name: "a view proxy whose get trap throws", make: () => event(new Proxy([entry()], { get: boom })) },
    { name: "a view proxy", make: () => event(new Proxy([entry(), entry("hound", false, 9)], {})) },
    { name: "an event proxy", make: () => new Proxy(event([entry()]), {}) },
    { name: "pure getters everywhere", make: () => {
      const view = [getter(getter(getter({}, "observer", () => "guard"), "clearView", () => true), "distance", () => 29.999999999999996)];
      return getter(getter(getter({}, "type", () => "viewChanged"), "hider", () => "rogue"), "view", () => view);
    } },
    { name: "null-prototype event and entries", make: () => Object.assign(Object.create(null), event([Object.assign(Object.create(null), entry())])) },
    { name: "frozen event, view and entries", make: () => Object.freeze(event(Object.freeze([Object.freeze(entry()), Object.freeze(entry("captain"))]))) },
    { name: "a view with extra properties and a Symbol key", make: () => event(Object.assign([entry()], { extra: 1, [Symbol("s")]: 2 })) },
    { name: "Symbol keys and non-enumerable keys", make: () => {
      const value = event([Object.defineProperty({ ...entry(), [Symbol("s")]: 1 }, "note", { value: 1 })], { [Symbol("t")]: 2 });
      return Object.defineProperty(value, "extra", { value: "not written" });
    } },
    { name: "toJSON on a nested entry", make: () => event([{ ...entry(), toJSON: () => entry("captain", false) }]) },
    { name: "a sparse view", make: () => event([entry(), , entry("captain")]) },
    { name: "an undefined property", make: () => event([{ ...entry(), distance: undefined }], { moved: undefined }) },
    { name: "an empty view", make: () => event([]) },
    { name: "the hider itself and duplicates", make: () => event([entry("captain"), entry("captain", false, 3), entry("rogue")]) },
    { name: "an observer id with U+0000", make: () => event([entry("nul\0id", true, 2)]) },
    { name: "a hider id with U+0000", make: () => ({ ...event([entry("guard")]), hider: "nul\0id" }) },
    { name: "lone surrogates", make: () => ({ ...event([entry("espion\ud800"), entry("espion\udbff")]), hider: "espion\udc00" }) },
    { name: "10,000 entries", make: () => event(Array.from({ length: 10_000 }, (_, i) => entry(IDS[i % 5], i % 3 === 0, i % 7 === 0 ? null : i / 100))) },
    { name: "70,000 entries (over the column limit: text)", make: () => event(Array.from({ length: 70_000 }, (_, i) => entry(IDS[i % 5], i % 2 === 0, i % 40))) },
  ].map(({ name, make, wrap, pollute }) => ({ name, make: wrap ? () => wrap(make()) : make, pollute }));
}

/** One random `viewChanged`, mostly plain and valid, sometimes a near miss. */
function randomCase(random, index) {
  const { pick, chance, next } = random;
  const clean = chance(0.6);
  const id = () => (clean || chance(0.85) ? pick(IDS) : pick(STRANGERS));
  const distance = () => {
    const roll = next();
    if (roll < 0.15) return { absent: true };
    if (roll < 0.25) return { value: null };
    if (roll < 0.3) return { value: undefined };
    if (clean || roll < 0.75) return { value: clean ? Math.min(Math.abs(pick(DISTANCES)), 1e9) : pick(DISTANCES) };
    if (roll < 0.9) return { value: next() * pick([1, 40, 1e9, 2e9]) };
    return { value: pick(NOT_DISTANCES) };
  };
  const length = chance(0.02) ? 1000 : Math.floor(next() * 7);
  const entries = Array.from({ length }, () => ({
    observer: clean || chance(0.97) ? { value: id() } : pick([{ absent: true }, { value: 7 }, { value: null }]),
    clearView: clean || chance(0.97) ? { value: chance(0.5) } : pick([{ absent: true }, { value: 1 }, { value: null }]),
    distance: distance(),
    near: chance(clean ? 0.01 : 0.05) ? pick(["extraKey", "nullPrototype", "frozen", "classInstance", "toJSON"]) : null,
    reversed: chance(0.5),
  }));
  const recipe = {
    type: clean || chance(0.98) ? "viewChanged" : pick(["enterStealth", "viewchanged"]),
    hider: clean ? { value: pick(HIDERS) } : chance(0.95) ? { value: id() } : pick([{ absent: true }, { value: 3 }, { value: null }]),
    moved: pick([{ absent: true }, { value: true }, { value: false }, { value: undefined }, ...(clean ? [] : [{ value: null }, { value: 1 }])]),
    entries,
    viewNear: chance(clean ? 0.02 : 0.2) ? pick(["extraProperty", "hole", "longer", "toJSON", "subclass", "nullEntry"]) : null,
    eventNear: chance(clean ? 0.02 : 0.2) ? pick(["extraKey", "nullPrototype", "frozen", "getters", "proxy", "viewFirst"]) : null,
  };
  return { name: `random #${index}`, make: () => buildEvent(recipe) };
}

function buildEntry({ observer, clearView, distance, near, reversed }) {
  const fields = [["observer", observer], ["clearView", clearView], ["distance", distance]];
  if (reversed) fields.reverse();
  let entry = near === "nullPrototype" ? Object.create(null) : {};
  for (const [key, field] of fields) if (!field.absent) entry[key] = field.value;
  if (near === "extraKey") entry.senses = [];
  if (near === "frozen") Object.freeze(entry);
  if (near === "classInstance") entry = Object.assign(new (class Entry {})(), entry);
  if (near === "toJSON") Object.defineProperty(entry, "toJSON", { value: () => ({ ...entry, clearView: !entry.clearView }) });
  return entry;
}

function buildEvent({ type, hider, moved, entries, viewNear, eventNear }) {
  let view = entries.map(buildEntry);
  if (viewNear === "extraProperty") view.note = "not written";
  if (viewNear === "hole" && view.length > 0) delete view[view.length >> 1];
  if (viewNear === "longer") view.length += 2;
  if (viewNear === "toJSON") Object.defineProperty(view, "toJSON", { value: () => view.slice(1) });
  if (viewNear === "subclass") view = (class View extends Array {}).from(view);
  if (viewNear === "nullEntry") view.push(null);
  const fields = [["type", { value: type }], ["hider", hider], ["moved", moved], ["view", { value: view }]];
  if (eventNear === "viewFirst") fields.unshift(fields.pop());
  let event = eventNear === "nullPrototype" ? Object.create(null) : {};
  for (const [key, field] of fields) if (!field.absent) event[key] = field.value;
  if (eventNear === "extraKey") event.note = 1;
  if (eventNear === "frozen") Object.freeze(event);
  if (eventNear === "getters") {
    const values = { ...event };
    event = {};
    for (const key of Object.keys(values)) getter(event, key, () => values[key]);
  }
  if (eventNear === "proxy") event = new Proxy(event, {});
  return event;
}

/** What a call answered: `{ ok }`, `{ error: "code: message" }`, or `{ uncoded }` for anything else thrown. */
function answer(call) {
  try {
    return { ok: call() };
  } catch (error) {
    if (error instanceof Error && typeof error.code === "string") return { error: `${error.code}: ${error.message}` };
    return { uncoded: `${error?.name}: ${error?.message ?? String(error)}` };
  }
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Whether `api.Session.apply` sends a plain `viewChanged` as columns: it
 * reads a plain event once (viewColumns), and twice or more as text
 * (`plain()` then `JSON.stringify`).
 */
export function sendsColumns(api) {
  const session = api.Session.create({ ruleset: "opposed", creatures: [{ id: "rogue", side: "a" }, { id: "guard", side: "b" }] });
  try {
    session.apply({ type: "enterStealth", hider: "rogue", roll: 14, moved: true });
    let reads = 0;
    session.apply(getter({ type: "viewChanged", hider: "rogue" }, "view", () => {
      reads++;
      return [{ observer: "guard", clearView: true, distance: 5 }];
    }));
    return reads === 1;
  } finally {
    session.free();
  }
}

/**
 * Runs the named cases and `count` random ones (from `seed`) through
 * `api`, on both rulesets: columns against text against the free
 * function (`functions: false` for a build without it, the Foundry
 * module's). Returns `{ cases, columns, problems }`: how many ran, how many
 * `viewColumns` took as columns, and each disagreement found.
 */
export function compareViewChanged(api, { seed = 1, count = 300, functions = true } = {}) {
  const random = generator(seed);
  const cases = [...namedCases(), ...Array.from({ length: count }, (_, i) => randomCase(random, i))];
  const problems = [];
  const states = {};
  for (const ruleset of ["opposed", "percentile"]) {
    const session = api.Session.create(config(ruleset));
    HIDERS.forEach((hider, i) => session.apply({ type: "enterStealth", hider, roll: ruleset === "opposed" ? 5 + 3 * i : 20 + 5 * i, moved: true }));
    states[ruleset] = session.snapshot();
    session.free();
  }
  let columns = 0;
  cases.forEach(({ name, make, pollute }, index) => {
    const ruleset = index % 2 === 0 ? "opposed" : "percentile";
    const state = states[ruleset];
    const [first, second] = [api.Session.load(state), api.Session.load(state)];
    // The free function sends the state as text too: not while a prototype is polluted.
    const byFunction = functions && pollute === undefined ? answer(() => api.apply(state, make())) : null;
    const undo = pollute?.() ?? (() => {});
    let byColumns, byText;
    try {
      if (answer(() => viewColumns(make())).ok) columns++;
      byColumns = answer(() => first.apply(make()));
      byText = answer(() => second.apply({ toJSON: () => make() }));
    } finally {
      undo();
    }
    const [afterColumns, afterText] = [first.snapshot(), second.snapshot()];
    first.free();
    second.free();
    const where = `${name} (${ruleset})`;
    if (byColumns.uncoded !== undefined) problems.push(`${where}: threw an error without a code: ${byColumns.uncoded}`);
    if (!same(byColumns, byText)) {
      problems.push(`${where}: columns answered ${JSON.stringify(byColumns).slice(0, 300)}, text ${JSON.stringify(byText).slice(0, 300)}`);
    } else if (!same(afterColumns, afterText)) {
      problems.push(`${where}: the state after differs between columns and text`);
    }
    if (byColumns.ok === undefined && !same(afterColumns, state)) problems.push(`${where}: refused (${byColumns.error ?? byColumns.uncoded}) but changed the session`);
    if (byFunction !== null) {
      if (byFunction.error !== undefined || byColumns.error !== undefined) {
        if (byFunction.error !== byColumns.error) problems.push(`${where}: the free function answered ${byFunction.error}, the session ${byColumns.error}`);
      } else if (!same(byFunction.ok?.state, afterColumns)) {
        problems.push(`${where}: the free function's state differs from the session's`);
      }
    }
  });
  return { cases: cases.length, columns, problems };
}

/**
 * Whether `api.Session.applyAll` sends a list of plain `viewChanged`
 * events as columns: a plain event's getter is read once
 * (viewBatchColumns), and twice or more as text.
 */
export function sendsBatchColumns(api) {
  const session = api.Session.create({ ruleset: "opposed", creatures: [{ id: "rogue", side: "a" }, { id: "thief", side: "a" }, { id: "guard", side: "b" }] });
  try {
    session.applyAll(["rogue", "thief"].map((hider) => ({ type: "enterStealth", hider, roll: 14, moved: true })));
    let reads = 0;
    const effects = session.applyAll([
      getter({ type: "viewChanged", hider: "rogue" }, "view", () => {
        reads++;
        return [{ observer: "guard", clearView: true, distance: 5 }];
      }),
      { type: "viewChanged", hider: "thief", view: [] },
    ]);
    return reads === 1 && effects.requests.length === 1;
  } finally {
    session.free();
  }
}

/**
 * Lists of events named for where the batch columns could go wrong (the
 * joins of arguments.js `viewBatchColumns`, its limits, a refusal among
 * them), besides the random lists of `compareViewBatches`: each `make()`
 * builds a fresh list.
 */
function namedBatches() {
  const event = (hider, view, extra = {}) => ({ type: "viewChanged", hider, view, ...extra });
  const entry = (observer, clearView = true, distance = 5) => ({ observer, clearView, distance });
  const many = (length, make) => Array.from({ length }, (_, i) => make(i));
  const near = ["guard", "hound", "captain", "thief"];
  return [
    { name: "an empty view first", make: () => [event("rogue", []), event("thief", [entry("guard")])] },
    { name: "an empty view last", make: () => [event("rogue", [entry("guard")]), event("thief", [])] },
    { name: "every view empty", make: () => [event("rogue", []), event("thief", []), event("captain", [])] },
    { name: "one empty id, the only entry", make: () => [event("rogue", [entry("")])] },
    { name: "single empty ids between empty views", make: () => [event("rogue", []), event("thief", [entry("")]), event("captain", []), event("hound", [entry("")]), event("guard", [])] },
    { name: "empty hiders", make: () => [event("", []), event("", [entry("guard")])] },
    { name: "the same hider twice", make: () => [event("rogue", [entry("guard", false, null)], { moved: true }), event("rogue", [entry("guard")])] },
    { name: "a surrogate pair split across two hiders", make: () => [event("\ud83c", []), event("\udfb2", [])] },
    { name: "a surrogate pair split across two views", make: () => [event("rogue", [entry("\ud83c")]), event("thief", [entry("\udfb2")])] },
    { name: "a refusal in the middle", make: () => [event("rogue", [entry("guard")]), event("nobody", [entry("guard")]), event("thief", [entry("hound")])] },
    { name: "moved true, false and undefined", make: () => [event("rogue", [entry("guard")], { moved: true }), event("thief", [entry("guard")], { moved: false }), event("captain", [entry("guard")], { moved: undefined })] },
    { name: "65,536 entries over two views (the column limit)", make: () => [event("rogue", many(32_768, (i) => entry(near[i % 4], i % 2 === 0, i % 40))), event("thief", many(32_768, (i) => entry(near[i % 4], false, null)))] },
    { name: "65,537 entries over two views (text)", make: () => [event("rogue", many(32_768, (i) => entry(near[i % 4], true, i % 40))), event("thief", many(32_769, (i) => entry(near[i % 4], false, null)))] },
    { name: "65,536 events, most views empty", make: () => many(65_536, (i) => event(HIDERS[i % 5], i % 3 === 0 ? [entry("guard", true, i % 30)] : [])) },
    { name: "65,537 events (text)", make: () => many(65_537, (i) => event(HIDERS[i % 5], [])) },
    { name: "70,000 events of one entry (text)", make: () => many(70_000, (i) => event(HIDERS[i % 5], [entry("guard", i % 2 === 0, i % 30)])) },
  ];
}

/**
 * `Session.applyAll` of the named lists (`namedBatches`) and of lists of
 * one to four cases (named or random, as `compareViewChanged` draws them;
 * most lists all plain `viewChanged`, some with a near miss, another event
 * or an empty list): columns against the same list behind `toJSON`
 * (text). Returns `{ batches, columns, problems }`.
 */
export function compareViewBatches(api, { seed = 1, count = 200 } = {}) {
  const random = generator(seed);
  const named = namedCases().filter(({ pollute, name }) => pollute === undefined && !name.includes("entries"));
  const draw = (i) => (random.chance(0.2) ? random.pick(named) : randomCase(random, i));
  const states = {};
  for (const ruleset of ["opposed", "percentile"]) {
    const session = api.Session.create(config(ruleset));
    HIDERS.forEach((hider, i) => session.apply({ type: "enterStealth", hider, roll: ruleset === "opposed" ? 5 + 3 * i : 20 + 5 * i, moved: true }));
    states[ruleset] = session.snapshot();
    session.free();
  }
  const problems = [];
  let columns = 0;
  const batches = namedBatches();
  for (let index = 0; index < batches.length * 2 + count; index++) {
    let parts, make;
    if (index < batches.length * 2) {
      parts = [batches[index >> 1]];
      make = parts[0].make;
    } else {
      const size = random.chance(0.05) ? 0 : 1 + Math.floor(random.next() * 4);
      parts = Array.from({ length: size }, (_, i) => draw(index * 4 + i));
      make = () => parts.map(({ make }) => make());
    }
    const ruleset = index % 2 === 0 ? "opposed" : "percentile";
    const state = states[ruleset];
    const [first, second] = [api.Session.load(state), api.Session.load(state)];
    if (answer(() => viewBatchColumns(make())).ok) columns++;
    const byColumns = answer(() => first.applyAll(make()));
    const byText = answer(() => second.applyAll({ toJSON: () => make() }));
    const [afterColumns, afterText] = [first.snapshot(), second.snapshot()];
    first.free();
    second.free();
    const where = `batch #${index} of ${parts.map(({ name }) => name).join(", ") || "nothing"} (${ruleset})`;
    if (byColumns.uncoded !== undefined) problems.push(`${where}: threw an error without a code: ${byColumns.uncoded}`);
    if (!same(byColumns, byText)) {
      problems.push(`${where}: columns answered ${JSON.stringify(byColumns).slice(0, 300)}, text ${JSON.stringify(byText).slice(0, 300)}`);
    } else if (!same(afterColumns, afterText)) {
      problems.push(`${where}: the state after differs between columns and text`);
    }
    if (byColumns.ok === undefined && !same(afterColumns, state)) problems.push(`${where}: refused (${byColumns.error ?? byColumns.uncoded}) but changed the session`);
  }
  return { batches: batches.length * 2 + count, columns, problems };
}
