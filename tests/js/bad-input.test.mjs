// Bad input through the napi addon and the wasm build FURTIVE_IMPL names
// (`wasm-node`, the default, or `foundry-wasm`, the Foundry module's copy;
// tests/js/impl.mjs). Both
// serialize arguments with JSON.stringify and a replacer (npm/arguments.js)
// and parse them with serde_json in the engine. Each
// call must throw a real `Error` with a string `code` and a message naming
// the field, leave its arguments untouched, never crash the process, and
// leave the engine working. Both backends must throw the same code and the
// same message. Panics and wasm loading errors are checked at the end.
//
//   node --test tests/js/bad-input.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { REPO, loadNodeImpl } from "./impl.mjs";

const wasmImpl = process.env.FURTIVE_IMPL ?? "wasm-node";
const backends = { napi: await loadNodeImpl("napi"), wasm: await loadNodeImpl(wasmImpl) };

const config = {
  ruleset: "percentile",
  creatures: [
    { id: "spy", stealthSkill: 50 },
    { id: "guard", acuities: { visual: 10 } },
  ],
};
const state = backends.napi.createState(config);
const enter = { type: "enterStealth", hider: "spy", roll: 37 };

/** A valid call after every refusal: the engine still works (P1: 50 + 37 = 87). */
function stillWorks(api) {
  const outcome = api.apply(api.createState(config), enter);
  assert.equal(outcome.state.hiders.spy.score, 87);
}

function nested(depth, leaf, wrap) {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
}

function garbage(length) {
  // Deterministic junk: every UTF-16 code unit, lone surrogates included.
  let text = "";
  let seed = 12345;
  const chunk = [];
  for (let i = 0; i < 4096; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    chunk.push(seed & 0xffff);
  }
  const block = String.fromCharCode(...chunk);
  while (text.length < length) text += block;
  return text.slice(0, length);
}

const tenMegabytes = garbage(10 * 1024 * 1024);
const cyclic = { ...state };
cyclic.self = cyclic;
const throwingGetter = {
  type: "enterStealth",
  roll: 37,
  get hider() {
    throw new Error("getter blew up");
  },
};
const throwingProxy = new Proxy({}, {
  ownKeys() {
    throw new Error("ownKeys blew up");
  },
});

