// The `Session` class through both backends (the napi addon and wasm in
// Node): bad input to every method, `free()`, `session_lost` after a panic
// and reloading from the last snapshot. The shared vectors run through
// `Session` too (vectors.test.mjs, on napi, wasm in Node, wasm in Chromium
// and the Foundry module's copy of the wasm).
//
//   node --test tests/js/session.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { REPO, loadNodeImpl } from "./impl.mjs";

const backends = { napi: await loadNodeImpl("napi"), wasm: await loadNodeImpl("wasm-node") };

const config = {
  ruleset: "percentile",
  creatures: [
    { id: "spy", stealthSkill: 50, side: "thieves" },
    { id: "guard", acuities: { visual: 10 }, side: "watch" },
    { id: "captain", acuities: { visual: 90 }, side: "watch" },
  ],
};
const enter = { type: "enterStealth", hider: "spy", roll: 37 };
const pair = { observer: "guard", hider: "spy" };

/** A session where the spy hides (P1: 50 + 37 = 87 beats the guard's 10, not the captain's 90). */
function hidden(api) {
  const session = api.Session.create(config);
  session.apply(enter);
  return session;
}

test("Session: its effects read as the free functions' JSON, key for key, the log rendered when read", () => {
  // Every kind of record the packing has: visibility and status changes
  // (with and without an expiry, P6), Perception checks (O4) and stealth
  // rolls with modifiers (P4), GM and public entries, with and without an
  // observer, nested messages and lists (P1's modifiers, O3's allies).
  const percentile = {
    config: {
      ruleset: "percentile",
      creatures: [
        { id: "spy", name: "Éloïse \"the Knife\"", stealthSkill: 120, side: "thieves" },
        { id: "guard", name: "Guard", acuities: { visual: 10 }, side: "watch" },
        { id: "captain", acuities: { visual: 90 }, side: "watch" },
      ],
    },
    events: [
      { type: "enterStealth", hider: "spy", roll: 37, modifiers: { situation: ["dark", "cluttered"], free: [{ label: "fog", value: -5 }, { label: "", value: 3 }] } },
      { type: "modifiersChanged", hider: "spy", modifiers: { situation: ["very_noisy"] } },
      { type: "turnStart", combatant: "spy" },
      { type: "attack", attacker: "spy", targets: ["guard"], hitZone: "head" },
      { type: "turnEnd", combatant: "spy" },
    ],
  };
  const opposed = {
    config: {
      ruleset: "opposed",
      creatures: [
        { id: "rogue", name: "Rogue", side: "party" },
        { id: "orc", side: "horde" },
        { id: "wolf", side: "horde", enhancedSenses: [{ sense: "smell", range: 30, targeting: false }] },
        { id: "ogre", side: "horde" },
      ],
    },
    events: [
      { type: "enterStealth", hider: "rogue", roll: 15, moved: true, view: [{ observer: "orc", clearView: false }, { observer: "wolf", clearView: false, distance: 50 }, { observer: "ogre", clearView: false }] },
      { type: "viewChanged", hider: "rogue", moved: true, view: [{ observer: "orc", clearView: true, distance: 5 }, { observer: "wolf", clearView: true, distance: 7.25 }, { observer: "ogre", clearView: true, distance: 10 }, { observer: "orc", clearView: true, distance: 5 }].slice(0, 3) },
      { type: "perceptionRolled", hider: "rogue", observer: "orc", total: 20 },
      { type: "pointOut", hider: "rogue", observer: "orc", allies: ["ogre", "wolf"] },
      { type: "stopHiding", hider: "rogue" },
    ],
  };
  for (const [backend, api] of Object.entries(backends)) {
    for (const { config, events } of [percentile, opposed]) {
      const session = api.Session.create(config);
      let state = api.createState(config);
      for (const event of events) {
        const effects = session.apply(event);
        const free = api.apply(state, event);
        state = free.state;
        const where = `${backend}, ${config.ruleset}, ${event.type}`;
        assert.deepEqual(Object.keys(effects), ["changes", "requests", "log", "revision", "hiddenFrom", "attempts", "views"], where);
        for (const key of ["changes", "requests", "log"]) {
          assert.equal(JSON.stringify(effects[key]), JSON.stringify(free[key]), `${where}: ${key}`);
        }
        assert.equal(effects.revision, session.revision, where);
      }
    }
  }
});