// [name, call, expected code, the field the message must name (prefix)]
const cases = [
  ["wrong type: number for a string", (f) => f.apply(state, { ...enter, hider: 3 }), "invalid_input", "event.hider"],
  ["wrong type: string for an integer", (f) => f.apply(state, { ...enter, roll: "37" }), "invalid_input", "event.roll"],
  ["wrong type: state is a string", (f) => f.apply("state", enter), "invalid_input", "state"],
  ["wrong type: event is an array", (f) => f.apply(state, [enter]), "invalid_input", "event"],
  ["wrong type: boolean setting", (f) => f.createState({ ...config, settings: { checkDie: true } }), "invalid_input", "config.settings.checkDie"],
  ["missing field", (f) => f.apply(state, { type: "enterStealth", hider: "spy" }), "invalid_input", "event"],
  ["missing query field", (f) => f.perceives(state, { observer: "guard" }), "invalid_input", "query"],
  ["unknown field", (f) => f.apply(state, { ...enter, rol: 1 }), "invalid_input", "event"],
  ["NaN", (f) => f.apply(state, { ...enter, roll: NaN }), "invalid_input", "event.roll"],
  ["NaN in a nested optional field", (f) => f.apply(state, { ...enter, view: [{ observer: "guard", clearView: true, distance: NaN }] }), "invalid_input", "event.view[0].distance"],
  ["Infinity", (f) => f.apply(state, { ...enter, roll: Infinity }), "invalid_input", "event.roll"],
  ["-Infinity in a creature", (f) => f.createState({ ruleset: "percentile", creatures: [{ id: "a", acuities: { visual: -Infinity } }] }), "invalid_input", "config.creatures[0].acuities.visual"],
  ["negative unsigned number (the same code as one above its bound)", (f) => f.createState({ ruleset: "percentile", creatures: [{ id: "a", stealthSkill: -1 }] }), "out_of_range", "config.creatures[0].stealthSkill"],
  ["negative d100", (f) => f.apply(state, { ...enter, roll: -5 }), "out_of_range", "roll"],
  ["fraction for an integer", (f) => f.apply(state, { ...enter, roll: 37.5 }), "invalid_input", "event.roll"],
  ["huge number", (f) => f.apply(state, { ...enter, roll: 1e300 }), "out_of_range", "event.roll: 1e+300 is out of range -1000..=1000"],
  ["huge hit count", (f) => f.apply(state, { type: "attack", attacker: "spy", target: "guard", hits: 2 ** 32 }), "out_of_range", "event.hits"],
  ["huge seed", (f) => f.settle(state, enter, 2 ** 60), "out_of_range", "seed"],
  ["negative seed", (f) => f.settle(state, enter, -1), "out_of_range", "seed"],
  ["B5: negative distance", (f) => f.concealedByDarkness({ targetInDarkness: true, observers: [{ darkvision: 0 }, { distance: -5, darkvision: 0 }] }), "invalid_input", "query.observers[1].distance"],
  ["B5: NaN distance", (f) => f.concealedByDarkness({ targetInDarkness: true, observers: [{ distance: NaN, darkvision: 0 }] }), "invalid_input", "query.observers[0].distance"],
  ["B5: Infinity darkvision (send \"unlimited\")", (f) => f.concealedByDarkness({ targetInDarkness: true, observers: [{ distance: 5, darkvision: Infinity }] }), "invalid_input", "query.observers[0].darkvision"],
  ["B5: darkvision as a word other than unlimited", (f) => f.concealedByDarkness({ targetInDarkness: true, observers: [{ distance: 5, darkvision: "infinite" }] }), "invalid_input", "query.observers[0].darkvision"],
  ["B5: no observers list", (f) => f.concealedByDarkness({ targetInDarkness: true }), "invalid_input", "query.observers"],
  ["O3: a side that is not a string", (f) => f.alliedSides({ side: "party", sides: ["party", "hostile", 3] }), "invalid_input", "query.sides[2]"],
  ["O3: an undefined side in the list (JSON null)", (f) => f.alliedSides({ side: "party", sides: [undefined] }), "invalid_input", "query.sides[0]"],
  ["O3: an undefined side (left out by JSON)", (f) => f.alliedSides({ side: undefined, sides: ["party"] }), "invalid_input", "query: missing field `side`"],
  ["O3: sides as one string", (f) => f.alliedSides({ side: "party", sides: "party" }), "invalid_input", "query.sides"],
  ["O3: an unknown field", (f) => f.alliedSides({ side: "party", sides: [], observer: "guard" }), "invalid_input", "query.observer"],
  ["unknown hider", (f) => f.apply(state, { ...enter, hider: "ghost" }), "unknown_token", "hider"],
  // B1: a query answers for a token the engine does not know (vector errors-unknown-ids); an id that is no id is bad input.
  ["an empty id in a query", (f) => f.perceives(state, { observer: "spy", hider: "" }), "invalid_input", "hider: a token id is 1 to 256 bytes"],
  ["state from a future version", (f) => f.apply({ ...state, version: 99 }, { type: "combatEnd" }), "unsupported_version", "version"],
  ["10 MB garbage string as the state", (f) => f.apply(tenMegabytes, enter), "invalid_input", "state"],
  ["10 MB garbage string as an id", (f) => f.apply(state, { ...enter, hider: tenMegabytes }), "invalid_input", "event.hider"],
  // An id within the 1 MiB string limit but too long to be a token id (1 to
  // 256 bytes) is not quoted whole in the message (it was: 1 MiB of message).
  ["a 1 MiB unknown id", (f) => f.apply(state, { ...enter, hider: "y".repeat(1024 * 1024) }), "unknown_token", "hider: unknown token `yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy…` (a token id is 1 to 256 bytes)"],
  ["Session.perceives: a 1 MiB id", (f) => session(f).perceives({ observer: "guard", hider: "y".repeat(1024 * 1024) }), "invalid_input", "hider: a token id is 1 to 256 bytes"],
  // A value or key within the 1 MiB string limit is not echoed whole either (it was: 1 MiB, 2 MiB of message).
  ["a 1 MiB string for a number", (f) => f.apply(state, { ...enter, roll: "y".repeat(1024 * 1024) }), "invalid_input", `event.roll: the string "${"y".repeat(256)}…" is not a whole number`],
  ["Session.apply: a 1 MiB unknown key", (f) => session(f).apply({ type: "combatEnd", ["k".repeat(1024 * 1024)]: 1 }), "invalid_input", "event"],
  ["Session.create: a 1 MiB ruleset", (f) => f.Session.create({ ruleset: "y".repeat(1024 * 1024) }), "invalid_input", `config.ruleset: unknown variant \`${"y".repeat(256)}…\``],
  ["10 MB garbage string as a key", (f) => f.apply(state, { ...enter, [tenMegabytes]: 1 }), "invalid_input", "event"],
  ["deeply nested arrays", (f) => f.apply(state, nested(100_000, enter, (v) => [v])), "invalid_input", "event[0][0][0]"],
  ["deeply nested objects in the state", (f) => f.apply({ ...state, creatures: nested(100_000, {}, (v) => ({ v })) }, enter), "invalid_input", "state.creatures.v.v.v"],
  // The platform's JSON.stringify reports a cycle for the whole argument.
  ["cyclic state", (f) => f.apply(cyclic, enter), "invalid_input", "state: not JSON data (Converting circular structure"],
  ["undefined event", (f) => f.apply(state, undefined), "invalid_input", "event"],
  ["missing arguments", (f) => f.apply(), "invalid_input", "state"],
  ["undefined array element", (f) => f.rollRequests(state, [undefined], 1), "invalid_input", "requests[0]"],
  ["array hole", (f) => f.rollRequests(state, [, { kind: "stealthRoll" }], 1), "invalid_input", "requests[0]"], // eslint-disable-line no-sparse-arrays
  ["null event", (f) => f.apply(state, null), "invalid_input", "event"],
  ["null query", (f) => f.perceives(state, null), "invalid_input", "query"],
  ["function as the event", (f) => f.apply(state, () => enter), "invalid_input", "event"],
  ["function as a field", (f) => f.apply(state, { ...enter, hider: () => "spy" }), "invalid_input", "event.hider"],
  ["symbol as the query", (f) => f.perceives(state, Symbol("query")), "invalid_input", "query"],
  ["symbol as a field", (f) => f.apply(state, { ...enter, hider: Symbol("spy") }), "invalid_input", "event.hider"],
  ["BigInt as a field", (f) => f.apply(state, { ...enter, roll: 37n }), "invalid_input", "event.roll"],
  ["BigInt as the seed", (f) => f.settle(state, enter, 7n), "invalid_input", "seed"],
  // JSON.stringify calls the getter before the replacer sees the key.
  ["a getter that throws", (f) => f.apply(state, throwingGetter), "invalid_input", "event: not JSON data (getter blew up)"],
  ["a proxy whose ownKeys trap throws", (f) => f.apply(state, throwingProxy), "invalid_input", "event"],
  ["a Map instead of an object", (f) => f.apply(state, new Map(Object.entries(enter))), "invalid_input", "event"],
  // Session methods: the same code and message on either backend.
  ["Session.perceives: wrong type", (f) => session(f).perceives({ observer: 3, hider: "spy" }), "invalid_input", "query.observer"],
  ["Session.perceives: missing field", (f) => session(f).perceives({ hider: "spy" }), "invalid_input", "query"],
  ["Session.perceives: unknown field", (f) => session(f).perceives({ observer: "guard", hider: "spy", seen: true }), "invalid_input", "query"],
  ["Session.perceives: NaN", (f) => session(f).perceives({ observer: "guard", hider: NaN }), "invalid_input", "query.hider"],
  ["Session.perceives: undefined", (f) => session(f).perceives(), "invalid_input", "query: missing (undefined)"],
  ["Session.canLocate: null", (f) => session(f).canLocate(null), "invalid_input", "query"],
  ["Session.perceives: an empty observer", (f) => session(f).perceives({ observer: "", hider: "spy" }), "invalid_input", "observer: a token id is 1 to 256 bytes"],
  // Queries refuse one token in two roles, as the events do (they answered "spy is not defenseless against spy").
  ["Session.knockout: the attacker as its own target", (f) => session(f).knockout({ attacker: "spy", target: "spy" }), "self_reference", "target: `spy` cannot act on itself"],
  ["Session.canPickpocket: the hider as its own target", (f) => session(f).canPickpocket({ hider: "spy", target: "spy", held: false, visible: false }), "self_reference", "target: `spy` cannot act on itself"],
  ["Session.canDefend: the target as the attacker", (f) => session(f).canDefend({ defender: "spy", target: "guard", attacker: "guard" }), "self_reference", "attacker: `guard` cannot act on itself"],
  ["Session.apply: bad field, type first", (f) => session(f).apply({ type: "enterStealth", hider: 3, roll: 37 }), "invalid_input", "event.hider"],
  ["Session.apply: bad field, type last", (f) => session(f).apply({ hider: "spy", roll: "37", type: "enterStealth" }), "invalid_input", "event.roll"],
  ["Session.apply: bad field deep in a list", (f) => session(f).apply({ type: "viewChanged", hider: "spy", view: [{ observer: "guard", clearView: true }, { observer: "guard", clearView: "yes" }] }), "invalid_input", "event.view[1].clearView"],
  // One clear view a pair (O4): the same observer twice is refused, naming the later entry (the last entry used to win).
  ["Session.apply: the same observer twice in a view", (f) => session(f).apply({ type: "viewChanged", hider: "spy", view: [{ observer: "guard", clearView: true }, { observer: "guard", clearView: false }] }), "duplicate_token", "view[1].observer: token `guard` is listed twice"],
  ["apply: the same observer twice in a view", (f) => f.apply(state, { type: "viewChanged", hider: "spy", view: [{ observer: "guard", clearView: true }, { observer: "guard", clearView: false }] }), "duplicate_token", "view[1].observer"],
  ["Session.apply: unknown type", (f) => session(f).apply({ type: "teleport", hider: "spy" }), "invalid_input", "event.type"],
  ["Session.apply: type not a string", (f) => session(f).apply({ type: 7 }), "invalid_input", "event.type"],
  ["Session.apply: no type", (f) => session(f).apply({ hider: "spy" }), "invalid_input", "event"],
  ["Session.apply: missing field", (f) => session(f).apply({ type: "enterStealth", hider: "spy" }), "invalid_input", "event"],
  ["Session.apply: unknown field", (f) => session(f).apply({ type: "combatEnd", round: 2 }), "invalid_input", "event"],
  ["Session.apply: an array", (f) => session(f).apply([enter]), "invalid_input", "event"],
  ["Session.applyAll: bad second event", (f) => session(f).applyAll([enter, { type: "enterStealth", hider: "spy", roll: 37.5 }]), "invalid_input", "events[1].roll"],
  ["Session.applyAll: not an array", (f) => session(f).applyAll(enter), "invalid_input", "events"],
  ["Session.create: bad creature", (f) => f.Session.create({ ruleset: "percentile", creatures: [{ id: "a", stealthSkill: "high" }] }), "invalid_input", "config.creatures[0].stealthSkill"],
  ["Session.load: a field of the other ruleset", (f) => f.Session.load({ ...hidingState, hiders: { spy: { ...hidingState.hiders.spy, heldTotal: 15 } } }), "invalid_input", "state.hiders.spy.heldTotal"],
  ["Session.load: bad pair field", (f) => f.Session.load({ ...hidingState, hiders: { spy: { ...hidingState.hiders.spy, pairs: { guard: { ...hidingState.hiders.spy.pairs.guard, perceived: "no" } } } } }), "invalid_input", "state.hiders.spy.pairs.guard.perceived"],
  ["Session.load: version 1 with a bad field", (f) => f.Session.load({ ...hidingState, version: 1, ruleset: 3 }), "invalid_input", "state.ruleset"],
  // A state names only its creatures (B3): it loaded, then hiddenFrom() listed a hider perceives() refused.
  ["Session.load: a hider that is no creature", (f) => f.Session.load({ ...hidingState, hiders: { ...hidingState.hiders, ghost: hidingState.hiders.spy } }), "unknown_token", "hiders.ghost: unknown token `ghost`"],
  ["Session.load: a pair whose observer is no creature", (f) => f.Session.load({ ...hidingState, hiders: { spy: { ...hidingState.hiders.spy, pairs: { ...hidingState.hiders.spy.pairs, phantom: hidingState.hiders.spy.pairs.guard } } } }), "unknown_token", "hiders.spy.pairs.phantom: unknown token `phantom`"],
  // A key longer than a token id is named by its first 32 bytes, not echoed whole (1 MiB of UTF-8 here).
  ["Session.load: a hider keyed by 1 MiB", (f) => f.Session.load({ ...hidingState, hiders: { ["é".repeat(2 ** 19)]: hidingState.hiders.spy } }), "unknown_token", `hiders.${"é".repeat(16)}…: unknown token \`${"é".repeat(16)}…\` (a token id is 1 to 256 bytes)`],
  ["Session.load: a creature keyed by 1 MiB", (f) => f.Session.load({ ...hidingState, creatures: { ...hidingState.creatures, ["é".repeat(2 ** 19)]: hidingState.creatures.guard } }), "invalid_input", `creatures.${"é".repeat(16)}….id: the key \`${"é".repeat(16)}…\` and the creature id \`guard\` differ`],
  ["Session.load: a future version", (f) => f.Session.load({ ...hidingState, version: 3 }), "unsupported_version", "version"],
  ["Session.load: a revision past 2^53 - 1", (f) => f.Session.load({ ...hidingState, revision: 2 ** 53 }), "out_of_range", "revision"],
];