test("Session: an effects' log read late (after later calls, a refused one, free()) is still that call's log", () => {
  const opposed = {
    ruleset: "opposed",
    creatures: [
      { id: "rogue", name: "Rogue", side: "party" },
      { id: "orc", side: "horde" },
      { id: "ogre", side: "horde" },
    ],
  };
  const events = [
    { type: "enterStealth", hider: "rogue", roll: 15, moved: true },
    { type: "viewChanged", hider: "rogue", view: [{ observer: "orc", clearView: true }, { observer: "ogre", clearView: true }] },
    { type: "perceptionRolled", hider: "rogue", observer: "orc", total: 20 },
  ];
  for (const [backend, api] of Object.entries(backends)) {
    // What each call's log is when read at once.
    const calls = [...events.map((event) => (session) => session.apply(event)), (session) => session.applyAll([{ type: "stopHiding", hider: "rogue" }, events[0]])];
    const reference = api.Session.create(opposed);
    const expected = calls.map((call) => JSON.stringify(call(reference).log));
    reference.free();
    const session = api.Session.create(opposed);
    const unread = calls.map((call, index) => {
      const effects = call(session);
      if (index === 1) assert.throws(() => session.apply({ type: "viewChanged", hider: "nobody", view: [] }), { code: "unknown_token" });
      return effects;
    });
    session.free();
    assert.deepEqual(unread.map((effects) => JSON.stringify(effects.log)), expected, `${backend}: each call's own log, read after free()`);
    assert.ok(unread.every((effects) => effects.log.length > 0), backend);
    assert.equal(unread[1].log, unread[1].log, `${backend}: read once, kept`);
  }
});

test("Session: create, apply, queries, revision, snapshot and load agree with the free functions", () => {
  for (const [backend, api] of Object.entries(backends)) {
    const session = api.Session.create(config);
    assert.equal(session.revision, 0, backend);
    const effects = session.apply(enter);
    assert.equal(effects.revision, 1, backend);
    assert.equal(session.revision, 1, backend);
    const free = api.apply(api.createState(config), enter);
    assert.deepEqual(session.snapshot(), free.state, `${backend}: the session holds the state the free function returns`);
    assert.deepEqual(effects.changes, free.changes, backend);
    assert.deepEqual(effects.log, free.log, backend);
    assert.deepEqual(session.perceives(pair), api.perceives(free.state, pair), backend);
    assert.equal(session.perceives(pair).allowed, false, `${backend}: P3, 87 against acuity 10`);
    assert.equal(session.perceives({ observer: "captain", hider: "spy" }).allowed, true, `${backend}: P3, 87 against acuity 90`);
    assert.deepEqual(session.hiddenFrom(), { guard: ["spy"] }, backend);
    assert.deepEqual(api.Session.hiddenFromChanges(effects), [{ observer: "guard", hider: "spy", hidden: true }], backend);
    const reloaded = api.Session.load(session.snapshot());
    assert.equal(reloaded.revision, 1, backend);
    assert.deepEqual(reloaded.snapshot(), session.snapshot(), backend);
    const all = reloaded.applyAll([{ type: "stopHiding", hider: "spy" }, enter, { type: "gmOverride", hider: "spy", observer: "guard", perceived: true }]);
    assert.equal(all.revision, 2, `${backend}: applyAll is one transaction, one revision`);
    assert.equal(reloaded.perceives(pair).allowed, true, backend);
    session.free();
    reloaded[Symbol.dispose]();
  }
});

test("Session: calls after free() throw session_freed; free() twice is harmless", () => {
  for (const [backend, api] of Object.entries(backends)) {
    const session = hidden(api);
    session.free();
    session.free();
    for (const call of [() => session.apply(enter), () => session.perceives(pair), () => session.revision, () => session.snapshot()]) {
      assert.throws(call, (e) => e instanceof Error && e.code === "session_freed" && /freed/.test(e.message), backend);
    }
    assert.ok(api.errorCodes().includes("session_freed"), backend);
  }
});

// [name, call on a hiding session, expected code, the field the message must name (prefix)]
const cases = [
  ["Session.create without a config", (api) => api.Session.create(), "invalid_input", "config"],
  ["Session.create with an unknown ruleset", (api) => api.Session.create({ ruleset: "d20" }), "invalid_input", "config.ruleset"],
  ["Session.create with a duplicate token", (api) => api.Session.create({ ruleset: "opposed", creatures: [{ id: "a" }, { id: "a" }] }), "duplicate_token", "creatures[1].id"],
  ["Session.load of a string", (api) => api.Session.load("state"), "invalid_input", "state"],
  ["Session.load of a future version", (api, s) => api.Session.load({ ...s.snapshot(), version: 99 }), "unsupported_version", "version"],
  ["Session.load of a state with NaN", (api, s) => api.Session.load({ ...s.snapshot(), revision: NaN }), "invalid_input", "state.revision"],
  ["new Session()", (api) => new api.Session(), "invalid_input", "Session"],
  ["apply without an event", (api, s) => s.apply(), "invalid_input", "event"],
  ["apply: number for a string", (api, s) => s.apply({ ...enter, hider: 3 }), "invalid_input", "event.hider"],
  ["apply: NaN", (api, s) => s.apply({ ...enter, roll: NaN }), "invalid_input", "event.roll"],
  ["apply: unknown event type", (api, s) => s.apply({ type: "teleport" }), "invalid_input", "event.type"],
  ["apply: unknown hider", (api, s) => s.apply({ ...enter, hider: "ghost" }), "unknown_token", "hider"],
  ["apply: out of range d100", (api, s) => s.apply({ ...enter, roll: 0 }), "out_of_range", "roll"],
  ["applyAll of an object", (api, s) => s.applyAll(enter), "invalid_input", "events"],
  ["applyAll: a bad field in the second event", (api, s) => s.applyAll([{ type: "stopHiding", hider: "spy" }, { ...enter, roll: "37" }]), "invalid_input", "events[1].roll"],
  ["applyAll: the second event refused (the first is undone)", (api, s) => s.applyAll([{ type: "stopHiding", hider: "spy" }, { ...enter, hider: "ghost" }]), "unknown_token", "events[1].hider: unknown token `ghost`"],
  ["settle: negative seed", (api, s) => s.settle(enter, -1), "out_of_range", "seed"],
  ["settle: BigInt seed", (api, s) => s.settle(enter, 7n), "invalid_input", "seed"],
  ["rollRequests: undefined element", (api, s) => s.rollRequests([undefined], 1), "invalid_input", "requests[0]"],
  ["perceives: missing field", (api, s) => s.perceives({ observer: "guard" }), "invalid_input", "query"],
  ["perceives: null", (api, s) => s.perceives(null), "invalid_input", "query"],
  ["perceives: an empty hider id", (api, s) => s.perceives({ observer: "guard", hider: "" }), "invalid_input", "hider"],
  ["canLocate: symbol", (api, s) => s.canLocate(Symbol("q")), "invalid_input", "query"],
  ["canDefend: the attacker as the target", (api, s) => s.canDefend({ defender: "guard", target: "spy", attacker: "spy" }), "self_reference", "attacker"],
  ["knockout: d100 out of range", (api, s) => s.knockout({ attacker: "spy", target: "guard", d100: 101 }), "out_of_range", "d100"],
  ["canPickpocket: wrong type", (api, s) => s.canPickpocket({ hider: "spy", target: "guard", held: "yes", visible: true }), "invalid_input", "query.held"],
  ["attackHidden in a percentile session", (api, s) => s.attackHidden({ attacker: "guard", target: "spy" }), "wrong_ruleset", "type"],
  ["hiddenFromChanges of something else", (api) => api.Session.hiddenFromChanges({ changes: [] }), "invalid_input", "effects.hiddenFrom"],
  ["a method called on another object", (api) => api.Session.prototype.apply.call({}, enter), "invalid_input", "apply"],
];