/** A fresh session of `config` with the spy hiding. */
function session(api) {
  const fresh = api.Session.create(config);
  fresh.apply(enter);
  return fresh;
}
const hidingState = backends.napi.apply(state, enter).state;

const stateBefore = JSON.stringify(state);

for (const [name, call, code, field] of cases) {
  test(`bad input: ${name}`, () => {
    const thrown = {};
    for (const [backend, api] of Object.entries(backends)) {
      let error;
      assert.throws(() => call(api), (e) => ((error = e), true), `${backend} did not throw`);
      // The Foundry module's wasm has no seeded roller and no scene reader.
      if (backend === "wasm" && wasmImpl === "foundry-wasm" && error?.code === "not_in_this_build") continue;
      assert.ok(error instanceof Error, `${backend}: threw ${typeof error}, not an Error`);
      assert.equal(typeof error.code, "string", `${backend}: no string code`);
      assert.ok(api.errorCodes().includes(error.code), `${backend}: code ${error.code} is not in errorCodes()`);
      assert.equal(error.code, code, `${backend}: ${error.message}`);
      assert.ok(error.message.startsWith(`${field}`), `${backend}: message does not name ${field}: ${error.message.slice(0, 200)}`);
      assert.ok(error.message.length < 2000, `${backend}: message of ${error.message.length} characters`);
      thrown[backend] = { code: error.code, message: error.message };
      stillWorks(api);
    }
    if (thrown.wasm !== undefined) assert.deepEqual(thrown.wasm, thrown.napi, "napi and wasm must refuse with the same code and message");
    assert.equal(JSON.stringify(state), stateBefore, "a refused call changed its argument");
  });
}