for (const [name, call, code, field] of cases) {
  test(`Session bad input: ${name}`, () => {
    const thrown = {};
    for (const [backend, api] of Object.entries(backends)) {
      const session = hidden(api);
      const before = JSON.stringify(session.snapshot());
      let error;
      assert.throws(() => call(api, session), (e) => ((error = e), true), `${backend} did not throw`);
      assert.ok(error instanceof Error, `${backend}: threw ${typeof error}, not an Error`);
      assert.ok(api.errorCodes().includes(error.code), `${backend}: code ${error.code} is not in errorCodes()`);
      assert.equal(error.code, code, `${backend}: ${error.message}`);
      assert.ok(error.message.startsWith(field), `${backend}: message does not name ${field}: ${error.message.slice(0, 200)}`);
      assert.equal(JSON.stringify(session.snapshot()), before, `${backend}: a refused call changed the session`);
      assert.equal(session.revision, 1, `${backend}: a refused call changed the revision`);
      assert.equal(session.apply({ type: "gmOverride", hider: "spy", observer: "guard", perceived: true }).revision, 2, `${backend}: the session still works`);
      thrown[backend] = { code: error.code, message: error.message };
      session.free();
    }
    assert.deepEqual(thrown.wasm, thrown.napi, "napi and wasm must refuse with the same code and message");
  });
}

test("B1: the queries answer for a token the engine does not know (an answer, not an error), the same on both backends", () => {
  const answers = {};
  for (const [backend, api] of Object.entries(backends)) {
    const session = hidden(api);
    const decision = session.perceives({ observer: "nobody", hider: "spy" });
    assert.equal(decision.allowed, false, `${backend}: an unknown observer must not perceive the hider (B1)`);
    assert.equal(decision.clause, "B1", `${backend}: ${JSON.stringify(decision)}`);
    const unknownHider = session.perceives({ observer: "guard", hider: "nobody" });
    assert.deepEqual([unknownHider.allowed, unknownHider.clause], [true, "B1"], `${backend}: an unknown token is not hiding`);
    const defend = session.canDefend({ defender: "guard", target: "captain", attacker: "ghost" });
    assert.equal(defend.allowed, true, `${backend}: an unknown attacker made no surprise (P6)`);
    answers[backend] = [decision, unknownHider, defend];
    session.free();
  }
  assert.deepEqual(answers.wasm, answers.napi);
});

test("napi: a panic in a session's call loses that session only (session_lost); Session.load(lastSnapshot) restores it", () => {
  const api = backends.napi;
  const session = hidden(api);
  const other = hidden(api);
  const saved = session.snapshot();
  assert.throws(() => session.__panicForTests(), (e) => e.code === "engine_panicked" && e.message.includes("deliberate panic for tests"));
  for (const call of [() => session.perceives(pair), () => session.apply(enter), () => session.revision]) {
    assert.throws(call, (e) => e instanceof Error && e.code === "session_lost" && /Session\.load\(snapshot\)/.test(e.message));
  }
  assert.equal(other.perceives(pair).allowed, false, "another session is untouched");
  const restored = api.Session.load(saved);
  assert.equal(restored.revision, 1);
  assert.equal(restored.perceives(pair).allowed, false);
  session.free();
  assert.throws(() => session.snapshot(), (e) => e.code === "session_freed");
});

test("wasm: after a panic resets the instance, every older session answers session_lost; Session.load(lastSnapshot) restores it", () => {
  const api = backends.wasm;
  const session = hidden(api);
  const other = hidden(api);
  const saved = session.snapshot();
  assert.throws(() => session.__panicForTests(), (e) => e.code === "engine_panicked" && e.message.includes("deliberate panic for tests"));
  for (const lost of [session, other]) {
    for (const call of [() => lost.perceives(pair), () => lost.apply(enter), () => lost.revision, () => lost.snapshot()]) {
      assert.throws(call, (e) => e instanceof Error && e.code === "session_lost" && /Session\.load\(snapshot\)/.test(e.message));
    }
  }
  other.free(); // harmless: nothing of the old instance is freed in the new one
  const restored = api.Session.load(saved);
  assert.equal(restored.revision, 1);
  assert.equal(restored.perceives(pair).allowed, false);
  assert.equal(restored.apply({ type: "gmOverride", hider: "spy", observer: "guard", perceived: true }).revision, 2);
  // A panic through the free function loses sessions too: they share the instance.
  assert.throws(() => api.__panicForTests(), (e) => e.code === "engine_panicked");
  assert.throws(() => restored.perceives(pair), (e) => e.code === "session_lost");
});

test("Session: an argument whose toJSON or getter frees its own session answers session_freed, on both backends; in wasm, one that makes the engine panic answers session_lost: neither is taken for a panic that resets the instance again and loses the other sessions", () => {
  // The arguments are encoded (arguments.js: getters, toJSON) after the
  // handle was checked and before the native call: the caller's code runs
  // in between. One-argument methods (perceives, applyAll) and the general
  // path (settle: an event and a seed).
  const calls = {
    perceives: (session, argument) => session.perceives(argument(pair)),
    applyAll: (session, argument) => session.applyAll([argument({ type: "stopHiding", hider: "spy" })]),
    settle: (session, argument) => session.settle(argument({ type: "stopHiding", hider: "spy" }), 7),
  };
  for (const [backend, api] of Object.entries(backends)) {
    const other = hidden(api);
    for (const [method, call] of Object.entries(calls)) {
      const session = hidden(api);
      const freeing = (value) => ({ toJSON: () => (session.free(), value) });
      assert.throws(() => call(session, freeing), (e) => e.code === "session_freed" && e.message.startsWith(`${method}: `), `${backend} ${method}`);
      const getter = hidden(api);
      const freeingGetter = (value) => ({ ...value, get hider() { getter.free(); return value.hider; } });
      assert.throws(() => call(getter, freeingGetter), (e) => e.code === "session_freed", `${backend} ${method}: a getter`);
      assert.equal(other.perceives(pair).allowed, false, `${backend} ${method}: another session is untouched`);
      assert.equal(other.revision, 1, `${backend} ${method}`);
    }
  }
  const api = backends.wasm;
  for (const [method, call] of Object.entries(calls)) {
    const session = hidden(api);
    let fresh;
    const panicking = (value) => ({
      toJSON() {
        assert.throws(() => api.__panicForTests(), (e) => e.code === "engine_panicked");
        fresh = hidden(api);
        return value;
      },
    });
    assert.throws(() => call(session, panicking), (e) => e.code === "session_lost" && e.message.startsWith(`${method}: `), method);
    assert.equal(fresh.revision, 1, `${method}: a session made after the reset is kept`);
    assert.equal(fresh.perceives(pair).allowed, false, method);
  }
});