test("a panic in the engine is an engine_panicked error, and the engine keeps working", () => {
  for (const [backend, api] of Object.entries(backends)) {
    for (let round = 0; round < 3; round++) {
      assert.throws(
        () => api.__panicForTests(),
        (e) => e instanceof Error && e.code === "engine_panicked" && e.message.includes("deliberate panic for tests"),
        backend,
      );
      stillWorks(api);
    }
  }
});

/** Runs a short ES module in a fresh Node process; returns its stdout. */
function node(source) {
  return execFileSync(process.execPath, ["--input-type=module", "-e", source], {
    cwd: fileURLToPath(REPO),
    encoding: "utf8",
  });
}

test("wasm: calls before init throw engine_not_ready; bad bytes reject with engine_load_failed; a retry loads", () => {
  const output = node(`
    import { readFile } from "node:fs/promises";
    import * as furtive from "./npm/browser.js";
    const codes = [];
    try { furtive.createState({ ruleset: "opposed" }); } catch (e) { codes.push(e.code); }
    try { await furtive.init(new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9])); } catch (e) { codes.push(e.code, e instanceof Error); }
    try { furtive.createState({ ruleset: "opposed" }); } catch (e) { codes.push(e.code); }
    await furtive.init(await readFile("npm/wasm/furtive_wasm_bg.wasm"));
    codes.push(furtive.createState({ ruleset: "opposed" }).ruleset);
    console.log(JSON.stringify(codes));
  `);
  assert.deepEqual(JSON.parse(output), ["engine_not_ready", "engine_load_failed", true, "engine_not_ready", "opposed"]);
});

test("wasm: init() with no argument reads the .wasm next to browser.js in Node", () => {
  const output = node(`
    import * as furtive from "./npm/browser.js";
    await furtive.init();
    console.log(furtive.backend, furtive.createState({ ruleset: "percentile" }).version);
  `);
  assert.equal(output.trim(), "wasm 2");
});