test("wasm: arguments cross as UTF-8 bytes: accents, emoji and lone surrogates arrive as napi reads them, several arguments side by side, one over the reused buffer's 1 MiB on its own; bytes that are not UTF-8 are invalid_input naming the argument", async () => {
  // npm/browser.js encodes each argument with TextEncoder.encodeInto into one
  // reused buffer (an argument of more than 1 MiB of bytes gets its own).
  const names = ["Garde « élite » 🎲", "espion\ud800", "x".repeat(256)];
  const creatures = [
    { id: "spy", stealthSkill: 50, side: "thieves", name: "é".repeat(256) },
    ...names.map((id, i) => ({ id, acuities: { visual: [10, 90, 95][i] }, side: "watch" })),
    // 1,500 bystanders named with 256 characters (the longest name the engine
    // takes) make every state longer than the reused buffer (over 1 MiB at
    // three bytes per code unit).
    ...Array.from({ length: 1500 }, (_, i) => ({ id: `bystander-${i}`, side: "town", name: "é".repeat(256) })),
  ];
  const outcomes = {};
  for (const [backend, api] of Object.entries(backends)) {
    const session = api.Session.create({ ruleset: "percentile", creatures });
    session.apply(enter);
    const snapshot = session.snapshot();
    assert.ok(JSON.stringify(snapshot).length * 3 > 1 << 20, backend);
    const reloaded = api.Session.load(snapshot);
    outcomes[backend] = {
      ids: Object.keys(snapshot.creatures).filter((id) => !id.startsWith("bystander-")).sort(),
      perceives: names.map((observer) => reloaded.perceives({ observer, hider: "spy" }).allowed),
      // Two arguments side by side in the buffer, then a short call reusing it.
      free: api.perceives(snapshot, { observer: names[0], hider: "spy" }).allowed,
      same: JSON.stringify(reloaded.snapshot()) === JSON.stringify(snapshot),
    };
  }
  assert.deepEqual(outcomes.wasm, outcomes.napi);
  assert.ok(outcomes.wasm.ids.includes("espion\ufffd"), "a lone surrogate becomes U+FFFD");
  assert.equal(outcomes.wasm.same, true);
  assert.deepEqual(outcomes.wasm.perceives, [false, true, true]);

  // The raw wasm-bindgen export (the instance browser.js loaded) refuses bytes that are not UTF-8.
  const raw = await import(new URL("npm/wasm/furtive_wasm.js", REPO).href);
  const utf8 = (value) => new TextEncoder().encode(JSON.stringify(value));
  const session = raw.Session.create(utf8(config));
  for (const [call, field] of [
    [() => session.apply(new Uint8Array([0x7b, 0xff, 0x7d])), "event"],
    [() => raw.Session.create(new Uint8Array([0xc3])), "config"],
    [() => raw.perceives(utf8({}), new Uint8Array([0xed, 0xa0, 0x80])), "query"],
  ]) {
    assert.throws(call, (error) => error.code === "invalid_input" && error.message.startsWith(`${field}: not UTF-8 text (`), field);
  }
  assert.equal(session.revision, 0, "a refused call changes nothing");
  session.free();
});

test("Session.load: a creature whose id has a lone surrogate, as a value and as its key in the snapshot's map, loads as U+FFFD on both backends (not an escape serde_json refuses without naming a field)", () => {
  for (const [backend, api] of Object.entries(backends)) {
    const snapshot = hidden(api).snapshot();
    const id = "espion\ud800";
    snapshot.creatures[id] = { ...snapshot.creatures.guard, id };
    const loaded = api.Session.load(snapshot);
    assert.deepEqual(Object.keys(loaded.snapshot().creatures).sort(), ["captain", "espion\ufffd", "guard", "spy"], backend);
    assert.equal(loaded.perceives({ observer: id, hider: "spy" }).allowed, true, `${backend}: the id reads as the same U+FFFD`);
  }
});


test("npm/node.js and npm/browser.js export every free function of the one export list (npm/signatures.js), and its classes", async () => {
  const { SIGNATURES } = await import(new URL("npm/signatures.js", REPO));
  for (const [name, api] of Object.entries(backends)) {
    const missing = Object.keys(SIGNATURES).filter((fn) => typeof api[fn] !== "function");
    assert.deepEqual(missing, [], `${name}: free functions of the export list missing from its module`);
    assert.equal(typeof api.Session?.create, "function", `${name}: Session`);
    assert.equal(typeof api.SceneSight?.parse, "function", `${name}: SceneSight`);
  }
});
